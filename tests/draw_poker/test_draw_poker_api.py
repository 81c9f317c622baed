"""Draw poker's scripted API (RULES §6): ``compare_hands`` and ``hand_category`` on the seed's
tie-breaks, every card form, named errors, and agreement with the ``"draw"`` evaluator."""

from __future__ import annotations

import numpy as np
import pytest
from pokerzoo.envs.core.cards import Deck, parse_cards
from pokerzoo.envs.core.hands import categories, category_name, evaluate
from pokerzoo.envs.draw_poker import compare_hands, hand_category

from tests.helpers import cases

FILE = "draw_api.yaml"  # the case tables, in tests/data

COMPARISONS = cases(FILE, "comparisons")


@pytest.mark.parametrize(("first", "second", "options", "expected"), COMPARISONS)
def test_compare_hands(first: str, second: str, options: dict, expected: int) -> None:
    wild = options.get("deuces_wild", False)
    assert compare_hands(first, second, deuces_wild=wild) == expected
    assert compare_hands(second, first, deuces_wild=wild) == -expected


CATEGORIES = cases(FILE, "categories")


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
