"""Poker Squares rules engine: scoring API, dealing, placement, masks, observation, render."""

from __future__ import annotations

import dataclasses
import itertools

import numpy as np
import pytest
from pokerzoo.envs.core.cards import JOKER, make_deck, parse_cards
from pokerzoo.envs.core.errors import GameOverError, IllegalActionError
from pokerzoo.envs.poker_squares import (
    CARD_FEATURES,
    EMPTY,
    LAYOUT,
    SCORING_TABLES,
    PokerSquaresEnv,
    PokerSquaresRules,
    SquaresState,
    decode_observation,
    encode_observation,
    render_grid,
    score_grid,
    score_hand,
    update_observation,
)
from pokerzoo.envs.poker_squares_v0 import parallel_env, raw_env

SEED_GRID = "8c Qc Tc 4c 2c 9h Qh Th Jh Kh Ad 8d Td 4h 5s As Qs Ts Js Ks 3d 6s 7h 4d 5d"
# (rows then columns) of the seed grid, each line's points (american, english)
SEED_LINES = [
    (20, 5),  # r1 flush
    (75, 30),  # r2 straight flush
    (0, 0),  # r3 nothing
    (100, 30),  # r4 royal flush
    (15, 12),  # r5 straight
    (2, 1),  # c1 pair
    (10, 6),  # c2 three of a kind
    (50, 16),  # c3 four of a kind
    (25, 10),  # c4 full house
    (5, 3),  # c5 two pair
]


# --- scripted API ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("hand", "american", "english"),
    [
        ("As Ks Qs Js Ts", 100, 30),  # royal flush
        ("9h Kh Qh Jh Th", 75, 30),  # straight flush
        ("As 2s 3s 4s 5s", 75, 30),  # steel wheel
        ("7c 7d 7h 7s 2c", 50, 16),
        ("7c 7d 7h 2s 2c", 25, 10),
        ("2d 9d Jd Kd 4d", 20, 5),
        ("Ts Jh Qd Kc Ah", 15, 12),  # broadway
        ("Ah 2s 3d 4c 5h", 15, 12),  # wheel
        ("Kh As 2d 3c 4s", 0, 0),  # K-A-2 does not wrap
        ("5c 5d 5h Ks 2c", 10, 6),
        ("5c 5d Kh Ks 2c", 5, 3),
        ("5c 5d Qh Ks 2c", 2, 1),
        ("5c 8d Qh Ks 2c", 0, 0),
        # jokers: the best-scoring reading under the table in use
        ("Jk Jk As Ah Ad", 50, 20),  # five of a kind is not scored in American: four of a kind
        ("Jk As Ks Qs Js", 100, 30),
        ("Jk 9s Ts Js Qs", 75, 30),
        ("Jk Jk 5s 6s Ks", 20, 6),  # American: flush 20 > trips 10; English: trips 6 > flush 5
        ("Jk 5s 6s 7s 9h", 15, 12),
        ("Jk 2c 5h 9d Kc", 2, 1),
        ("Jk 2c 2h 9d 9c", 25, 10),
    ],
)
def test_score_hand_tables(hand: str, american: int, english: int) -> None:
    assert score_hand(hand) == american
    assert score_hand(hand, scoring="american") == american
    assert score_hand(hand, scoring="english") == english
    assert score_hand(hand.split(), "english") == english
    assert score_hand(parse_cards(hand), "english") == english


@pytest.mark.parametrize(
    ("hand", "mapping", "points"),
    [
        ("Jk 2c 5h 9d Kc", {"pair": 3}, 3),
        ("2s 5s 9s Ks Jk", {"flush": 7}, 7),
        ("2s 5s 9s Ks Jk", {"pair": 9, "flush": 7}, 9),  # the joker pairs instead
        # a royal flush missing from a mapping is paid as the straight flush it is
        ("As Ks Qs Js Ts", {"straight flush": 40}, 40),
        ("As Ks Qs Js Ts", {"straight flush": 40, "royal flush": 0}, 0),
        ("Jk Ks Qs Js Ts", {"straight flush": 40}, 40),
        # a natural line is one hand, its best category: a straight flush is not paid as a
        # straight or a flush (only wild cards give a line several readings)
        ("9s 8s 7s 6s 5s", {"straight": 9, "flush": 7}, 0),
        ("As Ks Qs Js Ts", {}, 0),
        ("Jk Jk 9s 9h 9d", {"five of a kind": 99, "four of a kind": 50}, 99),
    ],
)
def test_score_hand_custom_mapping(hand: str, mapping: dict[str, int], points: int) -> None:
    assert score_hand(hand, scoring=mapping) == points


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("As Ks Qs Js",), "expected 5 cards, got 4"),
        (("As Ks Qs Js Ts 9s",), "expected 5 cards, got 6"),
        (("As Ks Qs Js Xs",), "'Xs'"),
        (("As As Qs Js Ts",), "duplicate card As"),
        (("Jk Jk Jk 9s 9h",), "too many jokers in hand: 3"),  # the deck holds two
        (("As Ks Qs Js Ts", "french"), "'french'"),
        (("As Ks Qs Js Ts", {"quads": 5}), "'quads'"),
        (("As Ks Qs Js Ts", {"pair": "2"}), "'2'"),
        (("As Ks Qs Js Ts", {"pair": True}), "True"),
        (("As Ks Qs Js Ts", 5), "bad scoring 5"),
    ],
)
def test_score_hand_errors(args: tuple, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        score_hand(*args)


@pytest.mark.parametrize(("scoring", "total"), [("english", 113), ("american", 302)])
def test_score_grid_seed_example(scoring: str, total: int) -> None:
    assert score_grid(SEED_GRID, scoring) == total
    assert score_grid(SEED_GRID.split(), scoring) == total
    assert score_grid(parse_cards(SEED_GRID), scoring=scoring) == total


@pytest.mark.parametrize(
    ("grid", "message"),
    [
        (SEED_GRID.rsplit(" ", 1)[0], "expected 25 cards, got 24"),
        (SEED_GRID + " 2d", "expected 25 cards, got 26"),
        (SEED_GRID.replace("5d", "8c"), "duplicate card 8c"),
        (SEED_GRID.replace("5d", "5x"), "'5x'"),
        (SEED_GRID.replace("5d", "Jk").replace("4d", "Jk").replace("7h", "Jk"), "jokers"),
    ],
)
def test_score_grid_errors(grid: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        score_grid(grid)


def test_scoring_tables_match_rules() -> None:
    assert SCORING_TABLES["american"]["royal flush"] == 100
    assert SCORING_TABLES["english"]["straight"] == 12
    assert SCORING_TABLES["english"]["five of a kind"] == 20
    assert SCORING_TABLES["american"].get("five of a kind", 0) == 0


# --- options -----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "make",
    [PokerSquaresRules, PokerSquaresEnv, raw_env, parallel_env],
    ids=["game", "gymnasium", "aec", "parallel"],
)
@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"jokers": 3}, "bad jokers 3"),
        ({"jokers": 4}, "bad jokers 4"),
        ({"jokers": 5}, "bad jokers 5"),
        ({"jokers": -1}, "bad jokers -1"),
        ({"jokers": True}, "bad jokers True"),
        ({"jokers": "1"}, "bad jokers '1'"),
        ({"placement": "near"}, "bad placement 'near'"),
        ({"placement": "diagonal"}, "bad placement"),
        ({"variant": "draw"}, "bad variant 'draw'"),
        ({"variant": "open"}, "bad variant"),
        ({"scoring": "french"}, "bad scoring 'french'"),
        ({"scoring": {"royal": 1}}, "bad hand name 'royal'"),
        ({"scoring": {"pair": 1.5}}, "bad points 1.5"),
    ],
)
def test_bad_options(make: type, options: dict, message: str) -> None:
    """Every way in (the engine, the Gymnasium env, both PettingZoo envs) names a bad rule
    option the same way."""
    with pytest.raises(ValueError, match=message):
        make(**options)


# --- dealing -----------------------------------------------------------------------------------
@pytest.mark.parametrize("jokers", [0, 1, 2])
def test_deal_follows_the_spec(jokers: int) -> None:
    game = PokerSquaresRules(jokers=jokers)
    expected = np.random.default_rng(7).permutation(make_deck("standard", jokers=jokers))[:25]
    assert game.deal(np.random.default_rng(7)) == expected.tolist()


def test_deal_rejects_a_non_generator() -> None:
    with pytest.raises(TypeError, match="Generator"):
        PokerSquaresRules().deal(7)  # type: ignore[arg-type]


def test_shuffle_variant_places_in_descending_id_order() -> None:
    cards = parse_cards(SEED_GRID.replace("5d", "Jk"))
    state = PokerSquaresRules(variant="shuffle", jokers=1).new_state(cards)
    assert state.cards == sorted(cards, reverse=True)
    assert state.cards[0] == JOKER and state.card == JOKER
    assert state.cards[-1] == parse_cards("2c")[0]
    # exactly the cards still to place after the current one
    expected = np.bincount(state.cards[1:], minlength=53)
    assert state.to_come.tolist() == expected.tolist()


def test_deal_variant_to_come_is_the_unseen_deck() -> None:
    state = PokerSquaresRules(jokers=2).new_state(SEED_GRID)
    expected = np.ones(53, dtype=int)
    expected[JOKER] = 2
    expected[parse_cards("8c")[0]] = 0
    assert state.to_come.tolist() == expected.tolist()


@pytest.mark.parametrize(
    ("options", "cards", "message"),
    [
        ({}, SEED_GRID.rsplit(" ", 1)[0], "expected 25 cards"),
        ({}, SEED_GRID.replace("5d", "Jk"), "card Jk in deal is not in the pack"),
        ({"jokers": 1}, SEED_GRID.replace("5d", "Jk").replace("4d", "Jk"), "too many jokers"),
        ({}, SEED_GRID.replace("5d", "8c"), "duplicate card 8c"),
    ],
)
def test_new_state_rejects_impossible_deals(options: dict, cards: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        PokerSquaresRules(**options).new_state(cards)


# --- placement and scoring ---------------------------------------------------------------------
@pytest.mark.parametrize(("scoring", "column"), [("american", 0), ("english", 1)])
def test_fixed_deck_line_by_line(scoring: str, column: int) -> None:
    game = PokerSquaresRules(scoring=scoring)
    state = game.new_state(SEED_GRID)
    earned = [game.place(state, cell) for cell in range(25)]
    rows = [SEED_LINES[r][column] for r in range(5)]
    cols = [SEED_LINES[5 + c][column] for c in range(5)]
    # a row completes on its last column, a column on the last row
    expected = [
        (rows[cell // 5] if cell % 5 == 4 else 0) + (cols[cell % 5] if cell >= 20 else 0)
        for cell in range(25)
    ]
    assert earned == expected
    assert state.score == sum(expected) == score_grid(SEED_GRID, scoring)
    assert state.line_points == [points[column] for points in SEED_LINES]
    assert game.is_terminal(state) and state.card == EMPTY and not state.mask.any()


def test_columns_complete_when_filled_column_first() -> None:
    game = PokerSquaresRules()
    # the seed grid's cards dealt column by column, placed column by column
    order = [c + 5 * r for c in range(5) for r in range(5)]
    cards = [SEED_GRID.split()[cell] for cell in order]
    state = game.new_state(cards)
    earned = [game.place(state, cell) for cell in order]
    assert earned[4] == 2  # c1 pair
    assert earned[9] == 10  # c2 three of a kind
    assert sum(earned) == 302


@pytest.mark.parametrize(
    ("placed", "legal"),
    [
        ([], [12]),
        ([12], [6, 7, 8, 11, 13, 16, 17, 18]),
        ([12, 18], [6, 7, 8, 11, 13, 14, 16, 17, 19, 22, 23, 24]),
        ([12, 6, 0], [1, 2, 5, 7, 8, 10, 11, 13, 16, 17, 18]),
    ],
)
def test_adjacent_masks(placed: list[int], legal: list[int]) -> None:
    game = PokerSquaresRules(placement="adjacent")
    state = game.new_state(SEED_GRID)
    for cell in placed:
        game.place(state, cell)
    assert np.flatnonzero(state.mask).tolist() == legal
    assert state.mask.dtype == np.int8


def test_free_masks_are_the_empty_cells() -> None:
    game = PokerSquaresRules()
    state = game.new_state(SEED_GRID)
    for cell in (3, 17, 24):
        game.place(state, cell)
    assert np.flatnonzero(state.mask).tolist() == [c for c in range(25) if c not in (3, 17, 24)]


def _snapshot(state: SquaresState) -> tuple:
    """Every field of the state, as plain values."""
    return tuple(np.asarray(getattr(state, f.name)).tolist() for f in dataclasses.fields(state))


@pytest.mark.parametrize(
    ("placement", "placed", "action", "message"),
    [
        ("free", [0], 0, r"illegal cell r1c1 \(0\): legal are r1c2 \(1\)"),
        ("free", [7], 7, r"r2c3 \(7\)"),
        ("adjacent", [], 0, r"illegal cell r1c1 \(0\): legal are r3c3 \(12\)$"),
        ("adjacent", [12], 24, r"r5c5 \(24\)"),
        ("free", [], 25, "bad cell 25"),
        ("free", [], -1, "bad cell -1"),
        ("free", [], 1.5, "bad cell 1.5"),
        ("free", [], True, "bad cell True"),
        ("free", [], "3", "bad cell '3'"),
    ],
)
def test_illegal_cell_raises_and_changes_nothing(
    placement: str, placed: list[int], action: object, message: str
) -> None:
    game = PokerSquaresRules(placement=placement)
    state = game.new_state(SEED_GRID)
    for cell in placed:
        game.place(state, cell)
    before = _snapshot(state)
    obs = encode_observation(state)
    with pytest.raises(IllegalActionError, match=message):
        game.place(state, action)
    assert _snapshot(state) == before
    assert np.array_equal(encode_observation(state), obs)


def test_place_after_the_end_raises_game_over() -> None:
    game = PokerSquaresRules()
    state = game.new_state(SEED_GRID)
    for cell in range(25):
        game.place(state, cell)
    before = _snapshot(state)
    with pytest.raises(GameOverError):
        game.place(state, 0)
    assert _snapshot(state) == before


def test_numpy_integer_actions_are_accepted() -> None:
    game = PokerSquaresRules()
    state = game.new_state(SEED_GRID)
    game.place(state, np.int64(3))
    game.place(state, np.array(4))
    assert state.grid[3] != EMPTY and state.grid[4] != EMPTY


def test_copy_is_independent() -> None:
    game = PokerSquaresRules()
    state = game.new_state(SEED_GRID)
    twin = state.copy()
    game.place(state, 0)
    assert twin.placed == 0 and twin.grid[0] == EMPTY and twin.mask.all()


# --- observation -------------------------------------------------------------------------------
def test_card_features() -> None:
    for card, name in ((0, "2s"), (51, "Ac"), (34, "Td")):
        row = CARD_FEATURES[card]
        assert row.sum() == 2
        assert row[card >> 2] == 1 and row[13 + (card & 3)] == 1, name
    assert CARD_FEATURES[JOKER].tolist() == [0] * 17 + [1]
    assert not CARD_FEATURES[EMPTY].any()


def test_initial_observation_layout() -> None:
    state = PokerSquaresRules(jokers=2).new_state(SEED_GRID)
    obs = encode_observation(state)
    assert obs.shape == (LAYOUT.size,) and obs.dtype == np.float32
    assert not obs[:450].any()
    assert obs[450:468].tolist() == CARD_FEATURES[parse_cards("8c")[0]].tolist()
    assert obs[468 + parse_cards("8c")[0]] == 0
    assert obs[468 + JOKER] == 2
    assert obs[468:521].sum() == 53
    assert obs[521] == 0
    assert (obs <= LAYOUT.high).all()


def test_observation_after_placements() -> None:
    game = PokerSquaresRules()
    state = game.new_state(SEED_GRID)
    game.place(state, 24)
    game.place(state, 6)
    obs = encode_observation(state)
    assert obs[18 * 24 : 18 * 25].tolist() == CARD_FEATURES[parse_cards("8c")[0]].tolist()
    assert obs[18 * 6 : 18 * 7].tolist() == CARD_FEATURES[parse_cards("Qc")[0]].tolist()
    assert obs[450:468].tolist() == CARD_FEATURES[parse_cards("Tc")[0]].tolist()
    assert obs[468 + parse_cards("Tc")[0]] == 0 and obs[468 + parse_cards("4c")[0]] == 1
    assert obs[521] == 2
    view = decode_observation(obs)
    assert view.grid[24] == parse_cards("8c")[0] and view.grid[0] == EMPTY
    assert view.card == parse_cards("Tc")[0] and view.placed == 2


OPTION_GRID = list(
    itertools.product(["american", "english"], [0, 1, 2], ["free", "adjacent"], ["deal", "shuffle"])
)


@pytest.mark.parametrize(("scoring", "jokers", "placement", "variant"), OPTION_GRID)
def test_random_play_incremental_observation_matches_encoding(
    scoring: str, jokers: int, placement: str, variant: str
) -> None:
    game = PokerSquaresRules(scoring=scoring, jokers=jokers, placement=placement, variant=variant)
    rng = np.random.default_rng(hash((scoring, jokers, placement, variant)) % 2**32)
    for _ in range(4):
        state = game.new_state(rng=rng)
        obs = encode_observation(state)
        total = 0
        while not game.is_terminal(state):
            cell = int(rng.choice(np.flatnonzero(state.mask)))
            total += game.place(state, cell)
            update_observation(obs, state, cell)
            assert np.array_equal(obs, encode_observation(state))
            assert (obs <= LAYOUT.high).all()
            view = decode_observation(obs)
            assert view.grid == state.grid and view.card == state.card
            assert view.to_come.tolist() == state.to_come.tolist()
        assert total == state.score == score_grid(state.grid, scoring)
        assert not obs[450:468].any() and obs[521] == 25


def test_decode_rejects_a_wrong_shape() -> None:
    with pytest.raises(ValueError, match="shape"):
        decode_observation(np.zeros(10, dtype=np.uint8))


# --- render ------------------------------------------------------------------------------------
def test_render_full_grid() -> None:
    game = PokerSquaresRules()
    state = game.new_state(SEED_GRID)
    for cell in range(25):
        game.place(state, cell)
    text = render_grid(game, state)
    lines = text.splitlines()
    assert lines[1].split()[:6] == ["r1", "8c", "Qc", "Tc", "4c", "2c"]
    assert lines[1].split()[-2:] == ["flush", "20"]
    assert "straight flush" in lines[2] and lines[2].endswith("75")
    assert "royal flush" in lines[4] and lines[4].endswith("100")
    assert "high card" in lines[3]
    assert "c3" in lines[8] and "four of a kind" in lines[8] and lines[8].endswith("50")
    assert "final score 302" in text


def test_render_partial_grid_and_jokers() -> None:
    game = PokerSquaresRules(jokers=1, scoring="english")
    cards = SEED_GRID.replace("2c", "Jk")
    state = game.new_state(cards)
    for cell in range(7):
        game.place(state, cell)
    text = render_grid(game, state)
    assert "Jk" in text
    assert "empty" in text  # rows 3..5
    assert "(2/5)" in text  # row 2
    assert "card to place Th" in text and "placed 7/25" in text
    # the joker completes r1 as a flush: English scores 8c Qc Tc 4c + Jk as a flush (5), and
    # the render names the reading that scores
    assert "flush" in text.splitlines()[1] and text.splitlines()[1].endswith("5")
