"""Quintet ``"plans"`` features: candidate rows for the deal, for a policy that learns which to
follow (config ``features: plans`` with ``ppo.policy: per_action``).

All 25 cards are public from the first card on, and every baseline bot builds its packs from
:func:`~pokerzoo.agents.quintet.greedy_packs`, so what the bots will lay out is known before a
card is placed. For each deal (computed once, cached on the 25 cards) the features hold
:data:`NUM_PLANS` candidate rows:

====  ============================================================================================
0     :func:`~pokerzoo.agents.quintet_search.reply` to the modelled bots, equal weights
1     the same with the mixed bot weighted twice
2     the best-response bot's plan (seed 0)
3     the greedy bot's row
4     the sacrifice bot's row
====  ============================================================================================

and, for each, its modelled result against each bot
(:func:`~pokerzoo.agents.quintet_search.pool_model`): expected win - loss rate against greedy,
sacrifice, mixed, best_response and the mean expected margin / 25. The model is of the bots
under the env's default ``reward="points"`` (with ``"win"`` the mixed and best-response bots
optimise win rates and play slightly differently). The rows are candidates, not moves: the
policy (``PerActionHead`` with a gate, :mod:`pokerzoo.training.policies`) weighs each
candidate's suggestion by a learned function of these statistics, starting from equal weights,
and PPO learns from the results which candidates to trust.

The env's 262 entries come first, then for each of the 5 packs a row of
``9 + NUM_PLANS * (2 + NUM_STATS)`` = 44 features:

==========  ===================================================================================
0-8         the ``"packs"`` features of :func:`pokerzoo.training.features.quintet_packs`
9-13        per candidate: it puts the current card in this pack, times its agreement (below)
14-43       per candidate (the same in every pack's row): the 5 statistics above, then its
            agreement, the share of the player's cards placed so far where the candidate put
            them (1 before the first card)
==========  ===================================================================================

All per-candidate entries are 0 once the player has placed every card. 262 + 5 x 44 = 482.
"""

from __future__ import annotations

import numpy as np

from ..agents.quintet import GREEDY_ORDER, SACRIFICE_ORDER
from ..agents.quintet_search import expected_results, pool_model, reply
from ..envs.quintet import (
    DECK,
    NUM_PACKS,
    OBS_CURRENT,
    OBS_DEALT,
    OBS_PACKS,
    OBSERVATION_SIZE,
    PACK_SIZE,
)
from .features import batched, quintet_packs

__all__ = ["NUM_PLANS", "NUM_STATS", "deal_plans", "quintet_plans"]

NUM_PLANS = 5
NUM_STATS = 5
_BOTS = ("greedy", "sacrifice", "mixed", "best_response")
_DECK = len(DECK)
_LOWEST_ID = int(DECK[0])
_BASE = OBSERVATION_SIZE
_PACK_FEATURES = 9
_ROW = _PACK_FEATURES + NUM_PLANS * (2 + NUM_STATS)

_CACHE: dict[bytes, tuple[np.ndarray, np.ndarray]] = {}
_CACHE_SIZE = 50_000


def deal_plans(dealt: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(pack_of (NUM_PLANS, 32), stats (NUM_PLANS, NUM_STATS))`` of one deal.

    ``dealt``: the observation's 32 dealt-card flags. ``pack_of[k, c]``: the pack where
    candidate ``k`` puts piquet card index ``c`` (-1 for cards not in play). Cached per deal.
    """
    key = np.asarray(dealt, dtype=bool).tobytes()
    found = _CACHE.get(key)
    if found is not None:
        return found
    cards = np.flatnonzero(np.asarray(dealt, dtype=bool)) + _LOWEST_ID
    model = pool_model(cards)
    packs = model.greedy_packs
    rows = [
        reply(model),
        reply(model, {"greedy": 1, "sacrifice": 1, "mixed": 2, "best_response": 1}),
        model.plans[0],  # seed 0's (plans are kept in seed order)
        packs[list(GREEDY_ORDER)],
        packs[list(SACRIFICE_ORDER)],
    ]
    pack_of = np.full((NUM_PLANS, _DECK), -1, dtype=np.int64)
    stats = np.empty((NUM_PLANS, NUM_STATS), dtype=np.float32)
    for k, row in enumerate(rows):
        positions = np.repeat(np.arange(NUM_PACKS), PACK_SIZE)
        pack_of[k, np.asarray(row).ravel() - _LOWEST_ID] = positions
        results = expected_results(row, model)
        stats[k, :4] = [results[b]["win"] - results[b]["loss"] for b in _BOTS]
        stats[k, 4] = np.mean([results[b]["margin"] for b in _BOTS]) / 25
    if len(_CACHE) >= _CACHE_SIZE:
        _CACHE.clear()
    _CACHE[key] = (pack_of, stats)
    return pack_of, stats


@batched
def quintet_plans(observations: np.ndarray) -> np.ndarray:
    """The ``"plans"`` features of a batch of Quintet observations (see the module doc)."""
    obs = observations
    n = len(obs)
    base = quintet_packs(obs)[:, _BASE:].reshape(n, NUM_PACKS, _PACK_FEATURES)
    extra = np.zeros((n, NUM_PACKS, NUM_PLANS * (2 + NUM_STATS)), dtype=np.float32)
    packs = obs[:, OBS_PACKS].reshape(n, NUM_PACKS, _DECK) > 0
    for i in range(n):
        current = obs[i, OBS_CURRENT]
        if current.sum() == 0:
            continue  # the player is done: nothing to place
        pack_of, stats = deal_plans(obs[i, OBS_DEALT] > 0)
        placed_pack, placed_card = np.nonzero(packs[i])
        if placed_card.size:
            agreement = (pack_of[:, placed_card] == placed_pack).mean(axis=1)
        else:
            agreement = np.ones(NUM_PLANS)
        suggested = pack_of[:, int(np.argmax(current))]  # (NUM_PLANS,)
        # assign[p, k]: candidate k puts the current card in pack p, times its agreement.
        assign = (suggested[None, :] == np.arange(NUM_PACKS)[:, None]) * agreement[None, :]
        per_plan = np.concatenate([stats, agreement[:, None]], axis=1).ravel()
        extra[i, :, :NUM_PLANS] = assign
        extra[i, :, NUM_PLANS:] = per_plan[None, :]
    out = np.concatenate([obs, np.concatenate([base, extra], axis=2).reshape(n, -1)], axis=1)
    return out


# (offset, actions, k) and the gate: (first suggestion column, candidates, first statistics
# column, statistics per candidate, the gate's starting weight); see PerActionHead.
quintet_plans.per_action = (  # type: ignore[attr-defined]
    _BASE,
    NUM_PACKS,
    _ROW,
    _PACK_FEATURES,
    NUM_PLANS,
    _PACK_FEATURES + NUM_PLANS,
    NUM_STATS + 1,
    2.0,
)
