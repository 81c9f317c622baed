"""The hand-evaluation API: accepted inputs, outputs, and the errors bad input raises (each naming
the bad value)."""

from __future__ import annotations

import re
from collections.abc import Callable

import numpy as np
import pytest
from pokerzoo.envs.core.cards import JOKER, format_card, parse_cards
from pokerzoo.envs.core.hands import (
    NUM_HAND_CLASSES,
    RULESETS,
    Category,
    categories,
    category_name,
    evaluate,
    hand_category,
    hand_classes,
    hand_key,
    make_classifier,
    make_evaluator,
)

HANDS = [
    parse_cards("As Ks Qs Js Ts"),
    parse_cards("9s 9h 9d 9c 2s"),
    parse_cards("7h 7d 3c 3s Ah"),
    parse_cards("Jk 8h 8d 5c 2s"),
]
PIQUET_HANDS = [parse_cards("As Ks Qs Js Ts"), parse_cards("7s 7h 8d 9c Jc")]


# --- accepted input -------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "dtype", [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]
)
@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_integer_dtype_gives_the_same_keys(dtype: type, ruleset: str, loops_by: str) -> None:
    hands = PIQUET_HANDS if ruleset == "quintet" else HANDS
    expected = evaluate(hands, ruleset)  # type: ignore[arg-type]
    arr = np.array(hands, dtype=dtype)
    keys = evaluate(arr, ruleset)  # type: ignore[arg-type]
    assert keys.dtype == np.int64 and keys.shape == (len(hands),)
    assert np.array_equal(keys, expected)
    assert np.array_equal(categories(arr, ruleset), categories(hands, ruleset))  # type: ignore[arg-type]
    assert np.array_equal(hand_classes(arr, ruleset), hand_classes(hands, ruleset))  # type: ignore[arg-type]


def test_lists_tuples_and_strided_arrays_are_accepted(loops_by: str) -> None:
    expected = evaluate(np.array(HANDS, dtype=np.int8))
    assert np.array_equal(evaluate(tuple(tuple(h) for h in HANDS)), expected)
    wide = np.zeros((len(HANDS), 10), dtype=np.int16)
    wide[:, ::2] = HANDS
    assert np.array_equal(evaluate(wide[:, ::2]), expected)  # a strided view
    assert np.array_equal(evaluate(np.asfortranarray(np.array(HANDS))), expected)
    assert np.array_equal(evaluate(np.array(HANDS)[::-1]), expected[::-1])


def test_evaluate_leaves_its_input_unchanged(loops_by: str) -> None:
    for dtype in (np.int8, np.int64):
        arr = np.array(HANDS, dtype=dtype)
        before = arr.copy()
        for ruleset in ("standard", "draw", "low"):
            evaluate(arr, ruleset, deuces_wild=True)  # type: ignore[arg-type]
        assert np.array_equal(arr, before)


@pytest.mark.parametrize("dtype", [np.int8, np.int64, np.float64])
def test_an_empty_batch_gives_empty_results(dtype: type, loops_by: str) -> None:
    empty = np.zeros((0, 5), dtype=dtype)
    for ruleset in RULESETS:
        assert evaluate(empty, ruleset).shape == (0,)  # type: ignore[arg-type]
        assert categories(empty, ruleset).shape == (0,)  # type: ignore[arg-type]
        assert hand_classes(empty, ruleset).shape == (0,)  # type: ignore[arg-type]


def test_one_hand_helpers_accept_every_card_form() -> None:
    forms = [
        "As Ks Qs Js Ts",
        "as,ks,qs,js,10s",
        ["As", "Ks", "Qs", "Js", "Ts"],
        [48, 44, 40, 36, 32],
    ]
    keys = {hand_key(form) for form in forms}
    assert len(keys) == 1
    assert all(hand_category(form) == Category.ROYAL_FLUSH for form in forms)
    assert isinstance(hand_key("As Ks Qs Js Ts"), int)
    assert isinstance(hand_category("As Ks Qs Js Ts"), Category)


def test_hand_classes_count_and_range() -> None:
    assert NUM_HAND_CLASSES == 17_136
    every_card = np.arange(52, dtype=np.int8)
    rng = np.random.default_rng(3)
    hands = np.concatenate(
        [rng.permuted(np.tile(every_card, (2000, 1)), axis=1)[:, :5], np.full((1, 5), JOKER)]
    )
    classes = hand_classes(hands)
    assert classes.dtype == np.int64
    assert classes.min() >= 0 and classes.max() < NUM_HAND_CLASSES


def test_the_scalar_functions_take_five_ids() -> None:
    strength, classify = make_evaluator("draw"), make_classifier("draw")
    cards = parse_cards("Ah Kh Qh Jh Th")
    assert strength(*cards) == hand_key(cards, "draw")
    assert classify(*cards) == int(hand_classes([cards], "draw")[0])


# --- errors ---------------------------------------------------------------------------------------
ENTRY_POINTS: list[Callable[..., object]] = [evaluate, categories, hand_classes]


@pytest.mark.parametrize("function", ENTRY_POINTS)
@pytest.mark.parametrize(
    "cards",
    [
        np.arange(5),
        np.zeros((2, 4), dtype=np.int8),
        np.zeros((2, 6), dtype=np.int8),
        np.zeros((1, 5, 1), dtype=np.int8),
        np.int8(3),
        [],
        [[0, 1, 2, 3]],
    ],
)
def test_bad_shapes_raise_naming_the_shape(function: Callable[..., object], cards: object) -> None:
    shape = np.asarray(cards).shape
    with pytest.raises(ValueError, match=re.escape(str(shape))):
        function(cards)


@pytest.mark.parametrize("function", ENTRY_POINTS)
@pytest.mark.parametrize(
    "cards",
    [
        np.zeros((1, 5), dtype=np.float64),
        np.zeros((1, 5), dtype=np.float32),
        np.zeros((1, 5), dtype=bool),
        np.array([["As", "Ks", "Qs", "Js", "Ts"]]),
        np.array([[0, 1, 2, 3, None]], dtype=object),
        [[0.0, 1.0, 2.0, 3.0, 4.0]],
    ],
)
def test_non_integer_dtypes_raise_naming_the_dtype(
    function: Callable[..., object], cards: object
) -> None:
    with pytest.raises(ValueError, match=re.escape(str(np.asarray(cards).dtype))):
        function(cards)


@pytest.mark.parametrize("function", ENTRY_POINTS)
@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.int64, None])
@pytest.mark.parametrize("bad", [53, -1, -53, 100])
@pytest.mark.parametrize("ruleset", ["standard", "draw", "low", "quintet"])
def test_bad_card_ids_raise_naming_the_id(
    function: Callable[..., object], dtype: type | None, bad: int, ruleset: str, loops_by: str
) -> None:
    rows = [parse_cards("As Ks Qs Js Ts")] * 3 + [[48, 44, 40, 36, bad]]
    cards = rows if dtype is None else np.array(rows, dtype=dtype)
    with pytest.raises(ValueError, match=rf"bad card id {bad}\b"):
        function(cards, ruleset)


@pytest.mark.parametrize("bad", [53, 255, 2**32 - 1, 2**64 - 1])
def test_bad_unsigned_card_ids_raise_naming_the_id(bad: int, loops_by: str) -> None:
    dtype = np.uint8 if bad < 256 else np.uint64
    with pytest.raises(ValueError, match=rf"bad card id {bad}\b"):
        evaluate(np.array([[0, 1, 2, 3, bad]], dtype=dtype))


@pytest.mark.parametrize(
    ("cards", "bad"),
    [
        ("6s 7s 8s 9s Ts", 16),
        ("As Ks Qs Js 2c", 3),
        ("As Ks Qs Js Jk", JOKER),
        ("5h As Ks Qs Js", 13),
    ],
)
@pytest.mark.parametrize("function", ENTRY_POINTS)
def test_quintet_rejects_cards_outside_the_piquet_deck(
    cards: str, bad: int, function: Callable[..., object], loops_by: str
) -> None:
    with pytest.raises(ValueError, match=rf"card id {bad} is not allowed in ruleset 'quintet'"):
        function(np.array([parse_cards("As Ks Qs Js Ts"), parse_cards(cards)]), "quintet")
    with pytest.raises(ValueError, match=f"card {format_card(bad)} in hand is not in the pack"):
        hand_key(cards, "quintet")


@pytest.mark.parametrize(
    ("cards", "ruleset", "message"),
    [
        ("As As Qs Js Ts", "standard", "duplicate card As in hand"),  # one deck
        ("As As Qs Js Ts", "low", "duplicate card As in hand"),
        ("As Ks Qs Js Ts Ts", "standard", "expected 5 cards, got 6"),
    ],
)
def test_one_hand_helpers_check_the_hand_could_be_dealt(
    cards: str, ruleset: str, message: str
) -> None:
    for function in (hand_key, hand_category):
        with pytest.raises(ValueError, match=message):
            function(cards, ruleset)  # type: ignore[arg-type]
    assert hand_category("As As Qs Js Ts", "draw") == Category.FLUSH  # two decks: fine


def test_the_same_cards_are_fine_outside_quintet(loops_by: str) -> None:
    for ruleset in ("standard", "draw", "low"):
        evaluate([parse_cards("6s 7s 8s 9s Jk")], ruleset)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "call",
    [
        lambda: evaluate(PIQUET_HANDS, "quintet", deuces_wild=True),
        lambda: categories(PIQUET_HANDS, "quintet", deuces_wild=True),
        lambda: hand_classes(PIQUET_HANDS, "quintet", deuces_wild=True),
        lambda: make_evaluator("quintet", deuces_wild=True),
        lambda: make_classifier("quintet", deuces_wild=True),
        lambda: hand_key("As Ks Qs Js Ts", "quintet", deuces_wild=True),
        lambda: hand_category("As Ks Qs Js Ts", "quintet", deuces_wild=True),
    ],
)
def test_deuces_wild_is_refused_with_quintet(call: Callable[[], object]) -> None:
    with pytest.raises(ValueError, match=r"deuces_wild.*'quintet'"):
        call()


@pytest.mark.parametrize("deuces_wild", [1, 0, "yes", None, "True"])
def test_deuces_wild_must_be_a_bool(deuces_wild: object) -> None:
    with pytest.raises(ValueError, match=re.escape(f"bad deuces_wild {deuces_wild!r}")):
        evaluate(HANDS, "standard", deuces_wild=deuces_wild)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=re.escape(repr(deuces_wild))):
        make_evaluator("standard", deuces_wild=deuces_wild)  # type: ignore[arg-type]


@pytest.mark.parametrize("ruleset", ["holdem", "Standard", "", None, "high"])
@pytest.mark.parametrize(
    "call",
    [
        lambda r: evaluate(HANDS, r),
        lambda r: categories(HANDS, r),
        lambda r: hand_classes(HANDS, r),
        lambda r: make_evaluator(r),
        lambda r: make_classifier(r),
        lambda r: hand_key("As Ks Qs Js Ts", r),
        lambda r: hand_category("As Ks Qs Js Ts", r),
        lambda r: category_name(Category.PAIR, r),
    ],
)
def test_a_bad_ruleset_raises_naming_it(ruleset: object, call: Callable[[object], object]) -> None:
    with pytest.raises(ValueError, match=re.escape(f"bad ruleset {ruleset!r}")):
        call(ruleset)


@pytest.mark.parametrize(
    ("cards", "message"),
    [
        ("As Ks Qs Js", "got 4"),
        ("As Ks Qs Js Ts 9s", "got 6"),
        ("", "got 0"),
        ("As Ks Qs Js 1s", "'1s'"),
        ([48, 44, 40, 36, 53], "53"),
        ([48, 44, 40, 36, -1], "-1"),
    ],
)
def test_one_hand_helpers_name_bad_cards(cards: object, message: str) -> None:
    for function in (hand_key, hand_category):
        with pytest.raises(ValueError, match=re.escape(message)):
            function(cards)  # type: ignore[arg-type]


@pytest.mark.parametrize("category", [12, -1, 99])
def test_category_name_rejects_unknown_categories(category: int) -> None:
    with pytest.raises(ValueError, match=str(category)):
        category_name(category)


def test_scalar_functions_are_built_once_and_options_checked_every_call() -> None:
    # Every env construction asks for them: one function per ruleset and wild-card option.
    assert make_evaluator("draw", deuces_wild=True) is make_evaluator("draw", deuces_wild=True)
    assert make_classifier("low") is make_classifier("low")
    assert make_evaluator("standard") is not make_evaluator("standard", deuces_wild=True)
    for _ in range(2):  # a refused option is refused again, never served from the cache
        with pytest.raises(ValueError, match=r"bad deuces_wild 1"):
            make_evaluator("standard", deuces_wild=1)  # type: ignore[arg-type]
