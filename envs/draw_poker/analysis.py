"""Draw poker analysis (RULES §2): the caller's draw, vectorised over many hands at once.

The equity bot (:class:`pokerzoo.agents.draw_poker.EquityBot`) and the ``"equity"`` training
features (:mod:`pokerzoo.training.games.draw_poker`) imagine the opponents' hands as hands
dealt at random and improved by a simple draw, the caller bot's: :func:`caller_keep_many` says
which cards such a player keeps and :func:`caller_draw_many` deals the replacements, for
thousands of futures in a few array operations (where numba is installed, one compiled loop
each: :mod:`.compiled`, the same cards).
"""

from __future__ import annotations

import numpy as np

from ..core import jit
from ..core.cards import JOKER
from ..core.hands import Category, categories
from .actions import HAND_SIZE

__all__ = ["caller_draw_many", "caller_keep_many"]


def _wild_cards(deuces_wild: bool) -> np.ndarray:
    """``bool`` by card id: the wild cards (the jokers, and the deuces with ``deuces_wild``)."""
    wild = np.zeros(JOKER + 1, dtype=bool)
    wild[JOKER] = True
    if deuces_wild:
        wild[0:4] = True
    return wild


_WILD_CARDS = {False: _wild_cards(False), True: _wild_cards(True)}


def caller_keep_many(hands: np.ndarray, deuces_wild: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """The caller's draw rule on many hands at once (``int (M, 5)``, card ids, one hand a row):
    ``bool (M, 5)``, True for the cards kept, and the hands' categories. The rule is the caller
    bot's (:func:`pokerzoo.agents.draw_poker.caller_keep`, which a test checks it against):
    keep every card with a straight or better; else the wild cards and the natural cards whose
    rank appears twice or more, plus the highest natural card when no rank does."""
    hands = np.asarray(hands)
    if jit.available() and hands.size:
        from . import compiled

        category = categories(hands, "draw", deuces_wild=deuces_wild)
        keep = np.empty(hands.shape, dtype=bool)
        compiled.caller_keep(
            np.ascontiguousarray(hands),
            _WILD_CARDS[bool(deuces_wild)],
            category,
            int(Category.STRAIGHT),
            keep,
        )
        return keep, category
    wild = _WILD_CARDS[bool(deuces_wild)][hands]
    # a card's rank by hand position (one row a position: contiguous), the wild cards apart
    ranks = np.where(wild, -1, hands >> 2).T.copy()
    natural = ~wild.T
    paired = np.zeros(ranks.shape, dtype=bool)
    for a in range(HAND_SIZE):
        for b in range(a + 1, HAND_SIZE):
            same = ranks[a] == ranks[b]
            paired[a] |= same
            paired[b] |= same
    paired &= natural
    keep = (wild.T | paired).T.copy()
    no_pair = np.flatnonzero(~paired.any(axis=0))
    highest = np.argmax(np.where(wild, -1, hands), axis=1)[no_pair]
    keep[no_pair, highest] |= natural[highest, no_pair]
    category = categories(hands, "draw", deuces_wild=deuces_wild)
    keep[category >= Category.STRAIGHT] = True
    return keep, category


def caller_draw_many(hands: np.ndarray, replacements: np.ndarray, keep: np.ndarray) -> np.ndarray:
    """The hands after the caller's draw (``keep`` from :func:`caller_keep_many`): the k-th
    card a row throws is replaced by ``replacements[:, k]``."""
    thrown = ~np.asarray(keep)
    replacements = np.ascontiguousarray(replacements)
    width = replacements.shape[1]
    if width < HAND_SIZE and len(thrown):  # the callers' rows hold five: no check to pay
        most = int(thrown.sum(axis=1).max())
        if most > width:
            raise ValueError(f"a hand throws {most} cards but has {width} replacements")
    if not replacements.size:  # nothing is thrown
        return np.array(hands)
    if jit.available():
        from . import compiled

        hands = np.asarray(hands)
        final = np.empty(hands.shape, dtype=np.result_type(hands, replacements))
        compiled.caller_draw(np.ascontiguousarray(hands), replacements, np.asarray(keep), final)
        return final
    # where each card's replacement lies in the flat replacements: its row's start plus the
    # cards thrown before it, a column at a time (a cumulative sum along five columns is slow)
    slot = np.empty(thrown.shape, dtype=np.intp)
    running = np.arange(0, len(thrown) * width, width)
    for position in range(HAND_SIZE):
        slot[:, position] = running
        running += thrown[:, position]
    np.minimum(slot, replacements.size - 1, out=slot)  # a kept card's slot past the last row
    return np.where(keep, hands, replacements.reshape(-1)[slot])
