"""``workers``: the training tables split across worker processes (``ShardedVecEnv``) give what
one vector env of all the tables gives, step for step; refused actions change nothing; errors
come back from the workers; a run trains to the same weights."""

from __future__ import annotations

import gc
import hashlib
import multiprocessing
import os
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import pytest
from pokerzoo.envs.core.errors import IllegalActionError
from pokerzoo.envs.core.registry import get_game
from pokerzoo.training import sharded_vec_env
from pokerzoo.training.config import ConfigError, from_dict
from pokerzoo.training.runs import resolve_config
from pokerzoo.training.sharded_vec_env import (
    ShardedVecEnv,
    pack,
    shard_sizes,
    unpack,
    usable_cpus,
    worker_cpus,
)
from pokerzoo.training.train import (
    _build_shard,
    _shard_factories,
    _table_factories,
    train,
    validate_for_game,
)
from stable_baselines3.common.vec_env import DummyVecEnv

GAME = "five_card_stud"


def stud_config(n_envs: int = 5, workers: int = 2, **changes: Any) -> Any:
    return resolve_config(GAME).model_copy(update={"n_envs": n_envs, "workers": workers, **changes})


def one_process(config: Any) -> Any:
    """Every table of ``config`` in this process, features applied: the reference."""
    factories = _table_factories(config, None, worker_features=False)
    return _build_shard(factories, config.game, config.features, config.actions, config.threads)


def same(a: Any, b: Any) -> bool:
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, (np.ndarray, np.generic)):
        return type(a) is type(b) and a.dtype == b.dtype and np.array_equal(a, b)
    return type(a) is type(b) and a == b


@pytest.fixture
def pair() -> Any:
    config = stud_config()
    sharded = ShardedVecEnv(_shard_factories(config, None))
    reference = one_process(config)
    yield sharded, reference
    sharded.close()
    reference.close()


def test_shards_give_what_one_vector_env_of_the_tables_gives(pair: Any) -> None:
    sharded, reference = pair
    assert sharded.shards == 2 and sharded.num_envs == reference.num_envs == 5
    assert sharded.observation_space == reference.observation_space
    for venv in pair:
        venv.seed(11)
    assert np.array_equal(sharded.reset(), reference.reset())
    assert same(sharded.reset_infos, reference.unwrapped.reset_infos)
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(60):
        masks = sharded.env_method("action_masks")
        assert same(masks, reference.env_method("action_masks"))
        actions = np.array([rng.choice(np.flatnonzero(mask)) for mask in masks])
        got = sharded.step(actions)
        want = reference.step(actions)
        assert same(list(got), list(want))
        assert same(sharded.reset_infos, reference.unwrapped.reset_infos)
        ended += int(got[2].sum())
    assert ended > 5  # hands ended, their last observations compared as features


def test_a_refused_action_steps_no_table(pair: Any) -> None:
    sharded, reference = pair
    for venv in pair:
        venv.seed(3)
        venv.reset()
    masks = sharded.action_masks()
    legal = masks.argmax(axis=1)
    bad = legal.copy()
    row = 4  # in the second shard
    bad[row] = int(np.flatnonzero(~masks[row])[0]) if (~masks[row]).any() else 99
    with pytest.raises(IllegalActionError, match=f"bad action {bad[row]} for env {row}"):
        sharded.step(bad)
    with pytest.raises(ValueError, match=r"bad actions of shape \(2,\)"):
        sharded.step(legal[:2])
    assert same(list(sharded.step(legal)), list(reference.step(legal)))


def test_calls_reach_the_right_tables_and_errors_come_back(pair: Any) -> None:
    sharded, _ = pair
    sharded.seed(0)
    sharded.reset()
    seats = sharded.env_method("action_masks", indices=[4, 0])
    assert same(seats, [sharded.action_masks()[4], sharded.action_masks()[0]])
    names = sharded.get_attr("learner", indices=[0, 3, 4])
    assert len(names) == 3 and all(isinstance(name, str) for name in names)
    with pytest.raises(AttributeError, match="no_such_thing"):
        sharded.get_attr("no_such_thing", indices=[3])
    with pytest.raises(IndexError, match="bad env index 5"):
        sharded.get_attr("learner", indices=[5])
    assert sharded.get_attr("learner", indices=[3]) == [names[1]]  # still serving


def test_pack_keeps_every_info() -> None:
    infos = [
        {"a": np.arange(3), "seat": np.int64(1), "x": 1.5, "ragged": np.zeros(2)},
        {"a": np.arange(3) + 3, "seat": np.int64(0), "x": 2.5, "ragged": np.zeros(3)},
        {"a": np.arange(3), "seat": np.int64(1), "x": 0.5, "ragged": np.ones(1), "end": True},
    ]
    back = unpack(pack(infos))
    assert same(back, infos)
    assert unpack(pack([])) == []


def test_shard_sizes() -> None:
    assert shard_sizes(32, 2) == [16, 16]
    assert shard_sizes(5, 2) == [3, 2]
    assert shard_sizes(7, 3) == [3, 2, 2]
    with pytest.raises(ValueError, match="bad workers 3: expected 1 to 2"):
        shard_sizes(2, 3)


@pytest.mark.parametrize(
    ("game", "changes", "message"),
    [
        (GAME, {"n_envs": 2, "workers": 3}, r"workers: 3 is more than n_envs \(2\)"),
        (GAME, {"vec_env": "subproc", "workers": 2}, "with one process per env"),
        ("poker_squares", {"workers": 2}, "with its own vector env"),
    ],
)
def test_workers_config_errors(game: str, changes: dict[str, Any], message: str) -> None:
    bots = {"opponents": {"bots": {"random": 1}}} if game == GAME else {}
    config = from_dict({"game": game, **bots, **changes})
    with pytest.raises(ConfigError, match=message):
        validate_for_game(config, get_game(game))


def weights(model: Any) -> str:
    data = b"".join(p.detach().numpy().tobytes() for p in model.policy.parameters())
    return hashlib.sha256(data).hexdigest()


def test_a_run_on_worker_shards_trains_the_same_weights(tmp_path: Path) -> None:
    tiny = {
        "timesteps": 256,
        "n_envs": 4,
        "checkpoint_every": 0,
        "ppo": {"n_steps": 32, "batch_size": 64, "n_epochs": 1, "net_arch": [16]},
        "opponents": {"bots": {"random": 1, "caller": 1}, "snapshot_every": 0},
        "evaluation": {"every": 0, "final_episodes": 0},
    }
    layouts = [{"workers": 1}, {"workers": 3, "pin_workers": True}]
    layouts += [{"workers": 2, "pin_workers": False}]
    models = [
        train(
            from_dict({"game": GAME, **tiny, **layout}), tmp_path / f"run{i}", progress_bar=False
        ).model
        for i, layout in enumerate(layouts)
    ]
    assert weights(models[0]) == weights(models[1]) == weights(models[2])


def test_spawned_workers_give_what_forked_ones_give() -> None:
    """Where the platform has no fork, the shards' factories travel cloudpickled to spawned
    workers: the same tables step the same."""
    config = stud_config(n_envs=3, workers=2)
    spawned = ShardedVecEnv(_shard_factories(config, None), start_method="spawn")
    reference = one_process(config)
    try:
        assert_steps_alike(spawned, reference)
    finally:
        spawned.close()
        reference.close()


def assert_steps_alike(venv: Any, reference: Any, steps: int = 10) -> None:
    """``venv`` and ``reference`` (the same tables), seeded alike, deal and step alike."""
    for env in (venv, reference):
        env.seed(5)
    assert np.array_equal(venv.reset(), reference.reset())
    rng = np.random.default_rng(1)
    for _ in range(steps):
        masks = venv.action_masks()
        actions = np.array([rng.choice(np.flatnonzero(mask)) for mask in masks])
        assert same(list(venv.step(actions)), list(reference.step(actions)))


def test_worker_cpus(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sharded_vec_env, "usable_cpus", lambda: [0, 2, 5])
    assert worker_cpus(3, "auto") == [0, 2, 5]  # the workers fill the CPUs: bound
    assert worker_cpus(6, "auto") == [0, 2, 5]  # two a CPU
    assert worker_cpus(2, "auto") is None  # a CPU to spare: the OS places them
    assert worker_cpus(4, "auto") is None  # round robin would give one CPU two of them
    assert worker_cpus(2, True) == [0, 2, 5]
    assert worker_cpus(3, False) is None
    with pytest.raises(ValueError, match="bad pin 'yes': expected True, False or 'auto'"):
        worker_cpus(2, "yes")
    monkeypatch.setattr(sharded_vec_env, "usable_cpus", lambda: None)  # no binding here
    assert worker_cpus(3, True) is None


@pytest.mark.skipif(usable_cpus() is None, reason="this platform binds no process to CPUs")
def test_bound_workers_run_on_their_cpus_and_step_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    cpus = usable_cpus()
    assert cpus
    config = stud_config(n_envs=3, workers=3)
    everywhere = os.sched_getaffinity(0)
    free = ShardedVecEnv(_shard_factories(config, None))
    bound = ShardedVecEnv(_shard_factories(config, None), cpus=[cpus[-1], cpus[0]])
    try:
        assert [os.sched_getaffinity(p.pid) for p in free._processes] == [everywhere] * 3
        wanted = [{cpus[-1]}, {cpus[0]}, {cpus[-1]}]  # worker k on cpus[k % 2]
        assert [os.sched_getaffinity(p.pid) for p in bound._processes] == wanted
        assert os.sched_getaffinity(0) == everywhere  # the main process stays unbound
        # a step sends to the workers on the main process's own CPU last, the others in order
        assert bound._cpus == [cpus[-1], cpus[0], cpus[-1]] and free._cpus == [None] * 3
        for here in (cpus[-1], cpus[0]):
            monkeypatch.setattr(sharded_vec_env, "current_cpu", lambda here=here: here)
            away = [k for k in range(3) if bound._cpus[k] != here]
            assert bound._send_order() == away + [k for k in range(3) if k not in away]
            assert free._send_order() == [0, 1, 2]
        monkeypatch.undo()
        assert_steps_alike(bound, free)
    finally:
        free.close()
        bound.close()


def test_current_cpu_is_one_this_process_may_run_on() -> None:
    cpu, cpus = sharded_vec_env.current_cpu(), usable_cpus()
    if cpus is None or cpu is None:  # not Linux, or a C library without sched_getcpu
        pytest.skip("this platform does not say which CPU a process runs on")
    assert cpu in cpus


def test_bad_cpus_are_named() -> None:
    config = stud_config(n_envs=2, workers=2)
    cpus = usable_cpus()
    message = "this platform cannot bind" if cpus is None else r"bad cpus \[-1\]: expected some of"
    with pytest.raises(ValueError, match=message):
        ShardedVecEnv(_shard_factories(config, None), cpus=[-1])


class _FreezeProbe(gymnasium.Env):
    """A one-step env that says how many objects its process keeps out of the collector."""

    observation_space = gymnasium.spaces.Box(0.0, 1.0, (1,), np.float32)
    action_space = gymnasium.spaces.Discrete(2)

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> Any:
        return np.zeros(1, np.float32), {}

    def step(self, action: int) -> Any:
        return np.zeros(1, np.float32), 0.0, True, False, {}

    def frozen(self) -> int:
        return gc.get_freeze_count()


@pytest.mark.parametrize("start_method", ["fork", "spawn"])
def test_workers_keep_their_set_up_out_of_their_collections(start_method: str) -> None:
    """Once its shard is built, a worker freezes what it holds (``gc.freeze``): the collector's
    full passes walk only what the tables make as they play. This process is left as it was."""
    if start_method not in multiprocessing.get_all_start_methods():
        pytest.skip(f"this platform has no {start_method} start method")
    before = gc.get_freeze_count()
    venv = ShardedVecEnv(
        [lambda: DummyVecEnv([_FreezeProbe]), lambda: DummyVecEnv([_FreezeProbe] * 2)],
        start_method=start_method,
    )
    try:
        assert all(frozen > 0 for frozen in venv.env_method("frozen"))
        assert len(venv.env_method("frozen")) == 3
    finally:
        venv.close()
    assert gc.get_freeze_count() == before
