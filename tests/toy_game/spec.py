"""The toy game's registry entry (registered by ``tests/conftest.py``)."""

from __future__ import annotations

from pokerzoo.envs.core.registry import GameSpec, GymId, Scoring

SPEC = GameSpec(
    name="take_two",
    title="Take two (toy game of the tests)",
    summary="two players take two of five face-up cards; the higher rank total wins",
    players=2,
    options={"payoff": '"win" (default, +1/0/-1) | "margin" (rank total difference)'},
    bots="tests.toy_game.bots:BOTS",
    option_sets={"win": {}, "margin": {"payoff": "margin"}},
    aec="tests.toy_game.envs:env",
    single="tests.toy_game.envs:TakeTwoEnv",
    gym_ids=(GymId("pokerzoo-tests/TakeTwo-v0", entry_point="tests.toy_game.envs:TakeTwoEnv"),),
    scoring=Scoring(points_key="totals", unit="rank point"),
    training="tests.toy_game.hooks:HOOKS",
)
