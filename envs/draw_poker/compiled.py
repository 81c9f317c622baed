"""The caller's draw (:mod:`.analysis`) compiled with numba, where numba is installed
(:mod:`pokerzoo.envs.core.jit`): :func:`caller_keep` and :func:`caller_draw` are
:func:`.analysis.caller_keep_many`'s and :func:`.analysis.caller_draw_many`'s work, one hand at a
time in one loop, where numpy makes a few dozen passes over arrays of every hand. The same kept
cards and final hands (tested on hands with wild cards, copies of a card, straights and better).

Importing this module compiles nothing: the first call in a process compiles a loop (a second
or so, once per install) or loads it from numba's cache.
"""

from __future__ import annotations

import numpy as np

from ..core import jit

__all__ = ["caller_draw", "caller_keep"]


@jit.jit
def caller_keep(
    hands: np.ndarray, wild: np.ndarray, category: np.ndarray, straight: int, keep: np.ndarray
) -> None:
    """``keep[m, p]``: whether the caller keeps card ``p`` of hand ``m`` (``hands (M, 5)``, its
    :class:`~pokerzoo.envs.core.hands.Category` ``category[m]``): every card of a straight or
    better; else the wild cards (``wild[card]``) and the natural cards whose rank another
    natural card shares, and where none does the highest natural card (by card id, the first
    of equal ids)."""
    size = hands.shape[1]
    for m in range(hands.shape[0]):
        if category[m] >= straight:
            for p in range(size):
                keep[m, p] = True
            continue
        paired = False
        highest, at = -1, 0
        for p in range(size):
            card = hands[m, p]
            kept = wild[card]
            if not kept:
                rank = card >> 2
                for q in range(size):
                    other = hands[m, q]
                    if q != p and not wild[other] and other >> 2 == rank:
                        kept = True
                        paired = True
                        break
                if card > highest:
                    highest, at = card, p
            keep[m, p] = kept
        if not paired and highest >= 0:
            keep[m, at] = True


@jit.jit
def caller_draw(
    hands: np.ndarray, replacements: np.ndarray, keep: np.ndarray, final: np.ndarray
) -> None:
    """``final[m]``: hand ``m`` with the ``k``-th card it throws (``keep[m]`` false) replaced
    by ``replacements[m, k]``."""
    for m in range(hands.shape[0]):
        thrown = 0
        for p in range(hands.shape[1]):
            if keep[m, p]:
                final[m, p] = hands[m, p]
            else:
                final[m, p] = replacements[m, thrown]
                thrown += 1
