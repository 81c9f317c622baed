"""Action formulations in the generic training machinery (config key ``actions``), with
Quintet's ``"packs"`` as the example: validation, then a tiny training run that evaluates,
reloads, plays as a snapshot and in ``pokerzoo play``."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest
from gymnasium import spaces
from pokerzoo.envs import quintet_v0
from pokerzoo.envs.core.registry import get_game
from pokerzoo.training.cli import main
from pokerzoo.training.config import ConfigError, from_dict
from pokerzoo.training.formulations import Formulation
from pokerzoo.training.games.quintet.packs import PlannedRows
from pokerzoo.training.hooks import agent_policy, feature_set, formulation, rule_policy, rules_for
from pokerzoo.training.opponents import PolicyBot, load_model
from pokerzoo.training.play import play
from pokerzoo.training.report import evaluate_run
from pokerzoo.training.train import train, validate_for_game

QUINTET = get_game("quintet")
BOTS = {"bots": {"random": 1, "greedy": 1}}


def packs_config(**changes: Any) -> Any:
    """A run of a few hundred pack decisions with tiny networks; snapshots join the pool early
    and are drawn in most episodes, so the snapshot opponents play through the formulation."""
    settings: dict[str, Any] = {
        "game": "quintet",
        "timesteps": 256,
        "n_envs": 2,
        "vec_env": "dummy",
        "checkpoint_every": 0,
        "actions": "packs",
        "features": "candidates",
        "reward_scale": 0.1,
        "ppo": {
            "n_steps": 64,
            "batch_size": 64,
            "n_epochs": 1,
            "net_arch": [16],
            "policy": "per_action",
            "head_arch": [8],
            "context": 8,
        },
        "opponents": {**BOTS, "snapshot_weight": 20, "snapshot_every": 128},
        "evaluation": {"every": 256, "episodes": 2, "opponents": ["random"], "final_episodes": 0},
    }
    return from_dict({**settings, **changes})


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"actions": "cards"}, "actions: unknown actions 'cards' for quintet: expected one of "),
        ({"features": "packs"}, "features: unknown features 'packs' for quintet with actions"),
        ({"features": "raw"}, "per_action needs a feature set with per-action rows"),
    ],
)
def test_bad_formulation_settings_are_named(changes: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        validate_for_game(packs_config(**changes), QUINTET)


def test_a_game_without_formulations_knows_only_its_own_actions() -> None:
    config = from_dict({"game": "poker_squares", "actions": "packs"})
    with pytest.raises(ConfigError, match="expected one of native$"):
        validate_for_game(config, get_game("poker_squares"))


def test_native_actions_are_the_default_and_keep_the_games_features() -> None:
    assert from_dict({"game": "quintet"}).actions == "native"
    assert formulation(QUINTET, "native") is None
    assert isinstance(formulation(QUINTET, "packs"), Formulation)
    assert feature_set(QUINTET, "packs").per_action.actions == 5  # the card-level "packs"
    assert feature_set(QUINTET, "candidates", "packs").per_action.actions == 120
    with pytest.raises(ValueError, match="expected one of raw, packs, plans"):
        feature_set(QUINTET, "candidates")


def test_a_formulations_rules_are_its_own() -> None:
    assert list(rules_for(QUINTET, "candidates", "packs")) == ["strongest"]
    assert rules_for(QUINTET, "raw", "packs") == {}
    assert "strongest" not in rules_for(QUINTET, "candidates")  # the game's own rules
    observations, masks = _mid_game_observations()
    rule = rules_for(QUINTET, "candidates", "packs")["strongest"]
    actions = rule_policy(QUINTET, rule, "packs")(observations, masks)
    assert masks[np.arange(len(actions)), actions].all()


def _mid_game_observations() -> tuple[np.ndarray, np.ndarray]:
    """Card-level observations of four deals, 0, 5, 10 and 15 cards in."""
    env = quintet_v0.parallel_env()
    batch, masks = [], []
    for seed in range(4):
        obs, _ = env.reset(seed=seed)
        for _ in range(seed * 5):
            obs, *_ = env.step({a: int(obs[a]["action_mask"].argmax()) for a in env.agents})
        batch.append(obs["player_0"]["observation"])
        masks.append(obs["player_0"]["action_mask"].astype(bool))
    return np.stack(batch), np.stack(masks)


@pytest.fixture(scope="module")
def packs_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Any]:
    run = tmp_path_factory.mktemp("runs") / "packs"
    result = train(packs_config(), run, progress_bar=False, verbose=0)
    return run, result


def test_packs_run_trains_with_snapshots_and_evaluates(packs_run: tuple[Path, Any]) -> None:
    run, result = packs_run
    assert result.timesteps == 256
    assert sorted(p.name for p in (run / "snapshots").iterdir()) == [
        "step_128.zip",
        "step_256.zip",
    ]
    rows = (run / "evaluations.csv").read_text().splitlines()
    assert [row.split(",")[0] for row in rows[1:]] == ["0", "256"]
    evaluation, paths = evaluate_run(run, episodes=2, opponents=["random", "greedy"])
    assert evaluation.opponents["greedy"].games == 4
    report = paths["md"].read_text()
    assert "| random | 4 |" in report
    # The formulation's hand-written rule plays the same deals: greedy's row draws with greedy.
    rule = evaluation.rules["strongest"]
    assert rule.player.startswith("rule strongest (strongest=6, second=7")
    assert rule.opponents["greedy"].games == 4 and f"{rule.player}, hand-written" in report


def test_saved_packs_model_plays_the_same_cards(packs_run: tuple[Path, Any]) -> None:
    run, result = packs_run
    observations, masks = _mid_game_observations()
    live = agent_policy(QUINTET, result.model, "candidates", "packs")
    loaded = agent_policy(QUINTET, load_model(run / "model.zip"), "candidates", "packs")
    assert isinstance(live, PlannedRows)
    actions = live(observations, masks)
    assert np.array_equal(loaded(observations, masks), actions)
    assert masks[np.arange(len(actions)), actions].all()


def test_a_packs_snapshot_plays_whole_deals_as_a_bot(packs_run: tuple[Path, Any]) -> None:
    run, _ = packs_run
    bot = PolicyBot(
        run / "snapshots" / "step_128.zip",
        transform=feature_set(QUINTET, "candidates", "packs"),
        formulation=formulation(QUINTET, "packs"),
    )
    env = quintet_v0.env()
    env.reset(seed=9)
    info: dict[str, Any] = {}
    for _ in env.agent_iter():
        observation, _, terminated, truncated, info = env.last()
        if terminated or truncated:
            break
        env.step(bot.act(observation["observation"], observation["action_mask"]))
    # One deterministic plan per deal: both seats lay out the same row and draw.
    assert info["points"].tolist() == [0, 0]
    assert np.array_equal(info["arrangements"][0], info["arrangements"][1])


def test_play_and_list_know_the_packs_agent(
    packs_run: tuple[Path, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    run, _ = packs_run
    lines: list[str] = []
    result = play("quintet", str(run), seed=4, read=lambda _: "", write=lines.append)
    assert set(result["points"]) == {"player_0", "player_1"}
    assert f"agent ({run / 'model.zip'})" in lines[0]
    assert main(["list"]) == 0
    assert "training actions: native, packs" in capsys.readouterr().out


def test_a_packs_run_plays_in_the_league(
    packs_run: tuple[Path, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A run joins the league through its own policy (formulation and features applied)."""
    run, _ = packs_run
    args = ["league", "quintet", "--runs", str(run), "--bots", "greedy", "random"]
    assert main([*args, "--episodes", "2", "--out", str(tmp_path)]) == 0
    table = capsys.readouterr().out
    assert f"run {run}" in table and "bot greedy" in table
    assert main([*args, "--option", "reward=win"]) == 2
    assert "was trained with env options" in capsys.readouterr().err


def test_a_model_of_an_older_observation_is_refused_naming_both_widths() -> None:
    # A Quintet packs model trained before 064fded took 8,419 values an observation.
    older = SimpleNamespace(observation_space=spaces.Box(0, 1, (8419,)))
    with pytest.raises(ValueError, match=r"shape \(8419,\).*gives \(14419,\).*another version"):
        agent_policy(QUINTET, older, "candidates", "packs")
