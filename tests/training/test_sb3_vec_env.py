"""The SB3 adapter: SB3 VecEnv semantics over Gymnasium vector envs, masks for MaskablePPO."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import gymnasium as gym
import numpy as np
import pytest

pytest.importorskip("stable_baselines3")
pytest.importorskip("sb3_contrib")
torch = pytest.importorskip("torch")

from gymnasium.vector import AutoresetMode, SyncVectorEnv  # noqa: E402
from pokerzoo.envs.poker_squares import PokerSquaresEnv, PokerSquaresVectorEnv  # noqa: E402
from pokerzoo.training.sb3_vec_env import SB3VecEnv, make_sb3_vec_env  # noqa: E402
from sb3_contrib import MaskablePPO  # noqa: E402
from sb3_contrib.common.maskable.evaluation import evaluate_policy  # noqa: E402
from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported  # noqa: E402
from stable_baselines3.common.utils import check_for_correct_spaces  # noqa: E402
from stable_baselines3.common.vec_env import (  # noqa: E402
    DummyVecEnv,
    VecCheckNan,
    VecEnv,
    VecMonitor,
)

OPTIONS = {"placement": "adjacent", "jokers": 1, "reward": "incremental"}


def native(mode: str) -> Callable[[int], gym.vector.VectorEnv]:
    return lambda n: PokerSquaresVectorEnv(n, autoreset_mode=mode, **OPTIONS)


def sync_of_singles(n: int) -> gym.vector.VectorEnv:
    return SyncVectorEnv(
        [lambda: PokerSquaresEnv(**OPTIONS) for _ in range(n)],
        autoreset_mode=AutoresetMode.SAME_STEP,
    )


VECTOR_ENVS = {
    "native-same-step": native("SameStep"),
    "native-disabled": native("Disabled"),
    "sync-same-step": sync_of_singles,
}


@pytest.mark.parametrize("make_venv", VECTOR_ENVS.values(), ids=VECTOR_ENVS.keys())
def test_adapter_steps_like_dummy_vec_env_over_single_envs(
    make_venv: Callable[[int], gym.vector.VectorEnv],
) -> None:
    n = 3
    adapter = SB3VecEnv(make_venv(n))
    reference = DummyVecEnv([lambda: PokerSquaresEnv(**OPTIONS) for _ in range(n)])
    assert isinstance(adapter, VecEnv)
    assert adapter.seed(21) == reference.seed(21) == [21, 22, 23]
    np.testing.assert_array_equal(adapter.reset(), reference.reset())
    rng = np.random.default_rng(0)
    episodes = 0
    for step in range(2 * 25 + 5):
        masks = get_action_masks(adapter)
        np.testing.assert_array_equal(masks, get_action_masks(reference))
        assert masks.dtype == bool and masks.shape == (n, 25)
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs, rewards, dones, infos = adapter.step(actions)
        ref_obs, ref_rewards, ref_dones, ref_infos = reference.step(actions)
        np.testing.assert_array_equal(obs, ref_obs, f"step {step}")
        np.testing.assert_array_equal(rewards, ref_rewards)
        np.testing.assert_array_equal(dones, ref_dones)
        assert rewards.dtype == np.float32 and dones.dtype == bool
        assert isinstance(infos, list) and len(infos) == n
        for info, ref in zip(infos, ref_infos, strict=True):
            assert ("terminal_observation" in info) == ("terminal_observation" in ref)
            if "terminal_observation" in ref:
                episodes += 1
                np.testing.assert_array_equal(
                    info["terminal_observation"], ref["terminal_observation"]
                )
                assert info["score"] == ref["score"]
                assert info["TimeLimit.truncated"] is False
    assert episodes == 2 * n
    for reset_info, ref in zip(adapter.reset_infos, reference.reset_infos, strict=True):
        np.testing.assert_array_equal(reset_info["action_mask"], ref["action_mask"])


def test_next_step_autoreset_is_refused() -> None:
    with pytest.raises(ValueError, match="SameStep"):
        SB3VecEnv(PokerSquaresVectorEnv(2))
    with pytest.raises(TypeError, match="VectorEnv"):
        SB3VecEnv(PokerSquaresEnv())  # type: ignore[arg-type]


def test_attributes_methods_and_wrappers() -> None:
    adapter = make_sb3_vec_env("pokerzoo/PokerSquares-v0", 4, seed=0, scoring="english")
    assert isinstance(adapter.venv, PokerSquaresVectorEnv)
    assert is_masking_supported(adapter)
    adapter.reset()
    assert adapter.get_attr("reward_mode") == ["final"] * 4
    assert adapter.get_attr("num_envs", indices=[1, 2]) == [4, 4]
    assert len(adapter.env_method("action_masks", indices=2)) == 1
    assert adapter.env_is_wrapped(gym.Wrapper) == [False] * 4
    adapter.set_attr("reward_mode", "incremental")
    assert adapter.venv.reward_mode == "incremental"
    with pytest.raises(ValueError, match="one value for all its games"):
        adapter.set_attr("reward_mode", "final", indices=[0])
    with pytest.raises(AttributeError):
        adapter.get_attr("no_such_attribute")

    sync = SB3VecEnv(
        SyncVectorEnv(
            [lambda: gym.wrappers.OrderEnforcing(PokerSquaresEnv()), PokerSquaresEnv],
            autoreset_mode=AutoresetMode.SAME_STEP,
        )
    )
    sync.reset()
    assert sync.env_is_wrapped(gym.wrappers.OrderEnforcing) == [True, False]
    sync.set_attr("reward_mode", "incremental", indices=[1])
    assert sync.get_attr("reward_mode") == ["final", "incremental"]
    assert [m.sum() for m in sync.env_method("action_masks")] == [25, 25]


def test_sync_vector_env_of_another_id_through_make() -> None:
    adapter = make_sb3_vec_env("CartPole-v1", 2, seed=1)
    assert isinstance(adapter.venv, SyncVectorEnv)
    assert adapter.reset().shape == (2, 4)
    assert not is_masking_supported(adapter)


def test_maskable_ppo_learns_and_predicts_with_masks() -> None:
    torch.set_num_threads(1)
    adapter = make_sb3_vec_env("pokerzoo/PokerSquares-v0", 8, seed=3, reward="incremental")
    env = VecCheckNan(VecMonitor(adapter), raise_exception=True)
    model = MaskablePPO("MlpPolicy", env, n_steps=32, batch_size=64, n_epochs=1, seed=0)
    model.learn(total_timesteps=512)
    assert model.num_timesteps >= 512
    check_for_correct_spaces(env, model.observation_space, model.action_space)
    # A masked prediction is always legal: the env would raise otherwise.
    mean_reward, _ = evaluate_policy(model, env, n_eval_episodes=8, use_masking=True)
    assert mean_reward >= 0
    obs = env.reset()
    actions, _ = model.predict(obs, action_masks=get_action_masks(env), deterministic=True)
    assert get_action_masks(env)[np.arange(8), actions].all()


def test_options_and_seed_apply_at_the_next_reset() -> None:
    adapter = make_sb3_vec_env("pokerzoo/PokerSquares-v0", 2)
    adapter.seed(5)
    first = adapter.reset()
    adapter.seed(5)
    np.testing.assert_array_equal(adapter.reset(), first)
    seed_grid = "8c Qc Tc 4c 2c 9h Qh Th Jh Kh Ad 8d Td 4h 5s As Qs Ts Js Ks 3d 6s 7h 4d 5d"
    adapter.set_options({"cards": seed_grid})
    obs = adapter.reset()
    assert obs[0, 450 + 6] and obs[1, 450 + 13 + 3]  # the first card, 8c, on both games
    infos: list[dict[str, Any]] = []
    for cell in range(25):
        _, rewards, dones, infos = adapter.step(np.array([cell, cell]))
    assert dones.all() and [info["score"] for info in infos] == [302, 302]


@pytest.mark.parametrize("make_venv", VECTOR_ENVS.values(), ids=VECTOR_ENVS.keys())
def test_info_keys_pick_the_entries_and_leave_the_rest_alone(
    make_venv: Callable[[int], gym.vector.VectorEnv],
) -> None:
    n = 3
    ended = {"terminal_observation", "TimeLimit.truncated"}

    def picked(info: dict[str, Any], keys: tuple[str, ...]) -> dict[str, Any]:
        return {key: value for key, value in info.items() if key in keys or key in ended}

    full = SB3VecEnv(make_venv(n))
    picking = {keys: SB3VecEnv(make_venv(n), info_keys=keys) for keys in [(), ("score", "nope")]}
    for adapter in (full, *picking.values()):
        adapter.seed(4)
        adapter.reset()
    assert "action_mask" in full.reset_infos[0]
    for keys, adapter in picking.items():
        assert adapter.reset_infos == [picked(info, keys) for info in full.reset_infos]
    episodes = scored = 0
    for step in range(30):
        masks = full.action_masks()
        actions = np.array([np.flatnonzero(m)[step % m.sum()] for m in masks])
        obs, rewards, dones, infos = full.step(actions)
        episodes += int(dones.sum())
        for keys, adapter in picking.items():
            np.testing.assert_array_equal(adapter.action_masks(), masks)
            got = adapter.step(actions)
            np.testing.assert_array_equal(got[0], obs)
            np.testing.assert_array_equal(got[1], rewards)
            np.testing.assert_array_equal(got[2], dones)
            for info, expected in zip(got[3], infos, strict=True):
                expected = picked(expected, keys)
                assert info.keys() == expected.keys()
                for key, value in expected.items():
                    np.testing.assert_array_equal(info[key], value)
            scored += sum("score" in info for info in got[3])
    assert episodes == n and scored > 0
