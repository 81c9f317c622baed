"""SuperSuit's vector envs on every parallel PettingZoo env: ``pettingzoo_env_to_vec_env_v1``
(each agent one sub-env) then ``concat_vec_envs_v1`` (two copies), as a Gymnasium vector env
and as a Stable-Baselines3 ``VecEnv``; masked random steps through several episodes."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("supersuit", reason="needs SuperSuit: the ecosystem stage (.ci/ecosystem)")

import supersuit as ss  # noqa: E402
from pokerzoo.envs.core.registry import GameSpec  # noqa: E402

from tests.ecosystem.cases import PARALLEL, random_legal  # noqa: E402

pytestmark = pytest.mark.ecosystem

STEPS = 80


@pytest.mark.parametrize("base_class", ["gymnasium", "stable_baselines3"])
@pytest.mark.parametrize("spec", PARALLEL)
def test_vector_env(spec: GameSpec, base_class: str) -> None:
    rng = np.random.default_rng(0)
    agents = len(spec.make_parallel().possible_agents)
    envs = ss.pettingzoo_env_to_vec_env_v1(spec.make_parallel())
    envs = ss.concat_vec_envs_v1(envs, 2, num_cpus=0, base_class=base_class)
    assert envs.num_envs == 2 * agents
    if base_class == "gymnasium":
        observations, _ = envs.reset(seed=0)
    else:
        observations = envs.reset()  # SB3's VecEnv.seed() fails on SuperSuit's ConcatVecEnv
    episodes = 0
    for _ in range(STEPS):
        masks = observations["action_mask"]
        assert masks.shape[0] == envs.num_envs
        actions = np.array([random_legal(mask, rng) for mask in masks])
        if base_class == "gymnasium":
            observations, rewards, terminated, truncated, _ = envs.step(actions)
            done = terminated | truncated
        else:
            observations, rewards, done, _ = envs.step(actions)
        assert np.isfinite(rewards).all()
        episodes += int(done.sum())
    assert episodes > 0, f"no episode ended in {STEPS} steps"
