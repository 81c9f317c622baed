"""The packs a set of Quintet cards can form (RULES §1): every 5-card subset scored at once, and a
short, diverse list of strong candidate packs for a player who lays out whole packs.

Every pack of the 32-card piquet deck is scored once (:func:`pack_table`: the ``"quintet"`` key
of all C(32, 5) = 201,376 packs, indexed by the pack's colex rank), so the packs of ``n``
remaining cards (C(25, 5) = 53,130 at the start of a deal) are scored with a few array gathers.
The same packs ranked strongest first (built once) let :func:`candidate_packs` pick out the
packs of 15 or more cards with one mask test each, already in order.

Groups and candidates
---------------------
A pack's **lead rank** is the rank its category compares first: the four, the three (full house,
three of a kind), the higher pair, the pair, or the top card (straight flush, flush, straight,
high card). Within a category the ``"quintet"`` keys order packs by lead rank first, so the
**group** ``(category, lead rank)`` (``9 x 8 = 72`` groups, :func:`group_of`) is a coarse
strength scale that never contradicts the keys.

:func:`candidate_packs` lists the strongest pack of each group the cards can form, strongest
group first, at most ``limit`` of them: one four of aces, one four of kings, one ace-high full
house, ... instead of the 16 ways to add a fifth card to four aces. Within a group the pack with
the highest key wins, and among equal keys the one made of the lowest ranks (it keeps the high
cards for the other packs), then the first in lexicographic order of the cards: so the first
candidate is exactly the pack the greedy bot (:mod:`pokerzoo.agents.quintet`) takes. Each
candidate also says what it leaves behind: the strongest pack of the remaining cards once it is
taken.

>>> from pokerzoo.envs.core.cards import format_cards, parse_cards
>>> found = candidate_packs(parse_cards(
...     "Ac Ad Ah As Kc Kd Kh Qc Qd Qh Jd Jh Js Tc Td Ts 9c 9d 9h 9s 8d 8s 7c 7d 7s"), limit=5)
>>> [format_cards(pack[::-1]) for pack in found.packs]  # four straight flushes, four aces
['Ad Kd Qd Jd Td', 'Kd Qd Jd Td 9d', 'Qd Jd Td 9d 8d', 'Js Ts 9s 8s 7s', 'Ac Ad Ah As 7s']
>>> format_cards(found.rest_packs[0][::-1])  # the strongest pack of the other 20 cards
'Js Ts 9s 8s 7s'

This module imports no RL library.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import cache, lru_cache
from math import comb
from types import ModuleType

import numpy as np

from ..core import jit
from ..core.cards import CardsLike
from ..core.hands import Category, categories, evaluate
from .rules import DECK, PACK_SIZE, PIQUET

__all__ = [
    "CATEGORIES",
    "NUM_GROUPS",
    "NUM_LEAD_RANKS",
    "Candidates",
    "PackTable",
    "candidate_packs",
    "group_of",
    "pack_table",
    "strength_share",
    "strongest_pack",
]

_LOWEST_ID = int(DECK[0])
_DECK_SIZE = len(DECK)  # 32
_LOWEST_RANK = _LOWEST_ID // 4  # rank index of the seven
CATEGORIES = (
    Category.NOTHING,
    Category.PAIR,
    Category.TWO_PAIR,
    Category.THREE_OF_A_KIND,
    Category.STRAIGHT,
    Category.FLUSH,
    Category.FULL_HOUSE,
    Category.FOUR_OF_A_KIND,
    Category.STRAIGHT_FLUSH,
)
"""Quintet's nine categories, weakest first (``"chance"`` to ``"poker"``)."""
NUM_LEAD_RANKS = 8  # 7 .. A
NUM_GROUPS = len(CATEGORIES) * NUM_LEAD_RANKS
_CATEGORY_INDEX = np.full(max(CATEGORIES) + 1, -1, dtype=np.int64)
_CATEGORY_INDEX[list(CATEGORIES)] = np.arange(len(CATEGORIES))
_BINOM = np.array([[comb(n, k + 1) for n in range(_DECK_SIZE)] for k in range(PACK_SIZE)])
_TOP_SCAN = 2048  # strongest packs scanned first for one that avoids a candidate's cards
_FIRST_SCAN = 256  # ranked packs first tested against every candidate for what it leaves


@dataclass(frozen=True)
class PackTable:
    """Every pack of the piquet deck, indexed by its colex rank (see :func:`pack_table`)."""

    keys: np.ndarray
    """``int64``: the ``"quintet"`` strength key."""
    scores: np.ndarray
    """``int64``: ``key << 6 | (63 - rank sum)``: the strongest pack first and, among equal
    packs, the one of the lowest ranks."""
    groups: np.ndarray
    """``int64``: the group, ``category index * 8 + lead rank`` (see the module docstring)."""
    masks: np.ndarray
    """``int64``: the pack's cards as bits ``1 << (id - 20)``."""
    sorted_keys: np.ndarray
    """All keys ascending, for :func:`strength_share`."""


def group_of(cards: np.ndarray) -> np.ndarray:
    """Group ``(category index * 8 + lead rank)`` of ``(N, 5)`` piquet packs (card ids)."""
    hands = np.asarray(cards, dtype=np.int64)
    cats = _CATEGORY_INDEX[categories(hands, "quintet")]
    ranks = (hands >> 2) - _LOWEST_RANK  # 0..7
    counts = (ranks[:, :, None] == np.arange(NUM_LEAD_RANKS)).sum(axis=1)  # (N, 8)
    # The lead rank is the most frequent rank, the highest among equally frequent ones; for
    # straights, flushes and high cards (all counts 1) that is the top card.
    lead = np.argmax(counts * NUM_LEAD_RANKS + np.arange(NUM_LEAD_RANKS), axis=1)
    return cats * NUM_LEAD_RANKS + lead


@cache
def pack_table() -> PackTable:
    """Keys, scores, groups and card masks of all C(32, 5) piquet packs (built once, ~0.3 s)."""
    subsets = np.array(list(itertools.combinations(range(_DECK_SIZE), PACK_SIZE)), dtype=np.int64)
    cards = subsets + _LOWEST_ID
    order = _colex(subsets)
    keys = np.empty(len(subsets), dtype=np.int64)
    keys[order] = evaluate(cards, "quintet")
    scores = np.empty_like(keys)
    scores[order] = (keys[order] << 6) | (63 - (cards >> 2).sum(axis=1))
    groups = np.empty_like(keys)
    groups[order] = group_of(cards)
    masks = np.empty_like(keys)
    masks[order] = (np.int64(1) << subsets).sum(axis=1)
    for array in (keys, scores, groups, masks):
        array.setflags(write=False)
    sorted_keys = np.sort(keys)
    sorted_keys.setflags(write=False)
    return PackTable(keys, scores, groups, masks, sorted_keys)


def _colex(subsets: np.ndarray) -> np.ndarray:
    """Colex rank of ascending 5-subsets of 0..31 (the combinatorial number system)."""
    return sum(_BINOM[k][subsets[:, k]] for k in range(PACK_SIZE))


@lru_cache(maxsize=32)  # n is 5..32
def _combinations(n: int) -> np.ndarray:
    """``(5, C(n, 5))`` ascending index tuples, one row per slot."""
    return np.array(list(itertools.combinations(range(n), PACK_SIZE)), dtype=np.intp).T.copy()


def _positions(cards: CardsLike | np.ndarray) -> np.ndarray:
    """Sorted deck positions (card id - 20) of 5..32 distinct piquet cards."""
    if isinstance(cards, np.ndarray) and cards.dtype.kind in "iu":
        ids = cards.astype(np.int64).ravel()
        PIQUET.check(ids.tolist(), "cards")
    else:
        ids = np.array(PIQUET.parse(cards, what="cards"), dtype=np.int64)
    if len(ids) < PACK_SIZE:
        raise ValueError(f"cards: expected at least {PACK_SIZE} cards, got {len(ids)}")
    return np.sort(ids - _LOWEST_ID)


def _packs_of(positions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Colex ranks ``(M,)`` of every pack of the cards at ``positions`` and each pack's slots
    ``(5, M)`` into ``positions``."""
    slots = _combinations(len(positions))
    index = _BINOM[0][positions][slots[0]]
    for k in range(1, PACK_SIZE):
        index = index + _BINOM[k][positions][slots[k]]
    return index, slots


def strength_share(keys: np.ndarray | int) -> np.ndarray:
    """Share of all 201,376 piquet packs strictly weaker than each key: 0 for the weakest high
    card, just under 1 for an ace-high straight flush. An absolute scale of pack strength."""
    table = pack_table()
    below = np.searchsorted(table.sorted_keys, np.asarray(keys, dtype=np.int64), side="left")
    return below / len(table.sorted_keys)


def strongest_pack(cards: CardsLike | np.ndarray) -> tuple[np.ndarray, int]:
    """The strongest pack of 5..32 distinct piquet cards (among equal packs, the one of the
    lowest ranks) and its ``"quintet"`` key: ``(int64 (5,) card ids ascending, key)``."""
    positions = _positions(cards)
    index, slots = _packs_of(positions)
    table = pack_table()
    best = int(np.argmax(table.scores[index]))
    return positions[slots[:, best]] + _LOWEST_ID, int(table.keys[index[best]])


@dataclass(frozen=True)
class Candidates:
    """Candidate packs of some cards, strongest group first (see :func:`candidate_packs`).

    Arrays have one row per candidate; ``K <= limit``.
    """

    packs: np.ndarray
    """``int64 (K, 5)``: card ids, ascending."""
    keys: np.ndarray
    """``int64 (K,)``: ``"quintet"`` keys."""
    groups: np.ndarray
    """``int64 (K,)``: groups (``category index * 8 + lead rank``)."""
    stronger: np.ndarray
    """``int64 (K,)``: how many of the packs the cards can form lie in stronger groups."""
    rest_packs: np.ndarray
    """``int64 (K, 5)``: the strongest pack of the cards left once the candidate is taken
    (all -1 when no five cards are left)."""
    rest_keys: np.ndarray
    """``int64 (K,)``: its key (-1 when no five cards are left)."""
    rest_groups: np.ndarray
    """``int64 (K,)``: its group (-1 when no five cards are left)."""
    total: int
    """How many packs the cards can form, C(n, 5)."""


@dataclass(frozen=True)
class _Ranked:
    """Every pack of the piquet deck, strongest first (see :func:`_ranked_packs`)."""

    masks: np.ndarray
    """``uint32``: the pack's cards as bits ``1 << (id - 20)``."""
    positions: np.ndarray
    """``int64 (N, 5)``: its deck positions (card id - 20), ascending."""
    keys: np.ndarray
    """``int64``: its ``"quintet"`` key."""
    groups: np.ndarray
    """``int64``: its group."""
    runs: np.ndarray
    """``int64 (2, NUM_GROUPS)``: where each group's run starts and ends in the list."""


@cache
def _ranked_packs() -> _Ranked:
    """All C(32, 5) packs ordered by score, highest first, equal scores in lexicographic order of
    their cards (built once, ~0.1 s).

    The packs some cards can form, taken in this order, come in exactly the order the
    enumeration of their subsets (lexicographic) ranks them by when it keeps the first pack
    among equal scores; and since groups never contradict the keys, each group is one run of
    the list (:attr:`_Ranked.runs`)."""
    subsets = np.array(list(itertools.combinations(range(_DECK_SIZE), PACK_SIZE)), dtype=np.int64)
    index = _colex(subsets)  # the lexicographic i-th pack's colex rank
    table = pack_table()
    order = np.lexsort((np.arange(len(index)), -table.scores[index]))
    ranked = index[order]
    groups = table.groups[ranked]
    if np.any(np.diff(groups) > 0):
        raise AssertionError("groups contradict the keys")  # never: see the module docstring
    wanted = -np.arange(NUM_GROUPS)
    runs = np.stack(
        [np.searchsorted(-groups, wanted, "left"), np.searchsorted(-groups, wanted, "right")]
    )
    found = _Ranked(
        table.masks[ranked].astype(np.uint32), subsets[order], table.keys[ranked], groups, runs
    )
    for array in (found.masks, found.positions, found.keys, found.groups, found.runs):
        array.setflags(write=False)
    return found


_SUBSETS_BELOW = 15  # fewer cards than this: scoring their few subsets is quicker
_COMPILED_SUBSETS_BELOW = 8  # the same where numba scans the ranked packs


def candidate_packs(cards: CardsLike | np.ndarray, limit: int = 16) -> Candidates:
    """The strongest pack of each group the ``cards`` (5..32 distinct piquet cards) can form,
    strongest group first, at most ``limit`` of them (see the module docstring).

    From 15 cards on, the packs the cards can form are picked out of the deck's packs ranked
    strongest first (:func:`_ranked_packs`) with one mask test each, so they come ranked: each
    group's first is its candidate, and the first that avoids a candidate's cards is what the
    candidate leaves behind (~0.2 ms for 25 cards, where scoring and searching all the subsets
    takes ~1 ms). Fewer cards have few subsets: they are scored as they are. Where numba runs
    the two scans (:mod:`.compiled`: ~0.1 ms for 25 cards), the ranked packs are quicker from
    8 cards on, and taken from there. The same candidates either way, field by field.
    """
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
        raise ValueError(f"bad limit {limit!r}: expected an int >= 1")
    positions = _positions(cards)
    compiled = _compiled()
    if len(positions) < (_SUBSETS_BELOW if compiled is None else _COMPILED_SUBSETS_BELOW):
        return _candidates_by_subsets(positions, limit)
    ranked = _ranked_packs()
    held = np.uint32(int((np.int64(1) << positions).sum()))
    if compiled is not None:
        total, *fields = compiled.candidates(
            ranked.masks, ranked.positions, ranked.keys, ranked.groups, ranked.runs, held,
            limit, _LOWEST_ID,
        )  # fmt: skip
        return Candidates(*fields, total=int(total))
    within = np.flatnonzero((ranked.masks & ~held) == 0)  # the cards' packs, strongest first
    lo, hi = np.searchsorted(within, ranked.runs)
    counts = hi - lo  # packs per group
    present = np.flatnonzero(counts[::-1])[:limit]  # strongest group first
    chosen = within[lo[::-1][present]]
    stronger = np.cumsum(counts[::-1])[::-1] - counts  # packs in the groups above each group
    rest = _first_free(ranked.masks, within, ranked.masks[chosen])
    found = rest >= 0
    rest_at = np.where(found, rest, 0)
    chosen_groups = ranked.groups[chosen]
    return Candidates(
        packs=ranked.positions[chosen] + _LOWEST_ID,
        keys=ranked.keys[chosen],
        groups=chosen_groups,
        stronger=stronger[chosen_groups],
        rest_packs=np.where(found[:, None], ranked.positions[rest_at] + _LOWEST_ID, -1),
        rest_keys=np.where(found, ranked.keys[rest_at], -1),
        rest_groups=np.where(found, ranked.groups[rest_at], -1),
        total=len(within),
    )


def _compiled() -> ModuleType | None:
    """:mod:`.compiled` where numba runs the compiled loops (:func:`~..core.jit.available`),
    else ``None`` (the numpy path: the same packs)."""
    if not jit.available():
        return None
    from . import compiled

    return compiled


def _first_free(masks: np.ndarray, within: np.ndarray, taken: np.ndarray) -> np.ndarray:
    """For each card mask in ``taken``, the first pack of ``within`` (indices into the ranked
    ``masks``) that shares no card with it (its ranked index), -1 where none does: the
    strongest pack left once those cards are gone. The first few hundred packs nearly always
    hold one; the rest are tested, twice as many each time, only for the masks they do not."""
    rest = np.full(len(taken), -1, dtype=np.int64)
    open_ = np.arange(len(taken))
    start, size = 0, _FIRST_SCAN
    while open_.size and start < len(within):
        at = within[start : start + size]
        free = (masks[at][None, :] & taken[open_, None]) == 0
        hit = free.any(axis=1)
        rest[open_[hit]] = at[np.argmax(free[hit], axis=1)]
        open_ = open_[~hit]
        start += size
        size *= 2
    return rest


def _candidates_by_subsets(positions: np.ndarray, limit: int) -> Candidates:
    """:func:`candidate_packs` of the cards at deck ``positions`` (ascending) by scoring every
    subset they form."""
    index, slots = _packs_of(positions)
    table = pack_table()
    scores = table.scores[index]
    groups = table.groups[index]
    best = np.full(NUM_GROUPS, -1, dtype=np.int64)
    np.maximum.at(best, groups, scores)
    # The first pack (cards in lexicographic order) reaching its group's best score stands for
    # the group, as in the greedy bot.
    hits = np.flatnonzero(scores == best[groups])
    found, first = np.unique(groups[hits], return_index=True)
    chosen = hits[first][np.argsort(-best[found], kind="stable")][:limit]
    counts = np.bincount(groups, minlength=NUM_GROUPS)
    stronger = np.cumsum(counts[::-1])[::-1] - counts  # packs in the groups above each group
    rest = _strongest_rest(index, scores, groups, counts, table.masks[index[chosen]])
    found = rest >= 0
    return Candidates(
        packs=positions[slots[:, chosen]].T + _LOWEST_ID,
        keys=table.keys[index[chosen]],
        groups=groups[chosen],
        stronger=stronger[groups[chosen]],
        rest_packs=np.where(found[:, None], positions[slots[:, rest]].T + _LOWEST_ID, -1),
        rest_keys=np.where(found, table.keys[index[rest]], -1),
        rest_groups=np.where(found, groups[rest], -1),
        total=len(index),
    )


def _strongest_rest(
    index: np.ndarray,
    scores: np.ndarray,
    groups: np.ndarray,
    counts: np.ndarray,
    taken: np.ndarray,
) -> np.ndarray:
    """For each candidate's card mask in ``taken``, the strongest pack (its place in ``index``)
    that avoids the candidate's cards; -1 where no such pack exists."""
    masks = pack_table().masks[index]
    rest = np.full(len(taken), -1, dtype=np.int64)
    # The packs of the strongest groups (a few thousand) nearly always hold one that avoids five
    # given cards; all the packs are scanned only for a candidate they do not.
    from_top = np.cumsum(counts[::-1])
    lowest = NUM_GROUPS - 1 - int(np.searchsorted(from_top, min(_TOP_SCAN, len(index))))
    strong = np.flatnonzero(groups >= lowest)
    ranked = strong[np.lexsort((strong, -scores[strong]))]  # equal scores: the first pack first
    ranked_masks = masks[ranked]
    for j, mask in enumerate(taken.tolist()):
        free = (ranked_masks & mask) == 0
        if free.any():
            rest[j] = ranked[int(np.argmax(free))]
            continue
        free = np.flatnonzero((masks & mask) == 0)
        if free.size:
            rest[j] = free[int(np.argmax(scores[free]))]
    return rest
