"""Batched pieces of five-card stud's ``"equity"`` features (:mod:`.hooks`), so a whole batch
of observations costs a few array calls instead of a few per observation.

Every function here gives, row for row, the exact values of the per-hand helper of
:mod:`pokerzoo.training.poker.features` it stands for (integers and comparisons only, or the
same float operations on the same operands), and a generator is only ever asked for what the
per-observation code asks it, in the same order: the features of an observation do not depend
on the batch it comes in.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ....envs.core.cards import JOKER
from ....envs.core.draws import bounded_draws_many
from ....envs.core.hands import Category, categories

__all__ = [
    "ABSENT",
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
    as alone (the swaps from :func:`~pokerzoo.envs.core.draws.bounded_draws_many`). The
    decks are stacked, padded to the widest, so each step of the shuffle is one array operation
    (a deck with fewer cards to deal swaps a card with itself)."""
    width = max(len(deck) for deck in unseen)
    deck = np.zeros((len(unseen) * rows, width), dtype=np.int8)  # card ids: a byte each
    most = max(counts, default=0)
    swaps = np.broadcast_to(np.arange(most)[:, None], (most, len(deck))).copy()
    draws = bounded_draws_many(rngs, counts, [len(cards) for cards in unseen], rows)
    for d, cards in enumerate(unseen):
        deck[d * rows : (d + 1) * rows, : len(cards)] = cards
        swaps[: counts[d], d * rows : (d + 1) * rows] = draws[d]
    flat = deck.reshape(-1)  # swaps by flat indices: faster than 2-d fancy indexing
    starts = np.arange(len(deck)) * width
    for i in range(most):
        j = swaps[i] + starts
        here = starts + i
        card = flat[j]
        flat[j] = flat[here]
        flat[here] = card
    return [
        deck[d * rows : (d + 1) * rows, : counts[d]].astype(np.int64) for d in range(len(unseen))
    ]
