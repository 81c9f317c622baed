"""Draw poker in the game registry (:mod:`pokerzoo.envs.core.registry`)."""

from __future__ import annotations

from ..core.betting_spec import HANDS_OPTION, STACK_OPTION, betting_option_sets
from ..core.registry import Scoring, package_game

SPEC = package_game(
    "draw_poker",
    title="Draw poker",
    summary="2-10 players, fixed-limit betting before and after a draw, the seed's tie-breaks",
    players=2,
    options={
        "num_players": "2 (default) .. 10",
        "decks": "1 (default) | 2",
        "jokers": "0 (default) .. 4, wild",
        "deuces_wild": "false (default) | true",
        "ante": "1 (default)",
        "bets": "[1, 2] (default): bet and raise size before and after the draw",
        "stack": STACK_OPTION,
        "hands": HANDS_OPTION,
    },
    option_sets=betting_option_sets(
        6,
        {
            "two decks, four jokers": {"num_players": 4, "decks": 2, "jokers": 4},
            "deuces wild": {"num_players": 3, "deuces_wild": True},
        },
    ),
    env_class="DrawPokerEnv",
    gym_id="pokerzoo/DrawPoker-v0",
    scoring=Scoring(unit="chip"),
)
