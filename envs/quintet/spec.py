"""Quintet in the game registry (:mod:`pokerzoo.envs.core.registry`)."""

from __future__ import annotations

from ..core.registry import GameSpec, GymId, Scoring

SPEC = GameSpec(
    name="quintet",
    title="Quintet",
    summary="two players split the same 25 cards into five packs; packs meet position by position",
    players=2,
    options={
        "reward": '"points" (default: own points minus the other\'s) | "win" (+1/0/-1)',
    },
    bots="pokerzoo.agents.quintet:BOTS",
    option_sets={"points": {}, "win": {"reward": "win"}},
    aec="pokerzoo.envs.quintet_v0:env",
    parallel="pokerzoo.envs.quintet_v0:parallel_env",
    single="pokerzoo.envs.quintet.env:QuintetEnv",
    gym_ids=(GymId("pokerzoo/Quintet-v0", entry_point="pokerzoo.envs.quintet.env:QuintetEnv"),),
    scoring=Scoring(points_key="points", unit="point", eval_options={"reward": "points"}),
    training="pokerzoo.training.games.quintet:HOOKS",
)
