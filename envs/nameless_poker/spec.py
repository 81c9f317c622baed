"""Poker without a name in the game registry (:mod:`pokerzoo.envs.core.registry`)."""

from __future__ import annotations

from ..core.registry import GameSpec, GymId, Scoring

SPEC = GameSpec(
    name="nameless_poker",
    title="Poker without a name",
    summary="four players bid and take tricks over 30 deals, two jokers as the top trumps",
    players=4,
    options={
        "deals": "null (default: all 30) | a list of deal numbers 1..30",
        "dealer_restriction": "false (default) | true: the dealer may not make the bids add up",
        "reward": '"score" (default) | "relative" (score minus the table mean)',
    },
    bots="pokerzoo.agents.nameless_poker:BOTS",
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
    aec="pokerzoo.envs.nameless_poker_v0:env",
    single="pokerzoo.envs.nameless_poker.env:NamelessPokerEnv",
    gym_ids=(
        GymId(
            "pokerzoo/NamelessPoker-v0",
            entry_point="pokerzoo.envs.nameless_poker.env:NamelessPokerEnv",
        ),
    ),
    scoring=Scoring(unit="point", eval_options={"reward": "score"}),
    training="pokerzoo.training.games.nameless_poker:HOOKS",
)
