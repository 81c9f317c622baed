"""What the registry entries (:mod:`.registry`) of the fixed-limit betting games, draw poker and
five-card stud, share: the options of a table of stacks played over several hands, and the
option sets every such game is tested and benchmarked with."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["HANDS_OPTION", "STACK_OPTION", "betting_option_sets"]

STACK_OPTION = "100 (default): every seat's chips, or one int per seat"
"""The spec's line for the ``stack`` option."""

HANDS_OPTION = "1 (default): hands played, stacks carried over"
"""The spec's line for the ``hands`` option."""


def betting_option_sets(
    players: int, game_sets: Mapping[str, Mapping[str, Any]]
) -> dict[str, Mapping[str, Any]]:
    """A betting game's option sets: heads-up (the defaults), ``players`` players, 10 players,
    the game's own ``game_sets``, then 20 hands of 3 players with 20 chips each."""
    return {
        "heads-up": {},
        f"{players} players": {"num_players": players},
        "10 players": {"num_players": 10},
        **game_sets,
        "20 hands": {"num_players": 3, "hands": 20, "stack": 20},
    }
