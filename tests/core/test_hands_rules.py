"""Every comparison sentence of RULES §1 (Quintet) and §2 (draw poker), low hands, wild cards and
Poker Squares points, one explicit pair of hands per case."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from pokerzoo.envs.core.cards import parse_cards
from pokerzoo.envs.core.hands import (
    Category,
    category_name,
    hand_classes,
    make_classifier,
    points_table,
    qualifies_low,
)

from tests.helpers import cases, data_file

from .test_hands_reference import category_of, key_of

C = Category
FILE = "hands_rules.yaml"  # the case tables, in tests/data


def compare(a: str, b: str, ruleset: str, deuces_wild: bool = False) -> int:
    """1 if ``a`` is the better hand, 0 if equal, -1 if worse."""
    ka = key_of(a, ruleset, deuces_wild=deuces_wild)  # type: ignore[arg-type]
    kb = key_of(b, ruleset, deuces_wild=deuces_wild)  # type: ignore[arg-type]
    return (ka > kb) - (ka < kb)


def check(a: str, b: str, expected: int, ruleset: str, deuces_wild: bool = False) -> None:
    assert compare(a, b, ruleset, deuces_wild) == expected
    assert compare(b, a, ruleset, deuces_wild) == -expected


def ladder(table: str) -> list[tuple[str, Category]]:
    """A ladder of the data file: (hand, its category) pairs, the best first."""
    return [(hand, Category[name]) for hand, name in data_file(FILE)[table]]


# --- RULES §1: Quintet --------------------------------------------------------------------------
QUINTET_TIES = cases(FILE, "quintet_ties")
QUINTET_CATEGORY_LADDER = ladder("quintet_category_ladder")


@pytest.mark.parametrize(("a", "b", "expected"), QUINTET_TIES)
def test_quintet_comparisons(a: str, b: str, expected: int) -> None:
    check(a, b, expected, "quintet")


def test_quintet_category_order() -> None:
    for (better, better_cat), (worse, worse_cat) in itertools.pairwise(QUINTET_CATEGORY_LADDER):
        assert category_of(better, "quintet") == better_cat
        assert category_of(worse, "quintet") == worse_cat
        check(better, worse, 1, "quintet")


def test_quintet_royal_is_reported_as_a_straight_flush() -> None:
    assert category_of("As Ks Qs Js Ts", "quintet") == C.STRAIGHT_FLUSH
    assert category_name(C.NOTHING, "quintet") == "high card"


# --- RULES §2: draw poker -----------------------------------------------------------------------
DRAW_CATEGORY_LADDER = ladder("draw_category_ladder")


def test_draw_category_order() -> None:
    for (better, better_cat), (worse, worse_cat) in itertools.pairwise(DRAW_CATEGORY_LADDER):
        assert category_of(better, "draw") == better_cat
        assert category_of(worse, "draw") == worse_cat
        check(better, worse, 1, "draw")


DRAW_TIES = cases(FILE, "draw_ties")


@pytest.mark.parametrize(("a", "b", "expected"), DRAW_TIES)
def test_draw_comparisons(a: str, b: str, expected: int) -> None:
    check(a, b, expected, "draw")


@pytest.mark.parametrize(
    ("cards", "expected"),
    [
        ("As Kd 7h 4c 2s", C.ACE_KING),
        ("As Kd Qh Jc Ts", C.STRAIGHT),
        ("As Ks Qs Js 9s", C.FLUSH),
        ("Ah Kh Ah Kh Ac", C.FULL_HOUSE),  # two decks
        ("As As Ah Ah Ad", C.FIVE_OF_A_KIND),  # two decks, no wild card
        ("Ah Ah Kh Qh Jh", C.FLUSH),  # two decks: a flush holding a pair
    ],
)
def test_draw_categories(cards: str, expected: Category) -> None:
    assert category_of(cards, "draw") == expected


def test_category_names_follow_each_ruleset() -> None:
    assert category_of("As Kd 7h 4c 2s", "standard") == C.NOTHING
    assert category_name(C.NOTHING, "draw") == "nothing"
    assert category_name(C.NOTHING, "standard") == "high card"
    assert category_name(C.ACE_KING, "draw") == "ace-king"
    assert category_name(C.FIVE_OF_A_KIND, "draw") == "five of a kind"
    # RULES §6's list, best first
    names = (
        "five of a kind, royal flush, straight flush, four of a kind, full house, flush, "
        "straight, three of a kind, two pair, pair, ace-king, nothing"
    )
    assert [category_name(c, "draw") for c in reversed(C)] == names.split(", ")


# --- standard (stud, Poker Squares) ----------------------------------------------------------
STANDARD_TIES = cases(FILE, "standard_ties")


@pytest.mark.parametrize(("a", "b", "expected"), STANDARD_TIES)
def test_standard_comparisons(a: str, b: str, expected: int) -> None:
    check(a, b, expected, "standard")


def test_standard_royal_flush_and_wraparound() -> None:
    assert category_of("Ts Js Qs Ks As") == C.ROYAL_FLUSH
    assert category_of("Ks Qs Js Ts 9s") == C.STRAIGHT_FLUSH
    assert category_of("Qh Kh Ah 2h 3h") == C.FLUSH
    assert category_of("Qh Ks Ah 2h 3h") == C.NOTHING


# --- low: ace-to-five ----------------------------------------------------------------------------
LOW_TIES = cases(FILE, "low_ties")


@pytest.mark.parametrize(("a", "b", "expected"), LOW_TIES)
def test_low_comparisons(a: str, b: str, expected: int) -> None:
    check(a, b, expected, "low")


@pytest.mark.parametrize(("cards", "qualifier", "expected"), cases(FILE, "qualifies_low"))
def test_qualifies_low(cards: str, qualifier: int | None, expected: bool) -> None:
    key = key_of(cards, "low")
    assert qualifies_low(key, qualifier) is expected
    batch = qualifies_low(np.array([key, key]), qualifier)
    assert isinstance(batch, np.ndarray)
    assert batch.tolist() == [expected, expected]


@pytest.mark.parametrize("qualifier", [4, 14, 0, True, "8", 8.0])
def test_qualifies_low_rejects_bad_qualifiers(qualifier: object) -> None:
    with pytest.raises(ValueError, match=repr(qualifier)):
        qualifies_low(key_of("5s 4h 3d 2c As", "low"), qualifier)  # type: ignore[arg-type]


# --- wild cards ----------------------------------------------------------------------------------
WILD_CATEGORIES = cases(FILE, "wild_categories")


@pytest.mark.parametrize(("cards", "ruleset", "deuces_wild", "expected"), WILD_CATEGORIES)
def test_wild_card_categories(cards: str, ruleset: str, deuces_wild: bool, expected: str) -> None:
    category = category_of(cards, ruleset, deuces_wild=deuces_wild)  # type: ignore[arg-type]
    assert category == Category[expected]


WILD_TIES = cases(FILE, "wild_ties")


@pytest.mark.parametrize(("a", "b", "expected", "ruleset", "deuces_wild"), WILD_TIES)
def test_wild_card_comparisons(
    a: str, b: str, expected: int, ruleset: str, deuces_wild: bool
) -> None:
    check(a, b, expected, ruleset, deuces_wild)


@pytest.mark.parametrize("ruleset", ["standard", "draw", "low"])
def test_a_wild_card_never_loses_to_the_card_it_replaced(ruleset: str) -> None:
    natural = "Qs Jh 8d 5c 3s"
    for i in range(5):
        cards = natural.split()
        cards[i] = "Jk"
        assert compare(" ".join(cards), natural, ruleset) == 1


# --- Poker Squares points ------------------------------------------------------------------------
AMERICAN = {
    C.ROYAL_FLUSH: 100,
    C.STRAIGHT_FLUSH: 75,
    C.FOUR_OF_A_KIND: 50,
    C.FULL_HOUSE: 25,
    C.FLUSH: 20,
    C.STRAIGHT: 15,
    C.THREE_OF_A_KIND: 10,
    C.TWO_PAIR: 5,
    C.PAIR: 2,
}
ENGLISH = {
    C.ROYAL_FLUSH: 30,
    C.STRAIGHT_FLUSH: 30,
    C.FOUR_OF_A_KIND: 16,
    C.FULL_HOUSE: 10,
    C.FLUSH: 5,
    C.STRAIGHT: 12,
    C.THREE_OF_A_KIND: 6,
    C.TWO_PAIR: 3,
    C.PAIR: 1,
    C.FIVE_OF_A_KIND: 20,
}


@pytest.mark.parametrize(("cards", "american", "english"), cases(FILE, "points"))
def test_points_table_scores_the_best_reading(cards: str, american: int, english: int) -> None:
    ids = parse_cards(cards)
    (cls,) = hand_classes(np.array([ids]))
    assert cls == make_classifier()(*ids)
    assert points_table(AMERICAN)[cls] == american
    assert points_table(ENGLISH)[cls] == english
    assert points_table([ENGLISH.get(c, 0) for c in Category])[cls] == english


def test_points_table_covers_every_class() -> None:
    table = points_table(AMERICAN)
    assert table.dtype == np.int64
    assert table.min() == 0 and table.max() == 100


@pytest.mark.parametrize(
    ("points", "bad"),
    [
        ({C.PAIR: 1.5}, "1.5"),
        ({C.PAIR: True}, "True"),
        ({C.PAIR: "2"}, "'2'"),
        ({99: 1}, "99"),
        ({"pair": 1}, "pair"),
        ([1] * 5, "5"),
        ([1] * 13, "13"),
        ([1.0] * 12, "1.0"),
    ],
)
def test_points_table_rejects_bad_points(points: object, bad: str) -> None:
    with pytest.raises(ValueError, match=bad):
        points_table(points)  # type: ignore[arg-type]
