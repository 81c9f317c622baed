"""Poker without a name's ``"odds"`` columns, the first part of the ``"reach"`` features
(:mod:`.reach`): the ``"tricks"`` columns (:mod:`.features`) plus Monte-Carlo odds, the
trick-taking game's counterpart of the betting games' equity
(:mod:`pokerzoo.training.poker.features`).

Each odd is measured over sampled deals of the cards the seat has not seen (uniform over the
deals in which each other hand avoids the suits its plays showed it lacks: :func:`sample_deals`),
the other seats playing the rules policy
(:func:`pokerzoo.envs.nameless_poker.analysis.rules_play`) for their own bids:

- bidding: how many tricks the hand takes when it plays for every trick, to the deal's end
  (context ``tricks_expected``; per bid row ``tricks_at_least``, the share of deals in which it
  takes at least that bid, and ``tricks_exactly``); in a dark deal the hand is sampled too;
- playing: per legal card (and per joker lead naming a suit), ``takes_trick``, the share of deals
  in which that card takes the trick on the table once the seats after it have played.

These describe the position, as equity does: no action is played out to its score, no bid or
card is recommended; the policy learns from its returns what to make of them. The samples come
from a generator seeded by the observation (:func:`pokerzoo.training.poker.features.seeded` of
:func:`observation_key`), so the same observation always gets the same features, in any process
and whatever its dtype. A batch of observations draws every observation's samples from its
own generator, then plays all their play-outs together (:class:`PlayOuts`: on arrays, by
numba's compiled loop where it is installed, else by numpy's steps once they are many): each
row is exactly the observation's features alone.

Layout: the ``"tricks"`` context, then ``tricks_expected``; then per action the ``"tricks"``
row followed by :data:`ODDS_ROW_NAMES`.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.random import Generator

from ....envs.core.cards import JOKER
from ....envs.nameless_poker import (
    BID,
    NO_TRUMP,
    NUM_ACTIONS,
    NUM_PLAYERS,
    NamelessPokerView,
    decode_observation,
    play_mask,
    playout,
)
from ....envs.nameless_poker.analysis import DARK_BID, expected_tricks, rules_play, wants_trick
from ....envs.nameless_poker.deals import DEAL_KINDS, follow_options
from ....envs.nameless_poker.playout import (
    SampledDeals,
    World,
    Worlds,
    play_out,
    put,
    put_action,
)
from ....envs.nameless_poker.sampling import deals_unseen, unseen_pool
from ...features import batched
from ...poker.features import seeded
from .features import CONTEXT, ROW_WIDTH, tricks_features

__all__ = [
    "ODDS_CONTEXT",
    "ODDS_ROW_NAMES",
    "ODDS_ROW_WIDTH",
    "BID_SAMPLES",
    "PLAY_SAMPLES",
    "Measure",
    "PlayOuts",
    "add_trick_odds",
    "add_tricks_totals",
    "extend_features",
    "measure_all",
    "legal_actions",
    "observation_key",
    "run_job",
    "sample_deals",
    "odds_features",
    "plan_measure",
    "trick_odds",
    "tricks_odds",
    "tricks_totals",
]

BID_SAMPLES = 16
"""Sampled deals per bid (each played to the deal's end)."""
PLAY_SAMPLES = 12
"""Sampled deals per card played (each to the end of the trick)."""
ODDS_ROW_NAMES: tuple[str, ...] = ("takes_trick", "tricks_at_least", "tricks_exactly")
"""The odds each action's row adds after the ``"tricks"`` row (module doc)."""
ODDS_CONTEXT = CONTEXT + 1
"""Context columns: the ``"tricks"`` context, then ``tricks_expected`` (tricks / 8)."""
ODDS_ROW_WIDTH = ROW_WIDTH + len(ODDS_ROW_NAMES)


def sample_deals(
    view: NamelessPokerView, sizes: list[int], rng: np.random.Generator, samples: int
) -> list[list[list[int]]]:
    """``samples`` independent deals with the guarantee of
    :func:`~pokerzoo.envs.nameless_poker.sampling.deal_unseen`: each uniform over the deals of
    the unseen cards consistent with ``view`` (no seat given cards holds a column it has shown
    void in; the jokers counted as two cards).
    They are drawn in one batch by rejection (shuffle, deal in turn, keep the deals that
    respect every shown void: uniform given acceptance); the samples it cannot fill that way
    come from the exact counts (:func:`~pokerzoo.envs.nameless_poker.sampling.deals_unseen`).

    Raises:
        ValueError: no consistent deal exists (the observation is inconsistent).
    """
    pool = unseen_pool(view, sizes)
    tries = 4 * samples
    order = np.tile(pool, (tries, 1))
    rng.permuted(order, axis=1, out=order)  # in place: the same shuffles
    column = np.where(order == JOKER, 4, order & 3)
    ok = np.ones(tries, dtype=bool)
    starts = np.cumsum([0, *sizes])
    for r, size in enumerate(sizes):
        if size and view.voids[r].any():
            ok &= ~view.voids[r][column[:, starts[r] : starts[r + 1]]].any(axis=1)
    kept = order[ok][:samples]
    hands = [
        np.sort(kept[:, starts[r] : starts[r + 1]], axis=1).tolist() for r in range(NUM_PLAYERS)
    ]
    deals = [[hands[r][i] for r in range(NUM_PLAYERS)] for i in range(len(kept))]
    if len(deals) < samples:
        deals += deals_unseen(view, sizes, rng, samples - len(deals), tries=0)
    return deals


def tricks_totals(
    view: NamelessPokerView,
    rng: np.random.Generator,
    samples: int,
    modes: tuple[bool, ...] = (True,),
) -> np.ndarray:
    """Bidding: ``int (samples, len(modes))``, the tricks the seat takes on each of ``samples``
    sampled deals when it plays for every trick (a mode ``True``) or sheds every trick
    (``False``), every mode on the same deals; the others bid as the rules bot would, unless
    they have bid."""
    return run_job(add_tricks_totals, view, rng, samples, modes)


def add_tricks_totals(
    play_outs: PlayOuts,
    view: NamelessPokerView,
    rng: np.random.Generator,
    samples: int,
    modes: tuple[bool, ...] = (True,),
) -> int:
    """:func:`tricks_totals`'s deals drawn and given to ``play_outs`` (the job's result: the
    same totals, ``int (samples, len(modes))``)."""
    size = view.hand_size
    trump = view.trump
    first = (view.dealer + 1) % NUM_PLAYERS
    sizes = [size if view.hand_hidden else 0] + [size] * (NUM_PLAYERS - 1)
    bases = []
    for hands in sample_deals(view, sizes, rng, samples):
        if not view.hand_hidden:
            hands[0] = list(view.hand)
        bids: list[int | None] = list(view.bids)
        bids[0] = size  # plays for every trick
        for r in range(1, NUM_PLAYERS):
            if bids[r] is None:
                hidden = view.kind == "dark"
                bids[r] = DARK_BID if hidden else round(expected_tricks(hands[r], trump))
        bases.append(World(hands, [], first, NO_TRUMP, [0] * NUM_PLAYERS, bids, 0))
    return play_outs.add(view, bases, None, tuple(int(m) for m in modes), _seat_zero)


def tricks_odds(
    view: NamelessPokerView, rng: np.random.Generator, samples: int, taking: bool = True
) -> np.ndarray:
    """Bidding: ``float (9,)``, the share of ``samples`` sampled deals in which the seat takes
    0 .. 8 tricks when it plays for every trick (``taking=False``: when it sheds every trick;
    the others bid as the rules bot would, unless they have bid)."""
    totals = tricks_totals(view, rng, samples, (taking,))[:, 0]
    return np.bincount(totals, minlength=9) / samples


def trick_odds(
    view: NamelessPokerView, legal: list[int], rng: np.random.Generator, samples: int
) -> np.ndarray:
    """Playing: per legal action (card or joker lead), the share of ``samples`` sampled deals
    in which it takes the trick on the table once the seats after it have played."""
    return run_job(add_trick_odds, view, legal, rng, samples)


def add_trick_odds(
    play_outs: PlayOuts, view: NamelessPokerView, legal: list[int], rng: Generator, samples: int
) -> int:
    """:func:`trick_odds`'s deals drawn and given to ``play_outs`` (the job's result: the same
    shares)."""
    done = sum(view.tricks)
    sizes = [0] * NUM_PLAYERS  # only the seats after this one in the trick need their hands
    for r in range(1, NUM_PLAYERS):
        if (r - view.leader) % NUM_PLAYERS > len(view.trick):
            sizes[r] = view.hand_size - done
    bases = SampledDeals(view, sample_deals(view, sizes, rng, samples))
    taken = view.tricks[0]

    def shares(tricks: np.ndarray) -> np.ndarray:
        wins = np.zeros(len(legal))
        for row in tricks[:, :, 0, 0]:  # deal after deal, as the shares were always summed
            wins += row > taken
        return wins / samples

    return play_outs.add(view, bases, legal, (-1,), shares, trick_only=True)


def _seat_zero(tricks: np.ndarray) -> np.ndarray:
    """A job's tricks of seat 0, ``(deals, modes)`` (no action played)."""
    return tricks[:, 0, :, 0]


class PlayOuts:
    """Play-outs gathered from many observations, played together (:meth:`run`).

    A job (:meth:`add`) plays its sampled deals (``bases``) after each of the seat's ``actions``
    (or as they are) with seat 0's intent fixed to each of ``modes`` (-1: its bid decides),
    to the deal's end (``trick_only``: to the end of the trick on the table). Few worlds in all
    (under :data:`BATCH_WORLDS`: none with numba, under 400 without) are played one by one
    exactly as the features always played them
    (:func:`~pokerzoo.envs.nameless_poker.playout.play_out`, the rules policy to the end of a
    trick); more, all at once on arrays (:class:`~pokerzoo.envs.nameless_poker.playout.Worlds`,
    card for card the same).
    """

    def __init__(self) -> None:
        self._jobs: list[tuple[Any, ...]] = []

    def add(
        self,
        view: NamelessPokerView,
        bases: list[World] | SampledDeals,
        actions: list[int] | None,
        modes: tuple[int, ...],
        finish: Callable[[np.ndarray], np.ndarray],
        trick_only: bool = False,
    ) -> int:
        """Queue a job; :meth:`run`'s result ``[job]`` is ``finish`` of its tricks, ``int64
        (deals, actions or 1, modes, NUM_PLAYERS)``."""
        trump = view.trump
        kind = DEAL_KINDS.index(view.kind)
        turned = int(view.turned_card != JOKER and view.turned_card & 3 == trump)
        self._jobs.append((bases, actions, modes, finish, trick_only, trump, kind, turned))
        return len(self._jobs) - 1

    def run(self) -> list[np.ndarray]:
        """Every job's result, in the order they were added."""
        shapes = [
            (len(bases), len(actions) if actions is not None else 1, len(modes))
            for bases, actions, modes, *_ in self._jobs
        ]
        sizes = [math.prod(shape) for shape in shapes]
        results = []
        if sum(sizes) < (playout.batch_worlds() if BATCH_WORLDS is None else BATCH_WORLDS):
            for job, shape in zip(self._jobs, shapes, strict=True):
                results.append(job[3](_play_alone(*job[:3], *job[4:]).reshape(*shape, -1)))
            return results
        tricks = {}
        for trick_only in (False, True):
            chosen = [j for j, job in enumerate(self._jobs) if job[4] == trick_only]
            if chosen:
                played = _worlds([self._jobs[j] for j in chosen]).play_out(trick_only)
                ends = np.cumsum([sizes[j] for j in chosen])
                for j, part in zip(chosen, np.split(played, ends[:-1]), strict=True):
                    tricks[j] = part
        for j, (job, shape) in enumerate(zip(self._jobs, shapes, strict=True)):
            results.append(job[3](tricks[j].reshape(*shape, -1)))
        return results


def run_job(add: Callable[..., int], *args: Any) -> Any:
    """One job played alone: ``add`` (an ``add_*`` function, e.g. :func:`add_trick_odds`)
    queues it in a fresh :class:`PlayOuts` with ``args``, and its result comes back."""
    play_outs = PlayOuts()
    job = add(play_outs, *args)
    return play_outs.run()[job]


BATCH_WORLDS: int | None = None
"""Worlds from which :class:`PlayOuts` plays them together as
:class:`~pokerzoo.envs.nameless_poker.playout.Worlds` rather than one by one; ``None``:
:func:`pokerzoo.envs.nameless_poker.playout.batch_worlds` (always with numba, from 400
without; a test sets a number)."""


def _play_alone(
    bases: list[World] | SampledDeals,
    actions: list[int] | None,
    modes: tuple[int, ...],
    trick_only: bool,
    trump: int,
    kind: int,
    turned: int,
) -> np.ndarray:
    """A job's worlds played one by one, as the features always played them."""
    tricks = []
    for base in bases.worlds() if isinstance(bases, SampledDeals) else bases:
        for action in actions if actions is not None else [None]:
            start = base.copy()
            if action is not None:
                put_action(start, action, trump)
            for mode in modes:
                world = start.copy()
                if not trick_only:
                    wants = None if mode < 0 else bool(mode)
                    play_out(world, trump, kind, turned, observer_wants=wants)
                while trick_only and world.trick:  # the seats after it finish the trick
                    seat = (world.leader + len(world.trick)) % NUM_PLAYERS
                    hand = world.hands[seat]
                    options = follow_options(hand, world.trick, trump, world.called)
                    want = wants_trick(kind, world.bids[seat], world.tricks[seat])
                    card, _ = rules_play(hand, options, world.trick, trump, want, 0)
                    put(world, seat, card, NO_TRUMP, trump)
                tricks.append(world.tricks)
    return np.array(tricks, dtype=np.int64).reshape(-1, NUM_PLAYERS)


def _worlds(jobs: list[tuple[Any, ...]]) -> Worlds:
    """The jobs' worlds as arrays, job after job (each deal-major, then action, then mode):
    every sampled deal read once, then repeated, and seat 0's actions put in one go."""
    deals = [len(job[0]) for job in jobs]
    per_deal = [(len(job[1]) if job[1] is not None else 1) * len(job[2]) for job in jobs]
    worlds = Worlds.of_parts(
        [job[0] for job in jobs], *([job[i] for job in jobs] for i in (5, 6, 7))
    )
    worlds = worlds.take(np.repeat(np.arange(sum(deals)), np.repeat(per_deal, deals)))
    actions, wants = [], []
    for (job_bases, job_actions, modes, *_), count in zip(jobs, per_deal, strict=True):
        n = len(job_bases)
        if job_actions is None:
            actions.append(np.full(n * count, -1, dtype=np.int64))
        else:
            actions.append(
                np.tile(np.repeat(np.asarray(job_actions, dtype=np.int64), len(modes)), n)
            )
        wants.append(np.tile(np.asarray(modes, dtype=np.int64), n * count // len(modes)))
    every = np.concatenate(actions)
    rows = np.flatnonzero(every >= 0)
    if rows.size:
        worlds.put_actions(every[rows], rows)
    worlds.wants = np.concatenate(wants)
    return worlds


def observation_key(observation: np.ndarray) -> bytes:
    """The bytes that seed an observation's samples: its values as ``int16``, the dtype of the
    observations before issue 27 (they are ``float32`` now, with the same whole values), so the
    seed, and every sampled feature, is the one it was and the same in any dtype."""
    return np.asarray(observation).astype(np.int16).tobytes()


Finish = Callable[[list[np.ndarray]], tuple[float, np.ndarray]]
"""An observation's measure once its play-outs are done: from :meth:`PlayOuts.run`'s results,
its context value and rows."""


def _odds(observation: np.ndarray) -> tuple[float, np.ndarray]:
    """One observation's ``tricks_expected`` and ``(NUM_ACTIONS, 3)`` odds rows."""
    return measure_all(_odds_plan)([observation])[0]


def _odds_plan(observation: np.ndarray, play_outs: PlayOuts) -> Finish:
    """:func:`_odds` of one observation: its deals drawn (from its own seeded generator) and
    queued in ``play_outs``, and how to finish once they are played out."""

    def bid_rows(rows: np.ndarray, shares: np.ndarray, size: int) -> None:  # tricks_odds
        rows[BID : BID + size + 1, 1] = np.cumsum(shares[::-1])[::-1][: size + 1]
        rows[BID : BID + size + 1, 2] = shares[: size + 1]

    def card_rows(
        rows: np.ndarray, view: NamelessPokerView, legal: list[int], result: np.ndarray
    ) -> None:
        rows[legal, 0] = result

    return plan_measure(
        observation,
        play_outs,
        Measure(len(ODDS_ROW_NAMES), b"", True, bid_rows, add_trick_odds, PLAY_SAMPLES, card_rows),
    )


@dataclass(frozen=True)
class Measure:
    """What a per-observation measure (the ``"odds"`` or ``"reach"`` rows) draws and writes,
    for :func:`plan_measure`."""

    columns: int
    """Columns of its rows, ``(NUM_ACTIONS, columns)``."""
    salt: bytes
    """Added to :func:`observation_key` to seed the observation's generator."""
    taking: bool
    """Bidding: the seat plays for every trick (``True``) or sheds every trick."""
    bid_rows: Callable[[np.ndarray, np.ndarray, int], None]
    """Bidding: writes the rows from the shares of 0..8 tricks and the hand size."""
    add_play: Callable[..., int]
    """Playing: queues the legal actions' play-outs (``add_*(play_outs, view, legal, rng,
    samples)``)."""
    play_samples: int
    """Playing: sampled deals per legal action."""
    card_rows: Callable[[np.ndarray, NamelessPokerView, list[int], np.ndarray], None]
    """Playing: writes the rows from the view, the legal actions and the job's result."""


_VIEWS: dict[bytes, NamelessPokerView] = {}
"""The views :func:`plan_measure` decoded last, by :func:`observation_key`: the ``"reach"``
features measure each observation twice (its odds, then its reach), and decode it once."""
_KEPT_VIEWS = 512


def _decoded(key: bytes, observation: np.ndarray) -> NamelessPokerView:
    """``decode_observation(observation)``, ``key`` its :func:`observation_key`; kept for the
    next measure of the same observation (a view is not changed by what reads it)."""
    view = _VIEWS.get(key)
    if view is None:
        view = _VIEWS[key] = decode_observation(observation)
        if len(_VIEWS) > _KEPT_VIEWS:
            del _VIEWS[next(iter(_VIEWS))]  # the oldest
    return view


def plan_measure(observation: np.ndarray, play_outs: PlayOuts, measure: Measure) -> Finish:
    """``measure`` of one observation: its deals drawn (from its own generator, seeded by the
    observation and ``measure.salt``) and queued in ``play_outs``, and how to finish once they
    are played out. Nothing is measured when it is not the seat's turn, in a deal of fixed bids
    or for a lone legal action (the rows stay zero)."""
    rows = np.zeros((NUM_ACTIONS, measure.columns), dtype=np.float32)
    key = observation_key(observation)
    view = _decoded(key, observation)
    if view.to_act != 0:  # not this seat's turn (or the game is over): nothing to measure
        return lambda results: (0.0, rows)
    rng = seeded(key + measure.salt)
    if view.bidding:
        if view.kind in ("minimum", "maximum"):
            return lambda results: (0.0, rows)
        job = add_tricks_totals(play_outs, view, rng, BID_SAMPLES, (measure.taking,))
        size = view.hand_size

        def bids(results: list[np.ndarray]) -> tuple[float, np.ndarray]:
            shares = np.bincount(results[job][:, 0], minlength=9) / BID_SAMPLES
            measure.bid_rows(rows, shares, size)
            return float(shares @ np.arange(9)) / 8, rows

        return bids
    legal = [int(a) for a in np.flatnonzero(legal_actions(view))]
    if len(legal) <= 1:
        return lambda results: (0.0, rows)
    job = measure.add_play(play_outs, view, legal, rng, measure.play_samples)

    def cards(results: list[np.ndarray]) -> tuple[float, np.ndarray]:
        measure.card_rows(rows, view, legal, results[job])
        return 0.0, rows

    return cards


def measure_all(
    plan: Callable[[np.ndarray, PlayOuts], Finish],
) -> Callable[[np.ndarray], list[tuple[float, np.ndarray]]]:
    """A per-observation measure (``plan``: its deals queued, then finished) over a batch of
    observations, every observation's play-outs played together (:class:`PlayOuts`)."""

    def measure(observations: np.ndarray) -> list[tuple[float, np.ndarray]]:
        play_outs = PlayOuts()
        finishes = [plan(observation, play_outs) for observation in observations]
        results = play_outs.run()
        return [finish(results) for finish in finishes]

    return measure


@batched
def odds_features(observations: np.ndarray) -> np.ndarray:
    """``(N, 389)`` observations -> ``(N, ODDS_CONTEXT + 66 * ODDS_ROW_WIDTH)`` (module doc).
    The legal actions are read from the observation's hand and trick (:func:`legal_actions`);
    a card that is the only legal play gets no odds. Each row is its observation's alone
    (its own seeded samples); the batch's play-outs are played together."""
    base = tricks_features(observations)
    measure = measure_all(_odds_plan)
    return extend_features(base, CONTEXT, ROW_WIDTH, len(ODDS_ROW_NAMES), measure, observations)


def extend_features(
    base: np.ndarray,
    context: int,
    row_width: int,
    columns: int,
    measure: Callable[[np.ndarray], list[tuple[float, np.ndarray]]],
    observations: np.ndarray,
) -> np.ndarray:
    """A per-action feature set ``base`` (``context`` columns, then a ``row_width`` row per
    action) with one more context column and ``columns`` more per row, which ``measure`` gives
    per observation of the batch (given as ``int16``, the values of the env's ``float32``
    observations): ``(context value, (NUM_ACTIONS, columns) rows)`` each."""
    n = len(observations)
    rows = base[:, context:].reshape(n, NUM_ACTIONS, row_width)
    extra_context = np.zeros((n, 1), dtype=np.float32)
    extra_rows = np.zeros((n, NUM_ACTIONS, columns), dtype=np.float32)
    for i, (value, measured) in enumerate(measure(observations.astype(np.int16))):
        extra_context[i, 0], extra_rows[i] = value, measured
    return np.concatenate(
        [base[:, :context], extra_context, np.concatenate([rows, extra_rows], 2).reshape(n, -1)],
        axis=1,
    )


def legal_actions(view: NamelessPokerView) -> np.ndarray:
    """``bool (NUM_ACTIONS,)``: the seat's legal actions, from its observation (bids: every bid
    up to the hand size; the dealer restriction is not in the observation and does not matter
    to the odds)."""
    if view.bidding:
        mask = np.zeros(NUM_ACTIONS, dtype=bool)
        mask[BID : BID + view.hand_size + 1] = True
        return mask
    return play_mask(view.hand, view.trick, view.trump, view.called_suit) > 0
