"""Draw poker's training hooks: the ``"equity"`` feature set and the hand-written rule over it,
what ``pokerzoo play`` shows a person and how it reads a move.

``"equity"``
------------
Per observation, the whole-hand features below (shared helpers:
:mod:`pokerzoo.training.poker.features`), then one row of 10 features per action
for ``ppo.policy: per_action`` (the draw's 32 choices are alike: what makes a discard good is
what the hand becomes)::

    [context (52) | 35 action rows (10 each)]

They replace the env's observation: its chip counts (stacks near 100) and one-hot cards slowed
learning, and what they say is here in a few numbers of order 1.

The equity is a Monte-Carlo share of the pot against the opponents still in, 256 futures a
decision, computed once per hand, phase and opponents' draws (cached). An opponent's hand in a
future is one of 30,000 hands dealt once per process (from a fixed seed) and played by a simple
draw: keep the wild cards and the natural cards that pair another (all five with a straight or
better, the highest card when nothing pairs), draw the rest. Hands that share a card with the
observer's are left out, and an opponent that has drawn ``k`` cards holds only hands that drew
``k`` (a count no hand gives is dropped). The observer's draws come from the cards no hand of
the future holds: a random key per card, the five lowest drawn in their order (equal keys by
card: :func:`~pokerzoo.envs.core.draws.lowest`, the same on every CPU), a discard of fewer
taking the first. The opponents' betting is not read here: the policy sees it (the
``opponents_bets`` entries and the env's history) and learns what it means. The pack is read
from the observation (stock, discards and the cards dealt: one or two decks, with jokers; with
copies of a card, a hand holding one of its copies is left out too, a small bias); deuces are
taken as natural cards (option ``deuces_wild`` is not in the observation).

Context:

{table}

Action rows (``35 x 10`` from index 52): entries 0-3 one-hot the kind of action
(fold, check/call, bet/raise, a draw); for the draw's 32 actions (stand pat, discards), in the
draw and before it, 4 the equity after that discard, 5-8 the chance the hand after it is at
least a pair, two pair, three of a kind, a straight, and 9 the cards discarded / 5.

The rule ``"equity"`` (:func:`equity_rule`) plays from the same features: the draw with the best
equity; raise when the equity beats a fair share of the pot ``1 / players in`` by ``raise_by``;
call when it beats the pot odds by ``call_by``; otherwise check or fold.

A person types ``fold``, ``check`` or ``call``, ``bet`` or ``raise``, ``stand pat`` (or
``pat``), or ``discard As Kd`` naming the cards to throw away.
"""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Sequence
from functools import cache
from typing import NamedTuple

import numpy as np

from ....envs.core import jit
from ....envs.core.cards import Deck, format_card, format_cards, parse_cards
from ....envs.core.draws import bounded_draws_flat, lowest
from ....envs.core.hands import Category, categories, evaluate, evaluate_draws
from ....envs.core.observation import Field, ObservationLayout, document
from ....envs.draw_poker import (
    HAND_SIZE,
    NUM_ACTIONS,
    STAND_PAT,
    DrawPokerView,
    actions,
    decode_observation,
    decode_observations,
)
from ....envs.draw_poker.analysis import caller_draw_many, caller_keep_many
from ....envs.draw_poker.hidden import DrawHiddenCards
from ...features import FeatureSet, PerActionLayout, batched
from ...poker.equity import BETTING_WORDS, bet_by_equity, equity_hooks
from ...poker.features import (
    CATEGORIES,
    DRAW_INDICATORS,
    FAIR_SHARE,
    POT,
    POT_ODDS,
    TO_CALL,
    FeatureCache,
    betting_summary,
    category_floor,
    category_of,
    deal,
    draw_indicators_batch,
    made_hand,
    pot_share,
    seeded,
)

__all__ = [
    "CONTEXT",
    "HOOKS",
    "ROW_WIDTH",
    "describe",
    "equity_features",
    "equity_rule",
    "move_text",
    "parse_move",
]

SAMPLES = 256
"""Futures per decision."""
POOL = 30_000
"""Opponents' hands dealt once per process, that every future's opponents are drawn from."""
_DRAWS = HAND_SIZE + 2  # drew 0..5, not yet

CONTEXT = ObservationLayout(
    [
        Field("equity", 1, 1, "share of the pot expected: with the best discard (before the "
              "draw and in it), with the hand held (after it)"),
        Field("equity_pat", 1, 1, "the same standing pat"),
        FAIR_SHARE,
        POT_ODDS,
        TO_CALL,
        POT,
        Field("bet_size", 1, 10, "this betting's bet size / 2"),
        Field("phase", 3, 1, "one-hot: betting before the draw, the draw, betting after it"),
        Field("orbit", 1, 1, "orbit of the betting round / 3"),
        Field("bets_made", 1, 10, "bets and raises made in this round / 4"),
        Field("dealer", 1, 1, "1: the observer deals (acts last in each betting round)"),
        Field("made_hand", CATEGORIES, 1, "one-hot category of the hand held, nothing .. "
              "five of a kind"),
        Field("draws", DRAW_INDICATORS, 1, "most cards of a suit / 5, most ranks in a straight's "
              "window / 5, flush open, straight open"),
        Field("opponents_drew", _DRAWS, 1, "share of the opponents in that drew 0..5 cards, "
              "and that have not drawn yet"),
        Field("opponents_bets", 8, 10, "the opponents' bets/raises, calls, checks, folds (summed) "
              "before the draw, then after it, / 3"),
        Field("own_bets", 8, 10, "the observer's, the same way"),
    ],
    dtype=np.float32,
)  # fmt: skip
"""The context: whole-hand features, before the action rows."""
ROW_WIDTH = 10
"""Features per action row."""
_ROW_EQUITY = 4  # column of a draw's equity in its row
_EQUITY, _FAIR, _ODDS = (CONTEXT.start(name) for name in ("equity", "fair_share", "pot_odds"))
_ROWS = CONTEXT.size
_FEATURES = _ROWS + NUM_ACTIONS * ROW_WIDTH
_POPCOUNT = np.array([bin(bits).count("1") for bits in range(actions.NUM_DISCARDS)])
_DISCARDS = {True: np.arange(actions.NUM_DISCARDS), False: np.zeros(1, dtype=np.int64)}
"""The discards a table covers (by whether the observer draws yet): every one, or standing pat;
a discard keeps the other cards and draws the first replacements of a future."""
_AT_LEAST = (Category.PAIR, Category.TWO_PAIR, Category.THREE_OF_A_KIND, Category.STRAIGHT)


def _pack(view: DrawPokerView) -> tuple[int, int]:
    """``(decks, jokers)`` of the pack in play: every card is in the stock, in the discard pile
    of this draw or in a hand dealt (folded hands included)."""
    size = view.stock + view.discard_pile + HAND_SIZE * sum(view.dealt)
    decks = 2 if size >= 104 else 1
    return decks, max(0, size - 52 * decks)


def _opponent_draw(dealt: np.ndarray, stock: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The opponents' draw on many hands at once (module docstring: the caller bot's draw, with
    deuces natural): the final hands and the cards drawn. ``dealt`` and ``stock`` are
    ``(M, 5)``; the k-th card thrown is replaced by ``stock[:, k]``."""
    keep, _ = caller_keep_many(dealt)
    return caller_draw_many(dealt, stock, keep), HAND_SIZE - keep.sum(axis=1)


class _Pool(NamedTuple):
    """Opponents' hands dealt from a full pack and played by :func:`_opponent_draw`."""

    keys: np.ndarray
    """Strength of each final hand."""
    drew: np.ndarray
    """Cards each drew."""
    cards: np.ndarray
    """``uint64`` bit set of the ten cards each used (bit ``c``: card id ``c``)."""
    by_drew: tuple[np.ndarray, ...]
    """``by_drew[k]``: the hands that drew ``k`` cards (``0 <= k <= 5``), in order."""


@cache
def _opponent_pool(decks: int, jokers: int) -> _Pool:
    """:data:`POOL` hands of the pack ``(decks, jokers)``, from a fixed seed (the same in every
    process)."""
    pack = np.flatnonzero(Deck("standard", jokers=jokers, decks=decks).counts)
    counts = Deck("standard", jokers=jokers, decks=decks).counts
    cards = deal(np.repeat(pack, counts[pack]), POOL, 2 * HAND_SIZE, np.random.default_rng(0))
    final, drew = _opponent_draw(cards[:, :HAND_SIZE], cards[:, HAND_SIZE:])
    bits = np.bitwise_or.reduce(np.left_shift(np.uint64(1), cards.astype(np.uint64)), axis=1)
    by_drew = tuple(np.flatnonzero(drew == k) for k in range(HAND_SIZE + 1))
    return _Pool(evaluate(final, "draw"), drew, bits, by_drew)


class _Futures(NamedTuple):
    """One observation's futures, drawn from its own generator (:func:`_draw`)."""

    theirs: np.ndarray
    """``(SAMPLES, opponents)``: the opponents' final hands' strengths."""
    order: np.ndarray
    """``(SAMPLES, pack)``: a random number per card of the pack (2 for the cards out of
    reach), the observer's replacements being the five lowest, lowest first
    (:func:`~pokerzoo.envs.core.draws.lowest`)."""


def _draw(view: DrawPokerView, rng: np.random.Generator) -> _Futures:
    """The random part of an observation's futures, drawn from ``rng`` in a fixed order (each
    opponent's pool hands, then the order of the observer's replacements)."""
    decks, jokers = _pack(view)
    pool = _opponent_pool(decks, jokers)
    own = np.asarray(view.cards, dtype=np.int64)
    held = np.bitwise_or.reduce(np.left_shift(np.uint64(1), own.astype(np.uint64)))
    apart = (pool.cards & held) == 0
    used = np.full(SAMPLES, held, dtype=np.uint64)
    theirs = np.empty((SAMPLES, len(view.opponents_in)), dtype=np.int64)
    anyone: np.ndarray | None = None
    for j, k in enumerate(view.opponents_in):
        # the hands apart from the observer's that drew as many cards, else all those apart
        drew = view.drawn[k]
        rows = pool.by_drew[drew][apart[pool.by_drew[drew]]] if drew >= 0 else None
        if rows is None or not rows.size:
            anyone = np.flatnonzero(apart) if anyone is None else anyone
            rows = anyone
        chosen = rows[rng.integers(0, rows.size, SAMPLES)]
        theirs[:, j] = pool.keys[chosen]
        used |= pool.cards[chosen]
    # the observer's replacements: five cards of the pack no hand of the future uses
    counts = _pack_counts(decks, jokers).copy()
    np.subtract.at(counts, own, 1)
    taken = (used[:, None] >> np.arange(counts.size, dtype=np.uint64)) & np.uint64(1)
    order = np.where((taken > 0) | (counts <= 0), 2.0, rng.random((SAMPLES, counts.size)))
    return _Futures(theirs, order)


def _futures(
    views: Sequence[DrawPokerView], rngs: Sequence[np.random.Generator]
) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """Each view's futures (:func:`_draw`, from its generator): its opponents' keys
    ``(SAMPLES, opponents)`` and its replacements ``(SAMPLES, 5)``, the cards of the five
    lowest keys, lowest first, picked for all the views of a pack together."""
    futures = [_draw(view, rng) for view, rng in zip(views, rngs, strict=True)]
    drawn: list[np.ndarray] = [np.empty(0)] * len(views)
    by_pack: dict[int, list[int]] = {}
    for i, future in enumerate(futures):
        by_pack.setdefault(future.order.shape[1], []).append(i)
    for group in by_pack.values():
        picked = lowest(np.concatenate([futures[i].order for i in group]), HAND_SIZE)
        for n, i in enumerate(group):
            drawn[i] = picked[n * SAMPLES : (n + 1) * SAMPLES]
    return [future.theirs for future in futures], drawn


def _futures_compiled(
    views: Sequence[DrawPokerView], rngs: Sequence[np.random.Generator]
) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """:func:`_futures` by the compiled loops of :mod:`.compiled`, the views of a pack
    together: the pool hands each opponent may hold listed (:func:`.compiled.candidates`),
    each generator asked what :func:`_draw` asks it (an ``integers`` call per opponent,
    read off the raw bits in one pass where it has one: :func:`bounded_draws_flat`; then its
    random keys), the futures dealt (:func:`.compiled.futures`) and the five lowest keys
    picked; the same keys and cards."""
    from . import compiled

    theirs: list[np.ndarray] = [np.empty(0)] * len(views)
    drawn: list[np.ndarray] = [np.empty(0)] * len(views)
    by_pack: dict[tuple[int, int], list[int]] = {}
    for i, view in enumerate(views):
        by_pack.setdefault(_pack(view), []).append(i)
    for pack, group in by_pack.items():
        pool, full = _opponent_pool(*pack), _pack_counts(*pack)
        held = np.array([_bits(views[i].cards) for i in group], dtype=np.uint64)
        opponents = np.array([len(views[i].opponents_in) for i in group], dtype=np.int64)
        start = np.zeros(len(group) + 1, dtype=np.int64)
        np.cumsum(opponents, out=start[1:])
        drew = np.array(
            [views[i].drawn[k] for i in group for k in views[i].opponents_in], dtype=np.int64
        )
        rows = np.empty((len(drew), POOL), dtype=np.int32)
        sizes = np.empty(len(drew), dtype=np.int64)
        compiled.candidates(pool.cards, pool.drew, held, drew, start, rows, sizes)
        draws = np.empty((len(drew), SAMPLES), dtype=np.int64)
        alone = np.flatnonzero(opponents == 1)  # one integers call: read in one pass
        if alone.size:
            flat, _ = bounded_draws_flat(
                [rngs[group[n]] for n in alone],
                [1] * alone.size,
                [int(sizes[start[n]]) for n in alone],
                SAMPLES,
            )
            draws[start[alone]] = flat.reshape(-1, SAMPLES)
        order = np.empty((len(group) * SAMPLES, full.size))
        counts = np.tile(full.astype(np.int64), (len(group), 1))
        for n, i in enumerate(group):
            if opponents[n] != 1:
                for k in range(start[n], start[n + 1]):
                    draws[k] = rngs[i].integers(0, sizes[k], SAMPLES)
            rngs[i].random(out=order[n * SAMPLES : (n + 1) * SAMPLES])
            np.subtract.at(counts[n], np.asarray(views[i].cards, dtype=np.int64), 1)
        keys = np.empty(len(drew) * SAMPLES, dtype=np.int64)
        compiled.futures(pool.cards, pool.keys, rows, draws, held, start, counts, order, keys)
        picked = lowest(order, HAND_SIZE)
        for n, i in enumerate(group):
            block = keys[start[n] * SAMPLES : start[n + 1] * SAMPLES]
            theirs[i] = block.reshape(SAMPLES, opponents[n])
            drawn[i] = picked[n * SAMPLES : (n + 1) * SAMPLES]
    return theirs, drawn


def _bits(cards: Sequence[int]) -> int:
    """The bit set of ``cards`` (bit ``c``: card id ``c``)."""
    bits = 0
    for card in cards:
        bits |= 1 << card
    return bits


@cache
def _pack_counts(decks: int, jokers: int) -> np.ndarray:
    """Copies of each card id in the pack ``(decks, jokers)`` (read only: copy to change)."""
    return Deck("standard", jokers=jokers, decks=decks).counts


def _simulate_many(views: Sequence[DrawPokerView], keys: Sequence[bytes]) -> list[np.ndarray]:
    """For each view (its cache key seeding its generator): ``(options, 5)``, for each discard
    (only standing pat after the draw) the equity and the chances of at least a pair, two pair,
    three of a kind, a straight. Each view's futures are drawn from its own generator
    (:func:`_draw`); the replacements of all views are picked and all their hands scored
    together, and each view's table is reduced as one view alone is (so its floats do not
    depend on the batch)."""
    rngs = [seeded(key) for key in keys]
    if jit.available():
        theirs, drawn = _futures_compiled(views, rngs)
    else:
        theirs, drawn = _futures(views, rngs)
    # each view's keys, one future a row and one discard a column (only standing pat after
    # the draw): the drawing views' hands in one evaluation, the others' in another
    tables: list[np.ndarray] = [np.empty(0)] * len(views)
    for drawing in (True, False):
        group = [
            i
            for i, view in enumerate(views)
            if (view.phase in (actions.PHASE_BET_BEFORE, actions.PHASE_DRAW)) == drawing
        ]
        if group:
            held = [views[i].cards for i in group]
            replacements = np.stack([drawn[i] for i in group])
            found = evaluate_draws(held, replacements, _DISCARDS[drawing], "draw")
            reduced = _tables(found, [theirs[i] for i in group])
            for n, i in enumerate(group):
                tables[i] = reduced[n]
    return tables


_LEAST = np.array([category_floor(least) for least in _AT_LEAST], dtype=np.int64)
"""The lowest key of each category of :data:`_AT_LEAST`."""


def _tables(found: np.ndarray, theirs: Sequence[np.ndarray]) -> list[np.ndarray]:
    """Each view's table (``float32 (D, 5)``) from its keys ``found[n]`` (``(SAMPLES, D)``)
    and its opponents' keys ``theirs[n]`` (``(SAMPLES, opponents)``): :func:`_means`."""
    return list(_means(found, theirs).astype(np.float32))


def _means(found: np.ndarray, theirs: Sequence[np.ndarray]) -> np.ndarray:
    """:func:`_tables` in doubles, ``(V, D, 5)``: numpy's means, or where numba is installed
    the same doubles by one compiled loop (:func:`.compiled.tables`)."""
    if jit.available():
        from . import compiled

        out = np.empty((found.shape[0], found.shape[2], 1 + len(_LEAST)))
        opponents = np.array([block.shape[1] for block in theirs], dtype=np.int64)
        starts = np.zeros(len(theirs), dtype=np.int64)
        np.cumsum(opponents[:-1] * SAMPLES, out=starts[1:])
        flat = np.concatenate([block.reshape(-1) for block in theirs])
        compiled.tables(found, flat, starts, opponents, _LEAST, out)
        return out
    tables = []
    for table_keys, opponents_keys in zip(found, theirs, strict=True):
        keys = table_keys.T
        made = category_of(keys)
        chances = [(made >= least).mean(axis=1) for least in _AT_LEAST]
        share = pot_share(keys, opponents_keys).mean(axis=1)
        tables.append(np.stack([share, *chances], axis=1))
    return np.stack(tables)


_CACHE = FeatureCache()


def _cache_key(view: DrawPokerView) -> bytes:
    """What :func:`_simulate_many`'s table depends on: the hand, the phase (drawing or not), the
    pack and the opponents' draws."""
    drawing = view.phase in (actions.PHASE_BET_BEFORE, actions.PHASE_DRAW)
    drew = [view.drawn[k] for k in view.opponents_in]
    key = np.array([*view.cards, -1, drawing, *_pack(view), -1, *drew])
    return key.astype(np.int16).tobytes()


def _features_many(observations: np.ndarray) -> np.ndarray:
    """Context and action rows of each observation (zeros but the row kinds where the observer
    holds no cards or the game is over): the Monte-Carlo tables of the batch's new hands worked
    out together (:func:`_simulate_many`, cached per key), the context a column at a time
    (:func:`_fill`)."""
    views = decode_observations(np.asarray(observations))
    out = np.zeros((len(views), _FEATURES), dtype=np.float32)
    rows = out[:, _ROWS:].reshape(len(views), NUM_ACTIONS, ROW_WIDTH)
    rows[:, np.arange(STAND_PAT), np.arange(STAND_PAT)] = 1
    rows[:, STAND_PAT:, 3] = 1
    live = [
        i
        for i, view in enumerate(views)
        if view.cards and view.phase != actions.PHASE_OVER and view.opponents_in
    ]
    keys = [_cache_key(views[i]) for i in live]

    def compute(positions: list[int]) -> list[np.ndarray]:
        return _simulate_many([views[live[p]] for p in positions], [keys[p] for p in positions])

    if live:
        out[live] = _fill([views[i] for i in live], _CACHE.get_many(keys, compute), out[live])
    return out


def _fill(
    views: Sequence[DrawPokerView], tables: Sequence[np.ndarray], out: np.ndarray
) -> np.ndarray:
    """``out`` (one row an observation, its row kinds already set) with each observation's
    context and draw rows written in, from its Monte-Carlo table; the context a column at a time
    for the whole batch (every value the float a single observation gets)."""
    rows = out[:, _ROWS:].reshape(len(views), NUM_ACTIONS, ROW_WIDTH)
    context = out[:, :_ROWS]
    best = np.empty(len(views), dtype=np.float32)
    for n, (view, table) in enumerate(zip(views, tables, strict=True)):
        if view.phase == actions.PHASE_BET_AFTER:
            best[n] = table[0, 0]
        else:
            best[n] = table[view.supply >= _POPCOUNT, 0].max()
            rows[n, STAND_PAT:, _ROW_EQUITY : _ROW_EQUITY + 5] = table
            rows[n, STAND_PAT:, 9] = _POPCOUNT / HAND_SIZE
    column = np.arange(len(views))
    players = np.array([1 + len(view.opponents_in) for view in views])
    phase = np.array([view.phase for view in views])
    to_call = np.array([view.to_call for view in views], dtype=np.float64)
    pot = np.array([view.pot for view in views], dtype=np.float64)
    bet_size = np.array([view.bet_size for view in views], dtype=np.float64)
    context[:, CONTEXT.start("equity")] = best
    context[:, CONTEXT.start("equity_pat")] = [table[0, 0] for table in tables]
    context[:, CONTEXT.start("fair_share")] = 1 / players
    # pot_odds() of each row
    odds = np.divide(to_call, pot + to_call, out=np.zeros_like(to_call), where=to_call > 0)
    context[:, CONTEXT.start("pot_odds")] = odds
    context[:, CONTEXT.start("to_call")] = to_call / np.maximum(bet_size, 1)
    context[:, CONTEXT.start("pot")] = pot / 50
    context[:, CONTEXT.start("bet_size")] = bet_size / 2
    context[column, CONTEXT.start("phase") + np.minimum(phase, 2)] = 1
    context[:, CONTEXT.start("orbit")] = np.array([view.orbit for view in views]) / 3
    context[:, CONTEXT.start("bets_made")] = np.array([view.bets_made for view in views]) / 4
    context[:, CONTEXT.start("dealer")] = [view.dealer == 0 for view in views]
    cards = [view.cards for view in views]
    if all(len(hand) == HAND_SIZE for hand in cards):  # a hand held is five cards
        made = categories(np.array(cards), "draw").astype(np.int64)
        context[column, CONTEXT.start("made_hand") + made] = 1  # made_hand() of each row
    else:
        context[:, CONTEXT["made_hand"]] = [made_hand(hand, "draw") for hand in cards]
    context[:, CONTEXT["draws"]] = draw_indicators_batch(cards)
    drew = np.zeros((len(views), _DRAWS), dtype=np.int64)
    for n, view in enumerate(views):
        for k in view.opponents_in:
            drew[n, view.drawn[k] if view.drawn[k] >= 0 else HAND_SIZE + 1] += 1
    context[:, CONTEXT["opponents_drew"]] = drew / (players - 1)[:, None]
    history = np.array([view.history for view in views])
    summary = betting_summary(history).reshape(len(views), 2, 2, 4)  # phase, whose, kind
    context[:, CONTEXT["opponents_bets"]] = summary[:, :, 0].reshape(len(views), -1)
    context[:, CONTEXT["own_bets"]] = summary[:, :, 1].reshape(len(views), -1)
    return out


equity_features = batched(_features_many)
"""The ``"equity"`` features of a batch of observations (module docstring)."""


def equity_rule(
    features: np.ndarray, masks: np.ndarray, raise_by: float, call_by: float
) -> np.ndarray:
    """The rule ``"equity"`` (module docstring), batched: in the draw the discard with the best
    equity, else :func:`~pokerzoo.training.poker.equity.bet_by_equity` (a call with nothing to
    call is free)."""
    rows = features[:, _ROWS:_FEATURES].reshape(len(features), NUM_ACTIONS, ROW_WIDTH)
    draw_equity = np.where(masks[:, STAND_PAT:], rows[:, STAND_PAT:, _ROW_EQUITY], -1.0)
    equity, odds = features[:, _EQUITY], features[:, _ODDS]
    bet = bet_by_equity(equity, features[:, _FAIR], odds, masks, raise_by, call_by, free=odds == 0)
    drawing = masks[:, STAND_PAT:].any(axis=1)
    return np.where(drawing, STAND_PAT + draw_equity.argmax(axis=1), bet)


document(sys.modules[__name__], table=CONTEXT.table())


def describe(observation: np.ndarray) -> str:
    """The person's cards, the pot, the bet to call and every stack, by absolute seat."""
    view = decode_observation(observation)
    n = view.num_players
    relative = [(seat - view.seat) % n for seat in range(n)]  # the view's seats are relative
    stacks = ", ".join(
        f"player_{seat} {view.stacks[k]}{'' if view.in_hand[k] else ' (out)'}"
        for seat, k in enumerate(relative)
    )
    return (
        f"hand {view.hand_number}, {actions.PHASES[view.phase]}; you are player_{view.seat}, "
        f"player_{(view.seat + view.dealer) % n} deals\n"
        f"your cards: {format_cards(view.cards)}\n"
        f"pot {view.pot}, to call {view.to_call}; stacks: {stacks}"
    )


def parse_move(answer: str, observation: np.ndarray, mask: np.ndarray) -> int:
    """``"raise"`` -> 2, ``"discard As Kd"`` -> the draw action throwing those two away."""
    words = answer.split()
    if not words:
        raise ValueError("type fold, check, call, bet, raise, stand pat or discard CARDS")
    if words[0] in BETTING_WORDS and len(words) == 1:
        return BETTING_WORDS[words[0]]
    if answer in ("stand pat", "pat", "stand"):
        return STAND_PAT
    if words[0] == "discard":
        hand = decode_observation(observation).cards
        cards = parse_cards(" ".join(words[1:]))
        missing = [format_card(c) for c in cards if c not in hand]
        if missing:
            raise ValueError(
                f"you do not hold {', '.join(missing)}: your cards are {format_cards(hand)}"
            )
        return actions.discard_action(hand.index(c) for c in cards)
    raise ValueError(
        f"bad move {answer!r}: type fold, check, call, bet, raise, stand pat or discard CARDS"
    )


def move_text(action: int, observation: np.ndarray) -> str:
    """How :func:`parse_move` reads ``action`` back (``"discard As Kd"``)."""
    if action < STAND_PAT:
        return ("fold", "call", "raise")[action]
    hand = decode_observation(observation).cards
    thrown = [hand[i] for i in range(len(hand)) if (action - STAND_PAT) >> i & 1]
    return f"discard {format_cards(thrown)}" if thrown else "stand pat"


EQUITY = FeatureSet(
    equity_features,
    PerActionLayout(offset=_ROWS, actions=NUM_ACTIONS, width=ROW_WIDTH),
    "Monte-Carlo equity per discard, pot odds, made hand, draws, the opponents' draws and bets",
)

HOOKS = dataclasses.replace(
    equity_hooks(
        EQUITY,
        equity_rule,
        params={"raise_by": 0.0, "call_by": 0.0},  # tuned: benchmarks/feature_rules.py
        summary="best-equity draw; raise above a fair share + raise_by, call above the pot "
        "odds + call_by",
        describe=describe,
        parse_action=parse_move,
        action_text=move_text,
        prompt="fold / check / call / bet / raise / stand pat / discard CARDS",
    ),
    hidden=DrawHiddenCards,  # pokerzoo evaluate --lbr
)
