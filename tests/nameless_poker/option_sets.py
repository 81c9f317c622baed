"""The option sets the nameless poker bots and random-play tests run under."""

from __future__ import annotations

OPTION_SETS: list[dict[str, object]] = [
    {"deals": [1]},
    {"deals": [8, 19, 23, 27]},
    {},
    {"dealer_restriction": True, "reward": "relative"},
]
"""One card, one deal of each kind, all 30 deals, and the dealer restriction."""
