"""``FeatureVecEnv``: features of a step's observations and of its episodes' last observations,
computed in one call of the feature function."""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pokerzoo.training.vec_wrappers import FeatureVecEnv
from stable_baselines3.common.vec_env import VecEnv


class _Scripted(VecEnv):
    """Three envs; every step ends the episodes of envs 0 and 2 (their last observations in the
    infos, as SB3's vec envs report them)."""

    def __init__(self) -> None:
        super().__init__(3, spaces.Box(0, 100, (2,), np.float32), spaces.Discrete(2))
        self.t = 0

    def reset(self) -> np.ndarray:
        return np.zeros((3, 2), np.float32)

    def step_async(self, actions: np.ndarray) -> None:
        self.t += 1

    def step_wait(self) -> Any:
        observations = np.array([[self.t, i] for i in range(3)], np.float32)
        infos: list[dict[str, Any]] = [{} for _ in range(3)]
        for i in (0, 2):
            infos[i]["terminal_observation"] = np.array([self.t, 10 + i], np.float32)
        return observations, np.zeros(3), np.array([True, False, True]), infos

    def close(self) -> None: ...

    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        return [None] * 3

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None: ...

    def env_method(self, method_name: str, *args: Any, indices: Any = None, **kw: Any) -> list:
        return []

    def env_is_wrapped(self, wrapper_class: Any, indices: Any = None) -> list[bool]:
        return [False] * 3


def test_one_call_a_step_features_every_row_as_alone() -> None:
    calls: list[int] = []

    def features(observations: np.ndarray) -> np.ndarray:
        calls.append(len(observations))
        return np.column_stack([observations.sum(axis=1), observations[:, 1] * 2])

    venv = FeatureVecEnv(_Scripted(), features)
    calls.clear()
    venv.step_async(np.zeros(3, np.int64))
    observations, _, dones, infos = venv.step_wait()
    assert calls == [5]  # three observations and two last ones, together
    assert observations.tolist() == [[1, 0], [2, 2], [3, 4]]
    assert infos[0]["terminal_observation"].tolist() == [11, 20]
    assert infos[2]["terminal_observation"].tolist() == [13, 24]
    assert "terminal_observation" not in infos[1] and dones.tolist() == [True, False, True]
