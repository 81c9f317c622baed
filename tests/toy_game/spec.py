"""The toy game's registry entry, as a plugin package would write it: its engine, bots,
training hooks and config, its envs built from this spec (``pokerzoo.envs.core.build``).
``tests/conftest.py`` registers it through the public path (``pokerzoo.envs.register_game``)."""

from __future__ import annotations

from pokerzoo.envs import GameSpec, Scoring

SPEC = GameSpec(
    name="take_two",
    title="Take two (toy game of the tests)",
    summary="two players take two of five face-up cards; the higher rank total wins",
    players=2,
    options={"payoff": '"win" (default, +1/0/-1) | "margin" (rank total difference)'},
    option_sets={"win": {}, "margin": {"payoff": "margin"}},
    engine="tests.toy_game.game:TakeTwoGame",
    gym_id="pokerzoo/TakeTwo-v0",
    default_opponent="greedy",
    bots="tests.toy_game.bots:BOTS",
    scoring=Scoring(points_key="totals", unit="rank point"),
    training="tests.toy_game.hooks:HOOKS",
    config="tests.toy_game:take_two.yaml",
)
