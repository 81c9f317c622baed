"""Poker without a name in the game registry (:mod:`pokerzoo.envs.core.registry`)."""

from __future__ import annotations

from ..core.registry import Scoring, package_game

SPEC = package_game(
    "nameless_poker",
    title="Poker without a name",
    summary="four players bid and take tricks over 30 deals, two jokers as the top trumps",
    players=4,
    options={
        "deals": "null (default: all 30) | a list of deal numbers 1..30",
        "dealer_restriction": "false (default) | true: the dealer may not make the bids add up",
        "reward": '"score" (default) | "relative" (score minus the table mean)',
    },
    option_sets={
        "one card": {"deals": [1]},
        "one of each kind": {"deals": [8, 19, 23, 27]},
        "30 deals": {},
        "dealer restriction, relative": {
            "deals": [3, 8, 20],
            "dealer_restriction": True,
            "reward": "relative",
        },
    },
    env_class="NamelessPokerEnv",
    gym_id="pokerzoo/NamelessPoker-v0",
    scoring=Scoring(unit="point", eval_options={"reward": "score"}),
)
