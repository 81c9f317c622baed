"""Draw poker's one action space and the phases that decide which part of it a seat may use.

{actions}

Indices 0..2 are :mod:`pokerzoo.envs.core.betting`'s, so the betting phases hand them to
:class:`~pokerzoo.envs.core.betting.Betting` unchanged.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable

from ..core.betting import BETTING_ACTIONS, CALL, FOLD, RAISE
from ..core.observation import document, markdown_table

__all__ = [
    "ACTIONS",
    "ACTION_TABLE",
    "CALL",
    "FOLD",
    "HAND_SIZE",
    "NUM_ACTIONS",
    "NUM_DISCARDS",
    "PHASES",
    "PHASE_BET_AFTER",
    "PHASE_BET_BEFORE",
    "PHASE_DRAW",
    "PHASE_OVER",
    "RAISE",
    "STAND_PAT",
    "describe_action",
    "discard_action",
    "discard_positions",
]

_BETTING_MEANINGS = (
    "give up the hand (only when there is a bet to call)",
    "match the current bet (nothing to add: a check); a short stack calls all-in for less",
    "call and add the phase's bet size (a bet when nobody has bet yet)",
)
_TABLE_ROWS = (
    *((str(a), f"`{BETTING_ACTIONS[a]}`", text) for a, text in enumerate(_BETTING_MEANINGS)),
    ("3", "`stand pat`", "the draw: keep all five cards"),
    (
        "3 + d",
        "`discard i,j,..`",
        "the draw: discard the cards at the positions whose bits are set in `d` (1..31; bit "
        "`i` is position `i` of the hand, highest card id first as the observation lists it) "
        "and receive as many from the stock",
    ),
)
ACTION_TABLE = markdown_table(("index", "name", "meaning"), _TABLE_ROWS)
"""The action table in Markdown (module and class docstrings, the game's docs page)."""

HAND_SIZE = 5
STAND_PAT = 3
"""The draw action keeping every card; ``STAND_PAT + d`` discards the cards of bit set ``d``."""
NUM_DISCARDS = 1 << HAND_SIZE  # 32 subsets of the five cards
NUM_ACTIONS = STAND_PAT + NUM_DISCARDS  # 35

PHASE_BET_BEFORE, PHASE_DRAW, PHASE_BET_AFTER, PHASE_OVER = range(4)
PHASES = ("betting before the draw", "the draw", "betting after the draw", "over")
"""Phase names by index; ``"over"`` once the last hand has been settled."""


def discard_positions(action: int) -> tuple[int, ...]:
    """Hand positions a draw action discards (``STAND_PAT + 0b00101 -> (0, 2)``)."""
    bits = action - STAND_PAT
    if not 0 <= bits < NUM_DISCARDS:
        raise ValueError(f"bad draw action {action!r}: expected {STAND_PAT}..{NUM_ACTIONS - 1}")
    return tuple(i for i in range(HAND_SIZE) if bits >> i & 1)


def discard_action(positions: Iterable[int]) -> int:
    """The draw action discarding the cards at ``positions`` (0..4; empty: stand pat)."""
    bits = 0
    for position in positions:
        if isinstance(position, bool) or position not in range(HAND_SIZE):
            raise ValueError(f"bad hand position {position!r}: expected an int in 0..4")
        bits |= 1 << position
    return STAND_PAT + bits


def _name(action: int) -> str:
    if action < STAND_PAT:
        return BETTING_ACTIONS[action]
    if action == STAND_PAT:
        return "stand pat"
    return "discard " + ",".join(str(p) for p in discard_positions(action))


ACTIONS: tuple[str, ...] = tuple(_name(a) for a in range(NUM_ACTIONS))
"""Name of every action (``"fold"``, ..., ``"stand pat"``, ``"discard 0"``, ``"discard 0,1"``)."""


def describe_action(action: int) -> str:
    """The action's name for messages and menus."""
    if isinstance(action, bool) or not 0 <= action < NUM_ACTIONS:
        raise ValueError(f"bad action {action!r}: expected an int in 0..{NUM_ACTIONS - 1}")
    return ACTIONS[action]


document(sys.modules[__name__], actions=ACTION_TABLE)
