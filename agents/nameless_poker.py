"""Baseline bots for "poker without a name" (RULES §4), all following
:class:`pokerzoo.agents.base.Bot`.

Every bot acts only from ``(observation, action_mask)``: the observation decoded with
:func:`pokerzoo.envs.nameless_poker.decode_observation` (seats relative to the bot, public
knowledge and its own hand only) and the mask of
:class:`~pokerzoo.envs.nameless_poker.NamelessPokerGame`.

================  ===============================================================================
``"random"``      :class:`RandomBot`: a uniformly random legal action.
``"rules"``       :class:`RulesBot`: the rules policy
                  (:mod:`pokerzoo.envs.nameless_poker.analysis`): bids the tricks its hand is
                  expected to take (``expected_tricks``: jokers, high trumps, aces and kings, void
                  suits it can ruff), 1 in the dark deals (the best fixed bid there, from the deal
                  size alone); then plays by ``rules_play``: takes tricks while under its bid,
                  sheds them once it has made it, ducks in minimum deals and grabs in maximum
                  deals, leads a joker calling trump to pull the others' trumps when it holds
                  trumps of its own.
``"montecarlo"``  :class:`MonteCarloBot`: for each legal action, deals the unseen cards to the
                  other hands at random (uniformly over the deals consistent with the voids
                  their plays have shown: ``deal_unseen`` of
                  :mod:`pokerzoo.envs.nameless_poker.sampling`) and plays the deal out with the
                  rules policy at every seat; the action with the best mean result wins. Bids
                  the same way: each bid near the rules estimate is played out (in a dark deal
                  over sampled own hands too).
================  ===============================================================================

Constructors take keyword-only ``seed`` plus the env options they use (``dealer_restriction``
and ``reward`` for the Monte-Carlo bot) and ignore the others, so ``BOTS[name](seed=s,
**env_options)`` builds any of them.

The bots are thin policies over the game's analysis, which lives beside its rules: the rules
policy (:mod:`pokerzoo.envs.nameless_poker.analysis`), the deals of the unseen cards
(:mod:`pokerzoo.envs.nameless_poker.sampling`) and the play-outs
(:mod:`pokerzoo.envs.nameless_poker.playout`).

Speed on one core, per seat and 30-deal game: random and rules about 0.01 s; montecarlo (12
samples) about 0.3 s, 0.9 ms a decision on average (``benchmarks/bot_speed.py``; its play-outs
are :func:`~pokerzoo.envs.nameless_poker.playout.play_out`'s, on bit masks).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..envs.core.cards import JOKER
from ..envs.core.options import check_bool, check_choice, check_int
from ..envs.nameless_poker import (
    BID,
    LEAD_JOKER,
    NO_TRUMP,
    NUM_PLAYERS,
    PLAY,
    REWARDS,
    NamelessPokerView,
    decode_observation,
)
from ..envs.nameless_poker.analysis import (
    DARK_BID,
    expected_tricks,
    rules_bid,
    rules_play,
    wants_trick,
)
from ..envs.nameless_poker.deals import DEAL_KINDS, score
from ..envs.nameless_poker.playout import World, play_out, put_action
from ..envs.nameless_poker.sampling import deals_unseen
from .base import RandomBot

__all__ = ["BOTS", "MonteCarloBot", "RandomBot", "RulesBot"]


def _trumps_out(view: NamelessPokerView) -> int:
    """Natural trumps the other seats (or the undealt stock) may hold."""
    if view.trump == NO_TRUMP:
        return 0
    own = sum(1 for c in view.hand if c != JOKER and c & 3 == view.trump)
    played = int(view.played[view.trump : JOKER : 4].sum())
    turned = view.turned_card != JOKER and view.turned_card & 3 == view.trump
    return 13 - own - played - int(turned)


def _play_action(card: int, called: int) -> int:
    return LEAD_JOKER + called if called != NO_TRUMP else PLAY + card


def _legal_bids(action_mask: np.ndarray) -> list[int]:
    return [int(a) - BID for a in np.flatnonzero(action_mask[BID:PLAY])]


# --- bots ----------------------------------------------------------------------------------------


class RulesBot:
    """Bids its expected tricks, then takes or sheds tricks by
    :func:`~pokerzoo.envs.nameless_poker.analysis.rules_play`."""

    name = "rules"

    def __init__(self, *, seed: int | None = None, **env_options: Any) -> None:
        self.reset(seed)

    def reset(self, seed: int | None = None) -> None:
        self._rng = np.random.default_rng(seed)  # the protocol's generator; the bot never draws

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        view = decode_observation(observation)
        if view.bidding:
            estimate = DARK_BID if view.hand_hidden else expected_tricks(view.hand, view.trump)
            return BID + rules_bid(estimate, _legal_bids(action_mask))
        legal = np.flatnonzero(action_mask)
        options = sorted({JOKER if a >= LEAD_JOKER else int(a) - PLAY for a in legal})
        kind = DEAL_KINDS.index(view.kind)
        want = wants_trick(kind, view.bids[0], view.tricks[0])
        card, called = rules_play(
            view.hand, options, view.trick, view.trump, want, _trumps_out(view)
        )
        return _play_action(card, called)


class MonteCarloBot:
    """Compares its legal actions by playing the deal out over sampled hands of the others.

    Args:
        seed: seeds the sampled hands.
        dealer_restriction, reward: the env options; ``reward="relative"`` makes it maximise its
            deal score minus the table's mean instead of its own deal score.
        samples: sampled deals per decision (every action is played out on the same deals).
        bid_window: bids within this distance of the rules estimate are played out.
    """

    name = "montecarlo"

    def __init__(
        self,
        *,
        seed: int | None = None,
        dealer_restriction: bool = False,
        reward: str = "score",
        samples: int = 12,
        bid_window: int = 1,
        **env_options: Any,
    ) -> None:
        self.samples = check_int("samples", samples, 1)
        self.bid_window = check_int("bid_window", bid_window, 0)
        self.dealer_restriction = check_bool("dealer_restriction", dealer_restriction)
        self.relative = check_choice("reward", reward, REWARDS) == "relative"
        self.reset(seed)

    def reset(self, seed: int | None = None) -> None:
        self._rng = np.random.default_rng(seed)

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        legal = np.flatnonzero(action_mask)
        if legal.size == 1:
            return int(legal[0])
        view = decode_observation(observation)
        if view.bidding:
            return BID + self._bid(view, _legal_bids(action_mask))
        return self._play(view, [int(a) for a in legal])

    def _score(self, world: World, kind: int) -> float:
        scores = [score(kind, world.bids[r], world.tricks[r]) for r in range(NUM_PLAYERS)]
        if self.relative:
            return scores[0] - sum(scores) / NUM_PLAYERS
        return float(scores[0])

    # --- bidding ---------------------------------------------------------------------------------
    def _bid(self, view: NamelessPokerView, legal: list[int]) -> int:
        size = view.hand_size
        trump = view.trump
        kind = DEAL_KINDS.index(view.kind)
        first = (view.dealer + 1) % NUM_PLAYERS  # relative seat of the first bidder
        if view.hand_hidden:
            centre: float = DARK_BID
        else:
            centre = expected_tricks(view.hand, trump)
        candidates = [b for b in legal if abs(b - centre) <= self.bid_window + 0.5]
        if len(candidates) <= 1:
            return rules_bid(centre, legal)
        turned_trump = int(view.turned_card != JOKER and view.turned_card & 3 == trump)
        sizes = [0 if not view.hand_hidden else size] + [size] * (NUM_PLAYERS - 1)
        totals = np.zeros(len(candidates))
        for hands in deals_unseen(view, sizes, self._rng, self.samples):
            if not view.hand_hidden:
                hands[0] = list(view.hand)
            bids = list(view.bids)
            for k in range(NUM_PLAYERS):  # the bidders after the bot, in bidding order
                r = (first + k) % NUM_PLAYERS
                if r == 0 or bids[r] is not None:
                    continue
                if view.kind == "dark":
                    bids[r] = DARK_BID
                else:
                    bids[r] = round(expected_tricks(hands[r], trump))
                if r == view.dealer and self.dealer_restriction:
                    others = sum(b for s, b in enumerate(bids) if s != r and b is not None)
                    if bids[r] + others == size:
                        bids[r] = bids[r] - 1 if bids[r] > 0 else 1
            for i, bid in enumerate(candidates):
                bids[0] = bid
                world = World([list(h) for h in hands], [], first, NO_TRUMP, [0] * 4, bids, 0)
                play_out(world, trump, kind, turned_trump)
                totals[i] += self._score(world, kind)
        return candidates[int(np.argmax(totals))]

    # --- play ------------------------------------------------------------------------------------
    def _play(self, view: NamelessPokerView, legal: list[int]) -> int:
        trump = view.trump
        kind = DEAL_KINDS.index(view.kind)
        done = sum(view.tricks)
        size = view.hand_size
        sizes = [0] * NUM_PLAYERS
        for r in range(1, NUM_PLAYERS):
            played_now = (r - view.leader) % NUM_PLAYERS < len(view.trick)
            sizes[r] = size - done - int(played_now)
        turned_trump = int(view.turned_card != JOKER and view.turned_card & 3 == trump)
        totals = np.zeros(len(legal))
        for hands in deals_unseen(view, sizes, self._rng, self.samples):
            base = World.of_view(view, hands)
            for i, action in enumerate(legal):
                world = base.copy()
                put_action(world, action, trump)
                play_out(world, trump, kind, turned_trump)
                totals[i] += self._score(world, kind)
        return legal[int(np.argmax(totals))]


BOTS: dict[str, type] = {bot.name: bot for bot in (RandomBot, RulesBot, MonteCarloBot)}
