"""Poker Squares (RULES §3, deal variant): a learned line-pattern afterstate value and its agent.

Why this design: the grid's final score is the sum of its 10 lines' scores, so the value of the
position after a placement (the *afterstate*) is learned as a sum over lines of a value per
*line pattern*, the abstraction of the 2013 winner's "NARL" agent. Everything is numpy tables and
array operations over many games at once (the lines kept card by card,
:mod:`~pokerzoo.training.games.poker_squares.lines`), so training sees millions of games in
minutes where PPO sees a hundred thousand.

## The line pattern (what a row or column holds and could still become)
For a line with ``n < 5`` cards, after ``t`` cards are on the grid (1..25):

- ``shape``: the rank multiplicities of its cards, as a multiset (``[]``, ``[1]``, ``[1,1]``,
  ``[2]``, ..., ``[4,1]``): 19 shapes for 0..5 cards (:data:`SHAPES`); ``n`` is their sum;
- ``flush``: whether its cards share one suit (so a flush is still possible; true when empty);
- ``straight``: 0 unless its ranks are distinct and fit in one of the ten 5-rank windows
  (A-2-3-4-5 .. T-J-Q-K-A), so that a straight is still possible; then how many other ranks
  would still fit a window with them, capped at 3 (an open-ended four: 2, an inside one: 1;
  3 when empty);
- ``column``: whether the line is a column (rows and columns are symmetric, but a good player
  gives them different jobs, e.g. rows for pairs and columns for flushes; without this bit the
  values could not tell them apart and break the symmetry);
- ``pair_outs``: unseen cards (not on the grid, not the card in hand) of the ranks the line
  holds two or more times (what could make trips, a full house or four of a kind), capped at 6;
- ``single_outs``: unseen cards of the ranks it holds once (what could pair them), capped at 6;
- ``suit_outs``: for a non-empty line that could still be a flush, unseen cards of its suit
  minus the cards it still needs, plus one, clipped to 0..3 (0: a flush can no longer happen);
- ``rivals``: for a line that could still be a flush (one suit, 1..4 cards), the other lines of
  its direction that could still be flushes of the same suit, capped at 2: they draw on the
  same unseen cards. Placing a card can change the rivals of lines it does not join (an empty
  column taking a heart becomes a rival of the heart columns; a heart column taking a spade, or
  its fifth heart, stops being one), and the afterstate values count that;
- ``t``: how many cards are on the grid, i.e. how many are still to come.

Pattern id = ``((((((((shape * 2 + flush) * 4 + straight) * 2 + column) * 7 + pair_outs) * 7
+ single_outs) * 4 + suit_outs) * 3 + rivals) * 26 + t`` (:func:`line_keys`). A full line is
worth its actual points (the scoring table, i.e. the reward), never a learned number. The
hand-written knowledge is only this abstraction; which cell to choose comes entirely from the
learned values.

Version history of the abstraction (a table saved by another version does not load): 1, the
first, counted the two rank outs together capped at 3 (which says nothing about a pair with two
kickers) and had no rivals; 2 split the outs, each capped at 6, and added the rivals (on
8,192 deals of our own, greedy play about 1 point higher and the one-card look-ahead about 0.9).

## Learning
Games are played epsilon-greedily on the current values, ``batch`` games at a time, the
exploration rate falling linearly from ``epsilon`` to ``epsilon_end`` over the run (exploring
a lot early is what lets patterns that a greedy player never tries, such as a column kept for a
flush, earn their value). Each line of each afterstate gets the TD(lambda) target of that line:
``G_t = (1 - lambda) v_{t+1} + lambda G_{t+1}``, ending in the line's points (``lambda = 1`` is
the Monte-Carlo target, the points the line ends with). The table keeps exponentially
forgetting sums so that it tracks the improving policy: ``sum <- decay * sum + targets``,
``count <- decay * count + visits`` after each batch, value = ``sum / count``.

The played strength does not rise steadily: from check to check the values drift up and down by
a point or two as the policy's habits shift (which lines hold flushes, which pairs). So every
``select_every`` games the table plays ``select_deals`` validation deals of the run's own
without look-ahead, and the run ends with the best table checked (:func:`validation_mean`; the
validation deals are drawn from the run's seed, never the evaluation deals).

## Play
:func:`greedy_actions`: the cell whose afterstate has the highest value. :func:`lookahead_actions`:
expectimax over the next card (each unseen card equally likely), each next card placed greedily
and valued by the table: at most one card of look-ahead, as the issue allows.

The look-ahead can also extrapolate (``extrapolation`` ``x``, saved with the table; the
``td.extrapolation`` setting): a cell scores ``L + x (L - V)``, where ``V`` is its afterstate
value and ``L`` the expectimax mean one card later. Why: the table holds the values of the
learning policy, which makes a random move one time in five, so it undervalues positions by
what careful play will still gain from them, most of all flexible ones (``L - V`` is about +2.4
points on average). ``L`` corrects that for the next card only; if each further card brings
a correction of the same sign that shrinks by a factor ``r``, the sum of them all is ``L + r /
(1 - r) (L - V)``: ``x = 1`` is ``r = 1/2``. It looks at nothing more than the plain
expectimax does (the same next cards, the same learned values) and costs nothing more. ``x =
0`` is the plain expectimax; on 8,192 deals of our own, the record table scored 125.58 with
``x = 0``, 125.77 with 0.3, 125.89 with 0.6, 125.97 with 1 and 125.76 with 1.5.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np
from pydantic import Field

from ....envs.poker_squares.observation import LAYOUT
from ....envs.poker_squares.rules import EMPTY, GRID_CELLS
from ...learners import Progress, ValueLearner
from ...schema import Number, Section
from .lines import (
    CELL_LINES,
    CODE_STEP,
    DIRECTION,
    LOW_SUIT,
    NUM_KEYS,
    OUTS,
    PAIR_OUTS,
    RANK_BITS,
    RANK_OUTS,
    RIVALS,
    SHAPES,
    STRAIGHTS,
    T_SIZE,
    LineParts,
    LineState,
    flush_hopes,
    full_index,
    left_counts,
    line_keys,
    line_points,
    of_suit,
    outs_weights,
    pattern_ids,
    suit_hopes,
)

__all__ = [
    "LEARNER",
    "TDConfig",
    "NUM_KEYS",
    "OUTS",
    "RANK_OUTS",
    "RIVALS",
    "SHAPES",
    "STRAIGHTS",
    "T_SIZE",
    "LineValues",
    "TrainStats",
    "afterstate_values",
    "decode_batch",
    "greedy_actions",
    "left_counts",
    "line_keys",
    "lookahead_actions",
    "make_policy",
    "new_values",
    "play_batch",
    "train",
    "validation_mean",
    "variants",
]


class TDConfig(Section):
    """The run config's ``td`` section (``algorithm: td``): this learner's settings, the
    line-pattern afterstate values of this module, trained on many games at once without a
    neural network or torch. :class:`pokerzoo.training.config.TrainConfig` finds it through
    the game's training hooks (:attr:`LEARNER`'s ``config``) and validates it, its errors naming
    the file and ``td.<key>``."""

    games: int = Field(3_000_000, ge=1)
    """Games to train; the exploration schedule runs over them, so a run is reproducible."""
    minutes: Number = Field(60, gt=0)
    """Wall-clock limit: the run stops there even if ``games`` are not all played."""
    batch: int = Field(2048, ge=1)
    """Games played at once between two updates of the values (the run's last batch: only as
    many as ``games`` still allows)."""
    epsilon: Number = Field(0.2, ge=0, le=1)
    """Share of random (exploring) moves at the start of the run."""
    epsilon_end: Number = Field(0.2, ge=0, le=1)
    """Share of random moves at the end (linear in between)."""
    temperature: Number = Field(0.0, ge=0)
    """Other moves: the best cell (0), or a cell drawn with probability proportional to
    ``exp(value / temperature)``, values in the game's points (softmax exploration)."""
    lam: Number = Field(0.5, ge=0, le=1)
    """TD(lambda)'s lambda: 1 learns from final points (Monte-Carlo), less bootstraps from the
    values of the positions that followed."""
    decay: Number = Field(0.995, gt=0, le=1)
    """How much of the past each update keeps (1: plain averages over the whole run)."""
    prior: Number = Field(0.0, ge=0)
    """Visits' worth of a pattern's neighbours (the same pattern two cards earlier or later)
    that its value is shrunk toward (0: none)."""
    lookahead: bool = True
    """The agent looks one card ahead (expectimax over the next card, valued by the table);
    evaluation also reports it without."""
    extrapolation: Number = Field(0.0, ge=0)
    """How the look-ahead scores a move: ``L + extrapolation * (L - V)``, ``V`` the value of
    the position it makes and ``L`` the expectimax mean over the next card (0: the plain
    expectimax). Saved with the model; evaluation also reports the plain expectimax. Why it
    helps Poker Squares: this module's doc, "Play"."""
    eval_every: int = Field(1_000_000, ge=0)
    """Games between periodic evaluations (no look-ahead, ``evaluation.episodes`` deals; 0:
    none)."""
    select_every: int = Field(250_000, ge=0)
    """Games between validation checks: the run keeps the model that played best without
    look-ahead on ``select_deals`` validation deals of its own (drawn from the run's seed,
    never the evaluation deals), since the learned values drift up and down by a point or two
    from check to check; 0: keep the last model."""
    select_deals: int = Field(8192, ge=1)
    """Deals of each validation check (the same deals every time)."""


@dataclass
class LineValues:
    """The learned table: expected final points of a line by pattern, plus the scoring table
    that values full lines. Saved as ``.npz`` (:meth:`save` / :meth:`load`)."""

    scoring: str | dict[str, int] = "american"
    decay: float = 0.95
    prior: float = 0.0
    sums: np.ndarray = field(default_factory=lambda: np.zeros(NUM_KEYS))
    counts: np.ndarray = field(default_factory=lambda: np.zeros(NUM_KEYS))
    table: np.ndarray = field(default_factory=lambda: np.zeros(NUM_KEYS))
    games: int = 0
    """Games played by the run that trained it."""
    kept_games: int = 0
    """The games the table had learned from when it was kept (the run's best validation check;
    ``games`` where every check was no better than the last table)."""
    validation: float = float("nan")
    """Its mean score without look-ahead on the run's validation deals (nan: never checked)."""
    extrapolation: float = 0.0
    """How its one-card look-ahead scores a cell: ``L + extrapolation * (L - V)`` (module
    docstring, "Play"; 0: the plain expectimax ``L``)."""

    def __post_init__(self) -> None:
        self.points = line_points(self.scoring)

    def line_values(self, parts: LineParts, t: np.ndarray | int) -> np.ndarray:
        """Values of lines with ``t`` cards on the grid: points where full, else the table's
        value of their pattern."""
        learned = self.table[pattern_ids(parts, t)]
        return np.where(parts.n >= 5, self.points[full_index(parts)], learned)

    def state_values(self, state: LineState) -> np.ndarray:
        """``(B, 10)`` values of the lines of ``state`` as they are."""
        return self.line_values(state.parts(), state.t[:, None])

    def update(self, keys: np.ndarray, targets: np.ndarray) -> None:
        """One batch of targets: forget a little, then add the new visits. With ``prior > 0``
        a pattern's value is its mean shrunk toward the same pattern's mean over nearby ``t``
        (two cards either way), worth ``prior`` visits: rare patterns borrow from their
        neighbours instead of trusting a handful of games."""
        self.sums *= self.decay
        self.counts *= self.decay
        self.sums += np.bincount(keys, weights=targets, minlength=NUM_KEYS)
        self.counts += np.bincount(keys, minlength=NUM_KEYS)
        sums, counts = self.sums, self.counts
        if self.prior > 0:
            near_sums, near_counts = _near_t(self.sums), _near_t(self.counts)
            near = np.divide(near_sums, near_counts, out=np.zeros(NUM_KEYS), where=near_counts > 0)
            sums, counts = sums + self.prior * near, counts + self.prior * (near_counts > 0)
        seen = counts > 0
        self.table[seen] = sums[seen] / counts[seen]

    def save(self, path: str | Path) -> None:
        """Write the table (and what it needs to play) to ``path`` (``.npz``)."""
        np.savez(
            path,
            table=self.table,
            sums=self.sums,
            counts=self.counts,
            scoring=np.array(json.dumps(self.scoring)),
            decay=np.array(self.decay),
            prior=np.array(self.prior),
            games=np.array(self.games),
            kept_games=np.array(self.kept_games),
            validation=np.array(self.validation),
            extrapolation=np.array(self.extrapolation),
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
                scoring=json.loads(str(data["scoring"])),
                decay=float(data["decay"]),
                prior=float(data["prior"]) if "prior" in data else 0.0,
                sums=data["sums"].copy(),
                counts=data["counts"].copy(),
                table=data["table"].copy(),
                games=int(data["games"]),
                kept_games=int(data["kept_games" if "kept_games" in data else "games"]),
                validation=float(data["validation"]) if "validation" in data else float("nan"),
                extrapolation=float(data["extrapolation"]) if "extrapolation" in data else 0.0,
            )


def _near_t(totals: np.ndarray, width: int = 2) -> np.ndarray:
    """Each pattern's ``totals`` summed over the same pattern at ``t - width .. t + width``."""
    by_t = np.pad(totals.reshape(-1, T_SIZE), ((0, 0), (width + 1, width)))
    running = np.cumsum(by_t, axis=1)
    return (running[:, 2 * width + 1 :] - running[:, : -2 * width - 1]).reshape(-1)


# --- play ---------------------------------------------------------------------------------------


def _seen_left(state: LineState, cards: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Unseen cards per rank and suit once ``cards`` (one per game) are seen too."""
    rows = np.arange(len(cards))
    rank_left, suit_left = state.rank_left.copy(), state.suit_left.copy()
    rank_left[rows, cards >> 2] -= 1
    suit_left[rows, cards & 3] -= 1
    return rank_left, suit_left


def _of_line(suit_left: np.ndarray, suits: np.ndarray) -> np.ndarray:
    """The unseen cards of each line's suit (its lowest suit; only used where the line could
    still be a flush, i.e. holds one suit): ``suit_left`` ``(..., 4)`` against ``suits``."""
    index = np.broadcast_to(LOW_SUIT[suits][..., None], (*suit_left.shape[:-1], 1))
    return np.take_along_axis(suit_left, index, axis=-1)[..., 0]


def _line_deltas(
    values: LineValues,
    code: np.ndarray,
    ranks: np.ndarray,
    suits: np.ndarray,
    n: np.ndarray,
    rank_outs: np.ndarray,
    suit_left: np.ndarray,
    held: np.ndarray,
    rank_left_of_card: np.ndarray,
    card: np.ndarray,
    t: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """Values of lines as they are and the change of the position's value if ``card`` joined
    each line (0 for full lines), all arrays broadcast together with lines on the last axis.
    ``suit_left`` ``(..., 4)`` counts the unseen cards per suit (``card`` seen), ``held`` how
    many of the card's rank each line holds, ``rank_left_of_card`` the unseen cards of its rank.

    The change is the line's own plus that of the other lines of its direction whose count of
    competing flushes it changes: an empty line that takes the card becomes a rival of the
    flushes in the making of its suit; a flush in the making that takes another suit, or its
    fifth card, stops being one."""
    rank, suit = card >> 2, card & 3
    suits, n = np.broadcast_arrays(suits, n)
    hopes = flush_hopes(suits, n)
    low = LOW_SUIT[suits]
    by_suit = suit_hopes(suits, n)  # per line, its direction's flushes in the making by suit
    rivals = np.where(hopes, of_suit(by_suit, low) - 1, 0)
    parts = LineParts(code, ranks, suits, n, rank_outs, _of_line(suit_left, suits), rivals)
    before = values.line_values(parts, t)
    # what one rival more or less would change each flush in the making
    more = np.where(hopes, values.line_values(replace(parts, rivals=rivals + 1), t), before)
    less = np.where(
        hopes & (rivals > 0), values.line_values(replace(parts, rivals=rivals - 1), t), before
    )
    more, less = more - before, less - before
    more_by = _direction_sums(np.where(hopes, more, 0.0), low)  # (..., 8)
    less_by = _direction_sums(np.where(hopes, less, 0.0), low)
    own_suit = hopes & (low == suit)
    others = np.where(
        n == 0,
        _of_direction(more_by, suit),
        np.where(hopes & ((low != suit) | (n == 4)), _of_direction(less_by, low) - less, 0.0),
    )
    suits1 = suits | (1 << suit)
    after = values.line_values(
        LineParts(
            code + CODE_STEP[held],
            ranks | RANK_BITS[rank],
            suits1,
            n + 1,
            rank_outs
            + np.where(held == 0, 1, np.where(held == 1, PAIR_OUTS - 1, 0)) * rank_left_of_card,
            _of_line(suit_left, suits1),
            of_suit(by_suit, suit) - own_suit,
        ),
        t,
    )
    return before, np.where(n < 5, after - before + others, 0.0)


def _direction_sums(per_line: np.ndarray, suit: np.ndarray) -> np.ndarray:
    """``(..., 8)``: ``per_line`` ``(..., 10)`` summed by direction and each line's ``suit``
    (index ``direction * 4 + suit``)."""
    slots = DIRECTION * 4 + suit
    shape = np.broadcast_shapes(per_line.shape, slots.shape)
    flat = np.broadcast_to(per_line, shape).reshape(-1, shape[-1])
    rows = np.arange(flat.shape[0])[:, None] * 8
    sums = np.bincount(
        (rows + np.broadcast_to(slots, shape).reshape(-1, shape[-1])).ravel(),
        weights=flat.ravel(),
        minlength=flat.shape[0] * 8,
    )
    return sums.reshape(*shape[:-1], 8)


def _of_direction(sums: np.ndarray, suit: np.ndarray) -> np.ndarray:
    """``(..., 10)``: each line's direction's entry of ``sums`` (:func:`_direction_sums`) at
    ``suit``."""
    slots = DIRECTION * 4 + np.asarray(suit)
    shape = np.broadcast_shapes(sums.shape[:-1] + (1,), slots.shape)
    return np.take_along_axis(sums, np.broadcast_to(slots, shape), axis=-1)


def _afterstate_lines(
    values: LineValues, state: LineState, cards: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """``(B, 10)`` values of the lines once ``cards[b]`` is seen (placed nowhere yet), and the
    change of each line's value if the card joined it (0 for full lines)."""
    rows = np.arange(len(cards))
    rank_left, suit_left = _seen_left(state, cards)
    rank = cards >> 2
    rank_outs = (outs_weights(state.hist) * rank_left[:, None, :]).sum(axis=2)
    return _line_deltas(
        values,
        state.code,
        state.ranks,
        state.suits,
        state.n,
        rank_outs,
        np.broadcast_to(suit_left[:, None, :], (*state.code.shape, 4)),
        state.hist[rows, :, rank],
        rank_left[rows, rank][:, None],
        cards[:, None],
        state.t[:, None] + 1,
    )


def _cell_totals(state: LineState, before: np.ndarray, delta: np.ndarray) -> np.ndarray:
    total = before.sum(axis=1, keepdims=True) + delta[:, CELL_LINES].sum(axis=2)
    return np.where(state.grid == EMPTY, total, -np.inf)


def afterstate_values(values: LineValues, state: LineState, cards: np.ndarray) -> np.ndarray:
    """``(B, 25)`` value of placing ``cards[b]`` on each cell of game ``b`` (``-inf`` where the
    cell is taken); ``state`` does not hold the cards yet."""
    return _cell_totals(state, *_afterstate_lines(values, state, cards))


def greedy_actions(values: LineValues, state: LineState, cards: np.ndarray) -> np.ndarray:
    """The greedy (no look-ahead) cell for each game: the highest afterstate value."""
    return np.argmax(afterstate_values(values, state, cards), axis=1)


def _lookahead_chunk(
    values: LineValues,
    state: LineState,
    cards: np.ndarray,
    cells: np.ndarray,
    nxt: np.ndarray,
    weights: np.ndarray,
) -> np.ndarray:
    """For a few games: the mean over the next card (``nxt`` ``(B, C)`` card ids, ``weights``
    their chances up to a factor) of the best afterstate value once the card is placed on each
    of ``cells`` ``(B, E)`` and the next card greedily; ``(B, E)``. Arrays run over games x
    cells x next cards x lines."""
    rows = np.arange(len(cards))[:, None]
    e_axis = np.arange(cells.shape[1])[None, :]
    rank, suit = cards >> 2, cards & 3
    rank_left, suit_left = _seen_left(state, cards)
    # The lines after placing the card on each cell: (B, E, 10), two lines changed per cell.
    width = cells.shape[1]
    code = np.repeat(state.code[:, None], width, axis=1)
    ranks = np.repeat(state.ranks[:, None], width, axis=1)
    suits = np.repeat(state.suits[:, None], width, axis=1)
    n = np.repeat(state.n[:, None], width, axis=1)
    hist = np.repeat(state.hist[:, None], width, axis=1)  # (B, E, 10, 13)
    for side in (0, 1):
        line = CELL_LINES[cells, side]  # (B, E)
        held = state.hist[rows, line, rank[:, None]]
        code[rows, e_axis, line] += CODE_STEP[held]
        ranks[rows, e_axis, line] |= RANK_BITS[rank][:, None]
        suits[rows, e_axis, line] |= (1 << suit)[:, None]
        n[rows, e_axis, line] += 1
        hist[rows, e_axis, line, rank[:, None]] += 1
    per_rank = outs_weights(hist)  # (B, E, 10, 13)
    rank_outs = (per_rank * rank_left[:, None, None, :]).sum(axis=3)  # (B, E, 10)
    # Each next card (axis 2): seen as well, then placed greedily.
    rank2, suit2 = nxt >> 2, nxt & 3  # (B, C)
    r3, e3, k3 = rows[:, :, None], e_axis[:, :, None], rank2[:, None, :]
    held2 = hist[r3, e3, :, k3]  # (B, E, C, 10)
    outs2 = rank_outs[:, :, None, :] - per_rank[r3, e3, :, k3]
    suit_left2 = suit_left[:, None, :] - (suit2[..., None] == np.arange(4))  # (B, C, 4)
    before, delta = _line_deltas(
        values,
        code[:, :, None],
        ranks[:, :, None],
        suits[:, :, None],
        n[:, :, None],
        outs2,
        np.broadcast_to(suit_left2[:, None, :, None, :], (*held2.shape, 4)),
        held2,
        (rank_left[rows, rank2] - 1)[:, None, :, None],
        nxt[:, None, :, None],
        state.t[:, None, None, None] + 2,
    )  # (B, E, C, 10)
    free2 = (state.grid == EMPTY)[:, None, :] & (cells[:, :, None] != np.arange(GRID_CELLS))
    second = delta[..., CELL_LINES].sum(axis=-1)  # (B, E, C, E')
    second = np.where(free2[:, :, None, :], second, -np.inf).max(axis=-1)
    q = before.sum(axis=-1) + second  # (B, E, C)
    w = weights[:, None, :]
    return (np.where(w > 0, q, 0.0) * w).sum(axis=2) / w.sum(axis=2)


def lookahead_actions(
    values: LineValues,
    state: LineState,
    cards: np.ndarray,
    to_come: np.ndarray,
    candidates: int = GRID_CELLS,
    chunk: int = 16,
    extrapolation: float = 0.0,
) -> np.ndarray:
    """One-card expectimax: for each of the ``candidates`` cells of highest afterstate value
    (all free cells by default), the mean ``L`` over the next card (``to_come[b]``: how many of
    each card id 0..51 may come next, the unseen cards in the deal variant) of the best
    afterstate value once that card is placed greedily; the cell of the best ``L +
    extrapolation * (L - V)``, ``V`` its afterstate value (0: the best mean). Games with one
    free cell, or no card to come, play greedily."""
    totals = afterstate_values(values, state, cards)
    actions = np.argmax(totals, axis=1)
    free = np.isfinite(totals).sum(axis=1)
    coming = np.asarray(to_come)[:, :52]
    deep = np.flatnonzero((free > 1) & (coming.sum(axis=1) > 0))
    order = np.argsort(-totals, axis=1, kind="stable")
    cards_order = np.argsort(-coming, axis=1, kind="stable")
    for start in range(0, len(deep), chunk):
        games = deep[start : start + chunk]
        part = LineState(*(getattr(state, f)[games] for f in LineState.__dataclass_fields__))
        width = min(candidates, int(free[games].max()))
        cells = order[games, :width]
        count = int((coming[games] > 0).sum(axis=1).max())
        nxt = cards_order[games, :count]
        weights = np.take_along_axis(coming[games], nxt, axis=1).astype(np.float64)
        means = _lookahead_chunk(values, part, cards[games], cells, nxt, weights)
        now = np.take_along_axis(totals[games], cells, axis=1)  # -inf where taken
        legal = np.isfinite(now)
        if extrapolation:
            means = means + extrapolation * (means - np.where(legal, now, 0.0))
        best = np.argmax(np.where(legal, means, -np.inf), axis=1)
        actions[games] = cells[np.arange(len(games)), best]
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
    """A batched policy (observations, masks) -> cells for ``pokerzoo.training.evaluate``; the
    look-ahead extrapolates as ``values.extrapolation`` says."""

    def policy(observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        grid, card, to_come = decode_batch(observations)
        live = card != EMPTY  # games that ended wait (their action is ignored)
        actions = np.argmax(np.asarray(masks, dtype=bool), axis=1).astype(np.int64)
        if live.any():
            state = LineState.of_grids(grid[live])
            if lookahead:
                actions[live] = lookahead_actions(
                    values, state, card[live], to_come[live], extrapolation=values.extrapolation
                )
            else:
                actions[live] = greedy_actions(values, state, card[live])
        return actions

    return policy


# --- training -----------------------------------------------------------------------------------


@dataclass
class TrainStats:
    """What a training run did: games, seconds, the mean score of each batch's games, and the
    validation checks."""

    games: int = 0
    seconds: float = 0.0
    curve: list[tuple[int, float]] = field(default_factory=list)  # (games so far, batch mean)
    checks: list[tuple[int, float]] = field(default_factory=list)  # (games, validation mean)


_VALIDATION_STREAM = 0x76616C  # the validation deals' random stream, apart from the games'


def validation_mean(values: LineValues, seed: int, deals: int) -> float:
    """Mean score without look-ahead on the run's validation deals: ``deals`` deals drawn
    from ``seed``'s validation stream, the same deals at every check and never the evaluation
    deals (those come from the env's seeds)."""
    rng = np.random.default_rng([seed, _VALIDATION_STREAM])
    return float(play_batch(values, rng, deals, 0.0)[-1].mean())


@dataclass
class _Kept:
    """The best table seen by the validation checks."""

    games: int
    mean: float
    sums: np.ndarray
    counts: np.ndarray
    table: np.ndarray

    @classmethod
    def of(cls, values: LineValues, mean: float) -> _Kept:
        return cls(
            values.games, mean, values.sums.copy(), values.counts.copy(), values.table.copy()
        )

    def restore(self, values: LineValues) -> None:
        values.sums, values.counts, values.table = self.sums, self.counts, self.table
        values.kept_games, values.validation = self.games, self.mean


def play_batch(
    values: LineValues,
    rng: np.random.Generator,
    games: int,
    epsilon: float,
    temperature: float = 0.0,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Play ``games`` games: each move the cell of highest afterstate value, or with
    ``temperature > 0`` a cell drawn with probability proportional to ``exp(value /
    temperature)`` (values in points), and with probability ``epsilon`` a random free cell
    instead. Returns the pattern ids of every line of every
    afterstate ``(games, 25, 10)`` (-1 for full lines), the table's values of those lines as
    they were played ``(games, 25, 10)`` (points for full lines), the final line points
    ``(games, 10)`` and the scores."""
    deals = np.argsort(rng.random((games, 52)), axis=1)[:, :GRID_CELLS]
    state = LineState.empty(games)
    keys = np.full((games, GRID_CELLS, 10), -1, dtype=np.int64)
    played = np.zeros((games, GRID_CELLS, 10))
    for step in range(GRID_CELLS):
        card = deals[:, step]
        before, delta = _afterstate_lines(values, state, card)
        totals = _cell_totals(state, before, delta)
        if temperature > 0:
            totals = totals / temperature + rng.gumbel(size=totals.shape)  # softmax draw
        cells = np.argmax(totals, axis=1)
        explore = rng.random(games) < epsilon
        if explore.any():
            free = np.where(state.grid[explore] == EMPTY, rng.random((explore.sum(), 25)), -1)
            cells[explore] = np.argmax(free, axis=1)
        state.place(card, cells)
        played[:, step] = values.state_values(state)
        keys[:, step] = np.where(state.n >= 5, -1, state.keys())
    final = values.points[state.full_index()]
    return keys, played, final, final.sum(axis=1)


def lambda_targets(played: np.ndarray, final: np.ndarray, lam: float) -> np.ndarray:
    """TD(lambda) target of every line of every afterstate: ``G_t = (1 - lam) v_{t+1} + lam
    G_{t+1}`` (``v``: the line's value in the afterstate that followed), the last afterstate's
    lines ending in their points. These are the values of the epsilon-greedy policy that
    played; learning the greedy policy's values instead (Watkins' Q(lambda), cutting at each
    exploring move) measured worse, 114 against 122 points greedy after 700k games: the
    maximum over noisy table entries overrates the patterns it picks."""
    targets = np.empty_like(played)
    targets[:, -1] = final
    for step in range(played.shape[1] - 2, -1, -1):
        targets[:, step] = (1 - lam) * played[:, step + 1] + lam * targets[:, step + 1]
    return targets


def train(
    values: LineValues,
    config: TDConfig,
    seed: int = 0,
    progress: Progress | None = None,
    start_games: int = 0,
) -> TrainStats:
    """Train ``values`` in place until ``config.games`` games (counting ``start_games`` already
    played in the run) or ``config.minutes``, ``config.batch`` games at a time. The exploration
    rate falls linearly from ``epsilon`` to ``epsilon_end`` over the games, so a seed and a game
    budget replay the same run; the very first batch plays at random (the table starts
    empty). Every ``config.select_every`` games, and at the end, the table is checked on the
    validation deals (:func:`validation_mean`); ``values`` ends as the best table checked (a
    resumed run's saved table competes too), its games and mean in ``kept_games`` and
    ``validation``. The look-ahead's ``extrapolation`` is set from ``config`` (a resumed run
    plays as its last config says)."""
    values.extrapolation = float(config.extrapolation)
    rng = np.random.default_rng([seed, start_games])
    stats = TrainStats()
    start = time.perf_counter()
    games = start_games
    every = config.select_every
    kept: _Kept | None = None

    def check() -> None:
        nonlocal kept
        mean = validation_mean(values, seed, config.select_deals)
        stats.checks.append((values.games, mean))
        if kept is None or mean > kept.mean:
            kept = _Kept.of(values, mean)

    if every and values.games:
        check()  # a resumed run's table
    next_check = (games // every + 1) * every if every else None
    while games < config.games and time.perf_counter() - start < 60 * config.minutes:
        done = games / config.games
        eps = (
            1.0
            if values.games == 0
            else config.epsilon + (config.epsilon_end - config.epsilon) * done
        )
        batch = min(config.batch, config.games - games)
        keys, played, final, scores = play_batch(
            values, rng, batch, eps, float(config.temperature) if values.games else 0.0
        )
        targets = lambda_targets(played, final, config.lam if values.games else 1.0)
        live = keys >= 0
        values.update(keys[live], targets[live])
        values.games += batch
        games += batch
        stats.games += batch
        stats.seconds = time.perf_counter() - start
        stats.curve.append((values.games, float(scores.mean())))
        if next_check is not None and games >= next_check:
            check()
            next_check += every
        if progress is not None:
            progress(games, float(scores.mean()), stats.seconds)
    if every and values.games and (not stats.checks or stats.checks[-1][0] != values.games):
        check()
    if kept is not None:
        kept.restore(values)
    else:
        values.kept_games = values.games
    return stats


# --- the learner of ``algorithm: td`` runs ------------------------------------------------------

_DEFAULTS = {"jokers": 0, "placement": "free", "variant": "deal"}


def new_values(config: TDConfig, options: Mapping[str, Any]) -> LineValues:
    """A fresh table for the env ``options``: any scoring; the deal variant, free placement and
    no jokers, which the line patterns assume."""
    for key, expected in _DEFAULTS.items():
        if options.get(key, expected) != expected:
            raise ValueError(
                f"{key}={options[key]!r}: the line-pattern learner plays {key}={expected!r} only"
            )
    return LineValues(
        scoring=options.get("scoring", "american"),
        decay=float(config.decay),
        prior=float(config.prior),
        extrapolation=float(config.extrapolation),
    )


def variants(values: LineValues) -> dict[str, Callable[[np.ndarray, np.ndarray], np.ndarray]]:
    """Other ways to play ``values`` with look-ahead that a report shows beside the agent: the
    plain expectimax where the agent extrapolates."""
    if not values.extrapolation:
        return {}
    return {"plain expectimax": make_policy(replace(values, extrapolation=0.0), lookahead=True)}


def references(options: Mapping[str, Any]) -> dict[str, float]:
    """The published results the issue measures against (American scoring only): the 2013
    Gettysburg contest's winner (expectimax over learned line-pattern values) and the same
    values played greedily."""
    if options.get("scoring", "american") != "american":
        return {}
    return {"2013 contest winner, 125.18": 125.18, "its values played greedily, 123.33": 123.33}


LEARNER = ValueLearner(
    config=TDConfig,
    new=new_values,
    load=LineValues.load,
    train=train,
    policy=make_policy,
    variants=variants,
    decisions_per_game=GRID_CELLS,
    references=references,
)
"""The learner that ``algorithm: td`` runs of Poker Squares train."""
