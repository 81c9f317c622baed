"""Poker without a name's ``"odds"`` and ``"reach"`` features over a batch: every row is exactly
its observation's features alone, and exactly the values of the per-observation code they
replaced, whether the batch's play-outs are played one by one or together with numpy."""

from __future__ import annotations

import hashlib
from functools import cache

import numpy as np
import pytest
from pokerzoo.training.games.nameless_poker import odds
from pokerzoo.training.games.nameless_poker.odds import odds_features
from pokerzoo.training.games.nameless_poker.reach import REACH, reach_features

from tests.helpers import bot_decisions

REACH_DIGEST = "fb9d7ce79d1a036a852e8387547b089b6fe3f1432250dccd2d10799125ee8507"
"""SHA-256 of ``reach_features`` of the 824 decisions of :func:`_decisions` (float32 bytes),
computed with the per-observation code before the batched play-outs (its first columns are the
``"odds"`` features, so this pins them too)."""


@cache
def _decisions() -> np.ndarray:
    """Every decision of one 30-deal game of four rules bots: bids, cards, every deal kind."""
    return bot_decisions("nameless_poker", "rules", 1)[0]


def _digest(values: np.ndarray) -> str:
    return hashlib.sha256(np.ascontiguousarray(values, dtype=np.float32).tobytes()).hexdigest()


def test_reach_over_every_decision_is_the_old_codes() -> None:
    """The whole game as one batch (its play-outs together, with numpy) gives, bit for bit,
    the features the per-observation code gave."""
    observations = _decisions()
    assert len(observations) == 824
    assert _digest(reach_features(observations)) == REACH_DIGEST
    assert _digest(REACH(observations)) == REACH_DIGEST


@pytest.mark.parametrize("batch_worlds", [0, 10**9])  # numpy play-outs always; never
@pytest.mark.parametrize("features", [odds_features, reach_features])
def test_a_batch_row_is_the_observation_alone(
    monkeypatch: pytest.MonkeyPatch, batch_worlds: int, features: object, loops_by: str
) -> None:
    """Batches of 8 and 32 observations, their play-outs together or one by one, give every
    row exactly the features of its observation alone (the default way: few play-outs, one by
    one, as the code always played them)."""
    observations = _decisions()
    alone = {i: features(observations[i]) for i in range(0, len(observations), 7)}
    monkeypatch.setattr(odds, "BATCH_WORLDS", batch_worlds)
    for size in (8, 32):
        for start in range(0, len(observations) - size, 7 * size):
            batch = features(observations[start : start + size])
            for i in range(start, start + size):
                if i in alone:
                    assert np.array_equal(batch[i - start], alone[i])


def test_a_batch_in_another_order_gives_the_same_rows(monkeypatch: pytest.MonkeyPatch) -> None:
    """A row's samples come from its own observation's generator: shuffling the batch
    (repeats included) moves the rows and changes no value."""
    monkeypatch.setattr(odds, "BATCH_WORLDS", 0)
    observations = _decisions()[100:164]
    order = np.random.default_rng(3).integers(0, len(observations), size=96)
    straight = reach_features(observations)
    assert np.array_equal(reach_features(observations[order]), straight[order])
