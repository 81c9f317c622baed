"""Quintet's candidate packs compiled with numba, where numba is installed
(:mod:`pokerzoo.envs.core.jit`): the two scans of :func:`~.packs.candidate_packs` over the
deck's 201,376 packs ranked strongest first.

:func:`packs_within` is the mask test that picks out the packs some cards can form, one loop
where numpy makes three passes (the masks and'ed, compared, their indices found) through
temporary arrays; :func:`first_free` is :func:`~.packs._first_free`, the first of those packs
that avoids each candidate's cards, without numpy's blocks of tests. The same packs in the
same order either way (a test compares every field of both paths' candidates on thousands of
card sets), so the same candidates, features and decisions. Importing this module compiles
nothing: the first call in a process compiles a loop or loads it from numba's cache.
"""

from __future__ import annotations

import numpy as np

from ..core import jit

__all__ = ["first_free", "packs_within"]


@jit.jit
def packs_within(masks: np.ndarray, held: np.uint32) -> np.ndarray:
    """The indices of the packs of ``masks`` (``uint32`` card bits) whose cards are all in
    ``held``, ascending: ``numpy.flatnonzero((masks & ~held) == 0)``."""
    outside = ~held
    within = np.empty(masks.shape[0], dtype=np.int64)
    n = 0
    for i in range(masks.shape[0]):
        if masks[i] & outside == 0:
            within[n] = i
            n += 1
    return within[:n]


@jit.jit
def first_free(masks: np.ndarray, within: np.ndarray, taken: np.ndarray) -> np.ndarray:
    """For each card mask of ``taken``, the first of the packs ``within`` (indices into
    ``masks``) that shares no card with it, -1 where none does."""
    rest = np.full(taken.shape[0], -1, dtype=np.int64)
    for k in range(taken.shape[0]):
        mask = taken[k]
        for i in range(within.shape[0]):
            if masks[within[i]] & mask == 0:
                rest[k] = within[i]
                break
    return rest
