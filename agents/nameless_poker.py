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
``"search"``      :class:`SearchBot`: the stronger reference player, the same determinized
                  search with four times the sampled deals (48 a decision) and every bid within
                  2 of the estimate played out (docs/games/nameless_poker.md has its table
                  against the others and the trained agent).
================  ===============================================================================

Constructors take keyword-only ``seed`` plus the env options they use (``dealer_restriction``
and ``reward`` for the Monte-Carlo bot) and ignore the others, so ``BOTS[name](seed=s,
**env_options)`` builds any of them.

The bots are thin policies over the game's analysis, which lives beside its rules: the rules
policy (:mod:`pokerzoo.envs.nameless_poker.analysis`), the deals of the unseen cards
(:mod:`pokerzoo.envs.nameless_poker.sampling`) and the play-outs
(:mod:`pokerzoo.envs.nameless_poker.playout`).

Speed on one core, per seat and 30-deal game: random and rules about 0.01 s; montecarlo (12
samples) about 0.1 s with numba installed, 0.25 ms a decision on average, and about 0.25 s
without it, 0.7 ms (``benchmarks/bot_speed.py``). Its play-outs are
:func:`~pokerzoo.envs.nameless_poker.playout.play_out`'s, on bit masks; with numba every
decision's worlds are played on arrays by a compiled loop, and its deals drawn by another
(:mod:`pokerzoo.envs.nameless_poker.compiled`), without it one by one below
:data:`~pokerzoo.envs.nameless_poker.playout.NUMPY_BATCH_WORLDS` worlds and by numpy's steps above.
Where many tables ask their montecarlo bots at once (the vector envs, through
:func:`pokerzoo.envs.core.bots.act_batch`), :meth:`MonteCarloBot.act_batch` draws each bot's
deals from its own generator as :meth:`~MonteCarloBot.act` would and plays all of them out
together (:class:`~pokerzoo.envs.nameless_poker.playout.Worlds`): the same decisions, 0.26 ms a
decision with a choice at 32 tables against 0.39 one by one with numba, 0.83 against 1.18
without (``benchmarks/nameless_batches.py``, 2-core machine).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
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
from ..envs.nameless_poker.deals import DEAL_KINDS, MAX_HAND, score
from ..envs.nameless_poker.playout import (
    SampledDeals,
    World,
    Worlds,
    batch_worlds,
    play_out,
    put_action,
)
from ..envs.nameless_poker.sampling import deals_unseen
from .base import RandomBot

__all__ = ["BOTS", "MonteCarloBot", "RandomBot", "RulesBot", "SearchBot"]


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
        samples: sampled deals per decision (every action is played out on the same deals;
            default :attr:`default_samples`, 12).
        bid_window: bids within this distance of the rules estimate are played out (default
            :attr:`default_bid_window`, 1).

    A decision is drawn (:meth:`_plan`: its sampled deals, the bot's only random draws), then
    played out (one by one in :meth:`act`; with the other rows' in :meth:`act_batch`), then
    chosen (:meth:`_Plan.choose`), so a bot decides the same alone or in a batch.
    """

    name = "montecarlo"
    default_samples = 12
    default_bid_window = 1

    def __init__(
        self,
        *,
        seed: int | None = None,
        dealer_restriction: bool = False,
        reward: str = "score",
        samples: int | None = None,
        bid_window: int | None = None,
        **env_options: Any,
    ) -> None:
        self.samples = check_int("samples", self.default_samples if samples is None else samples, 1)
        window = self.default_bid_window if bid_window is None else bid_window
        self.bid_window = check_int("bid_window", window, 0)
        self.dealer_restriction = check_bool("dealer_restriction", dealer_restriction)
        self.relative = check_choice("reward", reward, REWARDS) == "relative"
        self.reset(seed)

    def reset(self, seed: int | None = None) -> None:
        self._rng = np.random.default_rng(seed)

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        plan = self._plan(observation, action_mask)
        if isinstance(plan, int):
            return plan
        if plan.size < _batch_worlds():
            return plan.choose(plan.play_out_alone(), self.relative)
        return plan.choose(_Plan.worlds([plan]).play_out(), self.relative)  # the same tricks

    @classmethod
    def act_batch(
        cls,
        bots: Sequence[MonteCarloBot],
        observations: np.ndarray,
        action_masks: np.ndarray,
    ) -> np.ndarray:
        """``bots[i].act(observations[i], action_masks[i])`` for every row (``int64``), each
        bot drawing its sampled deals from its own generator as :meth:`act` does, the deals of
        all the rows then played out together (:class:`~pokerzoo.envs.nameless_poker.playout.
        Worlds`) when they are many enough for that to pay (:func:`_batch_worlds`), else one by
        one as :meth:`act` plays them: the same tricks either way, so the same actions."""
        actions = np.empty(len(bots), dtype=np.int64)
        plans: list[tuple[int, _Plan]] = []
        for row, bot in enumerate(bots):
            plan = bot._plan(observations[row], action_masks[row])
            if isinstance(plan, int):
                actions[row] = plan
            else:
                plans.append((row, plan))
        if sum(plan.size for _, plan in plans) < _batch_worlds():
            for row, plan in plans:
                actions[row] = plan.choose(plan.play_out_alone(), bots[row].relative)
            return actions
        tricks = _Plan.worlds([plan for _, plan in plans]).play_out()
        start = 0
        for row, plan in plans:
            end = start + plan.size
            actions[row] = plan.choose(tricks[start:end], bots[row].relative)
            start = end
        return actions

    def _plan(self, observation: np.ndarray, action_mask: np.ndarray) -> int | _Plan:
        """The action, when it needs no play-out, else the deals to play out (drawn from the
        bot's generator: the only draws a decision makes)."""
        legal = np.flatnonzero(action_mask)
        if legal.size == 1:
            return int(legal[0])
        view = decode_observation(observation)
        if view.bidding:
            return self._bid(view, _legal_bids(action_mask))
        return self._play(view, [int(a) for a in legal])

    # --- bidding ---------------------------------------------------------------------------------
    def _bid(self, view: NamelessPokerView, legal: list[int]) -> int | _Plan:
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
            return BID + rules_bid(centre, legal)
        turned_trump = int(view.turned_card != JOKER and view.turned_card & 3 == trump)
        sizes = [0 if not view.hand_hidden else size] + [size] * (NUM_PLAYERS - 1)
        bases = []
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
            bases.append(World(hands, [], first, NO_TRUMP, [0] * 4, bids, 0))
        return _Plan([BID + b for b in candidates], bases, trump, kind, turned_trump, True)

    # --- play ------------------------------------------------------------------------------------
    def _play(self, view: NamelessPokerView, legal: list[int]) -> _Plan:
        trump = view.trump
        kind = DEAL_KINDS.index(view.kind)
        done = sum(view.tricks)
        size = view.hand_size
        sizes = [0] * NUM_PLAYERS
        for r in range(1, NUM_PLAYERS):
            played_now = (r - view.leader) % NUM_PLAYERS < len(view.trick)
            sizes[r] = size - done - int(played_now)
        turned_trump = int(view.turned_card != JOKER and view.turned_card & 3 == trump)
        deals = SampledDeals(view, deals_unseen(view, sizes, self._rng, self.samples))
        return _Plan(legal, deals, trump, kind, turned_trump, False)


class SearchBot(MonteCarloBot):
    """The stronger reference player: :class:`MonteCarloBot`'s determinized search with four
    times the sampled deals (48 a decision) and every bid within 2 of the rules estimate played
    out (within 1 for the Monte-Carlo bot), its play-outs on arrays
    (:class:`~pokerzoo.envs.nameless_poker.playout.Worlds`) once they are many. Same arguments
    as :class:`MonteCarloBot`, with its own defaults."""

    name = "search"
    default_samples = 48
    default_bid_window = 2


_BATCH_WORLDS: int | None = None
"""Play-outs from which :meth:`MonteCarloBot.act_batch` plays its rows' deals together (as
:class:`~pokerzoo.envs.nameless_poker.playout.Worlds`) rather than one by one; ``None``:
:func:`pokerzoo.envs.nameless_poker.playout.batch_worlds` (always with numba, from 400
without; a test sets a number)."""


def _batch_worlds() -> int:
    return batch_worlds() if _BATCH_WORLDS is None else _BATCH_WORLDS


_SCORES = np.array(
    [[[score(kind, bid, t) for t in range(MAX_HAND + 1)] for bid in range(MAX_HAND + 1)]
     for kind in range(len(DEAL_KINDS))],
    dtype=np.int64,
)  # fmt: skip
"""``_SCORES[kind, bid, tricks]``: :func:`~pokerzoo.envs.nameless_poker.deals.score` (the bid,
``None`` in minimum and maximum deals, as 0 there: they ignore it)."""


@dataclass(eq=False)
class _Plan:
    """One Monte-Carlo decision once its deals are drawn: each of ``choices`` (actions) is
    played out on every sampled deal ``bases`` (bidding: with the bot's bid set to the
    choice; playing: after the bot plays it, on the worlds of the view's
    :class:`~pokerzoo.envs.nameless_poker.playout.SampledDeals`), and the choice with the best
    total score wins (the first of equals)."""

    choices: list[int]
    bases: list[World] | SampledDeals
    trump: int
    kind: int
    turned_trump: int
    bidding: bool
    size: int = field(init=False)
    """Worlds to play out: every (deal, choice)."""

    def __post_init__(self) -> None:
        self.size = len(self.bases) * len(self.choices)

    def play_out_alone(self) -> np.ndarray:
        """``int64 (size, NUM_PLAYERS)``: the tricks of every (deal, choice) world, deal-major,
        each played out by :func:`~pokerzoo.envs.nameless_poker.playout.play_out`."""
        tricks = np.empty((self.size, NUM_PLAYERS), dtype=np.int64)
        w = 0
        bases = self.bases.worlds() if isinstance(self.bases, SampledDeals) else self.bases
        for base in bases:
            for action in self.choices:
                if self.bidding:
                    world = World(
                        [list(h) for h in base.hands], [], base.leader, NO_TRUMP, [0] * 4,
                        [action - BID, *base.bids[1:]], 0,
                    )  # fmt: skip
                else:
                    world = base.copy()
                    put_action(world, action, self.trump)
                play_out(world, self.trump, self.kind, self.turned_trump)
                tricks[w] = world.tricks
                w += 1
        return tricks

    @staticmethod
    def worlds(plans: list[_Plan]) -> Worlds:
        """The worlds of every plan's :meth:`play_out_alone`, plan after plan, as arrays to play
        out together: each sampled deal read once, then repeated per choice, the bids or seat
        0's cards put in one go."""
        deals = [len(plan.bases) for plan in plans]
        choices = [len(plan.choices) for plan in plans]
        worlds = Worlds.of_parts(
            [plan.bases for plan in plans],
            *(
                [getattr(plan, name) for plan in plans]
                for name in ("trump", "kind", "turned_trump")
            ),
        )
        worlds = worlds.take(np.repeat(np.arange(sum(deals)), np.repeat(choices, deals)))
        every = np.concatenate([np.tile(plan.choices, len(plan.bases)) for plan in plans])
        bidding = np.repeat([plan.bidding for plan in plans], [plan.size for plan in plans])
        worlds.bids[bidding, 0] = every[bidding] - BID
        rows = np.flatnonzero(~bidding)
        if rows.size:
            worlds.put_actions(every[rows], rows)
        return worlds

    def choose(self, tricks: np.ndarray, relative: bool) -> int:
        """The choice with the best total score over the deals, from every world's tricks; the
        totals are summed deal after deal, as the bot always has (the same doubles)."""
        n, m = len(self.bases), len(self.choices)
        if isinstance(self.bases, SampledDeals):  # (every world has the view's bids)
            rows = [[b or 0 for b in self.bases.view.bids]] * n
        else:
            rows = [[b or 0 for b in base.bids] for base in self.bases]
        bids = np.repeat(np.array(rows, dtype=np.int64).reshape(n, NUM_PLAYERS), m, axis=0)
        if self.bidding:
            bids[:, 0] = np.tile(np.asarray(self.choices) - BID, n)
        scores = _SCORES[self.kind, bids, tricks]
        if relative:
            values = (scores[:, 0] - scores.sum(axis=1) / NUM_PLAYERS).reshape(n, m)
        else:
            values = scores[:, 0].astype(np.float64).reshape(n, m)
        totals = np.zeros(m)
        for row in values:
            totals += row
        return self.choices[int(np.argmax(totals))]


BOTS: dict[str, type] = {bot.name: bot for bot in (RandomBot, RulesBot, MonteCarloBot, SearchBot)}
