"""The five-card stud scripted-evaluation API (RULES §6): compare_hands, compare_low,
qualifies_low, on hand-made hands and against the batched evaluator on random hands."""

from __future__ import annotations

import numpy as np
import pytest
from pokerzoo.envs.core.cards import parse_cards
from pokerzoo.envs.core.hands import evaluate
from pokerzoo.envs.core.hands import qualifies_low as key_qualifies_low
from pokerzoo.envs.five_card_stud import compare_hands, compare_low, qualifies_low

HIGH = [
    ("As Ks Qs Js Ts", "Ah Kh Qh Jh Th", False, 0, "no suit priority between royal flushes"),
    ("Ah Kd Qs Jc Th", "As Kc Qd Jh Ts", False, 0, "equal straights split"),
    ("5s 4d 3c 2h Ah", "6s 5d 4c 3h 2c", False, -1, "the wheel is the lowest straight"),
    ("As Kd 9c 7h 4h", "Ks Qd Jc 9h 8h", False, 1, "no ace-king category: ace high"),
    ("As Ah Ad 2c Jk", "Kc Qc Jc Tc Ac", True, 1, "five of a kind over a royal flush"),
    ("As Ah Ad Ac Jk", "Kc Qc Jc Tc Ac", False, 1, "a joker is wild without deuces_wild"),
    ("2s 2h 7d 8c 9h", "Ks Kh Kd 3c 4c", True, 1, "wild deuces make a straight"),
    ("2s 2h 7d 8c 9h", "Ks Kh Kd 3c 4c", False, -1, "natural deuces are a pair"),
    ("Ks Kh 7d 7c 2s", "Ks Kh 7d 7c 3s", False, -1, "two pair, the fifth card decides"),
]

LOW = [
    ("5s 4h 3d 2c Ah", "6s 4h 3d 2c Ah", 1, False, "the wheel is the best low"),
    ("5s 4h 3d 2c Ah", "5h 4s 3c 2d As", 0, False, "suits never matter"),
    ("8s 5h 4d 3c 2h", "8h 6s 4c 3d 2s", 1, False, "eight-five beats eight-six"),
    ("Ks Qh Jd Tc 9h", "As Ah 2d 3c 4h", 1, False, "no pair beats a pair"),
    ("5s 4s 3s 2s As", "6h 4s 3d 2c Ah", 1, False, "a straight flush wheel is still the best low"),
    ("Jk 4h 3d 2c Kh", "6s 4h 3d 2c Ah", -1, False, "a joker takes the ace, the king stays"),
    ("Jk 4h 3d 2c 5h", "6s 4h 3d 2c Ah", 1, False, "a joker completes the wheel"),
    ("2s 4h 3d 7c 6h", "2h 4s 3c 7d 8h", 1, True, "a wild deuce plays as the ace"),
]

QUALIFY = [
    ("8s 5h 4d 3c 2h", 8, False, True),
    ("9s 5h 4d 3c 2h", 8, False, False),
    ("8s 8h 4d 3c 2h", 8, False, False),
    ("Ks Kh Kd Kc 2h", None, False, True),
    ("9s 5h 4d 3c 2h", 9, False, True),
    ("Jk 5h 4d 3c Kh", 8, False, False),
    ("2s 5h 4d 3c 8h", 8, True, True),
    ("2s 2h 4d 3c 8h", 8, True, True),  # two wild deuces take the ace and the two
]


@pytest.mark.parametrize(("a", "b", "wild", "expected", "rule"), HIGH, ids=[c[-1] for c in HIGH])
def test_compare_hands(a: str, b: str, wild: bool, expected: int, rule: str) -> None:
    assert compare_hands(a, b, deuces_wild=wild) == expected
    assert compare_hands(b, a, deuces_wild=wild) == -expected


@pytest.mark.parametrize(("a", "b", "expected", "wild", "rule"), LOW, ids=[c[-1] for c in LOW])
def test_compare_low(a: str, b: str, expected: int, wild: bool, rule: str) -> None:
    assert compare_low(a, b, deuces_wild=wild) == expected
    assert compare_low(b, a, deuces_wild=wild) == -expected


@pytest.mark.parametrize(("cards", "qualifier", "wild", "expected"), QUALIFY)
def test_qualifies_low(cards: str, qualifier: int | None, wild: bool, expected: bool) -> None:
    assert qualifies_low(cards, qualifier, deuces_wild=wild) is expected


def test_every_card_form_is_accepted() -> None:
    a, b = "As Ah 9s 9h Kd", "Ac Ad 9c 9d Qd"
    assert compare_hands(a.split(), parse_cards(b)) == 1
    assert compare_low(parse_cards(a), "ac AD 9C 9d qd") == -1  # the queen is lower
    assert qualifies_low(["10s", "5h", "4d", "3c", "2h"], 10)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: compare_hands("As Ks Qs Js", "Ah Kh Qh Jh Th"), "first hand: expected 5 cards"),
        (lambda: compare_hands("As Ks Qs Js Ts", "Ah Kh Qh Jh Xh"), "bad card 'Xh'"),
        (lambda: compare_hands("As As Qs Js Ts", "Ah Kh Qh Jh Th"), "duplicate card As in first"),
        (lambda: compare_hands("Jk Jk Qs Js Ts", "Ah Kh Qh Jh Th"), "too many jokers in first"),
        (lambda: compare_low("As Ks Qs Js Ts", [0, 1, 2, 3, 60]), "bad card id 60"),
        (lambda: compare_hands("As Ks Qs Js Ts", "Ah Kh Qh Jh Th", deuces_wild=1), "deuces_wild"),
        (lambda: qualifies_low("As 2s 3s 4s 5s", 4), "bad low qualifier 4"),
        (lambda: qualifies_low("As 2s 3s 4s", 8), "hand: expected 5 cards"),
    ],
)
def test_bad_input_names_the_card_or_argument(call, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        call()


def test_agrees_with_the_batched_evaluator_on_random_hands() -> None:
    rng = np.random.default_rng(0)
    pack = np.arange(53)
    for wild in (False, True):
        hands = np.array([rng.choice(pack, 10, replace=False) for _ in range(300)])
        a, b = hands[:, :5], hands[:, 5:]
        high = np.sign(evaluate(a, deuces_wild=wild) - evaluate(b, deuces_wild=wild))
        low_a, low_b = evaluate(a, "low", deuces_wild=wild), evaluate(b, "low", deuces_wild=wild)
        eight = key_qualifies_low(low_a, 8)
        for i in range(len(hands)):
            assert compare_hands(a[i], b[i], deuces_wild=wild) == high[i]
            assert compare_low(a[i], b[i], deuces_wild=wild) == np.sign(low_a[i] - low_b[i])
            assert qualifies_low(a[i], 8, deuces_wild=wild) == eight[i]
