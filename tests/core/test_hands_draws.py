"""``evaluate_draws``: the keys of the hands a draw makes are :func:`evaluate`'s keys of those
hands, for every ruleset, wild-card option, discard and integer dtype; bad input raises naming
the bad value; by the numpy code and by the compiled loop alike (``loops_by``)."""

from __future__ import annotations

import numpy as np
import pytest
from pokerzoo.envs.core.cards import JOKER, NUM_CARD_IDS, PIQUET_LOWEST_RANK, parse_cards
from pokerzoo.envs.core.hands import RULESETS, evaluate, evaluate_draws

DISCARDS = np.arange(32)


def built(held: np.ndarray, drawn: np.ndarray, discards: np.ndarray) -> np.ndarray:
    """``(V, S, O, 5)``: each hand a draw makes, built card by card (the cards kept, in order,
    then the first replacements)."""
    hands = np.empty((*drawn.shape[:2], len(discards), 5), dtype=np.int64)
    for o, bits in enumerate(discards.tolist()):
        kept = [i for i in range(5) if not bits >> i & 1]
        thrown = 5 - len(kept)
        hands[:, :, o, : len(kept)] = held[:, None, kept]
        hands[:, :, o, len(kept) :] = drawn[:, :, :thrown]
    return hands


def card_pool(ruleset: str) -> np.ndarray:
    """Every card id a hand of ``ruleset`` may hold."""
    if ruleset == "quintet":
        return np.array([c for c in range(52) if c >> 2 >= PIQUET_LOWEST_RANK])
    return np.arange(NUM_CARD_IDS)


def expected(held, drawn, discards, ruleset, deuces_wild=False) -> np.ndarray:
    hands = built(np.asarray(held), np.asarray(drawn), np.asarray(discards))
    keys = evaluate(hands.reshape(-1, 5), ruleset, deuces_wild=deuces_wild)  # type: ignore[arg-type]
    return keys.reshape(hands.shape[:3])


@pytest.mark.parametrize("deuces_wild", [False, True])
@pytest.mark.parametrize("ruleset", RULESETS)
def test_random_draws_give_evaluates_keys(ruleset: str, deuces_wild: bool, loops_by: str) -> None:
    if ruleset == "quintet" and deuces_wild:
        pytest.skip("quintet has no deuces")
    rng = np.random.default_rng(7)
    pool = card_pool(ruleset)
    held = rng.choice(pool, (6, 5))  # repeats included: two decks, wild cards
    drawn = rng.choice(pool, (6, 40, 5))
    keys = evaluate_draws(held, drawn, DISCARDS, ruleset, deuces_wild=deuces_wild)  # type: ignore[arg-type]
    assert keys.dtype == np.int64 and keys.shape == (6, 40, 32)
    assert np.array_equal(keys, expected(held, drawn, DISCARDS, ruleset, deuces_wild))


@pytest.mark.parametrize("deuces_wild", [False, True])
def test_every_card_drawn_to_every_hand_of_a_table(deuces_wild: bool, loops_by: str) -> None:
    """Exhaustive over the replacement: each of a few hands (made hands, draws, wild cards)
    drawing every card id to every one-card discard and to standing pat."""
    held = np.array(
        [
            parse_cards("As Ah Kd 7c 2s"),
            parse_cards("9h Th Jh Qh 3c"),
            parse_cards("Jk 8h 8d 5c 2s"),
            parse_cards("2c 2d Jk 6s 6h"),
            parse_cards("5d 4d 3d 2d Ad"),
        ]
    )
    cards = np.arange(NUM_CARD_IDS)
    drawn = np.broadcast_to(cards[None, :, None], (len(held), cards.size, 1))
    discards = np.array([0, 1, 2, 4, 8, 16])
    for ruleset in ("standard", "draw", "low"):
        keys = evaluate_draws(held, drawn, discards, ruleset, deuces_wild=deuces_wild)  # type: ignore[arg-type]
        assert np.array_equal(keys, expected(held, drawn, discards, ruleset, deuces_wild))


@pytest.mark.parametrize(
    "dtype", [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]
)
def test_every_integer_dtype_gives_the_same_keys(dtype: type, loops_by: str) -> None:
    rng = np.random.default_rng(1)
    held = rng.integers(0, NUM_CARD_IDS, (3, 5))
    drawn = rng.integers(0, NUM_CARD_IDS, (3, 9, 5))
    want = evaluate_draws(held, drawn, DISCARDS, "draw")
    got = evaluate_draws(held.astype(dtype), drawn.astype(dtype), DISCARDS.astype(np.uint8), "draw")
    assert np.array_equal(got, want)
    # lists, a strided view, and fewer replacements than five where no discard needs them
    assert np.array_equal(
        evaluate_draws(held.tolist(), drawn.tolist(), [0, 3], "draw"), want[..., [0, 3]]
    )
    assert np.array_equal(
        evaluate_draws(held, drawn[:, ::2, :2], [0, 3], "draw"), want[:, ::2][..., [0, 3]]
    )


def test_empty_batches_give_empty_keys(loops_by: str) -> None:
    held = np.array([parse_cards("As Ah Kd 7c 2s")])
    assert evaluate_draws(held, np.zeros((1, 0, 5), dtype=int), DISCARDS).shape == (1, 0, 32)
    assert evaluate_draws(held, np.zeros((1, 3, 5), dtype=int), []).shape == (1, 3, 0)
    assert evaluate_draws(np.zeros((0, 5), dtype=int), np.zeros((0, 4, 5)), [0]).shape == (0, 4, 1)


def test_the_input_is_left_unchanged(loops_by: str) -> None:
    held = np.array([parse_cards("As Ah Kd 7c 2s")])
    drawn = np.array([[parse_cards("3c 4c 5d 6h 7s")]])
    before = held.copy(), drawn.copy()
    evaluate_draws(held, drawn, DISCARDS, "draw")
    assert np.array_equal(held, before[0]) and np.array_equal(drawn, before[1])


HELD = [parse_cards("As Ah Kd 7c 2s")]
DRAWN = [[parse_cards("3c 4c 5d 6h 7s")]]


@pytest.mark.parametrize(
    ("held", "drawn", "discards", "message"),
    [
        ([parse_cards("As Ah Kd 7c")], DRAWN, [0], r"shapes \(1, 4\) and \(1, 1, 5\)"),
        (HELD, [parse_cards("3c 4c 5d 6h 7s")], [0], r"shape \(1, S, k\), got shape \(1, 5\)"),
        (HELD, [DRAWN[0], DRAWN[0]], [0], r"shapes \(1, 5\) and \(2, 1, 5\)"),
        (HELD, DRAWN, [32], r"bad discards \[32\]: expected 5-bit masks in 0..31"),
        (HELD, DRAWN, [-1], r"bad discards \[-1\]"),
        (HELD, DRAWN, [1.0], r"bad discards \[1.0\]"),
        (HELD, DRAWN, [[0]], r"bad discards \[\[0\]\]"),
        (HELD, np.array(DRAWN)[:, :, :2], [7], r"discard 7 throws 3 cards but a future holds 2"),
        (HELD, np.array(DRAWN, dtype=float), [0], r"got dtype float64"),
        ([[0, 1, 2, 3, -1]], DRAWN, [0], r"bad card id -1"),
        (HELD, [[[0, 1, 2, 3, NUM_CARD_IDS]]], [0], rf"bad card id {NUM_CARD_IDS}"),
        (HELD, np.array([[[0, 1, 2, 3, -1]]], dtype=np.int8), [0], r"bad card id -1"),
    ],
)
def test_bad_input_raises_naming_it(held, drawn, discards, message: str, loops_by: str) -> None:
    with pytest.raises(ValueError, match=message):
        evaluate_draws(held, drawn, discards, "draw")


def test_quintet_rejects_cards_outside_the_piquet_deck() -> None:
    piquet = [parse_cards("As Ks Qs Js Ts")]
    with pytest.raises(ValueError, match=r"card id 0 is not allowed in ruleset 'quintet'"):
        evaluate_draws(piquet, [[parse_cards("2s Ah 8d 9c Jc")]], [1], "quintet")
    with pytest.raises(ValueError, match=rf"card id {JOKER} is not allowed in ruleset 'quintet'"):
        evaluate_draws([[JOKER, *piquet[0][1:]]], [[piquet[0]]], [0], "quintet")
    # a card the discards never reach is still a card of the hand's futures: refused too
    with pytest.raises(ValueError, match=r"card id 0 is not allowed"):
        evaluate_draws(piquet, [[parse_cards("Ah 8d 9c Jc 2s")]], [1], "quintet")


def test_options_are_checked() -> None:
    with pytest.raises(ValueError, match="bad ruleset 'high'"):
        evaluate_draws(HELD, DRAWN, [0], "high")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="deuces_wild=True is not allowed with ruleset 'quintet'"):
        evaluate_draws(HELD, DRAWN, [0], "quintet", deuces_wild=True)
