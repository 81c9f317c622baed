"""Quintet's training hooks: the ``"packs"`` and ``"plans"`` feature sets, the ``"packs"``
action formulation (:mod:`pokerzoo.training.games.quintet.packs`: a whole pack and its position
per decision) and how ``play`` shows a deal and reads a pack.

``"packs"``
-----------
The env's 262 entries plus, for each of the 5 packs, the 7
:func:`~pokerzoo.training.features.line_features` of the pack with the current card added
(straights inside 7..A), the pack's points / 7 and 1 if it is still open: 5 x 9 = 45 extra
entries, 307 in all, one row of 9 per pack for ``ppo.policy: per_action``.

``"plans"``
-----------
Quintet ``"plans"`` features: candidate rows for the deal, for a policy that learns which to
follow (config ``features: plans`` with ``ppo.policy: per_action``).

All 25 cards are public from the first card on, and every baseline bot builds its packs from
:func:`~pokerzoo.envs.quintet.analysis.greedy_packs`, so what the bots will lay out is known
before a card is placed. For each deal (computed once, cached on the 25 cards) the features hold
:data:`NUM_PLANS` candidate rows:

====  ============================================================================================
0     :func:`~pokerzoo.envs.quintet.search.reply` to the modelled bots, equal weights
1     the same with the mixed bot weighted twice
2     the best-response bot's plan (seed 0)
3     the greedy bot's row
4     the sacrifice bot's row
====  ============================================================================================

and, for each, its modelled result against each bot
(:func:`~pokerzoo.envs.quintet.search.pool_model`): expected win - loss rate against greedy,
sacrifice, mixed, best_response and the mean expected margin / 25. The model is of the bots
under the env's default ``reward="points"`` (with ``"win"`` the mixed and best-response bots
optimise win rates and play slightly differently). The rows are candidates, not moves: the
policy (``PerActionHead`` with a gate, :mod:`pokerzoo.training.policies`) weighs each
candidate's suggestion by a learned function of these statistics, starting from equal weights,
and PPO learns from the results which candidates to trust.

The env's 262 entries come first, then for each of the 5 packs a row of
``9 + NUM_PLANS * (2 + NUM_STATS)`` = 44 features:

==========  ===================================================================================
0-8         the ``"packs"`` features of :func:`packs`
9-13        per candidate: it puts the current card in this pack, times its agreement (below)
14-43       per candidate (the same in every pack's row): the 5 statistics above, then its
            agreement, the share of the player's cards placed so far where the candidate put
            them (1 before the first card)
==========  ===================================================================================

All per-candidate entries are 0 once the player has placed every card. 262 + 5 x 44 = 482.
"""

from __future__ import annotations

from collections import OrderedDict

import numpy as np

from ....envs.core.cards import format_card, format_cards
from ....envs.quintet import DECK, LAYOUT, NUM_PACKS, PACK_SIZE, POSITION_POINTS, decode_observation
from ....envs.quintet.analysis import GREEDY_ORDER, SACRIFICE_ORDER
from ....envs.quintet.search import expected_results, pool_model, reply
from ...features import FeatureSet, Gate, PerActionLayout, batched, line_features, straight_windows
from ...hooks import TrainingHooks
from .packs import PackFormulation

__all__ = ["HOOKS", "NUM_PLANS", "NUM_STATS", "deal_plans", "packs", "plans"]

# Piquet card index c (0..31) is card id 20 + c, rank index 5 + c // 4 (7..A).
_DECK = len(DECK)
_LOWEST_ID = int(DECK[0])
_RANKS = np.zeros((_DECK, 13), dtype=np.float32)
_RANKS[np.arange(_DECK), 5 + np.arange(_DECK) // 4] = 1
_SUITS = np.zeros((_DECK, 4), dtype=np.float32)
_SUITS[np.arange(_DECK), np.arange(_DECK) % 4] = 1
_WINDOWS = straight_windows(lowest_rank=5)  # straights inside 7..A only: J-T-9-8-7 up
_PACK_FEATURES = 9
_PACKS = LAYOUT["packs"]
_CURRENT = LAYOUT["current"]
_DEALT = LAYOUT["dealt"]
_PACK_SIZES = LAYOUT["pack_sizes"]


@batched
def packs(observations: np.ndarray) -> np.ndarray:
    """The ``"packs"`` features of a batch of observations (see the module docstring)."""
    obs = observations
    n = len(obs)
    held = obs[:, _PACKS].reshape(n, NUM_PACKS, _DECK)
    current_index = obs[:, _CURRENT]
    current = np.concatenate(
        [current_index @ _RANKS, current_index @ _SUITS, np.zeros((n, 1), np.float32)], axis=1
    )
    features = line_features(
        held @ _RANKS, held @ _SUITS, np.zeros((n, NUM_PACKS), np.float32), current, _WINDOWS
    )  # (N, 5, 7)
    points = np.broadcast_to(np.array(POSITION_POINTS, dtype=np.float32) / 7, (n, NUM_PACKS))
    open_ = obs[:, _PACK_SIZES] < PACK_SIZE
    per_pack = np.concatenate([features, points[:, :, None], open_[:, :, None]], axis=2)
    return np.concatenate([obs, per_pack.reshape(n, -1)], axis=1)


NUM_PLANS = 5
NUM_STATS = 5
_BOTS = ("greedy", "sacrifice", "mixed", "best_response")
_BASE = LAYOUT.size
_ROW = _PACK_FEATURES + NUM_PLANS * (2 + NUM_STATS)

_CACHE: OrderedDict[bytes, tuple[np.ndarray, np.ndarray]] = OrderedDict()
_CACHE_SIZE = 50_000  # deals kept: a training run revisits its snapshots' deals


def deal_plans(dealt: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(pack_of (NUM_PLANS, 32), stats (NUM_PLANS, NUM_STATS))`` of one deal.

    ``dealt``: the observation's 32 dealt-card flags. ``pack_of[k, c]``: the pack where
    candidate ``k`` puts piquet card index ``c`` (-1 for cards not in play). Cached per deal.
    """
    key = np.asarray(dealt, dtype=bool).tobytes()
    found = _CACHE.get(key)
    if found is not None:
        _CACHE.move_to_end(key)
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
    _CACHE[key] = (pack_of, stats)
    if len(_CACHE) > _CACHE_SIZE:
        _CACHE.popitem(last=False)
    return pack_of, stats


@batched
def plans(observations: np.ndarray) -> np.ndarray:
    """The ``"plans"`` features of a batch of Quintet observations (see the module doc).

    Each observation's deal is looked up once (:func:`deal_plans`, in row order); the
    candidates' agreement with the cards placed and their suggestions for the current card are
    then worked out for the whole batch at once (the same numbers as row by row: an agreement
    is the count of agreeing cards over the count placed)."""
    obs = observations
    n = len(obs)
    base = packs(obs)[:, _BASE:].reshape(n, NUM_PACKS, _PACK_FEATURES)
    extra = np.zeros((n, NUM_PACKS, NUM_PLANS * (2 + NUM_STATS)), dtype=np.float32)
    current = obs[:, _CURRENT]
    live = np.flatnonzero(current.sum(axis=1) != 0)  # the others are done: nothing to place
    if live.size:
        found = [deal_plans(obs[i, _DEALT] > 0) for i in live.tolist()]
        pack_of = np.stack([p for p, _ in found])  # (L, NUM_PLANS, 32)
        stats = np.stack([s for _, s in found])  # (L, NUM_PLANS, NUM_STATS)
        held = obs[live][:, _PACKS].reshape(len(live), NUM_PACKS, _DECK) > 0
        placed = held.any(axis=1)  # (L, 32)
        placed_pack = np.where(placed, np.argmax(held, axis=1), -1)
        count = placed.sum(axis=1)
        agreeing = ((pack_of == placed_pack[:, None, :]) & placed[:, None, :]).sum(axis=2)
        agreement = np.where(
            count[:, None] > 0, agreeing / np.maximum(count, 1)[:, None], 1.0
        )  # (L, NUM_PLANS)
        suggested = pack_of[np.arange(len(live)), :, np.argmax(current[live], axis=1)]
        # assign[l, p, k]: candidate k puts the current card in pack p, times its agreement.
        assign = (suggested[:, None, :] == np.arange(NUM_PACKS)[None, :, None]) * agreement[
            :, None, :
        ]
        per_plan = np.concatenate([stats, agreement[:, :, None]], axis=2).reshape(len(live), -1)
        extra[live, :, :NUM_PLANS] = assign
        extra[live, :, NUM_PLANS:] = per_plan[:, None, :]
    out = np.concatenate([obs, np.concatenate([base, extra], axis=2).reshape(n, -1)], axis=1)
    return out


def describe(observation: np.ndarray) -> str:
    """What a person sees at its turn: the cards in play, its packs, the card to place."""
    deal = decode_observation(observation)
    lines = [f"cards in play: {format_cards(deal.cards)}"]
    for p, pack in enumerate(deal.packs):
        lines.append(f"  pack {p + 1} ({POSITION_POINTS[p]} pts): {format_cards(pack)}")
    if deal.current is not None:
        lines.append(f"card to place: {format_card(deal.current)}")
    return "\n".join(lines)


def parse_pack(answer: str, observation: np.ndarray, mask: np.ndarray) -> int:
    """``"3"`` (the pack's position, 1..5) -> pack 2."""
    if not answer.strip().isdigit() or not 1 <= int(answer) <= NUM_PACKS:
        raise ValueError(f"bad pack {answer!r}: type its position, 1..{NUM_PACKS}")
    return int(answer) - 1


HOOKS = TrainingHooks(
    features={
        "packs": FeatureSet(
            packs,
            PerActionLayout(offset=_BASE, actions=NUM_PACKS, width=_PACK_FEATURES),
            "what each pack would hold with the current card",
        ),
        "plans": FeatureSet(
            plans,
            PerActionLayout(
                offset=_BASE,
                actions=NUM_PACKS,
                width=_ROW,
                gate=Gate(
                    column=_PACK_FEATURES,
                    candidates=NUM_PLANS,
                    stats_column=_PACK_FEATURES + NUM_PLANS,
                    stats=NUM_STATS + 1,
                    weight=2.0,
                ),
            ),
            "the packs features plus candidate rows from the search and their modelled results",
        ),
    },
    formulations={"packs": PackFormulation()},
    describe=describe,
    parse_action=parse_pack,
    action_text=lambda pack, observation: str(pack + 1),
    prompt="pack position (1-5)",
    play_bot="greedy",
)
