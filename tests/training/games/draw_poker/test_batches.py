"""Draw poker's ``"equity"`` features batched: every row of any batch is the observation's
features alone and the features of the per-observation implementation before batching (kept
here verbatim as :func:`reference_features`, but for the order of a future's replacements,
now defined on every CPU), to the bit, heads-up and at bigger tables, with
one and two decks and jokers, in every phase, with the cache cold, warm and holding part of a
batch."""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np
import pytest
from pokerzoo.envs.core.cards import Deck
from pokerzoo.envs.core.hands import evaluate
from pokerzoo.envs.draw_poker import (
    HAND_SIZE,
    NUM_ACTIONS,
    STAND_PAT,
    DrawPokerView,
    actions,
    decode_observation,
)
from pokerzoo.training.games.draw_poker import hooks
from pokerzoo.training.games.draw_poker.hooks import CONTEXT, ROW_WIDTH, SAMPLES
from pokerzoo.training.poker.features import (
    FeatureCache,
    betting_summary,
    category_of,
    draw_indicators,
    made_hand,
    pot_odds,
    pot_share,
    seeded,
)

from tests.helpers import bot_decisions

OPTION_SETS: dict[str, dict[str, Any]] = {
    "heads-up": {},
    "4 players": {"num_players": 4},
    "two decks, jokers": {"decks": 2, "jokers": 4},
    "10 players, two decks, jokers, deuces wild": {
        "num_players": 10,
        "decks": 2,
        "jokers": 4,
        "deuces_wild": True,
    },
    "10 players": {"num_players": 10},
}
"""Table sizes and packs the batches are checked under (a short stock at ten players)."""


# Hand position i after discard bits b: own card i kept, or replacement j (index 5 + j) where
# j counts the discarded positions below i.
_TAKE = np.array(
    [
        [i if not bits >> i & 1 else HAND_SIZE + bin(bits & ((1 << i) - 1)).count("1")
         for i in range(HAND_SIZE)]
        for bits in range(actions.NUM_DISCARDS)
    ]
)  # fmt: skip


def reference_simulate(view: DrawPokerView, drawing: bool, rng: np.random.Generator) -> np.ndarray:
    """The Monte-Carlo table as computed before batching (verbatim but for the replacements'
    order)."""
    decks, jokers = hooks._pack(view)
    pool = hooks._opponent_pool(decks, jokers)
    own = np.asarray(view.cards, dtype=np.int64)
    held = np.bitwise_or.reduce(np.left_shift(np.uint64(1), own.astype(np.uint64)))
    apart = (pool.cards & held) == 0
    used = np.full(SAMPLES, held, dtype=np.uint64)
    theirs = np.empty((SAMPLES, len(view.opponents_in)), dtype=np.int64)
    for j, k in enumerate(view.opponents_in):
        fits = apart & (pool.drew == view.drawn[k])
        rows = np.flatnonzero(fits if fits.any() else apart)
        chosen = rows[rng.integers(0, rows.size, SAMPLES)]
        theirs[:, j] = pool.keys[chosen]
        used |= pool.cards[chosen]
    counts = Deck("standard", jokers=jokers, decks=decks).counts.copy()
    np.subtract.at(counts, own, 1)
    taken = (used[:, None] >> np.arange(counts.size, dtype=np.uint64)) & np.uint64(1)
    order = np.where((taken > 0) | (counts <= 0), 2.0, rng.random((SAMPLES, counts.size)))
    # the five lowest keys, lowest first (at 9da13b3 `argpartition`'s first five: the same cards
    # on AVX-512 wherever five cards are in reach, but in its kernels' order where fewer are)
    drawn = np.argsort(order, axis=1, kind="stable")[:, :HAND_SIZE]
    cards = np.concatenate([np.broadcast_to(own, (SAMPLES, HAND_SIZE)), drawn], axis=1)
    take = _TAKE if drawing else _TAKE[:1]
    keys = evaluate(cards[:, take].reshape(-1, HAND_SIZE), "draw").reshape(SAMPLES, len(take)).T
    made = category_of(keys)
    chances = [(made >= least).mean(axis=1) for least in hooks._AT_LEAST]
    return np.stack([pot_share(keys, theirs).mean(axis=1), *chances], axis=1).astype(np.float32)


_REFERENCE_CACHE = FeatureCache()


def reference_hand_features(view: DrawPokerView) -> np.ndarray:
    """The cached table before batching (verbatim, with a cache of its own)."""
    drawing = view.phase in (actions.PHASE_BET_BEFORE, actions.PHASE_DRAW)
    drew = [view.drawn[k] for k in view.opponents_in]
    key = np.array([*view.cards, -1, drawing, *hooks._pack(view), -1, *drew])
    key = key.astype(np.int16).tobytes()
    return _REFERENCE_CACHE.get(key, lambda: reference_simulate(view, drawing, seeded(key)))


def reference_features(observation: np.ndarray) -> np.ndarray:
    """One observation's features as computed before batching (verbatim)."""
    view = decode_observation(observation)
    out = np.zeros(hooks._FEATURES, dtype=np.float32)
    rows = out[hooks._ROWS :].reshape(NUM_ACTIONS, ROW_WIDTH)
    rows[np.arange(STAND_PAT), np.arange(STAND_PAT)] = 1
    rows[STAND_PAT:, 3] = 1
    if not view.cards or view.phase == actions.PHASE_OVER or not view.opponents_in:
        return out
    table = reference_hand_features(view)
    context = out[: hooks._ROWS]
    phase = view.phase
    if phase == actions.PHASE_BET_AFTER:
        best = table[0, 0]
    else:
        affordable = view.supply >= hooks._POPCOUNT
        best = table[affordable, 0].max()
        rows[STAND_PAT:, hooks._ROW_EQUITY : hooks._ROW_EQUITY + 5] = table
        rows[STAND_PAT:, 9] = hooks._POPCOUNT / HAND_SIZE
    players = 1 + len(view.opponents_in)
    drew = np.array([view.drawn[k] for k in view.opponents_in])
    context[CONTEXT["equity"]] = best
    context[CONTEXT["equity_pat"]] = table[0, 0]
    context[CONTEXT["fair_share"]] = 1 / players
    context[CONTEXT["pot_odds"]] = pot_odds(view.to_call, view.pot)
    context[CONTEXT["to_call"]] = view.to_call / max(view.bet_size, 1)
    context[CONTEXT["pot"]] = view.pot / 50
    context[CONTEXT["bet_size"]] = view.bet_size / 2
    context[CONTEXT.start("phase") + min(phase, 2)] = 1
    context[CONTEXT["orbit"]] = view.orbit / 3
    context[CONTEXT["bets_made"]] = view.bets_made / 4
    context[CONTEXT["dealer"]] = view.dealer == 0
    context[CONTEXT["made_hand"]] = made_hand(view.cards, "draw")
    context[CONTEXT["draws"]] = draw_indicators(view.cards)
    context[CONTEXT["opponents_drew"]] = np.bincount(
        np.where(drew < 0, HAND_SIZE + 1, drew), minlength=hooks._DRAWS
    ) / len(drew)
    summary = betting_summary(np.array(view.history)).reshape(2, 2, 4)
    context[CONTEXT["opponents_bets"]] = summary[:, 0].ravel()
    context[CONTEXT["own_bets"]] = summary[:, 1].ravel()
    return out


@cache
def decisions(option_set: str) -> np.ndarray:
    """Observations of real games under ``option_set`` (callers reach the draw and the betting
    after it; rule players bet, raise and fold), and an empty one (no cards: zeros)."""
    options = OPTION_SETS[option_set]
    parts = [bot_decisions("draw_poker", bot, 3, **options)[0] for bot in ("caller", "rules")]
    observations = np.concatenate(parts)
    return np.concatenate([observations, np.zeros_like(observations[:1])])


@cache
def reference(option_set: str) -> np.ndarray:
    return np.stack([reference_features(o) for o in decisions(option_set)])


@pytest.fixture
def cold_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    """The features' cache emptied for the test (and the module's own restored after it)."""
    monkeypatch.setattr(hooks, "_CACHE", FeatureCache())


@pytest.mark.parametrize("option_set", OPTION_SETS)
def test_a_batch_is_the_reference_cold_and_warm(
    option_set: str, cold_cache: None, loops_by: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """By numpy, and where numba is installed by the compiled loops (the futures dealt, the
    keys of every discard's hands, the tables), which run only then."""
    calls = []
    compiled_futures = hooks._futures_compiled

    def spy(*args: Any) -> Any:
        calls.append(1)
        return compiled_futures(*args)

    monkeypatch.setattr(hooks, "_futures_compiled", spy)
    observations = decisions(option_set)
    phases = {decode_observation(o).phase for o in observations}
    assert phases >= {actions.PHASE_BET_BEFORE, actions.PHASE_DRAW, actions.PHASE_BET_AFTER}
    assert np.array_equal(hooks.EQUITY(observations), reference(option_set))  # cold
    assert bool(calls) == (loops_by == "compiled")
    assert np.array_equal(hooks.EQUITY(observations), reference(option_set))  # warm


@pytest.mark.parametrize("option_set", OPTION_SETS)
def test_rows_alone_are_the_reference(option_set: str, cold_cache: None) -> None:
    for observation, want in zip(decisions(option_set), reference(option_set), strict=True):
        got = hooks.EQUITY(observation)
        assert got.shape == want.shape and np.array_equal(got, want)


@pytest.mark.parametrize("option_set", OPTION_SETS)
def test_batches_of_any_size_and_order_with_part_cached(option_set: str, cold_cache: None) -> None:
    """Shuffled batches of 1 to 32 rows with repeats, the cache holding part of each (every
    third row asked alone first): each row the reference's."""
    observations, want = decisions(option_set), reference(option_set)
    rng = np.random.default_rng(5)
    order = np.concatenate([rng.permutation(len(observations)), rng.integers(0, 9, 12)])
    start = 0
    for size in (1, 3, 8, 32, 5, 32):
        picked = order[start : start + size]
        start += size
        for k in picked[::3]:
            hooks.EQUITY(observations[k])
        assert np.array_equal(hooks.EQUITY(observations[picked]), want[picked])


def test_a_batch_mixing_packs_and_table_sizes_of_one_width(cold_cache: None) -> None:
    """Heads-up observations of one and two decks with jokers in one batch (their widths match):
    each row the reference's."""
    names = ["heads-up", "two decks, jokers"]
    observations = np.concatenate([decisions(name) for name in names])
    want = np.concatenate([reference(name) for name in names])
    mixed = np.random.default_rng(1).permutation(len(observations))
    assert np.array_equal(hooks.EQUITY(observations[mixed]), want[mixed])


@pytest.mark.parametrize("discards", [1, 32])
@pytest.mark.parametrize("opponents", [1, 3, 9])
def test_tables_are_numpy_s_means_on_keys_full_of_ties(
    discards: int, opponents: int, loops_by: str
) -> None:
    """The tables of keys of few values (the observer's and the opponents' keys tie often: pots
    split three and four ways, whose shares numpy's order of adding rounds), for drawing views
    (a column per discard) and after the draw (one column): the doubles of numpy's means, and
    the tables those in single precision."""
    rng = np.random.default_rng(10 * discards + opponents)

    def keys(*shape: int) -> np.ndarray:
        return (rng.integers(0, 10, shape) << 24) | rng.integers(0, 2, shape)

    found = keys(40, SAMPLES, discards)
    theirs = [keys(SAMPLES, opponents) for _ in range(40)]
    means = hooks._means(found, theirs)
    assert means.dtype == np.float64 and means.shape == (40, discards, 5)
    for got, table_keys, their_keys in zip(means, found, theirs, strict=True):
        made = category_of(table_keys.T)
        chances = [(made >= least).mean(axis=1) for least in hooks._AT_LEAST]
        share = pot_share(table_keys.T, their_keys).mean(axis=1)
        assert np.array_equal(got, np.stack([share, *chances], axis=1))
    tables = hooks._tables(found, theirs)
    for table, doubles in zip(tables, means, strict=True):
        assert table.dtype == np.float32 and np.array_equal(table, doubles.astype(np.float32))
