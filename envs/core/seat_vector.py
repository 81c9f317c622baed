"""Many tables of a multi-player game as one Gymnasium vector env: one learner seat a table.

:class:`SeatVectorEnv` steps ``num_envs`` single-seat tables (:class:`~.single_seat.SingleSeatEnv`,
each one seat of its own AEC env, the other seats played by bots) together: a step plays every
table's learner action, then the bots of every table until each learner is to act again, asking
all the bots that are to act at the same moment in one :func:`~.bots.act_batch` call (a
Monte-Carlo bot evaluates the samples of all its tables at once). The rules run in each table's
own engine, so a table plays exactly the game its single env plays: sub-env ``i`` of a vector
env reset with ``seed=s`` replays the single env reset with ``seed=s + i`` (the same deals,
seats, bots, observations, masks and rewards; tested). Each game's Gymnasium id names it as its
``vector_entry_point`` (:class:`~.registry.SeatVectorEntry`):
``gymnasium.make_vec("pokerzoo/DrawPoker-v0", num_envs=8, opponent="equity")`` builds eight
tables of the id's single env with those options.

Spaces
------
``single_observation_space`` and ``single_action_space`` are the single env's (every table must
have the same); ``observation_space`` stacks ``num_envs`` rows, ``action_space`` is
``MultiDiscrete([actions] * num_envs)``. A masked action raises
:class:`~.errors.IllegalActionError` naming the env index, the action and the legal ones, before
any table moves (nothing changes), unless the table was made with ``masked_action="random"``
(it plays a random legal action instead); a table's action is ignored while it is being
auto-reset.

Rewards, terminations, truncations
----------------------------------
Each table's, as its single env returns them (``float64``, ``bool``), shape ``(num_envs,)``.

Info
----
Gymnasium's vector convention: each key of the single env's info (``info_schema``: one schema,
the same keys at every step) holds one row per table, ``info["_" + key]`` (``bool``,
``(num_envs,)``) says which rows are valid, here all of them. ``info["action_mask"]`` and
:meth:`SeatVectorEnv.action_masks` hold the learners' masks.

Autoreset
---------
``autoreset_mode`` as in Gymnasium 1.x: ``"NextStep"`` (default: a table that ended is dealt
again by the next ``step``, whose action for it is ignored), ``"SameStep"`` (dealt again at once;
``info["final_obs"]`` and ``info["final_info"]`` hold the ended game's, valid where
``info["_final_obs"]``) or ``"Disabled"`` (stepping an ended table raises
:class:`~.errors.GameOverError`; ``reset(options={"reset_mask": mask})`` deals the chosen
tables again).

Seeding
-------
``reset(seed=s)`` seeds table ``i`` with ``s + i`` (a list gives one seed per table; ``None``
draws fresh entropy for each); a table's later deals, auto-resets included, continue its own
generator, exactly as its single env's do. Other reset options (``"cards"``) go to every table
dealt.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from .errors import GameOverError, IllegalActionError
from .turns import play_batched, reset_turns, step_turns
from .vector import VECTOR_METADATA, check_autoreset_mode, reset_rows, vector_seeds

__all__ = ["SeatVectorEnv"]


class SeatVectorEnv(VectorEnv):
    """``num_envs`` single-seat tables stepped together, their bots batched (module docstring).

    Args:
        tables: the tables, one per sub-env, all with the same spaces:
            :class:`~.single_seat.SingleSeatEnv` (its bots batched across tables), or any
            Gymnasium env with an ``info["action_mask"]`` (a wrapper, such as an action
            formulation's, whose bots play inside its own ``step``).
        autoreset_mode: ``"NextStep"``, ``"SameStep"`` or ``"Disabled"``.
    """

    metadata: dict[str, Any] = dict(VECTOR_METADATA)

    def __init__(
        self,
        tables: Sequence[Any],
        *,
        autoreset_mode: str | AutoresetMode = AutoresetMode.NEXT_STEP,
    ) -> None:
        if not tables:
            raise ValueError("bad tables []: expected at least one table")
        mode = check_autoreset_mode(autoreset_mode)
        first = tables[0]
        for i, table in enumerate(tables):
            if (
                table.observation_space != first.observation_space
                or table.action_space != first.action_space
            ):
                raise ValueError(
                    f"table {i} has spaces {table.observation_space}, {table.action_space}; "
                    f"table 0 has {first.observation_space}, {first.action_space}: a vector env "
                    "needs the same spaces at every table"
                )
        self.tables = list(tables)
        n = self.num_envs = len(self.tables)
        self.autoreset_mode = mode
        self.render_mode = getattr(first, "render_mode", None)
        self.metadata = {**type(self).metadata, "autoreset_mode": mode}
        self.single_observation_space = first.observation_space
        self.single_action_space = first.action_space
        self.observation_space = batch_space(self.single_observation_space, n)
        self.action_space = batch_space(self.single_action_space, n)
        self.info_schema = getattr(first, "info_schema", None)
        """The keys of each table's info (the single env's :attr:`info_schema`)."""
        self._dealt = False  # reset() has dealt every table
        self._replaces = [
            getattr(getattr(table.unwrapped, "aec", None), "masked_action", "raise") == "random"
            for table in self.tables
        ]
        """Tables made with ``masked_action="random"``: they replace a masked action."""
        self._ended = np.zeros(n, dtype=bool)  # the tables whose game ended at the last step
        self._observations = np.zeros(self.observation_space.shape, self.observation_space.dtype)
        self._masks = np.zeros((n, int(self.single_action_space.n)), dtype=np.int8)
        self._infos: list[dict[str, Any]] = [{} for _ in range(n)]

    # --- Gymnasium API ---------------------------------------------------------------------------
    def reset(
        self,
        *,
        seed: int | Sequence[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Deal every table, or those of ``options["reset_mask"]`` (a ``bool`` array); the
        other options go to each table's reset. Table ``i`` is seeded ``seed + i`` (module
        docstring)."""
        n = self.num_envs
        options = dict(options or {})
        rows = reset_rows(options.pop("reset_mask", None), n, self._dealt, "table").tolist()
        seeds = vector_seeds(seed, n)
        if seed is not None and not isinstance(seed, (list, tuple, np.ndarray)):
            super().reset(seed=int(seed))
        dealt = play_batched([reset_turns(self.tables[i], seeds[i], options or None) for i in rows])
        for i, (observation, info) in zip(rows, dealt, strict=True):
            self._take(i, observation, info)
            self._ended[i] = False
        self._dealt = True
        return self._observations.copy(), self._stacked(self._infos)

    def step(
        self, actions: np.ndarray | Sequence[int]
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Play every table's action, then its bots until its learner is to act again (module
        docstring for autoreset)."""
        if not self._dealt:
            raise GameOverError("call reset() before step()")
        n = self.num_envs
        actions = self._check_shape(actions)
        restart = self._ended.copy()
        if restart.any() and self.autoreset_mode == AutoresetMode.DISABLED:
            first = int(np.flatnonzero(restart)[0])
            raise GameOverError(
                f"table {first} is over: reset it with reset(options={{'reset_mask': ...}})"
            )
        playing = np.flatnonzero(~restart).tolist()
        for i in playing:  # every action is checked before any table moves
            action = int(actions[i])
            if self._replaces[i] and 0 <= action < self._masks.shape[1]:
                continue  # the table plays a random legal action instead (masked_action)
            if not 0 <= action < self._masks.shape[1] or not self._masks[i, action]:
                legal = np.flatnonzero(self._masks[i]).tolist()
                raise IllegalActionError(
                    f"illegal action {action} for env {i}: expected one of {legal}"
                )
        rewards = np.zeros(n, dtype=np.float64)
        terminated = np.zeros(n, dtype=bool)
        truncated = np.zeros(n, dtype=bool)
        moved = play_batched([step_turns(self.tables[i], int(actions[i])) for i in playing])
        for i, (observation, reward, term, trunc, info) in zip(playing, moved, strict=True):
            self._take(i, observation, info)
            rewards[i], terminated[i], truncated[i] = reward, term, trunc
        if restart.any():  # "NextStep": the tables that ended last step are dealt again
            self._redeal(np.flatnonzero(restart).tolist())
        ended = terminated | truncated
        self._ended = ended.copy()
        info: dict[str, Any] = {}
        if ended.any() and self.autoreset_mode == AutoresetMode.SAME_STEP:
            rows = np.flatnonzero(ended).tolist()
            info["final_obs"] = self._observations.copy()
            info["_final_obs"] = ended.copy()
            info["final_info"] = self._stacked(self._infos, valid=ended)
            info["_final_info"] = ended.copy()
            self._redeal(rows)
            self._ended[:] = False
        info.update(self._stacked(self._infos))
        return self._observations.copy(), rewards, terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        """The learners' legal actions, ``bool`` ``(num_envs, actions)`` (sb3-contrib's hook)."""
        return self._masks.astype(bool)

    def render(self) -> tuple[Any, ...] | None:
        """Each table's render (``"ansi"``: one text per table; ``"human"`` prints them)."""
        if self.render_mode is None:
            return None
        frames = tuple(table.render() for table in self.tables)
        return None if self.render_mode == "human" else frames

    def call(self, name: str, *args: Any, **kwargs: Any) -> tuple[Any, ...]:
        """Each table's ``name(*args, **kwargs)`` (a method), or its attribute ``name``, as
        Gymnasium's ``SyncVectorEnv.call`` (e.g. the opponent pool's ``add_snapshot``): found
        through the table's wrappers (``get_wrapper_attr``) as there."""
        results = []
        for table in self.tables:
            value = _wrapper_attr(table, name)
            results.append(value(*args, **kwargs) if callable(value) else value)
        return tuple(results)

    def get_attr(self, name: str) -> tuple[Any, ...]:
        """Each table's attribute ``name`` (found through its wrappers, as :meth:`call`)."""
        return tuple(_wrapper_attr(table, name) for table in self.tables)

    def set_attr(self, name: str, values: Any) -> None:
        """Set each table's attribute ``name``: one value per table (a list or tuple), or the
        same value for all."""
        if not isinstance(values, (list, tuple)):
            values = [values] * self.num_envs
        if len(values) != self.num_envs:
            raise ValueError(
                f"bad values for {name!r}: {len(values)} values for {self.num_envs} tables"
            )
        for table, value in zip(self.tables, values, strict=True):
            setattr(table, name, value)

    def close_extras(self, **kwargs: Any) -> None:
        for table in self.tables:
            table.close()

    # --- internals -------------------------------------------------------------------------------
    def _redeal(self, rows: list[int]) -> None:
        """Deal tables ``rows`` again from their own generators."""
        dealt = play_batched([reset_turns(self.tables[i]) for i in rows])
        for i, (observation, info) in zip(rows, dealt, strict=True):
            self._take(i, observation, info)

    def _take(self, i: int, observation: np.ndarray, info: dict[str, Any]) -> None:
        self._observations[i] = observation
        self._masks[i] = info["action_mask"]
        self._infos[i] = info

    def _stacked(
        self, infos: list[dict[str, Any]], valid: np.ndarray | None = None
    ) -> dict[str, Any]:
        """The tables' infos as Gymnasium's vector infos: a row per table for each key, and
        ``_key`` the rows that hold one (``valid``; every row when ``None``)."""
        rows = np.ones(self.num_envs, dtype=bool) if valid is None else valid
        out: dict[str, Any] = {}
        for key in infos[0]:
            # np.array of the tables' values: what np.stack gives them (one shape a key, the
            # same dtype at every table), in a tenth of the time for a numpy scalar a table
            out[key] = np.array([info[key] for info in infos])
            out["_" + key] = rows.copy()
        return out

    def _check_shape(self, actions: np.ndarray | Sequence[int]) -> np.ndarray:
        a = np.asarray(actions)
        if a.shape != (self.num_envs,) or not np.issubdtype(a.dtype, np.integer):
            raise IllegalActionError(
                f"bad actions {actions!r}: expected {self.num_envs} int actions, one per table"
            )
        return a


def _wrapper_attr(table: Any, name: str) -> Any:
    """``table``'s attribute ``name``, looked up through its Gymnasium wrappers where it has
    them (a formulation's wrapper over the bot table: the pool's ``add_snapshot`` lies below)."""
    lookup = getattr(table, "get_wrapper_attr", None)
    return lookup(name) if lookup is not None else getattr(table, name)
