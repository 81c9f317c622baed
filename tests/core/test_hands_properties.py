"""Invariants of the hand evaluator, checked on hypothesis-generated hands (one or two decks,
jokers included): card order, suit names and wild cards, and the scalar paths agreeing with the
batched ones."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pokerzoo.envs.core.cards import JOKER, PIQUET_LOWEST_RANK
from pokerzoo.envs.core.hands import (
    NUM_HAND_CLASSES,
    categories,
    evaluate,
    hand_classes,
    make_classifier,
    make_evaluator,
)

from .test_hands_reference import category_of, key_of

PROPERTY_SETTINGS = settings(max_examples=100, deadline=None)
# (ruleset, deuces_wild): every combination the evaluator accepts.
VARIANTS = [
    ("standard", False),
    ("standard", True),
    ("quintet", False),
    ("draw", False),
    ("draw", True),
    ("low", False),
    ("low", True),
]


def card_ids(ruleset: str) -> st.SearchStrategy[int]:
    """Any card id the ruleset accepts; duplicates in a hand stand for a second deck.

    Jokers are drawn about one time in seven, so that many hands hold one or more wild cards.
    """
    if ruleset == "quintet":
        return st.integers(4 * PIQUET_LOWEST_RANK, 51)
    return st.integers(0, JOKER + 8).map(lambda card: min(card, JOKER))


def hands(ruleset: str) -> st.SearchStrategy[list[int]]:
    return st.lists(card_ids(ruleset), min_size=5, max_size=5)


def key(cards: list[int], ruleset: str, deuces_wild: bool) -> int:
    return int(evaluate(np.array([cards]), ruleset, deuces_wild=deuces_wild)[0])  # type: ignore[arg-type]


def relabel(cards: list[int], suit_map: list[int]) -> list[int]:
    return [c if c == JOKER else 4 * (c // 4) + suit_map[c % 4] for c in cards]


@pytest.mark.parametrize(("ruleset", "deuces_wild"), VARIANTS)
def test_card_order_never_changes_the_key(ruleset: str, deuces_wild: bool) -> None:
    @PROPERTY_SETTINGS
    @given(hands(ruleset), st.permutations(range(5)))
    def prop(cards: list[int], order: list[int]) -> None:
        shuffled = [cards[i] for i in order]
        assert key(shuffled, ruleset, deuces_wild) == key(cards, ruleset, deuces_wild)

    prop()


@pytest.mark.parametrize(("ruleset", "deuces_wild"), [v for v in VARIANTS if v[0] != "quintet"])
def test_a_wild_card_never_lowers_a_hand(ruleset: str, deuces_wild: bool) -> None:
    @PROPERTY_SETTINGS
    @given(hands(ruleset), st.integers(0, 4))
    def prop(cards: list[int], slot: int) -> None:
        wilder = list(cards)
        wilder[slot] = JOKER
        assert key(wilder, ruleset, deuces_wild) >= key(cards, ruleset, deuces_wild)

    prop()


@pytest.mark.parametrize(
    ("ruleset", "deuces_wild"), [v for v in VARIANTS if v[0] in ("standard", "quintet", "low")]
)
def test_suit_names_never_change_the_key(ruleset: str, deuces_wild: bool) -> None:
    @PROPERTY_SETTINGS
    @given(hands(ruleset), st.permutations(range(4)))
    def prop(cards: list[int], suit_map: list[int]) -> None:
        relabelled = relabel(cards, suit_map)
        assert key(relabelled, ruleset, deuces_wild) == key(cards, ruleset, deuces_wild)

    prop()


def test_draw_suit_names_matter_only_through_ties() -> None:
    # In draw poker suits break ties but never change the category.
    @PROPERTY_SETTINGS
    @given(hands("draw"), st.permutations(range(4)))
    def prop(cards: list[int], suit_map: list[int]) -> None:
        relabelled = relabel(cards, suit_map)
        assert category_of(relabelled, "draw") == category_of(cards, "draw")

    prop()


@pytest.mark.parametrize(("ruleset", "deuces_wild"), VARIANTS)
def test_scalar_paths_agree_with_the_batched_ones(ruleset: str, deuces_wild: bool) -> None:
    strength = make_evaluator(ruleset, deuces_wild=deuces_wild)  # type: ignore[arg-type]
    classify = make_classifier(ruleset, deuces_wild=deuces_wild)  # type: ignore[arg-type]

    @PROPERTY_SETTINGS
    @given(st.lists(hands(ruleset), min_size=1, max_size=40))
    def prop(batch: list[list[int]]) -> None:
        arr = np.array(batch, dtype=np.int8)
        keys = evaluate(arr, ruleset, deuces_wild=deuces_wild)  # type: ignore[arg-type]
        classes = hand_classes(arr, ruleset, deuces_wild=deuces_wild)  # type: ignore[arg-type]
        cats = categories(arr, ruleset, deuces_wild=deuces_wild)  # type: ignore[arg-type]
        assert keys.tolist() == [strength(*cards) for cards in batch]
        assert classes.tolist() == [classify(*cards) for cards in batch]
        assert ((classes >= 0) & (classes < NUM_HAND_CLASSES)).all()
        first = batch[0]
        assert key_of(first, ruleset, deuces_wild=deuces_wild) == keys[0]  # type: ignore[arg-type]
        assert category_of(first, ruleset, deuces_wild=deuces_wild) == cats[0]  # type: ignore[arg-type]

    prop()


@pytest.mark.parametrize(("ruleset", "deuces_wild"), VARIANTS)
def test_equal_classes_mean_equal_categories(ruleset: str, deuces_wild: bool) -> None:
    # A class fixes every suit-free property: two hands of one class share their category (and,
    # outside draw poker, their key).
    @PROPERTY_SETTINGS
    @given(hands(ruleset), st.permutations(range(4)))
    def prop(cards: list[int], suit_map: list[int]) -> None:
        arr = np.array([cards, relabel(cards, suit_map)])
        classes = hand_classes(arr, ruleset, deuces_wild=deuces_wild)  # type: ignore[arg-type]
        cats = categories(arr, ruleset, deuces_wild=deuces_wild)  # type: ignore[arg-type]
        assert classes[0] == classes[1]
        assert cats[0] == cats[1]

    prop()
