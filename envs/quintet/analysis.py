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
  game's equilibrium, one third each, improved by swapping cards between packs.

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


def greedy_packs(cards: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Five packs formed strongest first: ``(packs int64 (5, 5), keys int64 (5,))``."""
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


def _mix_value(
    rows: np.ndarray, opponents: np.ndarray, weights: np.ndarray, objective: str
) -> np.ndarray:
    """Expected result of each candidate key row ``(C, 5)`` against the weighted opponents."""
    margin = (np.sign(rows[:, None, :] - opponents[None, :, :]) * _POINTS).sum(axis=-1)
    if objective == "win":
        margin = np.sign(margin)
    return margin @ weights


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
    position 1 first."""
    opponents, weights = mix_opponents(keys, objective, rng, samples)
    values = _mix_value(keys[ORDERS], opponents, weights, objective)
    row = ordered(packs, ORDERS[int(np.argmax(values))])
    row_keys = evaluate(row, "quintet")
    best = float(values.max())
    pairs = [(a, b) for a in range(NUM_PACKS) for b in range(a + 1, NUM_PACKS)]
    slots = [(i, j) for i in range(PACK_SIZE) for j in range(PACK_SIZE)]
    swaps = np.array([(a, b, i, j) for a, b in pairs for i, j in slots], dtype=np.intp)
    a, b, i, j = swaps.T
    n = len(swaps)
    for _ in range(max_swaps):
        # Every swap of one card between two packs, evaluated in one batch.
        new_a = row[a].copy()
        new_b = row[b].copy()
        new_a[np.arange(n), i] = row[b, j]
        new_b[np.arange(n), j] = row[a, i]
        new_keys = evaluate(np.vstack([new_a, new_b]), "quintet")
        rows = np.repeat(row_keys[None, :], n, axis=0)
        rows[np.arange(n), a] = new_keys[:n]
        rows[np.arange(n), b] = new_keys[n:]
        values = _mix_value(rows, opponents, weights, objective)
        k = int(np.argmax(values))
        if values[k] <= best + 1e-9:
            break
        row[a[k]], row[b[k]] = new_a[k], new_b[k]
        row_keys = rows[k]
        # The new packs may rank differently: lay them out in their best order again.
        values = _mix_value(row_keys[ORDERS], opponents, weights, objective)
        order = ORDERS[int(np.argmax(values))]
        row, row_keys, best = row[order], row_keys[order], float(values.max())
    return row
