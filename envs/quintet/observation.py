"""What a Quintet player observes: one flat ``float32`` vector (262 entries), every entry a
small whole number (the bounds below).

Card index ``c`` (0..31) is card id ``c + 20``: ``7s 7h 7d 7c 8s ... Ac``.

{observation_table}

A player sees the 25 cards, its own packs so far and the card to place; never the other's
packs. :func:`encode_observation` builds it; :func:`decode_observation` reads it back for the
bots.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

import numpy as np

from ..core.observation import Field, ObservationLayout, document
from .rules import DECK, DECK_SIZE, NUM_CARDS, NUM_PACKS, PACK_SIZE, QuintetState

__all__ = ["LAYOUT", "ObservedDeal", "decode_observation", "encode_observation"]

_LOWEST_ID = int(DECK[0])
LAYOUT = ObservationLayout(
    [
        Field("dealt", DECK_SIZE, 1, "card `c` is one of the 25 cards in play (the 7 removed: 0)"),
        Field(
            "packs",
            NUM_PACKS * DECK_SIZE,
            1,
            "own pack `p` holds card `c`: index `32 + 32 * p + c` (pack `p` is the "
            "`3 + p`-point position)",
        ),
        Field("current", DECK_SIZE, 1, "the card to place now, one-hot (all zeros when done)"),
        Field("to_come", DECK_SIZE, 1, "card `c` is still to come after the current one"),
        Field("pack_sizes", NUM_PACKS, PACK_SIZE, "cards in own pack `p` (0..5)"),
        Field("placed", 1, NUM_CARDS, "cards placed so far (0..25)"),
    ],
    dtype=np.float32,
)
document(sys.modules[__name__], observation_table=LAYOUT.table())
_PACKS = LAYOUT.start("packs")
_CURRENT = LAYOUT.start("current")
_TO_COME = LAYOUT.start("to_come")
_PACK_SIZES = LAYOUT["pack_sizes"]
_PLACED = LAYOUT.start("placed")


def encode_observation(state: QuintetState, player: int) -> np.ndarray:
    """``player``'s view as ``float32 (262,)``; the other player's packs never appear."""
    obs = LAYOUT.zeros()
    index = state.cards.astype(np.intp) - _LOWEST_ID
    obs[index] = 1
    assignment = state.assignment[player]
    done = assignment >= 0
    obs[_PACKS + DECK_SIZE * assignment[done].astype(np.intp) + index[done]] = 1
    placed = int(state.placed[player])
    if placed < NUM_CARDS:
        obs[_CURRENT + index[placed]] = 1
        obs[_TO_COME + index[placed + 1 :]] = 1
    obs[_PACK_SIZES] = state.pack_sizes[player]
    obs[_PLACED] = placed
    return obs


@dataclass(frozen=True)
class ObservedDeal:
    """What :func:`decode_observation` reads back from a player's observation."""

    cards: np.ndarray
    """``int8 (25,)``: the cards in play, in placement order."""
    packs: list[list[int]]
    """Own packs so far, card ids."""
    current: int | None
    """The card to place now (``None`` once every card is placed)."""
    placed: int
    """Cards placed so far."""


def decode_observation(observation: np.ndarray) -> ObservedDeal:
    """The deal as one player sees it, read back from :func:`encode_observation`'s array."""
    obs = np.asarray(observation)
    if obs.shape != (LAYOUT.size,):
        raise ValueError(
            f"expected a Quintet observation of shape ({LAYOUT.size},), got {obs.shape}"
        )
    cards = (np.flatnonzero(obs[LAYOUT["dealt"]])[::-1] + _LOWEST_ID).astype(np.int8)
    grid = obs[LAYOUT["packs"]].reshape(NUM_PACKS, DECK_SIZE)
    packs = [(np.flatnonzero(grid[p])[::-1] + _LOWEST_ID).tolist() for p in range(NUM_PACKS)]
    current = np.flatnonzero(obs[LAYOUT["current"]])
    return ObservedDeal(
        cards=cards,
        packs=packs,
        current=int(current[0]) + _LOWEST_ID if current.size else None,
        placed=int(obs[_PLACED]),
    )
