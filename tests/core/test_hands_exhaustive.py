"""The batched evaluator against the reference classifier: every hand where that is cheap, large
random samples (two decks and wild cards included) where it is not."""

from __future__ import annotations

import itertools
from collections import Counter
from math import comb

import numpy as np
import pytest
from pokerzoo.envs.core.cards import JOKER, make_deck, parse_cards
from pokerzoo.envs.core.hands import Category, categories, evaluate, hand_classes, points_table

from .test_hands_reference import (
    _piquet_counts,
    all_hands,
    assert_same_order,
    is_wild,
    reference_category,
    reference_key,
    standard_reference,
)

STANDARD_COUNTS = {
    Category.ROYAL_FLUSH: 4,
    Category.STRAIGHT_FLUSH: 36,
    Category.FOUR_OF_A_KIND: 624,
    Category.FULL_HOUSE: 3_744,
    Category.FLUSH: 5_108,
    Category.STRAIGHT: 10_200,
    Category.THREE_OF_A_KIND: 54_912,
    Category.TWO_PAIR: 123_552,
    Category.PAIR: 1_098_240,
    Category.NOTHING: 1_302_540,
}
# Draw poker splits high card: an ace and a king with three other ranks (not A-K-Q-J-T), no
# straight or flush, is "ace-king".
ACE_KING_COUNT = (comb(11, 3) - 1) * (4**5 - 4)
DRAW_COUNTS = {
    **STANDARD_COUNTS,
    Category.ACE_KING: ACE_KING_COUNT,
    Category.NOTHING: STANDARD_COUNTS[Category.NOTHING] - ACE_KING_COUNT,
}
# Ace-to-five low knows only pairing classes.
LOW_COUNTS = {
    Category.NOTHING: comb(13, 5) * 4**5,
    Category.PAIR: 1_098_240,
    Category.TWO_PAIR: 123_552,
    Category.THREE_OF_A_KIND: 54_912,
    Category.FULL_HOUSE: 3_744,
    Category.FOUR_OF_A_KIND: 624,
}


def _counts(cats: np.ndarray) -> dict[Category, int]:
    return {Category(c): int(n) for c, n in enumerate(np.bincount(cats)) if n}


@pytest.fixture(scope="module")
def every_hand() -> np.ndarray:
    return all_hands()


@pytest.fixture(scope="module")
def every_piquet_hand() -> np.ndarray:
    return all_hands(lowest_rank=5)


@pytest.mark.parametrize("deuces_wild", [False, True])
@pytest.mark.parametrize("ruleset", ["standard", "draw", "low", "quintet"])
def test_the_compiled_keys_are_numpy_s_on_every_hand(
    every_hand: np.ndarray, ruleset: str, deuces_wild: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where numba is installed ``evaluate`` reads each hand in one compiled loop: the keys of
    the numpy code it stands for, on every hand of the pack (of the piquet deck for
    ``"quintet"``) and on hands with jokers; and ``categories``, read off those keys in
    ``"standard"`` and ``"draw"``, numpy's categories."""
    from pokerzoo.envs.core import jit

    if ruleset == "quintet" and deuces_wild:
        pytest.skip("quintet has no deuces")
    if not jit.available():
        pytest.skip("numba is not installed")
    hands = all_hands(lowest_rank=5) if ruleset == "quintet" else every_hand
    if ruleset != "quintet":
        jokers = hands[::7].copy()
        jokers[:, ::2] = JOKER  # three jokers a hand (two decks' worth and more)
        hands = np.concatenate([hands, jokers, hands[::11, ::-1]])
    compiled = evaluate(hands, ruleset, deuces_wild=deuces_wild)  # type: ignore[arg-type]
    compiled_categories = categories(hands, ruleset, deuces_wild=deuces_wild)  # type: ignore[arg-type]
    monkeypatch.setattr(jit, "AVAILABLE", False)
    assert np.array_equal(compiled, evaluate(hands, ruleset, deuces_wild=deuces_wild))  # type: ignore[arg-type]
    numpy_categories = categories(hands, ruleset, deuces_wild=deuces_wild)  # type: ignore[arg-type]
    assert compiled_categories.dtype == numpy_categories.dtype == np.int8
    assert np.array_equal(compiled_categories, numpy_categories)


def _sample(rng: np.random.Generator, deck: np.ndarray, n: int) -> np.ndarray:
    """``n`` random 5-card hands dealt from ``deck`` (no card used twice within a hand)."""
    picks = np.argsort(rng.random((n, deck.size)), axis=1)[:, :5]
    return deck[picks]


# --- standard: all C(52, 5) hands ------------------------------------------------------------
def test_expected_counts_add_up() -> None:
    for counts in (STANDARD_COUNTS, DRAW_COUNTS, LOW_COUNTS):
        assert sum(counts.values()) == comb(52, 5) == 2_598_960


def test_standard_category_counts_and_distinct_keys(every_hand: np.ndarray) -> None:
    assert _counts(categories(every_hand)) == STANDARD_COUNTS
    assert np.unique(evaluate(every_hand)).size == 7_462


def test_standard_order_of_every_hand_matches_the_reference(every_hand: np.ndarray) -> None:
    # standard_reference reads only the sorted ranks and whether all suits agree, so one call
    # per (rank multiset, flush) group gives the reference key of every hand of the group.
    ranks = np.sort(every_hand >> 2, axis=1).astype(np.int64)
    suits = every_hand & 3
    flush = (suits == suits[:, :1]).all(axis=1)
    group = (ranks @ 13 ** np.arange(5)) * 2 + flush
    _, first, inverse = np.unique(group, return_index=True, return_inverse=True)
    inverse = inverse.ravel()
    assert first.size == 7_462

    keys = evaluate(every_hand)
    assert np.array_equal(keys, keys[first][inverse]), "equal reference hands got unequal keys"
    reps = every_hand[first]
    reference = [standard_reference(hand.tolist()) for hand in reps]
    assert_same_order(reps, keys[first], reference)

    ref_cats = np.array([reference_category(k, "standard") for k in reference], dtype=np.int8)
    assert np.array_equal(categories(every_hand), ref_cats[inverse])


# --- quintet: all C(32, 5) piquet hands ------------------------------------------------------
def test_quintet_every_piquet_hand_matches_the_reference(every_piquet_hand: np.ndarray) -> None:
    hands = every_piquet_hand
    reference = [reference_key(hand, "quintet") for hand in hands.tolist()]
    keys = evaluate(hands, "quintet")
    assert_same_order(hands, keys, reference)
    ref_cats = [reference_category(k, "quintet") for k in reference]
    assert np.array_equal(categories(hands, "quintet"), ref_cats)
    assert _counts(categories(hands, "quintet")) == _piquet_counts()
    assert np.unique(keys).size == len(set(reference))


# --- draw and low: every key class of one deck, plus random one- and two-deck hands ----------
@pytest.mark.parametrize(("ruleset", "expected"), [("draw", DRAW_COUNTS), ("low", LOW_COUNTS)])
def test_category_counts_over_every_hand(
    every_hand: np.ndarray, ruleset: str, expected: dict[Category, int]
) -> None:
    assert _counts(categories(every_hand, ruleset)) == expected  # type: ignore[arg-type]


@pytest.mark.parametrize(("ruleset", "classes"), [("draw", 26_338), ("low", 6_175)])
def test_order_matches_the_reference_on_classes_and_samples(
    every_hand: np.ndarray, ruleset: str, classes: int
) -> None:
    keys = evaluate(every_hand, ruleset)  # type: ignore[arg-type]
    _, first = np.unique(keys, return_index=True)
    assert first.size == classes
    rng = np.random.default_rng(2024)
    hands = np.concatenate(
        [
            every_hand[first],
            _sample(rng, make_deck(), 20_000),
            _sample(rng, make_deck(decks=2), 20_000),
        ]
    )
    reference = [reference_key(hand, ruleset) for hand in hands.tolist()]
    assert_same_order(hands, evaluate(hands, ruleset), reference)  # type: ignore[arg-type]
    ref_cats = [reference_category(k, ruleset) for k in reference]
    assert np.array_equal(categories(hands, ruleset), ref_cats)  # type: ignore[arg-type]


def test_two_decks_make_five_of_a_kind_and_duplicate_flushes() -> None:
    rng = np.random.default_rng(5)
    hands = _sample(rng, make_deck(decks=2), 20_000)
    # Rare two-deck shapes, planted: five of a kind, a full house with a doubled card and
    # flushes holding pairs.
    hands[:4] = [[48, 48, 49, 49, 50], [0, 0, 1, 4, 4], [48, 48, 44, 40, 36], [1, 1, 5, 5, 9]]
    for ruleset in ("standard", "draw", "low"):
        reference = [reference_key(hand, ruleset) for hand in hands.tolist()]
        assert_same_order(hands, evaluate(hands, ruleset), reference)  # type: ignore[arg-type]
        cats = categories(hands, ruleset)  # type: ignore[arg-type]
        assert np.array_equal(cats, [reference_category(k, ruleset) for k in reference])
    assert categories(hands[:4], "draw").tolist() == [
        Category.FIVE_OF_A_KIND,
        Category.FULL_HOUSE,
        Category.FLUSH,
        Category.FLUSH,
    ]


# --- wild cards: brute force over every replacement -------------------------------------------
def _wild_hands(
    rng: np.random.Generator, n: int, wilds: int, deuces_wild: bool, decks: int
) -> np.ndarray:
    """``n`` hands with exactly ``wilds`` wild cards (jokers, or deuces when they are wild)."""
    deck = make_deck(decks=decks)
    naturals = deck[~np.isin(deck >> 2, [0])] if deuces_wild else deck
    hands = _sample(rng, naturals, n)
    wild_choices = np.array([JOKER, 0, 1, 2, 3] if deuces_wild else [JOKER], dtype=np.int8)
    for slot in range(wilds):
        hands[:, slot] = rng.choice(wild_choices, size=n)
    return rng.permuted(hands, axis=1)


@pytest.mark.parametrize("ruleset", ["standard", "draw", "low"])
@pytest.mark.parametrize("deuces_wild", [False, True])
def test_wild_cards_take_the_best_replacement(ruleset: str, deuces_wild: bool) -> None:
    rng = np.random.default_rng(
        11 + 2 * deuces_wild + 4 * ["standard", "draw", "low"].index(ruleset)
    )
    decks = 2 if ruleset == "draw" else 1
    hands = np.concatenate(
        [
            _wild_hands(rng, 150, 1, deuces_wild, decks),
            _wild_hands(rng, 30, 2, deuces_wild, decks),
            # natural hands too, so that wild and natural hands are ordered against each other
            _wild_hands(rng, 2_000, 0, deuces_wild, decks),
        ]
    )
    wild_counts = Counter(sum(is_wild(c, deuces_wild) for c in hand) for hand in hands.tolist())
    assert wild_counts == {1: 150, 2: 30, 0: 2_000}
    reference = [reference_key(hand, ruleset, deuces_wild) for hand in hands.tolist()]
    keys = evaluate(hands, ruleset, deuces_wild=deuces_wild)  # type: ignore[arg-type]
    assert_same_order(hands, keys, reference)
    cats = categories(hands, ruleset, deuces_wild=deuces_wild)  # type: ignore[arg-type]
    assert np.array_equal(cats, [reference_category(k, ruleset) for k in reference])


POINTS = {  # RULES §3, American and English
    "american": {
        Category.ROYAL_FLUSH: 100,
        Category.STRAIGHT_FLUSH: 75,
        Category.FOUR_OF_A_KIND: 50,
        Category.FULL_HOUSE: 25,
        Category.FLUSH: 20,
        Category.STRAIGHT: 15,
        Category.THREE_OF_A_KIND: 10,
        Category.TWO_PAIR: 5,
        Category.PAIR: 2,
    },
    "english": {
        Category.ROYAL_FLUSH: 30,
        Category.STRAIGHT_FLUSH: 30,
        Category.FOUR_OF_A_KIND: 16,
        Category.FULL_HOUSE: 10,
        Category.FLUSH: 5,
        Category.STRAIGHT: 12,
        Category.THREE_OF_A_KIND: 6,
        Category.TWO_PAIR: 3,
        Category.PAIR: 1,
        Category.FIVE_OF_A_KIND: 20,
    },
}


def _reference_points(hand: list[int], points: dict[Category, int]) -> int:
    """The most points any replacement of the jokers earns, each reading scored by its category."""
    naturals = [c for c in hand if c != JOKER]
    return max(
        points.get(reference_category(standard_reference(naturals + list(extra)), "standard"), 0)
        for extra in itertools.combinations_with_replacement(range(52), 5 - len(naturals))
    )


@pytest.mark.parametrize("scoring", ["american", "english"])
def test_points_table_takes_the_best_scoring_reading(scoring: str) -> None:
    rng = np.random.default_rng([17, scoring == "english"])
    suited = [  # naturals of one suit, where a flush and other readings compete
        np.array([4 * r + s for r in rng.choice(13, 5 - jokers, replace=False)] + [JOKER] * jokers)
        for s, jokers in zip(rng.integers(0, 4, 60), [1, 2] * 30, strict=True)
    ]
    hands = np.concatenate(
        [
            _wild_hands(rng, 80, 1, False, 1),
            _wild_hands(rng, 20, 2, False, 1),
            np.array(suited, dtype=np.int8),
            np.array([parse_cards("Jk Jk 5s 6s Ks"), parse_cards("Jk 7s 7h 7d 7c")], dtype=np.int8),
        ]
    )
    table = points_table(POINTS[scoring])
    got = table[hand_classes(hands)]
    expected = [_reference_points(hand, POINTS[scoring]) for hand in hands.tolist()]
    assert got.tolist() == expected
