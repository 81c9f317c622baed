"""Poker without a name's ``"reach"`` features: the ``"odds"`` columns (:mod:`.odds`) plus,
per legal card, how many tricks the hand still reaches after it.

The ``"odds"`` columns see one trick ahead: the chance a card takes the trick on the table. A
bid is made or missed over the whole deal, so these add, over the same kind of sampled deals of
the unseen cards (the other seats playing the rules policy,
:func:`pokerzoo.envs.nameless_poker.analysis.rules_play`, for their own bids):

- per legal card (and joker lead), ``reach_taking`` and ``reach_ducking``: the seat's mean total
  of tricks at the deal's end (over 8) when, after that card, it plays for every trick, or sheds
  every trick. Together they bound what the hand can still make of the deal: the most tricks it
  can expect to take and the fewest it can expect to be left with;
- per legal card, ``short_of_target`` and ``over_target``: how far (in tricks over 8) the
  target lies above the taking reach or below the ducking reach, 0 when the reach contains it;
  the target is the seat's bid (a minimum deal: 0 tricks; a maximum deal: every trick);
- per bid, ``reach_ducking``: the share of deals in which the hand, shedding every trick, takes
  at most that bid (the ``"odds"`` row's ``tricks_at_least`` is its counterpart playing for every
  trick); context ``ducking_expected``: the tricks the hand takes shedding every trick (over 8).

Like the equity of the betting games, these describe the position: the seat's own play after
the card is fixed (take everything, or nothing) and never depends on its bid, no action is played
out to its score and none is recommended; the policy learns from its returns how the two
bounds, the bid and the tricks taken decide a card. Samples come from a generator seeded by the
observation (:func:`pokerzoo.training.poker.features.seeded` of
:func:`~.odds.observation_key`), so the same observation always gets the same features,
whatever its dtype; a batch's play-outs are played together as the ``"odds"`` columns' are
(:class:`~.odds.PlayOuts`), each row exactly its observation's features alone.

Layout: the ``"odds"`` context, then ``ducking_expected``; then per action the ``"odds"`` row
followed by :data:`REACH_ROW_NAMES`.
"""

from __future__ import annotations

import numpy as np
from numpy.random import Generator

from ....envs.nameless_poker import (
    BID,
    NUM_ACTIONS,
    NUM_PLAYERS,
    NamelessPokerView,
)
from ....envs.nameless_poker.playout import SampledDeals
from ...features import FeatureSet, PerActionLayout, batched
from .odds import (
    ODDS_CONTEXT,
    ODDS_ROW_WIDTH,
    Finish,
    Measure,
    PlayOuts,
    extend_features,
    measure_all,
    odds_features,
    plan_measure,
    run_job,
    sample_deals,
)

__all__ = [
    "REACH",
    "REACH_CONTEXT",
    "REACH_ROW_NAMES",
    "REACH_ROW_WIDTH",
    "REACH_SAMPLES",
    "reach_features",
    "reach_odds",
    "reach_totals",
]

REACH_SAMPLES = 8
"""Sampled deals per card played (each card played out to the deal's end twice)."""
REACH_ROW_NAMES: tuple[str, ...] = (
    "reach_taking",
    "reach_ducking",
    "short_of_target",
    "over_target",
)
"""The columns each action's row adds after the ``"odds"`` row (module doc)."""
REACH_CONTEXT = ODDS_CONTEXT + 1
"""Context columns: the ``"odds"`` context, then ``ducking_expected`` (tricks / 8)."""
REACH_ROW_WIDTH = ODDS_ROW_WIDTH + len(REACH_ROW_NAMES)


def reach_totals(
    view: NamelessPokerView, legal: list[int], rng: np.random.Generator, samples: int
) -> np.ndarray:
    """Playing: ``int (samples, len(legal), 2)``, on each of ``samples`` sampled deals of the
    unseen cards and per legal action, the seat's total of tricks at the deal's end when, after
    it, the seat plays for every trick (last axis 0) or sheds every trick (1)."""
    return run_job(add_reach_totals, view, legal, rng, samples)


def add_reach_totals(
    play_outs: PlayOuts, view: NamelessPokerView, legal: list[int], rng: Generator, samples: int
) -> int:
    """:func:`reach_totals`'s deals drawn and given to ``play_outs`` (the job's result: the same
    totals)."""
    left = view.hand_size - sum(view.tricks)
    sizes = [0] * NUM_PLAYERS
    for r in range(1, NUM_PLAYERS):
        played_now = (r - view.leader) % NUM_PLAYERS < len(view.trick)
        sizes[r] = left - int(played_now)
    bases = SampledDeals(view, sample_deals(view, sizes, rng, samples))

    def totals(tricks: np.ndarray) -> np.ndarray:
        return np.ascontiguousarray(tricks[..., 0])

    return play_outs.add(view, bases, legal, (1, 0), totals)


def reach_odds(
    view: NamelessPokerView, legal: list[int], rng: np.random.Generator, samples: int
) -> np.ndarray:
    """Playing: ``float (len(legal), 2)``, per legal action the seat's mean total of tricks at
    the deal's end when, after it, the seat plays for every trick (column 0) or sheds every
    trick (column 1), over ``samples`` sampled deals of the unseen cards
    (:func:`reach_totals`)."""
    return reach_totals(view, legal, rng, samples).mean(axis=0)


def _reach(observation: np.ndarray) -> tuple[float, np.ndarray]:
    """One observation's ``ducking_expected`` and ``(NUM_ACTIONS, 4)`` rows of
    :data:`REACH_ROW_NAMES`."""
    return measure_all(_reach_plan)([observation])[0]


def _reach_plan(observation: np.ndarray, play_outs: PlayOuts) -> Finish:
    """:func:`_reach` of one observation: its deals drawn (from its own seeded generator) and
    queued in ``play_outs``, and how to finish once they are played out."""

    def bid_rows(rows: np.ndarray, shares: np.ndarray, size: int) -> None:  # shedding all
        rows[BID : BID + size + 1, 1] = np.cumsum(shares)[: size + 1]

    def card_rows(
        rows: np.ndarray, view: NamelessPokerView, legal: list[int], result: np.ndarray
    ) -> None:
        target = {"minimum": 0, "maximum": view.hand_size}.get(view.kind, view.bids[0] or 0)
        reach = result.mean(axis=0)  # reach_odds
        rows[legal, 0:2] = reach / 8
        rows[legal, 2] = np.maximum(target - reach[:, 0], 0) / 8
        rows[legal, 3] = np.maximum(reach[:, 1] - target, 0) / 8

    measure = Measure(
        len(REACH_ROW_NAMES), b"reach", False, bid_rows, add_reach_totals, REACH_SAMPLES, card_rows
    )
    return plan_measure(observation, play_outs, measure)


@batched
def reach_features(observations: np.ndarray) -> np.ndarray:
    """``(N, 389)`` observations -> ``(N, REACH_CONTEXT + 66 * REACH_ROW_WIDTH)`` (module doc);
    a card that is the only legal play gets no reach. Each row is its observation's alone (its
    own seeded samples); the batch's play-outs are played together."""
    base = odds_features(observations)
    columns = len(REACH_ROW_NAMES)
    measure = measure_all(_reach_plan)
    return extend_features(base, ODDS_CONTEXT, ODDS_ROW_WIDTH, columns, measure, observations)


REACH = FeatureSet(
    reach_features,
    PerActionLayout(offset=REACH_CONTEXT, actions=NUM_ACTIONS, width=REACH_ROW_WIDTH),
    "trick counts and Monte-Carlo trick odds plus, per card, the tricks the hand still "
    "reaches by the deal's end "
    "when it then plays for every trick or sheds every trick (and per bid, the chance that "
    "shedding every trick keeps it at or under the bid)",
)
