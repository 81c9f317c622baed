"""Five-card stud's equity bot batched: :meth:`EquityBot.act_batch` decides as its bots alone
would, decision after decision, and its equities are the floats of the implementation before
batching (kept here as :class:`ReferenceEquityBot`) to the bit, under every option set of the
game's spec, on every street, heads-up and at bigger tables."""

from __future__ import annotations

import dataclasses
from functools import cache

import numpy as np
import pytest
from pokerzoo.agents.five_card_stud import BOTS, EquityBot, _equities
from pokerzoo.envs.core.bots import act_batch
from pokerzoo.envs.core.cards import NUM_CARD_IDS, Deck
from pokerzoo.envs.core.hands import evaluate, qualifies_low
from pokerzoo.envs.five_card_stud import (
    LAYOUT,
    FiveCardStudView,
    decode_observation,
    decode_observations,
)
from pokerzoo.envs.five_card_stud.spec import SPEC

from tests.helpers import bot_decisions

OPTION_SETS = dict(SPEC.option_sets)


class ReferenceEquityBot(EquityBot):
    """The equity bot as it was before batching (the code verbatim): the reference the batched
    and the single path must match bit for bit."""

    def equity(self, view: FiveCardStudView) -> float:
        known = [view.own_cards] + [view.up[k] for k in view.opponents_in]
        seen = np.zeros(NUM_CARD_IDS, dtype=np.int64)
        for cards in (view.hole, *view.up):
            np.add.at(seen, list(cards), 1)
        counts = Deck(jokers=view.jokers).counts.astype(np.int64) - seen
        pool = np.repeat(np.arange(NUM_CARD_IDS, dtype=np.int16), counts)
        missing = [5 - len(cards) for cards in known]
        drawn = self.rng.permuted(np.tile(pool, (self.samples, 1)), axis=1)
        hands = np.empty((self.samples, len(known), 5), dtype=np.int16)
        start = 0
        for i, cards in enumerate(known):
            hands[:, i, : len(cards)] = cards
            hands[:, i, len(cards) :] = drawn[:, start : start + missing[i]]
            start += missing[i]
        flat = hands.reshape(-1, 5)
        high = evaluate(flat, "standard", deuces_wild=view.deuces_wild).reshape(hands.shape[:2])
        share = _reference_share(high)
        if view.hi_lo and self.hi_lo_aware:
            low = evaluate(flat, "low", deuces_wild=view.deuces_wild).reshape(hands.shape[:2])
            qualified = np.asarray(qualifies_low(low, view.low_qualifier))
            low = np.where(qualified, low, -1)
            any_low = qualified.any(axis=1)
            share = np.where(any_low, 0.5 * share + 0.5 * _reference_share(low), share)
        return float(share.mean())


def _reference_share(keys: np.ndarray) -> np.ndarray:
    best = keys.max(axis=1, keepdims=True)
    winners = keys == best
    return winners[:, 0] / winners.sum(axis=1)


@cache
def decisions(option_set: str) -> tuple[np.ndarray, np.ndarray]:
    """Observations and masks of real games under ``option_set``: callers (every street is
    reached) and rule players (folds, raises)."""
    options = OPTION_SETS[option_set]
    parts = [bot_decisions("five_card_stud", bot, 2, **options) for bot in ("caller", "rules")]
    return np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])


def make_bots(options: dict, kind: type = EquityBot) -> list[EquityBot]:
    """Differently seeded bots, one high-low blind and one with fewer samples among them."""
    bots = [kind(seed=seed, samples=120, **options) for seed in range(4)]
    bots.append(kind(seed=10, samples=120, hi_lo_aware=False, **options))
    bots.append(kind(seed=11, samples=37, **options))
    return bots


@pytest.mark.parametrize("option_set", OPTION_SETS)
def test_decisions_cover_the_game(option_set: str) -> None:
    observations, _ = decisions(option_set)
    views = [decode_observation(o) for o in observations]
    assert {view.round for view in views} == {0, 1, 2, 3}
    assert (
        max(len(view.opponents_in) for view in views)
        == OPTION_SETS[option_set].get("num_players", 2) - 1
    )


def same_view(a: FiveCardStudView, b: FiveCardStudView) -> bool:
    fields = dataclasses.fields(FiveCardStudView)
    plain = all(getattr(a, f.name) == getattr(b, f.name) for f in fields if f.name != "history")
    history = a.history.dtype == b.history.dtype and np.array_equal(a.history, b.history)
    return plain and history and a.history.flags.c_contiguous


def test_decode_observations_reads_every_row_as_decode_observation() -> None:
    """Every option set's decisions (2-10 seats, wild cards, high-low, the last card down),
    the all-zero observation of a game that is over among them, in one batch."""
    observations = np.concatenate(
        [decisions(name)[0] for name in OPTION_SETS] + [np.zeros((1, LAYOUT.size), np.float32)]
    )
    views = decode_observations(observations)
    assert len(views) == len(observations)
    for observation, view in zip(observations, views, strict=True):
        assert same_view(view, decode_observation(observation))
    assert decode_observations(observations[:0]) == []
    with pytest.raises(ValueError, match=r"shape \(M, 852\), got \(852,\)"):
        decode_observations(observations[0])


@pytest.mark.parametrize("option_set", OPTION_SETS)
def test_act_batch_equals_act_decision_after_decision(option_set: str) -> None:
    options = OPTION_SETS[option_set]
    observations, masks = decisions(option_set)
    batched, alone = make_bots(options), make_bots(options)
    n = len(batched)
    for start in range(0, len(observations), 9):  # batches of 9 rows: some bots twice in one
        rows = range(start, min(start + 9, len(observations)))
        bots = [batched[(start + r) % n] for r in range(len(rows))]
        got = EquityBot.act_batch(
            bots, observations[rows.start : rows.stop], masks[rows.start : rows.stop]
        )
        want = [alone[(start + r) % n].act(observations[i], masks[i]) for r, i in enumerate(rows)]
        assert got.dtype == np.int64 and got.tolist() == want


def test_act_batch_across_option_sets_and_bot_classes() -> None:
    """One :func:`act_batch` call over every option set's rows (wild and natural, high-low and
    not) with rule players among the equity bots: the same as every bot alone."""
    observations = np.concatenate([decisions(name)[0][::3] for name in OPTION_SETS])
    masks = np.concatenate([decisions(name)[1][::3] for name in OPTION_SETS])
    pool = [BOTS["rules"](seed=0)] + make_bots({})
    twins = [BOTS["rules"](seed=0)] + make_bots({})
    for start in range(0, len(observations), 16):
        rows = range(start, min(start + 16, len(observations)))
        picks = [(start + 3 * r) % len(pool) for r in range(len(rows))]
        got = act_batch([pool[p] for p in picks], observations[rows.start : rows.stop],
                        masks[rows.start : rows.stop])  # fmt: skip
        want = [twins[p].act(observations[i], masks[i]) for p, i in zip(picks, rows, strict=True)]
        assert got.tolist() == want


@pytest.mark.parametrize("option_set", OPTION_SETS)
def test_equities_are_the_reference_floats(option_set: str) -> None:
    """The single path, the batched scoring and the code before batching agree to the bit, and
    so do their decisions."""
    options = OPTION_SETS[option_set]
    observations, masks = decisions(option_set)
    views = [decode_observation(o) for o in observations]
    reference, single, batched = (make_bots(options, kind) for kind in
                                  (ReferenceEquityBot, EquityBot, EquityBot))  # fmt: skip
    n = len(single)
    want = [reference[i % n].equity(view) for i, view in enumerate(views)]
    assert [single[i % n].equity(view) for i, view in enumerate(views)] == want
    deals = [batched[i % n]._deal(view) for i, view in enumerate(views)]
    aware = [batched[i % n].hi_lo_aware for i in range(len(views))]
    got = _equities(deals, views, aware)
    assert got.tolist() == want
    reference, single = make_bots(options, ReferenceEquityBot), make_bots(options)
    for i, (observation, mask) in enumerate(zip(observations, masks, strict=True)):
        assert single[i % n].act(observation, mask) == reference[i % n].act(observation, mask)


def test_a_subclass_deciding_its_own_way_is_asked_row_by_row() -> None:
    observations, masks = decisions("high-low")
    batched = make_bots(OPTION_SETS["high-low"], ReferenceEquityBot)
    alone = make_bots(OPTION_SETS["high-low"], ReferenceEquityBot)
    got = ReferenceEquityBot.act_batch(batched, observations[: len(batched)], masks[: len(batched)])
    want = [bot.act(o, m) for bot, o, m in zip(alone, observations, masks, strict=False)]
    assert got.tolist() == want
