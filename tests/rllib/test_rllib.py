"""The rllib backend with Ray: the masking module never gives a masked action probability, the
bots' modules act as their bots for one game at a time, the callbacks re-seed them, a run in
an action formulation trains the learner's seat alone, and two games (Quintet in its default
``actions: packs``) train through ``pokerzoo train --backend rllib`` on a local Ray instance
with 2 env runners and evaluate through ``pokerzoo evaluate`` (CI runs these with the
``rllib`` extra in its own venv; a few minutes on 2 cores)."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest
import yaml

pytest.importorskip("ray.rllib", reason="needs Ray RLlib: pip install -e '.[train,test,rllib]'")

import ray  # noqa: E402
import torch  # noqa: E402
from gymnasium import spaces  # noqa: E402
from pokerzoo.envs.core.registry import get_game  # noqa: E402
from pokerzoo.training.cli import main  # noqa: E402
from pokerzoo.training.config import ConfigError, from_dict  # noqa: E402
from pokerzoo.training.games.quintet.packs import CONTEXT, NUM_ACTIONS, ROW  # noqa: E402
from pokerzoo.training.rllib.algorithm import TableCallbacks, algorithm_config  # noqa: E402
from pokerzoo.training.rllib.env import SeatEnv  # noqa: E402
from pokerzoo.training.rllib.modules import BotModule, MaskedPPOModule  # noqa: E402
from pokerzoo.training.rllib.policy import learner_module, module_policy  # noqa: E402
from pokerzoo.training.rllib.table import (  # noqa: E402
    ACTION_MASK,
    LEARNER,
    OBSERVATIONS,
    BotTable,
    bot_id,
    observation_dict_space,
)
from pokerzoo.training.rllib.train import train  # noqa: E402
from ray.rllib.core.columns import Columns  # noqa: E402
from ray.rllib.core.rl_module.rl_module import RLModuleSpec  # noqa: E402

pytestmark = pytest.mark.rllib

ROOT = Path(__file__).resolve().parents[2]
PACKS_OBSERVATION = CONTEXT.size + NUM_ACTIONS * ROW.size
"""The width of Quintet's ``packs`` observation: the context, then a row per decision."""


def masked_module(width: int = 6, actions: int = 5) -> MaskedPPOModule:
    space = observation_dict_space(spaces.Box(-1, 1, (width,), np.float32), actions)
    spec = RLModuleSpec(
        module_class=MaskedPPOModule,
        observation_space=space,
        action_space=spaces.Discrete(actions),
        model_config={"fcnet_hiddens": [16], "threads": 1},
    )
    return spec.build()


def random_batch(rng: np.random.Generator, n: int = 256, width: int = 6, actions: int = 5):
    masks = (rng.random((n, actions)) < 0.4).astype(np.int8)
    masks[np.arange(n), rng.integers(actions, size=n)] = 1  # at least one legal action
    observations = rng.uniform(-1, 1, (n, width)).astype(np.float32)
    batch = {
        Columns.OBS: {
            OBSERVATIONS: torch.from_numpy(observations),
            ACTION_MASK: torch.from_numpy(masks),
        }
    }
    return batch, observations, masks


def test_the_masked_module_never_gives_a_masked_action_probability() -> None:
    module = masked_module()
    batch, observations, masks = random_batch(np.random.default_rng(0))
    outputs = module.forward_exploration(batch)
    assert isinstance(batch[Columns.OBS], dict)  # the caller's batch is left as it was
    distribution = module.get_exploration_action_dist_cls().from_logits(
        outputs[Columns.ACTION_DIST_INPUTS]
    )
    sampled = torch.stack([distribution.sample() for _ in range(200)]).numpy()
    assert masks[np.arange(len(masks)), sampled].all()
    probabilities = torch.softmax(outputs[Columns.ACTION_DIST_INPUTS], dim=-1).numpy()
    assert probabilities[masks == 0].max() == 0.0
    trained = module.forward_train(batch)[Columns.ACTION_DIST_INPUTS].detach().numpy()
    assert (trained[masks == 0] < -1e30).all() and (trained[masks == 1] > -1e30).all()
    assert module.compute_values(batch).shape == (len(masks),)
    chosen = module_policy(module)(observations, masks.astype(bool))
    assert masks[np.arange(len(masks)), chosen].all()


def test_a_bot_module_plays_its_bot_for_one_game_at_a_time() -> None:
    table = BotTable(get_game("take_two").make_aec(), {"greedy": 1})
    role = bot_id("greedy", 1)
    module = RLModuleSpec(
        module_class=BotModule,
        observation_space=table.observation_spaces[role],
        action_space=table.action_spaces[role],
        model_config={"game": "take_two", "bot": "greedy", "options": {}},
    ).build()
    bot = get_game("take_two").make_bot("greedy")
    observations, _ = table.reset(seed=0)
    while True:
        (acting,) = observations
        seen = observations[acting]
        if acting == role:
            batch = {Columns.OBS: {k: torch.from_numpy(v[None]) for k, v in seen.items()}}
            action = int(module.forward_exploration(batch)[Columns.ACTIONS][0])
            assert action == bot.act(seen[OBSERVATIONS], seen[ACTION_MASK])
        else:
            action = int(np.flatnonzero(seen[ACTION_MASK])[0])
        observations, _, terminated, _, _ = table.step({acting: action})
        if terminated["__all__"]:
            break
    two = {Columns.OBS: {k: torch.from_numpy(np.stack([v, v])) for k, v in seen.items()}}
    with pytest.raises(RuntimeError, match="each env runner must hold one env"):
        module.forward_inference(two)
    with pytest.raises(NotImplementedError, match="is fixed"):
        module.forward_train(two)


def test_episode_start_reseeds_the_seated_bots_and_checks_one_env_per_runner() -> None:
    table = BotTable(get_game("take_two").make_aec(), {"random": 1, "greedy": 1})
    table.reset(seed=4)
    seeds: dict[str, int | None] = {}
    modules = {
        role: SimpleNamespace(reset=lambda seed, role=role: seeds.__setitem__(role, seed))
        for role in table.bot_of
    }
    env = SimpleNamespace(num_envs=1, envs=[SimpleNamespace(unwrapped=table)])
    TableCallbacks().on_episode_start(env=env, env_index=0, rl_module=modules)
    assert seeds == table.bot_seeds and len(seeds) == 1
    with pytest.raises(RuntimeError, match="num_envs_per_env_runner must be 1"):
        TableCallbacks().on_episode_start(
            env=SimpleNamespace(num_envs=2, envs=[]), env_index=0, rl_module=modules
        )


def test_the_algorithm_config_trains_the_learner_alone_with_one_module_per_bot_seat() -> None:
    config = from_dict(
        {
            "game": "draw_poker",
            "env": {"num_players": 3},
            "opponents": {"bots": {"random": 1, "caller": 1}},
            "rllib": {"num_env_runners": 3, "lr": 1e-3, "lambda_": 0.9, "fcnet_hiddens": [32]},
        }
    )
    ppo = algorithm_config(config)
    roles = {LEARNER, *(bot_id(n, p) for n in ("random", "caller") for p in (1, 2))}
    assert set(ppo.policies) == roles
    assert set(ppo.policies_to_train) == {LEARNER}
    assert all(ppo.policy_mapping_fn(role, None) == role for role in roles)
    assert (ppo.num_envs_per_env_runner, ppo.num_env_runners) == (1, 3)
    assert (ppo.lr, ppo.lambda_) == (1e-3, 0.9)
    # A masked action raises in the env: neither the env nor its runner is replaced, so the
    # error ends the run instead of being sampled around.
    assert not ppo.restart_failed_sub_environments and not ppo.restart_failed_env_runners
    specs = ppo.rl_module_spec.rl_module_specs
    assert specs[LEARNER].module_class is MaskedPPOModule
    assert specs[bot_id("caller", 2)].model_config["bot"] == "caller"


def test_a_formulations_run_trains_the_learners_seat_with_the_bots_inside() -> None:
    data = yaml.safe_load((ROOT / "configs" / "quintet.yaml").read_text())
    ppo = algorithm_config(from_dict({**data, "rllib": {"num_env_runners": 1}}))
    assert ppo.env is SeatEnv and set(ppo.policies) == set(ppo.policies_to_train) == {LEARNER}
    spec = ppo.rl_module_spec.rl_module_specs[LEARNER]
    assert spec.module_class is MaskedPPOModule
    assert spec.action_space.n == NUM_ACTIONS  # the formulation's decisions, not 5 packs
    assert spec.observation_space[OBSERVATIONS].shape == (PACKS_OBSERVATION,)
    assert ppo.env_config["actions"] == "packs"


# --- end to end -----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def local_ray():
    """One local Ray instance for the module's runs (it starts in tens of seconds on 2 busy
    cores); the runs use it as a session already open."""
    ray.init(num_cpus=2, include_dashboard=False, logging_level="WARNING")
    yield
    ray.shutdown()


def small_config(game: str, folder: Path) -> Path:
    """The game's shipped config (its action formulation and features included), with a budget
    of a few RLlib iterations."""
    data = yaml.safe_load((ROOT / "configs" / f"{game}.yaml").read_text())
    data.update(
        timesteps=600,
        checkpoint_every=300,
        evaluation={**data["evaluation"], "every": 10_000, "episodes": 4},
        rllib={
            "train_batch_size": 400,
            "minibatch_size": 100,
            "num_epochs": 1,
            "fcnet_hiddens": [32, 32],
        },
    )
    path = folder / f"{game}.yaml"
    path.write_text(yaml.safe_dump(data))
    return path


def read_csv(path: Path) -> list[dict[str, str]]:
    with path.open() as handle:
        return list(csv.DictReader(handle))


@pytest.mark.slow
@pytest.mark.parametrize("game", ["draw_poker", "quintet"])
def test_two_games_train_with_two_env_runners_and_evaluate(
    game: str, local_ray: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = tmp_path / "run"
    argv = ["train", game, "--config", str(small_config(game, tmp_path)), "--out", str(run)]
    argv += ["--backend", "rllib", "--num-env-runners", "2", "--eval-episodes", "0"]
    assert main(argv) == 0, capsys.readouterr().err
    assert "learner decisions" in capsys.readouterr().out

    info = json.loads((run / "run.json").read_text())
    assert info["backend"] == "rllib" and info["versions"]["ray"] == ray.__version__
    assert info["throughput"]["num_env_runners"] == 2
    assert yaml.safe_load((run / "config.yaml").read_text())["backend"] == "rllib"
    progress = read_csv(run / "progress.csv")
    assert int(progress[-1]["timesteps"]) >= 600
    # Every action of every seat was checked against its mask (a masked one raises in the
    # env, and a failed env runner ends the run): the count covers every finished game, all
    # but the actions of the game each env runner still had in play (no game here lasts 100).
    unchecked = sum(int(row["env_steps"]) for row in progress) - int(
        progress[-1]["actions_checked"]
    )
    assert 0 <= unchecked < 2 * 100
    assert read_csv(run / "evaluations.csv")[0]["timesteps"] == "0"
    assert sorted(p.name for p in (run / "checkpoints").iterdir())[0].startswith("model_")
    if game == "quintet":  # its default config's `actions: packs`: five decisions a deal
        module = learner_module(run / "model")
        assert module.action_space.n == NUM_ACTIONS
        assert module.observation_space[OBSERVATIONS].shape == (PACKS_OBSERVATION,)
        # RLlib's env steps are the learner's decisions (the bots act inside the env), and
        # every finished deal took five.
        assert all(row["env_steps"] == row["decisions"] for row in progress)
        assert int(progress[-1]["actions_checked"]) % 5 == 0

    report = tmp_path / "report"
    argv = ["evaluate", str(run), "--episodes", "6", "--out", str(report)]
    assert main(argv) == 0, capsys.readouterr().err
    evaluation = json.loads((report / "report.json").read_text())["evaluation"]
    assert set(evaluation["opponents"]) == set(get_game(game).bot_classes)
    seats = len(get_game(game).make_aec().possible_agents)
    assert {r["games"] for r in evaluation["opponents"].values()} == {6 * seats}
    assert evaluation["seed"] == 1_000_000  # the run's evaluation deals, as for an SB3 run


@pytest.mark.slow
def test_a_run_resumes_from_its_model_and_a_checkpoint_evaluates_alone(
    local_ray: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "take_two.yaml"
    config.write_text(
        "game: take_two\nbackend: rllib\ntimesteps: 200\ncheckpoint_every: 100\n"
        "opponents: {bots: {random: 1, greedy: 1}}\n"
        "evaluation: {every: 0, final_episodes: 0}\n"
        "rllib: {num_env_runners: 0, train_batch_size: 100, minibatch_size: 50, num_epochs: 1}\n"
    )
    run = tmp_path / "run"
    argv = ["train", "take_two", "--config", str(config), "--out", str(run)]
    assert main(argv) == 0, capsys.readouterr().err
    assert main([*argv, "--resume", "--timesteps", "400"]) == 0, capsys.readouterr().err
    first, second = json.loads((run / "run.json").read_text())["segments"]
    assert second["from_timesteps"] == first["to_timesteps"] >= 200
    assert second["to_timesteps"] >= 400 and second["num_env_runners"] == 0
    checkpoint = sorted((run / "checkpoints").iterdir())[0]
    assert main(["evaluate", str(checkpoint), "--episodes", "4"]) == 0, capsys.readouterr().err
    assert (checkpoint.parent / "report.json").is_file()  # beside the checkpoint, as for SB3


def test_a_run_that_needs_more_cpus_than_the_cluster_has_stops_before_its_folder(
    local_ray: None, tmp_path: Path
) -> None:
    config = {"game": "draw_poker", "opponents": {"bots": {"caller": 1}}}
    config = from_dict({**config, "rllib": {"num_env_runners": 3}})
    with pytest.raises(ConfigError, match="need 3 CPUs; the Ray cluster has 2"):
        train(config, tmp_path / "run")
    assert not (tmp_path / "run").exists() and ray.is_initialized()
