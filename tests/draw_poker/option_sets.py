"""The option sets the draw poker bots and random-play tests run under."""

from __future__ import annotations

from typing import Any

OPTION_SETS: dict[str, dict[str, Any]] = {
    "2 players": {},
    "6 players": {"num_players": 6},
    "10 players": {"num_players": 10},
    "two decks, four jokers": {"decks": 2, "jokers": 4},
    "deuces wild": {"deuces_wild": True},
    "20 hands": {"hands": 20},
    "10 players, two decks, jokers, deuces wild": {
        "num_players": 10,
        "decks": 2,
        "jokers": 4,
        "deuces_wild": True,
    },
}
"""Table sizes, packs, wild cards and many hands, alone and all together."""
