"""Deals played in forked worker processes: :func:`fork_map` runs a function over chunks of
consecutive deals in ``processes`` workers and returns the results in order.

The function reaches the workers by fork, never pickled (a trained model, a closure over it), so
it needs the ``fork`` start method; where the platform has none the chunks are played here, with
a warning. Each worker runs torch on one thread (:func:`one_torch_thread`). Whatever plays a
chunk must depend on its deals' seeds only, so that the results do not depend on the number of
processes.
"""

from __future__ import annotations

import multiprocessing
import os
import sys
import warnings
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any, TypeVar

__all__ = [
    "CHUNKS_PER_PROCESS",
    "deal_chunks",
    "default_processes",
    "fork_map",
    "one_torch_thread",
    "torch_threads",
]

T = TypeVar("T")
R = TypeVar("R")

CHUNKS_PER_PROCESS = 8
"""Deal chunks per worker: deals vary in length (a search bot's, a long hand's), so each worker
takes several smaller chunks in turn rather than one long one, and the last chunks to finish
leave the other workers less idle time (a draw poker evaluation of 1,000 deals against four
bots: 19.6 s in 4 chunks a worker, 18.8 s in 8, on 2 cores)."""

_FORKED: Callable[[Any], Any] | None = None
"""The function the forked workers run (inherited, never pickled)."""


def torch_threads(threads: int) -> None:
    """torch's intra-op thread count in this process, without importing torch: set now where
    torch is loaded, else through ``OMP_NUM_THREADS``, which torch reads when it is (the commands
    import it only when a run's model plays). On a busy core a second thread costs far more than
    it brings to the small batches the policies play (docs/training.md, Threads)."""
    torch = sys.modules.get("torch")
    if torch is not None:
        torch.set_num_threads(threads)
    else:
        os.environ["OMP_NUM_THREADS"] = str(threads)


def one_torch_thread() -> None:
    """Worker initializer: one torch thread per worker process, so the workers do not fight
    each other for the cores."""
    torch_threads(1)


def default_processes() -> int:
    """Worker processes for deals when the user names none: the cores this process may run on
    where the platform can fork workers, else 1 (the results are the same for any count)."""
    if "fork" not in multiprocessing.get_all_start_methods():
        return 1
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return os.cpu_count() or 1


def deal_chunks(first: int, deals: int, processes: int) -> list[tuple[int, int]]:
    """``deals`` consecutive deals from seed ``first`` as ``(first seed, count)`` chunks, about
    :data:`CHUNKS_PER_PROCESS` per process."""
    size = -(-deals // min(deals, processes * CHUNKS_PER_PROCESS))
    return [(first + start, min(size, deals - start)) for start in range(0, deals, size)]


def _call(chunk: Any) -> Any:
    if _FORKED is None:
        raise RuntimeError("a forked worker of fork_map runs this")
    return _FORKED(chunk)


def fork_map(function: Callable[[T], R], chunks: Sequence[T], processes: int) -> list[R]:
    """``[function(chunk) for chunk in chunks]``, the chunks shared among ``processes`` forked
    workers (module docstring); one process, or no fork on this platform: played here."""
    global _FORKED
    if processes > 1 and "fork" not in multiprocessing.get_all_start_methods():
        warnings.warn(
            f"processes={processes}: this platform cannot fork worker processes; "
            "playing the deals in one process",
            RuntimeWarning,
            stacklevel=3,
        )
        processes = 1
    if processes == 1 or len(chunks) < 2:
        return [function(chunk) for chunk in chunks]
    _FORKED = function
    try:
        with ProcessPoolExecutor(
            min(processes, len(chunks)),
            mp_context=multiprocessing.get_context("fork"),
            initializer=one_torch_thread,
        ) as pool:
            return list(pool.map(_call, chunks))
    finally:
        _FORKED = None
