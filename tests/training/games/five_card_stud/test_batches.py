"""Five-card stud's ``"equity"`` features batched: every row of any batch is the observation's
features alone and the features of the per-observation implementation before batching (kept
here verbatim as :func:`reference_features`), to the bit, under every option set of the game's
spec, on every street, with the cache cold, warm and holding part of a batch."""

from __future__ import annotations

import hashlib
from functools import cache

import numpy as np
import pytest
from pokerzoo.envs.core.cards import Deck
from pokerzoo.envs.core.hands import Category, evaluate, qualifies_low
from pokerzoo.envs.five_card_stud import (
    FiveCardStudView,
    decode_observation,
    showing_key,
    up_card_rank,
)
from pokerzoo.envs.five_card_stud.spec import SPEC
from pokerzoo.training.games.five_card_stud import batches, hooks
from pokerzoo.training.games.five_card_stud.hooks import FEATURES, SAMPLES
from pokerzoo.training.poker import features as poker_features

from tests.helpers import benchmark_script, bot_decisions

OPTION_SETS = dict(SPEC.option_sets)
_EQUITY, _FAIR, _ODDS, _BET_ODDS = (
    FEATURES.start(name) for name in ("equity", "fair_share", "pot_odds", "bet_odds")
)
_MONTE_CARLO = slice(_EQUITY, _EQUITY + 4)


def reference_simulate(view: FiveCardStudView, rng: np.random.Generator) -> np.ndarray:
    """The Monte-Carlo entries as computed before batching (verbatim)."""
    seen = [*view.hole, *(card for up in view.up for card in up)]
    counts = Deck(jokers=view.jokers).counts.copy()
    np.subtract.at(counts, seen, 1)
    unseen = np.repeat(np.arange(counts.size), np.maximum(counts, 0))
    known = [view.own_cards] + [view.up[k] for k in view.opponents_in]
    missing = [5 - len(cards) for cards in known]
    futures = poker_features.deal(unseen, SAMPLES, sum(missing), rng)
    hands = np.empty((SAMPLES, len(known), 5), dtype=np.int64)
    start = 0
    for i, cards in enumerate(known):
        hands[:, i, : len(cards)] = cards
        hands[:, i, len(cards) :] = futures[:, start : start + missing[i]]
        start += missing[i]
    wild = view.deuces_wild
    flat = hands.reshape(-1, 5)
    high = evaluate(flat, "standard", deuces_wild=wild).reshape(SAMPLES, -1)
    share = poker_features.pot_share(high[:, 0], high[:, 1:])
    if view.hi_lo:
        low = evaluate(flat, "low", deuces_wild=wild).reshape(SAMPLES, -1)
        qualified = np.asarray(qualifies_low(low, view.low_qualifier))
        low = np.where(qualified, low, -1)
        low_share = np.where(qualified[:, 0], poker_features.pot_share(low[:, 0], low[:, 1:]), 0.0)
        share = np.where(qualified.any(axis=1), 0.5 * share + 0.5 * low_share, share)
    now = [
        poker_features.group_keys(hands[:, i, : len(known[i]) + 1], wild)
        for i in range(1, len(known))
    ]
    theirs = np.stack([keys for keys, _ in now], axis=1)
    made = np.stack([category for _, category in now], axis=1).max(axis=1)
    mine = poker_features.group_keys(np.array([view.own_cards]), wild)[0]
    board = poker_features.group_keys(np.array([view.up[0]]), wild)[0]
    return np.array(
        [
            share.mean(),
            poker_features.pot_share(np.broadcast_to(mine, SAMPLES), theirs).mean(),
            (made >= Category.PAIR).mean(),
            (board > theirs.max(axis=1)).mean(),
        ],
        dtype=np.float32,
    )


def reference_features(
    observation: np.ndarray, cache: poker_features.FeatureCache | None = None
) -> np.ndarray:
    """One observation's features as computed before batching (verbatim; its Monte-Carlo
    entries kept in ``cache`` if one is given, as the old code kept them)."""
    view = decode_observation(observation)
    out = np.zeros(FEATURES.size, dtype=np.float32)
    if not view.num_players or not view.in_hand[0] or not view.opponents_in or not view.up[0]:
        return out
    opponents = view.opponents_in
    wild = view.deuces_wild
    boards = [view.up[k] for k in opponents]
    mine = view.own_cards
    best_board = max(boards, key=lambda board: showing_key(board, wild))
    own_board_key = showing_key(view.up[0], wild)
    price = view.bet_size
    raw = cache_key(view)
    if cache is None:
        out[_MONTE_CARLO] = reference_simulate(view, poker_features.seeded(raw))
    else:
        out[_MONTE_CARLO] = cache.get(
            raw, lambda: reference_simulate(view, poker_features.seeded(raw))
        )
    out[_FAIR] = 1 / (1 + len(opponents))
    out[_ODDS] = poker_features.pot_odds(view.to_call, view.pot)
    out[_BET_ODDS] = poker_features.pot_odds(price, view.pot)
    out[FEATURES["to_call"]] = view.to_call / max(view.bet_size, 1)
    out[FEATURES["pot"]] = view.pot / 50
    out[FEATURES["to_come"]] = (5 - len(mine)) / 3
    out[FEATURES["bets_made"]] = view.bets_made / max(view.cap, 1)
    out[FEATURES["made_hand"]] = poker_features.made_hand(mine, "standard", wild)
    out[FEATURES["their_board"]] = poker_features.made_hand(best_board[:4], "standard", wild)
    out[FEATURES["their_high"]] = max(up_card_rank(c, wild) for b in boards for c in b) / 12
    out[FEATURES["own_high"]] = max(up_card_rank(c, wild) for c in view.up[0]) / 12
    out[FEATURES["beaten"]] = any(showing_key(b, wild) > showing_key(mine, wild) for b in boards)
    out[FEATURES["board_leads"]] = all(own_board_key > showing_key(b, wild) for b in boards)
    out[FEATURES["draws"]] = poker_features.draw_indicators(mine, wild)
    summary = poker_features.betting_summary(view.history).reshape(-1, 2, 4)
    now = view.round
    out[FEATURES["opponents_bets"]] = summary[now, 0]
    out[FEATURES["own_bets"]] = summary[now, 1]
    out[FEATURES["earlier_bets"]] = summary[:now].sum(axis=0).ravel()
    return out


def cache_key(view: FiveCardStudView) -> bytes:
    """The key the code before batching cached and seeded by (verbatim)."""
    key = [*view.hole, -1, *view.in_hand, -1, view.jokers, view.deuces_wild, view.hi_lo]
    key += [view.low_qualifier or 0]
    for up in view.up:
        key += [-1, *up]
    return np.array(key, dtype=np.int16).tobytes()


@cache
def observations(option_set: str) -> np.ndarray:
    """Observations of real games under ``option_set`` (callers reach every street, rule
    players fold and raise), the all-zero observation of a game that is over among them."""
    options = OPTION_SETS[option_set]
    parts = [bot_decisions("five_card_stud", bot, 2, **options)[0] for bot in ("caller", "rules")]
    played = np.concatenate(parts)
    played = played[:: max(1, len(played) // 120)]  # games of many hands: every few decisions
    return np.concatenate([played, np.zeros((1, played.shape[1]), dtype=played.dtype)])


@cache
def reference(option_set: str) -> np.ndarray:
    return np.stack([reference_features(o) for o in observations(option_set)])


def bits(array: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(array, dtype=np.float32).view(np.uint32)


def test_the_cache_key_is_the_old_one() -> None:
    for option_set in OPTION_SETS:
        for observation in observations(option_set)[:-1]:
            view = decode_observation(observation)
            assert hooks._cache_key(view) == cache_key(view)


def count_compiled_calls(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The views of each call of the compiled Monte-Carlo loop from now on."""
    from pokerzoo.training.games.five_card_stud import compiled

    calls: list[int] = []
    simulate = compiled.simulate

    def counted(*args: object) -> np.ndarray:
        out = simulate(*args)
        calls.append(len(out))
        return out

    monkeypatch.setattr(compiled, "simulate", counted)
    return calls


@pytest.mark.parametrize("option_set", OPTION_SETS)
def test_batches_are_the_reference_features(
    option_set: str, monkeypatch: pytest.MonkeyPatch, loops_by: str
) -> None:
    """By numpy and, where numba is installed, by the compiled loop (every option set but the
    high-low ones, which numpy works out either way)."""
    calls = count_compiled_calls(monkeypatch) if loops_by == "compiled" else []
    obs = observations(option_set)
    want = bits(reference(option_set))
    assert (want[:-1, _EQUITY] != 0).any() and not want[-1].any()
    assert {decode_observation(o).round for o in obs[:-1]} == {0, 1, 2, 3}  # every street
    monkeypatch.setattr(hooks, "_CACHE", poker_features.FeatureCache())  # cold: simulated together
    assert np.array_equal(bits(hooks.EQUITY(obs)), want)
    assert np.array_equal(bits(hooks.EQUITY(obs)), want)  # warm: all from the cache
    monkeypatch.setattr(hooks, "_CACHE", poker_features.FeatureCache())
    for size in (1, 3, 8, 32):  # partly warm: some rows cached, some new, some twice
        rows = np.random.default_rng(size).permutation(len(obs))[: 2 * size]
        rows = np.concatenate([rows, rows[:2]])
        assert np.array_equal(bits(hooks.EQUITY(obs[rows])), want[rows])
    monkeypatch.setattr(hooks, "_CACHE", poker_features.FeatureCache())
    singles = np.stack([hooks.equity_features(o) for o in obs])  # one (D,) observation each
    assert np.array_equal(bits(singles), want)
    assert bool(calls) == (loops_by == "compiled" and "hi_lo" not in OPTION_SETS[option_set])


def test_a_batch_mixing_every_option_set(monkeypatch: pytest.MonkeyPatch, loops_by: str) -> None:
    obs = np.concatenate([observations(name)[::2] for name in OPTION_SETS])
    want = np.concatenate([reference(name)[::2] for name in OPTION_SETS])
    monkeypatch.setattr(
        hooks, "_CACHE", poker_features.FeatureCache(size=7)
    )  # evicts within a batch
    for _ in range(2):
        assert np.array_equal(bits(hooks.EQUITY(obs)), bits(want))


OLD_GROUP_KEYS = {
    (1, False): "ff6cba3670eb9c15",
    (1, True): "c747276b90970e41",
    (2, False): "335a000782b90c38",
    (2, True): "76a1d28f558b94ce",
    (3, False): "baba81b92000bd3c",
    (3, True): "cb544e49d374881e",
    (4, False): "c90569b98889bfc6",
    (4, True): "bc8353d6a993f614",
    (5, False): "f081f4120397249c",
    (5, True): "0c68647501299448",
}
"""sha256 (first 16 hex digits) of the keys and categories the shared ``group_keys`` gave these
hands when it counted ranks (before the faster column sort replaced it)."""


@pytest.mark.parametrize("deuces_wild", [False, True])
@pytest.mark.parametrize("size", [1, 2, 3, 4, 5])
def test_group_keys_are_the_old_helper_s(size: int, deuces_wild: bool) -> None:
    rng = np.random.default_rng(size)
    few_ranks = [*range(8), *range(44, 53)]  # deuces, threes, kings, aces, the joker: big groups
    hands = np.stack(
        [rng.choice(53, size, replace=False) for _ in range(1500)]
        + [rng.choice(few_ranks, size, replace=False) for _ in range(1500)]
    )
    want = poker_features.group_keys(hands, deuces_wild)
    keys, groups = (np.ascontiguousarray(x, dtype=np.int64).tobytes() for x in want)
    digest = hashlib.sha256(keys + groups).hexdigest()[:16]
    assert digest == OLD_GROUP_KEYS[size, deuces_wild]  # the rank-count algorithm's keys
    alone = [batches.group_category(hand.tolist(), deuces_wild) for hand in hands]
    assert np.array_equal(alone, want[1])
    hands = hands[:300]  # made_hand is slow one hand at a time
    made = [poker_features.made_hand(hand.tolist(), "standard", deuces_wild) for hand in hands]
    assert np.array_equal(batches.made_hands(hands.tolist(), [deuces_wild] * len(hands)), made)


def test_deal_many_is_deal_deck_by_deck() -> None:
    decks = [np.arange(20, 60 - k) for k in range(0, 12, 3)] + [np.arange(5), np.arange(9)]
    counts = [3, 9, 1, 6, 5, 0]  # a whole deck dealt, a deck dealing nothing
    rngs = [np.random.default_rng(k) for k in range(len(decks))]
    got = batches.deal_many(decks, 50, counts, rngs)
    for k, (deck, count) in enumerate(zip(decks, counts, strict=True)):
        alone = np.random.default_rng(k)
        assert np.array_equal(got[k], poker_features.deal(deck, 50, count, alone))
        assert rngs[k].integers(0, 2**40) == alone.integers(0, 2**40)  # asked the same


def test_the_benchmark_prints_its_tables(capsys: pytest.CaptureFixture[str]) -> None:
    """``benchmarks/stud_batches.py`` runs (tiny) and prints both tables, every row: the
    features' cold row empties the cache the feature set reads."""
    saved = hooks._CACHE
    try:
        script = benchmark_script("stud_batches")
        script.main(["--episodes", "1", "--repeats", "1", "--sizes", "2,4"])
    finally:
        hooks._CACHE = saved
    out = capsys.readouterr().out
    for row in (
        "before batching, alone",
        "act, alone",
        "act_batch, 4 bots",
        "before batching, one at a time",
        "feature set, one observation",
        "feature set, batches of 2",
    ):
        assert f"| {row}" in out
