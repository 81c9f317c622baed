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
and whatever its dtype.

Layout: the ``"tricks"`` context, then ``tricks_expected``; then per action the ``"tricks"``
row followed by :data:`ODDS_ROW_NAMES`.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ....envs.core.cards import JOKER
from ....envs.nameless_poker import (
    BID,
    NO_TRUMP,
    NUM_ACTIONS,
    NUM_PLAYERS,
    NamelessPokerView,
    decode_observation,
    play_mask,
)
from ....envs.nameless_poker.analysis import DARK_BID, expected_tricks, rules_play, wants_trick
from ....envs.nameless_poker.deals import DEAL_KINDS, follow_options
from ....envs.nameless_poker.playout import World, play_out, put, put_action
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
    "extend_features",
    "legal_actions",
    "observation_key",
    "sample_deals",
    "odds_features",
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
    order = rng.permuted(np.tile(pool, (tries, 1)), axis=1)
    column = np.where(order == JOKER, 4, order & 3)
    ok = np.ones(tries, dtype=bool)
    starts = np.cumsum([0, *sizes])
    for r, size in enumerate(sizes):
        if size and view.voids[r].any():
            ok &= ~view.voids[r][column[:, starts[r] : starts[r + 1]]].any(axis=1)
    deals = [
        [sorted(row[starts[r] : starts[r + 1]].tolist()) for r in range(NUM_PLAYERS)]
        for row in order[ok][:samples]
    ]
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
    size = view.hand_size
    trump = view.trump
    kind = DEAL_KINDS.index(view.kind)
    first = (view.dealer + 1) % NUM_PLAYERS
    turned_trump = int(view.turned_card != JOKER and view.turned_card & 3 == trump)
    sizes = [size if view.hand_hidden else 0] + [size] * (NUM_PLAYERS - 1)
    totals = np.zeros((samples, len(modes)), dtype=np.int64)
    for k, hands in enumerate(sample_deals(view, sizes, rng, samples)):
        if not view.hand_hidden:
            hands[0] = list(view.hand)
        bids: list[int | None] = list(view.bids)
        bids[0] = size  # plays for every trick
        for r in range(1, NUM_PLAYERS):
            if bids[r] is None:
                hidden = view.kind == "dark"
                bids[r] = DARK_BID if hidden else round(expected_tricks(hands[r], trump))
        for j, taking in enumerate(modes):
            copies = [list(h) for h in hands]
            world = World(copies, [], first, NO_TRUMP, [0] * NUM_PLAYERS, list(bids), 0)
            play_out(world, trump, kind, turned_trump, observer_wants=taking)
            totals[k, j] = world.tricks[0]
    return totals


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
    trump = view.trump
    kind = DEAL_KINDS.index(view.kind)
    done = sum(view.tricks)
    sizes = [0] * NUM_PLAYERS  # only the seats after this one in the trick need their hands
    for r in range(1, NUM_PLAYERS):
        if (r - view.leader) % NUM_PLAYERS > len(view.trick):
            sizes[r] = view.hand_size - done
    wins = np.zeros(len(legal))
    for hands in sample_deals(view, sizes, rng, samples):
        base = World.of_view(view, hands)
        for i, action in enumerate(legal):
            world = base.copy()
            put_action(world, action, trump)
            while world.trick:  # the seats after it finish the trick
                seat = (world.leader + len(world.trick)) % NUM_PLAYERS
                hand = world.hands[seat]
                options = follow_options(hand, world.trick, trump, world.called)
                want = wants_trick(kind, world.bids[seat], world.tricks[seat])
                card, _ = rules_play(hand, options, world.trick, trump, want, 0)
                put(world, seat, card, NO_TRUMP, trump)
            wins[i] += world.tricks[0] > view.tricks[0]
    return wins / samples


def observation_key(observation: np.ndarray) -> bytes:
    """The bytes that seed an observation's samples: its values as ``int16``, the dtype of the
    observations before issue 27 (they are ``float32`` now, with the same whole values), so the
    seed, and every sampled feature, is the one it was and the same in any dtype."""
    return np.asarray(observation).astype(np.int16).tobytes()


def _odds(observation: np.ndarray) -> tuple[float, np.ndarray]:
    """One observation's ``tricks_expected`` and ``(NUM_ACTIONS, 3)`` odds rows."""
    rows = np.zeros((NUM_ACTIONS, len(ODDS_ROW_NAMES)), dtype=np.float32)
    view = decode_observation(observation)
    if view.to_act != 0:  # not this seat's turn (or the game is over): nothing to measure
        return 0.0, rows
    rng = seeded(observation_key(observation))
    if view.bidding:
        if view.kind in ("minimum", "maximum"):
            return 0.0, rows
        shares = tricks_odds(view, rng, BID_SAMPLES)
        size = view.hand_size
        rows[BID : BID + size + 1, 1] = np.cumsum(shares[::-1])[::-1][: size + 1]
        rows[BID : BID + size + 1, 2] = shares[: size + 1]
        return float(shares @ np.arange(9)) / 8, rows
    legal = [int(a) for a in np.flatnonzero(legal_actions(view))]
    if len(legal) > 1:
        rows[legal, 0] = trick_odds(view, legal, rng, PLAY_SAMPLES)
    return 0.0, rows


@batched
def odds_features(observations: np.ndarray) -> np.ndarray:
    """``(N, 389)`` observations -> ``(N, ODDS_CONTEXT + 66 * ODDS_ROW_WIDTH)`` (module doc).
    The legal actions are read from the observation's hand and trick (:func:`legal_actions`);
    a card that is the only legal play gets no odds."""
    base = tricks_features(observations)
    return extend_features(base, CONTEXT, ROW_WIDTH, len(ODDS_ROW_NAMES), _odds, observations)


def extend_features(
    base: np.ndarray,
    context: int,
    row_width: int,
    columns: int,
    measure: Callable[[np.ndarray], tuple[float, np.ndarray]],
    observations: np.ndarray,
) -> np.ndarray:
    """A per-action feature set ``base`` (``context`` columns, then a ``row_width`` row per
    action) with one more context column and ``columns`` more per row, which ``measure`` gives
    per observation (given as ``int16``, the values of the env's ``float32`` observation):
    ``(context value, (NUM_ACTIONS, columns) rows)``."""
    n = len(observations)
    rows = base[:, context:].reshape(n, NUM_ACTIONS, row_width)
    extra_context = np.zeros((n, 1), dtype=np.float32)
    extra_rows = np.zeros((n, NUM_ACTIONS, columns), dtype=np.float32)
    for i, obs in enumerate(observations.astype(np.int16)):
        extra_context[i, 0], extra_rows[i] = measure(obs)
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
