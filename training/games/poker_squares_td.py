"""Poker Squares (RULES §3, deal variant): a learned line-pattern afterstate value and its agent.

Why this design: the grid's final score is the sum of its 10 lines' scores, so the value of the
position after a placement (the *afterstate*) is learned as a sum over lines of a value per
*line pattern*, the abstraction of the 2013 winner's "NARL" agent. Everything is numpy tables and
array operations over many games at once, so training sees millions of games in minutes where
PPO sees a hundred thousand.

## The line pattern (what a row or column holds and could still become)
For a line with ``n < 5`` cards, after ``t`` cards are on the grid (1..25):

- ``shape``: the rank multiplicities of its cards, as a multiset (``[]``, ``[1]``, ``[1,1]``,
  ``[2]``, ..., ``[4,1]``): 19 shapes for 0..5 cards (:data:`SHAPES`); ``n`` is their sum;
- ``flush``: whether its cards share one suit (so a flush is still possible; true when empty);
- ``straight``: whether its ranks are distinct and fit in one of the ten 5-rank windows
  (A-2-3-4-5 .. T-J-Q-K-A), so a straight is still possible (true when empty);
- ``column``: whether the line is a column (rows and columns are symmetric, but a good player
  gives them different jobs, e.g. rows for pairs and columns for flushes; without this bit the
  values could not tell them apart and break the symmetry);
- ``rank_outs``: unseen cards (not on the grid) of the ranks the line holds, capped at 3;
- ``suit_outs``: for a non-empty line that could still be a flush, unseen cards of its suit
  minus the cards it still needs, plus one, clipped to 0..3 (0: a flush can no longer happen);
- ``t``: how many cards are on the grid, i.e. how many are still to come.

Pattern id = ``((((shape * 2 + flush) * 2 + straight) * 2 + column) * 4 + rank_outs) * 4
+ suit_outs) * 26 + t`` (:func:`line_keys`). A full line
is worth its actual points (the scoring table, i.e. the reward), never a learned number. The
hand-written knowledge is only this abstraction; which cell to choose comes entirely from the
learned values.

## Learning
Every-visit Monte-Carlo per line (the target of a line's pattern at time ``t`` is the points
that line ends with), with exponentially forgetting sums so that the table tracks the improving
greedy policy: ``sum <- decay * sum + targets``, ``count <- decay * count + visits`` after each
batch of games, value = ``sum / count``. Games are played epsilon-greedily on the current values.

## Play
:func:`greedy_actions`: the cell whose afterstate has the highest value. :func:`lookahead_actions`:
expectimax over the next card (each card still to come equally likely), each next card placed
greedily and valued by the table: at most one card of look-ahead, as the issue allows.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ...envs.core.hands import hand_classes
from ...envs.poker_squares.observation import LAYOUT
from ...envs.poker_squares.rules import EMPTY, GRID_CELLS, LINES, resolve_scoring

__all__ = [
    "NUM_KEYS",
    "SHAPES",
    "LineValues",
    "TrainStats",
    "decode_batch",
    "greedy_actions",
    "line_keys",
    "lookahead_actions",
    "make_policy",
    "train",
]

T_SIZE = GRID_CELLS + 1  # t = cards on the grid, 0..25


def _shapes() -> list[tuple[int, ...]]:
    """Rank-multiplicity multisets of 0..5 cards, descending (partitions of n <= 5)."""
    out: list[tuple[int, ...]] = []

    def parts(n: int, largest: int) -> list[tuple[int, ...]]:
        if n == 0:
            return [()]
        return [(k, *rest) for k in range(min(n, largest), 0, -1) for rest in parts(n - k, k)]

    for n in range(6):
        out.extend(parts(n, 4))  # at most four of a rank without jokers
    return out


SHAPES: list[tuple[int, ...]] = _shapes()
"""Index = shape id of :func:`line_keys`."""
OUTS = 4  # buckets of each of the two 'outs' counts
NUM_KEYS = len(SHAPES) * 2 * 2 * 2 * OUTS * OUTS * T_SIZE


def _shape_lut() -> np.ndarray:
    """Shape id by ``c1 + 6 c2 + 36 c3 + 216 c4`` (ck = number of ranks held k times)."""
    lut = np.full(6**4, -1, dtype=np.int64)
    for i, shape in enumerate(SHAPES):
        c = [shape.count(k) for k in (1, 2, 3, 4)]
        lut[c[0] + 6 * c[1] + 36 * c[2] + 216 * c[3]] = i
    return lut


def _straight_lut() -> np.ndarray:
    """Whether a 13-bit rank set (bit 0 = deuce) fits in one straight window."""
    windows = [0b1000000001111] + [0b11111 << low for low in range(9)]  # A-5, 2-6 .. T-A
    masks = np.arange(1 << 13)
    ok = np.zeros(1 << 13, dtype=bool)
    for w in windows:
        ok |= (masks & ~w) == 0
    return ok


_SHAPE_LUT = _shape_lut()
_STRAIGHT_LUT = _straight_lut()
_LINE_CELLS = np.array(LINES, dtype=np.intp)  # (10, 5)
_CELL_LINES = np.array(
    [[i for i, line in enumerate(LINES) if c in line] for c in range(GRID_CELLS)], dtype=np.intp
)  # (25, 2): row, column
_BITS = 1 << np.arange(13, dtype=np.int64)


def left_counts(seen: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Cards not yet seen per rank ``(B, 13)`` and per suit ``(B, 4)``; ``seen`` ``(B, k)`` card
    ids, ``EMPTY`` ignored."""
    valid = seen >= 0
    ranks = (np.where(valid, seen >> 2, 13)[:, :, None] == np.arange(13)).sum(axis=1)
    suits = (np.where(valid, seen & 3, 4)[:, :, None] == np.arange(4)).sum(axis=1)
    return 4 - ranks, 13 - suits


def line_keys(
    cards: np.ndarray, t: np.ndarray | int, rank_left: np.ndarray, suit_left: np.ndarray
) -> np.ndarray:
    """Pattern ids of the 10 lines of grids, ``cards`` ``(..., 10, 5)`` card ids (``EMPTY`` = -1,
    rows then columns as :data:`LINES`), with ``t`` cards on the grid (broadcast against
    ``cards.shape[:-1]``). Full lines get an id too; callers value them by their points instead
    (:meth:`LineValues.values`). ``rank_left`` ``(..., 1, 13)`` and ``suit_left`` ``(..., 1, 4)``
    are the unseen cards per rank and suit (:func:`left_counts`)."""
    cards = np.asarray(cards)
    valid = cards >= 0
    ranks = np.where(valid, cards >> 2, 13)
    hist = (ranks[..., :, None] == np.arange(13)).sum(axis=-2)  # (..., 13)
    code = sum((hist == k).sum(axis=-1) * 6 ** (k - 1) for k in (1, 2, 3, 4))
    shape = _SHAPE_LUT[code]
    suits = np.where(valid, cards & 3, 4)
    flush = ((suits[..., :, None] == np.arange(4)).any(axis=-2).sum(axis=-1) <= 1).astype(np.int64)
    distinct = (hist <= 1).all(axis=-1)
    mask = ((hist > 0) * _BITS).sum(axis=-1)
    straight = (distinct & _STRAIGHT_LUT[mask]).astype(np.int64)
    column = (np.arange(10) >= len(LINES) // 2).astype(np.int64)
    n = valid.sum(axis=-1)
    rank_outs = np.minimum(((hist > 0) * rank_left).sum(axis=-1), OUTS - 1)
    suit = np.where(valid, cards & 3, 0).max(axis=-1)  # the line's suit when flush is possible
    spare = np.take_along_axis(suit_left, suit[..., None], axis=-1)[..., 0] - (5 - n) + 1
    suit_outs = np.where((flush == 1) & (n > 0), np.clip(spare, 0, OUTS - 1), 0)
    pattern = ((shape * 2 + flush) * 2 + straight) * 2 + column
    pattern = (pattern * OUTS + rank_outs) * OUTS + suit_outs
    return pattern * T_SIZE + np.asarray(t, dtype=np.int64)


@dataclass
class LineValues:
    """The learned table: expected final points of a line by pattern, plus the scoring table
    that values full lines. Saved as ``.npz`` (:meth:`save` / :meth:`load`)."""

    scoring: str = "american"
    decay: float = 0.9
    sums: np.ndarray = field(default_factory=lambda: np.zeros(NUM_KEYS))
    counts: np.ndarray = field(default_factory=lambda: np.zeros(NUM_KEYS))
    table: np.ndarray = field(default_factory=lambda: np.zeros(NUM_KEYS))
    games: int = 0

    def __post_init__(self) -> None:
        self.points = np.asarray(resolve_scoring(self.scoring)[1], dtype=np.float64)

    def values(
        self, cards: np.ndarray, t: np.ndarray | int, rank_left: np.ndarray, suit_left: np.ndarray
    ) -> np.ndarray:
        """Value of each line ``cards`` (``(..., 10, 5)``, as :func:`line_keys`): points if full,
        else the table's."""
        cards = np.asarray(cards)
        full = (cards >= 0).all(axis=-1)
        out = self.table[line_keys(cards, t, rank_left, suit_left)]
        if full.any():
            out[full] = self.points[hand_classes(cards[full].reshape(-1, 5))]
        return out

    def update(self, keys: np.ndarray, targets: np.ndarray) -> None:
        """One batch of Monte-Carlo targets: forget a little, then add the new visits."""
        self.sums *= self.decay
        self.counts *= self.decay
        self.sums += np.bincount(keys, weights=targets, minlength=NUM_KEYS)
        self.counts += np.bincount(keys, minlength=NUM_KEYS)
        seen = self.counts > 0
        self.table[seen] = self.sums[seen] / self.counts[seen]

    def save(self, path: str | Path) -> None:
        """Write the table (and what it needs to play) to ``path`` (``.npz``)."""
        np.savez(
            path,
            table=self.table,
            sums=self.sums,
            counts=self.counts,
            scoring=np.array(self.scoring),
            decay=np.array(self.decay),
            games=np.array(self.games),
        )

    @classmethod
    def load(cls, path: str | Path) -> LineValues:
        """Read a table written by :meth:`save`."""
        with np.load(path) as data:
            if data["table"].shape != (NUM_KEYS,):
                raise ValueError(
                    f"{path}: a table of {data['table'].shape[0]} patterns, this version has "
                    f"{NUM_KEYS}: it was saved with another line abstraction"
                )
            return cls(
                scoring=str(data["scoring"]),
                decay=float(data["decay"]),
                sums=data["sums"].copy(),
                counts=data["counts"].copy(),
                table=data["table"].copy(),
                games=int(data["games"]),
            )


# --- play ---------------------------------------------------------------------------------------


def _with_card(line_cards: np.ndarray, card: np.ndarray) -> np.ndarray:
    """Lines ``(..., 5)`` with ``card`` (broadcast to ``(...)``) in their first empty slot; full
    lines unchanged (their cells are never legal, so their values are never used)."""
    out = line_cards.copy()
    empty = out < 0
    first = np.argmax(empty, axis=-1)
    has = empty.any(axis=-1)
    card = np.broadcast_to(card, out.shape[:-1])
    idx = np.nonzero(has)
    out[(*idx, first[idx])] = card[idx]
    return out


def afterstate_values(
    values: LineValues, grid: np.ndarray, card: np.ndarray, t_after: np.ndarray
) -> np.ndarray:
    """``(B, 25)`` value of placing ``card[b]`` on each cell of ``grid[b]`` (``-inf`` where the
    cell is taken), with ``t_after[b]`` cards on the grid afterwards."""
    lines = grid[:, _LINE_CELLS]  # (B, 10, 5)
    t = t_after[:, None]
    rank_left, suit_left = left_counts(np.concatenate([grid, card[:, None]], axis=1))
    rank_left, suit_left = rank_left[:, None], suit_left[:, None]
    before = values.values(lines, t, rank_left, suit_left)  # (B, 10)
    after = values.values(_with_card(lines, card[:, None]), t, rank_left, suit_left)
    delta = after - before
    total = before.sum(axis=1, keepdims=True) + delta[:, _CELL_LINES].sum(axis=2)
    return np.where(grid == EMPTY, total, -np.inf)


def greedy_actions(values: LineValues, grid: np.ndarray, card: np.ndarray) -> np.ndarray:
    """The greedy (no look-ahead) cell for each game: the highest afterstate value."""
    t_after = (grid != EMPTY).sum(axis=1) + 1
    return np.argmax(afterstate_values(values, grid, card, t_after), axis=1)


def lookahead_actions(
    values: LineValues, grid: np.ndarray, card: np.ndarray, to_come: np.ndarray
) -> np.ndarray:
    """One-card expectimax: for each cell, the mean over the next card (``to_come[b]``, 0/1 per
    card id 0..51) of the best afterstate value after placing it greedily."""
    n = len(grid)
    actions = np.empty(n, dtype=np.int64)
    placed = (grid != EMPTY).sum(axis=1)
    for b in range(n):
        empties = np.flatnonzero(grid[b] == EMPTY)
        nxt = np.flatnonzero(to_come[b, :52] > 0)
        if len(empties) == 1 or len(nxt) == 0:
            actions[b] = empties[0]
            continue
        grids = np.repeat(grid[b][None], len(empties), axis=0)
        grids[np.arange(len(empties)), empties] = card[b]
        # Every (first cell, next card) pair: greedy value of the next card's best cell.
        g2 = np.repeat(grids, len(nxt), axis=0)
        c2 = np.tile(nxt, len(empties))
        t2 = np.full(len(g2), placed[b] + 2)
        best = afterstate_values(values, g2, c2, t2).max(axis=1).reshape(len(empties), len(nxt))
        actions[b] = empties[np.argmax(best.mean(axis=1))]
    return actions


def decode_batch(observations: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Grids ``(B, 25)``, current cards ``(B,)`` and cards to come ``(B, 53)`` from a batch of
    observations (jokers are not supported: the line patterns assume natural cards)."""
    obs = np.asarray(observations)
    slots = obs[:, : LAYOUT.start("to_come")].reshape(len(obs), GRID_CELLS + 1, 18)
    if slots[:, :, 17].any():
        raise ValueError("the line-pattern agent plays without jokers")
    rank = np.argmax(slots[:, :, :13], axis=2)
    suit = np.argmax(slots[:, :, 13:17], axis=2)
    ids = np.where(slots.any(axis=2), 4 * rank + suit, EMPTY).astype(np.int64)
    to_come = obs[:, LAYOUT["to_come"]].astype(np.int64)
    return ids[:, :GRID_CELLS], ids[:, GRID_CELLS], to_come


def make_policy(
    values: LineValues, lookahead: bool = False
) -> Callable[[np.ndarray, np.ndarray], np.ndarray]:
    """A batched policy (observations, masks) -> cells for ``pokerzoo.training.evaluate``."""

    def policy(observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        grid, card, to_come = decode_batch(observations)
        live = card != EMPTY  # games that ended wait (their action is ignored)
        actions = np.argmax(np.asarray(masks, dtype=bool), axis=1).astype(np.int64)
        if live.any():
            if lookahead:
                actions[live] = lookahead_actions(values, grid[live], card[live], to_come[live])
            else:
                actions[live] = greedy_actions(values, grid[live], card[live])
        return actions

    return policy


# --- training -----------------------------------------------------------------------------------


@dataclass
class TrainStats:
    """What a training run did: games, seconds, and the mean score of each batch's games."""

    games: int = 0
    seconds: float = 0.0
    curve: list[tuple[int, float]] = field(default_factory=list)  # (games so far, batch mean)


def play_batch(
    values: LineValues, rng: np.random.Generator, games: int, epsilon: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Play ``games`` epsilon-greedy games; return the pattern keys of every incomplete line of
    every afterstate ``(games, 25, 10)`` (-1 for full lines), the final line points
    ``(games, 10)`` and the scores."""
    deals = np.argsort(rng.random((games, 52)), axis=1)[:, :GRID_CELLS]
    grid = np.full((games, GRID_CELLS), EMPTY, dtype=np.int64)
    keys = np.full((games, GRID_CELLS, 10), -1, dtype=np.int64)
    rows = np.arange(games)
    for step in range(GRID_CELLS):
        card = deals[:, step]
        cells = greedy_actions(values, grid, card)
        explore = rng.random(games) < epsilon
        if explore.any():
            free = np.where(grid[explore] == EMPTY, rng.random((explore.sum(), GRID_CELLS)), -1)
            cells[explore] = np.argmax(free, axis=1)
        grid[rows, cells] = card
        lines = grid[:, _LINE_CELLS]
        rank_left, suit_left = left_counts(grid)
        k = line_keys(lines, step + 1, rank_left[:, None], suit_left[:, None])
        keys[:, step] = np.where((lines >= 0).all(axis=2), -1, k)
    final = values.points[hand_classes(grid[:, _LINE_CELLS].reshape(-1, 5))].reshape(games, 10)
    return keys, final, final.sum(axis=1)


def train(
    values: LineValues,
    seconds: float,
    *,
    seed: int = 0,
    batch: int = 2048,
    epsilon: float = 0.02,
    max_games: int | None = None,
    on_batch: Callable[[TrainStats], None] | None = None,
) -> TrainStats:
    """Train ``values`` in place for about ``seconds`` (or ``max_games``), ``batch`` games at a
    time; the first batch plays at random (the table starts empty)."""
    rng = np.random.default_rng(seed)
    stats = TrainStats()
    start = time.perf_counter()
    while time.perf_counter() - start < seconds and (max_games is None or stats.games < max_games):
        eps = 1.0 if values.games == 0 else epsilon
        keys, final, scores = play_batch(values, rng, batch, eps)
        targets = np.broadcast_to(final[:, None, :], keys.shape)
        seen = keys >= 0
        values.update(keys[seen], targets[seen])
        values.games += batch
        stats.games += batch
        stats.curve.append((values.games, float(scores.mean())))
        stats.seconds = time.perf_counter() - start
        if on_batch is not None:
            on_batch(stats)
    return stats
