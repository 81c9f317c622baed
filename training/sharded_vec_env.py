"""The training tables split across worker processes: :class:`ShardedVecEnv`.

The vector env of bot tables (:mod:`pokerzoo.envs.core.seat_vector`) steps every table in one
process, its bots asked in one batch and the learner's features computed for the whole batch;
on a machine with more than one core the other cores wait. Config ``workers: K`` splits the
``n_envs`` tables into ``K`` consecutive shards, each a whole vector env of bot tables with its
features (an SB3 ``VecEnv``) in a forked worker process. A step sends every shard its tables'
actions at once, so the shards play their bots and compute their features side by side, and
gathers what they answer; the main process keeps the policy and PPO's updates.

Every table is the one the single-process vector env would build, seeded the same (table ``i``:
``seed + i``), and a table's bots and features do not depend on the tables beside it: the shards
give the same observations, rewards, ends and infos as one vector env of all the tables (tested).
The one difference: a learner's past snapshot answers for the tables of its own shard in one
forward pass, so its probabilities may round differently than in a forward pass over all the
tables.

CPUs: with ``cpus`` worker ``k`` is bound to CPU ``cpus[k % len(cpus)]`` (Linux's
``sched_setaffinity``, set in the worker before it builds its shard; the main process stays
where the OS puts it). :func:`worker_cpus` gives the training's choice (config
``pin_workers``). When the workers fill every core they are better bound: timed on 2 cores,
unbound, the second of stud's two shards started a step 0.9 ms after the first on average and
each shard stepped its 16 tables in 9.4-9.9 ms; bound, 0.01-0.05 ms apart and 8.5-8.8 ms, and
stud's default config trained 1.16-1.19x as fast in five of six benchmark runs, 1.02x in the
sixth (``benchmarks/training_throughput.py``). Binding changes where the work runs, not what it
computes. Bound, a step sends its actions to the workers on the other CPUs first and to the one
on the main process's own CPU (:func:`current_cpu`) last: waking that one, the main process
gave it its CPU before sending on (timed on Quintet's default: 1.5-1.9 ms a send to the worker
on its CPU, 0.06-0.12 ms to the other), so the other shard started its step that much later.

Masks travel with each step's answer (sb3-contrib's ``env_method("action_masks")`` costs no
round trip), and an action the masks forbid is refused before any shard steps: a refused step
changes no table (tables made with ``masked_action="random"`` refuse it too, where one vector
env of them would play a random legal action; MaskablePPO never picks one). An error inside a
worker comes back as the worker's exception with its traceback; one raised while the shards
deal or step leaves the env closed (the shards would be out of step), any other leaves it as it
was.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import traceback
from collections.abc import Callable, Sequence
from multiprocessing.connection import Connection
from typing import Any

import gymnasium
import numpy as np
from stable_baselines3.common.vec_env import VecEnv
from stable_baselines3.common.vec_env.base_vec_env import (
    CloudpickleWrapper,
    VecEnvIndices,
    VecEnvObs,
    VecEnvStepReturn,
)

from ..envs.core.errors import IllegalActionError
from .forking import freeze_inherited

__all__ = [
    "ShardedVecEnv",
    "current_cpu",
    "pack",
    "shard_sizes",
    "unpack",
    "usable_cpus",
    "worker_cpus",
]

MASK_METHOD = "action_masks"


def shard_sizes(num_envs: int, shards: int) -> list[int]:
    """How many of ``num_envs`` consecutive tables each of ``shards`` workers holds: as even as
    possible, the larger shards first."""
    if not 1 <= shards <= num_envs:
        raise ValueError(f"bad workers {shards}: expected 1 to {num_envs}, a table at least each")
    base, extra = divmod(num_envs, shards)
    return [base + (k < extra) for k in range(shards)]


def usable_cpus() -> list[int] | None:
    """The CPUs this process may run on, in order (``None`` where the platform cannot bind a
    process to CPUs: not Linux)."""
    getaffinity = getattr(os, "sched_getaffinity", None)
    if getaffinity is None or not hasattr(os, "sched_setaffinity"):
        return None
    return sorted(getaffinity(0))


def _cpu_reader() -> Callable[[], int] | None:
    try:
        return ctypes.CDLL(None).sched_getcpu  # glibc's; a few hundred nanoseconds a call
    except (AttributeError, OSError, TypeError):  # no such C function, or no C library to load
        return None


_SCHED_GETCPU = _cpu_reader()


def current_cpu() -> int | None:
    """The CPU this process runs on now (``None`` where the C library cannot say)."""
    if _SCHED_GETCPU is None:
        return None
    cpu = int(_SCHED_GETCPU())
    return cpu if cpu >= 0 else None


def worker_cpus(workers: int, pin: bool | str) -> list[int] | None:
    """The CPUs to bind ``workers`` shards to (``ShardedVecEnv``'s ``cpus``), or ``None`` to
    leave them to the OS. ``pin``: ``True`` binds worker ``k`` to the ``k``-th usable CPU
    (round robin), ``False`` never binds, ``"auto"`` binds only when the workers fill every
    usable CPU evenly (their count a multiple of the CPUs'): on a machine with cores to spare
    the OS finds an idle one for each, and concurrent runs would crowd the same CPUs if bound;
    with more workers than CPUs, round robin would leave some CPUs more shards than others
    at every step, where the OS can even them out."""
    if pin not in (True, False, "auto"):
        raise ValueError(f"bad pin {pin!r}: expected True, False or 'auto'")
    cpus = usable_cpus()
    if pin is False or cpus is None or (pin == "auto" and workers % len(cpus) != 0):
        return None
    return cpus


Packed = tuple[int, list[tuple[str, list[int] | None, Any]]]
"""A list of info dicts as it crosses the pipe (:func:`pack`)."""


def pack(infos: Sequence[dict[str, Any]]) -> Packed:
    """``infos`` (one dict per env) by key: an array value that every env has, of one shape
    and dtype, stacked into one array (``rows`` ``None``), any other kept per env with the rows
    that have it. A step's infos hold a dozen small arrays per env: one pickled array per key
    instead of one per env and key (and only the ended tables' reset infos) takes a 16-table
    stud shard's answer, packed, pickled and read back, from 3.9 ms to 1.5 ms."""
    columns: dict[str, list[tuple[int, Any]]] = {}
    for row, info in enumerate(infos):
        for key, value in info.items():
            columns.setdefault(key, []).append((row, value))
    packed = []
    for key, entries in columns.items():
        values = [value for _, value in entries]
        first = values[0]
        if (
            len(entries) == len(infos)
            and isinstance(first, (np.ndarray, np.generic))
            and all(
                type(value) is type(first)
                and value.shape == first.shape
                and value.dtype == first.dtype
                for value in values
            )
        ):
            packed.append((key, None, np.array(values)))  # np.stack's array, faster
        else:
            packed.append((key, [row for row, _ in entries], values))
    return len(infos), packed


def unpack(packed: Packed) -> list[dict[str, Any]]:
    """The info dicts :func:`pack` packed (a stacked array's rows as views of it)."""
    size, columns = packed
    infos: list[dict[str, Any]] = [{} for _ in range(size)]
    for key, rows, values in columns:
        if rows is None:
            for info, value in zip(infos, values, strict=True):
                info[key] = value
        else:
            for row, value in zip(rows, values, strict=True):
                infos[row][key] = value
    return infos


def _masks(venv: VecEnv) -> np.ndarray:
    return np.stack(venv.env_method(MASK_METHOD)).astype(bool)


def _serve(
    remote: Connection, parent: Connection, factory: CloudpickleWrapper, cpu: int | None
) -> None:
    """A worker's loop: bind it to ``cpu`` (if any), build the shard, keep what it holds then
    out of its garbage collections (:func:`~.forking.freeze_inherited`), then answer the main
    process's commands; an error is sent back (the main process raises it) and the worker waits
    for the next command."""
    parent.close()
    venv: VecEnv | None = None
    try:
        try:
            if cpu is not None:
                os.sched_setaffinity(0, {cpu})
            venv = factory.var()
            freeze_inherited()
        except Exception as error:
            _send_error(remote, error)
            return
        remote.send(("ok", (venv.num_envs, venv.observation_space, venv.action_space)))
        while True:
            command, data = remote.recv()
            if command == "close":
                venv.close()
                remote.send(("ok", None))
                return
            try:
                answer = _answer(venv, command, data)
            except Exception as error:
                _send_error(remote, error)
            else:
                remote.send(("ok", answer))
    except (EOFError, KeyboardInterrupt):
        return
    finally:
        remote.close()


def _send_error(remote: Connection, error: Exception) -> None:
    trace = traceback.format_exc()
    try:
        remote.send(("error", (error, trace)))
    except Exception:  # an exception that does not pickle: its text
        remote.send(("error", (RuntimeError(repr(error)), trace)))


def _answer(venv: VecEnv, command: str, data: Any) -> Any:
    if command == "step":
        venv.step_async(data)
        observations, rewards, dones, infos = venv.step_wait()
        ended = np.flatnonzero(dones).tolist()
        resets = [venv.unwrapped.reset_infos[i] for i in ended]
        return observations, rewards, dones, pack(infos), (ended, pack(resets)), _masks(venv)
    if command == "reset":
        seed, options = data
        if seed is not None:
            venv.seed(seed)
        if options:
            venv.set_options(options)
        observations = venv.reset()
        return observations, pack(venv.unwrapped.reset_infos), _masks(venv)
    if command == "env_method":
        name, args, kwargs, rows = data
        return venv.env_method(name, *args, indices=rows, **kwargs)
    if command == "get_attr":
        name, rows = data
        return venv.get_attr(name, rows)
    if command == "set_attr":
        name, value, rows = data
        return venv.set_attr(name, value, rows)
    if command == "env_is_wrapped":
        wrapper, rows = data
        return venv.env_is_wrapped(wrapper, rows)
    if command == "get_images":
        return venv.get_images()
    raise ValueError(f"bad command {command!r}")


class ShardedVecEnv(VecEnv):
    """An SB3 ``VecEnv`` of shards, each an SB3 ``VecEnv`` built by one of ``factories`` in a
    worker process of its own (module docstring); env ``i`` is the ``i``-th env of the shards
    in order.

    Args:
        factories: builds one shard each, in the worker (set its torch threads there).
        start_method: ``multiprocessing``'s (``"fork"``, ``"forkserver"``, ``"spawn"``);
            ``None``: fork where the platform has it (workers start in well under a second).
        cpus: worker ``k`` runs on CPU ``cpus[k % len(cpus)]`` (module docstring; Linux only);
            ``None``: wherever the OS puts it.
    """

    def __init__(
        self,
        factories: Sequence[Callable[[], VecEnv]],
        start_method: str | None = None,
        cpus: Sequence[int] | None = None,
    ) -> None:
        if not factories:
            raise ValueError("bad factories []: expected one shard at least")
        if cpus is not None:
            usable = usable_cpus()
            if usable is None:
                raise ValueError(
                    f"bad cpus {list(cpus)!r}: this platform cannot bind a process to CPUs "
                    "(expected None)"
                )
            if not cpus or any(cpu not in usable for cpu in cpus):
                raise ValueError(
                    f"bad cpus {list(cpus)!r}: expected some of the CPUs this process may run "
                    f"on, {usable}"
                )
        if start_method is None:
            methods = multiprocessing.get_all_start_methods()
            start_method = "fork" if "fork" in methods else methods[0]
        context = multiprocessing.get_context(start_method)
        self._remotes: list[Connection] = []
        self._processes: list[Any] = []
        self._cpus: list[int | None] = []
        """The CPU each worker is bound to (``None``: unbound)."""
        self._closed = False
        for k, factory in enumerate(factories):
            remote, child = context.Pipe()
            cpu = None if cpus is None else int(cpus[k % len(cpus)])
            self._cpus.append(cpu)
            process = context.Process(
                target=_serve, args=(child, remote, CloudpickleWrapper(factory), cpu), daemon=True
            )
            process.start()
            child.close()
            self._remotes.append(remote)
            self._processes.append(process)
        self._bound = any(cpu is not None for cpu in self._cpus)
        spaces = self._gather(range(len(factories)), fatal=True)
        sizes = [size for size, _, _ in spaces]
        self._starts = np.cumsum([0, *sizes]).tolist()
        _, observation_space, action_space = spaces[0]
        for k, (_, observations, actions) in enumerate(spaces):
            if observations != observation_space or actions != action_space:
                self.close()
                raise ValueError(
                    f"shard {k} has spaces {observations}, {actions}; shard 0 has "
                    f"{observation_space}, {action_space}: every shard needs the same spaces"
                )
        super().__init__(sum(sizes), observation_space, action_space)
        self._masks: np.ndarray | None = None
        self._stepping = False

    @property
    def shards(self) -> int:
        """How many worker processes hold the envs."""
        return len(self._remotes)

    # --- the VecEnv protocol ---------------------------------------------------------------------
    def reset(self) -> VecEnvObs:
        for k, remote in enumerate(self._remotes):
            rows = self._rows(k)
            seed = self._seeds[rows.start] if self._seeds[rows.start] is not None else None
            remote.send(("reset", (seed, self._options[rows])))
        answers = self._gather(range(self.shards), fatal=True)
        self.reset_infos = [info for _, infos, _ in answers for info in unpack(infos)]
        self._masks = np.concatenate([masks for _, _, masks in answers])
        self._reset_seeds()
        self._reset_options()
        return np.concatenate([observations for observations, _, _ in answers])

    def step_async(self, actions: np.ndarray) -> None:
        actions = np.asarray(actions)
        if actions.shape[:1] != (self.num_envs,):
            raise ValueError(
                f"bad actions of shape {actions.shape}: expected one per env ({self.num_envs},)"
            )
        if self._masks is None:
            raise RuntimeError("step_async() before reset(): deal the tables first")
        if isinstance(self.action_space, gymnasium.spaces.Discrete):
            valid = (actions >= 0) & (actions < self._masks.shape[1])
            legal = valid.copy()
            legal[valid] = self._masks[np.flatnonzero(valid), actions[valid]]
            if not legal.all():
                i = int(np.flatnonzero(~legal)[0])
                raise IllegalActionError(
                    f"bad action {actions[i]} for env {i}: expected one of its legal actions "
                    f"{np.flatnonzero(self._masks[i]).tolist()}"
                )
        for k in self._send_order():
            self._remotes[k].send(("step", actions[self._rows(k)]))
        self._stepping = True

    def step_wait(self) -> VecEnvStepReturn:
        if not self._stepping:
            raise RuntimeError("step_wait() without step_async(): nothing to step")
        self._stepping = False
        answers = self._gather(range(self.shards), fatal=True)
        observations, rewards, dones, infos, resets, masks = zip(*answers, strict=True)
        for k, (ended, packed) in enumerate(resets):
            for row, info in zip(ended, unpack(packed), strict=True):
                self.reset_infos[self._starts[k] + row] = info
        self._masks = np.concatenate(masks)
        return (
            np.concatenate(observations),
            np.concatenate(rewards),
            np.concatenate(dones),
            [info for part in infos for info in unpack(part)],
        )

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        for remote, process in zip(self._remotes, self._processes, strict=True):
            try:
                if process.is_alive():
                    remote.send(("close", None))
                    remote.recv()
            except (EOFError, BrokenPipeError, OSError):
                pass
            process.join(timeout=5)
            if process.is_alive():
                process.terminate()
            remote.close()

    def action_masks(self) -> np.ndarray:
        """Legal actions of every env now, ``bool (num_envs, n_actions)``."""
        if self._masks is None:
            raise RuntimeError("action_masks() before reset(): deal the tables first")
        return self._masks.copy()

    def env_method(
        self,
        method_name: str,
        *method_args: Any,
        indices: VecEnvIndices = None,
        **method_kwargs: Any,
    ) -> list[Any]:
        if method_name == MASK_METHOD and not method_args and not method_kwargs:
            masks = self.action_masks()
            return [masks[i] for i in self._get_indices(indices)]
        return self._per_shard(
            indices, lambda rows: ("env_method", (method_name, method_args, method_kwargs, rows))
        )

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        if attr_name == MASK_METHOD:
            return [self.action_masks for _ in self._get_indices(indices)]
        return self._per_shard(indices, lambda rows: ("get_attr", (attr_name, rows)))

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        self._per_shard(indices, lambda rows: ("set_attr", (attr_name, value, rows)))

    def env_is_wrapped(
        self, wrapper_class: type[gymnasium.Wrapper], indices: VecEnvIndices = None
    ) -> list[bool]:
        return self._per_shard(indices, lambda rows: ("env_is_wrapped", (wrapper_class, rows)))

    def get_images(self) -> Sequence[np.ndarray | None]:
        for remote in self._remotes:
            remote.send(("get_images", None))
        return [image for part in self._gather(range(self.shards)) for image in part]

    # --- helpers ---------------------------------------------------------------------------------
    def _send_order(self) -> list[int]:
        """The workers in the order a step sends to them: the one bound to the main process's
        own CPU last (module docstring), the others in order."""
        order = list(range(len(self._remotes)))
        here = current_cpu() if self._bound else None
        if here is None:
            return order
        return sorted(order, key=lambda k: self._cpus[k] == here)

    def _rows(self, k: int) -> slice:
        return slice(self._starts[k], self._starts[k + 1])

    def _per_shard(self, indices: VecEnvIndices, command: Callable[[list[int]], Any]) -> list[Any]:
        """Send ``command(local rows)`` to each shard holding some of ``indices``; the answers
        (one per index) in the order of ``indices``."""
        wanted = list(self._get_indices(indices))
        for i in wanted:
            if not 0 <= i < self.num_envs:
                raise IndexError(f"bad env index {i}: expected 0 to {self.num_envs - 1}")
        asked = []
        for k, remote in enumerate(self._remotes):
            start, stop = self._starts[k], self._starts[k + 1]
            rows = sorted({i - start for i in wanted if start <= i < stop})
            if rows:
                remote.send(command(rows))
                asked.append((k, start, rows))
        found: dict[int, Any] = {}
        answers = self._gather([k for k, _, _ in asked])
        for (_, start, rows), answer in zip(asked, answers, strict=True):
            for row, value in zip(rows, answer or [None] * len(rows), strict=True):
                found[start + row] = value
        return [found[i] for i in wanted]

    def _gather(self, shards: Sequence[int], fatal: bool = False) -> list[Any]:
        """The answers of ``shards`` (each sent one command), every one read before the first
        error is raised, after closing the env where ``fatal`` (an error while the shards deal
        or step leaves them out of step with one another)."""
        answers, failed = [], None
        for k in shards:
            try:
                status, data = self._remotes[k].recv()
            except EOFError:
                self.close()
                raise RuntimeError(f"worker {k} of the sharded vector env died") from None
            if status == "error" and failed is None:
                failed = (k, *data)
            answers.append(data)
        if failed is not None:
            k, error, trace = failed
            if fatal:
                self.close()
            raise error from RuntimeError(f"in worker {k} of the sharded vector env:\n{trace}")
        return answers

    def _get_indices(self, indices: VecEnvIndices) -> list[int]:
        if indices is None:
            return list(range(self.num_envs))
        if isinstance(indices, (int, np.integer)):
            return [int(indices)]
        return [int(i) for i in indices]
