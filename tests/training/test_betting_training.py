"""Draw poker and five-card stud training smoke tests: a few hundred steps with the ``"equity"``
features and self-play, an evaluation that reports the hand-written rule beside the agent, and a
saved model that acts as the live one."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from pokerzoo.envs.core.registry import get_game
from pokerzoo.training.config import from_dict
from pokerzoo.training.evaluate import model_policy, model_probabilities
from pokerzoo.training.hooks import feature_set
from pokerzoo.training.report import evaluate_run
from pokerzoo.training.train import train

from tests.helpers import bot_decisions, check_rule_reported

POLICIES = {
    "draw_poker": {"policy": "per_action", "head_arch": [8], "context": 8},
    "five_card_stud": {"policy": "mlp"},
}


@pytest.mark.parametrize("game", ["draw_poker", "five_card_stud"])
def test_betting_game_trains_evaluates_with_its_rule_and_reloads(game: str, tmp_path: Path) -> None:
    from sb3_contrib import MaskablePPO

    config = from_dict(
        {
            "game": game,
            "timesteps": 256,
            "n_envs": 2,
            "vec_env": "dummy",
            "features": "equity",
            "checkpoint_every": 0,
            "reward_scale": 0.1,
            "ppo": {"n_steps": 64, "batch_size": 64, "n_epochs": 1, "net_arch": [16]}
            | POLICIES[game],
            "opponents": {"bots": {"random": 1, "caller": 1}, "snapshot_weight": 1,
                          "snapshot_every": 128},
            "evaluation": {"every": 0, "final_episodes": 0},
        }
    )  # fmt: skip
    run = tmp_path / game
    result = train(config, run, progress_bar=False, verbose=0)
    assert sorted(p.name for p in (run / "snapshots").iterdir()) == ["step_128.zip", "step_256.zip"]

    lbr = 3 if game == "five_card_stud" else 0  # the local best response plays stud
    evaluation, paths = evaluate_run(
        run, episodes=2, opponents=["random", "caller"], lbr_deals=lbr, sampled=True
    )
    assert evaluation.opponents["caller"].games == 4  # 2 deals x 2 seats
    check_rule_reported(evaluation, paths, "equity", "raise_by", "caller", 4)
    sampled = evaluation.variants["sampled"]
    assert sampled.player == "agent (sampled)" and sampled.opponents["caller"].games == 4
    report = paths["md"].read_text()
    assert "The agent (sampled), same deals:" in report
    if lbr:
        assert list(evaluation.lbr) == ["agent", "agent (sampled)", "random", "caller"]
        assert all(result.deals == 3 for result in evaluation.lbr.values())
        assert "| agent | 3 |" in report and "| agent (sampled) | 3 |" in report
        assert "| player folded | LBR folded | showdown |" in report
        for row in evaluation.lbr.values():  # how the hands ended: every hand, every chip
            assert row.hands == 6
            assert np.isclose(sum(share for share, _ in row.endings.values()), 1.0)
            assert np.isclose(sum(chips for _, chips in row.endings.values()), row.chips.value)

    transform = feature_set(get_game(game), "equity")
    obs, masks = bot_decisions(game, "caller", 6)
    live = model_policy(result.model, transform)(obs, masks)
    loaded = MaskablePPO.load(run / "model.zip", device="cpu")
    assert np.array_equal(model_policy(loaded, transform)(obs, masks), live)
    assert masks[np.arange(len(live)), live].all()
    # the sampled player's probabilities: on the legal actions, the live policy's the likeliest
    chances = model_probabilities(loaded, transform)(obs, masks)
    assert np.allclose(chances.sum(axis=1), 1) and not chances[~masks.astype(bool)].any()
    assert np.array_equal(chances.argmax(axis=1), live)
