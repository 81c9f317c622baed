"""Stable-Baselines3 ``VecEnv`` over any Gymnasium vector env, action masks included.

:class:`SB3VecEnv` turns a :class:`gymnasium.vector.VectorEnv` (a native one, Poker Squares'
:class:`~pokerzoo.envs.poker_squares.vector.PokerSquaresVectorEnv` or the bot tables'
:class:`~pokerzoo.envs.core.seat_vector.SeatVectorEnv`, or a ``SyncVectorEnv`` of single envs)
into what SB3 and sb3-contrib's ``MaskablePPO`` expect:

- SB3 semantics: a game that ends is reset in the same step; ``dones`` is ``terminated |
  truncated``; ``infos`` is a list of one dict per env, holding ``"terminal_observation"`` and
  ``"TimeLimit.truncated"`` where a game ended, plus the vector env's per-env info entries
  (the ended game's final info where one ended).
- Masks: ``env_method("action_masks")`` returns one ``bool`` mask per env (what sb3-contrib's
  ``get_action_masks`` stacks), read from the vector env's ``info["action_mask"]`` or, when its
  infos carry none, from its ``action_masks()`` method.
- ``seed()`` and ``set_options()`` apply at the next ``reset()``, as in SB3's own VecEnvs.
- ``info_keys`` picks which of the vector env's info entries reach the per-env dicts (all by
  default). The native training envs pass none (``info_keys=()``): SB3's ``learn`` reads only
  ``"terminal_observation"`` and ``"TimeLimit.truncated"``, and splitting a stud table's dozen
  small info arrays into dicts, then carrying them from the worker processes, took the main
  process 2.4 ms of CPU a 32-table step where it now takes 1.9.

The vector env must auto-reset in the same step (``autoreset_mode="SameStep"``) or not at all
(``"Disabled"``, then the adapter resets ended games with ``options={"reset_mask": dones}``);
Gymnasium's default next-step mode returns the new game one step late, which SB3 cannot use.
:func:`make_sb3_vec_env` builds the adapter over ``gymnasium.make_vec`` with the right mode.

Per-env attributes: a vector env with ``get_attr``/``call``/``set_attr`` (Gymnasium's Sync and
Async vector envs) answers per sub-env; a native vector env holds one value for all its games,
so ``get_attr`` repeats it, ``env_method`` calls the method once and repeats the result, and
``set_attr`` on a subset of the envs raises.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium.vector import AutoresetMode
from stable_baselines3.common.env_util import is_wrapped
from stable_baselines3.common.vec_env import VecEnv
from stable_baselines3.common.vec_env.base_vec_env import VecEnvIndices, VecEnvObs, VecEnvStepReturn

from ..envs import register_envs

__all__ = ["SB3VecEnv", "make_sb3_vec_env"]

MASK_METHOD = "action_masks"  # the method name sb3-contrib calls through env_method
MASK_INFO = "action_mask"


def make_sb3_vec_env(
    env_id: str, num_envs: int, *, seed: int | None = None, **options: Any
) -> SB3VecEnv:
    """``SB3VecEnv`` over ``gymnasium.make_vec(env_id, num_envs, **options)`` in same-step mode.

    An id with a ``vector_entry_point`` that takes ``autoreset_mode``
    (every pokerzoo id: Poker Squares' own, the bot tables of a game of several players) gets
    its native vector env; others get a ``SyncVectorEnv``.
    ``seed`` seeds the first reset (env ``i``: ``seed + i``).
    """
    register_envs()  # the pokerzoo ids, whatever was imported before
    venv: gymnasium.vector.VectorEnv | None = None
    if gymnasium.spec(env_id).vector_entry_point is not None:
        try:
            venv = gymnasium.make_vec(
                env_id, num_envs=num_envs, autoreset_mode=AutoresetMode.SAME_STEP, **options
            )
        except TypeError:  # a native vector env without autoreset modes (CartPole's)
            venv = None
    if venv is None:
        venv = gymnasium.make_vec(
            env_id,
            num_envs=num_envs,
            vectorization_mode="sync",
            vector_kwargs={"autoreset_mode": AutoresetMode.SAME_STEP},
            **options,
        )
    adapter = SB3VecEnv(venv)
    if seed is not None:
        adapter.seed(seed)
    return adapter


class SB3VecEnv(VecEnv):
    """SB3 ``VecEnv`` over a Gymnasium vector env (see the module docstring).

    Args:
        venv: a Gymnasium vector env whose ``metadata["autoreset_mode"]`` is ``SameStep`` or
            ``Disabled`` and whose infos carry ``"action_mask"`` (or that has
            ``action_masks()``) if masks are wanted.
        info_keys: the vector env's info entries each env's dict holds (``None``: all of them;
            ``()``: none, only ``"terminal_observation"`` and ``"TimeLimit.truncated"`` where
            a game ended). The masks are read from the vector env's infos either way.
    """

    def __init__(
        self, venv: gymnasium.vector.VectorEnv, info_keys: Collection[str] | None = None
    ) -> None:
        if not isinstance(venv, gymnasium.vector.VectorEnv):
            raise TypeError(f"expected a gymnasium.vector.VectorEnv, got {type(venv).__name__}")
        mode = AutoresetMode(venv.metadata.get("autoreset_mode", AutoresetMode.NEXT_STEP))
        if mode == AutoresetMode.NEXT_STEP:
            raise ValueError(
                "bad autoreset_mode NextStep: SB3 needs the new game's observation in the step "
                "where a game ends; build the vector env with autoreset_mode='SameStep' (or "
                "'Disabled')"
            )
        self.venv = venv
        self.autoreset_mode = mode
        self.info_keys = None if info_keys is None else frozenset(info_keys)
        self._actions: np.ndarray | None = None
        self._masks: np.ndarray | None = None
        super().__init__(venv.num_envs, venv.single_observation_space, venv.single_action_space)

    # --- the VecEnv protocol ---------------------------------------------------------------------
    def reset(self) -> VecEnvObs:
        seeds: list[int | None] | None = list(self._seeds)
        if all(s is None for s in seeds):
            seeds = None
        options = next((o for o in self._options if o), None)
        obs, info = self.venv.reset(seed=seeds, options=dict(options) if options else None)
        self._masks = None
        self._update_masks(info, None)
        self.reset_infos = self._split_info(info, np.ones(self.num_envs, dtype=bool))
        self._reset_seeds()
        self._reset_options()
        return obs

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = np.asarray(actions)

    def step_wait(self) -> VecEnvStepReturn:
        if self._actions is None:
            raise RuntimeError("step_wait() without step_async(): nothing to step")
        actions, self._actions = self._actions, None
        obs, rewards, terminated, truncated, info = self.venv.step(actions)
        dones = np.logical_or(terminated, truncated)
        everyone = np.ones(self.num_envs, dtype=bool)
        if not dones.any():
            self._update_masks(info, None)
            return obs, rewards.astype(np.float32), dones, self._split_info(info, everyone)

        # As SB3's DummyVecEnv: an ended game's info is its last step's, with the terminal
        # observation; the new game's reset info goes to ``reset_infos``.
        infos = self._split_info(info, everyone)
        ended = np.flatnonzero(dones).tolist()
        if self.autoreset_mode == AutoresetMode.SAME_STEP:
            final_obs = info.get("final_obs")
            if final_obs is None:
                raise RuntimeError(
                    "the vector env ended a game without info['final_obs']: is it really in "
                    "SameStep autoreset mode?"
                )
            finals = self._split_info(info.get("final_info", {}), dones)
            self._update_masks(info, None)
            for i in ended:
                self.reset_infos[i], infos[i] = infos[i], finals[i]
        else:  # Disabled: the returned observation is the final one; deal the ended games now.
            final_obs = obs
            obs, reset_info = self.venv.reset(options={"reset_mask": dones})
            self._update_masks(info, None)
            self._update_masks(reset_info, dones)
            resets = self._split_info(reset_info, dones)
            for i in ended:
                self.reset_infos[i] = resets[i]
        for i in ended:
            infos[i]["terminal_observation"] = final_obs[i]
            infos[i]["TimeLimit.truncated"] = bool(truncated[i] and not terminated[i])
        return obs, rewards.astype(np.float32), dones, infos

    def close(self) -> None:
        self.venv.close()

    def action_masks(self) -> np.ndarray:
        """Legal actions of every env now, ``bool`` ``(num_envs, n_actions)``."""
        if self._masks is not None:
            return self._masks.copy()
        method = getattr(self.venv, MASK_METHOD, None)
        if callable(method):
            return np.asarray(method(), dtype=bool)
        if self._per_env("call"):
            return np.stack(self.venv.call(MASK_METHOD)).astype(bool)
        raise AttributeError(
            f"{type(self.venv).__name__} gives no action masks: neither info['{MASK_INFO}'] "
            f"nor an {MASK_METHOD}() method"
        )

    def _has_masks(self) -> bool:
        if self._masks is not None or callable(getattr(self.venv, MASK_METHOD, None)):
            return True
        if self._per_env("get_attr"):
            try:
                self.venv.get_attr(MASK_METHOD)
            except AttributeError:
                return False
            return True
        return False

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        rows = self._get_indices(indices)
        if attr_name == MASK_METHOD:
            if not self._has_masks():
                raise AttributeError(f"{type(self.venv).__name__} gives no action masks")
            return [self.action_masks for _ in rows]
        if self._per_env("get_attr"):
            values = self.venv.get_attr(attr_name)
            return [values[i] for i in rows]
        value = getattr(self.venv, attr_name)
        return [value for _ in rows]

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        rows = list(self._get_indices(indices))
        if self._per_env("set_attr"):
            if rows == list(range(self.num_envs)):
                self.venv.set_attr(attr_name, value)
            else:
                values = list(self.venv.get_attr(attr_name))
                for i in rows:
                    values[i] = value
                self.venv.set_attr(attr_name, values)
            return
        if sorted(rows) != list(range(self.num_envs)):
            raise ValueError(
                f"cannot set {attr_name!r} for envs {rows}: {type(self.venv).__name__} holds one "
                "value for all its games"
            )
        setattr(self.venv, attr_name, value)

    def env_method(
        self,
        method_name: str,
        *method_args: Any,
        indices: VecEnvIndices = None,
        **method_kwargs: Any,
    ) -> list[Any]:
        rows = self._get_indices(indices)
        if method_name == MASK_METHOD and not method_args and not method_kwargs:
            masks = self.action_masks()
            return list(masks) if indices is None else [masks[i] for i in rows]
        if self._per_env("call"):
            results = self.venv.call(method_name, *method_args, **method_kwargs)
            return [results[i] for i in rows]
        result = getattr(self.venv, method_name)(*method_args, **method_kwargs)
        return [result for _ in rows]

    def env_is_wrapped(
        self, wrapper_class: type[gymnasium.Wrapper], indices: VecEnvIndices = None
    ) -> list[bool]:
        rows = self._get_indices(indices)
        envs: Sequence[gymnasium.Env] | None = getattr(self.venv, "envs", None)
        if envs is None:
            return [False for _ in rows]
        return [is_wrapped(envs[i], wrapper_class) for i in rows]

    def get_images(self) -> Sequence[np.ndarray | None]:
        frames = self.venv.render()
        return list(frames) if frames is not None else [None] * self.num_envs

    # --- helpers ---------------------------------------------------------------------------------
    def _get_indices(self, indices: VecEnvIndices) -> Iterable[int]:
        if indices is None:
            return range(self.num_envs)
        if isinstance(indices, (int, np.integer)):
            return [int(indices)]
        return [int(i) for i in indices]

    def _per_env(self, method: str) -> bool:
        """Whether the vector env answers ``method`` per sub-env (Gymnasium Sync/Async)."""
        return callable(getattr(self.venv, method, None))

    def _update_masks(self, info: dict[str, Any], rows: np.ndarray | None) -> None:
        """Keep the latest masks from ``info``; ``rows`` (bool) limits which games changed."""
        masks = info.get(MASK_INFO)
        if masks is None:
            return
        masks = np.asarray(masks).astype(bool)
        valid = info.get("_" + MASK_INFO)
        if rows is not None:
            valid = rows if valid is None else np.logical_and(valid, rows)
        if self._masks is None or valid is None or np.all(valid):
            self._masks = masks
        else:
            self._masks[valid] = masks[valid]

    def _split_info(self, info: dict[str, Any], rows: np.ndarray) -> list[dict[str, Any]]:
        """Gymnasium's dict of arrays as SB3's list of dicts, for the games in ``rows`` (bool)."""
        out: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        if self.info_keys is not None and not self.info_keys:
            return out
        for key, value in info.items():
            if key.startswith("_") or key in ("final_obs", "final_info"):
                continue
            if self.info_keys is not None and key not in self.info_keys:
                continue
            valid = np.logical_and(info.get("_" + key, rows), rows)
            if isinstance(value, dict):
                for i, sub in enumerate(self._split_info(value, valid)):
                    if sub:
                        out[i][key] = sub
                continue
            if valid.all():
                for entry, item in zip(out, value, strict=True):
                    entry[key] = item
            else:
                for i in np.flatnonzero(valid).tolist():
                    out[i][key] = value[i]
        return out
