"""Draw poker's ``"equity"`` features compiled with numba, where numba is installed
(:mod:`pokerzoo.envs.core.jit`): :func:`tables` is :func:`.hooks._simulate_many`'s last step,
each view's table of the equity and the made-hand chances of every discard read off its
futures' keys in one loop, without numpy's arrays of shares and categories.

The entries are numpy's to the bit (tested on every decision of several option sets, and on
keys full of ties): a share is the same float division, the chances count whole futures, and
the shares are added in numpy's order: one after another along the futures where a view has a
column per discard (numpy's mean reduces those columns' rows in turn), as numpy adds a
contiguous row (:func:`pokerzoo.envs.core.compiled.pairwise_sum`) where it has one column
(standing pat, after the draw).

Importing this module compiles nothing: the first call in a process compiles :func:`tables`
(a second or so, once per install) or loads it from numba's cache.
"""

from __future__ import annotations

import numpy as np

from ....envs.core import jit
from ....envs.core.compiled import pairwise_sum

__all__ = ["tables"]


@jit.jit
def tables(
    keys: np.ndarray,
    theirs: np.ndarray,
    theirs_start: np.ndarray,
    opponents: np.ndarray,
    least: np.ndarray,
    out: np.ndarray,
) -> None:
    """Each view's table into ``out`` (``(V, D, 1 + len(least))`` doubles): for discard ``d``
    of view ``v``, ``out[v, d, 0]`` its share of the pot over the futures (``keys[v, s, d]``,
    ``(V, S, D)``, against the best of the ``opponents[v]`` keys of future ``s``, row ``s`` of
    the ``(S, opponents[v])`` block of ``theirs`` at ``theirs_start[v]``; equal keys split the
    pot), ``out[v, d, 1 + k]`` the share of the futures whose key is at least ``least[k]`` (the
    lowest key of a category: :func:`pokerzoo.training.poker.features.pot_share`'s
    and ``category_of``'s means)."""
    views, futures, discards = keys.shape
    best = np.empty(futures, dtype=np.int64)
    split = np.empty(futures)  # the share of a key equal to the best
    shares = np.empty(futures)
    for v in range(views):
        start, players = theirs_start[v], opponents[v]
        for s in range(futures):
            row = start + s * players
            top, ties = theirs[row], 1
            for p in range(1, players):
                key = theirs[row + p]
                if key > top:
                    top, ties = key, 1
                elif key == top:
                    ties += 1
            best[s] = top
            split[s] = 1.0 / (ties + 1)
        for d in range(discards):
            total = 0.0
            for s in range(futures):
                mine = keys[v, s, d]
                share = 1.0 if mine > best[s] else (split[s] if mine == best[s] else 0.0)
                shares[s] = share
                total += share
            if discards == 1:  # one column: numpy adds it as a contiguous row
                total = pairwise_sum(shares)
            out[v, d, 0] = total / futures
            for k in range(least.shape[0]):
                count = 0
                for s in range(futures):
                    count += keys[v, s, d] >= least[k]
                out[v, d, 1 + k] = count / futures
