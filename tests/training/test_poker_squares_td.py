"""The line-pattern afterstate learner for Poker Squares: the pattern abstraction on fixed lines,
a few-second training run, save/reload playing identically, and evaluation through the batched
policy interface of ``pokerzoo.training.evaluate``. Checks machinery, not strength."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from pokerzoo.envs.core.cards import parse_cards
from pokerzoo.envs.core.registry import get_game
from pokerzoo.envs.poker_squares.rules import EMPTY, LINES, score_grid
from pokerzoo.training.evaluate import play_policy_single
from pokerzoo.training.games import poker_squares_td as td

OUTS = td.OUTS
T = td.T_SIZE


def key_parts(key: int) -> dict[str, int]:
    """Decode a pattern id (the inverse of the formula in the module docstring)."""
    key, t = divmod(key, T)
    key, suit_outs = divmod(key, OUTS)
    key, rank_outs = divmod(key, OUTS)
    key, column = divmod(key, 2)
    key, straight = divmod(key, 2)
    shape, flush = divmod(key, 2)
    return {
        "shape": td.SHAPES[shape],
        "flush": flush,
        "straight": straight,
        "column": column,
        "rank_outs": rank_outs,
        "suit_outs": suit_outs,
        "t": t,
    }


def grid_of(row0: str) -> np.ndarray:
    """A grid holding ``row0``'s cards in the first row, the rest empty."""
    grid = np.full(25, EMPTY, dtype=np.int64)
    ids = parse_cards(row0) if row0 else []
    grid[: len(ids)] = ids
    return grid


@pytest.mark.parametrize(
    ("row0", "shape", "flush", "straight", "rank_outs", "suit_outs"),
    [
        ("", (), 1, 1, 0, 0),
        ("7s", (1,), 1, 1, 3, 3),  # 12 spades unseen, 4 needed: plenty
        ("7s 7h", (2,), 0, 0, 2, 0),
        ("7s 7h 7d 7c", (4,), 0, 0, 0, 0),
        ("As 2s 3s 4s", (1, 1, 1, 1), 1, 1, 3, 3),  # A-2-3-4 fits the wheel
        ("As Ks 3s", (1, 1, 1), 1, 0, 3, 3),  # K-A-3 fits no window (no wrap)
        ("9h Th Jh Qh", (1, 1, 1, 1), 1, 1, 3, 3),
        ("2d 2c 5d 5c", (2, 2), 0, 0, 3, 0),
        ("Kd Kc Kh 4c", (3, 1), 0, 0, 3, 0),
    ],
)
def test_line_pattern_of_first_row(
    row0: str, shape: tuple, flush: int, straight: int, rank_outs: int, suit_outs: int
) -> None:
    grid = grid_of(row0)[None]
    lines = grid[:, np.array(LINES)]
    rank_left, suit_left = td.left_counts(grid)
    t = len(parse_cards(row0)) if row0 else 0
    keys = td.line_keys(lines, t, rank_left[:, None], suit_left[:, None])
    parts = key_parts(int(keys[0, 0]))
    assert parts == {
        "shape": shape,
        "flush": flush,
        "straight": straight,
        "column": 0,
        "rank_outs": rank_outs,
        "suit_outs": suit_outs,
        "t": t,
    }
    assert key_parts(int(keys[0, 5]))["column"] == 1


def test_suit_outs_count_what_is_left() -> None:
    # Four hearts in row 0, eight more hearts elsewhere: 1 heart unseen, 1 needed -> bucket 1.
    grid = np.full(25, EMPTY, dtype=np.int64)
    grid[:4] = parse_cards("2h 3h 4h 5h")
    grid[5:13] = parse_cards("6h 7h 8h 9h Th Jh Qh Kh")
    rank_left, suit_left = td.left_counts(grid[None])
    keys = td.line_keys(grid[None, np.array(LINES)], 12, rank_left[:, None], suit_left[:, None])
    assert key_parts(int(keys[0, 0]))["suit_outs"] == 1
    grid[13] = parse_cards("Ah")[0]  # the last heart gone: no flush can happen in row 0
    rank_left, suit_left = td.left_counts(grid[None])
    keys = td.line_keys(grid[None, np.array(LINES)], 13, rank_left[:, None], suit_left[:, None])
    assert key_parts(int(keys[0, 0]))["suit_outs"] == 0


def test_full_lines_are_valued_by_their_points() -> None:
    # The seed example of RULES §3 scores 302 American: a full grid's value is its score.
    cards = parse_cards(
        "8c Qc Tc 4c 2c 9h Qh Th Jh Kh Ad 8d Td 4h 5s As Qs Ts Js Ks 3d 6s 7h 4d 5d"
    )
    grid = np.array(cards, dtype=np.int64)[None]
    values = td.LineValues()
    rank_left, suit_left = td.left_counts(grid)
    lines = grid[:, np.array(LINES)]
    total = values.values(lines, 25, rank_left[:, None], suit_left[:, None]).sum()
    assert total == score_grid(cards) == 302


@pytest.fixture(scope="module")
def trained() -> td.LineValues:
    values = td.LineValues()
    td.train(values, seconds=600, batch=256, max_games=1024, seed=3)
    return values


def test_training_counts_games_and_learns_something(trained: td.LineValues) -> None:
    assert trained.games == 1024
    assert (trained.counts > 0).sum() > 100
    assert np.isfinite(trained.table).all()


def test_reload_plays_identically(trained: td.LineValues, tmp_path: Path) -> None:
    path = tmp_path / "values.npz"
    trained.save(path)
    again = td.LineValues.load(path)
    spec = get_game("poker_squares")
    seeds = list(range(1_000_000, 1_000_016))
    for lookahead in (False, True):
        first = play_policy_single(
            spec, td.make_policy(trained, lookahead), {"scoring": "american"}, seeds, 8
        )
        second = play_policy_single(
            spec, td.make_policy(again, lookahead), {"scoring": "american"}, seeds, 8
        )
        np.testing.assert_array_equal(first, second)
        assert (first > 0).all()


def test_greedy_action_is_the_best_afterstate(trained: td.LineValues) -> None:
    rng = np.random.default_rng(0)
    deal = rng.permutation(52)[:10]
    grid = np.full((1, 25), EMPTY, dtype=np.int64)
    grid[0, rng.permutation(25)[:9]] = deal[:9]
    card = deal[9:10]
    values = td.afterstate_values(trained, grid, card, np.array([10]))
    assert np.isneginf(values[grid != EMPTY]).all()
    assert td.greedy_actions(trained, grid, card)[0] == int(np.argmax(values[0]))
