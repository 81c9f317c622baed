"""Poker Squares' training hooks: the ``"lines"`` feature set and how ``play`` reads a cell.

``"lines"``
-----------
The env's 522 entries plus, for each of the 25 cells, what the cell's row and column would hold
if the current card went there (Poker Squares is about lines: a flat MLP finds it hard to learn
from one-hot cards which cells share a line). Per cell, for its row then its column, the 7
:func:`~pokerzoo.training.features.line_features` (cards in the line / 5, of the current card's
rank / 4, of its suit / 5, flush still possible, straight still possible, largest group / 4,
complete), then 1 if the cell is empty: 25 x 15 = 375 extra entries, 897 in all, one row of 15
per cell for ``ppo.policy: per_action``.
"""

from __future__ import annotations

import numpy as np

from ....envs.poker_squares import GRID_CELLS, LAYOUT
from ...features import FeatureSet, PerActionLayout, batched, line_features, straight_windows
from ...hooks import TrainingHooks
from .td import LEARNER

__all__ = ["HOOKS", "lines"]

_CARD = 18
_CURRENT = LAYOUT.start("card")
_WINDOWS = straight_windows()
_CELLS = np.arange(GRID_CELLS)


@batched
def lines(observations: np.ndarray) -> np.ndarray:
    """The ``"lines"`` features of a batch of observations (see the module docstring)."""
    obs = observations
    n = len(obs)
    grid = obs[:, : GRID_CELLS * _CARD].reshape(n, 5, 5, _CARD)  # (N, row, col, card)
    current = obs[:, _CURRENT : _CURRENT + _CARD]
    lines_ = np.concatenate([grid, grid.transpose(0, 2, 1, 3)], axis=1)  # (N, 10, 5, card)
    counts = lines_.sum(axis=2)  # (N, 10, 18): rank counts, suit counts, jokers
    features = line_features(
        counts[:, :, :13], counts[:, :, 13:17], counts[:, :, 17], current, _WINDOWS
    )  # (N, 10, 7)
    empty = grid.reshape(n, GRID_CELLS, _CARD).sum(axis=2) == 0
    per_cell = np.concatenate(
        [features[:, _CELLS // 5], features[:, 5 + _CELLS % 5], empty[:, :, None]], axis=2
    )  # (N, 25, 15)
    return np.concatenate([obs, per_cell.reshape(n, -1)], axis=1)


def parse_cell(answer: str, observation: np.ndarray, mask: np.ndarray) -> int:
    """``"3 4"`` (row and column, 1..5) -> cell 13."""
    parts = answer.replace(",", " ").split()
    if len(parts) != 2 or not all(p.isdigit() for p in parts):
        raise ValueError(f"bad cell {answer!r}: type the row and the column, e.g. '3 4'")
    row, col = (int(p) for p in parts)
    if not (1 <= row <= 5 and 1 <= col <= 5):
        raise ValueError(f"bad cell {answer!r}: rows and columns are 1..5")
    return 5 * (row - 1) + (col - 1)


def cell_text(cell: int, observation: np.ndarray) -> str:
    """Cell 13 -> ``"3 4"``, as :func:`parse_cell` reads it."""
    return f"{cell // 5 + 1} {cell % 5 + 1}"


HOOKS = TrainingHooks(
    features={
        "lines": FeatureSet(
            lines,
            PerActionLayout(offset=LAYOUT.size, actions=GRID_CELLS, width=15),
            "what each cell's row and column would hold with the current card",
        )
    },
    parse_action=parse_cell,
    action_text=cell_text,
    prompt="cell as 'row col' (1-5)",
    play_bot="greedy",
    td=LEARNER,
)
