"""Quintet's batched and faster paths decide exactly as before: the planning bots' ``act_batch``
against twins deciding alone, and the analysis and pack search against a copy of the code they
replace (kept below) and digests pinned before the change (with that code, on the same inputs)."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import fields

import numpy as np
import pytest
from pokerzoo.agents.quintet import BOTS, BestResponseBot, GreedyBot
from pokerzoo.envs.core import jit
from pokerzoo.envs.core.bots import act_batch
from pokerzoo.envs.quintet.analysis import (
    best_response_plan,
    best_response_plans,
    greedy_packs,
    strongest_pack,
)
from pokerzoo.envs.quintet.packs import Candidates, candidate_packs

from tests.helpers import bot_decisions

PLANNING = ("greedy", "sacrifice", "mixed", "best_response")


# --- the code the fast paths replace, as it was ---------------------------------------------------
def old_greedy_packs(cards: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    rest = np.asarray(cards, dtype=np.int64)
    packs = np.empty((5, 5), dtype=np.int64)
    keys = np.empty(5, dtype=np.int64)
    for p in range(5):
        packs[p], keys[p] = strongest_pack(rest)
        rest = np.setdiff1d(rest, packs[p])
    return packs, keys


# --- helpers --------------------------------------------------------------------------------------
def _digest(arrays: Sequence[np.ndarray]) -> str:
    h = hashlib.sha256()
    for array in arrays:
        array = np.asarray(array)
        h.update(str(array.dtype).encode())
        h.update(str(array.shape).encode())
        h.update(array.tobytes())
    return h.hexdigest()[:16]


def _deals(count: int, seed: int = 2024) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    return [rng.choice(32, 25, replace=False) + 20 for _ in range(count)]


@pytest.fixture(scope="module")
def decisions() -> tuple[np.ndarray, np.ndarray]:
    """Every decision of 12 real games (both seats, random play): 600 rows."""
    return bot_decisions("quintet", "random", 12)


# --- the analysis ---------------------------------------------------------------------------------
def test_greedy_packs_are_the_subsets_enumerations() -> None:
    rng = np.random.default_rng(5)
    for cards in _deals(400, seed=5):
        packs, keys = greedy_packs(cards)
        old_packs, old_keys = old_greedy_packs(cards)
        assert packs.dtype == old_packs.dtype and keys.dtype == old_keys.dtype
        np.testing.assert_array_equal(packs, old_packs)
        np.testing.assert_array_equal(keys, old_keys)
    more = rng.choice(32, 27, replace=False) + 20  # not 25 cards: the enumeration itself
    np.testing.assert_array_equal(greedy_packs(more)[0], old_greedy_packs(more)[0])


# Computed with the code the fast paths replace (the old plan one deal at a time, the subsets'
# enumeration) on the inputs of the two tests below.
OLD_RESULTS = {
    ("points", 16, 40): "e06295f0a0a1fce2",
    ("points", 3, 2): "8a1f1b90aa895bdb",
    ("points", 1, 0): "389fdc58b7092923",
    ("win", 16, 40): "3112ee2061b8fc7a",
    ("win", 3, 2): "08e59ede9b3bd9b2",
    ("win", 1, 0): "1bb8c0a4a4f4293c",
    "candidate_packs": "85b430ba706346a5",
}


@pytest.mark.parametrize("objective", ["points", "win"])
@pytest.mark.parametrize(("samples", "max_swaps"), [(16, 40), (3, 2), (1, 0)])
def test_best_response_plans_are_the_old_plan_one_deal_at_a_time(
    objective: str, samples: int, max_swaps: int
) -> None:
    deals = _deals(24, seed=11)
    greedy = [greedy_packs(cards) for cards in deals]
    packs = np.stack([p for p, _ in greedy])
    keys = np.stack([k for _, k in greedy])
    options = {"objective": objective, "samples": samples, "max_swaps": max_swaps}
    batch = best_response_plans(
        packs, keys, [np.random.default_rng(s) for s in range(len(deals))], **options
    )
    alone = [
        best_response_plan(p, k, np.random.default_rng(s), **options)
        for s, (p, k) in enumerate(greedy)
    ]
    for s in range(len(deals)):
        np.testing.assert_array_equal(batch[s], alone[s])
    assert _digest(alone) == OLD_RESULTS[(objective, samples, max_swaps)]


@pytest.mark.parametrize("by", ["numpy", "compiled"])
def test_candidate_packs_are_the_subsets_enumerations(
    monkeypatch: pytest.MonkeyPatch, by: str
) -> None:
    """Every field of the candidates of 120 card sets (5 to 32 cards) at four limits, by the
    numpy scans and by numba's loops (:mod:`pokerzoo.envs.quintet.compiled`), is what the
    subsets' enumerations gave."""
    if by == "compiled" and not jit.available():
        pytest.skip("numba is not installed")
    monkeypatch.setattr(jit, "AVAILABLE", by == "compiled")
    rng = np.random.default_rng(9)
    arrays: list[np.ndarray] = []
    for _ in range(120):
        cards = rng.choice(32, int(rng.integers(5, 33)), replace=False) + 20
        for limit in (1, 4, 16, 120):
            found = candidate_packs(cards, limit)
            assert type(found.total) is int
            arrays += [getattr(found, f.name) for f in fields(Candidates) if f.name != "total"]
            arrays.append(np.int64(found.total))
    assert _digest(arrays) == OLD_RESULTS["candidate_packs"]


# Computed with the code before the change (the subsets' enumerations, the old bots).
PINNED = {
    "greedy_packs": "1a892e33932e6093",
    "candidate_packs": "34b100e61713bce0",
    "greedy/points": "550c6f82582c837a",
    "greedy/win": "550c6f82582c837a",
    "sacrifice/points": "8213beced96d0880",
    "sacrifice/win": "8213beced96d0880",
    "mixed/points": "5764a0195ed864e0",
    "mixed/win": "0d446729390bdb24",
    "best_response/points": "7a906bb2fbaa9e41",
    "best_response/win": "bee20d674837ff9a",
}


def test_packs_and_plans_match_the_digests_pinned_before_the_change() -> None:
    rng = np.random.default_rng(2024)
    deals = [rng.choice(32, 25, replace=False) + 20 for _ in range(200)]
    found = {"greedy_packs": _digest([x for d in deals for x in greedy_packs(d)])}
    sets = [rng.choice(32, int(rng.integers(5, 33)), replace=False) + 20 for _ in range(150)]
    arrays = []
    for cards in sets:
        for limit in (1, 5, 16):
            c = candidate_packs(cards, limit)
            arrays += [c.packs, c.keys, c.groups, c.stronger, c.rest_packs, c.rest_keys]
            arrays += [c.rest_groups, np.int64(c.total)]
    found["candidate_packs"] = _digest(arrays)
    for name in PLANNING:
        for reward in ("points", "win"):
            bot = BOTS[name](seed=7, reward=reward)
            rows = [bot.plan(np.sort(d).astype(np.int64)) for d in deals[:60]]
            found[f"{name}/{reward}"] = _digest(rows)
    assert found == PINNED


# --- the bots -------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", PLANNING)
@pytest.mark.parametrize("reward", ["points", "win"])
def test_act_batch_decides_as_twins_alone(
    name: str, reward: str, decisions: tuple[np.ndarray, np.ndarray]
) -> None:
    """Five bots, each seeded differently and each on its own game (so some start a deal while
    others follow their plan), against twins deciding alone, decision after decision."""
    obs, masks = decisions
    size = 5
    bots = [BOTS[name](seed=s, reward=reward) for s in range(size)]
    twins = [BOTS[name](seed=s, reward=reward) for s in range(size)]
    rows = (np.arange(len(obs))[:, None] + 37 * np.arange(size)[None, :]) % len(obs)
    for step in rows:
        batch = type(bots[0]).act_batch(bots, obs[step], masks[step])
        alone = [twin.act(obs[r], masks[r]) for twin, r in zip(twins, step, strict=True)]
        assert batch.dtype == np.int64
        assert batch.tolist() == alone


def test_act_batch_of_mixed_classes_and_options_decides_as_alone(
    decisions: tuple[np.ndarray, np.ndarray],
) -> None:
    """Through the env's dispatcher, several classes and best-response options in one call."""
    obs, masks = decisions

    def make() -> list:
        return [
            GreedyBot(seed=1),
            BestResponseBot(seed=2),
            BOTS["mixed"](seed=3, reward="win"),
            BestResponseBot(seed=4, reward="win"),
            BestResponseBot(seed=5, samples=3, max_swaps=2),
            BOTS["sacrifice"](seed=6),
            BestResponseBot(seed=7),
        ]

    bots, twins = make(), make()
    rows = (np.arange(0, len(obs), 3)[:, None] + 51 * np.arange(len(bots))[None, :]) % len(obs)
    for step in rows:
        batch = act_batch(bots, obs[step], masks[step])
        alone = [twin.act(obs[r], masks[r]) for twin, r in zip(twins, step, strict=True)]
        assert batch.tolist() == alone


def test_a_bot_in_two_rows_decides_row_after_row(
    decisions: tuple[np.ndarray, np.ndarray],
) -> None:
    obs, masks = decisions
    bot, twin = BestResponseBot(seed=3), BestResponseBot(seed=3)
    for start in range(0, 100, 10):
        step = [start, start + 1, start + 60]
        batch = BestResponseBot.act_batch([bot, bot, bot], obs[step], masks[step])
        assert batch.tolist() == [twin.act(obs[r], masks[r]) for r in step]


def test_act_batch_falls_back_to_the_top_pack_and_checks_shapes(
    decisions: tuple[np.ndarray, np.ndarray],
) -> None:
    obs, masks = decisions
    bots = [GreedyBot(seed=0), GreedyBot(seed=1)]
    closed = masks[:2].copy()
    closed[:, :] = False
    closed[:, 2] = True  # the planned pack may be masked: the highest legal one is taken
    assert GreedyBot.act_batch(bots, obs[:2], closed).tolist() == [2, 2]
    with pytest.raises(ValueError, match="no legal action"):
        GreedyBot.act_batch(bots, obs[:2], np.zeros_like(closed))
    with pytest.raises(ValueError, match="shape"):
        GreedyBot.act_batch(bots, obs[:2, :10], closed)
    with pytest.raises(ValueError, match="shape"):
        bots[0].act(obs[0, :10], closed[0])
