"""The shared error helpers, and that every env rejects a render mode it lacks the same way."""

from __future__ import annotations

from functools import partial

import gymnasium as gym
import numpy as np
import pokerzoo.envs  # noqa: F401
import pytest
from pokerzoo.envs.core.errors import (
    IllegalActionError,
    UnsupportedRenderModeError,
    check_action,
    check_render_mode,
)
from pokerzoo.envs.core.registry import games
from stable_baselines3.common.env_util import make_vec_env


@pytest.mark.parametrize(
    ("action", "message"),
    [
        (3, "illegal action 3: legal are 0, 2"),
        (7, "bad action 7: expected an int in 0..3"),
        (-1, "bad action -1"),
        (1.0, "bad action 1.0"),
        (True, "bad action True"),
    ],
)
def test_check_action_names_the_action_and_the_legal_ones(action: object, message: str) -> None:
    with pytest.raises(IllegalActionError, match=message):
        check_action(action, np.array([1, 0, 1, 0], dtype=np.int8))


def test_check_action_accepts_numpy_scalars() -> None:
    mask = np.array([0, 1], dtype=np.int8)
    assert check_action(np.int64(1), mask) == 1
    assert check_action(np.array(1), mask) == 1


def test_check_render_mode() -> None:
    assert check_render_mode(None, ["ansi"]) is None
    assert check_render_mode("ansi", ["ansi"]) == "ansi"
    with pytest.raises(UnsupportedRenderModeError, match="bad render_mode 'rgb_array'"):
        check_render_mode("rgb_array", ["ansi"])


def render_mode_cases() -> list:
    """Every env of every registered game, each built with a render mode it lacks: each
    Gymnasium id (``gym.make``, and ``gym.make_vec`` where the id has a native vector env), the
    PettingZoo AEC env and the parallel env where the game has one."""
    cases = []
    for name, spec in games().items():
        for gym_id in spec.gym_ids:
            cases.append(
                pytest.param(
                    partial(gym.make, gym_id.id, render_mode="rgb_array"),
                    id=f"{name}-gym-{gym_id.id}",
                )
            )
            if gym_id.vector_entry_point is not None:
                make_vec = partial(gym.make_vec, gym_id.id, num_envs=2, render_mode="rgb_array")
                cases.append(pytest.param(make_vec, id=f"{name}-gym-vector-{gym_id.id}"))
        if spec.aec is not None:
            cases.append(
                pytest.param(partial(spec.make_aec, render_mode="rgb_array"), id=f"{name}-aec")
            )
        if spec.parallel is not None:
            cases.append(
                pytest.param(
                    partial(spec.make_parallel, render_mode="rgb_array"), id=f"{name}-parallel"
                )
            )
    return cases


@pytest.mark.parametrize("make", render_mode_cases())
def test_every_env_rejects_an_unknown_render_mode(make) -> None:  # noqa: ANN001
    with pytest.raises(ValueError, match="bad render_mode 'rgb_array'"):
        make()


def test_the_render_mode_cases_cover_every_game() -> None:
    covered = {param.id.split("-", 1)[0] for param in render_mode_cases()}
    assert covered == set(games()) and len(covered) >= 5


@pytest.mark.parametrize(
    "env_id", [gym_id.id for spec in games().values() for gym_id in spec.gym_ids]
)
def test_sb3_make_vec_env_works_without_env_kwargs(env_id: str) -> None:
    # make_vec_env asks for render_mode="rgb_array" and falls back on a TypeError
    venv = make_vec_env(env_id, n_envs=2, seed=0)
    obs = venv.reset()
    assert obs.shape[0] == 2
    masks = venv.env_method("action_masks")
    assert len(masks) == 2 and all(m.any() for m in masks)
    venv.close()
