"""Baseline draw poker bots (RULES §2), all following :class:`pokerzoo.agents.base.Bot`.

Every bot acts only from ``(observation, action_mask)``: the observation is decoded with
:func:`pokerzoo.envs.draw_poker.decode_observation` (its size tells the number of seats), the
mask says what is legal (a short stock masks the larger discards; a bot's preferred discard
shrinks to the largest legal part of it, keeping its best cards).

=============  ==================================================================================
``"random"``   :class:`RandomBot`: a uniformly random legal action.
``"caller"``   :class:`CallerBot`: never folds, never raises (checks or calls every bet); in the
               draw it keeps its wild cards and the natural cards that pair another one (all five
               with a straight or better), and with no natural pair also its highest natural
               card.
``"rules"``    :class:`RulesBot`: made-hand thresholds before the draw, the usual draws (see
               :func:`rules_discard`), and bets by the category after the draw.
``"equity"``   :class:`EquityBot`: Monte-Carlo equity against the players still in, from the
               batched ``"draw"`` evaluator: picks the discard with the best equity and folds,
               calls or raises by comparing its equity with the pot odds.
=============  ==================================================================================

Constructors take keyword-only ``seed`` and the env options they use (``deuces_wild``; the
equity bot also ``decks`` and ``jokers``, to know the pack) and ignore the others, so
``BOTS[name](seed=s, **env_options)`` builds any of them. Jokers are always wild.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..envs.core.cards import JOKER, Deck
from ..envs.core.hands import Category, categories, evaluate
from ..envs.draw_poker import (
    CALL,
    FOLD,
    HAND_SIZE,
    PHASE_BET_AFTER,
    PHASE_BET_BEFORE,
    PHASE_DRAW,
    RAISE,
    STAND_PAT,
    DrawPokerView,
    decode_observation,
)
from ..envs.draw_poker.analysis import caller_draw_many, caller_keep_many
from .base import RandomBot

__all__ = [
    "BOTS",
    "CallerBot",
    "EquityBot",
    "RandomBot",
    "RulesBot",
    "caller_keep",
    "fit_discard",
    "rules_discard",
]

_ACE, _KING, _QUEEN, _JACK = 12, 11, 10, 9
_DEUCE = 0


def _is_wild(card: int, deuces_wild: bool) -> bool:
    return card == JOKER or (deuces_wild and card >> 2 == _DEUCE)


def _category(cards: Sequence[int], deuces_wild: bool) -> int:
    return int(categories(np.array([cards]), "draw", deuces_wild=deuces_wild)[0])


def fit_discard(discard: Sequence[int], action_mask: np.ndarray) -> int:
    """The draw action discarding ``discard`` (hand positions), or, when the stock cannot supply
    that many, the legal action discarding the most of them, giving up the highest cards first
    (positions are ordered highest card first)."""
    positions = sorted(discard)
    while True:
        action = STAND_PAT + sum(1 << p for p in positions)
        if action_mask[action]:
            return action
        positions = positions[1:]


def _betting_action(action_mask: np.ndarray, wanted: int) -> int:
    """``wanted`` if legal; a raise falls back to a call, a fold to a check when it is free."""
    if action_mask[wanted]:
        return wanted
    return CALL


def caller_keep(cards: Sequence[int], deuces_wild: bool) -> tuple[int, ...]:
    """Positions the caller keeps: all with a straight or better; else wild cards and natural
    cards whose rank appears twice or more, plus the highest natural card when no rank does."""
    if _category(cards, deuces_wild) >= Category.STRAIGHT:
        return tuple(range(len(cards)))
    wild = [_is_wild(c, deuces_wild) for c in cards]
    ranks = [c >> 2 for c in cards]
    counts = {r: sum(1 for i, x in enumerate(ranks) if x == r and not wild[i]) for r in ranks}
    keep = [i for i in range(len(cards)) if wild[i] or counts[ranks[i]] >= 2]
    if not any(not wild[i] for i in keep):
        naturals = [i for i in range(len(cards)) if not wild[i]]
        if naturals:
            keep.append(max(naturals, key=lambda i: cards[i]))
    return tuple(sorted(keep))


def rules_discard(cards: Sequence[int], deuces_wild: bool) -> tuple[int, ...]:
    """The positions :class:`RulesBot` discards, by the usual draws:

    - a straight or better: stand pat;
    - three of a kind (wild cards count): keep the three, draw two;
    - two pair: keep them, draw one;
    - four to a flush (wild cards count), unless holding a pair of jacks or better: draw one;
    - four to an open-ended straight (natural cards, no pair): draw one;
    - a pair (a wild card pairs the highest natural card): keep it, and an ace kicker with a
      natural pair below aces (draw two), else draw three;
    - ace-king: keep both, draw three;
    - nothing: keep the highest card if it is a queen or better (draw four), else draw five.

    Wild cards are always kept.
    """
    n = len(cards)
    category = _category(cards, deuces_wild)
    if category >= Category.STRAIGHT:
        return ()
    wild = [i for i in range(n) if _is_wild(cards[i], deuces_wild)]
    natural = [i for i in range(n) if i not in wild]
    ranks = {i: cards[i] >> 2 for i in natural}
    counts: dict[int, int] = {}
    for r in ranks.values():
        counts[r] = counts.get(r, 0) + 1
    paired = sorted((r for r, c in counts.items() if c >= 2), reverse=True)

    def all_but(kept: Sequence[int]) -> tuple[int, ...]:
        """Discard every natural card but ``kept``."""
        return tuple(i for i in range(n) if i not in kept and i not in wild)

    def of_rank(rank: int) -> list[int]:
        return [i for i in natural if ranks[i] == rank]

    if category == Category.THREE_OF_A_KIND:
        top = paired[0] if paired else max(ranks.values())
        return all_but(of_rank(top))
    if category == Category.TWO_PAIR:
        return all_but(of_rank(paired[0]) + of_rank(paired[1]))
    high_pair = category == Category.PAIR and (paired[0] if paired else -1) >= _JACK
    by_suit: dict[int, list[int]] = {}
    for i in natural:
        by_suit.setdefault(cards[i] & 3, []).append(i)
    flush = max(by_suit.values(), key=len, default=[])
    if len(flush) + len(wild) >= 4 and not high_pair:
        return all_but(flush[: 4 - len(wild)])
    if not wild and not paired:
        straight = _open_ended(ranks)
        if straight:
            return all_but(straight)
    if category == Category.PAIR:
        if paired:
            kept = of_rank(paired[0])
            aces = [i for i in natural if ranks[i] == _ACE]
            if paired[0] != _ACE and aces and not wild:
                kept += aces[:1]
            return all_but(kept)
        return all_but([max(natural, key=lambda i: cards[i])])
    if category == Category.ACE_KING:
        ace = next(i for i in natural if ranks[i] == _ACE)
        king = next(i for i in natural if ranks[i] == _KING)
        return all_but([ace, king])
    highest = max(natural, key=lambda i: cards[i])
    return all_but([highest] if ranks[highest] >= _QUEEN else [])


def _open_ended(ranks: dict[int, int]) -> list[int]:
    """Positions of four natural cards of consecutive ranks open at both ends (not A-K-Q-J or
    A-2-3-4, which fill only one way), or ``[]``."""
    by_rank = {r: i for i, r in ranks.items()}
    for low in range(_KING - 2):  # 2-3-4-5 up to T-J-Q-K
        window = range(low, low + 4)
        if all(r in by_rank for r in window):
            return [by_rank[r] for r in window]
    return []


# --- bots ----------------------------------------------------------------------------------------
class _DeterministicBot:
    """What the caller and the rules bot share: of the env's options they read only
    ``deuces_wild``, and they draw nothing at random, so a seed changes nothing."""

    name: str

    def __init__(
        self, *, seed: int | None = None, deuces_wild: bool = False, **env_options: Any
    ) -> None:
        self.deuces_wild = bool(deuces_wild)
        self.reset(seed)

    def reset(self, seed: int | None = None) -> None:
        """Nothing to seed: the bot is deterministic."""


class CallerBot(_DeterministicBot):
    """Never folds, never raises; draws by :func:`caller_keep`. Deterministic."""

    name = "caller"

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        view = decode_observation(observation)
        if view.phase == PHASE_DRAW:
            keep = caller_keep(view.cards, self.deuces_wild)
            discard = [i for i in range(len(view.cards)) if i not in keep]
            return fit_discard(discard, action_mask)
        return CALL


class RulesBot(_DeterministicBot):
    """Made-hand thresholds before the draw, the usual draws, bets by the category after it.

    Before the draw: raise with two pair or better, or a pair of kings or aces against at most
    two players; call with any pair, four to a flush or an open-ended straight, and with
    ace-king when at most one bet is to call; otherwise check, or fold to a bet. After the draw:
    raise with three of a kind or better (two pair heads-up); call with two pair, a pair of
    jacks or better, or a smaller pair when at most one bet is to call; otherwise check or fold.
    Draws by :func:`rules_discard`. Deterministic.
    """

    name = "rules"

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        view = decode_observation(observation)
        if view.phase == PHASE_DRAW:
            return fit_discard(rules_discard(view.cards, self.deuces_wild), action_mask)
        cards = view.cards
        category = _category(cards, self.deuces_wild)
        pair = _pair_rank(cards, self.deuces_wild) if category == Category.PAIR else -1
        opponents = len(view.opponents_in)
        one_bet = view.to_call <= view.bet_size
        if view.phase == PHASE_BET_BEFORE:
            discard = rules_discard(cards, self.deuces_wild)
            drawing = len(discard) == 1 and category < Category.TWO_PAIR
            if category >= Category.TWO_PAIR or (pair >= _KING and opponents <= 2):
                wanted = RAISE
            elif (
                category == Category.PAIR or drawing or (category == Category.ACE_KING and one_bet)
            ):
                wanted = CALL
            else:
                wanted = FOLD
        else:
            if category >= Category.THREE_OF_A_KIND or (
                category == Category.TWO_PAIR and opponents == 1
            ):
                wanted = RAISE
            elif category == Category.TWO_PAIR or pair >= _JACK or (pair >= 0 and one_bet):
                wanted = CALL
            else:
                wanted = FOLD
        return _betting_action(action_mask, wanted)


def _pair_rank(cards: Sequence[int], deuces_wild: bool) -> int:
    """Rank of the pair of a one-pair hand (a wild card pairs the highest natural card)."""
    naturals = sorted((c >> 2 for c in cards if not _is_wild(c, deuces_wild)), reverse=True)
    for a, b in zip(naturals, naturals[1:], strict=False):
        if a == b:
            return a
    return naturals[0]


class EquityBot:
    """Monte-Carlo equity against the players still in (see the module docstring).

    Each decision deals ``samples`` futures from the cards it has not seen: its own draw, and for
    each opponent five cards improved by the caller's draw rule (:func:`caller_keep`, vectorised:
    :mod:`pokerzoo.envs.draw_poker.analysis`). Opponents are read from what they did, by rejection
    sampling from a pool of such hands: one that has drawn holds a hand from which that rule draws
    as many cards; in a ``trust`` share of the futures, one that bet or raised before the draw was
    dealt a pair or better, and after the draw one that called holds a pair or better, one that bet
    or raised two pair or better (a condition no pool hand meets is dropped). Its equity is its
    share of the pot over the futures (ties split). In the draw it picks the legal discard of
    highest equity; in the betting it uses the equity of its best discard (before the draw) or of
    its hand (after): raise when it exceeds ``1 / (k + 1) + margin`` against ``k`` opponents, call
    when it covers the pot odds ``to_call / (pot + to_call)``, otherwise check or fold. Cards dealt
    to different opponents may overlap in a future, a small bias the speed pays for.

    Args:
        seed: seeds its generator (every future is drawn from it).
        decks, jokers, deuces_wild: the env's pack and wild cards.
        samples: futures per decision; the default 600 take about 7 ms (heads-up) to 12 ms
            (ten players) a decision on one core, 30 ms at most.
        margin: equity above an equal share needed to raise.
        trust: share of the futures in which an opponent's betting is believed.
    """

    name = "equity"

    def __init__(
        self,
        *,
        seed: int | None = None,
        decks: int = 1,
        jokers: int = 0,
        deuces_wild: bool = False,
        samples: int = 600,
        margin: float = 0.05,
        trust: float = 0.5,
        **env_options: Any,
    ) -> None:
        self.deuces_wild = bool(deuces_wild)
        self.samples = int(samples)
        self.margin = float(margin)
        self.trust = float(trust)
        self._counts = Deck("standard", jokers=jokers, decks=decks).counts.astype(np.int64)
        self._cache: dict[tuple, np.ndarray] = {}
        self.reset(seed)

    def reset(self, seed: int | None = None) -> None:
        self._rng = np.random.default_rng(seed)
        self._cache.clear()

    # --- acting ---------------------------------------------------------------------------------
    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        view = decode_observation(observation)
        if view.phase == PHASE_DRAW:
            equity = self._draw_equity(view)
            legal = action_mask[STAND_PAT:].astype(bool)
            return STAND_PAT + int(np.argmax(np.where(legal, equity, -1.0)))
        if view.phase == PHASE_BET_BEFORE:
            # the discards the stock can supply now (a short stock only grows with discards)
            affordable = [bits for bits in range(1 << HAND_SIZE) if bits.bit_count() <= view.supply]
            equity = float(self._draw_equity(view)[affordable].max())
        else:
            equity = float(self._draw_equity(view)[0])
        opponents = max(len(view.opponents_in), 1)
        if equity >= 1 / (opponents + 1) + self.margin:
            wanted = RAISE
        elif view.to_call == 0 or equity * (view.pot + view.to_call) >= view.to_call:
            wanted = CALL
        else:
            wanted = FOLD
        return _betting_action(action_mask, wanted)

    # --- equity ---------------------------------------------------------------------------------
    def _draw_equity(self, view: DrawPokerView) -> np.ndarray:
        """Equity of each of the 32 discards (after the draw: only entry 0, standing pat)."""
        drawing = view.phase != PHASE_BET_AFTER
        key = (view.hand_number, view.cards, view.opponents_in, view.drawn, view.history, drawing)
        cached = self._cache.get(key)
        if cached is None:
            if len(self._cache) > 64:
                self._cache.clear()
            cached = self._cache[key] = self._simulate(view, drawing)
        return cached

    def _simulate(self, view: DrawPokerView, drawing: bool) -> np.ndarray:
        samples = self.samples
        counts = self._counts.copy()
        np.subtract.at(counts, list(view.cards), 1)
        unseen = np.repeat(np.arange(len(counts)), counts)
        opponents = view.opponents_in
        size = unseen.size
        # one future a row: the opponents' hands, then a second order of the unseen cards for
        # the cards drawn (the stock is shared, so a replacement may repeat a card of a hand)
        dealt = min(size, HAND_SIZE * (len(opponents) + 1))
        rows = self._deal(unseen, samples, dealt)
        spare = self._deal(unseen, samples, dealt)
        pool: _Pool | None = None
        best = np.full(samples, -1, dtype=np.int64)
        ties = np.zeros(samples, dtype=np.int64)
        for j, seat in enumerate(opponents):
            drew = view.drawn[seat]
            least_dealt, least_final = _read_betting(view, seat)
            if drew >= 0 or least_dealt or least_final:
                if pool is None:
                    pool = self._pool(unseen)
                hands = self._conditioned(pool, drew, least_dealt, least_final)
            else:
                start = HAND_SIZE * j
                columns = (HAND_SIZE + start + np.arange(HAND_SIZE)) % dealt
                hands = self._improved(rows[:, start : start + HAND_SIZE], spare[:, columns])
            keys = evaluate(hands, "draw", deuces_wild=self.deuces_wild)
            ties = np.where(keys > best, 0, ties) + (keys == best)
            best = np.maximum(best, keys)
        own = np.asarray(view.cards, dtype=np.int64)
        mine = np.concatenate([rows[:, HAND_SIZE * len(opponents) :], spare], axis=1)
        equity = np.zeros(1 << HAND_SIZE, dtype=np.float64)
        for bits in range(1 << HAND_SIZE) if drawing else (0,):
            discarded = [i for i in range(HAND_SIZE) if bits >> i & 1]
            kept = np.delete(own, discarded)
            hands = np.concatenate(
                [np.broadcast_to(kept, (samples, kept.size)), mine[:, : len(discarded)]], axis=1
            )
            keys = evaluate(hands, "draw", deuces_wild=self.deuces_wild)
            share = np.where(keys > best, 1.0, np.where(keys == best, 1.0 / (ties + 2), 0.0))
            equity[bits] = share.mean()
        return equity

    def _deal(self, unseen: np.ndarray, rows: int, count: int) -> np.ndarray:
        """``rows`` random orders of ``unseen``, their first ``count`` cards (``int64``): a
        partial Fisher-Yates shuffle of every row at once."""
        deck = np.tile(unseen, (rows, 1))
        index = np.arange(rows)
        size = unseen.size
        for i in range(count):
            j = self._rng.integers(i, size, rows)
            card = deck[index, j]
            deck[index, j] = deck[:, i]
            deck[:, i] = card
        return deck[:, :count]

    def _pool(self, unseen: np.ndarray) -> _Pool:
        """``8 * samples`` random hands played by the caller rule, for the opponents whose hands
        are read from what they did."""
        rows = self._deal(unseen, 8 * self.samples, 2 * HAND_SIZE)
        dealt = rows[:, :HAND_SIZE]
        keep, category = caller_keep_many(dealt, self.deuces_wild)
        final = caller_draw_many(dealt, rows[:, HAND_SIZE:], keep)
        final_category = categories(final, "draw", deuces_wild=self.deuces_wild)
        return _Pool((~keep).sum(axis=1), category, final, final_category)

    def _conditioned(
        self, pool: _Pool, drew: int, least_dealt: int, least_final: int
    ) -> np.ndarray:
        """Final hands of an opponent from the pool: those that drew ``drew`` cards (-1: any)
        from a hand dealt at least ``least_dealt`` and ended at least ``least_final`` (the
        conditions are dropped from the last when no pool hand meets them)."""
        drawn = [pool.drew == drew] if drew >= 0 else []
        read = [pool.dealt_category >= least_dealt, pool.final_category >= least_final]
        believed = self._rng.random(self.samples) < self.trust
        chosen = np.empty(self.samples, dtype=np.int64)
        for rows, conditions in ((believed, drawn + read), (~believed, drawn)):
            while True:
                if conditions:
                    fits = np.flatnonzero(np.logical_and.reduce(conditions))
                else:
                    fits = np.arange(len(pool.final))
                if fits.size:
                    break
                conditions.pop()
            chosen[rows] = fits[self._rng.integers(0, fits.size, int(rows.sum()))]
        return pool.final[chosen]

    def _improved(self, hands: np.ndarray, replacements: np.ndarray) -> np.ndarray:
        """Final hands after the caller rule's draw from ``replacements``."""
        keep, _ = caller_keep_many(hands, self.deuces_wild)
        return caller_draw_many(hands, replacements, keep)


@dataclass(frozen=True)
class _Pool:
    """Random hands played by the caller rule (one a row) and what an opponent shows of them."""

    drew: np.ndarray
    dealt_category: np.ndarray
    final: np.ndarray
    final_category: np.ndarray


def _read_betting(view: DrawPokerView, seat: int) -> tuple[int, int]:
    """The least hand an opponent's betting shows: a bet or raise before the draw, at least a
    pair dealt; after the draw, a call at least a pair and a bet or raise at least two pair."""
    before, after = view.history[0][seat], view.history[1][seat]
    least_dealt = Category.PAIR if before[0] else Category.NOTHING
    if after[0]:
        least_final = Category.TWO_PAIR
    elif after[1]:
        least_final = Category.PAIR
    else:
        least_final = Category.NOTHING
    return int(least_dealt), int(least_final)


BOTS: dict[str, type] = {
    "random": RandomBot,
    "caller": CallerBot,
    "rules": RulesBot,
    "equity": EquityBot,
}
