"""Deals played in forked worker processes: :func:`fork_map` runs a function over chunks of
consecutive deals in ``processes`` workers and returns the results in order.

The function reaches the workers by fork, never pickled (a trained model, a closure over it), so
it needs the ``fork`` start method; where the platform has none the chunks are played here, with
a warning. Each worker runs torch on one thread and keeps what it inherited out of its garbage
collections (:func:`set_up_worker`). Whatever plays a chunk must depend on its deals' seeds
only, so that the results do not depend on the number of processes.
"""

from __future__ import annotations

import gc
import multiprocessing
import os
import sys
import warnings
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from typing import Any, TypeVar

__all__ = [
    "blas_threads",
    "CHUNKS_PER_PROCESS",
    "CHUNK_GAMES",
    "collections_spared",
    "deal_chunks",
    "default_processes",
    "fork_map",
    "freeze_inherited",
    "one_torch_thread",
    "set_up_worker",
    "torch_threads",
]

T = TypeVar("T")
R = TypeVar("R")

CHUNKS_PER_PROCESS = 8
"""Deal chunks per worker: deals vary in length (a search bot's, a long hand's), so each worker
takes several smaller chunks in turn rather than one long one, and the last chunks to finish
leave the other workers less idle time (a draw poker evaluation of 1,000 deals against four
bots: 19.6 s in 4 chunks a worker, 18.8 s in 8, on 2 cores)."""
CHUNK_GAMES = 16
"""Games a chunk of an evaluation should hold at least (its deals times the table's seats, one
game per seat of the agent), where the deals allow a chunk per process: poker without a name,
10 deals against the montecarlo table in 2 processes, took 32-34 s in 10 chunks of 1 deal (4
games in flight, 64 s of CPU) and 28 s in 2 chunks of 5 (53 s of CPU)."""

_FORKED: Callable[[Any], Any] | None = None
"""The function the forked workers run (inherited, never pickled)."""


def torch_threads(threads: int) -> None:
    """torch's intra-op thread count in this process, without importing torch: set now where
    torch is loaded, else through ``OMP_NUM_THREADS``, which torch reads when it is (the commands
    import it only when a run's model plays); numpy's BLAS threads too (:func:`blas_threads`).
    On a busy core a second thread costs far more than it brings to the small batches the
    policies play (docs/training.md, Threads)."""
    torch = sys.modules.get("torch")
    if torch is not None:
        torch.set_num_threads(threads)
    else:
        os.environ["OMP_NUM_THREADS"] = str(threads)
    blas_threads(threads)


_BLAS_THREADS: int | None = None
"""The BLAS thread count :func:`blas_threads` last set in this process (inherited by a fork)."""


def blas_threads(threads: int) -> None:
    """numpy's BLAS thread count in this process (OpenBLAS in numpy's wheels), through
    threadpoolctl where it is installed (the ``train`` extra), once per count. numpy's default
    is one thread per core, and a BLAS thread waits for work by spinning: in the forked
    workers of an evaluation or of the training tables, two processes on 2 cores, the products
    of :mod:`pokerzoo.training.numpy_actor` made a stud evaluation (500 deals, five bots) take
    10.3-11.1 s against 7.2-8.3 s on one thread."""
    global _BLAS_THREADS
    if threads == _BLAS_THREADS:
        return
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:  # a core install: numpy's products here are not in a hot path
        return
    threadpool_limits(limits=threads, user_api="blas")
    _BLAS_THREADS = threads


def one_torch_thread() -> None:
    """One torch thread in this process, so that worker processes do not fight each other for
    the cores."""
    torch_threads(1)


def set_up_worker() -> None:
    """:func:`fork_map`'s worker initializer: one torch thread (:func:`one_torch_thread`), and
    what the worker inherited kept out of its garbage collections (:func:`freeze_inherited`)."""
    one_torch_thread()
    freeze_inherited()


def freeze_inherited() -> None:
    """Keep every object this process holds now out of its later garbage collections
    (:func:`gc.freeze`). Called in each worker process once it is set up (:func:`fork_map`'s,
    the training shards' of :mod:`~pokerzoo.training.sharded_vec_env`), on what it inherited
    and built: the cards, hands and play-outs a worker makes by the million set the collector
    off thousands of times, and each full pass walked every object the worker was forked with
    (torch's, the model's) again. In a worker of a poker without a name evaluation (10 deals
    against the montecarlo table, 2 processes) the full passes took 1.5 s of its 24.4 s of CPU
    before, 0.14 s of 23.0 after; its training ran at 545 env steps/s against 505
    (``benchmarks/training_throughput.py``, medians of 3 in one run; the other games' within
    the noise). Frozen objects are used and freed as before; only a reference cycle among them
    is no longer reclaimed while the worker runs."""
    gc.freeze()


@contextmanager
def collections_spared() -> Iterator[None]:
    """Within the block, the objects this process held when it began (torch's, the model's)
    kept out of the garbage collector's passes, as a worker keeps what it inherited
    (:func:`freeze_inherited`); put back with the others after it (:func:`gc.unfreeze`). Where
    something was frozen already (a worker), the block changes nothing. A poker without a name
    evaluation in one process (10 deals against the montecarlo table, ``--processes 1``, numba
    installed) took 19.8 s against 20.9 without (means of four runs, taking turns)."""
    if gc.get_freeze_count():
        yield
        return
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


def default_processes() -> int:
    """Worker processes for deals when the user names none: the cores this process may run on
    where the platform can fork workers, else 1 (the results are the same for any count)."""
    if "fork" not in multiprocessing.get_all_start_methods():
        return 1
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return os.cpu_count() or 1


def deal_chunks(first: int, deals: int, processes: int, least: int = 1) -> list[tuple[int, int]]:
    """``deals`` consecutive deals from seed ``first`` as ``(first seed, count)`` chunks whose
    counts differ by one at most: about :data:`CHUNKS_PER_PROCESS` per process, fewer where a
    chunk would then hold fewer than ``least`` deals (a chunk's deals are played together, and
    a batch of a few games pays a bot's or a feature set's fixed costs per decision for little:
    :data:`CHUNK_GAMES`), but a chunk per process while there are deals for one, and then a
    multiple of ``processes`` chunks, so that no worker is left with one chunk more."""
    if deals < 1 or processes < 1 or least < 1:
        raise ValueError(
            f"deal_chunks needs at least one deal, process and deal a chunk, got deals={deals}, "
            f"processes={processes}, least={least}"
        )
    count = min(deals, processes * CHUNKS_PER_PROCESS)
    if deals // least < count:
        count = max(min(processes, deals), deals // least // processes * processes)
    size, more = divmod(deals, count)
    chunks, start = [], first
    for k in range(count):
        chunks.append((start, size + (k < more)))
        start += size + (k < more)
    return chunks


def _call(chunk: Any) -> Any:
    if _FORKED is None:
        raise RuntimeError("a forked worker of fork_map runs this")
    return _FORKED(chunk)


def fork_map(function: Callable[[T], R], chunks: Sequence[T], processes: int) -> list[R]:
    """``[function(chunk) for chunk in chunks]``, the chunks shared among ``processes`` forked
    workers (module docstring); one process, or no fork on this platform: played here, this
    process's objects spared the collections meanwhile (:func:`collections_spared`)."""
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
        with collections_spared():
            return [function(chunk) for chunk in chunks]
    _FORKED = function
    try:
        with ProcessPoolExecutor(
            min(processes, len(chunks)),
            mp_context=multiprocessing.get_context("fork"),
            initializer=set_up_worker,
        ) as pool:
            return list(pool.map(_call, chunks))
    finally:
        _FORKED = None
