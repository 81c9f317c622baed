"""Draw poker's scripted API (RULES §6): ``compare_hands`` and ``hand_category`` on the seed's
tie-breaks, every card form, named errors, and agreement with the ``"draw"`` evaluator."""

from __future__ import annotations

import numpy as np
import pytest
from pokerzoo.envs.core.cards import Deck, parse_cards
from pokerzoo.envs.core.hands import categories, category_name, evaluate
from pokerzoo.envs.draw_poker import compare_hands, hand_category

# (first hand, second hand, options, compare_hands(first, second), rule)
COMPARISONS = [
    ("Ah Kh Qh Jh Th", "As Ks Qs Js Ts", {}, 1, "royal flush: the suit, hearts over spades"),
    ("Ac Kc Qc Jc Tc", "Ad Kd Qd Jd Td", {}, 1, "royal flush: clubs over diamonds"),
    ("9h 8h 7h 6h 5h", "9c 8c 7c 6c 5c", {}, 1, "straight flush: same top, the suit"),
    ("Ts 9s 8s 7s 6s", "9h 8h 7h 6h 5h", {}, 1, "straight flush: the top card first"),
    ("5h 4h 3h 2h Ah", "6s 5s 4s 3s 2s", {}, -1, "A-2-3-4-5 is the lowest straight flush"),
    ("7h 5h 4h 3h 2h", "Ac Kc 9c 5c 3c", {}, 1, "flush: the suit first"),
    ("Ac Kc 9c 5c 3c", "Ad Kd Qd Jd 9d", {}, 1, "flush: clubs over diamonds"),
    ("Kd Jd 9d 5d 3d", "Ks Qs Js 9s 8s", {}, 1, "flush: diamonds over spades"),
    ("Ah Jh 9h 5h 3h", "Ah Th 9h 5h 3h", {"decks": 2}, 1, "flush: same suit, the cards"),
    ("Ah Kh 9h 5h 3h", "Ah Kh 9h 5h 3h", {"decks": 2}, 0, "flush: identical hands"),
    ("9h 8s 7s 6s 5s", "9c 8h 7h 6h 5h", {}, 1, "straight: the top card's suit"),
    ("Ts 9s 8h 7s 6s", "9h 8h 7c 6h 5h", {}, 1, "straight: the top card first"),
    ("As 2h 3d 4c 5s", "6h 2d 3c 4s 5h", {}, -1, "straight: A-2-3-4-5 is the lowest"),
    ("As Ks Qh Jd Tc", "Ah Kd Qs Jc Ts", {}, -1, "straight: ace-high, the ace's suit"),
    ("Qs Qh Qd 4c 4s", "Js Jh Jd Ac Ah", {}, 1, "full house: the three first"),
    ("Qs Qh Qd 5c 5s", "Qs Qh Qc 4d 4h", {"decks": 2}, 1, "full house: then the pair"),
    ("Qs Qh Qd 5c 5s", "Qs Qh Qc 5d 5h", {"decks": 2}, 0, "full house: equal, no suits"),
    ("8s 8h 8d 8c 2s", "7s 7h 7d 7c As", {}, 1, "four of a kind: the four first"),
    ("8s 8h 8d 8c 3s", "8s 8h 8d 8c 2h", {"decks": 2}, 1, "four of a kind: then the fifth card"),
    ("9s 9h 9d 5c 2s", "9s 9h 9c 5d 2h", {"decks": 2}, 0, "three of a kind: equal, no suits"),
    ("9s 9h 9d 6c 2s", "9s 9h 9c 5d 4h", {"decks": 2}, 1, "three of a kind: the odd cards"),
    ("As Ad 8s 8d 4h", "Ah Ac 8h 8c 4c", {}, 1, "two pair: the fifth card's suit"),
    ("As Ad 8s 8d 4h", "Ah Ac 9h 9c 2c", {}, -1, "two pair: the lower pair before the fifth"),
    ("Ks Kd 8s 8d Ah", "Ah Ac 2h 2c 3c", {}, -1, "two pair: the higher pair first"),
    ("Kd Ks 9h 5c 3d", "Kh Kc 9c 5s 3h", {}, 1, "pair: the highest odd card's suit, hearts"),
    ("Kd Ks 9c 5h 3h", "Kh Kc 9d 5s 3s", {}, 1, "pair: clubs over diamonds"),
    ("Kd Ks 9d 5c 3d", "Kh Kc 9s 5s 3h", {}, 1, "pair: diamonds over spades"),
    ("Kd Ks 9s 6c 3d", "Kh Kc 9c 5s 3h", {}, 1, "pair: the odd cards before suits"),
    ("Ad Kc 7h 5s 3d", "Qh Jd 9c 8s 6h", {}, 1, "ace-king beats nothing"),
    ("Ad Kc 7h 5s 3d", "2h 2d 9c 8s 6h", {}, -1, "ace-king loses to a pair of deuces"),
    ("Ad Kc 8h 5s 3d", "Ah Ks 7h 6s 4d", {}, 1, "ace-king: the third card"),
    ("Ah Kc 8h 5s 3d", "Ac Ks 8c 5h 3h", {}, 1, "ace-king: equal ranks, the ace's suit"),
    ("Qh Jd 9c 8s 6h", "Qc Js 9d 8h 6s", {}, 1, "nothing: the highest card's suit"),
    ("Qs Jd 9c 8s 7h", "Qh Jd 9c 8s 6h", {}, 1, "nothing: the ranks before suits"),
    ("Jk As Ah Ad Ac", "Ah Kh Qh Jh Th", {}, 1, "five of a kind beats a royal flush"),
    ("2s 2h Kd Kc Ks", "Ah Kh Qh Jh Th", {"deuces_wild": True}, 1, "deuces wild: five kings"),
    ("2s 2h Kd Kc Ks", "Ah Kh Qh Jh Th", {}, -1, "deuces are not wild by default"),
    ("Jk Jk As Ah Ad", "Jk Ks Kh Kd Kc", {}, 1, "five aces beat five kings"),
    ("Jk Ks Qs Js Ts", "Ac Kc Qc Jc Tc", {}, -1, "a joker's royal flush has its naturals' suit"),
    ("Jk Kd Ks 9h 5c", "Kh Kc Kd 9c 5s", {"decks": 2}, 0, "a joker makes trips: equal hands"),
    ("Jk 8s 7d 6c 5s", "9c 8h 7h 6h 5h", {}, 1, "straight: a wild top card takes hearts"),
    ("Jk 8s 7d 6c 5s", "9h 8c 7c 6d 5d", {}, 0, "straight: a wild top card equals the 9h"),
    ("Jk 9c 5s 3d 4h", "Jk 9h 5c 3h 4d", {}, -1, "a joker pairs the nine, the odd 5c wins"),
]


@pytest.mark.parametrize(
    ("first", "second", "options", "expected", "rule"),
    COMPARISONS,
    ids=[c[4] for c in COMPARISONS],
)
def test_compare_hands(first: str, second: str, options: dict, expected: int, rule: str) -> None:
    wild = options.get("deuces_wild", False)
    assert compare_hands(first, second, deuces_wild=wild) == expected
    assert compare_hands(second, first, deuces_wild=wild) == -expected


CATEGORIES = [
    ("Jk As Ah Ad Ac", False, "five of a kind"),
    ("As Ah Ad Ac As", False, "five of a kind"),  # two decks
    ("2c As Ah Ad Ac", True, "five of a kind"),
    ("Ah Kh Qh Jh Th", False, "royal flush"),
    ("Jk Kh Qh Jh Th", False, "royal flush"),
    ("5h 4h 3h 2h Ah", False, "straight flush"),
    ("8s 8h 8d 8c 2s", False, "four of a kind"),
    ("8s 8h 8d 2c 3s", True, "four of a kind"),
    ("Qs Qh Qd 4c 4s", False, "full house"),
    ("Ac Kc 9c 5c 3c", False, "flush"),
    ("Ac Kd Qh Js Ts", False, "straight"),
    ("9s 9h 9d 5c 2s", False, "three of a kind"),
    ("9s 9h 2d 5c 7s", True, "three of a kind"),
    ("As Ad 8s 8d 4h", False, "two pair"),
    ("Kd Ks 9h 5c 3d", False, "pair"),
    ("Jk 9h 5c 3d 7s", False, "pair"),
    ("Ad Kc 7h 5s 3d", False, "ace-king"),
    ("Qh Jd 9c 8s 6h", False, "nothing"),
    ("Ah Qd 9c 8s 6h", False, "nothing"),
]


@pytest.mark.parametrize(("cards", "wild", "name"), CATEGORIES)
def test_hand_category(cards: str, wild: bool, name: str) -> None:
    assert hand_category(cards, deuces_wild=wild) == name


def test_every_card_form_is_accepted() -> None:
    a, b = "Kd Ks 9h 5c 3d", "Kh Kc 9c 5s 3h"
    assert compare_hands(a.split(), parse_cards(b)) == 1
    assert compare_hands(parse_cards(a), "kh KC 9c 5S 3h") == 1
    assert compare_hands(np.array(parse_cards(a)), b) == 1
    assert hand_category("10s 10h 10d 9s 9h") == "full house"
    assert hand_category("Th, Jh, Qh, Kh, Ah") == "royal flush"


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: compare_hands("As Ks Qs Js Xs", "As Ks Qs Js Ts"), "bad card 'Xs'"),
        (lambda: compare_hands("As Ks Qs Js", "As Ks Qs Js Ts"), "first hand: expected 5 cards"),
        (lambda: compare_hands("As Ks Qs Js Ts", "As"), "second hand: expected 5 cards, got 1"),
        (lambda: hand_category("As As As Ks Qs"), "card As appears 3 times in hand"),
        (lambda: hand_category("Jk Jk Jk Jk Jk"), "too many jokers in hand: 5"),
        (lambda: hand_category([48, 44, 40, 36, 99]), "bad card id 99"),
        (lambda: hand_category("As Ks Qs Js Ts", deuces_wild="yes"), "bad deuces_wild 'yes'"),
        (lambda: compare_hands("As Ks Qs Js Ts", "As Ks Qs Js Ts", deuces_wild=1), "deuces_wild"),
    ],
)
def test_bad_input_names_the_card_or_argument(call, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        call()


@pytest.mark.parametrize("deuces_wild", [False, True])
def test_the_api_agrees_with_the_draw_evaluator_on_random_hands(deuces_wild: bool) -> None:
    rng = np.random.default_rng(11)
    pack = Deck(decks=2, jokers=4).cards
    hands = np.array([rng.choice(pack, 5, replace=False) for _ in range(3000)], dtype=np.int64)
    keys = evaluate(hands, "draw", deuces_wild=deuces_wild)
    cats = categories(hands, "draw", deuces_wild=deuces_wild)
    for i in range(0, len(hands), 2):
        a, b = hands[i].tolist(), hands[i + 1].tolist()
        expected = int(np.sign(keys[i] - keys[i + 1]))
        assert compare_hands(a, b, deuces_wild=deuces_wild) == expected
        assert hand_category(a, deuces_wild=deuces_wild) == category_name(cats[i], "draw")
    # and a hand always equals itself
    assert all(compare_hands(h, h, deuces_wild=deuces_wild) == 0 for h in hands[:100].tolist())
