"""The training pool's bots are the bots evaluation measures the learner against, whatever reward
the learner itself is paid."""

from __future__ import annotations

import numpy as np
from pokerzoo.training.config import from_dict
from pokerzoo.training.train import make_training_env


def test_pool_bots_optimise_the_evaluated_reward_while_the_learner_is_paid_wins() -> None:
    config = from_dict(
        {
            "game": "quintet",
            "n_envs": 1,
            "vec_env": "dummy",
            "env": {"reward": "win"},
            "opponents": {"bots": {"mixed": 1}},
        }
    )
    venv = make_training_env(config)
    try:
        view = venv.unwrapped.envs[0]  # the DummyVecEnv's one env: the single-seat view
        assert view.aec.unwrapped.game.reward == "win"  # what the learner is paid
        bot = view.pool(1, np.random.default_rng(0))
        assert bot.name == "mixed" and bot.objective == "points"  # as evaluation builds it
    finally:
        venv.close()
