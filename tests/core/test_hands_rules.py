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

from .test_hands_reference import category_of, key_of

C = Category


def compare(a: str, b: str, ruleset: str, deuces_wild: bool = False) -> int:
    """1 if ``a`` is the better hand, 0 if equal, -1 if worse."""
    ka = key_of(a, ruleset, deuces_wild=deuces_wild)  # type: ignore[arg-type]
    kb = key_of(b, ruleset, deuces_wild=deuces_wild)  # type: ignore[arg-type]
    return (ka > kb) - (ka < kb)


def check(a: str, b: str, expected: int, ruleset: str, deuces_wild: bool = False) -> None:
    assert compare(a, b, ruleset, deuces_wild) == expected
    assert compare(b, a, ruleset, deuces_wild) == -expected


def case(a: str, b: str, expected: int, why: str) -> object:
    return pytest.param(a, b, expected, id=why)


# --- RULES §1: Quintet --------------------------------------------------------------------------
QUINTET_TIES = [
    case("Js Ts 9s 8s 7s", "Jh Th 9h 8h 7h", 0, "straight flush: same top, suits never count"),
    case("As Ks Qs Js Ts", "Kh Qh Jh Th 9h", 1, "straight flush: by the top card"),
    case("Js Th 9d 8c 7s", "Jh Tc 9s 8d 7h", 0, "straight: same top is equal"),
    case("Qs Jh Td 9c 8s", "Js Th 9d 8c 7h", 1, "straight: by the top card"),
    case("9s 9h 9d 9c 7s", "9s 9h 9d 9c As", 0, "four of a kind: the fifth card ignored"),
    case("Ts Th Td Tc 7s", "9s 9h 9d 9c As", 1, "four of a kind: by the rank of the four"),
    case("Qs Qh Qd 7c 7s", "Qs Qh Qd Ac As", 0, "full house: the pair ignored"),
    case("Ks Kh Kd 7c 7s", "Qs Qh Qd Ac As", 1, "full house: by the rank of the three"),
    case("8s 8h 8d 7c 9s", "8c 8h 8d Ac Ks", 0, "three of a kind: odd cards ignored"),
    case("9s 9h 9d 7c 8s", "8s 8h 8d Ac Ks", 1, "three of a kind: by the rank of the three"),
    case("As Qs Ts 9s 7s", "Ah Qh Th 9h 8h", -1, "flush: card by card down to the last"),
    case("Ah Kh 9h 8h 7h", "As Qs Js Ts 8s", 1, "flush: the highest card first"),
    case("As Qs Ts 9s 7s", "Ad Qd Td 9d 7d", 0, "flush: suits never count"),
    case("As Kh Qd Jc 9s", "Ah Kd Qc Js 8h", 1, "high card: card by card"),
    case("As Kh Qd Jc 9s", "Ah Kd Qc Js 9h", 0, "high card: suits never count"),
    case("8s 8h 7d 7c Ks", "As Ah Kd Kc Qs", -1, "two pair: the higher pair first"),
    case("As Ah 9d 9c 7s", "Ad Ac 8s 8h Ks", 1, "two pair: then the lower pair"),
    case("As Ah 9d 9c Ks", "Ad Ac 9s 9h Qs", 1, "two pair: then the odd card"),
    case("As Ah 9d 9c Ks", "Ad Ac 9s 9h Kh", 0, "two pair: suits never count"),
    case("9s 9h 7d 8c Ts", "8s 8h Ad Kc Qs", 1, "pair: the pair first"),
    case("As Ah Kd Qc 8s", "Ad Ac Kh Qs 7h", 1, "pair: then the odd cards, down to the last"),
    case("As Ah Kd Jc 8s", "Ad Ac Kh Qs 7h", -1, "pair: the higher odd card first"),
    case("As Ah Kd Qc 8s", "Ad Ac Kh Qs 8h", 0, "pair: suits never count"),
    case("Js Th 9d 8c 7s", "As Ah Ad Kc Qs", 1, "J-T-9-8-7 is a straight, above three of a kind"),
    case("As 7h 8d 9c Ts", "7s 7h 8d 9c Js", -1, "no ace-low straight: A-7-8-9-T is high card"),
]
# The lowest hand of each category against the best of the category just below it.
QUINTET_CATEGORY_LADDER = [
    ("Jh Th 9h 8h 7h", C.STRAIGHT_FLUSH),
    ("As Ah Ad Ac Ks", C.FOUR_OF_A_KIND),
    ("7s 7h 7d 7c 8s", C.FOUR_OF_A_KIND),
    ("As Ah Ad Kc Ks", C.FULL_HOUSE),
    ("7s 7h 7d 8c 8s", C.FULL_HOUSE),
    ("As Ks Qs Js 9s", C.FLUSH),
    ("Qs Ts 9s 8s 7s", C.FLUSH),
    ("Ah Ks Qd Jc Ts", C.STRAIGHT),
    ("Js Th 9d 8c 7s", C.STRAIGHT),
    ("As Ah Ad Kc Qs", C.THREE_OF_A_KIND),
    ("7s 7h 7d 8c 9s", C.THREE_OF_A_KIND),
    ("As Ah Kd Kc Qs", C.TWO_PAIR),
    ("8s 8h 7d 7c 9s", C.TWO_PAIR),
    ("As Ah Kd Qc Js", C.PAIR),
    ("7s 7h 8d 9c Js", C.PAIR),
    ("As Kh Qd Jc 9s", C.NOTHING),
]


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
DRAW_CATEGORY_LADDER = [  # best and lowest of each category, from the top down
    ("Jk Jk Jk Jk Jk", C.FIVE_OF_A_KIND),
    ("2s 2h 2d 2c Jk", C.FIVE_OF_A_KIND),
    ("Ah Kh Qh Jh Th", C.ROYAL_FLUSH),
    ("As Ks Qs Js Ts", C.ROYAL_FLUSH),
    ("Kh Qh Jh Th 9h", C.STRAIGHT_FLUSH),
    ("5s 4s 3s 2s As", C.STRAIGHT_FLUSH),
    ("Ah Ac Ad As Kh", C.FOUR_OF_A_KIND),
    ("2s 2h 2d 2c 3s", C.FOUR_OF_A_KIND),
    ("Ah Ac Ad Kh Kc", C.FULL_HOUSE),
    ("2s 2h 2d 3c 3s", C.FULL_HOUSE),
    ("Ah Kh Qh Jh 9h", C.FLUSH),
    ("7s 5s 4s 3s 2s", C.FLUSH),
    ("Ah Kc Qd Js Th", C.STRAIGHT),
    ("5s 4s 3h 2d As", C.STRAIGHT),
    ("Ah Ac Ad Kh Qh", C.THREE_OF_A_KIND),
    ("2s 2h 2d 3c 4s", C.THREE_OF_A_KIND),
    ("Ah Ac Kh Kc Qh", C.TWO_PAIR),
    ("3s 3h 2d 2c 4s", C.TWO_PAIR),
    ("Ah Ac Kh Qc Jh", C.PAIR),
    ("2s 2h 3d 4c 5s", C.PAIR),
    ("Ah Kc Qd Js 9h", C.ACE_KING),
    ("As Ks 2h 3d 4c", C.ACE_KING),
    ("Kh Qc Jd Ts 8h", C.NOTHING),
    ("7s 5h 4d 3c 2s", C.NOTHING),
]


def test_draw_category_order() -> None:
    for (better, better_cat), (worse, worse_cat) in itertools.pairwise(DRAW_CATEGORY_LADDER):
        assert category_of(better, "draw") == better_cat
        assert category_of(worse, "draw") == worse_cat
        check(better, worse, 1, "draw")


DRAW_TIES = [
    case("5s 4h 3d 2c As", "6s 5h 4d 3c 2s", -1, "A-2-3-4-5 is the lowest straight"),
    case("5s 4h 3d 2c As", "As Ah Ad Kc Qs", 1, "A-2-3-4-5 is still a straight"),
    case("Ks Qh Jd Tc As", "Kh Qc Jh Ts 9h", 1, "A-K-Q-J-T is the highest straight"),
    # nothing and ace-king: ranks down, then the suit of the highest card
    case("Kh 9s 7s 5s 3s", "Kc 9h 7h 5h 3d", 1, "nothing: hearts beat clubs on the top card"),
    case("Kc 9s 7s 5s 3s", "Kd 9h 7h 5h 3h", 1, "nothing: clubs beat diamonds"),
    case("Kd 9h 7h 5h 3c", "Ks 9h 7h 5h 3h", 1, "nothing: diamonds beat spades"),
    case("Ks 9h 8h 5h 3h", "Kh 9s 7s 5s 3c", 1, "nothing: ranks before suits"),
    case("Kh 9s 7s 5s 3s", "Kh 9c 7c 5c 3d", 0, "nothing: only the top card's suit counts"),
    case("Ah Kc 9s 5d 3s", "Ac Kh 9h 5h 3h", 1, "ace-king: the suit of the ace"),
    case("As Kd 9s 5d 3s", "Ah Kh 8h 5c 3c", 1, "ace-king: ranks before suits"),
    # pair: the pair, the odd cards, then the suit of the highest odd card
    case("9s 9d Kh 7s 3s", "9h 9c Kc 7h 3h", 1, "pair: the suit of the highest odd card"),
    case("9h 9c Ks 7h 3h", "9s 9d Kd 7s 3s", -1, "pair: the pair's suits do not count"),
    case("9s 9d Kh 7s 3s", "9h 9c Kh 7d 3c", 0, "pair: lower odd cards' suits do not count"),
    case("9s 9d Ks 7s 4s", "9h 9c Kh 7h 3h", 1, "pair: odd card ranks before suits"),
    case("Ts Td 3s 4s 5s", "9h 9c Ah Kh Qh", 1, "pair: the pair first"),
    # two pair: higher pair, lower pair, fifth card, then the fifth card's suit
    case("Ks Kd 9s 9d 5h", "Kh Kc 9h 9c 5c", 1, "two pair: the suit of the fifth card"),
    case("Ks Kd 9s 9d 5c", "Kh Kc 9h 9c 5d", 1, "two pair: clubs beat diamonds"),
    case("Ks Kd 9s 9d 5s", "Kh Kc 9h 9c 4h", 1, "two pair: the fifth card's rank first"),
    case("Ks Kd 9s 9d 2s", "Qh Qc Jh Jc Ah", 1, "two pair: the higher pair first"),
    case("Ks Kd Ts Td 2s", "Kh Kc 9h 9c Ah", 1, "two pair: then the lower pair"),
    # straight: top card, then its suit
    case("9h 8s 7s 6s 5s", "9c 8h 7h 6h 5h", 1, "straight: the suit of the top card"),
    case("Ts 9s 8s 7s 6h", "9h 8h 7h 6h 5c", 1, "straight: the top card first"),
    case("5h 4s 3s 2s As", "5c 4h 3h 2h Ah", 1, "straight: A-2-3-4-5 tops at the five"),
    case("9d 8s 7s 6s 5s", "9d 8h 7h 6h 5h", 0, "straight: only the top card's suit counts"),
    # flush: the suit first, then the cards
    case("7h 5h 4h 3h 2h", "Ac Kc Qc Jc 9c", 1, "flush: hearts first, whatever the cards"),
    case("7c 5c 4c 3c 2c", "Ad Kd Qd Jd 9d", 1, "flush: clubs beat diamonds"),
    case("7d 5d 4d 3d 2d", "As Ks Qs Js 9s", 1, "flush: diamonds beat spades"),
    case("Ah Kh Qh Jh 9h", "Ah Kh Qh Jh 8h", 1, "flush: same suit, card by card"),
    # straight flush and royal flush: top card, then the suit
    case("Kh Qh Jh Th 9h", "Kc Qc Jc Tc 9c", 1, "straight flush: the suit"),
    case("Ks Qs Js Ts 9s", "Qh Jh Th 9h 8h", 1, "straight flush: the top card first"),
    case("Ah Kh Qh Jh Th", "Ac Kc Qc Jc Tc", 1, "royal flush: hearts beat clubs"),
    case("Ac Kc Qc Jc Tc", "Ad Kd Qd Jd Td", 1, "royal flush: clubs beat diamonds"),
    case("Ad Kd Qd Jd Td", "As Ks Qs Js Ts", 1, "royal flush: diamonds beat spades"),
    # three/full/four/five of a kind: ranks of the groups, then the odd cards; suits never
    case("9s 9h 9d Kc 2s", "9c 9h 9d Kh 2h", 0, "three of a kind: equal ranks are equal"),
    case("9s 9h 9d Kc 3s", "9s 9h 9d Kc 2h", 1, "three of a kind: then the odd cards"),
    case("Ts 9h 9d 9c 2s", "8s 8h 8d Ac Kh", 1, "three of a kind: the three first"),
    case("9s 9h 9d Kc Ks", "9c 9h 9d Kh Kd", 0, "full house: equal ranks are equal"),
    case("9s 9h 9d Kc Ks", "9s 9h 9d Qc Qs", 1, "full house: then the pair"),
    case("9s 9h 9d 9c Ks", "9s 9h 9d 9c Kh", 0, "four of a kind: equal ranks are equal"),
    case("9s 9h 9d 9c Ks", "9s 9h 9d 9c Qh", 1, "four of a kind: then the odd card"),
    case("9s 9h 9d 9c Jk", "9s 9h 9d Jk Jk", 0, "five of a kind: equal ranks are equal"),
    case("Ts Th Jk Jk Jk", "9s 9h 9d 9c Jk", 1, "five of a kind: by rank"),
]


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
STANDARD_TIES = [
    case("As Ks Qs Js Ts", "Ah Kh Qh Jh Th", 0, "royal flush: suits never count"),
    case("5s 4h 3d 2c As", "6s 5h 4d 3c 2s", -1, "A-2-3-4-5 is the lowest straight"),
    case("5s 4s 3s 2s As", "Ah Ac Ad As Kh", 1, "steel wheel is a straight flush"),
    case("Kh 9s 7s 5s 3s", "Ks 9h 7h 5h 3d", 0, "high card: suits never count"),
    case("As Kd 7h 4c 2s", "Ks Qd Jh 9c 8s", 1, "no ace-king category, but the ace is high"),
    case("9s 9d Kh 7s 3s", "9h 9c Kc 7h 3h", 0, "pair: suits never count"),
    case("Ks Kd 9s 9d 5h", "Kh Kc 9h 9c 5c", 0, "two pair: suits never count"),
    case("7h 5h 4h 3h 2h", "7s 5s 4s 3s 2s", 0, "flush: suits never count"),
    case("Kh Qs Ac 2d 3h", "Kh Qs Jc 2d 3h", 1, "K-A-2 does not wrap: ace high"),
]


@pytest.mark.parametrize(("a", "b", "expected"), STANDARD_TIES)
def test_standard_comparisons(a: str, b: str, expected: int) -> None:
    check(a, b, expected, "standard")


def test_standard_royal_flush_and_wraparound() -> None:
    assert category_of("Ts Js Qs Ks As") == C.ROYAL_FLUSH
    assert category_of("Ks Qs Js Ts 9s") == C.STRAIGHT_FLUSH
    assert category_of("Qh Kh Ah 2h 3h") == C.FLUSH
    assert category_of("Qh Ks Ah 2h 3h") == C.NOTHING


# --- low: ace-to-five ----------------------------------------------------------------------------
LOW_TIES = [
    case("5s 4h 3d 2c As", "6s 4h 3d 2c As", 1, "5-4-3-2-A beats 6-4-3-2-A"),
    case("5s 4s 3s 2s As", "5d 4h 3d 2c Ah", 0, "straights and flushes are ignored"),
    case("6s 4h 3d 2c As", "6s 5h 3d 2c As", 1, "compared from the highest card down"),
    case("As 2h 3d 4c 6s", "2s 3h 4d 5c 7s", 1, "aces are low"),
    case("Ks Qh Jd Tc 8s", "As Ah 2d 3c 4s", 1, "any unpaired hand beats any pair"),
    case("Ks Kh Qd Jc Ts", "As Ah 2d 2c 3s", 1, "one pair beats two pair"),
    case("As Ah 2d 2c 3s", "2s 2h 2d 3c 4s", 1, "two pair beats three of a kind"),
    case("Ks Kh Kd Qc Js", "As Ah Ad 2c 2s", 1, "three of a kind beats a full house"),
    case("As Ah Ad 2c 2s", "As Ah Ad Ac 2s", 1, "a full house beats four of a kind"),
    case("As Ah 3d 4c 5s", "2s 2h 3d 4c 5s", 1, "pair of aces is the lowest pair"),
    case("3s 3h Kd Qc Js", "4s 4h 2d Ac 5s", 1, "pairs: the pair first"),
    case("3s 3h 8d 4c 2s", "3d 3c 8h 5c As", 1, "pairs: then the odd cards from the highest"),
    case("Ks Kh Qd Jc Ts", "Kd Kc Qh Jd Th", 0, "suits never count"),
]


@pytest.mark.parametrize(("a", "b", "expected"), LOW_TIES)
def test_low_comparisons(a: str, b: str, expected: int) -> None:
    check(a, b, expected, "low")


@pytest.mark.parametrize(
    ("cards", "qualifier", "expected"),
    [
        ("5s 4h 3d 2c As", 8, True),
        ("5s 4h 3d 2c As", 5, True),
        ("6s 4h 3d 2c As", 5, False),
        ("8s 7h 6d 5c 4s", 8, True),
        ("9s 4h 3d 2c As", 8, False),
        ("Ks 4h 3d 2c As", 8, False),
        ("Ks 4h 3d 2c As", 13, True),
        ("As Ah 2d 3c 4s", 8, False),  # a pair never qualifies
        ("As Ah 2d 3c 4s", 13, False),
        ("As Ah 2d 3c 4s", None, True),
        ("Ks Kh Kd Kc Qs", None, True),
        ("Jk 4h 3d 2c 8s", 8, True),  # the joker becomes the ace
        ("Jk Jk 3d 2c Qs", 8, False),
    ],
)
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
WILD_CATEGORIES = [
    ("Jk Jk As Ks Qs", "standard", False, C.ROYAL_FLUSH),
    ("Jk Jk As Ks Qs", "draw", False, C.ROYAL_FLUSH),
    ("2s 2h 2d 2c Jk", "standard", False, C.FIVE_OF_A_KIND),
    ("2s 2h 2d 2c Jk", "draw", False, C.FIVE_OF_A_KIND),
    ("Jk Jk Jk Jk Jk", "draw", False, C.FIVE_OF_A_KIND),
    ("Jk 7s 7h 7d 7c", "standard", False, C.FIVE_OF_A_KIND),
    ("Jk 9s 8h 7d 6c", "standard", False, C.STRAIGHT),
    ("Jk 9s 8h 7d 5c", "standard", False, C.STRAIGHT),  # the gap filled
    ("Jk As Kh 7d 5c", "draw", False, C.PAIR),
    ("Jk Jk 9s 4h 2d", "standard", False, C.THREE_OF_A_KIND),
    ("Jk 2s 4s 6s 8s", "standard", False, C.FLUSH),
    ("Jk 2s 4s 6s 8s", "standard", True, C.STRAIGHT_FLUSH),  # two wild cards: 8-7-6-5-4
    ("2s Ah Kh Qh Jh", "standard", True, C.ROYAL_FLUSH),
    ("2s Ah Kh Qh Jh", "standard", False, C.NOTHING),
    ("2s Ah Kh Qh Jh", "draw", False, C.ACE_KING),
    ("2s 2h 7d 8c 9s", "standard", True, C.STRAIGHT),
    ("2s 2h 7d 8c 9s", "standard", False, C.PAIR),
    ("2s 2h 2d 2c 5s", "draw", True, C.FIVE_OF_A_KIND),
    ("Jk 2s 3h 4d 5c", "low", False, C.NOTHING),
    ("Jk Jk Jk Jk Jk", "low", False, C.NOTHING),  # five different cards, the best being 5-4-3-2-A
    ("Jk Ks Kh Kd Kc", "low", False, C.FOUR_OF_A_KIND),
]


@pytest.mark.parametrize(("cards", "ruleset", "deuces_wild", "expected"), WILD_CATEGORIES)
def test_wild_card_categories(
    cards: str, ruleset: str, deuces_wild: bool, expected: Category
) -> None:
    assert category_of(cards, ruleset, deuces_wild=deuces_wild) == expected  # type: ignore[arg-type]


def wild(a: str, b: str, expected: int, ruleset: str, deuces_wild: bool, why: str) -> object:
    return pytest.param(a, b, expected, ruleset, deuces_wild, id=why)


WILD_TIES = [
    wild("Jk 9s 8s 7d 6c", "Th 9s 8d 7d 6c", 0, "draw", False, "draw: wild top takes hearts"),
    wild("Jk 9s 8s 7d 6c", "Tc 9h 8h 7h 6h", 1, "draw", False, "draw: hearts beat clubs"),
    wild("2d 9s 8s 7d 6c", "Th 9s 8d 7d 6c", 0, "draw", True, "draw: a wild deuce too"),
    wild("Jk Ks Qs Js Ts", "Ah Kh Qh Jh Th", -1, "draw", False, "draw: wild keeps the suit"),
    wild("Jk Kc Qc Jc Tc", "Ac Kc Qc Jc Tc", 0, "draw", False, "draw: wild royal in clubs"),
    wild("Jk Ah Ac Kd Ks", "Ah Ac Ad Kh Kc", 0, "draw", False, "draw: full house, no suits"),
    wild("As Ah Ad Ac Jk", "As Ks Qs Js Ts", 1, "standard", False, "five beats royal"),
    wild("Jk Jk Jk Jk Jk", "As Ah Ad Ac Jk", 0, "standard", False, "five jokers: aces"),
    wild("2s 2h 2d 2c Jk", "Jk Jk Jk Jk Jk", 0, "standard", True, "deuces wild: aces"),
    wild("2s 2h 2d 2c Jk", "3s 3h 3d 3c Jk", -1, "standard", False, "deuces natural"),
    wild("2s 9h 9d 9c 3s", "9s 9h 9d 9c 3s", 0, "standard", True, "deuces wild: four"),
    wild("Jk 9s 8h 7d 6c", "Ts 9s 8h 7d 6c", 0, "standard", False, "standard: no suits"),
    wild("Jk 2s 3h 4d 5c", "As 2s 3h 4d 5c", 0, "low", False, "low: joker is the ace"),
    wild("Jk Jk 3h 4d 5c", "As 2s 3h 4d 5c", 0, "low", False, "low: jokers fill A, 2"),
    wild("2s 3h 4d 5c 6s", "As 3h 4d 5c 6s", 0, "low", True, "low: a wild deuce is an ace"),
    wild("2s 3h 4d 5c 6s", "As 3h 4d 5c 6s", -1, "low", False, "low: a natural deuce"),
]


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


@pytest.mark.parametrize(
    ("cards", "american", "english"),
    [
        ("7s 7h 7d 7c Jk", 50, 20),  # five of a kind is not scored in American: four of a kind
        ("Jk Jk Jk Jk Jk", 100, 30),  # a royal flush is one reading
        ("As Ks Qs Js Jk", 100, 30),
        ("Jk 9s 8s 7s 4s", 20, 5),
        ("Jk 9s 8h 7d 6c", 15, 12),  # a straight, not three nines
        ("Jk 9s 9h 7d 6c", 10, 6),
        ("Jk Kh 9s 8h 2c", 2, 1),
        ("Ks Kh 9s 9h 2c", 5, 3),
        ("Ks Qh 9s 8h 2c", 0, 0),
        ("As 2s 3s 4s 5s", 75, 30),
        ("Ts Js Qs Ks As", 100, 30),
        ("Ah Ac Ad 9h 9s", 25, 10),
    ],
)
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
