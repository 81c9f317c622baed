"""Quintet analysis (RULES §1): the packs a player forms of the 25 cards, the order game of
where the packs go, and the best reply to a mix of players who lay out such packs.

All 25 cards are public, so a player's row can be worked out before the first card is placed.
These functions are what the baseline bots (:mod:`pokerzoo.agents.quintet`) play, what the
search (:mod:`.search`) models them by, and what the training features read:

- pack search: :func:`strongest_pack` (the strongest five of some cards, the lowest ranks among
  equal packs) and :func:`greedy_packs` (five packs formed strongest first);
- the order game: both players hold the same five packs ranked 1..5 and choose which position
  each goes to (:data:`ORDERS`, :data:`GREEDY_ORDER`, :data:`SACRIFICE_ORDER`,
  :func:`strength_levels`, :func:`order_equilibrium`, :func:`ordered`);
- the best reply (:func:`best_response_plan`) to greedy, sacrifice and samples of the order
  game's equilibrium, one third each, improved by swapping cards between packs;
  :func:`best_response_plans` searches many deals together (batched bots), with the same
  results.

This module imports no RL library.
"""

from __future__ import annotations

import itertools
from functools import cache, lru_cache
from math import comb

import numpy as np

from ..core.hands import evaluate
from ..core.options import check_choice
from .rules import DECK, NUM_PACKS, PACK_SIZE, POSITION_POINTS, REWARDS

__all__ = [
    "BEST_RESPONSE_SAMPLES",
    "BEST_RESPONSE_SWAPS",
    "GREEDY_ORDER",
    "ORDERS",
    "SACRIFICE_ORDER",
    "best_response_plan",
    "best_response_plans",
    "greedy_packs",
    "mix_opponents",
    "order_equilibrium",
    "ordered",
    "strength_levels",
    "strongest_pack",
]

_LOWEST_ID = int(DECK[0])
_DECK_SIZE = len(DECK)
_POINTS = np.array(POSITION_POINTS, dtype=np.int64)
# ORDERS[i][j]: strength rank (0 = strongest) of the pack at position j, for all 120 orders.
ORDERS = np.array(list(itertools.permutations(range(NUM_PACKS))), dtype=np.intp)
GREEDY_ORDER = (4, 3, 2, 1, 0)  # strongest on the 7-point position
SACRIFICE_ORDER = (3, 2, 1, 0, 4)  # weakest on the 7-point position, the rest one slot up


# --- pack search ---------------------------------------------------------------------------------
@cache
def _five_card_scores() -> np.ndarray:
    """Score of every 5-card subset of the piquet deck, indexed by its colex rank.

    score = key << 6 | (63 - rank sum): the highest score is the strongest pack and, among equal
    packs, the one made of the lowest ranks, which keeps high cards for the later packs.
    """
    subsets = np.array(list(itertools.combinations(range(_DECK_SIZE), PACK_SIZE)), dtype=np.intp)
    keys = evaluate(subsets + _LOWEST_ID, "quintet")
    rank_sum = ((subsets + _LOWEST_ID) >> 2).sum(axis=1)
    scores = np.empty(len(subsets), dtype=np.int64)
    scores[_colex(subsets)] = (keys << 6) | (63 - rank_sum)
    return scores


_BINOM = np.array([[comb(n, k + 1) for n in range(_DECK_SIZE)] for k in range(PACK_SIZE)])


def _colex(subsets: np.ndarray) -> np.ndarray:
    """Colex rank of ascending 5-subsets of 0..31 (the combinatorial number system)."""
    return sum(_BINOM[k][subsets[:, k]] for k in range(PACK_SIZE))


@lru_cache(maxsize=32)  # n is 5..25
def _combinations(n: int) -> np.ndarray:
    """``(C(n, 5), 5)`` ascending index tuples, one column per slot (transposed for speed)."""
    return np.array(list(itertools.combinations(range(n), PACK_SIZE)), dtype=np.intp).T.copy()


def strongest_pack(cards: np.ndarray) -> tuple[np.ndarray, int]:
    """The strongest five of 5..25 distinct piquet ``cards`` and its ``"quintet"`` key.

    Among equal packs (a four of a kind's fifth card, say) the one with the lowest ranks wins.
    """
    positions = np.sort(np.asarray(cards, dtype=np.intp) - _LOWEST_ID)
    combos = _combinations(len(positions))
    index = _BINOM[0][positions][combos[0]]
    for k in range(1, PACK_SIZE):
        index = index + _BINOM[k][positions][combos[k]]
    scores = _five_card_scores()[index]
    best = int(np.argmax(scores))
    return positions[combos[:, best]] + _LOWEST_ID, int(scores[best] >> 6)


@cache
def _ranked_packs() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every pack of the piquet deck, strongest first: ``(masks int64, positions intp (N, 5),
    keys int64)``. Packs of equal score (:func:`_five_card_scores`) keep the lexicographic order
    of their cards, so the first pack of this list made of some cards only is exactly the one
    :func:`strongest_pack` picks from them (its ``argmax`` takes the first best in that order)."""
    subsets = np.array(list(itertools.combinations(range(_DECK_SIZE), PACK_SIZE)), dtype=np.intp)
    scores = _five_card_scores()[_colex(subsets)]
    order = np.argsort(-scores, kind="stable")
    masks = (np.int64(1) << subsets).sum(axis=1)[order]
    return masks, subsets[order], scores[order] >> 6


_SCAN = 256  # packs of the ranked list tested at first; each further chunk twice as many


def _first_within(held: int, start: int) -> int:
    """Index in :func:`_ranked_packs` of the first pack at or after ``start`` made only of the
    cards in the bit mask ``held`` (bit ``c`` for deck position ``c``)."""
    masks = _ranked_packs()[0]
    outside = np.int64(~held)
    size = _SCAN
    while start < len(masks):
        hit = (masks[start : start + size] & outside) == 0
        if hit.any():
            return start + int(np.argmax(hit))
        start += size
        size *= 2
    raise ValueError("no five of the cards form a pack")


def greedy_packs(cards: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Five packs formed strongest first: ``(packs int64 (5, 5), keys int64 (5,))``.

    Each pack is :func:`strongest_pack` of the cards left. For 25 distinct piquet cards the
    first four are read off the deck's packs ranked strongest first (:func:`_ranked_packs`: the
    first one the cards left can form; a pack before the last one found cannot be formed from
    fewer cards, so each scan starts where the last stopped) and the fifth is the five cards
    left: a few hundred mask tests where scoring every subset takes 53,130 (~40 us a deal
    instead of ~500 us); the same packs either way.
    """
    ids = np.asarray(cards, dtype=np.int64)
    if (
        ids.shape != (NUM_PACKS * PACK_SIZE,)
        or ids.min() < _LOWEST_ID
        or ids.max() >= _LOWEST_ID + _DECK_SIZE
    ):
        return _greedy_packs_by_subsets(ids)
    held = int(np.bitwise_or.reduce(np.int64(1) << (ids - _LOWEST_ID)))
    if held.bit_count() != len(ids):  # a card named twice
        return _greedy_packs_by_subsets(ids)
    masks, ranked, ranked_keys = _ranked_packs()
    packs = np.empty((NUM_PACKS, PACK_SIZE), dtype=np.int64)
    keys = np.empty(NUM_PACKS, dtype=np.int64)
    at = 0
    for p in range(NUM_PACKS - 1):
        at = _first_within(held, at)
        packs[p] = ranked[at] + _LOWEST_ID
        keys[p] = ranked_keys[at]
        held &= ~int(masks[at])
        at += 1
    last = np.flatnonzero((held >> np.arange(_DECK_SIZE)) & 1)  # the five left, ascending
    packs[-1] = last + _LOWEST_ID
    keys[-1] = _five_card_scores()[_colex(last[None])[0]] >> 6
    return packs, keys


def _greedy_packs_by_subsets(cards: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:func:`greedy_packs` scoring every subset of the cards left at each step (any cards)."""
    rest = np.asarray(cards, dtype=np.int64)
    packs = np.empty((NUM_PACKS, PACK_SIZE), dtype=np.int64)
    keys = np.empty(NUM_PACKS, dtype=np.int64)
    for p in range(NUM_PACKS):
        packs[p], keys[p] = strongest_pack(rest)
        rest = np.setdiff1d(rest, packs[p])
    return packs, keys


# --- the order game ------------------------------------------------------------------------------
def strength_levels(keys: np.ndarray) -> tuple[int, ...]:
    """Levels of packs ranked strongest first: 0 for the strongest, +1 at each strictly weaker key.

    Equal packs share a level (``[9, 7, 7, 4, 2] -> (0, 1, 1, 2, 3)``); an order game is decided
    by levels only, so the 16 possible level patterns cover every deal.
    """
    steps = (np.diff(np.asarray(keys)) < 0).astype(int)
    return (0, *np.cumsum(steps).tolist())


def _order_payoffs(objective: str, levels: tuple[int, ...]) -> np.ndarray:
    """Payoff of order i against order k when both players hold the same five ranked packs."""
    level = np.asarray(levels)[ORDERS]  # level of the pack at each position, per order
    wins = np.sign(level[None, :, :] - level[:, None, :])  # a lower level is a stronger pack
    margin = (wins * _POINTS).sum(axis=-1).astype(np.float64)
    return margin if objective == "points" else np.sign(margin)


@lru_cache(maxsize=64)  # 16 strength-level patterns per objective at the default iterations
def order_equilibrium(
    objective: str = "points", levels: tuple[int, ...] = (0, 1, 2, 3, 4), iterations: int = 5000
) -> np.ndarray:
    """An equilibrium mix over :data:`ORDERS` of the symmetric order game, by regret matching+.

    Both players hold the same five packs, ranked strongest first with :func:`strength_levels`
    ``levels`` (distinct by default), and choose the position of each. With the default
    iterations no order gains more than 0.01 point (or win rate) against the mix.
    """
    check_choice("objective", objective, REWARDS)
    payoff = _order_payoffs(objective, tuple(levels))
    n = len(ORDERS)
    regret = np.zeros(n)
    total = np.zeros(n)
    mix = np.full(n, 1.0 / n)
    for t in range(1, iterations + 1):
        value = payoff @ mix
        regret = np.maximum(regret + value - mix @ value, 0.0)
        norm = regret.sum()
        mix = regret / norm if norm > 0 else np.full(n, 1.0 / n)
        total += t * mix  # linear averaging converges much faster than the plain mean
    return total / total.sum()


def ordered(packs: np.ndarray, order: tuple[int, ...] | np.ndarray) -> np.ndarray:
    """Packs ranked strongest first, laid out so position j holds the pack of rank order[j]."""
    return packs[np.asarray(order)]


# --- the best reply ------------------------------------------------------------------------------
BEST_RESPONSE_SAMPLES = 16
"""Orders drawn from the order game's equilibrium to stand for the mixed player."""
BEST_RESPONSE_SWAPS = 40
"""Card swaps tried at most while improving the packs."""


def mix_opponents(
    keys: np.ndarray, objective: str, rng: np.random.Generator, samples: int
) -> tuple[np.ndarray, np.ndarray]:
    """The mix :func:`best_response_plan` replies to, for greedy's pack ``keys`` (strongest
    first): key rows ``(M, 5)`` of the opponents' packs by position, and their weights ``(M,)``.
    Greedy, sacrifice, and ``samples`` orders drawn from the equilibrium with ``rng`` (one third
    each)."""
    mix = order_equilibrium(objective, strength_levels(keys))
    drawn = ORDERS[rng.choice(len(ORDERS), size=samples, p=mix)]
    orders = np.vstack([GREEDY_ORDER, SACRIFICE_ORDER, drawn])
    weights = np.concatenate([[1 / 3, 1 / 3], np.full(samples, 1 / (3 * samples))])
    return keys[orders], weights


def best_response_plan(
    packs: np.ndarray,
    keys: np.ndarray,
    rng: np.random.Generator,
    *,
    objective: str = "points",
    samples: int = BEST_RESPONSE_SAMPLES,
    max_swaps: int = BEST_RESPONSE_SWAPS,
) -> np.ndarray:
    """The best reply to a sampled mix of greedy, sacrifice and the order game's equilibrium
    (:func:`mix_opponents`, its ``samples`` orders drawn with ``rng``), from greedy's ``packs``
    and ``keys`` of the deal: the best order of greedy's packs against the mix, then the packs
    themselves improved by swapping cards between them (``max_swaps`` at most) while the
    expected result against the mix improves. ``objective``: ``"points"`` maximises the
    expected margin, ``"win"`` the expected win - loss rate. Returns the row ``int64 (5, 5)``,
    position 1 first (:func:`best_response_plans` of one deal)."""
    return best_response_plans(
        np.asarray(packs)[None],
        np.asarray(keys)[None],
        [rng],
        objective=objective,
        samples=samples,
        max_swaps=max_swaps,
    )[0]


def best_response_plans(
    packs: np.ndarray,
    keys: np.ndarray,
    rngs: list[np.random.Generator],
    *,
    objective: str = "points",
    samples: int = BEST_RESPONSE_SAMPLES,
    max_swaps: int = BEST_RESPONSE_SWAPS,
) -> np.ndarray:
    """:func:`best_response_plan` of ``B`` deals at once: greedy's ``packs`` ``(B, 5, 5)`` and
    ``keys`` ``(B, 5)``, deal ``b`` drawing its orders with ``rngs[b]``; the rows
    ``int64 (B, 5, 5)``, row ``b`` exactly ``best_response_plan(packs[b], keys[b], rngs[b],
    ...)``.

    Each step tries every swap of one card between two packs (:data:`_SWAPS`) of each deal
    still improving, all scored together: one :func:`evaluate` of the new packs and one margin
    array (:func:`_swap_margins`), each deal's expected results from its own product of
    margins and weights (:func:`_weighted`), as alone, so every comparison comes out the same
    whatever the batch. A deal stops at the first step where no swap improves on its best by
    more than 1e-9."""
    count = len(packs)
    mixes = [mix_opponents(keys[d], objective, rngs[d], samples) for d in range(count)]
    opponents = np.stack([opponent for opponent, _ in mixes])  # (B, M, 5)
    weights = mixes[0][1]  # the same for every deal
    rows = np.empty((count, NUM_PACKS, PACK_SIZE), dtype=np.int64)
    row_keys = np.empty((count, NUM_PACKS), dtype=np.int64)
    best = np.empty(count)
    values = _mix_values(keys[:, ORDERS], opponents, weights, objective)  # (B, 120)
    for d in range(count):
        rows[d] = ordered(packs[d], ORDERS[int(np.argmax(values[d]))])
        best[d] = float(values[d].max())
    row_keys[:] = evaluate(rows.reshape(-1, PACK_SIZE), "quintet").reshape(count, NUM_PACKS)
    a, b, i, j = _SWAPS.T
    n = len(_SWAPS)
    swap = np.arange(n)
    live = np.arange(count)
    for _ in range(max_swaps):
        if not live.size:
            break
        new_a = rows[live][:, a]  # (L, n, 5)
        new_b = rows[live][:, b]
        new_a[:, swap, i] = rows[live][:, b, j]
        new_b[:, swap, j] = rows[live][:, a, i]
        new_keys = evaluate(
            np.concatenate([new_a, new_b], axis=1).reshape(-1, PACK_SIZE), "quintet"
        )
        new_keys = new_keys.reshape(len(live), 2 * n)
        candidates = np.repeat(row_keys[live][:, None, :], n, axis=1)  # (L, n, 5)
        candidates[:, swap, a] = new_keys[:, :n]
        candidates[:, swap, b] = new_keys[:, n:]
        values = _weighted(
            _swap_margins(row_keys[live], new_keys, opponents[live]), weights, objective
        )
        kept = []
        for slot, deal in enumerate(live.tolist()):
            k = int(np.argmax(values[slot]))
            if values[slot, k] <= best[deal] + 1e-9:
                continue
            rows[deal, a[k]], rows[deal, b[k]] = new_a[slot, k], new_b[slot, k]
            row_keys[deal] = candidates[slot, k]
            kept.append(deal)
        live = np.array(kept, dtype=np.intp)
        if not live.size:
            break
        # The new packs may rank differently: lay them out in their best order again.
        values = _mix_values(row_keys[live][:, ORDERS], opponents[live], weights, objective)
        for slot, deal in enumerate(live.tolist()):
            order = ORDERS[int(np.argmax(values[slot]))]
            rows[deal], row_keys[deal] = rows[deal][order], row_keys[deal][order]
            best[deal] = float(values[slot].max())
    return rows


_SWAPS = np.array(
    [
        (a, b, i, j)
        for a in range(NUM_PACKS)
        for b in range(a + 1, NUM_PACKS)
        for i in range(PACK_SIZE)
        for j in range(PACK_SIZE)
    ],
    dtype=np.intp,
)
"""Every swap of one card between two packs: (pack a, pack b, slot in a, slot in b), in
:func:`best_response_plan`'s order."""


def _mix_values(
    rows: np.ndarray, opponents: np.ndarray, weights: np.ndarray, objective: str
) -> np.ndarray:
    """Expected result ``(B, C)`` of each deal's candidate key rows ``(B, C, 5)`` against its
    weighted opponents ``(B, M, 5)`` (:func:`mix_opponents`)."""
    margin = (np.sign(rows[:, :, None, :] - opponents[:, None, :, :]) * _POINTS).sum(axis=-1)
    return _weighted(margin, weights, objective)


def _swap_margins(keys: np.ndarray, new_keys: np.ndarray, opponents: np.ndarray) -> np.ndarray:
    """Point margins ``(B, S, M)`` of every swap of :data:`_SWAPS` of each deal's row (pack
    ``keys`` ``(B, 5)``; ``new_keys`` ``(B, 2S)``: the new packs a, then b) against its
    opponents ``(B, M, 5)``: the row's margin with the two packs' points replaced (the same
    integers as summing all five positions, in a fraction of the work)."""
    a, b = _SWAPS[:, 0], _SWAPS[:, 1]
    n = len(_SWAPS)
    points = (np.sign(keys[:, None, :] - opponents) * _POINTS).swapaxes(1, 2)  # (B, 5, M)
    base = points.sum(axis=1)  # (B, M)
    against = opponents.swapaxes(1, 2)  # (B, 5, M)
    gain_a = np.sign(new_keys[:, :n, None] - against[:, a]) * _POINTS[a, None]
    gain_b = np.sign(new_keys[:, n:, None] - against[:, b]) * _POINTS[b, None]
    return base[:, None, :] - points[:, a] - points[:, b] + gain_a + gain_b


def _weighted(margin: np.ndarray, weights: np.ndarray, objective: str) -> np.ndarray:
    """Each deal's expected result ``(B, C)`` from its margins ``(B, C, M)``: its own
    ``margin @ weights`` (``int64 (C, M) @ float64 (M,)``), the product a deal alone takes, so
    the floats agree to the bit whatever the batch; ``"win"`` weighs the margins' signs."""
    if objective == "win":
        margin = np.sign(margin)
    return np.stack([np.ascontiguousarray(margin[b]) @ weights for b in range(len(margin))])
