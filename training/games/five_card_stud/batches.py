"""Batched pieces of five-card stud's ``"equity"`` features (:mod:`.hooks`), so a whole batch
of observations costs a few array calls instead of a few per observation.

Every function here gives, row for row, the exact values of the per-hand helper of
:mod:`pokerzoo.training.poker.features` it stands for (integers and comparisons only, or the
same float operations on the same operands), and a generator is only ever asked for what the
per-observation code asks it, in the same order: the features of an observation do not depend
on the batch it comes in.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

import numpy as np

from ....envs.core.cards import JOKER
from ....envs.core.hands import Category, categories

__all__ = [
    "ABSENT",
    "bounded_draws",
    "deal_many",
    "group_category",
    "made_hands",
    "pot_share",
]

ABSENT = -2
"""The key of a padding seat (batches pad every observation to the most players): below every
hand's key and below the ``-1`` of a low that does not qualify, so it never wins or ties."""


def group_category(cards: Sequence[int], deuces_wild: bool = False) -> Category:
    """The category :func:`group_keys` gives one hand (groups of ranks only), worked out in plain
    Python: a few microseconds, where an array call on one hand costs tens."""
    wilds = 0
    counts: dict[int, int] = {}
    for card in cards:
        if card == JOKER or (deuces_wild and card < 4):
            wilds += 1
        else:
            counts[card >> 2] = counts.get(card >> 2, 0) + 1
    first, second = [*sorted(counts.values(), reverse=True), 0, 0][:2]
    first += wilds
    if first >= 4:
        return Category.FOUR_OF_A_KIND
    if first == 3:
        return Category.FULL_HOUSE if second >= 2 else Category.THREE_OF_A_KIND
    if first == 2:
        return Category.TWO_PAIR if second == 2 else Category.PAIR
    return Category.NOTHING


def made_hands(hands: Sequence[Sequence[int]], deuces_wild: Sequence[bool]) -> np.ndarray:
    """:func:`pokerzoo.training.poker.features.made_hand` (ruleset ``"standard"``) of every
    hand, ``float32 (len(hands), CATEGORIES)``: the five-card hands in one evaluator call per
    wild-card option, the others by :func:`group_category`."""
    out = np.zeros((len(hands), len(Category)), dtype=np.float32)
    found = np.empty(len(hands), dtype=np.int64)
    whole: dict[bool, list[int]] = {}
    for i, (cards, wild) in enumerate(zip(hands, deuces_wild, strict=True)):
        if len(cards) == 5:
            whole.setdefault(bool(wild), []).append(i)
        else:
            found[i] = group_category(cards, bool(wild))
    for wild, rows in whole.items():
        cards = np.array([hands[i] for i in rows], dtype=np.int64)
        found[rows] = categories(cards, "standard", deuces_wild=wild)
    out[np.arange(len(hands)), found] = 1
    return out


def pot_share(mine: np.ndarray, theirs: np.ndarray) -> np.ndarray:
    """:func:`pokerzoo.training.poker.features.pot_share` with any leading axes: ``mine
    (..., S)``, ``theirs (..., S, P)`` (opponents on the last axis, :data:`ABSENT` for a
    padding seat); the same float in every entry."""
    best = theirs.max(axis=-1)
    ties = (theirs == best[..., None]).sum(axis=-1)
    return np.where(mine > best, 1.0, np.where(mine == best, 1.0 / (ties + 1), 0.0))


def deal_many(
    unseen: Sequence[np.ndarray],
    rows: int,
    counts: Sequence[int],
    rngs: Sequence[np.random.Generator],
) -> list[np.ndarray]:
    """:func:`pokerzoo.training.poker.features.deal` of several decks at once: ``rows`` draws of
    ``counts[d]`` cards from ``unseen[d]`` with generator ``rngs[d]``, each deck's draws exactly
    as alone (each deck's swaps from :func:`bounded_draws`). The decks are stacked, padded to
    the widest, so each step of the shuffle is one array operation (a deck with fewer cards to
    deal swaps a card with itself)."""
    width = max(len(deck) for deck in unseen)
    deck = np.zeros((len(unseen) * rows, width), dtype=np.int64)
    most = max(counts, default=0)
    swaps = np.broadcast_to(np.arange(most)[:, None], (most, len(deck))).copy()
    for d, cards in enumerate(unseen):
        deck[d * rows : (d + 1) * rows, : len(cards)] = cards
        if counts[d]:
            swaps[: counts[d], d * rows : (d + 1) * rows] = bounded_draws(
                rngs[d], counts[d], len(cards), rows
            )
    flat = deck.reshape(-1)  # swaps by flat indices: faster than 2-d fancy indexing
    starts = np.arange(len(deck)) * width
    for i in range(most):
        j = swaps[i] + starts
        here = starts + i
        card = flat[j]
        flat[j] = flat[here]
        flat[here] = card
    return [deck[d * rows : (d + 1) * rows, : counts[d]] for d in range(len(unseen))]


def bounded_draws(rng: np.random.Generator, count: int, high: int, rows: int) -> np.ndarray:
    """``rng.integers(i, high, rows)`` for ``i`` in ``range(count)``, one call after the other
    (the draws of a partial Fisher-Yates shuffle): ``int64 (count, rows)``, value for value and
    leaving ``rng`` where those calls leave it, in one pass over the generator's raw bits.

    numpy's ``integers`` below 2**32 values is Lemire's multiply-and-shift on the 32-bit halves
    of its bit generator's 64-bit outputs, the low half first (``PCG64``'s buffered
    ``next_uint32``): a draw in ``[0, n)`` is ``(u * n) >> 32`` unless ``(u * n) mod 2**32 <
    (2**32 - n) mod n``, when it takes the next ``u`` instead (a chance below 3e-8 a draw at
    these ``n``), and a range of one value takes nothing. Where a draw would be taken again,
    or the generator is not a fresh-buffered ``PCG64`` on a little-endian machine, or the
    draws end on half a 64-bit output, the generator is put back and asked the calls
    themselves. Tested against ``integers`` (a rejection included).
    """
    lows = np.arange(count)
    spans = high - lows  # each call's n; 1: numpy returns the low without drawing
    drawn = spans > 1
    state = rng.bit_generator.state
    need = int(drawn.sum()) * rows
    if (
        type(rng.bit_generator) is not np.random.PCG64
        or sys.byteorder != "little"
        or state["has_uint32"]
        or need % 2
    ):
        return np.stack([rng.integers(i, high, rows) for i in lows])
    halves = rng.bit_generator.random_raw(need // 2).view(np.uint32).reshape(-1, rows)
    n = spans[drawn].astype(np.uint64)[:, None]
    product = halves * n
    threshold = ((2**32 - n) % n).astype(np.uint32)
    if (product.astype(np.uint32) < threshold).any():  # a draw numpy would take again
        rng.bit_generator.state = state
        return np.stack([rng.integers(i, high, rows) for i in lows])
    values = (product >> np.uint64(32)).view(np.int64)
    if drawn.all():
        return values + lows[:, None]
    out = np.broadcast_to(lows[:, None], (count, rows)).copy()
    out[drawn] += values
    return out
