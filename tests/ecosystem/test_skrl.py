"""skrl on the games it applies to: ``wrap_env`` on every parallel PettingZoo env (skrl wraps only
PettingZoo's parallel API: no AEC env) and on every Gymnasium id, a few masked random steps
each. skrl's multi-agent wrapper also reads the global state (``env.state()`` and
``state_space``, for its MAPPO critic) at every step.

skrl's ``wrapper="auto"`` looks for PettingZoo among the env class's direct bases only, and a
pokerzoo env class derives from pokerzoo's base class: the PettingZoo envs are wrapped with
``wrapper="pettingzoo"``. skrl's agents take no action masks (see the README)."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

pytest.importorskip("skrl", reason="needs skrl: the ecosystem stage (.ci/ecosystem)")

import torch  # noqa: E402
from pokerzoo.envs.core.registry import GameSpec  # noqa: E402
from skrl.envs.wrappers.torch import wrap_env  # noqa: E402

from tests.ecosystem.cases import GYM_IDS, PARALLEL, random_legal  # noqa: E402

pytestmark = pytest.mark.ecosystem

STEPS = 60


@pytest.mark.parametrize("spec", PARALLEL)
def test_wrap_parallel_env(spec: GameSpec) -> None:
    # skrl's agents take no masks (the mask is in the observation, which skrl flattens): the
    # README's set-up, masked_action="random", plays a legal action for a masked one
    env = wrap_env(spec.make_parallel(masked_action="random"), wrapper="pettingzoo", verbose=False)
    observations, infos = env.reset()
    state_size = int(np.prod(env.state_space(env.possible_agents[0]).shape))
    episodes = 0
    for _ in range(STEPS):
        actions = {
            agent: torch.tensor([[env.action_space(agent).sample()]]) for agent in env.agents
        }
        observations, rewards, terminated, truncated, infos = env.step(actions)
        states = env.state()
        for agent in env.possible_agents:
            assert states[agent].shape == (1, state_size)
        for agent, observation in observations.items():
            assert observation.shape == (1, int(gym.spaces.flatdim(env.observation_space(agent))))
            assert torch.isfinite(rewards[agent]).all()
        if any(t.any() for t in terminated.values()) or any(t.any() for t in truncated.values()):
            episodes += 1
            observations, infos = env.reset()
    assert episodes > 0, f"no episode ended in {STEPS} steps"


@pytest.mark.parametrize(("spec", "gym_id"), GYM_IDS)
def test_wrap_gymnasium_env(spec: GameSpec, gym_id: str) -> None:
    rng = np.random.default_rng(0)
    env = wrap_env(gym.make(gym_id), verbose=False)  # "auto": skrl's Gymnasium wrapper
    observation, info = env.reset()
    assert observation.shape == (1, int(np.prod(env.observation_space.shape)))
    for _ in range(STEPS):
        action = torch.tensor([[random_legal(info["action_mask"], rng)]])
        observation, reward, terminated, truncated, info = env.step(action)
        assert torch.isfinite(reward).all()
        if terminated.any() or truncated.any():
            observation, info = env.reset()
