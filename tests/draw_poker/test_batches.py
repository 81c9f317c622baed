"""Draw poker's equity bot batched: :meth:`EquityBot.act_batch` decides as its bots alone would,
decision after decision, and its equities are the floats of the implementation before batching
(kept here verbatim as :class:`ReferenceEquityBot`) to the bit: in the draw and both betting
rounds, heads-up and at bigger tables, with one and two decks, jokers and deuces wild."""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np
import pytest
from pokerzoo.agents.draw_poker import EquityBot, RulesBot, _Pool, _read_betting
from pokerzoo.envs.core.bots import act_batch
from pokerzoo.envs.core.cards import NUM_CARD_IDS
from pokerzoo.envs.core.hands import Category, categories, evaluate
from pokerzoo.envs.draw_poker import (
    HAND_SIZE,
    PHASE_BET_AFTER,
    PHASE_BET_BEFORE,
    PHASE_DRAW,
    DrawPokerView,
    decode_observation,
    decode_observations,
    make_layout,
)
from pokerzoo.envs.draw_poker.actions import PHASES
from pokerzoo.envs.draw_poker.analysis import _WILD_CARDS, caller_draw_many, caller_keep_many
from pokerzoo.envs.draw_poker.observation import HISTORY_KINDS

from tests.helpers import benchmark_script, bot_decisions

OPTION_SETS: dict[str, dict[str, Any]] = {
    "heads-up": {},
    "4 players": {"num_players": 4},
    "two decks, jokers": {"decks": 2, "jokers": 4},
    "6 players, two decks, jokers, deuces wild": {
        "num_players": 6,
        "decks": 2,
        "jokers": 4,
        "deuces_wild": True,
    },
    "3 players, a joker, deuces wild": {"num_players": 3, "jokers": 1, "deuces_wild": True},
}
"""Table sizes, packs and wild cards the batches are checked under."""


class ReferenceEquityBot(EquityBot):
    """The equity bot as it was before batching (the code verbatim): the reference the batched
    and the single path must match bit for bit."""

    def _draw_equity(self, view: DrawPokerView) -> np.ndarray:
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
        rows = self._deal(unseen, 8 * self.samples, 2 * HAND_SIZE)
        dealt = rows[:, :HAND_SIZE]
        keep, category = reference_caller_keep_many(dealt, self.deuces_wild)
        final = caller_draw_many(dealt, rows[:, HAND_SIZE:], keep)
        final_category = categories(final, "draw", deuces_wild=self.deuces_wild)
        return _Pool((~keep).sum(axis=1), category, final, final_category)

    def _improved(self, hands: np.ndarray, replacements: np.ndarray) -> np.ndarray:
        keep, _ = reference_caller_keep_many(hands, self.deuces_wild)
        return caller_draw_many(hands, replacements, keep)


def reference_caller_keep_many(
    hands: np.ndarray, deuces_wild: bool = False
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`caller_keep_many` as it was before it was sped up (verbatim)."""
    wild = _WILD_CARDS[bool(deuces_wild)][hands]
    ranks = np.where(wild, -1, hands >> 2)
    same = (ranks[:, :, None] == ranks[:, None, :]) & ~wild[:, :, None]
    keep = wild | (same.sum(axis=2) >= 2)
    no_pair = ~(keep & ~wild).any(axis=1)
    highest = np.argmax(np.where(wild, -1, hands), axis=1)
    keep[no_pair, highest[no_pair]] |= ~wild[no_pair, highest[no_pair]]
    category = categories(hands, "draw", deuces_wild=deuces_wild)
    keep[category >= Category.STRAIGHT] = True
    return keep, category


def reference_decode(observation: np.ndarray) -> DrawPokerView:
    """``decode_observation`` as it was before the batch decoder (the code verbatim)."""
    obs = np.asarray(observation)
    n = (obs.shape[0] - (len(PHASES) + HAND_SIZE * NUM_CARD_IDS + 9)) // (
        2 + 7 + 2 * len(HISTORY_KINDS)
    )
    layout = make_layout(n)
    values = np.rint(obs).astype(np.int64)

    def field(name: str) -> np.ndarray:
        return values[layout[name]]

    slots = field("cards").reshape(HAND_SIZE, NUM_CARD_IDS)
    cards = tuple(int(np.argmax(slot)) for slot in slots if slot.any())
    drawn, has_drawn = field("drawn"), field("has_drawn")
    history = field("history").reshape(2, n, len(HISTORY_KINDS))
    return DrawPokerView(
        num_players=n,
        seat=int(np.argmax(field("seat"))),
        dealer=int(np.argmax(field("dealer"))),
        phase=int(np.argmax(field("phase"))),
        cards=cards,
        pot=int(field("pot")[0]),
        to_call=int(field("to_call")[0]),
        bet_size=int(field("bet_size")[0]),
        orbit=int(field("orbit")[0]),
        bets_made=int(field("bets_made")[0]),
        stock=int(field("stock")[0]),
        discard_pile=int(field("discard_pile")[0]),
        hand_number=int(field("hand_number")[0]),
        hands_left=int(field("hands_left")[0]),
        stacks=tuple(field("stacks").tolist()),
        round_bets=tuple(field("round_bets").tolist()),
        committed=tuple(field("committed").tolist()),
        dealt=tuple(bool(x) for x in field("dealt")),
        in_hand=tuple(bool(x) for x in field("in_hand")),
        drawn=tuple(int(k) if done else -1 for k, done in zip(drawn, has_drawn, strict=True)),
        history=tuple(tuple(tuple(int(c) for c in seat) for seat in ph) for ph in history),
    )


@cache
def decisions(option_set: str) -> tuple[np.ndarray, np.ndarray]:
    """Observations and masks of real games under ``option_set``: callers (who never fold: the
    draw and the betting after it are reached), rule players and equity bots (bets, raises,
    folds)."""
    options = OPTION_SETS[option_set]
    games = {"caller": 3, "rules": 6, "equity": 4}
    parts = [bot_decisions("draw_poker", bot, n, **options) for bot, n in games.items()]
    return np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])


@pytest.mark.parametrize("option_set", OPTION_SETS)
def test_decode_observations_reads_every_row_as_before(option_set: str) -> None:
    """Every decision of the option set's games (and an all-zero row), in one batch: the same
    views as the one-at-a-time decoder before it, field for field and type for type."""
    observations = decisions(option_set)[0]
    observations = np.concatenate([observations, np.zeros_like(observations[:1])])
    views = decode_observations(observations)
    assert len(views) == len(observations)
    for observation, view in zip(observations, views, strict=True):
        assert repr(view) == repr(reference_decode(observation))  # True is not 1 in a repr
        assert repr(decode_observation(observation)) == repr(view)
    assert decode_observations(observations[:0]) == []
    with pytest.raises(ValueError, match=r"bad observations of shape \(\d+,\)"):
        decode_observations(observations[0])
    with pytest.raises(ValueError, match=r"bad observation of shape \(1, \d+\)"):
        decode_observation(observations[:1])


def make_bots(options: dict[str, Any], kind: type[EquityBot] = EquityBot) -> list[EquityBot]:
    """Differently seeded bots, one with fewer futures and one trusting every bet among them."""
    bots = [kind(seed=seed, samples=60, **options) for seed in range(4)]
    bots.append(kind(seed=10, samples=23, **options))
    bots.append(kind(seed=11, samples=60, trust=1.0, margin=0.0, **options))
    return bots


@pytest.mark.parametrize("option_set", OPTION_SETS)
def test_decisions_cover_the_game(option_set: str) -> None:
    observations, _ = decisions(option_set)
    views = [decode_observation(o) for o in observations]
    assert {view.phase for view in views} >= {PHASE_BET_BEFORE, PHASE_DRAW, PHASE_BET_AFTER}
    assert any(any(view.history[0][k][0] for k in view.opponents_in) for view in views)
    assert any(any(view.drawn[k] >= 0 for k in view.opponents_in) for view in views)


@pytest.mark.parametrize("option_set", OPTION_SETS)
def test_act_batch_equals_act_decision_after_decision(option_set: str) -> None:
    """Each bot of a batch meets its own sequence of decisions (a hand's decisions in order,
    so its cache is hit too), and decides each as a twin asked alone does."""
    observations, masks = decisions(option_set)
    batched, alone = make_bots(OPTION_SETS[option_set]), make_bots(OPTION_SETS[option_set])
    n = len(observations)
    for step in range(n):
        rows = [(step + 7 * i) % n for i in range(len(batched))]
        got = EquityBot.act_batch(batched, observations[rows], masks[rows])
        want = [bot.act(observations[r], masks[r]) for bot, r in zip(alone, rows, strict=True)]
        assert got.dtype == np.int64
        assert got.tolist() == want, f"step {step}"
        assert masks[rows, got].all()


@pytest.mark.parametrize("option_set", OPTION_SETS)
def test_equities_are_the_reference_floats(option_set: str) -> None:
    """Bot by bot, decision after decision: the same equities to the bit as the code before
    batching, and the same actions."""
    observations, masks = decisions(option_set)
    for bot, reference in zip(
        make_bots(OPTION_SETS[option_set]),
        make_bots(OPTION_SETS[option_set], ReferenceEquityBot),
        strict=True,
    ):
        for observation, mask in zip(observations, masks, strict=True):
            view = decode_observation(observation)
            assert np.array_equal(bot._draw_equity(view), reference._draw_equity(view))
            assert bot.act(observation, mask) == reference.act(observation, mask)


def test_act_batch_across_packs_wild_cards_and_bot_classes() -> None:
    """One batch holding bots of three packs and wild-card options, and rules bots, through
    :func:`pokerzoo.envs.core.bots.act_batch`: the rows of each bot as its twin alone."""
    names = ["heads-up", "two decks, jokers"]
    options = [*(OPTION_SETS[name] for name in names), {"deuces_wild": True}]
    games = [decisions(name) for name in names] + [bot_decisions("draw_poker", "rules", 2)]

    def bots() -> list[Any]:
        made: list[Any] = []
        for k, option in enumerate(options):
            made += [EquityBot(seed=k * 10 + i, samples=40, **option) for i in range(3)]
            made.append(RulesBot(**option))
        return made

    batched, alone = bots(), bots()
    length = min(len(game[0]) for game in games)
    for step in range(length):
        observations = np.stack([games[i // 4][0][(step + i) % length] for i in range(12)])
        masks = np.stack([games[i // 4][1][(step + i) % length] for i in range(12)])
        got = act_batch(batched, observations, masks)
        want = [bot.act(o, m) for bot, o, m in zip(alone, observations, masks, strict=True)]
        assert got.tolist() == want


def test_a_bot_in_several_rows_decides_them_in_row_order() -> None:
    observations, masks = decisions("4 players")
    rows = [3, 4, 5, 9, 10]
    twice = [EquityBot(seed=1, samples=30), EquityBot(seed=2, samples=30)]
    bots = [twice[0], twice[1], twice[0], twice[0], twice[1]]
    got = EquityBot.act_batch(bots, observations[rows], masks[rows])
    alone = [EquityBot(seed=1, samples=30), EquityBot(seed=2, samples=30)]
    which = [0, 1, 0, 0, 1]
    want = [alone[w].act(observations[r], masks[r]) for w, r in zip(which, rows, strict=True)]
    assert got.tolist() == want
    assert twice[0]._rng.bit_generator.state == alone[0]._rng.bit_generator.state


def test_a_subclass_deciding_its_own_way_is_asked_row_by_row() -> None:
    observations, masks = decisions("heads-up")
    batched = make_bots({}, ReferenceEquityBot)
    alone = make_bots({}, ReferenceEquityBot)
    got = ReferenceEquityBot.act_batch(batched, observations[: len(batched)], masks[: len(batched)])
    want = [bot.act(o, m) for bot, o, m in zip(alone, observations, masks, strict=False)]
    assert got.tolist() == want


@pytest.mark.parametrize("deuces_wild", [False, True])
def test_caller_keep_many_is_the_reference(deuces_wild: bool, loops_by: str) -> None:
    """The sped-up caller rule keeps what it kept, on hands of a two-deck pack with jokers
    (wild pairs, five wild cards, straights and flushes among them), by numpy and by the
    compiled loop; and both draw the same final hands."""
    rng = np.random.default_rng(3)
    pack = np.repeat(np.arange(53), [2] * 52 + [4])
    hands = np.stack([rng.choice(pack, HAND_SIZE, replace=False) for _ in range(20_000)])
    hands = np.concatenate([hands, [[52, 52, 52, 52, 0], [52, 52, 52, 52, 52], [0, 1, 2, 3, 52]]])
    keep, category = caller_keep_many(hands, deuces_wild)
    want_keep, want_category = reference_caller_keep_many(hands, deuces_wild)
    assert np.array_equal(keep, want_keep) and np.array_equal(category, want_category)
    assert keep.dtype == want_keep.dtype and category.dtype == want_category.dtype
    replacements = rng.integers(0, 53, (len(hands), HAND_SIZE)).astype(np.int16)
    final = caller_draw_many(hands, replacements, keep)
    slot = np.cumsum(~keep, axis=1) - 1
    want = np.where(keep, hands, np.take_along_axis(replacements, np.maximum(slot, 0), axis=1))
    assert final.dtype == np.result_type(hands, replacements) and np.array_equal(final, want)


def test_the_benchmark_prints_its_tables(capsys: pytest.CaptureFixture[str]) -> None:
    """``benchmarks/draw_poker_batches.py`` runs (tiny) and prints both tables, every row."""
    script = benchmark_script("draw_poker_batches")
    script.main(["--episodes", "1", "--repeats", "1", "--sizes", "2,4", "--samples", "20"])
    out = capsys.readouterr().out
    for row in (
        "before batching, alone",
        "act, alone",
        "act_batch, 4 bots",
        "feature set, batches of 2",
    ):
        assert f"| {row}" in out
