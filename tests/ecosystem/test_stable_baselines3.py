"""Stable-Baselines3 on every Gymnasium id: sb3-contrib's ``MaskablePPO`` (it reads
``action_masks()``) for a couple of rollouts, SB3's ``check_env``, and plain ``PPO``, both
mask-unaware and so run on the env option for such code, ``masked_action="random"`` (an
in-space masked action is replaced by a random legal one)."""

from __future__ import annotations

import gymnasium as gym
import pytest

pytest.importorskip("sb3_contrib", reason="needs sb3-contrib: pip install -e '.[train]'")

from pokerzoo.envs.core.registry import GameSpec  # noqa: E402
from sb3_contrib import MaskablePPO  # noqa: E402
from stable_baselines3 import PPO  # noqa: E402
from stable_baselines3.common.env_checker import check_env  # noqa: E402

from tests.ecosystem.cases import GYM_IDS  # noqa: E402

pytestmark = pytest.mark.ecosystem

BRIEF = {"n_steps": 64, "batch_size": 32, "n_epochs": 1, "seed": 0}
POLICY = {"net_arch": [32]}


@pytest.mark.parametrize(("spec", "gym_id"), GYM_IDS)
def test_maskable_ppo(spec: GameSpec, gym_id: str, one_torch_thread: None) -> None:
    # masked_action="raise" (the default): a masked action would stop the run
    model = MaskablePPO("MlpPolicy", gym.make(gym_id), policy_kwargs=POLICY, **BRIEF)
    model.learn(128)
    assert model.num_timesteps >= 128


@pytest.mark.parametrize(("spec", "gym_id"), GYM_IDS)
def test_check_env(spec: GameSpec, gym_id: str) -> None:
    check_env(gym.make(gym_id, masked_action="random"))


@pytest.mark.parametrize(("spec", "gym_id"), GYM_IDS)
def test_plain_ppo_with_random_masked_actions(
    spec: GameSpec, gym_id: str, one_torch_thread: None
) -> None:
    model = PPO(
        "MlpPolicy", gym.make(gym_id, masked_action="random"), policy_kwargs=POLICY, **BRIEF
    )
    model.learn(128)
    assert model.num_timesteps >= 128
