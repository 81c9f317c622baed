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
``"maniac"``   :class:`ManiacBot`: bets or raises whenever it may (checks or calls at the cap),
               never folds; draws as the caller.
``"bluffer"``  :class:`BluffBot`: the rules bot, except that after the draw it bets whenever
               nobody has bet yet, whatever it holds (its missed draws become bluffs).
=============  ==================================================================================

Constructors take keyword-only ``seed`` and the env options they use (``deuces_wild``; the
equity bot also ``decks`` and ``jokers``, to know the pack) and ignore the others, so
``BOTS[name](seed=s, **env_options)`` builds any of them. Jokers are always wild.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..envs.core import jit
from ..envs.core.cards import JOKER, Deck
from ..envs.core.draws import bounded_draws
from ..envs.core.hands import Category, categories, evaluate, evaluate_draws
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
    decode_observations,
)
from ..envs.draw_poker.analysis import caller_draw_many, caller_keep_many
from .base import RandomBot

__all__ = [
    "BOTS",
    "BluffBot",
    "CallerBot",
    "EquityBot",
    "ManiacBot",
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
        return self._bet(action_mask)

    def _bet(self, action_mask: np.ndarray) -> int:
        """Its action in a betting round."""
        return CALL


class ManiacBot(CallerBot):
    """Bets or raises whenever it may (checks or calls at the cap), never folds; draws as the
    caller (:func:`caller_keep`). Deterministic. Constant aggression: a player that folds too
    often to bets loses to it."""

    name = "maniac"

    def _bet(self, action_mask: np.ndarray) -> int:
        return _betting_action(action_mask, RAISE)


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


class BluffBot(RulesBot):
    """The rules bot, except that after the draw it bets whenever nobody has bet yet in the
    round, whatever it holds: the hands the rules bot would check (its missed draws, its small
    pairs) become bluffs. Facing a bet it answers as the rules bot does, so a raise makes it
    fold what it bluffed with. Deterministic. A player that folds to every bet after the draw
    loses to it what it wins from the rules bot by folding."""

    name = "bluffer"

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        view = decode_observation(observation)
        if view.phase == PHASE_BET_AFTER and view.to_call == 0 and action_mask[RAISE]:
            return RAISE
        return super().act(observation, action_mask)


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

    One decision's work is a few array operations: the deals of every future, one pass of the
    caller rule over every opponent's hand, one evaluation of every hand (the 32 discards'
    included). :meth:`act_batch` decides for many bots at once (the vector envs ask every bot
    that acts at the same moment in one call, :func:`pokerzoo.envs.core.bots.act_batch`): each
    bot draws its futures from its own generator in the order :meth:`act` draws them, and the
    bots' futures are dealt, drawn and scored together, a few bots' worth at a time
    (:data:`_CHUNK_FUTURES`). :meth:`act` is the batch of one, so the two decide alike, to the
    bit of every equity.

    Args:
        seed: seeds its generator (every future is drawn from it).
        decks, jokers, deuces_wild: the env's pack and wild cards.
        samples: futures per decision; the default 600 take about 1.0-1.6 ms (heads-up) to
            2.3 ms (ten players) a decision on one core where numba is installed, alone or in
            batches, a third of the time of the code before batching
            (``benchmarks/draw_poker_batches.py``, ``benchmarks/bot_speed.py``). Batches gain
            more with few futures (60: a third off), where a call's overhead weighs more.
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
        self._pack = (int(decks), int(jokers))
        self._cache: dict[tuple, np.ndarray] = {}
        self.reset(seed)

    def reset(self, seed: int | None = None) -> None:
        self._rng = np.random.default_rng(seed)
        self._cache.clear()

    # --- acting ---------------------------------------------------------------------------------
    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        view = decode_observation(observation)
        return self._decide(view, self._draw_equity(view), action_mask)

    @classmethod
    def act_batch(
        cls,
        bots: Sequence[EquityBot],
        observations: np.ndarray,
        action_masks: np.ndarray,
    ) -> np.ndarray:
        """``bots[i].act(observations[i], action_masks[i])`` for every row (``int64``), each bot
        drawing from its own generator as it would alone, with the futures of all of them
        simulated together (class docstring). A bot named in several rows decides them in row
        order, as if asked one row after the other. A subclass that decides its own way (its own
        ``act`` or ``_draw_equity``) is asked row by row."""
        if cls.act is not EquityBot.act or cls._draw_equity is not EquityBot._draw_equity:
            rows = zip(bots, observations, action_masks, strict=True)
            return np.array([bot.act(obs, mask) for bot, obs, mask in rows], dtype=np.int64)
        views = decode_observations(np.asarray(observations))
        actions = np.empty(len(bots), dtype=np.int64)
        # rounds holding each bot at most once, so that a bot's rows see its generator and its
        # cache in row order
        rounds: list[list[int]] = []
        seen: dict[int, int] = {}
        for row, bot in enumerate(bots):
            turn = seen.get(id(bot), 0)
            seen[id(bot)] = turn + 1
            if turn == len(rounds):
                rounds.append([])
            rounds[turn].append(row)
        for rows in rounds:
            equities = _equities([bots[r] for r in rows], [views[r] for r in rows])
            for r, equity in zip(rows, equities, strict=True):
                actions[r] = bots[r]._decide(views[r], equity, action_masks[r])
        return actions

    def _decide(self, view: DrawPokerView, equity: np.ndarray, action_mask: np.ndarray) -> int:
        """The action for ``view``, given the equity of each discard (:meth:`_draw_equity`)."""
        if view.phase == PHASE_DRAW:
            legal = action_mask[STAND_PAT:].astype(bool)
            return STAND_PAT + int(np.argmax(np.where(legal, equity, -1.0)))
        if view.phase == PHASE_BET_BEFORE:
            # the discards the stock can supply now (a short stock only grows with discards)
            best = float(equity[view.supply >= _DISCARDED].max())
        else:
            best = float(equity[0])
        opponents = max(len(view.opponents_in), 1)
        if best >= 1 / (opponents + 1) + self.margin:
            wanted = RAISE
        elif view.to_call == 0 or best * (view.pot + view.to_call) >= view.to_call:
            wanted = CALL
        else:
            wanted = FOLD
        return _betting_action(action_mask, wanted)

    # --- equity ---------------------------------------------------------------------------------
    def _draw_equity(self, view: DrawPokerView) -> np.ndarray:
        """Equity of each of the 32 discards (after the draw: only entry 0, standing pat)."""
        return _equities([self], [view])[0]

    def _picks(self, size: int, rows: int, count: int) -> np.ndarray:
        """The swaps of :func:`_shuffle` dealing ``rows`` random orders of ``size`` cards, their
        first ``count``: step ``i`` swaps card ``i`` of every row with a card at ``i`` or after
        (``integers(i, size, rows)``, drawn in bulk: :func:`bounded_draws`)."""
        return bounded_draws(self._rng, count, size, rows)

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


_DISCARDED = np.array([bits.bit_count() for bits in range(1 << HAND_SIZE)])
"""Cards each draw action's discard ``bits`` (action ``STAND_PAT + bits``) throws."""
_DISCARDS = np.arange(1 << HAND_SIZE)
"""Every discard, as the bits of the cards thrown (action ``STAND_PAT + bits``): the equity bot
keeps the other cards and draws the first replacements of a future."""
_POOL_FUTURES = 8
"""Hands in the pool of opponents read from their play, per future."""
_CHUNK_FUTURES = 1200
"""Futures simulated together, about (whole bots' simulations, in order, until they reach it):
many bots of few futures gain from being simulated together, but past two bots' worth of the
default 600 the arrays outgrow the processor's caches and a larger batch is slower, not
faster (``benchmarks/draw_poker_batches.py``)."""


@dataclass
class _Job:
    """One bot's simulation of one view (:func:`_equities`): what it draws and builds."""

    bot: EquityBot
    view: DrawPokerView
    drawing: bool
    unseen: np.ndarray
    dealt: int
    """Cards of each order of ``unseen`` a future uses (five per player, at most them all)."""
    read: list[bool]
    """Per opponent in: read from its play (hands from the pool), else dealt and improved."""
    picks: list[np.ndarray]
    """The swaps (:meth:`EquityBot._picks`) of its deals: the futures, a second order of the
    unseen cards for the draws, then the pool's hands if an opponent is read."""
    decks: list[np.ndarray] | None = None
    """Those deals, shuffled (:func:`_shuffle`)."""
    pool: _Pool | None = None
    hands: list[np.ndarray | None] | None = None
    """Each opponent's final hands, one future a row (``None`` while still to be drawn from the
    pool)."""


def _equities(bots: Sequence[EquityBot], views: Sequence[DrawPokerView]) -> list[np.ndarray]:
    """Each bot's equity of the 32 discards of its view (:meth:`EquityBot._draw_equity`), from
    its cache, or simulated: every bot draws its random numbers from its own generator in the
    order one bot alone draws them (its futures' deals, then the pool's deal, then the pool
    hands of each opponent read from its play), and the work on the cards is done for all the
    bots together; a simulation run before on the same generator state and view is read back
    (:data:`_SIMULATIONS`). A bot may appear once."""
    equities: list[np.ndarray | None] = [None] * len(bots)
    jobs: list[tuple[int, tuple, _Job]] = []
    shared: dict[int, tuple] = {}
    for k, (bot, view) in enumerate(zip(bots, views, strict=True)):
        drawing = view.phase != PHASE_BET_AFTER
        key = (view.hand_number, view.cards, view.opponents_in, view.drawn, view.history, drawing)
        cached = bot._cache.get(key)
        if cached is not None:
            equities[k] = cached
            continue
        memo = _simulation_key(bot, key)
        found = _SIMULATIONS.get(memo)
        if found is None:
            shared[k] = memo
            jobs.append((k, key, _start(bot, view, drawing)))
            continue
        _SIMULATIONS.move_to_end(memo)
        equity, after = found
        bot._rng.bit_generator.state = after
        if len(bot._cache) > 64:
            bot._cache.clear()
        equities[k] = bot._cache[key] = equity
    if jobs:
        simulated: list[np.ndarray] = []
        chunk: list[_Job] = []
        futures = 0
        for _, _, job in jobs:
            chunk.append(job)
            futures += job.bot.samples
            if futures >= _CHUNK_FUTURES:
                simulated += _simulate(chunk)
                chunk, futures = [], 0
        if chunk:
            simulated += _simulate(chunk)
        for (k, key, job), equity in zip(jobs, simulated, strict=True):
            if len(job.bot._cache) > 64:
                job.bot._cache.clear()
            equity.flags.writeable = False
            equities[k] = job.bot._cache[key] = equity
            _SIMULATIONS[shared[k]] = equity, job.bot._rng.bit_generator.state
            if len(_SIMULATIONS) > _SIMULATIONS_KEPT:
                _SIMULATIONS.popitem(last=False)
    return equities  # type: ignore[return-value]


_SIMULATIONS_KEPT = 8_192
"""Simulations :data:`_SIMULATIONS` keeps, the least recently used dropped past it (about 2 KB
each: a duplicate evaluation's pieces of 256 heads-up deals need a few thousand,
:data:`pokerzoo.training.evaluate.PIECE_DEALS`)."""
_SIMULATIONS: OrderedDict[tuple, tuple[np.ndarray, dict[str, Any]]] = OrderedDict()
"""Each simulation's equities and where it left its bot's generator, by all it depends on: the
bot's class and settings, its generator's state and the view (its cache key). A duplicate
evaluation seats the same bot, seeded alike, at the same deal once per contender (the agent, the
rules over its features): wherever the contenders have played alike so far, the bot's
simulation is one it ran before, read back here with its generator moved on as the simulation
moves it, so the bot decides and draws exactly as it would have (read only: shared by bots)."""


def _simulation_key(bot: EquityBot, key: tuple) -> tuple:
    """What a simulation of ``bot`` on the view of cache key ``key`` depends on."""
    settings = (type(bot), bot.samples, bot.trust, bot.deuces_wild, bot._pack)
    return settings, _frozen(bot._rng.bit_generator.state), key


def _frozen(value: Any) -> Any:
    """A generator's state (nested dicts of numbers and arrays) as a hashable value."""
    if isinstance(value, dict):
        return tuple((k, _frozen(v)) for k, v in sorted(value.items()))
    if isinstance(value, np.ndarray):
        return value.dtype.str, value.shape, value.tobytes()
    return value


def _start(bot: EquityBot, view: DrawPokerView, drawing: bool) -> _Job:
    """A simulation's first draws: the futures' deals, and the pool's when an opponent is read
    from its play."""
    counts = bot._counts.copy()
    np.subtract.at(counts, list(view.cards), 1)
    unseen = np.repeat(np.arange(len(counts)), counts)
    opponents = view.opponents_in
    # one future a row: the opponents' hands, then a second order of the unseen cards for the
    # cards drawn (the stock is shared, so a replacement may repeat a card of a hand)
    dealt = min(unseen.size, HAND_SIZE * (len(opponents) + 1))
    read = []
    for seat in opponents:
        least_dealt, least_final = _read_betting(view, seat)
        read.append(view.drawn[seat] >= 0 or bool(least_dealt) or bool(least_final))
    picks = [
        bot._picks(unseen.size, bot.samples, dealt),
        bot._picks(unseen.size, bot.samples, dealt),
    ]
    if any(read):
        picks.append(bot._picks(unseen.size, _POOL_FUTURES * bot.samples, 2 * HAND_SIZE))
    return _Job(bot, view, drawing, unseen, dealt, read, picks)


def _simulate(jobs: list[_Job]) -> list[np.ndarray]:
    """The equities of the 32 discards (after the draw: only standing pat, entry 0) of every
    job whose first draws :func:`_start` made: one shuffle of every deal, one pass of the caller
    rule and one evaluation of every hand per kind of wild cards, the pool hands of the
    opponents read from their play drawn bot by bot in between."""
    shuffled = _shuffle([(job.unseen, picks) for job in jobs for picks in job.picks])
    at = 0
    for job in jobs:
        job.decks, at = shuffled[at : at + len(job.picks)], at + len(job.picks)
    groups: dict[bool, list[_Job]] = {}
    for job in jobs:
        groups.setdefault(job.bot.deuces_wild, []).append(job)
    for deuces_wild, group in groups.items():
        _caller_draws(group, deuces_wild)
    for job in jobs:
        job.hands = [
            job.bot._conditioned(job.pool, job.view.drawn[seat], *_read_betting(job.view, seat))
            if read
            else hands
            for seat, read, hands in zip(job.view.opponents_in, job.read, job.hands, strict=True)
        ]
    equities: dict[int, np.ndarray] = {}
    for deuces_wild, group in groups.items():
        for job, equity in zip(group, _score(group, deuces_wild), strict=True):
            equities[id(job)] = equity
    return [equities[id(job)] for job in jobs]


def _shuffle(decks: Sequence[tuple[np.ndarray, np.ndarray]]) -> list[np.ndarray]:
    """Partial Fisher-Yates shuffles of many decks at once: for each ``(unseen, picks)``, rows
    holding the cards ``unseen`` (as many as ``picks[0]``), in which step ``i`` swaps card ``i``
    with card ``picks[i]``; each deck's first ``len(picks)`` cards (``int64``), a random draw of
    that many cards a row. The decks' steps run together, the longest deals first, on cards of
    one byte (a deck a row, so that a step reads and writes each row's few bytes); where numba
    is installed, by one compiled loop (:func:`pokerzoo.envs.core.compiled.partial_shuffles`),
    the same cards."""
    if jit.available() and decks:
        return _shuffle_compiled(decks)
    order = sorted(range(len(decks)), key=lambda d: -len(decks[d][1]))
    steps = [len(decks[d][1]) for d in order]
    sizes = [decks[d][1][0].size for d in order]
    starts = np.cumsum([0, *sizes])
    total, width = int(starts[-1]), max(unseen.size for unseen, _ in decks)
    cards = np.zeros((total, width), dtype=np.int8)
    swaps = np.zeros((max(steps), total), dtype=np.int64)
    for d, start, size in zip(order, starts, sizes, strict=False):
        unseen, picks = decks[d]
        cards[start : start + size, : unseen.size] = unseen
        swaps[: len(picks), start : start + size] = picks
    flat = cards.reshape(-1)
    rows = np.arange(0, total * width, width)
    active = len(order)
    for i in range(max(steps)):
        while steps[active - 1] <= i:
            active -= 1
        n = int(starts[active])
        at = swaps[i, :n] + rows[:n]
        card = flat[at]
        flat[at] = cards[:n, i]
        cards[:n, i] = card
    out: list[np.ndarray] = [np.empty(0)] * len(decks)
    for d, start, size, step in zip(order, starts, sizes, steps, strict=False):
        out[d] = cards[start : start + size, :step].astype(np.int64)
    return out


def _shuffle_compiled(decks: Sequence[tuple[np.ndarray, np.ndarray]]) -> list[np.ndarray]:
    """:func:`_shuffle` by :func:`pokerzoo.envs.core.compiled.partial_shuffles`."""
    from ..envs.core import compiled

    steps = np.array([len(picks) for _, picks in decks], dtype=np.int64)
    rows = np.array([picks.shape[1] for _, picks in decks], dtype=np.int64)
    unseen_start = np.cumsum([0, *(unseen.size for unseen, _ in decks)])
    picks_start = np.cumsum([0, *(picks.size for _, picks in decks)])
    out_start = np.cumsum([0, *(steps * rows)])
    out = np.empty(int(out_start[-1]), dtype=np.int64)
    compiled.partial_shuffles(
        np.concatenate([unseen for unseen, _ in decks]).astype(np.int64, copy=False),
        unseen_start,
        np.concatenate([picks.reshape(-1) for _, picks in decks]).astype(np.int64, copy=False),
        picks_start,
        steps,
        rows,
        out,
        out_start,
    )
    return [
        out[out_start[d] : out_start[d + 1]].reshape(rows[d], steps[d]) for d in range(len(decks))
    ]


def _caller_draws(jobs: list[_Job], deuces_wild: bool) -> None:
    """The caller rule's draw, in one pass for ``jobs`` (one kind of wild cards): the pool of
    every job that reads an opponent (:class:`_Pool`), and the final hands of the opponents
    dealt in the futures (the others' hands are drawn from the pool later: ``None`` for now)."""
    pooled = [job for job in jobs if len(job.decks) > 2]
    dealt = [job.decks[2][:, :HAND_SIZE] for job in pooled]
    replacements = [job.decks[2][:, HAND_SIZE:] for job in pooled]
    for job in jobs:
        rows, spare = job.decks[0], job.decks[1]
        for j, read in enumerate(job.read):
            if not read:
                start = HAND_SIZE * j
                columns = (HAND_SIZE + start + np.arange(HAND_SIZE)) % job.dealt
                dealt.append(rows[:, start : start + HAND_SIZE])
                replacements.append(spare[:, columns])
    if not dealt:
        for job in jobs:
            job.hands = [None] * len(job.read)
        return
    hands = np.concatenate(dealt)
    keep, category = caller_keep_many(hands, deuces_wild)
    final = caller_draw_many(hands, np.concatenate(replacements), keep)
    at = 0
    if pooled:
        end = sum(len(job.decks[2]) for job in pooled)
        final_category = categories(final[:end], "draw", deuces_wild=deuces_wild)
        for job in pooled:
            part = slice(at, at + len(job.decks[2]))
            drew = HAND_SIZE - _count_kept(keep[part])
            job.pool = _Pool(drew, category[part], final[part], final_category[part])
            at = part.stop
    for job in jobs:
        job.hands = []
        for read in job.read:
            if read:
                job.hands.append(None)
            else:
                job.hands.append(final[at : at + job.bot.samples])
                at += job.bot.samples


def _count_kept(keep: np.ndarray) -> np.ndarray:
    """The cards each row of ``keep`` (``bool (M, 5)``) keeps, ``int64``: a column at a time (a
    sum along five columns is slow)."""
    count = keep[:, 0].astype(np.int64)
    for position in range(1, HAND_SIZE):
        count += keep[:, position]
    return count


def _score(jobs: list[_Job], deuces_wild: bool) -> list[np.ndarray]:
    """The equity of each job's discards (32 in the draw and before it, else standing pat
    only): the opponents' hands of every job in one evaluation, each job's own after each
    discard in another (:func:`evaluate_draws`, which never builds them); a job's share of the
    pot in a future splits ties, and its equity is the mean over the futures (a mean over a
    contiguous row, summed as one bot alone sums it)."""
    theirs_all = [hands for job in jobs for hands in job.hands]
    keys = evaluate(
        np.concatenate(theirs_all) if theirs_all else np.empty((0, HAND_SIZE), dtype=np.int64),
        "draw",
        deuces_wild=deuces_wild,
    )
    equities = []
    at = 0
    for job in jobs:
        samples = job.bot.samples
        best = np.full(samples, -1, dtype=np.int64)
        ties = np.zeros(samples, dtype=np.int64)
        for _ in job.hands:
            theirs = keys[at : at + samples]
            at += samples
            ties = np.where(theirs > best, 0, ties) + (theirs == best)
            best = np.maximum(best, theirs)
        rows, spare = job.decks[0], job.decks[1]
        drawn = np.concatenate([rows[:, HAND_SIZE * len(job.read) :], spare], axis=1)
        discards = _DISCARDS if job.drawing else _DISCARDS[:1]
        mine = evaluate_draws(
            [job.view.cards], drawn[None, :, :HAND_SIZE], discards, "draw", deuces_wild=deuces_wild
        )
        # one discard a row, as the mean over a contiguous row wants it
        mine = np.ascontiguousarray(mine[0].T)
        share = np.where(mine > best, 1.0, np.where(mine == best, 1.0 / (ties + 2), 0.0))
        equity = np.zeros(1 << HAND_SIZE, dtype=np.float64)
        equity[: len(discards)] = share.mean(axis=1)
        equities.append(equity)
    return equities


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
    "maniac": ManiacBot,
    "bluffer": BluffBot,
}
