"""Quintet's engine as every env drives it: the rules, the observation, each seat's info, the
whole state for centralised critics and the text view (the contract of
:mod:`pokerzoo.envs.core.game`).

Info
----
Every seat's info holds the same keys at every step (:data:`INFO_SCHEMA`, the table below;
the PettingZoo envs add ``masked_action`` with ``masked_action="random"``, the Gymnasium view
``action_mask`` and ``seat``), numpy scalars and arrays from the envs. What exists only once
the deal is scored holds a neutral value until then (the info changes only when the deal is
scored: the packs a seat has built so far are in its observation; the other seat's are never
shown before the end).

{info_table}

State
-----
:meth:`QuintetGame.encode_state` (``env.state()``): the whole deal as one ``float32`` vector
(:data:`STATE_LAYOUT`), both rows included, for a centralised critic. Card index ``c`` (0..31)
is card id ``c + 20``; seat ``s`` is ``player_s``.

{state_table}
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np

from ..core.info import InfoKey, InfoSchema
from ..core.observation import Field, ObservationLayout, document
from .observation import LAYOUT, encode_observation
from .render import render_text
from .rules import (
    DECK,
    DECK_SIZE,
    NUM_CARDS,
    NUM_PACKS,
    NUM_PLAYERS,
    PACK_SIZE,
    POSITION_POINTS,
    QuintetRules,
    QuintetState,
)

__all__ = ["INFO_SCHEMA", "STATE_LAYOUT", "QuintetGame"]

_MAX_POINTS = sum(POSITION_POINTS)  # 25
_LOWEST_ID = int(DECK[0])

INFO_SCHEMA = InfoSchema(
    [
        InfoKey(
            "points",
            "int",
            (NUM_PLAYERS,),
            "each seat's points (index: seat), 0..25; zeros until the end",
        ),
        InfoKey(
            "winner",
            "int",
            (),
            "the seat with more points; -1 until the end, and for a draw (equal points)",
        ),
        InfoKey(
            "results",
            "int",
            (NUM_PACKS,),
            "per position 1..5: +1 player_0's pack wins it, -1 player_1's, 0 equal; zeros until "
            "the end",
        ),
        InfoKey(
            "arrangements",
            "int",
            (NUM_PLAYERS, NUM_PACKS, PACK_SIZE),
            "`[s, p]`: the card ids of seat `s`'s pack at position `p + 1`, in placement order "
            "(descending id); all -1 until the end",
        ),
    ]
)

STATE_LAYOUT = ObservationLayout(
    [
        Field("dealt", DECK_SIZE, 1, "card `c` is one of the 25 cards in play (the 7 removed: 0)"),
        Field(
            "packs",
            NUM_PLAYERS * NUM_PACKS * DECK_SIZE,
            1,
            "seat `s`'s pack `p` holds card `c`: index `32 + 160 * s + 32 * p + c`",
        ),
        Field(
            "current",
            NUM_PLAYERS * DECK_SIZE,
            1,
            "seat `s`'s card to place now, one-hot at `352 + 32 * s + c` (zeros once the seat "
            "has placed all 25)",
        ),
        Field(
            "pack_sizes",
            NUM_PLAYERS * NUM_PACKS,
            PACK_SIZE,
            "cards in seat `s`'s pack `p` (0..5): index `416 + 5 * s + p`",
        ),
        Field("placed", NUM_PLAYERS, NUM_CARDS, "cards each seat has placed (0..25)"),
        Field(
            "to_act",
            NUM_PLAYERS,
            1,
            "the seat to act in the AEC order (the one behind, player_0 when level), one-hot; "
            "zeros once over",
        ),
        Field(
            "results",
            NUM_PACKS,
            1,
            "per position: +1 player_0's pack wins, -1 player_1's, 0 equal; zeros until the end",
            low=-1,
        ),
        Field(
            "points", NUM_PLAYERS, _MAX_POINTS, "each seat's points (0..25); zeros until the end"
        ),
    ],
    dtype=np.float32,
)
document(sys.modules[__name__], info_table=INFO_SCHEMA.table(), state_table=STATE_LAYOUT.table())
_S = STATE_LAYOUT.starts()
_SEAT_PACKS = NUM_PACKS * DECK_SIZE


def _encode_state(rules: QuintetRules, state: QuintetState) -> np.ndarray:
    """The whole deal as ``float32`` (:data:`STATE_LAYOUT`): both rows, hidden packs included."""
    out = STATE_LAYOUT.zeros()
    index = state.cards.astype(np.intp) - _LOWEST_ID
    out[_S.dealt + index] = 1
    for seat in range(NUM_PLAYERS):
        assignment = state.assignment[seat]
        done = assignment >= 0
        packs = _S.packs + _SEAT_PACKS * seat + DECK_SIZE * assignment[done].astype(np.intp)
        out[packs + index[done]] = 1
        placed = int(state.placed[seat])
        if placed < NUM_CARDS:
            out[_S.current + DECK_SIZE * seat + index[placed]] = 1
        out[_S.placed + seat] = placed
    out[_S.pack_sizes : _S.pack_sizes + NUM_PLAYERS * NUM_PACKS] = state.pack_sizes.ravel()
    if rules.is_terminal(state):
        result = rules.outcome(state)
        out[_S.results : _S.results + NUM_PACKS] = result.results
        out[_S.points : _S.points + NUM_PLAYERS] = result.points
    else:
        out[_S.to_act + rules.current_player(state)] = 1
    return out


class QuintetGame(QuintetRules):
    """:class:`~.rules.QuintetRules` with each player's observation and info, the whole state
    and the spectator's view (see the module docstring for the info and the state)."""

    layout = LAYOUT
    info_schema = INFO_SCHEMA
    info_shared = True  # every seat is told the same
    state_layout = STATE_LAYOUT

    def observe(self, state: QuintetState, player: int) -> np.ndarray:
        return encode_observation(state, player)

    def info(self, state: QuintetState, player: int) -> dict[str, Any]:
        """``player``'s info (:data:`INFO_SCHEMA`): the scored deal once it is over, neutral
        values before (the same for both seats)."""
        if not self.is_terminal(state):
            return {
                "points": np.zeros(NUM_PLAYERS, dtype=np.int64),
                "winner": -1,
                "results": np.zeros(NUM_PACKS, dtype=np.int64),
                "arrangements": np.full((NUM_PLAYERS, NUM_PACKS, PACK_SIZE), -1, dtype=np.int64),
            }
        result = self.outcome(state)
        return {
            "points": np.array(result.points, dtype=np.int64),
            "winner": -1 if result.winner is None else result.winner,
            "results": np.array(result.results, dtype=np.int64),
            "arrangements": np.array(result.packs, dtype=np.int64),
        }

    def encode_state(self, state: QuintetState) -> np.ndarray:
        return _encode_state(self, state)

    def render(self, state: QuintetState) -> str:
        return render_text(self, state)
