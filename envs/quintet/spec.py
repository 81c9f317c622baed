"""Quintet in the game registry (:mod:`pokerzoo.envs.core.registry`)."""

from __future__ import annotations

from ..core.registry import Scoring, package_game

SPEC = package_game(
    "quintet",
    title="Quintet",
    summary="two players split the same 25 cards into five packs; packs meet position by position",
    players=2,
    options={
        "reward": '"points" (default: own points minus the other\'s) | "win" (+1/0/-1)',
    },
    option_sets={"points": {}, "win": {"reward": "win"}},
    env_class="QuintetEnv",
    gym_id="pokerzoo/Quintet-v0",
    parallel=True,
    scoring=Scoring(points_key="points", unit="point", eval_options={"reward": "points"}),
)
