"""Five-card stud in the game registry (:mod:`pokerzoo.envs.core.registry`)."""

from __future__ import annotations

from ..core.betting_spec import HANDS_OPTION, STACK_OPTION, betting_option_sets
from ..core.registry import Scoring, package_game

SPEC = package_game(
    "five_card_stud",
    title="Five-card stud",
    summary="2-10 players, a hole card and four up cards, four fixed-limit betting rounds",
    players=2,
    options={
        "num_players": "2 (default) .. 10",
        "ante": "1 (default)",
        "bets": "[1, 2] (default): the small and the big bet",
        "max_raises": "3 (default): raises after the bet in one round",
        "stack": STACK_OPTION,
        "first_to_act": '"highest" (default) | "lowest": who opens the first round',
        "last_card_down": "false (default) | true",
        "deuces_wild": "false (default) | true",
        "jokers": "0 (default) | 1, wild",
        "hi_lo": "false (default) | true: high and low split the pot",
        "low_qualifier": "null (default) | 8: eight-or-better",
        "hands": HANDS_OPTION,
    },
    option_sets=betting_option_sets(
        7,
        {
            "high-low": {"num_players": 3, "hi_lo": True},
            "high-low, eight or better": {"num_players": 3, "hi_lo": True, "low_qualifier": 8},
            "last card down, deuces and a joker": {
                "num_players": 4,
                "last_card_down": True,
                "deuces_wild": True,
                "jokers": 1,
            },
        },
    ),
    env_class="FiveCardStudEnv",
    gym_id="pokerzoo/FiveCardStud-v0",
    scoring=Scoring(unit="chip"),
)
