"""SB3 VecEnv wrappers used by training.

:class:`InfoMaskVecEnv`: action masks read from the step's ``info``. sb3-contrib's MaskablePPO
fetches masks with ``env_method("action_masks")``: on a
``SubprocVecEnv`` that is a second round trip to every worker on every step. The package's envs
already put the mask in ``info["action_mask"]`` after every reset and step, so
:class:`InfoMaskVecEnv` keeps the latest one per env (the reset info's for an env that was just
auto-reset) and answers ``env_method("action_masks")`` itself. An env whose info lacks a mask
falls back to asking the workers.

:class:`FeatureVecEnv`: every observation through a feature function
(:mod:`pokerzoo.training.features`), in the main process, batched over the envs.
:class:`FeatureEnv` does the same inside one env: ``SubprocVecEnv`` workers compute the features
of their own envs in parallel, and a worker's opponents (snapshots of the learner that need the
same features of the same deal) share its caches.

:class:`RewardScaleVecEnv`: rewards times a constant, for the learner only (it sits outside
``VecMonitor``, so logged returns stay in the game's points). PPO clips the gradient norm of the
policy and value losses together; with returns of tens of points the value gradient dominates
that norm and the clipping all but stops the policy from moving.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from stable_baselines3.common.vec_env import VecEnv, VecEnvWrapper

__all__ = ["FeatureEnv", "FeatureVecEnv", "InfoMaskVecEnv", "RewardScaleVecEnv"]


class InfoMaskVecEnv(VecEnvWrapper):
    """Caches each env's ``info["action_mask"]`` for sb3-contrib's ``action_masks`` calls."""

    def __init__(self, venv: VecEnv) -> None:
        super().__init__(venv)
        self._masks: list[np.ndarray | None] = [None] * self.num_envs

    def reset(self) -> Any:
        observations = self.venv.reset()
        self._masks = [info.get("action_mask") for info in self.venv.reset_infos]
        return observations

    def step_wait(self) -> Any:
        observations, rewards, dones, infos = self.venv.step_wait()
        reset_infos = self.venv.reset_infos
        for i, info in enumerate(infos):
            source = reset_infos[i] if dones[i] else info
            self._masks[i] = source.get("action_mask")
        return observations, rewards, dones, infos

    def env_method(
        self, method_name: str, *method_args: Any, indices: Any = None, **method_kwargs: Any
    ) -> list[Any]:
        if method_name == "action_masks" and not method_args and not method_kwargs:
            rows = self._get_indices(indices)
            if all(self._masks[i] is not None for i in rows):
                return [np.asarray(self._masks[i], dtype=bool) for i in rows]
        return self.venv.env_method(method_name, *method_args, indices=indices, **method_kwargs)


def _feature_space(
    space: spaces.Space, transform: Callable[[np.ndarray], np.ndarray]
) -> spaces.Box:
    """The observation space after ``transform``: float32 features of the transformed shape."""
    if space.shape is None:
        raise TypeError(f"features need an observation space with a shape, got {space}")
    sample = transform(np.zeros((1, *space.shape), dtype=np.float32))
    return spaces.Box(-np.inf, np.inf, sample.shape[1:], np.float32)


class FeatureEnv(gym.ObservationWrapper):
    """Applies a feature function to every observation of one env."""

    def __init__(self, env: gym.Env, transform: Callable[[np.ndarray], np.ndarray]) -> None:
        super().__init__(env)
        self.observation_space = _feature_space(env.observation_space, transform)
        self.transform = transform

    def observation(self, observation: np.ndarray) -> np.ndarray:
        return self.transform(np.asarray(observation, dtype=np.float32)[None])[0]


class FeatureVecEnv(VecEnvWrapper):
    """Applies a batched feature function to every observation (terminal ones included)."""

    def __init__(self, venv: VecEnv, transform: Callable[[np.ndarray], np.ndarray]) -> None:
        super().__init__(venv, observation_space=_feature_space(venv.observation_space, transform))
        self.transform = transform

    def reset(self) -> np.ndarray:
        return self.transform(self.venv.reset())

    def step_wait(self) -> Any:
        observations, rewards, dones, infos = self.venv.step_wait()
        ended = [i for i, info in enumerate(infos) if "terminal_observation" in info]
        if not ended:
            return self.transform(observations), rewards, dones, infos
        # One call for the step's observations and its episodes' last ones: the feature sets
        # compute each row alone (batch = rows), so the values are the same; stud called its
        # features 14 times a step, once per ended hand, and learns 8.5% faster batched.
        terminal = np.stack([infos[i]["terminal_observation"] for i in ended])
        rows = self.transform(np.concatenate([np.asarray(observations), terminal]))
        for i, row in zip(ended, rows[len(observations) :], strict=True):
            infos[i]["terminal_observation"] = row
        return rows[: len(observations)], rewards, dones, infos


class RewardScaleVecEnv(VecEnvWrapper):
    """Multiplies every reward by ``scale`` (see the module docstring)."""

    def __init__(self, venv: VecEnv, scale: float) -> None:
        super().__init__(venv)
        self.scale = float(scale)

    def reset(self) -> Any:
        return self.venv.reset()

    def step_wait(self) -> Any:
        observations, rewards, dones, infos = self.venv.step_wait()
        return observations, rewards * self.scale, dones, infos
