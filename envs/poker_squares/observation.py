"""What a Poker Squares player observes: one flat ``float32`` vector per grid (522 entries),
every entry a small whole number (the bounds below).

{observation_table}

Each card is 18 features (:data:`CARD_FEATURES`): ``[0:13]`` rank one-hot (2..A), ``[13:17]``
suit one-hot (s, h, d, c), ``[17]`` joker; an empty cell is all zeros.
:func:`encode_observation` builds it, :func:`update_observation` brings it up to date after one
placement (a few slice writes), :func:`decode_observation` reads it back for the bots.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

import numpy as np

from ..core.cards import JOKER, NUM_CARD_IDS
from ..core.observation import Field, ObservationLayout, document
from .rules import EMPTY, GRID_CELLS, SquaresState

__all__ = [
    "CARD_FEATURES",
    "LAYOUT",
    "SquaresView",
    "decode_observation",
    "encode_observation",
    "update_observation",
]

_CARD = 18
LAYOUT = ObservationLayout(
    [
        Field("grid", GRID_CELLS * _CARD, 1, "the grid: cell `c` at `[18c, 18c + 18)`"),
        Field("card", _CARD, 1, "the card to place now (all zeros once the game is over)"),
        Field(
            "to_come",
            NUM_CARD_IDS,
            [1] * JOKER + [2],
            'per card id 0..52, copies still to come after the current card: `"deal"`, every '
            'card of the deck not yet shown (0..1, jokers 0..2); `"shuffle"`, exactly the cards '
            "still to place after the current one",
        ),
        Field("placed", 1, GRID_CELLS, "cards placed so far (0..25)"),
    ],
    dtype=np.float32,
)
document(sys.modules[__name__], observation_table=LAYOUT.table())
_CARD_AT = LAYOUT.start("card")
_TO_COME = LAYOUT["to_come"]
_TO_COME_AT = _TO_COME.start
_PLACED = LAYOUT.start("placed")


def _card_features() -> np.ndarray:
    table = np.zeros((NUM_CARD_IDS + 1, _CARD), dtype=LAYOUT.dtype)  # last row: an empty slot
    for card in range(52):
        table[card, card >> 2] = 1
        table[card, 13 + (card & 3)] = 1
    table[JOKER, 17] = 1
    return table


CARD_FEATURES = _card_features()  # row EMPTY (-1, the last) is all zeros
CARD_FEATURES.setflags(write=False)


def encode_observation(state: SquaresState, out: np.ndarray | None = None) -> np.ndarray:
    """The observation of a grid (into ``out`` when given)."""
    obs = LAYOUT.zeros() if out is None else out
    obs[:_CARD_AT] = CARD_FEATURES[state.grid].reshape(-1)
    obs[_CARD_AT:_TO_COME_AT] = CARD_FEATURES[state.card]
    obs[_TO_COME] = state.to_come
    obs[_PLACED] = state.placed
    return obs


def update_observation(obs: np.ndarray, state: SquaresState, cell: int) -> None:
    """Bring ``obs`` up to date after a card was placed on ``cell``: touches only what a
    placement changes, so an env step costs a few slice writes."""
    obs[_CARD * cell : _CARD * cell + _CARD] = CARD_FEATURES[state.grid[cell]]
    card = state.card
    obs[_CARD_AT:_TO_COME_AT] = CARD_FEATURES[card]
    if card != EMPTY:
        obs[_TO_COME_AT + card] = state.to_come[card]
    obs[_PLACED] = state.placed


@dataclass(frozen=True)
class SquaresView:
    """What an observation says, decoded: see :func:`decode_observation`."""

    grid: list[int]
    """25 card ids row-major, ``EMPTY`` for empty cells."""
    card: int
    """The card to place now, ``EMPTY`` once the game is over."""
    to_come: np.ndarray
    """``int64 (53,)``: copies of each card id still to come after ``card``."""
    placed: int
    """Cards placed so far."""


_FEATURE_RANK = np.arange(13, dtype=np.int64)
_FEATURE_SUIT = np.arange(4, dtype=np.int64)


def decode_observation(observation: np.ndarray) -> SquaresView:
    """Read an observation back (the inverse of :func:`encode_observation`)."""
    obs = np.asarray(observation)
    if obs.shape != (LAYOUT.size,):
        raise ValueError(
            f"expected a Poker Squares observation of shape ({LAYOUT.size},), got {obs.shape}"
        )
    slots = obs[:_TO_COME_AT].reshape(GRID_CELLS + 1, _CARD).astype(np.int64)
    ids = 4 * (slots[:, :13] @ _FEATURE_RANK) + slots[:, 13:17] @ _FEATURE_SUIT
    ids = np.where(slots[:, 17] > 0, JOKER, ids)
    ids = np.where(slots.any(axis=1), ids, EMPTY).tolist()
    return SquaresView(
        ids[:GRID_CELLS], ids[GRID_CELLS], obs[_TO_COME].astype(np.int64), int(obs[_PLACED])
    )
