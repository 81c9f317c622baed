"""The core's loops compiled with numba, where numba is installed (:mod:`.jit`): each stands
for numpy code of its caller, which calls it where :func:`.jit.available` and gives the same
values either way (tests run both).

:func:`lemire_draws` is :func:`.draws._lemire_draws`, the arithmetic of
:func:`~.draws.bounded_draws_flat`: numpy's bounded draws worked out from the raw bits of the
generators read, one loop over the draws where numpy makes a dozen passes over arrays of them.

Importing this module compiles nothing: the first call in a process compiles a loop (a second
or so, once per install) or loads it from numba's cache.
"""

from __future__ import annotations

import numpy as np

from . import jit

__all__ = ["lemire_draws"]


@jit.jit
def lemire_draws(
    raw: np.ndarray,
    counts: np.ndarray,
    highs: np.ndarray,
    starts: np.ndarray,
    rows: int,
    out: np.ndarray,
) -> np.ndarray:
    """:func:`pokerzoo.envs.core.draws._lemire_draws`: the same entries of ``out`` and the same
    verdicts (a generator with a draw numpy would take again)."""
    rejected = np.zeros(counts.shape[0], dtype=np.bool_)
    at = 0
    for k in range(counts.shape[0]):
        high = highs[k]
        for i in range(counts[k]):
            span = high - i
            base = starts[k] + i * rows
            if span <= 1:  # one value left: numpy draws nothing
                for s in range(rows):
                    out[base + s] = i
                continue
            threshold = np.uint64((4294967296 - span) % span)
            for s in range(rows):
                product = np.uint64(raw[at]) * np.uint64(span)
                at += 1
                if (product & np.uint64(0xFFFFFFFF)) < threshold:
                    rejected[k] = True
                out[base + s] = np.int64(product >> np.uint64(32)) + i
    return rejected
