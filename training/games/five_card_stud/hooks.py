"""Five-card stud's training hooks: the ``"equity"`` feature set and the hand-written rule over
it, what ``pokerzoo play`` shows a person and how it reads a move (``fold``, ``check`` or
``call``, ``bet`` or ``raise``).

``"equity"``
------------
The whole-hand features below (shared helpers:
:mod:`pokerzoo.training.poker.features`). They replace the env's observation (852
entries, most of them one-hot up cards, and chip counts near 100 that slowed learning): what it
says is here in 51 numbers of order 1.

The equity is a Monte-Carlo share of the pot at a showdown against the opponents still in, 512
futures a decision, computed once per set of visible cards (cached): each future deals the
cards nobody has seen (the opponents' hole cards, every card still to come) from the pack less
the observer's cards and every up card on the table, folded seats' included. The same futures
give the chances that the hands as they stand now (each opponent's up cards and the hole card
the future deals it, read by groups of ranks as boards are) are behind the observer's, hold a
pair, or are beaten by the observer's up cards alone. In high-low it
values both halves as the game splits them (the low half only for a qualifying low, the whole
pot to the high hand when no low qualifies). The opponents' betting is not read here: the
policy sees it (the ``opponents_bets`` entries and the env's history) and learns what it means.

A batch of observations (the vector envs hand the learner's features all their tables at once)
is worked out together: the futures of every new set of visible cards in the batch are dealt,
each from its own seeded generator, and scored in a few evaluator calls
(:mod:`.batches`), or where numba is installed played by one compiled loop (:mod:`.compiled`;
high-low's futures by numpy either way), and the made hands of the whole batch are read at once.
Every row is what that observation alone gives, to the bit, in any batch, whatever the cache
holds, with numba or without.

{table}

The rule ``"equity"`` (:func:`equity_rule`) plays from the same features: bet or raise when the
equity beats a fair share of the pot ``1 / players in`` by ``raise_by``; call (or, in the first
round before anybody bets, bet the minimum) when the equity beats the price's pot odds by
``call_by``; otherwise check or fold.
"""

from __future__ import annotations

import dataclasses
import functools
import sys
from collections.abc import Sequence

import numpy as np

from ....envs.core import jit
from ....envs.core.betting import CALL, RAISE
from ....envs.core.cards import NUM_CARD_IDS, Deck, format_cards
from ....envs.core.draws import bounded_draws_flat
from ....envs.core.hands import Category, evaluate, qualifies_low
from ....envs.core.observation import Field, ObservationLayout, document
from ....envs.five_card_stud import (
    FiveCardStudView,
    decode_observation,
    decode_observations,
    showing_key,
    up_card_rank,
)
from ....envs.five_card_stud.analysis import StudHiddenCards
from ...features import FeatureSet, batched
from ...poker import features as poker_features
from ...poker.equity import BETTING_WORDS, bet_by_equity, equity_hooks
from . import batches

__all__ = ["FEATURES", "HOOKS", "describe", "equity_features", "equity_rule", "parse_move"]

SAMPLES = 512
"""Futures per set of visible cards."""

FEATURES = ObservationLayout(
    [
        Field("equity", 1, 1, "share of the pot expected at a showdown of the players in"),
        Field("ahead_now", 1, 1, "chance the observer's cards now beat every opponent's (up "
              "cards and hole card; groups of ranks only, ties split)"),
        Field("their_made", 1, 1, "chance an opponent's cards now hold a pair or better"),
        Field("board_beats", 1, 1, "chance the observer's up cards alone beat every "
              "opponent's cards now"),
        poker_features.FAIR_SHARE,
        poker_features.POT_ODDS,
        Field("bet_odds", 1, 1, "`bet / (pot + bet)`: the equity a bet of the round's size needs"),
        poker_features.TO_CALL,
        poker_features.POT,
        Field("to_come", 1, 1, "own cards still to come / 3"),
        Field("bets_made", 1, 1, "bets and raises made in this round / cap"),
        Field("made_hand", poker_features.CATEGORIES, 1, "one-hot category of the observer's "
              "cards (fewer than five: groups of ranks only)"),
        Field("their_board", poker_features.CATEGORIES, 1, "one-hot groups of ranks of the best "
              "board showing among the opponents in"),
        Field("their_high", 1, 1, "highest up card rank among the opponents in / 12 (wild: ace)"),
        Field("own_high", 1, 1, "own highest up card rank / 12"),
        Field("beaten", 1, 1, "an opponent's board alone beats the observer's whole hand "
              "(groups of ranks)"),
        Field("board_leads", 1, 1, "the observer's board beats every opponent's board"),
        Field("draws", poker_features.DRAW_INDICATORS, 1, "most cards of a suit / 5, most ranks "
              "in a straight's window / 5, flush open, straight open"),
        Field("opponents_bets", 4, 10, "the opponents' bets/raises, calls, checks, folds "
              "(summed) in this round / 3"),
        Field("own_bets", 4, 10, "the observer's, the same way"),
        Field("earlier_bets", 8, 10, "the same two, summed over the earlier rounds"),
    ],
    dtype=np.float32,
)  # fmt: skip
"""The features, in place of the env's observation."""
_EQUITY, _FAIR, _ODDS, _BET_ODDS = (
    FEATURES.start(name) for name in ("equity", "fair_share", "pot_odds", "bet_odds")
)
_MONTE_CARLO = slice(_EQUITY, _EQUITY + 4)  # equity, ahead_now, their_made, board_beats


def _simulate(views: Sequence[FiveCardStudView], rngs: Sequence[np.random.Generator]) -> np.ndarray:
    """The Monte-Carlo entries (``equity``, ``ahead_now``, ``their_made``, ``board_beats``) of
    the module docstring for each of ``views``, its futures dealt by ``rngs[i]``: ``float32
    (len(views), 4)``.

    Where numba is installed the views that split no pot are worked out by one compiled loop
    (:func:`_simulate_compiled`), the high-low ones by numpy (:func:`_simulate_arrays`); without
    numba all of them by numpy. Both ask each view's generator exactly what one view alone asks
    it and give the same entries to the bit.
    """
    high = [v for v, view in enumerate(views) if not view.hi_lo]
    if not high or not jit.available():
        return _simulate_arrays(views, rngs)
    out = np.empty((len(views), 4), dtype=np.float32)
    out[high] = _simulate_compiled([views[v] for v in high], [rngs[v] for v in high])
    split = [v for v, view in enumerate(views) if view.hi_lo]
    if split:
        out[split] = _simulate_arrays([views[v] for v in split], [rngs[v] for v in split])
    return out


def _unseen(view: FiveCardStudView) -> np.ndarray:
    """The cards ``view``'s observer has not seen (the pack less its hole cards and every up
    card on the table), ascending, ``int64``."""
    seen = np.array([*view.hole, *(card for up in view.up for card in up)], dtype=np.int64)
    counts = _pack_counts(view.jokers) - np.bincount(seen, minlength=NUM_CARD_IDS)
    return np.repeat(_CARD_IDS, np.maximum(counts, 0))


@functools.cache
def _pack_counts(jokers: int) -> np.ndarray:
    """How many of each card id the pack holds (read-only)."""
    counts = Deck(jokers=jokers).counts.astype(np.int64)
    counts.flags.writeable = False
    return counts


_CARD_IDS = np.arange(NUM_CARD_IDS, dtype=np.int64)


def _known(view: FiveCardStudView) -> list[tuple[int, ...]]:
    """The cards each seat of a showdown holds now: the observer's, then each opponent's up
    cards."""
    return [view.own_cards] + [view.up[k] for k in view.opponents_in]


def _simulate_compiled(
    views: Sequence[FiveCardStudView], rngs: Sequence[np.random.Generator]
) -> np.ndarray:
    """:func:`_simulate` of views that split no pot, by :func:`.compiled.simulate`: the same
    swaps from the same generators (:func:`~pokerzoo.envs.core.draws.bounded_draws_flat`, as
    :func:`.batches.deal_many` asks them), the futures dealt by them in one compiled loop
    (:func:`pokerzoo.envs.core.compiled.partial_shuffles`), each played by another."""
    from ....envs.core import compiled as core_compiled
    from . import compiled

    known = [_known(view) for view in views]
    unseen = [_unseen(view) for view in views]
    missing = [sum(5 - len(cards) for cards in hands) for hands in known]
    widths = [len(cards) for cards in unseen]
    swaps, swaps_start = bounded_draws_flat(rngs, missing, widths, SAMPLES)
    dealt = np.array(missing, dtype=np.int64)
    unseen_start = np.cumsum([0, *widths])
    futures_start = np.cumsum([0, *(dealt * SAMPLES)])
    futures = np.empty(int(futures_start[-1]), dtype=np.int64)
    flat = np.concatenate(unseen)
    core_compiled.partial_shuffles(
        flat,
        unseen_start,
        swaps,
        swaps_start,
        dealt,
        np.full(len(views), SAMPLES, dtype=np.int64),
        futures,
        futures_start,
    )
    players = np.array([len(hands) for hands in known], dtype=np.int64)
    cards = np.zeros((len(views), players.max(), 5), dtype=np.int64)
    sizes = np.zeros(cards.shape[:2], dtype=np.int64)
    for v, hands in enumerate(known):
        for p, held in enumerate(hands):
            cards[v, p, : len(held)] = held
            sizes[v, p] = len(held)
    tables = _compiled_tables()
    out = compiled.simulate(
        flat,
        unseen_start,
        futures,
        futures_start,
        cards,
        sizes,
        players,
        np.array([view.deuces_wild for view in views]),
        np.array([len(view.hole) for view in views], dtype=np.int64),
        SAMPLES,
        *tables,
    )
    return out.astype(np.float32)


@functools.cache
def _compiled_tables() -> tuple[np.ndarray, ...]:
    """The tables :func:`.compiled.simulate` reads: the evaluator's (``"standard"``; card
    weights without and with deuces wild, sections, classes, keys) and ``group_keys``' of
    every size, one after another (size ``k``'s beginning at entry ``k`` of the last)."""
    from ....envs.core import hands

    weights = np.stack([hands._card_weights("standard", wild).weights for wild in (False, True)])
    layout = hands._layout()
    sized = [poker_features._group_table(size) for size in range(1, 6)]
    start = np.cumsum([0, 0] + [len(keys) for keys, _ in sized])
    return (
        weights,
        layout.section_offset,
        layout.sparse_to_class,
        hands._tables("standard").key,
        np.concatenate([keys for keys, _ in sized]),
        np.concatenate([category for _, category in sized]),
        start,
    )


def _simulate_arrays(
    views: Sequence[FiveCardStudView], rngs: Sequence[np.random.Generator]
) -> np.ndarray:
    """:func:`_simulate` by numpy.

    Each view's generator is asked exactly what one view alone asks it (:func:`.batches.deal_many`),
    and all the views' hands are scored together: one evaluator call per ruleset and wild-card
    option, one ``group_keys`` call per hand size. The views are padded to the most
    players with :data:`.batches.ABSENT` seats, which never win, tie or hold a hand, and every
    mean is taken over one view's own row: the entries are those of a view alone, to the bit.
    """
    known = [_known(view) for view in views]
    unseen = [_unseen(view) for view in views]
    missing = [sum(5 - len(cards) for cards in hands) for hands in known]
    futures = batches.deal_many(unseen, SAMPLES, missing, rngs)
    players = max(len(hands) for hands in known)
    shape = (len(views), SAMPLES, players)
    hands = np.zeros((*shape, 5), dtype=np.int64)
    for v, cards_of in enumerate(known):
        start = 0
        for i, cards in enumerate(cards_of):
            stop = start + 5 - len(cards)
            hands[v, :, i, : len(cards)] = cards
            hands[v, :, i, len(cards) :] = futures[v][:, start:stop]
            start = stop
    size = [len(cards_of) for cards_of in known]
    high = np.full(shape, batches.ABSENT, dtype=np.int64)
    low = np.full(shape, batches.ABSENT, dtype=np.int64)
    qualified = np.zeros(shape, dtype=bool)
    for wild in {view.deuces_wild for view in views}:
        rows = [v for v, view in enumerate(views) if view.deuces_wild == wild]
        flat = np.concatenate([hands[v, :, : size[v]].reshape(-1, 5) for v in rows])
        _scatter(high, rows, size, evaluate(flat, "standard", deuces_wild=wild))
        split = [v for v in rows if views[v].hi_lo]
        if split:
            flat = np.concatenate([hands[v, :, : size[v]].reshape(-1, 5) for v in split])
            _scatter(low, split, size, evaluate(flat, "low", deuces_wild=wild))
            for v in split:
                mine = low[v, :, : size[v]]
                ok = np.asarray(qualifies_low(mine, views[v].low_qualifier))
                low[v, :, : size[v]] = np.where(ok, mine, -1)
                qualified[v, :, : size[v]] = ok
    share = batches.pot_share(high[..., 0], high[..., 1:])
    split = [v for v, view in enumerate(views) if view.hi_lo]
    if split:
        low_share = np.where(
            qualified[split, :, 0], batches.pot_share(low[split, :, 0], low[split, :, 1:]), 0.0
        )
        share[split] = np.where(
            qualified[split].any(axis=-1), 0.5 * share[split] + 0.5 * low_share, share[split]
        )
    # every opponent's hand now: its up cards and the hole card this future gives it
    theirs = np.full((len(views), SAMPLES, players - 1), batches.ABSENT, dtype=np.int64)
    made = np.full(theirs.shape, -1, dtype=np.int64)
    now: dict[tuple[int, bool], list[tuple[int, int]]] = {}
    for v, cards_of in enumerate(known):
        for i in range(1, len(cards_of)):
            now.setdefault((len(cards_of[i]) + 1, views[v].deuces_wild), []).append((v, i))
    for (count, wild), seats in now.items():
        flat = np.concatenate([hands[v, :, i, :count] for v, i in seats])
        keys, category = poker_features.group_keys(flat, wild)
        for n, (v, i) in enumerate(seats):
            theirs[v, :, i - 1] = keys[n * SAMPLES : (n + 1) * SAMPLES]
            made[v, :, i - 1] = category[n * SAMPLES : (n + 1) * SAMPLES]
    mine = _group_keys_of([view.own_cards for view in views], views)
    board = _group_keys_of([view.up[0] for view in views], views)
    return np.stack(
        [
            share.mean(axis=1),
            batches.pot_share(np.broadcast_to(mine[:, None], share.shape), theirs).mean(axis=1),
            (made.max(axis=-1) >= Category.PAIR).mean(axis=1),
            (board[:, None] > theirs.max(axis=-1)).mean(axis=1),
        ],
        axis=1,
    ).astype(np.float32)


def _scatter(keys: np.ndarray, rows: list[int], size: list[int], flat: np.ndarray) -> None:
    """Put the evaluator's ``flat`` keys of ``rows`` (each ``SAMPLES * size[v]`` of them, in
    row order) into ``keys[v, :, :size[v]]``."""
    start = 0
    for v in rows:
        stop = start + SAMPLES * size[v]
        keys[v, :, : size[v]] = flat[start:stop].reshape(SAMPLES, size[v])
        start = stop


def _group_keys_of(hands: list[tuple[int, ...]], views: Sequence[FiveCardStudView]) -> np.ndarray:
    """``poker_features.group_keys`` of one hand per view (``int64 (len(views),)``), one call per
    hand size and wild-card option."""
    out = np.empty(len(hands), dtype=np.int64)
    groups: dict[tuple[int, bool], list[int]] = {}
    for v, cards in enumerate(hands):
        groups.setdefault((len(cards), views[v].deuces_wild), []).append(v)
    for (_, wild), rows in groups.items():
        out[rows] = poker_features.group_keys(np.array([hands[v] for v in rows]), wild)[0]
    return out


_CACHE = poker_features.FeatureCache()


def _cache_key(view: FiveCardStudView) -> bytes:
    """The visible cards and options of ``view``: the key of its cached Monte-Carlo entries and
    the seed of their generator."""
    key = [*view.hole, -1, *view.in_hand, -1, view.jokers, view.deuces_wild, view.hi_lo]
    key += [view.low_qualifier or 0]
    for up in view.up:
        key += [-1, *up]
    return np.array(key, dtype=np.int16).tobytes()


def _monte_carlo(views: Sequence[FiveCardStudView]) -> np.ndarray:
    """:func:`_simulate` of each view (``float32 (len(views), 4)``), from the cache where these
    visible cards and options were seen before, the others simulated together, each from a
    generator seeded by its key."""
    keys = [_cache_key(view) for view in views]

    def compute(first: list[int]) -> np.ndarray:
        return _simulate([views[i] for i in first], [poker_features.seeded(keys[i]) for i in first])

    return np.stack(_CACHE.get_many(keys, compute))


def _features(observations: np.ndarray) -> np.ndarray:
    """The features of a batch of observations, ``float32 (N, FEATURES.size)`` (zeros where the
    observer is out or alone, and for the all-zero observation of a game that is over); every
    row the same as that observation alone."""
    views = decode_observations(observations)
    out = np.zeros((len(views), FEATURES.size), dtype=np.float32)
    live = [
        r
        for r, view in enumerate(views)
        if view.num_players and view.in_hand[0] and view.opponents_in and view.up[0]
    ]
    if not live:
        return out
    views = [views[r] for r in live]
    out[live, _MONTE_CARLO] = _monte_carlo(views)
    wild = [view.deuces_wild for view in views]
    mine = [view.own_cards for view in views]
    out[live, FEATURES["made_hand"]] = batches.made_hands(mine, wild)
    best_boards, beaten, leads, their_high, own_high = [], [], [], [], []
    for view, cards in zip(views, mine, strict=True):
        wilds = view.deuces_wild
        boards = [view.up[k] for k in view.opponents_in]
        keys = [showing_key(board, wilds) for board in boards]
        best_boards.append(boards[keys.index(max(keys))][:4])
        own_key, own_board_key = showing_key(cards, wilds), showing_key(view.up[0], wilds)
        beaten.append(any(key > own_key for key in keys))
        leads.append(all(own_board_key > key for key in keys))
        their_high.append(max(up_card_rank(c, wilds) for board in boards for c in board))
        own_high.append(max(up_card_rank(c, wilds) for c in view.up[0]))
    numbers = np.array(
        [
            (len(v.opponents_in), v.to_call, v.bet_size, v.pot, len(c), v.bets_made, v.cap)
            for v, c in zip(views, mine, strict=True)
        ],
        dtype=np.float64,
    )
    opponents, to_call, bet_size, pot, held, bets_made, cap = numbers.T
    out[live, _FAIR] = 1 / (1 + opponents)
    out[live, _ODDS] = _pot_odds(to_call, pot)
    out[live, _BET_ODDS] = _pot_odds(bet_size, pot)
    out[live, FEATURES.start("to_call")] = to_call / np.maximum(bet_size, 1)
    out[live, FEATURES.start("pot")] = pot / 50
    out[live, FEATURES.start("to_come")] = (5 - held) / 3
    out[live, FEATURES.start("bets_made")] = bets_made / np.maximum(cap, 1)
    out[live, FEATURES.start("their_high")] = np.array(their_high) / 12
    out[live, FEATURES.start("own_high")] = np.array(own_high) / 12
    out[live, FEATURES.start("beaten")] = beaten
    out[live, FEATURES.start("board_leads")] = leads
    out[live, FEATURES["draws"]] = poker_features.draw_indicators_batch(mine, wild)
    for rows in _by_players(views):  # each group's histories are (rounds, players, kinds)
        summary = poker_features.betting_summary(np.stack([views[i].history for i in rows]))
        summary = summary.reshape(len(rows), -1, 2, 4)  # round, whose, kind
        now = np.array([views[i].round for i in rows])
        earlier = np.arange(summary.shape[1]) < now[:, None]  # the rounds before this one
        at = [live[i] for i in rows]
        out[at, FEATURES["opponents_bets"]] = summary[np.arange(len(rows)), now, 0]
        out[at, FEATURES["own_bets"]] = summary[np.arange(len(rows)), now, 1]
        out[at, FEATURES["earlier_bets"]] = (
            (summary * earlier[:, :, None, None]).sum(axis=1).reshape(len(rows), -1)
        )
    out[live, FEATURES["their_board"]] = batches.made_hands(best_boards, wild)
    return out


def _pot_odds(to_call: np.ndarray, pot: np.ndarray) -> np.ndarray:
    """:func:`~pokerzoo.training.poker.features.pot_odds` of arrays."""
    return np.where(to_call > 0, to_call / np.where(to_call > 0, pot + to_call, 1), 0.0)


def _by_players(views: Sequence[FiveCardStudView]) -> list[list[int]]:
    """The indices of ``views``, grouped by the number of players at their tables."""
    groups: dict[int, list[int]] = {}
    for i, view in enumerate(views):
        groups.setdefault(view.num_players, []).append(i)
    return list(groups.values())


equity_features = batched(_features)
"""The ``"equity"`` features of a batch of observations (module docstring), or of one."""


def equity_rule(
    features: np.ndarray, masks: np.ndarray, raise_by: float, call_by: float
) -> np.ndarray:
    """The rule ``"equity"`` (module docstring), batched:
    :func:`~pokerzoo.training.poker.equity.bet_by_equity`, staying in by a call or, in the first
    round before anybody bets, by the opening bet."""
    # the price of staying in: the call, or in the first round before a bet the opening bet
    odds = np.where(masks[:, CALL], features[:, _ODDS], features[:, _BET_ODDS])
    stay = np.where(masks[:, CALL], CALL, RAISE)
    free = masks[:, CALL] & (features[:, _ODDS] == 0)
    equity, fair = features[:, _EQUITY], features[:, _FAIR]
    return bet_by_equity(equity, fair, odds, masks, raise_by, call_by, free=free, stay=stay)


document(sys.modules[__name__], table=FEATURES.table())


def describe(observation: np.ndarray) -> str:
    """The person's cards, every seat's up cards, stacks and bets, the pot and the call."""
    view = decode_observation(observation)
    lines = [f"hand {view.hand_number}; you are player_{view.seat}; round {view.round + 1} of 4"]
    lines.append(f"your cards: {format_cards(view.hole)} (down) {format_cards(view.up[0])} (up)")
    for k in range(1, view.num_players):
        seat = (view.seat + k) % view.num_players
        state = "in" if view.in_hand[k] else "out"
        lines.append(
            f"player_{seat}: {format_cards(view.up[k])} showing, stack {view.stacks[k]}, "
            f"bet {view.round_bets[k]}, {state}"
        )
    lines.append(f"pot {view.pot}, to call {view.to_call}, bet size {view.bet_size}")
    return "\n".join(lines)


def parse_move(answer: str, observation: np.ndarray, mask: np.ndarray) -> int:
    """``"call"`` -> 1."""
    if answer not in BETTING_WORDS:
        raise ValueError(f"bad move {answer!r}: type fold, check, call, bet or raise")
    return BETTING_WORDS[answer]


EQUITY = FeatureSet(
    equity_features,
    summary="Monte-Carlo equity, pot odds, made hand, draws, the boards showing, the bets",
    width=FEATURES.size,
)

HOOKS = dataclasses.replace(
    equity_hooks(
        EQUITY,
        equity_rule,
        params={"raise_by": 0.1, "call_by": 0.05},  # tuned: benchmarks/feature_rules.py
        summary="raise above a fair share + raise_by, call above the pot odds + call_by",
        describe=describe,
        parse_action=parse_move,
        action_text=lambda action, observation: ("fold", "call", "raise")[action],
        prompt="fold / check / call / bet / raise",
    ),
    hidden=StudHiddenCards,  # pokerzoo evaluate --lbr
)
