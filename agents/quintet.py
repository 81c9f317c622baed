"""Baseline Quintet bots (RULES §1), all following :class:`pokerzoo.agents.base.Bot`.

A bot reads the 25 cards from its first observation (the placement order is fixed and known),
plans its whole row of five packs at once, then places each card where the plan says. Only the
public engine API is used: the observation layout of :mod:`pokerzoo.envs.quintet` and the
``"quintet"`` hand keys of :mod:`pokerzoo.envs.hands`.

=================  ==============================================================================
``"random"``       a uniformly random legal pack for every card.
``"greedy"``       forms the strongest pack of the 25 cards, then the strongest of the remaining
                   20, and so on; the strongest goes to the 7-point position, the next to 6, ...,
                   the leftover five to 3.
``"sacrifice"``    greedy's packs, placed to beat greedy: the weakest pack gives up the 7-point
                   slot and every other pack moves one slot up (strongest on 6, ..., fourth on 3),
                   winning 3 + 4 + 5 + 6 = 18 points against 7 when the packs are all distinct.
``"mixed"``        greedy's packs in a random order drawn from the equilibrium of the "order"
                   game (both players hold the same five packs ranked 1..5 and choose which
                   position each goes to): no order of those packs beats it on average.
``"best_response"``  the best reply to a sampled mix of opponents (greedy, sacrifice and samples
                   of mixed, one third each): picks the best order of greedy's packs against the
                   mix, then improves the packs themselves by swapping cards between them while
                   the expected result against the mix improves.
=================  ==============================================================================

Bots that optimise take the env's ``reward`` option: ``"points"`` maximises the expected point
margin, ``"win"`` the expected win - loss rate. Every bot takes keyword-only ``seed`` and ignores
other env options, so ``BOTS[name](seed=s, **env_options)`` builds any of them.
"""

from __future__ import annotations

import itertools
from functools import cache, lru_cache
from math import comb
from typing import Any

import numpy as np

from ..envs.core.hands import evaluate
from ..envs.core.options import check_choice
from ..envs.quintet import (
    DECK,
    NUM_PACKS,
    PACK_SIZE,
    POSITION_POINTS,
    REWARDS,
    decode_observation,
)
from .base import RandomBot

__all__ = [
    "BOTS",
    "BestResponseBot",
    "GreedyBot",
    "MixedBot",
    "RandomBot",
    "SacrificeBot",
    "greedy_packs",
    "order_equilibrium",
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


# --- bots ----------------------------------------------------------------------------------------
def _check_reward(reward: str) -> str:
    return check_choice("reward", reward, REWARDS)


class _PlanningBot:
    """Plans the whole row at the first card of a deal, then follows the plan.

    A plan is a row: ``row[j]`` the five card ids of the pack at position ``j``. If the plan's
    pack is ever masked (the bot was dropped into a deal it did not start), the bot falls back to
    the legal pack worth the most points.
    """

    name = "planning"

    def __init__(self, *, seed: int | None = None, reward: str = "points", **env_options: Any):
        self.objective = _check_reward(reward)
        self.reset(seed)

    def reset(self, seed: int | None = None) -> None:
        self._rng = np.random.default_rng(seed)
        self._deal: bytes | None = None
        self._pack_of = np.full(_LOWEST_ID + _DECK_SIZE, -1, dtype=np.int64)

    def plan(self, cards: np.ndarray) -> np.ndarray:
        """The row to play with these 25 cards: ``int64 (5, 5)``, position 1 first."""
        raise NotImplementedError

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        seen = decode_observation(observation)
        deal = seen.cards.tobytes()
        if seen.placed == 0 or deal != self._deal:
            row = self.plan(np.sort(seen.cards).astype(np.int64))
            self._pack_of[row.ravel()] = np.repeat(np.arange(NUM_PACKS), PACK_SIZE)
            self._deal = deal
        pack = int(self._pack_of[seen.current]) if seen.current is not None else -1
        if pack >= 0 and action_mask[pack]:
            return pack
        legal = np.flatnonzero(action_mask)
        if legal.size == 0:
            raise ValueError("no legal action: the action mask is all zeros")
        return int(legal[-1])


def _ordered(packs: np.ndarray, order: tuple[int, ...] | np.ndarray) -> np.ndarray:
    """Packs ranked strongest first, laid out so position j holds the pack of rank order[j]."""
    return packs[np.asarray(order)]


class GreedyBot(_PlanningBot):
    """Strongest packs first; the strongest on the 7-point position."""

    name = "greedy"

    def plan(self, cards: np.ndarray) -> np.ndarray:
        packs, _ = greedy_packs(cards)
        return _ordered(packs, GREEDY_ORDER)


class SacrificeBot(_PlanningBot):
    """Greedy's packs; the weakest gives up the 7-point slot, the others move one slot up."""

    name = "sacrifice"

    def plan(self, cards: np.ndarray) -> np.ndarray:
        packs, _ = greedy_packs(cards)
        return _ordered(packs, SACRIFICE_ORDER)


class MixedBot(_PlanningBot):
    """Greedy's packs in an order drawn from the order game's equilibrium."""

    name = "mixed"

    def plan(self, cards: np.ndarray) -> np.ndarray:
        packs, keys = greedy_packs(cards)
        mix = order_equilibrium(self.objective, strength_levels(keys))
        return _ordered(packs, ORDERS[self._rng.choice(len(ORDERS), p=mix)])


class BestResponseBot(_PlanningBot):
    """Best reply to a sampled mix of greedy, sacrifice and mixed (one third each).

    Args:
        seed: seeds the samples of the mixed bot's orders.
        reward: ``"points"`` maximise the expected margin, ``"win"`` the expected win - loss.
        samples: orders drawn from the equilibrium to stand for the mixed bot.
        max_swaps: card swaps tried at most while improving the packs.
    """

    name = "best_response"

    def __init__(
        self,
        *,
        seed: int | None = None,
        reward: str = "points",
        samples: int = 16,
        max_swaps: int = 40,
        **env_options: Any,
    ) -> None:
        if isinstance(samples, bool) or not isinstance(samples, int) or samples < 1:
            raise ValueError(f"bad samples {samples!r}: expected a positive int")
        if isinstance(max_swaps, bool) or not isinstance(max_swaps, int) or max_swaps < 0:
            raise ValueError(f"bad max_swaps {max_swaps!r}: expected an int >= 0")
        self.samples = samples
        self.max_swaps = max_swaps
        super().__init__(seed=seed, reward=reward)

    def _opponents(self, keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Key rows ``(M, 5)`` of the opponents' packs by position, and their weights ``(M,)``."""
        mix = order_equilibrium(self.objective, strength_levels(keys))
        drawn = ORDERS[self._rng.choice(len(ORDERS), size=self.samples, p=mix)]
        orders = np.vstack([GREEDY_ORDER, SACRIFICE_ORDER, drawn])
        weights = np.concatenate([[1 / 3, 1 / 3], np.full(self.samples, 1 / (3 * self.samples))])
        return keys[orders], weights

    def _value(self, rows: np.ndarray, opponents: np.ndarray, weights: np.ndarray) -> np.ndarray:
        """Expected result of each candidate key row ``(C, 5)`` against the weighted opponents."""
        margin = (np.sign(rows[:, None, :] - opponents[None, :, :]) * _POINTS).sum(axis=-1)
        if self.objective == "win":
            margin = np.sign(margin)
        return margin @ weights

    def plan(self, cards: np.ndarray) -> np.ndarray:
        return self.plan_from(*greedy_packs(cards))

    def plan_from(self, packs: np.ndarray, keys: np.ndarray) -> np.ndarray:
        """:meth:`plan` from greedy's ``packs`` and ``keys`` of the deal (computed once by
        callers that need them too, e.g. :mod:`pokerzoo.agents.quintet_search`)."""
        opponents, weights = self._opponents(keys)
        values = self._value(keys[ORDERS], opponents, weights)
        row = _ordered(packs, ORDERS[int(np.argmax(values))])
        row_keys = evaluate(row, "quintet")
        best = float(values.max())
        pairs = [(a, b) for a in range(NUM_PACKS) for b in range(a + 1, NUM_PACKS)]
        slots = [(i, j) for i in range(PACK_SIZE) for j in range(PACK_SIZE)]
        swaps = np.array([(a, b, i, j) for a, b in pairs for i, j in slots], dtype=np.intp)
        a, b, i, j = swaps.T
        n = len(swaps)
        for _ in range(self.max_swaps):
            # Every swap of one card between two packs, evaluated in one batch.
            new_a = row[a].copy()
            new_b = row[b].copy()
            new_a[np.arange(n), i] = row[b, j]
            new_b[np.arange(n), j] = row[a, i]
            new_keys = evaluate(np.vstack([new_a, new_b]), "quintet")
            rows = np.repeat(row_keys[None, :], n, axis=0)
            rows[np.arange(n), a] = new_keys[:n]
            rows[np.arange(n), b] = new_keys[n:]
            values = self._value(rows, opponents, weights)
            k = int(np.argmax(values))
            if values[k] <= best + 1e-9:
                break
            row[a[k]], row[b[k]] = new_a[k], new_b[k]
            row_keys = rows[k]
            # The new packs may rank differently: lay them out in their best order again.
            values = self._value(row_keys[ORDERS], opponents, weights)
            order = ORDERS[int(np.argmax(values))]
            row, row_keys, best = row[order], row_keys[order], float(values.max())
        return row


BOTS: dict[str, type] = {
    bot.name: bot for bot in (RandomBot, GreedyBot, SacrificeBot, MixedBot, BestResponseBot)
}
