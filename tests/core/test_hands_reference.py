"""A plain, obviously-correct hand classifier per ruleset, used as the oracle of the hand tests.

Each reference sorts the cards, counts ranks and reads the RULES text top-down, one category at
a time, returning a tuple that compares like the hands (larger is better). It is slow (pure
Python, one hand at a time) and written without looking at how ``envs/hands.py`` works; wild
cards are handled by brute force: every wild card is replaced by each of the 52 cards
(duplicates allowed) and the best reading is kept.

The other ``test_hands_*`` files import it; the tests here check the oracle itself against
numbers computed by combinatorics.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence
from math import comb

import numpy as np
from pokerzoo.envs.core.cards import JOKER, format_cards, parse_cards
from pokerzoo.envs.core.hands import Category, categories, evaluate

Key = tuple[int, ...]

ACE, KING, FIVE = 12, 11, 3  # rank indices
PIQUET_SEVEN = 5
# RULES §2 suit priority, hearts > clubs > diamonds > spades, by suit index (s, h, d, c).
DRAW_SUIT_PRIORITY = {0: 0, 1: 3, 2: 1, 3: 2}
# Ace-to-five low: pairing classes from best to worst.
LOW_SHAPES = [
    ((1, 1, 1, 1, 1), Category.NOTHING),
    ((2, 1, 1, 1), Category.PAIR),
    ((2, 2, 1), Category.TWO_PAIR),
    ((3, 1, 1), Category.THREE_OF_A_KIND),
    ((3, 2), Category.FULL_HOUSE),
    ((4, 1), Category.FOUR_OF_A_KIND),
    ((5,), Category.FIVE_OF_A_KIND),
]


def _rank(card: int) -> int:
    return card // 4


def _suit(card: int) -> int:
    return card % 4


def _groups(ranks: Sequence[int]) -> tuple[tuple[int, ...], list[int]]:
    """(group sizes, the group ranks) ordered by size, then rank, both descending."""
    ordered = sorted(Counter(ranks).items(), key=lambda rank_count: (rank_count[1], rank_count[0]))
    ordered.reverse()
    return tuple(n for _, n in ordered), [r for r, _ in ordered]


def _straight_top(ranks: Sequence[int], ace_low: bool) -> int | None:
    """Top rank of a straight (A-2-3-4-5 tops at the five when ``ace_low``), else None."""
    desc = sorted(ranks, reverse=True)
    if len(set(desc)) != 5:
        return None
    if desc[0] - desc[4] == 4:
        return desc[0]
    if ace_low and desc == [ACE, FIVE, 2, 1, 0]:
        return FIVE
    return None


def standard_reference(cards: Sequence[int]) -> Key:
    """RULES §3/§5 high hand, no wild cards: category, then the ranks that break ties."""
    ranks = [_rank(c) for c in cards]
    desc = sorted(ranks, reverse=True)
    shape, by_group = _groups(ranks)
    flush = len({_suit(c) for c in cards}) == 1
    top = _straight_top(ranks, ace_low=True)
    if shape == (5,):
        return (Category.FIVE_OF_A_KIND, *by_group)
    if flush and top is not None:
        return (Category.ROYAL_FLUSH if top == ACE else Category.STRAIGHT_FLUSH, top)
    if shape == (4, 1):
        return (Category.FOUR_OF_A_KIND, *by_group)
    if shape == (3, 2):
        return (Category.FULL_HOUSE, *by_group)
    if flush:
        return (Category.FLUSH, *desc)
    if top is not None:
        return (Category.STRAIGHT, top)
    if shape == (3, 1, 1):
        return (Category.THREE_OF_A_KIND, *by_group)
    if shape == (2, 2, 1):
        return (Category.TWO_PAIR, *by_group)
    if shape == (2, 1, 1, 1):
        return (Category.PAIR, *by_group)
    return (Category.NOTHING, *desc)


def quintet_reference(cards: Sequence[int]) -> Key:
    """RULES §1, sentence by sentence."""
    if any(c == JOKER or _rank(c) < PIQUET_SEVEN for c in cards):
        raise ValueError("not a piquet card")
    ranks = [_rank(c) for c in cards]
    desc = sorted(ranks, reverse=True)
    shape, by_group = _groups(ranks)
    flush = len({_suit(c) for c in cards}) == 1
    top = _straight_top(ranks, ace_low=False)  # no ace-low straight; all ranks are 7..A
    if flush and top is not None:
        return (Category.STRAIGHT_FLUSH, top)  # by the top card only
    if shape == (4, 1):
        return (Category.FOUR_OF_A_KIND, by_group[0])  # the four only
    if shape == (3, 2):
        return (Category.FULL_HOUSE, by_group[0])  # the three only
    if flush:
        return (Category.FLUSH, *desc)  # card by card
    if top is not None:
        return (Category.STRAIGHT, top)  # by the top card only
    if shape == (3, 1, 1):
        return (Category.THREE_OF_A_KIND, by_group[0])  # the three only
    if shape == (2, 2, 1):
        return (Category.TWO_PAIR, *by_group)  # higher pair, lower pair, odd card
    if shape == (2, 1, 1, 1):
        return (Category.PAIR, *by_group)  # the pair, then the odd cards from the highest
    return (Category.NOTHING, *desc)  # card by card


def draw_reference(cards: Sequence[int]) -> Key:
    """RULES §2 with its suit tie-breaks (one or two decks, no wild cards)."""
    ranks = [_rank(c) for c in cards]
    desc = sorted(ranks, reverse=True)
    shape, by_group = _groups(ranks)
    suits = {_suit(c) for c in cards}
    flush = len(suits) == 1
    top = _straight_top(ranks, ace_low=True)

    def suit_of(rank: int) -> int:
        (card,) = [c for c in cards if _rank(c) == rank]  # an unpaired rank: exactly one card
        return DRAW_SUIT_PRIORITY[_suit(card)]

    if shape == (5,):
        return (Category.FIVE_OF_A_KIND, *by_group)
    if flush and top is not None:
        cat = Category.ROYAL_FLUSH if top == ACE else Category.STRAIGHT_FLUSH
        return (cat, top, DRAW_SUIT_PRIORITY[suits.pop()])  # top card, then the suit
    if shape == (4, 1):
        return (Category.FOUR_OF_A_KIND, *by_group)
    if shape == (3, 2):
        return (Category.FULL_HOUSE, *by_group)
    if flush:
        return (Category.FLUSH, DRAW_SUIT_PRIORITY[suits.pop()], *desc)  # the suit first
    if top is not None:
        return (Category.STRAIGHT, top, suit_of(top))  # top card, then its suit
    if shape == (3, 1, 1):
        return (Category.THREE_OF_A_KIND, *by_group)
    if shape == (2, 2, 1):
        return (Category.TWO_PAIR, *by_group, suit_of(by_group[2]))  # then the fifth card's suit
    if shape == (2, 1, 1, 1):
        return (Category.PAIR, *by_group, suit_of(by_group[1]))  # then the highest odd card's
    cat = Category.ACE_KING if desc[:2] == [ACE, KING] else Category.NOTHING
    return (cat, *desc, suit_of(desc[0]))  # then the suit of the highest card


def low_reference(cards: Sequence[int]) -> Key:
    """Ace-to-five low (RULES §5): aces low, straights and flushes ignored; larger is a better low.

    A low hand is worse the worse its pairing class, then the higher its groups (pairs first,
    each from the highest); the key negates that "badness".
    """
    values = [(_rank(c) + 1) % 13 + 1 for c in cards]  # ace 1, deuce 2, ..., king 13
    shape, by_group = _groups(values)
    badness = [shape for shape, _ in LOW_SHAPES].index(shape)
    return (-badness, *(-v for v in by_group))


NATURAL_REFERENCES = {
    "standard": standard_reference,
    "quintet": quintet_reference,
    "draw": draw_reference,
    "low": low_reference,
}


def is_wild(card: int, deuces_wild: bool) -> bool:
    return card == JOKER or (deuces_wild and _rank(card) == 0)


def reference_key(cards: Sequence[int], ruleset: str, deuces_wild: bool = False) -> Key:
    """Best key over every replacement of the wild cards by any of the 52 cards."""
    natural_key = NATURAL_REFERENCES[ruleset]
    naturals = [c for c in cards if not is_wild(c, deuces_wild)]
    wilds = len(cards) - len(naturals)
    if wilds and ruleset == "quintet":
        raise ValueError("quintet has no wild cards")
    return max(
        natural_key(naturals + list(extra))
        for extra in itertools.combinations_with_replacement(range(52), wilds)
    )


def reference_category(key: Key, ruleset: str) -> Category:
    if ruleset == "low":
        return LOW_SHAPES[-key[0]][1]
    if ruleset == "quintet" and key[0] == Category.ROYAL_FLUSH:
        return Category.STRAIGHT_FLUSH
    return Category(key[0])


# --- helpers shared by the hand tests ------------------------------------------------------------
def all_hands(lowest_rank: int = 0) -> np.ndarray:
    """Every 5-card hand of one deck of ranks ``lowest_rank``..A, as an (N, 5) int8 array."""
    deck = range(4 * lowest_rank, 52)
    n = comb(len(deck), 5)
    flat = itertools.chain.from_iterable(itertools.combinations(deck, 5))
    return np.fromiter(flat, dtype=np.int8, count=5 * n).reshape(n, 5)


def dense_rank(keys: Sequence[object] | np.ndarray) -> np.ndarray:
    """0 for the smallest distinct key, 1 for the next, ...: the order the keys induce."""
    if isinstance(keys, np.ndarray):
        return np.unique(keys, return_inverse=True)[1].ravel()
    index = {key: i for i, key in enumerate(sorted(set(keys)))}
    return np.array([index[key] for key in keys], dtype=np.int64)


def assert_same_order(hands: np.ndarray, keys: np.ndarray, reference: Sequence[Key]) -> None:
    """``keys`` order ``hands`` exactly as ``reference`` does: same ties, same strict order."""
    ours, theirs = dense_rank(keys), dense_rank(reference)
    if np.array_equal(ours, theirs):
        return
    # Name two hands the orders disagree on: neighbours in the reference order.
    by_reference = np.argsort(theirs, kind="stable")
    for i, j in itertools.pairwise(by_reference):
        if (theirs[i] == theirs[j]) != (ours[i] == ours[j]) or ours[i] > ours[j]:
            raise AssertionError(
                f"order differs from the reference: {format_cards(hands[i])} "
                f"(key {keys[i]}, reference {reference[i]}) vs {format_cards(hands[j])} "
                f"(key {keys[j]}, reference {reference[j]})"
            )
    raise AssertionError("order differs from the reference")


# --- the oracle checked against combinatorics -------------------------------------------------
def _piquet_counts() -> dict[Category, int]:
    """Quintet category counts over the C(32, 5) piquet hands, by counting (8 ranks, 4 suits)."""
    straights = 4  # tops J, Q, K, A
    return {
        Category.STRAIGHT_FLUSH: straights * 4,
        Category.FOUR_OF_A_KIND: 8 * 28,
        Category.FULL_HOUSE: 8 * comb(4, 3) * 7 * comb(4, 2),
        Category.FLUSH: 4 * comb(8, 5) - straights * 4,
        Category.STRAIGHT: straights * (4**5 - 4),
        Category.THREE_OF_A_KIND: 8 * comb(4, 3) * comb(7, 2) * 4**2,
        Category.TWO_PAIR: comb(8, 2) * comb(4, 2) ** 2 * 6 * 4,
        Category.PAIR: 8 * comb(4, 2) * comb(7, 3) * 4**3,
        Category.NOTHING: (comb(8, 5) - straights) * (4**5 - 4),
    }


def test_piquet_counts_add_up() -> None:
    assert sum(_piquet_counts().values()) == comb(32, 5) == 201_376


def test_quintet_reference_counts_match_combinatorics() -> None:
    counts = Counter(reference_category(quintet_reference(h), "quintet") for h in all_hands(5))
    assert counts == _piquet_counts()


def test_standard_reference_reads_straights_in_any_card_order() -> None:
    rng = np.random.default_rng(0)
    for text, cat in [
        ("As Ks Qs Js Ts", Category.ROYAL_FLUSH),
        ("5h 4h 3h 2h Ah", Category.STRAIGHT_FLUSH),
        ("5h 4c 3h 2h Ah", Category.STRAIGHT),
        ("Ah Kc Qh Jh Th", Category.STRAIGHT),
        ("Kh Ac 2h 3h 4h", Category.NOTHING),
    ]:
        cards = parse_cards(text)
        for perm in rng.permuted(np.tile(cards, (5, 1)), axis=1):
            assert standard_reference(perm.tolist())[0] == cat


def test_reference_wild_card_takes_the_best_card() -> None:
    assert reference_key(parse_cards("Jk As Ks Qs Js"), "standard")[0] == Category.ROYAL_FLUSH
    assert reference_key(parse_cards("Jk 9s 8d 7d 6c"), "draw") == (Category.STRAIGHT, 8, 3)
    assert reference_key(parse_cards("2c 3s 4s 5s 6d"), "low", deuces_wild=True) == (
        0,
        -6,
        -5,
        -4,
        -3,
        -1,
    )


def key_of(cards: object, ruleset: str = "standard", *, deuces_wild: bool = False) -> int:
    """The evaluator's key of one hand, through the batched API: it takes any five cards,
    duplicates and five jokers included, where the one-hand helpers check the hand could be
    dealt from the ruleset's pack."""
    hand = np.array([parse_cards(cards)])  # type: ignore[arg-type]
    return int(evaluate(hand, ruleset, deuces_wild=deuces_wild)[0])  # type: ignore[arg-type]


def category_of(cards: object, ruleset: str = "standard", *, deuces_wild: bool = False) -> Category:
    """The evaluator's category of one hand, through the batched API (see :func:`key_of`)."""
    hand = np.array([parse_cards(cards)])  # type: ignore[arg-type]
    return Category(int(categories(hand, ruleset, deuces_wild=deuces_wild)[0]))  # type: ignore[arg-type]
