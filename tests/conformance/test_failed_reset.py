"""A reset that raises changes nothing, on every env of every registered game.

A bad value of a known reset option (a malformed ``cards``, a seat that does not exist as
``dealer``) raises ``ValueError``; afterwards the env is exactly as it was: the game in progress
plays on as if the call never happened, and the next unseeded ``reset()`` deals what a twin env that
never saw the bad call deals (the generators were not advanced or reseeded). For the Gymnasium ids
the learner's seat and the opponents (and their generators) are kept too.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from pokerzoo.envs.core.registry import GameSpec, games

BAD = {"cards": "Zz"}
"""A malformed card string: every game refuses it."""
BAD_DEALER = {"dealer": -1}
"""A seat that does not exist, for the games whose first dealer a reset option fixes."""


def _bad_options(env: Any) -> list[dict[str, Any]]:
    """The bad reset options to try on ``env``: a bad ``cards``, and a bad ``dealer`` where the
    env takes one."""
    accepted = getattr(env.unwrapped, "reset_options", ("cards",))
    return [BAD] + ([BAD_DEALER] if "dealer" in accepted else [])


AEC = [pytest.param(spec, id=spec.name) for spec in games().values() if spec.aec is not None]
PARALLEL = [pytest.param(spec, id=spec.name) for spec in games().values() if spec.parallel]
GYM = [
    pytest.param(spec, gym_id.id, id=gym_id.id)
    for spec in games().values()
    for gym_id in spec.gym_ids
]


def _aec_trace(env: Any, rng: np.random.Generator, steps: int) -> list:
    """Random masked play for ``steps`` decisions (or to the end): what every seat saw."""
    trace = []
    for agent in env.agent_iter(steps):
        observation, reward, terminated, truncated, _ = env.last()
        trace.append((agent, observation["observation"].tobytes(), reward))
        if terminated or truncated:
            env.step(None)
        else:
            env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    return trace


def _refused(env: Any, seed: int | None, options: dict[str, Any] = BAD) -> None:
    with pytest.raises(ValueError, match=str(next(iter(options.values())))):
        env.reset(seed=seed, options=options)


def _twins(make: Callable[[], Any], seed: int) -> tuple[Any, Any]:
    """A twin and the env a bad reset is tried on, both made by ``make`` and reset with
    ``seed``."""
    twin, env = make(), make()
    for e in (twin, env):
        e.reset(seed=seed)
    return twin, env


SEEDS = pytest.mark.parametrize("seed", [7, None])
"""The seed the bad reset is called with: a seeded one and an unseeded one."""


@pytest.mark.parametrize("spec", AEC)
@SEEDS
def test_failed_aec_reset_changes_nothing(spec: GameSpec, seed: int | None) -> None:
    twin, env = _twins(spec.make_aec, 3)
    for e in (twin, env):
        _aec_trace(e, np.random.default_rng(0), 5)
    for options in _bad_options(env):
        _refused(env, seed, options)
    # the game in progress plays on unchanged, and the next unseeded deals are the same
    assert _aec_trace(env, np.random.default_rng(1), 50) == _aec_trace(
        twin, np.random.default_rng(1), 50
    )
    for e in (twin, env):
        e.reset()
    assert _aec_trace(env, np.random.default_rng(2), 50) == _aec_trace(
        twin, np.random.default_rng(2), 50
    )


@pytest.mark.parametrize("spec", PARALLEL)
@SEEDS
def test_failed_parallel_reset_changes_nothing(spec: GameSpec, seed: int | None) -> None:
    twin, env = _twins(spec.make_parallel, 3)
    _refused(env, seed)

    def play(e: Any, rng: np.random.Generator) -> list:
        (observations, _), trace = e.reset(), []
        while e.agents:
            actions = {
                a: int(rng.choice(np.flatnonzero(o["action_mask"])))
                for a, o in observations.items()
            }
            observations, rewards, *_ = e.step(actions)
            seen = {a: o["observation"].tobytes() for a, o in observations.items()}
            trace.append((seen, rewards))
        return trace

    assert play(env, np.random.default_rng(4)) == play(twin, np.random.default_rng(4))


def _gym_trace(env: gym.Env, rng: np.random.Generator, steps: int, info: dict) -> list:
    trace = []
    for _ in range(steps):
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        observation, reward, terminated, truncated, info = env.step(action)
        trace.append((observation.tobytes(), reward, info.get("seat")))
        if terminated or truncated:
            observation, info = env.reset()
            trace.append((observation.tobytes(), info.get("seat")))
    return trace


@pytest.mark.parametrize(("spec", "gym_id"), GYM)
@SEEDS
def test_failed_gymnasium_reset_changes_nothing(
    spec: GameSpec, gym_id: str, seed: int | None
) -> None:
    twin, env = gym.make(gym_id).unwrapped, gym.make(gym_id).unwrapped
    infos = []
    for e in (twin, env):
        _, info = e.reset(seed=0)
        infos.append(info)
    seat, opponents = getattr(env, "learner", None), dict(getattr(env, "opponents", {}))
    for options in _bad_options(getattr(env, "aec", env)):
        _refused(env, seed, options)
    assert getattr(env, "learner", None) == seat
    assert dict(getattr(env, "opponents", {})) == opponents
    # the episode in progress plays on for the same seat against the same bots, and every later
    # (unseeded) episode is the twin's
    assert _gym_trace(env, np.random.default_rng(5), 120, infos[1]) == _gym_trace(
        twin, np.random.default_rng(5), 120, infos[0]
    )


@pytest.mark.parametrize(
    ("spec", "gym_id"),
    [p for p in GYM if p.values[0].vector is not None],
)
def test_failed_vector_reset_changes_nothing(spec: GameSpec, gym_id: str) -> None:
    twin, env = _twins(lambda: spec.make_vector(3), 0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(ValueError, match="Zz"):
            env.reset(options={"cards": [BAD["cards"]] * 3})
    first, _ = env.reset()
    second, _ = twin.reset()
    assert first.tobytes() == second.tobytes()
