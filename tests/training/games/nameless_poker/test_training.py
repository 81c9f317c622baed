"""Poker without a name's training smoke test: a few hundred steps with each feature set
and self-play at a table of four, an evaluation that reports the hand-written rule beside the
agent, and a saved model that acts as the live one."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from pokerzoo.envs.core.registry import get_game
from pokerzoo.training.config import from_dict
from pokerzoo.training.evaluate import model_policy
from pokerzoo.training.hooks import feature_set
from pokerzoo.training.report import evaluate_run
from pokerzoo.training.train import train

from tests.helpers import bot_decisions

DEALS = [2, 8, 19, 23, 27]  # one deal of each kind, and a short one: a fast game


@pytest.mark.parametrize(
    ("features", "threshold"),
    [("reach", "bid_confidence")],
)
def test_nameless_poker_trains_evaluates_with_its_rule_and_reloads(
    tmp_path: Path, features: str, threshold: str
) -> None:
    from sb3_contrib import MaskablePPO

    config = from_dict(
        {
            "game": "nameless_poker",
            "timesteps": 256,
            "n_envs": 2,
            "vec_env": "dummy",
            "features": features,
            "checkpoint_every": 0,
            "reward_scale": 0.02,
            "env": {"deals": DEALS, "reward": "relative"},
            "ppo": {"n_steps": 64, "batch_size": 64, "n_epochs": 1, "net_arch": [16],
                    "policy": "per_action", "head_arch": [8], "context": 8},
            "opponents": {"bots": {"random": 1, "rules": 1}, "snapshot_weight": 1,
                          "snapshot_every": 128},
            "evaluation": {"every": 0, "final_episodes": 0},
        }
    )  # fmt: skip
    run = tmp_path / "nameless_poker"
    result = train(config, run, progress_bar=False, verbose=0)
    assert sorted(p.name for p in (run / "snapshots").iterdir()) == ["step_128.zip", "step_256.zip"]

    evaluation, paths = evaluate_run(run, episodes=2, opponents=["random", "rules"])
    assert evaluation.opponents["rules"].games == 8  # 2 deals x 4 seats
    assert evaluation.options["reward"] == "score"  # a game's score, not the training reward
    assert list(evaluation.rules) == [features]  # the rule over the run's own features
    rule = evaluation.rules[features]
    assert rule.player.startswith(f"rule {features} ({threshold}=")
    assert set(rule.opponents) == {"random", "rules"} and rule.opponents["random"].games == 8
    text = paths["md"].read_text()
    assert "| rules | 8 |" in text and f"rule {features} ({threshold}=" in text
    report = json.loads(paths["json"].read_text())
    assert report["evaluation"]["rules"][features]["opponents"]["rules"]["games"] == 8

    transform = feature_set(get_game("nameless_poker"), features)
    obs, masks = bot_decisions("nameless_poker", "rules", 2, deals=DEALS)
    live = model_policy(result.model, transform)(obs, masks)
    loaded = MaskablePPO.load(run / "model.zip", device="cpu")
    assert np.array_equal(model_policy(loaded, transform)(obs, masks), live)
    assert masks[np.arange(len(live)), live].all()


def test_env_variants_train_some_envs_on_other_deals() -> None:
    from pokerzoo.training.train import env_options, make_training_env
    from sb3_contrib.common.maskable.utils import get_action_masks

    config = from_dict(
        {
            "game": "nameless_poker",
            "n_envs": 3,
            "vec_env": "dummy",
            "env": {"deals": [1, 2], "reward": "relative"},
            "env_variants": [{"envs": 1, "options": {"deals": [19, 20]}}],
            "opponents": {"bots": {"random": 1}},
        }
    )
    assert env_options(config) == [
        {"deals": [19, 20], "reward": "relative"},
        {"deals": [1, 2], "reward": "relative"},
        {"deals": [1, 2], "reward": "relative"},
    ]
    venv = make_training_env(config)
    venv.seed(3)
    venv.reset()
    rng = np.random.default_rng(0)
    lengths: dict[int, int] = {}
    while len(lengths) < 3:
        masks = get_action_masks(venv)
        actions = np.array([rng.choice(np.flatnonzero(mask)) for mask in masks])
        _, _, dones, infos = venv.step(actions)
        for i in np.flatnonzero(dones):
            lengths.setdefault(int(i), int(infos[i]["episode"]["l"]))
    # The learner's decisions in a game: a bid and a card per card dealt, in each deal.
    assert lengths == {0: (1 + 8) * 2, 1: (1 + 1) + (1 + 2), 2: (1 + 1) + (1 + 2)}
    venv.close()
