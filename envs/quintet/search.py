"""Search for a Quintet row that beats a model of the baseline bots (RULES §1).

All 25 cards are public and every planning bot of :mod:`pokerzoo.agents.quintet` builds its
packs with :func:`~.analysis.greedy_packs`, so what each bot will lay out is known
(up to the random draws of the mixed and best-response bots) before the first card is placed.
:func:`pool_model` writes that down as rows of pack keys by position with probabilities;
:func:`reply` searches the arrangements of the 25 cards for a row with the best expected result
against a weighted mix of those models. A row is evaluated only through its pack keys, so the
search compares thousands of rows per millisecond.

>>> from pokerzoo.envs.cards import parse_cards
>>> cards = np.array(sorted(parse_cards(
...     "Ac Ad Ah Kc Kd Kh Ks Qc Qd Qh Qs Jc Jd Jh Tc Td Th Ts 9c 9d 9h 9s 8c 8d 7c")))
>>> model = pool_model(cards)
>>> row = reply(model)
>>> sorted(model.bots)
['best_response', 'greedy', 'mixed', 'sacrifice']
>>> expected_results(row, model)["sacrifice"]["win"]
1.0
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from ..core.cards import CardsLike
from ..core.hands import evaluate
from ..core.options import check_choice, check_int
from . import analysis
from .analysis import ORDERS
from .rules import NUM_PACKS, PACK_SIZE, POSITION_POINTS, REWARDS, QuintetRules

__all__ = ["BotModel", "PoolModel", "expected_results", "pool_model", "reply"]

_REORDER_TOP = 4  # orders per exchange scored exactly when exchanges are tried reordered
_MIN_WEIGHT = 0.002  # mixed-bot orders below this probability are left out of its model
_PAIRS = [(a, b) for a in range(NUM_PACKS) for b in range(a + 1, NUM_PACKS)]
# Every exchange of one card between two packs: (pack a, pack b, slot in a, slot in b).
_SWAPS = np.array(
    [(a, b, i, j) for a, b in _PAIRS for i in range(PACK_SIZE) for j in range(PACK_SIZE)],
    dtype=np.intp,
)


@dataclass(frozen=True)
class BotModel:
    """What one bot lays out on a deal: ``rows (M, 5)`` pack keys by position (position 1
    first), each with probability ``weights[m]`` (they sum to 1)."""

    rows: np.ndarray
    weights: np.ndarray


@dataclass(frozen=True)
class PoolModel:
    """The bots of one deal: ``bots`` name -> :class:`BotModel`; ``greedy_packs`` the deal's
    greedy packs ``(5, 5)`` strongest first; ``plans`` the best-response bot's distinct plans
    (rows of cards) behind its model."""

    bots: dict[str, BotModel]
    greedy_packs: np.ndarray
    plans: tuple[np.ndarray, ...]


def pool_model(
    cards: CardsLike, *, objective: str = "points", best_response_seeds: int = 4
) -> PoolModel:
    """Models of the greedy, sacrifice, mixed and best-response bots on a deal.

    ``cards``: the 25 distinct piquet cards in play (ids or notation, any order; anything else
    raises :class:`ValueError` naming the bad card). The mixed bot is its equilibrium mix over
    the orders of greedy's packs (orders under 0.2% left out, the rest renormalised); the
    best-response bot, whose plan depends on the orders it samples, is its plans under seeds
    ``0 .. best_response_seeds - 1``, equally likely. ``objective`` is the bots' ``reward``
    option.
    """
    check_choice("objective", objective, REWARDS)
    check_int("best_response_seeds", best_response_seeds, 1)
    ids = np.sort(QuintetRules().new_state(cards).cards).astype(np.int64)
    packs, keys = analysis.greedy_packs(ids)
    mix = analysis.order_equilibrium(objective, analysis.strength_levels(keys))
    support = np.flatnonzero(mix >= _MIN_WEIGHT)
    plans = [
        analysis.best_response_plan(packs, keys, np.random.default_rng(s), objective=objective)
        for s in range(best_response_seeds)
    ]
    replies = evaluate(np.vstack(plans), "quintet").reshape(len(plans), NUM_PACKS)
    distinct = {plan.tobytes(): plan for plan in plans}
    bots = {
        "greedy": BotModel(keys[None, list(analysis.GREEDY_ORDER)], np.ones(1)),
        "sacrifice": BotModel(keys[None, list(analysis.SACRIFICE_ORDER)], np.ones(1)),
        "mixed": BotModel(keys[ORDERS[support]], mix[support] / mix[support].sum()),
        "best_response": BotModel(replies, np.full(len(replies), 1.0 / len(replies))),
    }
    return PoolModel(bots, packs, tuple(distinct.values()))


def _margins(rows: np.ndarray, opponents: np.ndarray) -> np.ndarray:
    """Point margin of each row ``(C, 5)`` against each opponent row ``(M, 5)``: ``(C, M)``."""
    margin = np.zeros((len(rows), len(opponents)), dtype=np.int16)
    for j, points in enumerate(POSITION_POINTS):
        margin += np.sign(rows[:, j, None] - opponents[None, :, j]).astype(np.int16) * points
    return margin


def expected_results(row_or_keys: np.ndarray, model: PoolModel) -> dict[str, dict[str, float]]:
    """Expected win / draw / loss rate and point margin of one row against each modelled bot.

    ``row_or_keys``: a row of cards ``(5, 5)`` or its pack keys ``(5,)``, position 1 first.
    """
    keys = np.asarray(row_or_keys)
    if keys.ndim == 2:
        keys = evaluate(keys, "quintet")
    results = {}
    for name, bot in model.bots.items():
        margin = _margins(keys[None], bot.rows)[0]
        results[name] = {
            "win": float((margin > 0) @ bot.weights),
            "draw": float((margin == 0) @ bot.weights),
            "loss": float((margin < 0) @ bot.weights),
            "margin": float(margin @ bot.weights),
        }
    return results


class _Objective:
    """Expected value of candidate key rows against a weighted mix of bot models."""

    def __init__(self, model: Mapping[str, BotModel], weights: Mapping[str, float], kind: str):
        unknown = sorted(set(weights) - set(model))
        if unknown:
            raise ValueError(
                f"bad weights: no model of {unknown}; expected keys of {sorted(model)}"
            )
        names = [name for name in model if weights.get(name, 0.0) > 0]
        if not names:
            raise ValueError(f"bad weights {dict(weights)!r}: expected a positive weight")
        total = sum(weights[name] for name in names)
        rows = np.vstack([model[name].rows for name in names])
        self.weights = np.concatenate(
            [model[name].weights * weights[name] / total for name in names]
        )
        self.kind = kind
        # Keys only matter by order: rank them against the opponents' keys (2i + 1 for the i-th
        # distinct opponent key, even numbers in between) so comparisons run on small ints.
        self._levels = np.unique(rows)
        self.rows = self.rank(rows)
        # Expected points won at each position by a pack of each rank: (2 * levels + 1, 5).
        ranks = np.arange(2 * len(self._levels) + 1)
        self._expected = np.stack(
            [
                np.sign(ranks[:, None] - self.rows[None, :, j]) @ self.weights * p
                for j, p in enumerate(POSITION_POINTS)
            ],
            axis=1,
        )

    def rank(self, keys: np.ndarray) -> np.ndarray:
        """Keys mapped to small ints that compare with the opponents' keys as the keys do."""
        left = np.searchsorted(self._levels, keys, side="left")
        right = np.searchsorted(self._levels, keys, side="right")
        return (left + right).astype(np.int16)

    def expected_margins(self, ranked: np.ndarray) -> np.ndarray:
        """Expected margin of ranked candidate packs ``(C, 5)`` in every order: ``(C, 120)``."""
        # gain[c, k, j]: expected points of candidate c's pack k at position j.
        gain = self._expected[ranked]  # (C, 5 packs, 5 positions)
        return gain[:, ORDERS, np.arange(NUM_PACKS)].sum(axis=-1)

    def __call__(self, rows: np.ndarray, ranked: bool = False) -> np.ndarray:
        margin = _margins(rows if ranked else self.rank(rows), self.rows)
        if self.kind == "win":
            # Wins first; the margin (at most 25 points) only breaks ties between equal win rates.
            return (np.sign(margin) + margin / 1000.0) @ self.weights
        return margin @ self.weights


def _best_order(keys: np.ndarray, value: _Objective) -> tuple[np.ndarray, float]:
    values = value(keys[ORDERS])
    best = int(np.argmax(values))
    return ORDERS[best], float(values[best])


def _improve(
    row: np.ndarray, value: _Objective, max_steps: int
) -> tuple[np.ndarray, np.ndarray, float]:
    """Hill-climb from ``row`` by single-card exchanges, each step taking the best exchange.

    Exchanges are scored with the packs where they stand; when none improves, each exchange is
    scored once more in its few best pack orders (ranked by expected margin, which is cheap for
    all 120), so an exchange that pays only after reordering is found too.
    """
    keys = evaluate(row, "quintet")
    order, best = _best_order(keys, value)
    row, keys = row[order], keys[order]
    a, b, i, j = _SWAPS.T
    n = len(_SWAPS)
    every = np.arange(n)
    for _ in range(max_steps):
        new_a, new_b = row[a].copy(), row[b].copy()
        new_a[every, i] = row[b, j]
        new_b[every, j] = row[a, i]
        new_keys = evaluate(np.vstack([new_a, new_b]), "quintet")
        rows = np.repeat(keys[None, :], n, axis=0)
        rows[every, a] = new_keys[:n]
        rows[every, b] = new_keys[n:]
        values = value(rows)
        k = int(np.argmax(values))
        order = None
        if values[k] <= best + 1e-9:
            # Reorder each exchange's packs: its few best orders by expected margin (linear,
            # so cheap for all 120), then the true objective of those.
            ranked = value.rank(rows)
            top = np.argsort(-value.expected_margins(ranked), axis=1)[:, :_REORDER_TOP]
            orders = ORDERS[top]  # (n, top, 5)
            candidates = np.take_along_axis(ranked[:, None, :], orders, axis=2)
            reordered = value(candidates.reshape(-1, NUM_PACKS), ranked=True).reshape(n, -1)
            k, o = np.unravel_index(int(np.argmax(reordered)), reordered.shape)
            if reordered[k, o] <= best + 1e-9:
                break
            order = orders[k, o]
        row[a[k]], row[b[k]] = new_a[k], new_b[k]
        keys = rows[k]
        if order is None:
            order, best = _best_order(keys, value)
        else:
            best = float(value(keys[order][None])[0])
        row, keys = row[order], keys[order]
    return row, keys, best


def reply(
    model: PoolModel,
    weights: Mapping[str, float] | None = None,
    *,
    objective: str = "win",
    max_steps: int = 60,
) -> np.ndarray:
    """A row of the deal's 25 cards that does well against a weighted mix of the bots of
    ``model``.

    Starts from greedy's packs and from each of the best-response bot's plans in the model,
    hill-climbs each by card exchanges (:func:`_improve`) and keeps the best. ``weights``: bot
    name -> weight (default: equal); ``objective``: ``"win"`` maximises the expected win - loss
    rate (the margin breaks ties), ``"points"`` the expected point margin. Returns
    ``int64 (5, 5)``, the card ids of the packs at positions 1..5.
    """
    check_choice("objective", objective, REWARDS)
    value = _Objective(model.bots, weights or dict.fromkeys(model.bots, 1.0), objective)
    best_row, best = model.greedy_packs, -np.inf
    for start in (model.greedy_packs, *model.plans):
        row, _, score = _improve(np.array(start, dtype=np.int64), value, max_steps)
        if score > best + 1e-9:
            best_row, best = row, score
    return best_row
