"""Draw poker's ``"equity"`` features compiled with numba, where numba is installed
(:mod:`pokerzoo.envs.core.jit`): the futures of :func:`.hooks._draw` dealt for many views at
once (:func:`candidates`, then :func:`futures`, the generators asked in between exactly as
:func:`.hooks._draw` asks them), and :func:`tables`, :func:`.hooks._simulate_many`'s last step:
each view's table of the equity and the made-hand chances of every discard read off its
futures' keys in one loop, without numpy's arrays of shares and categories.

:func:`candidates` lists, for each opponent of each view, the pool hands apart from the
observer's cards that drew as many cards (else all those apart), in the pool's order, as
numpy's masks list them; :func:`futures` reads each future's pool hand of each opponent at the
drawn place of that list, marks the cards the future uses or the pack lacks in the view's
random keys (2.0, as :func:`.hooks._draw`'s ``np.where`` does), the same keys.

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

__all__ = ["candidates", "futures", "tables"]


@jit.jit
def candidates(
    pool_cards: np.ndarray,
    pool_drew: np.ndarray,
    held: np.ndarray,
    drew: np.ndarray,
    opponents_start: np.ndarray,
    rows: np.ndarray,
    sizes: np.ndarray,
) -> None:
    """For opponent ``k`` (``opponents_start[v] <= k < opponents_start[v + 1]``: view ``v``'s)
    that drew ``drew[k]`` cards (-1: not yet), the pool hands (``pool_cards``, bit sets of
    their ten cards, and ``pool_drew``) sharing no card with ``held[v]`` that drew as many, or
    where none did (or it has not drawn) all those sharing none: ascending into ``rows[k]``
    (one row of the pool's length per opponent), how many into ``sizes[k]``."""
    pool = pool_cards.shape[0]
    for v in range(held.shape[0]):
        mine = held[v]
        for k in range(opponents_start[v], opponents_start[v + 1]):
            wanted, found = drew[k], 0
            if wanted >= 0:
                for i in range(pool):  # every index written, the count moved past the fits
                    rows[k, found] = i
                    found += (pool_drew[i] == wanted) & ((pool_cards[i] & mine) == 0)
            if found == 0:
                for i in range(pool):
                    rows[k, found] = i
                    found += (pool_cards[i] & mine) == 0
            sizes[k] = found


@jit.jit
def futures(
    pool_cards: np.ndarray,
    pool_keys: np.ndarray,
    rows: np.ndarray,
    draws: np.ndarray,
    held: np.ndarray,
    opponents_start: np.ndarray,
    counts: np.ndarray,
    order: np.ndarray,
    theirs: np.ndarray,
) -> None:
    """View ``v``'s futures (``order``'s rows ``v * S ..``, ``S = draws.shape[1]``): future
    ``s`` deals opponent ``k`` the pool hand ``rows[k, draws[k, s]]``, whose key goes to
    ``theirs[o * S + s * n + j]`` (``o = opponents_start[v]``, ``n`` the view's opponents,
    ``j = k - o``: each view's ``(S, n)`` block in C order); the random key of each card that
    a hand of the future holds (``held[v]`` or a pool hand's), or that the pack lacks
    (``counts[v, c] <= 0``), is set to 2.0."""
    samples = draws.shape[1]
    for v in range(held.shape[0]):
        first, last = opponents_start[v], opponents_start[v + 1]
        for s in range(samples):
            used = held[v]
            for k in range(first, last):
                row = rows[k, draws[k, s]]
                theirs[first * samples + s * (last - first) + k - first] = pool_keys[row]
                used |= pool_cards[row]
            keys = order[v * samples + s]
            for c in range(keys.shape[0]):
                if counts[v, c] <= 0 or (used >> np.uint64(c)) & np.uint64(1):
                    keys[c] = 2.0


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
