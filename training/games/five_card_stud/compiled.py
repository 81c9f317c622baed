"""Five-card stud's Monte-Carlo features compiled with numba, where numba is installed
(:mod:`pokerzoo.envs.core.jit`): :func:`simulate` is :func:`.hooks._simulate`'s work after the
deal, one loop of machine code per future.

:func:`.hooks._simulate` asks each view's generator for its swaps exactly as before
(:func:`~pokerzoo.envs.core.draws.bounded_draws_flat`), deals the futures by them
(:func:`pokerzoo.envs.core.compiled.partial_shuffles`) and hands the views that split no pot
(high only) to :func:`simulate` where :func:`pokerzoo.envs.core.jit.available`; the high-low
views, and every view without numba, go through the numpy code of :mod:`.batches`. Each future
is dealt by the same swaps from the same unseen cards, every hand is read from the evaluator's
own tables (:func:`pokerzoo.envs.core.hands.evaluate`'s weights, sections, classes and keys;
:func:`pokerzoo.training.poker.features.group_keys`' tables of sorted ranks), the shares are the
same float divisions, and the means add the futures as numpy adds a row
(:func:`pokerzoo.envs.core.compiled.pairwise_sum`):
the entries are numpy's to the bit (tested on every decision of several option sets), without
the arrays of every future's hands, keys and shares that numpy builds on the way.

Importing this module compiles nothing: the first call in a process compiles :func:`simulate`
(a few seconds, once per install) or loads it from numba's cache.
"""

from __future__ import annotations

import numpy as np

from ....envs.core import jit
from ....envs.core.cards import JOKER, NUM_CARD_IDS
from ....envs.core.compiled import pairwise_sum
from ....envs.core.hands import Category

__all__ = ["simulate"]

_PAIR = int(Category.PAIR)
_WILD_RANK = 13  # :mod:`pokerzoo.training.poker.features`' rank of a wild card in its tables


@jit.jit
def _group_key(
    cards: np.ndarray,
    count: int,
    wild: bool,
    ranks: np.ndarray,
    keys: np.ndarray,
    category: np.ndarray,
    start: int,
) -> tuple[int, int]:
    """``group_keys`` of the first ``count`` of ``cards``: their ranks (a wild card
    :data:`_WILD_RANK`) sorted into ``ranks``, read as base-14 digits, index the size's table
    (beginning at ``start`` of ``keys`` and ``category``)."""
    for k in range(count):
        card = cards[k]
        rank = _WILD_RANK if card == JOKER or (wild and card < 4) else min(card >> 2, 12)
        at = k
        while at > 0 and ranks[at - 1] > rank:  # insertion sort: at most five ranks
            ranks[at] = ranks[at - 1]
            at -= 1
        ranks[at] = rank
    index = 0
    for k in range(count):
        index = index * (_WILD_RANK + 1) + ranks[k]
    return keys[start + index], category[start + index]


@jit.jit
def _share(mine: int, best: int, ties: int) -> float:
    """The observer's share of a pot against opponents whose best key is ``best``, held by
    ``ties`` of them: :func:`.batches.pot_share`'s float."""
    if mine > best:
        return 1.0
    if mine == best:
        return 1.0 / (ties + 1)
    return 0.0


@jit.jit
def simulate(
    unseen: np.ndarray,
    unseen_start: np.ndarray,
    futures: np.ndarray,
    futures_start: np.ndarray,
    known: np.ndarray,
    known_size: np.ndarray,
    players: np.ndarray,
    wild: np.ndarray,
    hole: np.ndarray,
    samples: int,
    weights: np.ndarray,
    section_offset: np.ndarray,
    sparse_to_class: np.ndarray,
    hand_key: np.ndarray,
    group_key: np.ndarray,
    group_category: np.ndarray,
    group_start: np.ndarray,
) -> np.ndarray:
    """The four Monte-Carlo entries of each view (``float64 (views, 4)``: ``equity``,
    ``ahead_now``, ``their_made``, ``board_beats``), high only.

    View ``v``'s unseen cards are ``unseen[unseen_start[v]:unseen_start[v + 1]]``; its futures
    (:func:`~.batches.deal_many`'s, ``(samples, cards dealt)`` flattened in C order) begin at
    ``futures_start[v]``; seat ``p`` (0 the observer) holds ``known[v, p, :known_size[v, p]]``
    of ``players[v]`` seats; ``wild[v]`` picks the row of ``weights`` (the evaluator's card
    weights without and with deuces wild); the observer's first ``hole[v]`` cards are its hole
    cards, the rest its up cards. The other arrays are the evaluator's and ``group_keys``'
    tables (sizes ``k``'s beginning at ``group_start[k]``)."""
    views = players.shape[0]
    out = np.zeros((views, 4))
    hand = np.empty(5, dtype=np.int64)
    ranks = np.empty(5, dtype=np.int64)
    equity = np.empty(samples)
    now_key = np.empty((known.shape[1], NUM_CARD_IDS), dtype=np.int64)
    now_category = np.empty((known.shape[1], NUM_CARD_IDS), dtype=np.int64)
    ahead = np.empty(samples)
    for v in range(views):
        begin, width = unseen_start[v], unseen_start[v + 1] - unseen_start[v]
        dealt = 0
        for p in range(players[v]):
            dealt += 5 - known_size[v, p]
        row = weights[1 if wild[v] else 0]
        mine, _ = _group_key(
            known[v, 0],
            known_size[v, 0],
            wild[v],
            ranks,
            group_key,
            group_category,
            group_start[known_size[v, 0]],
        )
        board, _ = _group_key(
            known[v, 0, hole[v] :],
            known_size[v, 0] - hole[v],
            wild[v],
            ranks,
            group_key,
            group_category,
            group_start[known_size[v, 0] - hole[v]],
        )
        for p in range(1, players[v]):  # each opponent's hand now, by the hole card dealt it
            size = known_size[v, p]
            for c in range(size):
                hand[c] = known[v, p, c]
            for c in range(width):
                hand[size] = unseen[begin + c]
                now_key[p, hand[size]], now_category[p, hand[size]] = _group_key(
                    hand, size + 1, wild[v], ranks, group_key, group_category, group_start[size + 1]
                )
        made_count = 0
        beaten_count = 0
        for s in range(samples):
            at = futures_start[v] + s * dealt
            own = 0
            best = -1
            ties = 0
            best_now = -1
            ties_now = 0
            made = -1
            for p in range(players[v]):
                size = known_size[v, p]
                for c in range(size):
                    hand[c] = known[v, p, c]
                for c in range(size, 5):
                    hand[c] = futures[at]
                    at += 1
                total = row[hand[0]] + row[hand[1]] + row[hand[2]] + row[hand[3]] + row[hand[4]]
                field = total >> 20
                key = hand_key[sparse_to_class[(total & ((1 << 20) - 1)) + section_offset[field]]]
                if p == 0:
                    own = key
                    continue
                if key > best:
                    best, ties = key, 1
                elif key == best:
                    ties += 1
                now, category = now_key[p, hand[size]], now_category[p, hand[size]]
                if now > best_now:
                    best_now, ties_now = now, 1
                elif now == best_now:
                    ties_now += 1
                made = max(made, category)
            equity[s] = _share(own, best, ties)
            ahead[s] = _share(mine, best_now, ties_now)
            made_count += made >= _PAIR
            beaten_count += board > best_now
        out[v, 0] = pairwise_sum(equity) / samples
        out[v, 1] = pairwise_sum(ahead) / samples
        out[v, 2] = made_count / samples
        out[v, 3] = beaten_count / samples
    return out
