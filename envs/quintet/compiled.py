"""Quintet's candidate packs compiled with numba, where numba is installed
(:mod:`pokerzoo.envs.core.jit`): the ranked path of :func:`~.packs.candidate_packs` over the
deck's 201,376 packs ranked strongest first.

:func:`candidates` is that path in one call: :func:`packs_within`, the mask test that picks out
the packs some cards can form, one loop where numpy makes three passes (the masks and'ed,
compared, their indices found) through temporary arrays; each group's run of them, its first
pack the group's candidate; :func:`first_free`, what each candidate leaves (the first of those
packs that avoids its cards, :func:`~.packs._first_free` without numpy's blocks of tests); and
the fields of :class:`~.packs.Candidates`, where numpy made a dozen calls on small arrays. The
same packs in the same order either way (tests compare every field of both paths' candidates
on hundreds of card sets, and each scan with numpy's), so the same candidates, features and
decisions. Importing this module compiles nothing: the first call in a process compiles a loop
or loads it from numba's cache.
"""

from __future__ import annotations

import numpy as np

from ..core import jit

__all__ = ["candidates", "first_free", "packs_within"]


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


@jit.jit
def candidates(
    masks: np.ndarray,
    positions: np.ndarray,
    keys: np.ndarray,
    groups: np.ndarray,
    runs: np.ndarray,
    held: np.uint32,
    limit: int,
    lowest_id: int,
) -> tuple[int, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The fields of :func:`~.packs.candidate_packs`' :class:`~.packs.Candidates` for the cards
    ``held`` (bits of deck positions) from the ranked packs (``masks``, ``positions``, ``keys``,
    ``groups`` and each group's ``runs``, as :func:`~.packs._ranked_packs` holds them), in its
    order: ``total``, ``packs``, ``keys``, ``groups``, ``stronger``, ``rest_packs``,
    ``rest_keys``, ``rest_groups``. The numpy steps of its ranked path, in one call."""
    within = packs_within(masks, held)
    lo = np.searchsorted(within, runs[0])
    hi = np.searchsorted(within, runs[1])
    num_groups = lo.shape[0]
    chosen = np.empty(min(limit, num_groups), dtype=np.int64)
    k = 0
    for group in range(num_groups - 1, -1, -1):  # strongest group first
        if k < chosen.shape[0] and hi[group] > lo[group]:
            chosen[k] = within[lo[group]]
            k += 1
    chosen = chosen[:k]
    above = np.zeros(num_groups, dtype=np.int64)  # packs in the groups above each group
    for group in range(num_groups - 2, -1, -1):
        above[group] = above[group + 1] + hi[group + 1] - lo[group + 1]
    taken = np.empty(k, dtype=masks.dtype)
    for i in range(k):
        taken[i] = masks[chosen[i]]
    rest = first_free(masks, within, taken)
    packs = np.empty((k, positions.shape[1]), dtype=np.int64)
    chosen_keys = np.empty(k, dtype=np.int64)
    chosen_groups = np.empty(k, dtype=np.int64)
    stronger = np.empty(k, dtype=np.int64)
    rest_packs = np.full((k, positions.shape[1]), -1, dtype=np.int64)
    rest_keys = np.full(k, -1, dtype=np.int64)
    rest_groups = np.full(k, -1, dtype=np.int64)
    for i in range(k):
        c = chosen[i]
        packs[i] = positions[c] + lowest_id
        chosen_keys[i] = keys[c]
        chosen_groups[i] = groups[c]
        stronger[i] = above[groups[c]]
        r = rest[i]
        if r >= 0:
            rest_packs[i] = positions[r] + lowest_id
            rest_keys[i] = keys[r]
            rest_groups[i] = groups[r]
    return (
        within.shape[0],
        packs,
        chosen_keys,
        chosen_groups,
        stronger,
        rest_packs,
        rest_keys,
        rest_groups,
    )
