"""Baseline five-card stud bots (RULES §5), all following :class:`pokerzoo.agents.base.Bot`.

Every bot plays from its observation alone, read with
:func:`pokerzoo.envs.five_card_stud.decode_observation` (its own face-down cards, everybody's up
cards, the pot and the bets, and the game's options, which the observation carries), and from
the action mask. The actions are ``0`` fold, ``1`` check/call, ``2`` bet/raise.

=============  ====================================================================================
``"random"``   a uniformly random legal action.
``"caller"``   never folds, never raises: checks or calls; in the first round, before anybody
               has bet, it bets the minimum (the only way to stay in there).
``"maniac"``   never folds, always bets or raises when it may (checks or calls at the cap): the
               aggression a best response shows, for the learner to meet in training.
``"rules"``    reads the board: folds to a bet (checks when it can) as soon as one opponent's up
               cards alone beat its whole hand; bets and raises a made hand (a pair or better
               that no board beats) and, in the first two rounds, strong up cards (a queen or
               better that no opponent's up cards top); calls with live high cards; in high-low
               a low draw (all different ranks, eight or lower) plays on even when beaten, and
               without a low qualifier no hand folds in the first two rounds.
``"equity"``   Monte-Carlo equity: deals the unseen cards (the others' face-down cards and the
               cards to come) ``samples`` times at random and scores every showdown with the
               batched evaluator of :mod:`pokerzoo.envs.core.hands`; its equity is its expected
               share of the pot. In high-low it values both halves (the high half, the low half
               with the qualifier, the whole pot when no low qualifies) unless ``hi_lo_aware``
               is off. Raises when the equity beats a fair share ``1 / players`` by ``margin``,
               calls when it beats the pot odds, folds otherwise. Many bots deciding together
               (:meth:`EquityBot.act_batch`) share the evaluator calls; each draws its deals
               from its own generator, so it decides as it would alone.
=============  ====================================================================================

Every bot takes keyword-only ``seed`` and ignores env options, so ``BOTS[name](seed=s,
**env_options)`` builds any of them.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

import numpy as np

from ..envs.core.cards import NUM_CARD_IDS, Deck
from ..envs.core.hands import Category, categories, evaluate, qualifies_low
from ..envs.five_card_stud import (
    CALL,
    FOLD,
    RAISE,
    FiveCardStudView,
    decode_observation,
    decode_observations,
    is_wild,
    showing_key,
    up_card_rank,
)
from .base import RandomBot

__all__ = ["BOTS", "CallerBot", "EquityBot", "ManiacBot", "RandomBot", "RulesBot"]

_QUEEN = 10  # rank indices (0 = deuce .. 12 = ace)
_TEN = 8


def _first_legal(action_mask: np.ndarray, *preferences: int) -> int:
    """The first of ``preferences`` the mask allows, else any legal action."""
    for action in preferences:
        if action_mask[action]:
            return action
    legal = np.flatnonzero(action_mask)
    if legal.size == 0:
        raise ValueError("no legal action: the action mask is all zeros")
    return int(legal[0])


class CallerBot(RandomBot):
    """Checks or calls; bets the minimum only where it must bet or fold."""

    name = "caller"

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        return _first_legal(action_mask, CALL, RAISE, FOLD)


class ManiacBot(RandomBot):
    """Bets or raises whenever it may, else checks or calls; never folds."""

    name = "maniac"

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        return _first_legal(action_mask, RAISE, CALL, FOLD)


def _high_rank(cards: tuple[int, ...], deuces_wild: bool) -> int:
    """Highest rank among ``cards`` (a wild card is an ace; -1 for no cards)."""
    return max((up_card_rank(card, deuces_wild) for card in cards), default=-1)


def _low_draw(cards: tuple[int, ...], deuces_wild: bool) -> bool:
    """All different ranks, none above eight (aces low; wild cards fit anywhere)."""
    natural = [((c >> 2) + 1) % 13 for c in cards if not is_wild(c, deuces_wild)]
    return len(set(natural)) == len(natural) and all(v <= 7 for v in natural)


class RulesBot(RandomBot):
    """Reads the board (see the module docstring)."""

    name = "rules"

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        view = decode_observation(observation)
        wild = view.deuces_wild
        mine = view.own_cards
        own_key = showing_key(mine, wild)
        boards = [view.up[k] for k in view.opponents_in]
        board_keys = [showing_key(board, wild) for board in boards]
        if len(mine) == 5 and _category(mine, wild) >= Category.STRAIGHT:
            made = True  # straights and flushes count once all five cards are known
            beaten = any(key[0] >= 4 for key in board_keys)  # only four of a kind shows above
        else:
            made = own_key[0] >= 2
            beaten = any(key > own_key for key in board_keys)
        check = bool(action_mask[CALL]) and view.to_call == 0
        low_draw = view.hi_lo and _low_draw(mine, wild)
        if view.hi_lo and view.low_qualifier is None:
            # every hand plays for low: beaten for high is beaten for the whole pot only when
            # a board shows a better low draw too
            beaten = beaten and not low_draw and any(_low_draw(b, wild) for b in boards)
        if beaten and not low_draw:  # a low draw still plays for half the pot
            return _first_legal(action_mask, CALL if check else FOLD, CALL)
        if made and not beaten:
            return _first_legal(action_mask, RAISE, CALL)
        my_up = _high_rank(view.up[0], wild)
        their_up = max((_high_rank(board, wild) for board in boards), default=-1)
        if view.round <= 1 and my_up >= _QUEEN and my_up >= their_up:
            return _first_legal(action_mask, RAISE, CALL)
        if low_draw:
            return _first_legal(action_mask, CALL, RAISE)
        if check:
            return CALL
        # in high-low without a qualifier every hand plays for low: no folding early
        play_on = view.hi_lo and view.low_qualifier is None and view.round <= 1
        if not action_mask[CALL]:  # first round, nobody has bet: bet or fold
            best = _high_rank(mine, wild)
            return _first_legal(action_mask, RAISE if best >= _TEN or play_on else FOLD)
        live = _high_rank(mine, wild) > their_up and view.to_call <= view.bet_size
        return _first_legal(action_mask, CALL if live or play_on else FOLD)


def _category(cards: tuple[int, ...], deuces_wild: bool) -> Category:
    return Category(int(categories(np.array([cards]), deuces_wild=deuces_wild)[0]))


class EquityBot(RandomBot):
    """Monte-Carlo equity against the visible cards of the players still in.

    Args:
        seed: seeds the bot's generator (the sampled deals).
        hi_lo_aware: in high-low, value the low half too (off: play as if high took all).
        samples: deals sampled per decision.
        margin: how far above a fair share (``1 / players in``) the equity must be to bet or
            raise.
    """

    name = "equity"

    def __init__(
        self,
        *,
        seed: int | None = None,
        hi_lo_aware: bool = True,
        samples: int = 300,
        margin: float = 0.05,
        **env_options: Any,
    ) -> None:
        if isinstance(samples, bool) or not isinstance(samples, int) or samples < 1:
            raise ValueError(f"bad samples {samples!r}: expected an int >= 1")
        self.samples = samples
        self.margin = float(margin)
        self.hi_lo_aware = bool(hi_lo_aware)
        super().__init__(seed=seed)

    def equity(self, view: FiveCardStudView) -> float:
        """Expected share of the pot at a showdown of the players still in."""
        return float(_equities([self._deal(view)], [view], [self.hi_lo_aware])[0])

    def _deal(self, view: FiveCardStudView) -> np.ndarray:
        """The sampled showdowns of :meth:`equity`: ``int16 (samples, players in, 5)``, seat 0
        the observer. Its one draw from the generator (a shuffle of every row of the unseen
        cards) is the whole of the bot's randomness per decision, so that :meth:`act_batch`
        draws exactly what :meth:`act` does."""
        known = [view.own_cards] + [view.up[k] for k in view.opponents_in]
        seen = np.array([*view.hole, *(card for cards in view.up for card in cards)], np.int64)
        counts = _pack_counts(view.jokers) - np.bincount(seen, minlength=NUM_CARD_IDS)
        pool = np.repeat(_CARD_IDS, counts)
        rows = np.tile(pool, (self.samples, 1))
        drawn = self.rng.permuted(rows, axis=1, out=rows)  # in place: the same shuffles
        hands = np.empty((self.samples, len(known), 5), dtype=np.int16)
        start = 0
        for i, cards in enumerate(known):
            stop = start + 5 - len(cards)
            hands[:, i, : len(cards)] = cards
            hands[:, i, len(cards) :] = drawn[:, start:stop]
            start = stop
        return hands

    def _decide(self, view: FiveCardStudView, equity: float, action_mask: np.ndarray) -> int:
        """Raise, call or fold on ``equity`` (the module docstring)."""
        players = 1 + len(view.opponents_in)
        if action_mask[RAISE] and equity >= 1 / players + self.margin:
            return RAISE
        price = view.to_call if action_mask[CALL] else view.bet_size  # the opening bet is the price
        if price == 0 or equity * (view.pot + price) >= price:
            return _first_legal(action_mask, CALL, RAISE)
        return _first_legal(action_mask, FOLD)

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        view = decode_observation(observation)
        return self._decide(view, self.equity(view), action_mask)

    @classmethod
    def act_batch(
        cls, bots: Sequence[EquityBot], observations: np.ndarray, action_masks: np.ndarray
    ) -> np.ndarray:
        """``bots[i].act(observations[i], action_masks[i])`` for every row (``int64``): each bot
        draws its deals from its own generator, in row order, exactly as :meth:`act` would, and
        every row's showdowns are scored together (one evaluator call per ruleset, wild-card
        option and sample count), so the actions are :meth:`act`'s to the bit. A subclass that
        decides its own way (its own ``act`` or ``equity``) is asked row by row."""
        if cls.act is not EquityBot.act or cls.equity is not EquityBot.equity:
            rows = zip(bots, observations, action_masks, strict=True)
            return np.array([bot.act(obs, mask) for bot, obs, mask in rows], dtype=np.int64)
        views = decode_observations(np.asarray(observations))
        deals = [bot._deal(view) for bot, view in zip(bots, views, strict=True)]
        equities = _equities(deals, views, [bot.hi_lo_aware for bot in bots])
        return np.array(
            [
                bot._decide(view, float(equity), mask)
                for bot, view, equity, mask in zip(bots, views, equities, action_masks, strict=True)
            ],
            dtype=np.int64,
        )


@cache
def _pack_counts(jokers: int) -> np.ndarray:
    return Deck(jokers=jokers).counts.astype(np.int64)


_CARD_IDS = np.arange(NUM_CARD_IDS, dtype=np.int64)
"""The pack's card ids. ``int64`` because the generator shuffles rows of that item size fastest
(a third faster than ``int16``); the shuffle, hence the deal, does not depend on the dtype."""
_ABSENT = -2
"""The key of a padding seat in :func:`_equities`: below every hand's key and below the ``-1``
of a low that does not qualify, so it never wins, ties or counts as a low."""


def _share(keys: np.ndarray) -> np.ndarray:
    """Seat 0's share of a pot won by the highest key of each row (ties split): the last axis
    holds the seats."""
    best = keys.max(axis=-1, keepdims=True)
    winners = keys == best
    return winners[..., 0] / winners.sum(axis=-1)


def _equities(
    deals: Sequence[np.ndarray], views: Sequence[FiveCardStudView], hi_lo_aware: Sequence[bool]
) -> np.ndarray:
    """:meth:`EquityBot.equity` of each decision from its sampled showdowns ``deals[i]``
    (:meth:`EquityBot._deal`): ``float64 (len(deals),)``.

    The hands of all the decisions with the same wild cards and number of samples are scored in
    one evaluator call (and one more for the lows of the high-low ones), then compared together,
    each padded to the most players with :data:`_ABSENT` seats. Every sample's share is the same
    float as alone, and each decision's mean is the reduction of its own contiguous row, so every
    equity is bit for bit what one decision alone gives.
    """
    out = np.empty(len(deals), dtype=np.float64)
    groups: dict[tuple[bool, int], list[int]] = {}
    for i, (hands, view) in enumerate(zip(deals, views, strict=True)):
        groups.setdefault((view.deuces_wild, len(hands)), []).append(i)
    for (wild, samples), rows in groups.items():
        players = max(deals[i].shape[1] for i in rows)
        high = np.full((len(rows), samples, players), _ABSENT, dtype=np.int64)
        flat = np.concatenate([deals[i].reshape(-1, 5) for i in rows])
        keys = evaluate(flat, "standard", deuces_wild=wild)
        start = 0
        for r, i in enumerate(rows):
            size = deals[i].shape[0] * deals[i].shape[1]
            high[r, :, : deals[i].shape[1]] = keys[start : start + size].reshape(samples, -1)
            start += size
        share = _share(high)
        split = [r for r, i in enumerate(rows) if views[i].hi_lo and hi_lo_aware[i]]
        if split:
            low = np.full((len(split), samples, players), _ABSENT, dtype=np.int64)
            any_low = np.zeros((len(split), samples), dtype=bool)
            flat = np.concatenate([deals[rows[r]].reshape(-1, 5) for r in split])
            keys = evaluate(flat, "low", deuces_wild=wild)
            start = 0
            for s, r in enumerate(split):
                view, count = views[rows[r]], deals[rows[r]].shape[1]
                size = samples * count
                mine = keys[start : start + size].reshape(samples, count)
                qualified = np.asarray(qualifies_low(mine, view.low_qualifier))
                low[s, :, :count] = np.where(qualified, mine, -1)
                any_low[s] = qualified.any(axis=1)
                start += size
            share[split] = np.where(any_low, 0.5 * share[split] + 0.5 * _share(low), share[split])
        out[rows] = share.mean(axis=1)
    return out


BOTS: dict[str, type] = {
    bot.name: bot for bot in (RandomBot, CallerBot, RulesBot, EquityBot, ManiacBot)
}
