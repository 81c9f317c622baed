"""The rllib backend with Ray: the masking module never gives a masked action probability, the
bots' modules act as their bots for one game at a time, the callbacks re-seed them, a run in
an action formulation trains the learner's seat alone, and every game of several players
trains from its shipped default config (its features, action formulation, env options and
opponents, self-play snapshots included; Quintet in its ``actions: packs``) through ``pokerzoo
train --backend rllib`` on a local Ray instance with 2 env runners and evaluates through
``pokerzoo evaluate`` (CI runs these with the ``rllib`` extra in its own venv; a few minutes on
2 cores)."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest
import yaml

pytest.importorskip("ray.rllib", reason="needs Ray RLlib: pip install -e '.[train,test,rllib]'")

import ray  # noqa: E402
import torch  # noqa: E402
from gymnasium import spaces  # noqa: E402
from pokerzoo.envs.core.registry import get_game  # noqa: E402
from pokerzoo.envs.nameless_poker.deals import HAND_SIZES, NUM_DEALS, NUM_PLAYERS  # noqa: E402
from pokerzoo.training.cli import main  # noqa: E402
from pokerzoo.training.config import ConfigError, from_dict, load_config  # noqa: E402
from pokerzoo.training.games.quintet.packs import CONTEXT, NUM_ACTIONS, ROW  # noqa: E402
from pokerzoo.training.rllib.algorithm import TableCallbacks, algorithm_config  # noqa: E402
from pokerzoo.training.rllib.env import SeatEnv  # noqa: E402
from pokerzoo.training.rllib.league import League, snapshot_steps  # noqa: E402
from pokerzoo.training.rllib.modules import (  # noqa: E402
    BotModule,
    MaskedPPOModule,
    SnapshotModule,
)
from pokerzoo.training.rllib.policy import learner_module, module_policy  # noqa: E402
from pokerzoo.training.rllib.settings import league_slots  # noqa: E402
from pokerzoo.training.rllib.table import (  # noqa: E402
    ACTION_MASK,
    LEARNER,
    OBSERVATIONS,
    TABLE,
    BotTable,
    bot_id,
    observation_dict_space,
)
from pokerzoo.training.rllib.train import train  # noqa: E402
from ray.rllib.core.columns import Columns  # noqa: E402
from ray.rllib.core.rl_module.rl_module import RLModule, RLModuleSpec  # noqa: E402

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


def test_a_bot_module_plays_each_tables_game_with_that_tables_bot() -> None:
    # Two tables stepped together, as an env runner's vector env steps them: one forward pass
    # of the module answers both rows, each from its own table's bot (a stateful bot: random,
    # seeded per table, so a shared bot would draw the other table's numbers).
    tables = [BotTable(get_game("take_two").make_aec(), {"random": 1}) for _ in range(2)]
    assert tables[0].table_id != tables[1].table_id
    role = bot_id("random", 1)
    module = RLModuleSpec(
        module_class=BotModule,
        observation_space=tables[0].observation_spaces[role],
        action_space=tables[0].action_spaces[role],
        model_config={"game": "take_two", "bot": "random", "options": {}},
    ).build()
    alone = [get_game("take_two").make_bot("random") for _ in tables]
    observations = [table.reset(seed=seed)[0] for seed, table in enumerate(tables)]
    for table, bot in zip(tables, alone, strict=True):
        module.reset(table.bot_seeds[role], table.table_id)
        bot.reset(table.bot_seeds[role])
    bot_rows = 0
    while tables:
        rows = [(i, obs[role]) for i, obs in enumerate(observations) if role in obs]
        if rows:
            stacked = {k: np.stack([seen[k] for _, seen in rows]) for k in rows[0][1]}
            batch = {Columns.OBS: {k: torch.from_numpy(v) for k, v in stacked.items()}}
            actions = module.forward_exploration(batch)[Columns.ACTIONS].tolist()
            for (i, seen), action in zip(rows, actions, strict=True):
                assert action == alone[i].act(seen[OBSERVATIONS], seen[ACTION_MASK])
            bot_rows += len(rows)
            chosen = {i: action for (i, _), action in zip(rows, actions, strict=True)}
        else:
            chosen = {}
        following, left, bots = [], [], []
        for i, (table, obs) in enumerate(zip(tables, observations, strict=True)):
            (acting,) = obs
            action = chosen.get(i, int(np.flatnonzero(obs[acting][ACTION_MASK])[0]))
            stepped, _, terminated, _, _ = table.step({acting: action})
            if not terminated["__all__"]:
                following.append(stepped)
                left.append(table)
                bots.append(alone[i])
        tables, observations, alone = left, following, bots
    assert bot_rows > 2
    seen = {OBSERVATIONS: np.zeros((2, 3), np.float32), TABLE: np.zeros(2, np.int64)}
    with pytest.raises(NotImplementedError, match="is fixed"):
        module.forward_train({Columns.OBS: seen})


def test_episode_start_reseeds_the_tables_seated_bots() -> None:
    table = BotTable(get_game("take_two").make_aec(), {"random": 1, "greedy": 1})
    table.reset(seed=4)
    seeds: dict[str, tuple[int | None, int]] = {}
    modules = {
        role: SimpleNamespace(reset=lambda seed, at, role=role: seeds.__setitem__(role, (seed, at)))
        for role in table.bot_of
    }
    other = BotTable(get_game("take_two").make_aec(), {"random": 1})
    env = SimpleNamespace(num_envs=2, envs=[SimpleNamespace(unwrapped=t) for t in (other, table)])
    TableCallbacks().on_episode_start(env=env, env_index=1, rl_module=modules)
    expected = {role: (seed, table.table_id) for role, seed in table.bot_seeds.items()}
    assert seeds == expected and len(seeds) == 1


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
    assert (ppo.num_envs_per_env_runner, ppo.num_env_runners) == (8, 3)
    one = config.model_copy(
        update={"rllib": config.rllib.model_copy(update={"num_envs_per_env_runner": 1})}
    )
    assert algorithm_config(one).num_envs_per_env_runner == 1
    assert (ppo.lr, ppo.lambda_) == (1e-3, 0.9)
    # A masked action raises in the env: neither the env nor its runner is replaced, so the
    # error ends the run instead of being sampled around.
    assert not ppo.restart_failed_sub_environments and not ppo.restart_failed_env_runners
    specs = ppo.rl_module_spec.rl_module_specs
    assert specs[LEARNER].module_class is MaskedPPOModule
    assert specs[bot_id("caller", 2)].model_config["bot"] == "caller"


def test_a_league_adds_frozen_snapshot_slots_built_as_the_learner() -> None:
    config = from_dict(
        {
            "game": "draw_poker",
            "env": {"num_players": 3},
            "opponents": {
                "bots": {"caller": 1},
                "snapshot_weight": 2,
                "snapshot_every": 1000,
                "max_snapshots": 3,
            },
            "rllib": {"num_env_runners": 1, "fcnet_hiddens": [32]},
        }
    )
    ppo = algorithm_config(config)
    slots = {f"snapshot_{k}" for k in range(3)}
    assert set(ppo.policies) == {LEARNER, bot_id("caller", 1), bot_id("caller", 2), *slots}
    assert set(ppo.policies_to_train) == {LEARNER}
    assert ppo.policy_mapping_fn("snapshot_2_1", None) == "snapshot_2"
    assert ppo.env_config["snapshot_slots"] == 3 and ppo.env_config["snapshot_weight"] == 2
    specs = ppo.rl_module_spec.rl_module_specs
    for slot in slots:
        assert specs[slot].module_class is SnapshotModule
        assert specs[slot].observation_space == specs[LEARNER].observation_space
        assert specs[slot].model_config == specs[LEARNER].model_config
    # Without snapshot_every, no league: no slots.
    plain = config.model_copy(
        update={"opponents": config.opponents.model_copy(update={"snapshot_every": 0})}
    )
    assert not any(p.startswith("snapshot_") for p in algorithm_config(plain).policies)


def test_a_snapshot_module_plays_its_most_likely_legal_action_and_is_not_trained() -> None:
    learner = masked_module()
    space = observation_dict_space(spaces.Box(-1, 1, (6,), np.float32), 5)
    snapshot = RLModuleSpec(
        module_class=SnapshotModule,
        observation_space=space,
        action_space=spaces.Discrete(5),
        model_config={"fcnet_hiddens": [16], "threads": 1},
    ).build()
    snapshot.set_state(learner.get_state())
    batch, observations, masks = random_batch(np.random.default_rng(1))
    actions = snapshot.forward_exploration(batch)[Columns.ACTIONS].numpy()
    np.testing.assert_array_equal(actions, module_policy(learner)(observations, masks.astype(bool)))
    assert masks[np.arange(len(masks)), actions].all()
    with pytest.raises(NotImplementedError, match="frozen"):
        snapshot.forward_train(batch)


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


MULTI_PLAYER_GAMES = ["draw_poker", "five_card_stud", "nameless_poker", "quintet"]
"""Every game of several players, each trained from its shipped default config."""
TIMESTEPS = 600
"""The learner's decisions of an end-to-end run: a few RLlib iterations."""
EPISODES = {"nameless_poker": 1}
"""Evaluation deals per bot where the default (4 in training, 6 in ``pokerzoo evaluate``) is
too many: a game of nameless poker is 30 deals."""
LONGEST_GAME = {"nameless_poker": 2 * NUM_PLAYERS * (NUM_DEALS + sum(HAND_SIZES))}
"""Env steps no game exceeds, where 100 is too few: twice the bids and cards of nameless
poker's four seats over its 30 deals (room for any other decision)."""


def small_config(game: str, folder: Path, envs_per_runner: int = 1) -> Path:
    """The game's shipped config (its action formulation, features, env options and opponents
    included), with a budget of a few RLlib iterations, small networks, ``envs_per_runner``
    tables per env runner, and the self-play league's snapshots every third of the budget (so
    that some are taken and seated)."""
    data = yaml.safe_load((ROOT / "configs" / f"{game}.yaml").read_text())
    episodes = EPISODES.get(game, 4)
    data.update(
        timesteps=TIMESTEPS,
        checkpoint_every=TIMESTEPS // 2,
        evaluation={**data["evaluation"], "every": 10_000, "episodes": episodes},
        rllib={
            "train_batch_size": 400,
            "minibatch_size": 100,
            "num_epochs": 1,
            "fcnet_hiddens": [32, 32],
            "num_envs_per_env_runner": envs_per_runner,
        },
    )
    if data.get("opponents", {}).get("snapshot_every"):
        data["opponents"] = {**data["opponents"], "snapshot_every": TIMESTEPS // 3}
    path = folder / f"{game}.yaml"
    path.write_text(yaml.safe_dump(data))
    return path


def read_csv(path: Path) -> list[dict[str, str]]:
    with path.open() as handle:
        return list(csv.DictReader(handle))


@pytest.mark.slow
@pytest.mark.parametrize("game", MULTI_PLAYER_GAMES)
def test_each_default_config_trains_with_two_vectorised_env_runners_and_evaluates(
    game: str, local_ray: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Two env runners of two tables each: the bots' modules play each table with its own bot.
    run = tmp_path / "run"
    path = small_config(game, tmp_path, envs_per_runner=2)
    config = load_config(path)
    argv = ["train", game, "--config", str(path), "--out", str(run)]
    argv += ["--backend", "rllib", "--num-env-runners", "2", "--eval-episodes", "0"]
    assert main(argv) == 0, capsys.readouterr().err
    assert "learner decisions" in capsys.readouterr().out

    info = json.loads((run / "run.json").read_text())
    assert info["backend"] == "rllib" and info["versions"]["ray"] == ray.__version__
    assert info["throughput"]["num_env_runners"] == 2
    assert yaml.safe_load((run / "config.yaml").read_text())["backend"] == "rllib"
    progress = read_csv(run / "progress.csv")
    assert int(progress[-1]["timesteps"]) >= TIMESTEPS
    # Every action of every seat was checked against its mask (a masked one raises in the
    # env, and a failed env runner ends the run): the count covers every finished game, all
    # but the actions of the games each env runner's two tables still had in play.
    unchecked = sum(int(row["env_steps"]) for row in progress) - int(
        progress[-1]["actions_checked"]
    )
    assert 0 <= unchecked < 2 * 2 * LONGEST_GAME.get(game, 100)
    if league_slots(config):  # the config's self-play league: snapshots taken and seated
        assert info["league"]["taken"] >= 1
        if game not in LONGEST_GAME:  # a nameless poker game seated after one ends too late
            assert int(progress[-1]["snapshot_seats"]) > 0
    else:  # an action formulation's run (Quintet's packs): its bots alone
        assert "league" not in info
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
    episodes = EPISODES.get(game, 6)
    argv = ["evaluate", str(run), "--episodes", str(episodes), "--out", str(report)]
    assert main(argv) == 0, capsys.readouterr().err
    evaluation = json.loads((report / "report.json").read_text())["evaluation"]
    # The config's evaluation bots (nameless poker's leave out the slow montecarlo), else all.
    bots = config.evaluation.opponents or get_game(game).bot_classes
    assert set(evaluation["opponents"]) == set(bots)
    seats = len(get_game(game).make_aec().possible_agents)
    assert {r["games"] for r in evaluation["opponents"].values()} == {episodes * seats}
    assert evaluation["seed"] == 1_000_000  # the run's evaluation deals, as for an SB3 run


def train_from_yaml(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str
) -> tuple[Path, list[str]]:
    """``pokerzoo train`` of the config ``text`` (its ``game:`` line first) into
    ``tmp_path/run``: the run folder and the command's arguments (to resume it)."""
    game = text.split("\n", 1)[0].removeprefix("game: ")
    config = tmp_path / f"{game}.yaml"
    config.write_text(text)
    run = tmp_path / "run"
    argv = ["train", game, "--config", str(config), "--out", str(run)]
    assert main(argv) == 0, capsys.readouterr().err
    return run, argv


@pytest.mark.slow
def test_a_run_resumes_from_its_model_and_a_checkpoint_evaluates_alone(
    local_ray: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run, argv = train_from_yaml(
        tmp_path,
        capsys,
        "game: take_two\nbackend: rllib\ntimesteps: 200\ncheckpoint_every: 100\n"
        "opponents: {bots: {random: 1, greedy: 1}}\n"
        "evaluation: {every: 0, final_episodes: 0}\n"
        "rllib: {num_env_runners: 0, train_batch_size: 100, minibatch_size: 50, num_epochs: 1}\n",
    )
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


# --- the self-play league -------------------------------------------------------------------


def module_weights(path: Path) -> dict[str, np.ndarray]:
    """The weights of an RLlib module folder (a snapshot's, or a checkpoint's module)."""
    return {
        k: np.asarray(v) for k, v in RLModule.from_checkpoint(path.resolve()).get_state().items()
    }


def same_weights(first: dict[str, np.ndarray], second: dict[str, np.ndarray]) -> bool:
    shared = set(first) & set(second)
    assert shared
    return all(np.array_equal(first[k], second[k]) for k in shared)


@pytest.mark.slow
def test_the_league_freezes_snapshots_that_sit_at_the_table_and_resumes(
    local_ray: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # An env runner of its own (a Ray actor): the snapshots' weights and filled slots reach it.
    run, argv = train_from_yaml(
        tmp_path,
        capsys,
        "game: draw_poker\nbackend: rllib\ntimesteps: 400\ncheckpoint_every: 0\n"
        "opponents: {bots: {random: 1}, snapshot_weight: 9, snapshot_every: 100, "
        "max_snapshots: 2}\n"
        "evaluation: {every: 0, final_episodes: 0}\n"
        "rllib: {num_env_runners: 1, train_batch_size: 200, minibatch_size: 100, "
        "num_epochs: 1, fcnet_hiddens: [16], lr: 0.01}\n",
    )
    info = json.loads((run / "run.json").read_text())
    league = info["league"]
    progress = read_csv(run / "progress.csv")
    # A snapshot at each iteration that reached another 100 decisions; the slots keep the
    # latest two, each saved to snapshots/ and listed in run.json.
    assert league["taken"] == info["segments"][0]["snapshots_taken"] >= 3
    kept = league["snapshots"]
    assert len(kept) == 2 and {s["module"] for s in kept} == {"snapshot_0", "snapshot_1"}
    assert len(list((run / "snapshots").iterdir())) == league["taken"]
    # Snapshots sat at the table: most seats once the first existed (weight 9 against 1).
    seats = [int(row["snapshot_seats"]) for row in progress]
    assert seats[0] == 0 and seats[-1] > 0
    # Never trained: each slot of the final model holds the learner's weights of its snapshot,
    # which the learner has since moved away from.
    model = run / "model" / "learner_group" / "learner" / "rl_module"
    learner = module_weights(model / LEARNER)
    for snapshot in kept:
        frozen = module_weights(run / snapshot["path"])
        assert same_weights(module_weights(model / snapshot["module"]), frozen)
    assert not same_weights(learner, module_weights(run / kept[0]["path"]))

    # Resumed for one more iteration: the saved snapshots are back in their slots, sit at the
    # table from the first iteration on, and the next one goes to the next slot round-robin.
    budget = info["segments"][0]["to_timesteps"] + 1
    assert main([*argv, "--resume", "--timesteps", str(budget)]) == 0, capsys.readouterr().err
    info = json.loads((run / "run.json").read_text())
    resumed = info["league"]
    assert info["segments"][1]["snapshots_taken"] == 1
    assert resumed["taken"] == league["taken"] + 1
    newest = {
        "timesteps": info["segments"][1]["to_timesteps"],
        "module": f"snapshot_{league['taken'] % 2}",
        "path": f"snapshots/step_{info['segments'][1]['to_timesteps']}",
    }
    assert resumed["snapshots"] == [kept[1], newest]
    seats = [int(row["snapshot_seats"]) for row in read_csv(run / "progress.csv")]
    assert seats[-1] > seats[-2]  # before the iteration's own snapshot was taken
    model = run / "model" / "learner_group" / "learner" / "rl_module"
    for snapshot in resumed["snapshots"]:
        frozen = module_weights(run / snapshot["path"])
        assert same_weights(module_weights(model / snapshot["module"]), frozen)


class FakeAlgorithm:
    """What :class:`League` uses of an algorithm, recorded: the learner group's weights, the
    env runners' weight sync and their tables' filled slots."""

    def __init__(self) -> None:
        self.learner = masked_module()
        self.set: list[dict[str, Any]] = []
        self.synced: list[list[str]] = []
        self.told: list[list[int]] = []
        table = SimpleNamespace(set_snapshots=self.told.append)
        runner = SimpleNamespace(env=SimpleNamespace(envs=[SimpleNamespace(unwrapped=table)]))
        self.learner_group = SimpleNamespace(
            get_weights=lambda module_ids: {LEARNER: self.learner.get_state()},
            set_weights=self.set.append,
        )
        self.env_runner_group = SimpleNamespace(
            sync_weights=lambda policies, **kwargs: self.synced.append(policies),
            foreach_env_runner=lambda tell, local_env_runner: tell(runner),
        )


def test_the_league_fills_its_slots_round_robin_and_restores_them_from_its_folder(
    tmp_path: Path,
) -> None:
    algo = FakeAlgorithm()
    spec = RLModuleSpec(
        module_class=MaskedPPOModule,
        observation_space=algo.learner.observation_space,
        action_space=algo.learner.action_space,
        model_config={"fcnet_hiddens": [16], "threads": 1},
    )
    league = League(tmp_path, every=100, slots=2, learner_spec=spec)
    league.start(algo, 0)
    assert algo.told == [[]] and league.next == 100
    states = {}
    for steps in (60, 130, 250, 330):
        with torch.no_grad():  # the learner moves on between snapshots
            next(algo.learner.parameters()).add_(1.0)
        took = league.step(algo, steps)
        assert took == (steps != 60)
        if took:
            states[steps] = algo.learner.get_state()
    assert algo.synced == [["snapshot_0"], ["snapshot_1"], ["snapshot_0"]]
    assert league.kept == [(250, 1), (330, 0)] and league.filled == [0, 1]
    assert algo.told[-1] == [0, 1] and league.taken == 3 and league.next == 400
    assert snapshot_steps(tmp_path) == [130, 250, 330]
    assert same_weights(module_weights(tmp_path / "snapshots" / "step_250"), states[250])
    assert league.record()["snapshots"][0] == {
        "timesteps": 250,
        "module": "snapshot_1",
        "path": "snapshots/step_250",
    }

    # Resumed from 260 decisions: step_330 came after it, so it is set aside; the two before
    # it go back into the slots they were taken into.
    restored, again = FakeAlgorithm(), League(tmp_path, every=100, slots=2, learner_spec=spec)
    again.start(restored, 260)
    assert snapshot_steps(tmp_path) == [130, 250]
    assert (tmp_path / "snapshots" / "discarded_step_330").is_dir()
    assert again.taken == 2 and again.kept == [(130, 0), (250, 1)] and again.next == 300
    (weights,) = restored.set
    assert same_weights(weights["snapshot_0"], states[130])
    assert same_weights(weights["snapshot_1"], states[250])
    assert restored.synced == [["snapshot_0", "snapshot_1"]] and restored.told == [[0, 1]]
