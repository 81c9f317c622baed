"""Python's garbage collector in the training and evaluation processes.

The tables make cards, hands and play-outs by the million, which sets the collector off again
and again, and each of its full passes walks every object the process holds: torch's, the
model's, the envs'. Those were made before the play began and live to its end, so walking them
finds nothing. :func:`freeze_inherited` keeps them out of a worker process's passes for good
(the workers of :mod:`~pokerzoo.training.forking` and of
:mod:`~pokerzoo.training.sharded_vec_env`, once set up); :func:`frozen` does it for the length of
a ``with`` block in the main process (``learn`` in :func:`pokerzoo.training.train.train`), and
hands them back to the collector after it. Neither changes what anything computes: frozen
objects are used and freed by their reference counts as before; only a reference cycle among
them is not reclaimed while they are frozen.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["freeze_inherited", "frozen"]


def freeze_inherited() -> None:
    """Keep every object this process holds now out of its later garbage collections
    (:func:`gc.freeze`), for good: called in each worker process once it is set up, on what it
    inherited and built. In a worker of a poker without a name evaluation (10 deals against the
    montecarlo table, 2 processes) the full passes took 1.5 s of its 24.4 s of CPU before, 0.14
    s of 23.0 after; its training ran at 545 env steps/s against 505
    (``benchmarks/training_throughput.py``, medians of 3 in one run; the other games' within
    the noise)."""
    gc.freeze()


@contextmanager
def frozen() -> Iterator[None]:
    """Within the block, what this process holds on entry is kept out of the garbage
    collector's passes; on exit it is handed back (:func:`gc.unfreeze`). Where something has
    frozen objects already (the caller's own :func:`gc.freeze`), nothing is done, so that
    theirs stay frozen after the block."""
    if gc.get_freeze_count():
        yield
        return
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()
