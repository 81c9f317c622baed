"""Five-card hand evaluation for every ruleset of the package, batched and scalar.

Rulesets
--------
================  ==========================================================================
``"standard"``    high hands: straight flush (royal reported apart) > four of a kind > full
                  house > flush > straight > three of a kind > two pair > pair > high card;
                  A-2-3-4-5 is the lowest straight; suits never break ties (RULES §3, §5).
``"quintet"``     32-card piquet deck, RULES §1: straights only inside 7..A (lowest J-T-9-8-7,
                  no ace-low straight); straights by the top card only, four of a kind, full
                  house and three of a kind by the rank of the group only; flush and high card
                  card by card; two pair and pair with their odd cards. Cards below 7 and jokers
                  are rejected.
``"draw"``        RULES §2 (seed 001): five of a kind > royal flush > straight flush > four of
                  a kind > full house > flush > straight > three of a kind > two pair > pair >
                  ace-king > nothing, with the seed's suit tie-breaks (hearts > clubs >
                  diamonds > spades); two decks allowed.
``"low"``         ace-to-five low (RULES §5): aces low, straights and flushes ignored, the best
                  hand is 5-4-3-2-A. A higher key is a *better low*.
================  ==========================================================================

Wild cards (jokers always; deuces too with ``deuces_wild=True``) stand for any card, duplicates
included, and take the value that gives the best hand under the ruleset (suit tie-breaks
included for ``"draw"``). Five of a kind outranks everything in every high ruleset.

Keys
----
:func:`evaluate` returns one ``int64`` strength key per hand: higher is better, equal keys are
equal hands under that ruleset. Bits 24 and up hold the :class:`Category` (for ``"low"``, the
inverted pairing class), the bits below hold the tie-breaking ranks and, for ``"draw"``, suits.
Keys are comparable only within one ruleset.

How it works
------------
Each rank has a weight such that every multiset of at most five ranks has a distinct sum, and
each suit (and "wild") a 3-bit counter. One gather and four additions give a hand's rank-sum and
suit counts; the suit counts pick a table section (number of wild cards, all natural cards of
one suit or not) and the rank-sum picks the hand class inside it. Every answer about a hand
class (key, category, wild interpretations, draw suit rules) is precomputed once per ruleset
over all 17,136 classes, so evaluation is a handful of numpy gathers with no sorting and no
Python loop over hands. Where numba is installed (:mod:`.jit`), :func:`evaluate` and
:func:`evaluate_draws` read the same tables in one compiled loop over the hands
(:mod:`.compiled`): the same keys and errors, about 3x as fast.
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations_with_replacement
from typing import Literal

import numpy as np

from . import jit
from .cards import JOKER, NUM_CARD_IDS, PIQUET_LOWEST_RANK, CardsLike, Deck

__all__ = [
    "NUM_HAND_CLASSES",
    "RULESETS",
    "Category",
    "Ruleset",
    "categories",
    "category_name",
    "evaluate",
    "evaluate_draws",
    "hand_category",
    "hand_classes",
    "hand_key",
    "make_classifier",
    "make_evaluator",
    "points_table",
    "qualifies_low",
]

Ruleset = Literal["standard", "quintet", "draw", "low"]
RULESETS: tuple[str, ...] = ("standard", "quintet", "draw", "low")


class Category(enum.IntEnum):
    """Hand categories shared by every ruleset (each ruleset uses a subset)."""

    NOTHING = 0  # "high card"; "nothing" in draw poker; "chance" in Quintet
    ACE_KING = 1  # draw poker only
    PAIR = 2
    TWO_PAIR = 3
    THREE_OF_A_KIND = 4
    STRAIGHT = 5
    FLUSH = 6
    FULL_HOUSE = 7
    FOUR_OF_A_KIND = 8
    STRAIGHT_FLUSH = 9
    ROYAL_FLUSH = 10  # reported apart in "standard" and "draw"; a straight flush in "quintet"
    FIVE_OF_A_KIND = 11  # wild cards or two decks only


_NAMES = {
    Category.NOTHING: "nothing",
    Category.ACE_KING: "ace-king",
    Category.PAIR: "pair",
    Category.TWO_PAIR: "two pair",
    Category.THREE_OF_A_KIND: "three of a kind",
    Category.STRAIGHT: "straight",
    Category.FLUSH: "flush",
    Category.FULL_HOUSE: "full house",
    Category.FOUR_OF_A_KIND: "four of a kind",
    Category.STRAIGHT_FLUSH: "straight flush",
    Category.ROYAL_FLUSH: "royal flush",
    Category.FIVE_OF_A_KIND: "five of a kind",
}


@cache  # a settled hand names its showdown's categories: the enum's lookup costs more
def category_name(category: int, ruleset: str = "standard") -> str:
    """English name of a category in a ruleset's own words (``"nothing"`` vs ``"high card"``)."""
    _check_ruleset(ruleset)
    cat = Category(int(category))
    if cat == Category.NOTHING and ruleset != "draw":
        return "high card"
    return _NAMES[cat]


# --- encoding --------------------------------------------------------------------------------
# Rank weights: every multiset of at most five ranks has a distinct sum (found greedily).
RANK_WEIGHTS = (0, 1, 6, 31, 108, 366, 926, 2286, 5733, 12905, 27316, 44676, 94545)
_SUIT_SHIFT = 20  # 5 * 94545 < 2**20
_RANK_MASK = (1 << _SUIT_SHIFT) - 1
_SUIT_WEIGHTS = (1, 8, 64, 512)  # 3-bit counter per suit
_WILD_WEIGHT = 4096  # 3-bit counter of wild cards
_SUIT_FIELD_SIZE = 5 * _WILD_WEIGHT + 1
_INVALID = 1 << 40  # makes the suit field overflow the section table: a rejected card
# Suit priority of RULES §2, indexed by suit index (s, h, d, c): hearts > clubs > diamonds > spades.
SUIT_PRIORITY = (0, 3, 1, 2)
_A = 12
_K = 11

_TIE_SHIFT = 2  # two low bits left free for a draw-poker suit
_FLUSH_SUIT_SHIFT = 22
_CAT_SHIFT = 24


def _multisets(size: int) -> list[tuple[int, ...]]:
    return list(combinations_with_replacement(range(13), size))


def _rank_sum(ranks: Iterable[int]) -> int:
    return sum(RANK_WEIGHTS[r] for r in ranks)


@dataclass(frozen=True)
class _Layout:
    """Where each (wild count, suited, rank multiset) hand class lives."""

    sparse_to_class: np.ndarray  # int16, indexed by rank-sum + section offset
    section_offset: np.ndarray  # int64, indexed by suit field
    section_of_class: list[tuple[int, bool, tuple[int, ...]]]  # (wilds, suited, naturals)
    flush_priority: np.ndarray  # int64 priority of the natural cards' common suit, by suit field


@cache
def _layout() -> _Layout:
    offsets: dict[tuple[int, bool], int] = {}
    classes: list[tuple[int, bool, tuple[int, ...]]] = []
    pos = 0
    for wilds in range(6):
        naturals = 5 - wilds
        for suited in (False, True):
            offsets[wilds, suited] = pos
            pos += naturals * RANK_WEIGHTS[-1] + 1
    sparse = np.full(pos, -1, dtype=np.int16)
    for wilds in range(6):
        for suited in (False, True):
            for ms in _multisets(5 - wilds):
                sparse[offsets[wilds, suited] + _rank_sum(ms)] = len(classes)
                classes.append((wilds, suited, ms))
    section = np.zeros(_SUIT_FIELD_SIZE, dtype=np.int64)
    flush_priority = np.zeros(_SUIT_FIELD_SIZE, dtype=np.int64)
    for counts in _compositions(5, 5):
        *suit_counts, wilds = counts
        naturals = 5 - wilds
        field = (
            sum(c * w for c, w in zip(suit_counts, _SUIT_WEIGHTS, strict=True))
            + wilds * _WILD_WEIGHT
        )
        one_suit = [s for s in range(4) if suit_counts[s] == naturals]
        suited = naturals == 0 or bool(one_suit)
        section[field] = offsets[wilds, suited]
        if suited and naturals:
            flush_priority[field] = SUIT_PRIORITY[one_suit[0]]
    return _Layout(sparse, section, classes, flush_priority)


def _compositions(total: int, parts: int) -> Iterable[tuple[int, ...]]:
    if parts == 1:
        yield (total,)
        return
    for first in range(total + 1):
        for rest in _compositions(total - first, parts - 1):
            yield (first, *rest)


NUM_HAND_CLASSES = sum(2 * len(_multisets(n)) for n in range(6))  # 17,136


# --- the rules of each ruleset, on rank multisets ----------------------------------------------
# A scored interpretation: (key, category, suit rule, rank whose suit breaks ties)
_NO_SUIT, _CARD_SUIT, _FLUSH_SUIT_HIGH, _FLUSH_SUIT_LOW = 0, 1, 2, 3


def _pack(ranks: Sequence[int]) -> int:
    value = 0
    for i in range(5):
        value = (value << 4) | (ranks[i] if i < len(ranks) else 0)
    return value


def _straight_top(desc: Sequence[int], ruleset: str) -> int | None:
    if len(set(desc)) != 5:
        return None
    if desc[0] - desc[4] == 4:
        if ruleset == "quintet" and desc[4] < PIQUET_LOWEST_RANK:
            return None
        return desc[0]
    if ruleset != "quintet" and tuple(desc) == (_A, 3, 2, 1, 0):
        return 3  # A-2-3-4-5, the five is the top card
    return None


def _high_interpretations(ms: tuple[int, ...], suited: bool, ruleset: str) -> list[tuple]:
    """Every category reading of a complete 5-rank multiset, as (cat, tiebreak, suit rule, rank)."""
    groups = sorted(Counter(ms).items(), key=lambda rc: (-rc[1], -rc[0]))
    shape = tuple(c for _, c in groups)
    by_group = [r for r, _ in groups]
    desc = sorted(ms, reverse=True)
    quintet = ruleset == "quintet"
    out: list[tuple] = []
    if shape == (5,):
        out.append((Category.FIVE_OF_A_KIND, by_group[:1], _NO_SUIT, -1))
    elif shape == (4, 1):
        out.append((Category.FOUR_OF_A_KIND, by_group[:1] if quintet else by_group, _NO_SUIT, -1))
    elif shape == (3, 2):
        out.append((Category.FULL_HOUSE, by_group[:1] if quintet else by_group, _NO_SUIT, -1))
    elif shape == (3, 1, 1):
        cat = Category.THREE_OF_A_KIND
        out.append((cat, by_group[:1] if quintet else by_group, _NO_SUIT, -1))
    elif shape == (2, 2, 1):
        out.append((Category.TWO_PAIR, by_group, _CARD_SUIT, by_group[2]))
    elif shape == (2, 1, 1, 1):
        out.append((Category.PAIR, by_group, _CARD_SUIT, by_group[1]))
    else:
        top = _straight_top(desc, ruleset)
        if top is not None:
            out.append((Category.STRAIGHT, [top], _CARD_SUIT, top))
        elif ruleset == "draw" and desc[0] == _A and desc[1] == _K:
            out.append((Category.ACE_KING, desc, _CARD_SUIT, desc[0]))
        else:
            out.append((Category.NOTHING, desc, _CARD_SUIT, desc[0]))
    if suited:
        top = _straight_top(desc, ruleset)
        if top is not None:
            cat = Category.ROYAL_FLUSH if top == _A else Category.STRAIGHT_FLUSH
            out.append((cat, [top], _FLUSH_SUIT_LOW, -1))
        else:
            out.append((Category.FLUSH, desc, _FLUSH_SUIT_HIGH, -1))
    return out


_LOW_ORDER = (
    Category.NOTHING,
    Category.PAIR,
    Category.TWO_PAIR,
    Category.THREE_OF_A_KIND,
    Category.FULL_HOUSE,
    Category.FOUR_OF_A_KIND,
    Category.FIVE_OF_A_KIND,
)
_LOW_SHAPES = {
    (1, 1, 1, 1, 1): Category.NOTHING,
    (2, 1, 1, 1): Category.PAIR,
    (2, 2, 1): Category.TWO_PAIR,
    (3, 1, 1): Category.THREE_OF_A_KIND,
    (3, 2): Category.FULL_HOUSE,
    (4, 1): Category.FOUR_OF_A_KIND,
    (5,): Category.FIVE_OF_A_KIND,
}


def _low_value(rank: int) -> int:
    """Ace-to-five value: ace 0, deuce 1, ..., king 12."""
    return (rank + 1) % 13


def _score(ms: tuple[int, ...], suited: bool, ruleset: str) -> tuple[int, int, int, int]:
    """Best reading of a complete multiset: (key sans runtime suits, category, suit rule, rank).

    Called only while :func:`_tables` builds a ruleset's tables (which memoises it locally)."""
    if ruleset == "low":
        values = Counter(_low_value(r) for r in ms)
        groups = sorted(values.items(), key=lambda vc: (-vc[1], -vc[0]))
        cat = _LOW_SHAPES[tuple(c for _, c in groups)]
        packed = _pack([v for v, _ in groups])
        inverted = len(_LOW_ORDER) - 1 - _LOW_ORDER.index(cat)
        return (inverted << _CAT_SHIFT) | (((1 << 20) - 1 - packed) << _TIE_SHIFT), cat, 0, -1
    readings = []
    for cat, ranks, suit_rule, rank in _high_interpretations(ms, suited, ruleset):
        key = (int(cat) << _CAT_SHIFT) | (_pack(ranks) << _TIE_SHIFT)
        if ruleset != "draw":
            suit_rule, rank = _NO_SUIT, -1
        readings.append((key, int(cat), suit_rule, rank))
    # every complete multiset has at least one reading; the first wins ties as before
    return max(readings, key=lambda reading: reading[0])


@dataclass(frozen=True)
class _Tables:
    """Everything about each hand class under one ruleset, indexed by class id."""

    key: np.ndarray  # int64 strength key (draw: before the runtime suit terms)
    category: np.ndarray  # int8 Category of the best reading
    reachable: np.ndarray  # int32 bit set of categories some wild-card reading reaches
    card_suit_shift: np.ndarray  # int64 draw: 4 * rank of the card whose suit breaks ties
    card_suit_mul: np.ndarray  # int64 draw: 1 when that card's suit counts, else 0
    flush_suit_mul: np.ndarray  # int64 draw: multiplier of the flush suit (0 when none)
    low_top: np.ndarray  # int8 low: highest card (ace 1 .. king 13) of an unpaired low, else 99


@cache
def _tables(ruleset: str) -> _Tables:
    layout = _layout()
    n = len(layout.section_of_class)
    key = np.zeros(n, dtype=np.int64)
    category = np.zeros(n, dtype=np.int8)
    reachable = np.zeros(n, dtype=np.int32)
    shift = np.zeros(n, dtype=np.int64)
    card_mul = np.zeros(n, dtype=np.int64)
    flush_mul = np.zeros(n, dtype=np.int64)
    low_top = np.full(n, 99, dtype=np.int8)
    completions = {k: _multisets(k) for k in range(6)}
    scored: dict[tuple[tuple[int, ...], bool], tuple[int, int, int, int]] = {}

    def score(hand: tuple[int, ...], suited: bool) -> tuple[int, int, int, int]:
        found = scored.get((hand, suited))
        if found is None:
            found = scored[hand, suited] = _score(hand, suited, ruleset)
        return found

    for i, (wilds, suited, naturals) in enumerate(layout.section_of_class):
        best = (-1, 0, _NO_SUIT, -1)
        best_hand: tuple[int, ...] = ()
        reach = 0
        for extra in completions[wilds]:
            hand = tuple(sorted(naturals + extra))
            k, cat, rule, rank = score(hand, suited)
            reach |= 1 << cat
            if suited and wilds:
                # wild cards may also take other suits than the naturals' (Jk Jk 5s 6s Ks reads
                # as trips as well as a flush): those readings are reachable too
                reach |= 1 << score(hand, False)[1]
            if rule == _CARD_SUIT and rank not in naturals:
                # the tie-breaking card is a wild card: it takes the best suit, hearts
                k, rule = k + SUIT_PRIORITY[1], _NO_SUIT
            if k > best[0]:
                best, best_hand = (k, cat, rule, rank), hand
        key[i], category[i], reachable[i] = best[0], best[1], reach
        if best[2] == _CARD_SUIT:
            shift[i], card_mul[i] = 4 * best[3], 1
        elif best[2] == _FLUSH_SUIT_HIGH:
            flush_mul[i] = 1 << _FLUSH_SUIT_SHIFT
        elif best[2] == _FLUSH_SUIT_LOW:
            flush_mul[i] = 1
        if ruleset == "low" and best[1] == Category.NOTHING:
            low_top[i] = max(_low_value(r) for r in best_hand) + 1
    if ruleset == "quintet":
        category[category == Category.ROYAL_FLUSH] = Category.STRAIGHT_FLUSH
    return _Tables(key, category, reachable, shift, card_mul, flush_mul, low_top)


@dataclass(frozen=True)
class _CardWeights:
    weights: np.ndarray  # int64 per card id: rank weight | suit (or wild) counter << 20
    suit_nibbles: np.ndarray  # int64 per card id (draw): suit priority << (4 * rank); wild: 0


@cache
def _card_weights(ruleset: str, deuces_wild: bool) -> _CardWeights:
    weights = np.zeros(NUM_CARD_IDS, dtype=np.int64)
    nibbles = np.zeros(NUM_CARD_IDS, dtype=np.int64)
    for card in range(52):
        rank, suit = card >> 2, card & 3
        if ruleset == "quintet" and rank < PIQUET_LOWEST_RANK:
            weights[card] = _INVALID
        elif deuces_wild and rank == 0:
            weights[card] = _WILD_WEIGHT << _SUIT_SHIFT
        else:
            weights[card] = RANK_WEIGHTS[rank] | (_SUIT_WEIGHTS[suit] << _SUIT_SHIFT)
            nibbles[card] = SUIT_PRIORITY[suit] << (4 * rank)
    weights[JOKER] = _INVALID if ruleset == "quintet" else _WILD_WEIGHT << _SUIT_SHIFT
    return _CardWeights(weights, nibbles)


def _check_ruleset(ruleset: str) -> None:
    if ruleset not in RULESETS:
        raise ValueError(f"bad ruleset {ruleset!r}: expected one of {', '.join(RULESETS)}")


def _check_options(ruleset: str, deuces_wild: bool) -> None:
    _check_ruleset(ruleset)
    if not isinstance(deuces_wild, (bool, np.bool_)):
        raise ValueError(f"bad deuces_wild {deuces_wild!r}: expected True or False")
    if deuces_wild and ruleset == "quintet":
        raise ValueError("deuces_wild=True is not allowed with ruleset 'quintet' (no deuces)")


def _as_hands(cards: np.ndarray | Sequence[Sequence[int]]) -> np.ndarray:
    """The (N, 5) integer array of ``cards`` (its ids are range-checked here or by the gather).

    Ids of 8-, 16- and 32-bit arrays are range-checked for free by the first gather, through an
    unsigned view (see :func:`_unsigned`). 64-bit arrays are checked here: numpy casts 64-bit
    unsigned indices to signed ones, so -1 would wrap around and silently read the joker's entry.
    """
    arr = np.asarray(cards)
    if arr.ndim != 2 or arr.shape[1] != 5:
        raise ValueError(f"expected card ids of shape (N, 5), got shape {arr.shape}")
    if arr.dtype.kind not in "iu":
        if arr.size == 0:
            return arr.astype(np.uint8)
        raise ValueError(f"expected an integer array of card ids, got dtype {arr.dtype}")
    if arr.dtype.itemsize == 8 and arr.size and _unsigned(arr).max() >= NUM_CARD_IDS:
        raise _bad_card_error(arr, "standard")
    return arr


def _unsigned(hands: np.ndarray) -> np.ndarray:
    """An unsigned view of an integer array: negative ids become out of range, not wrap around."""
    if hands.dtype.kind == "i":
        return hands.view(hands.dtype.str.replace("i", "u"))
    return hands


def _bad_card_error(hands: np.ndarray, ruleset: str) -> ValueError:
    bad = hands[(hands < 0) | (hands >= NUM_CARD_IDS)]
    if bad.size:
        return ValueError(f"bad card id {int(bad[0])}: expected ids in 0..{NUM_CARD_IDS - 1}")
    weights = _card_weights(ruleset, False).weights
    bad = hands[weights[hands] == _INVALID]
    return ValueError(
        f"card id {int(bad[0])} is not allowed in ruleset {ruleset!r}: "
        "expected cards of the piquet deck (7 to ace), no jokers"
    )


def _card_sum(table: np.ndarray, hands: np.ndarray) -> np.ndarray:
    """``table[hands].sum(axis=1)``, one column at a time.

    Gathering column by column skips the (N, 5) int64 intermediate of the 2-d gather and its
    strided reads: the whole batched evaluation takes about a third less time.
    """
    total = table[hands[:, 0]]
    for column in range(1, 5):
        total += table[hands[:, column]]
    return total


def _classes(hands: np.ndarray, ruleset: str, deuces_wild: bool) -> tuple[np.ndarray, ...]:
    """Hand-class ids and suit fields of a checked (N, 5) array."""
    cw = _card_weights(ruleset, deuces_wild)
    try:
        s = _card_sum(cw.weights, _unsigned(hands))
        return _sum_classes(s)
    except IndexError:
        raise _bad_card_error(hands, ruleset) from None


def _sum_classes(s: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Hand-class ids and suit fields of hands' weight sums (``s`` is overwritten); a sum holding
    a rejected card raises ``IndexError``."""
    layout = _layout()
    field = s >> _SUIT_SHIFT
    offset = layout.section_offset[field]
    s &= _RANK_MASK
    s += offset
    return layout.sparse_to_class[s], field


def _draw_suits(keys: np.ndarray, cls: np.ndarray, field: np.ndarray, nibbles: np.ndarray) -> None:
    """Add to ``"draw"`` keys their suit terms (RULES §2), from the classes, suit fields and suit
    nibble sums (``nibbles`` is overwritten) of the hands."""
    tables = _tables("draw")
    nibbles >>= tables.card_suit_shift[cls]
    nibbles &= 15
    nibbles *= tables.card_suit_mul[cls]
    keys += nibbles
    keys += tables.flush_suit_mul[cls] * _layout().flush_priority[field]


@cache
def _loop_tables(ruleset: str) -> tuple[bool | np.ndarray, ...]:
    """What the compiled loops (:mod:`.compiled`) read a hand's key from, after its sums:
    whether the suits count (``"draw"``), then the evaluator's tables (:func:`_layout`'s
    sections, classes and flush priorities, :func:`_tables`' keys and suit rules)."""
    layout, tables = _layout(), _tables(ruleset)
    return (
        ruleset == "draw",
        layout.section_offset,
        layout.sparse_to_class,
        tables.key,
        tables.card_suit_shift,
        tables.card_suit_mul,
        tables.flush_suit_mul,
        layout.flush_priority,
    )


def evaluate(
    cards: np.ndarray | Sequence[Sequence[int]],
    ruleset: Ruleset = "standard",
    *,
    deuces_wild: bool = False,
) -> np.ndarray:
    """Strength keys of N five-card hands: higher is better, equal keys are equal hands.

    Args:
        cards: integer array of card ids, shape ``(N, 5)`` (any integer dtype).
        ruleset: ``"standard"``, ``"quintet"``, ``"draw"`` or ``"low"`` (see the module doc).
        deuces_wild: deuces are wild too (jokers always are).

    Returns:
        ``int64`` array of shape ``(N,)``.

    >>> from pokerzoo.envs.cards import parse_cards
    >>> a, b = evaluate([parse_cards("As Ah Kd Kc 2s"), parse_cards("Qs Qh Jd Jc Ac")])
    >>> bool(a > b)
    True
    """
    _check_options(ruleset, deuces_wild)
    hands = _as_hands(cards)
    tables = _tables(ruleset)
    if jit.available() and len(hands):
        from . import compiled

        cw = _card_weights(ruleset, deuces_wild)
        keys = np.empty(len(hands), dtype=np.int64)
        bad = compiled.hand_keys(
            np.ascontiguousarray(hands),  # any integer dtype: a loop compiled for each
            cw.weights,
            cw.suit_nibbles,
            _loop_tables(ruleset),
            keys,
        )
        if bad >= 0:
            raise _bad_card_error(hands, ruleset)
        return keys
    cls, field = _classes(hands, ruleset, deuces_wild)
    keys = tables.key[cls]
    if ruleset == "draw":
        nibbles = _card_sum(_card_weights(ruleset, deuces_wild).suit_nibbles, hands)
        _draw_suits(keys, cls, field, nibbles)
    return keys


def evaluate_draws(
    held: np.ndarray | Sequence[Sequence[int]],
    replacements: np.ndarray | Sequence[Sequence[Sequence[int]]],
    discards: np.ndarray | Sequence[int],
    ruleset: Ruleset = "standard",
    *,
    deuces_wild: bool = False,
) -> np.ndarray:
    """Strength keys of the hands a draw makes, for many futures and discards at once.

    Hand ``v`` holds ``held[v]``; in its future ``s`` it would draw ``replacements[v, s]``, in
    order; discard ``o`` (``discards[o]``, a 5-bit mask: bit ``i`` throws card ``i``) keeps the
    other cards and draws as many of those replacements, the first ones. The result's entry
    ``[v, s, o]`` is the key :func:`evaluate` gives that hand.

    The hands are never built: a hand's weights are a sum (see the module doc), so the kept
    cards' sum is worked out once per hand and discard and the replacements' as a running sum
    per future, their sum then read in the tables as :func:`evaluate` reads it; where numba is
    installed, in one compiled loop (:func:`pokerzoo.envs.core.compiled.draw_keys`, 3-4x as
    fast). Equal to :func:`evaluate` on the hands, key for key, either way (tested).

    Args:
        held: card ids, shape ``(V, 5)``.
        replacements: card ids, shape ``(V, S, k)``, ``k`` at least the most cards a discard
            throws.
        discards: the discards, each in ``0..31``, shape ``(O,)``.
        ruleset, deuces_wild: as for :func:`evaluate`.

    Returns:
        ``int64`` array of shape ``(V, S, O)``.

    >>> from pokerzoo.envs.cards import parse_cards
    >>> held = [parse_cards("As Ah Kd 7c 2s")]
    >>> drawn = [[parse_cards("Ad 9h Kc"), parse_cards("3c 4c 5d")]]
    >>> keys = evaluate_draws(held, drawn, [0b11000, 0b11100], "draw")  # keep A A K, or A A
    >>> [[category_name(c, "draw") for c in row] for row in keys[0] >> 24]
    [['three of a kind', 'three of a kind'], ['pair', 'pair']]
    """
    _check_options(ruleset, deuces_wild)
    hands = _card_ids(held, "held", 2, f"(V, {_HAND})")
    drawn = _card_ids(replacements, "replacements", 3, f"({len(hands)}, S, k)")
    if hands.shape[1] != _HAND or drawn.shape[0] != len(hands):
        raise ValueError(
            f"expected held of shape (V, {_HAND}) and replacements of shape (V, S, k), "
            f"got shapes {hands.shape} and {drawn.shape}"
        )
    bits = np.asarray(discards)
    if bits.ndim == 1 and not bits.size:
        bits = bits.astype(np.int64)
    if bits.ndim != 1 or bits.dtype.kind not in "iu" or _unsigned(bits).max(initial=0) > 31:
        raise ValueError(f"bad discards {bits.tolist()!r}: expected 5-bit masks in 0..31")
    thrown = _THROWN[bits]
    if thrown.max(initial=0) > drawn.shape[2]:
        raise ValueError(
            f"discard {int(bits[thrown.argmax()])} throws {int(thrown.max())} cards but a future "
            f"holds {drawn.shape[2]} replacements: expected at least as many"
        )
    cw = _card_weights(ruleset, deuces_wild)
    own, new = cw.weights[hands], cw.weights[drawn]
    for ids, weights in ((hands, own), (drawn, new)):
        if weights.size and weights.max() >= _INVALID:
            raise _bad_card_error(ids, ruleset)
    keep = _KEEP[bits]
    if jit.available() and hands.size and drawn.size and bits.size:
        from . import compiled

        return compiled.draw_keys(
            np.ascontiguousarray(hands),  # any integer dtypes: a loop compiled for each
            np.ascontiguousarray(drawn),
            keep,
            np.ascontiguousarray(thrown, dtype=np.int64),
            cw.weights,
            cw.suit_nibbles,
            _loop_tables(ruleset),
        )
    s = _draw_sums(own, new, keep, thrown)
    cls, field = _sum_classes(s.reshape(-1))
    keys = _tables(ruleset).key[cls]
    if ruleset == "draw":
        nibbles = cw.suit_nibbles
        suits = _draw_sums(nibbles[hands], nibbles[drawn], keep, thrown).reshape(-1)
        _draw_suits(keys, cls, field, suits)
    return keys.reshape(s.shape)


_HAND = 5
_KEEP = (np.arange(1 << _HAND)[:, None] >> np.arange(_HAND) & 1) == 0
"""The cards each discard (a 5-bit mask) keeps."""
_THROWN = _HAND - _KEEP.sum(axis=1)
"""How many cards each discard throws."""


def _card_ids(cards: object, name: str, ndim: int, shape: str) -> np.ndarray:
    """``cards`` as an integer array of ``ndim`` dimensions of card ids, each in range."""
    arr = np.asarray(cards)
    if arr.ndim != ndim:
        raise ValueError(f"expected {name} of shape {shape}, got shape {arr.shape}")
    if arr.dtype.kind not in "iu":
        if arr.size:
            raise ValueError(f"expected an integer array of card ids, got dtype {arr.dtype}")
        return arr.astype(np.uint8)
    if arr.size and _unsigned(arr).max() >= NUM_CARD_IDS:
        raise _bad_card_error(arr, "standard")
    return arr


def _draw_sums(
    own: np.ndarray, new: np.ndarray, keep: np.ndarray, thrown: np.ndarray
) -> np.ndarray:
    """``(V, S, O)`` sums of per-card values of the hands of :func:`evaluate_draws`: ``own``
    ``(V, 5)`` the held cards', ``new`` ``(V, S, k)`` the replacements', ``keep`` ``(O, 5)`` the
    cards each discard keeps, ``thrown`` ``(O,)`` how many it throws."""
    kept = own @ keep.T.astype(np.int64)  # (V, O); a sum along five columns is slow
    # the replacements' running sums, a column at a time (a cumulative sum along a few columns
    # is slow); only as many as a discard throws
    depth = int(thrown.max(initial=0))
    running = np.zeros((*new.shape[:2], depth + 1), dtype=np.int64)
    for k in range(depth):
        np.add(running[:, :, k], new[:, :, k], out=running[:, :, k + 1])
    return kept[:, None, :] + running[:, :, thrown]


def categories(
    cards: np.ndarray | Sequence[Sequence[int]],
    ruleset: Ruleset = "standard",
    *,
    deuces_wild: bool = False,
) -> np.ndarray:
    """:class:`Category` of N five-card hands (``int8``), matching :func:`evaluate`.

    For ``"low"`` the category is the pairing class of the best low hand (straights and flushes
    do not exist there).

    Where numba is installed, the categories of ``"standard"`` and ``"draw"`` are the bits of
    :func:`evaluate`'s compiled keys from bit 24 (the module doc's "Keys"): the same categories,
    faster than numpy's class lookup. (``"quintet"``'s keys hold a royal flush apart, which its
    categories count as a straight flush, and ``"low"``'s an inverted class.)
    """
    _check_options(ruleset, deuces_wild)
    hands = _as_hands(cards)
    if ruleset in ("standard", "draw") and jit.available() and len(hands):
        return (evaluate(hands, ruleset, deuces_wild=deuces_wild) >> _CAT_SHIFT).astype(np.int8)
    cls, _ = _classes(hands, ruleset, deuces_wild)
    return _tables(ruleset).category[cls]


def hand_classes(
    cards: np.ndarray | Sequence[Sequence[int]],
    ruleset: Ruleset = "standard",
    *,
    deuces_wild: bool = False,
) -> np.ndarray:
    """Hand-class ids (0..NUM_HAND_CLASSES-1) of N hands: the index into :func:`points_table`.

    A class is the rank multiset of the natural cards, the number of wild cards and whether the
    natural cards share one suit; every suit-free property of a hand is a function of its class.
    """
    _check_options(ruleset, deuces_wild)
    cls, _ = _classes(_as_hands(cards), ruleset, deuces_wild)
    return cls.astype(np.int64)


def points_table(points: Mapping[Category, int] | Sequence[int]) -> np.ndarray:
    """Points of every hand class when a line scores its best-scoring wild-card reading.

    ``points`` gives each :class:`Category` its points (a mapping, missing categories score 0,
    or a sequence indexed by category). Entry ``c`` of the result is the most points any reading
    of the wild cards in class ``c`` earns, each reading scored by its own best category under
    the ``"standard"`` ruleset (royal flush apart). Index it with :func:`hand_classes` or
    :func:`make_classifier`.
    """
    if isinstance(points, Mapping):
        by_cat = [0] * len(Category)
        for cat, value in points.items():
            by_cat[int(Category(cat))] = value
    else:
        by_cat = list(points)
        if len(by_cat) != len(Category):
            raise ValueError(
                f"expected {len(Category)} points, one per Category, got {len(by_cat)}"
            )
    for value in by_cat:
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
            raise ValueError(f"bad points value {value!r}: expected an int")
    reach = _tables("standard").reachable
    best = np.full(reach.shape, np.iinfo(np.int64).min, dtype=np.int64)
    for cat, value in enumerate(by_cat):
        best = np.where(reach & (1 << cat), np.maximum(best, value), best)
    return best


def qualifies_low(keys: np.ndarray | int, qualifier: int | None) -> np.ndarray | bool:
    """Whether ``"low"`` keys qualify: no pair and highest card at most ``qualifier`` (ace 1).

    ``qualifier=None`` accepts every hand; ``8`` is eight-or-better.
    """
    if qualifier is None:
        return np.ones(np.shape(keys), dtype=bool) if np.ndim(keys) else True
    if isinstance(qualifier, bool) or not isinstance(qualifier, int) or not 5 <= qualifier <= 13:
        raise ValueError(f"bad low qualifier {qualifier!r}: expected None or an int in 5..13")
    k = np.asarray(keys, dtype=np.int64)
    unpaired = (k >> _CAT_SHIFT) == len(_LOW_ORDER) - 1
    top = ((1 << 20) - 1 - ((k >> _TIE_SHIFT) & ((1 << 20) - 1))) >> 16  # highest ace-low value
    result = unpaired & (top + 1 <= qualifier)
    return result if np.ndim(keys) else bool(result)


# --- scalar helpers for the envs' hot paths ------------------------------------------------------
def make_classifier(
    ruleset: Ruleset = "standard", *, deuces_wild: bool = False
) -> Callable[[int, int, int, int, int], int]:
    """A fast function of five card ids returning their hand-class id (see :func:`hand_classes`).

    Ids are not range-checked beyond what list indexing does; envs call it with validated cards.
    One function per ruleset and wild-card option, built once (an env builds its own at each
    construction, and building takes milliseconds).
    """
    _check_options(ruleset, deuces_wild)
    return _classifier(ruleset, deuces_wild)


@cache
def _classifier(ruleset: Ruleset, deuces_wild: bool) -> Callable[[int, int, int, int, int], int]:
    """:func:`make_classifier`'s function, its options checked."""
    layout = _layout()
    weights = _card_weights(ruleset, deuces_wild).weights.tolist()
    offsets = layout.section_offset.tolist()
    sparse = layout.sparse_to_class
    valid = np.flatnonzero(sparse >= 0)
    classes = dict(zip(valid.tolist(), sparse[valid].tolist(), strict=True))

    def classify(a: int, b: int, c: int, d: int, e: int) -> int:
        s = weights[a] + weights[b] + weights[c] + weights[d] + weights[e]
        return classes[(s & _RANK_MASK) + offsets[s >> _SUIT_SHIFT]]

    return classify


def make_evaluator(
    ruleset: Ruleset = "standard", *, deuces_wild: bool = False
) -> Callable[[int, int, int, int, int], int]:
    """A fast function of five card ids returning the strength key :func:`evaluate` gives.

    >>> ev = make_evaluator()
    >>> ev(*parse_cards("As Ks Qs Js Ts")) > ev(*parse_cards("9s 9h 9d 9c 2s"))
    True

    One function per ruleset and wild-card option, built once (see :func:`make_classifier`).
    """
    _check_options(ruleset, deuces_wild)
    return _evaluator(ruleset, deuces_wild)


@cache
def _evaluator(ruleset: Ruleset, deuces_wild: bool) -> Callable[[int, int, int, int, int], int]:
    """:func:`make_evaluator`'s function, its options checked."""
    layout = _layout()
    tables = _tables(ruleset)
    cw = _card_weights(ruleset, deuces_wild)
    weights = cw.weights.tolist()
    offsets = layout.section_offset.tolist()
    sparse = layout.sparse_to_class
    valid = np.flatnonzero(sparse >= 0)
    keys = dict(zip(valid.tolist(), tables.key[sparse[valid]].tolist(), strict=True))
    if ruleset != "draw":

        def strength(a: int, b: int, c: int, d: int, e: int) -> int:
            s = weights[a] + weights[b] + weights[c] + weights[d] + weights[e]
            return keys[(s & _RANK_MASK) + offsets[s >> _SUIT_SHIFT]]

        return strength

    classes = dict(zip(valid.tolist(), sparse[valid].tolist(), strict=True))
    nibbles = cw.suit_nibbles.tolist()
    shift = tables.card_suit_shift.tolist()
    card_mul = tables.card_suit_mul.tolist()
    flush_mul = tables.flush_suit_mul.tolist()
    flush_priority = layout.flush_priority.tolist()

    def draw_strength(a: int, b: int, c: int, d: int, e: int) -> int:
        s = weights[a] + weights[b] + weights[c] + weights[d] + weights[e]
        field = s >> _SUIT_SHIFT
        cls = classes[(s & _RANK_MASK) + offsets[field]]
        key = keys[(s & _RANK_MASK) + offsets[field]]
        if card_mul[cls]:
            s2 = nibbles[a] + nibbles[b] + nibbles[c] + nibbles[d] + nibbles[e]
            key += (s2 >> shift[cls]) & 15
        return key + flush_mul[cls] * flush_priority[field]

    return draw_strength


# The packs a single hand of each ruleset may come from: what its games deal at the most.
_PACKS = {
    "standard": Deck("standard", jokers=4),
    "quintet": Deck("piquet"),
    "draw": Deck("standard", jokers=4, decks=2),
    "low": Deck("standard", jokers=4),
}


def _five(cards: CardsLike, ruleset: str) -> list[int]:
    """Five cards one hand of ``ruleset`` can hold (the one validation path of
    :class:`~.cards.Deck`: a duplicate needs two decks, a piquet hand no card below 7)."""
    _check_ruleset(ruleset)
    return _PACKS[ruleset].parse(cards, count=5, what="hand")


def hand_key(cards: CardsLike, ruleset: Ruleset = "standard", *, deuces_wild: bool = False) -> int:
    """Strength key of one hand given in any card form (``"As Kd Qh Jc Ts"``)."""
    return int(evaluate(np.array([_five(cards, ruleset)]), ruleset, deuces_wild=deuces_wild)[0])


def hand_category(
    cards: CardsLike, ruleset: Ruleset = "standard", *, deuces_wild: bool = False
) -> Category:
    """:class:`Category` of one hand given in any card form."""
    hand = np.array([_five(cards, ruleset)])
    return Category(int(categories(hand, ruleset, deuces_wild=deuces_wild)[0]))
