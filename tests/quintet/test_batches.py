"""Quintet's batched and faster paths decide exactly as before: the planning bots' ``act_batch``
against twins deciding alone, and the analysis and pack search against copies of the code they
replace (kept below) and digests pinned before the change."""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Sequence
from dataclasses import fields
from math import comb

import numpy as np
import pytest
from pokerzoo.agents.quintet import BOTS, BestResponseBot, GreedyBot
from pokerzoo.envs.core.bots import act_batch
from pokerzoo.envs.core.hands import evaluate
from pokerzoo.envs.quintet.analysis import (
    BEST_RESPONSE_SAMPLES,
    BEST_RESPONSE_SWAPS,
    ORDERS,
    best_response_plan,
    best_response_plans,
    greedy_packs,
    mix_opponents,
    ordered,
    strongest_pack,
)
from pokerzoo.envs.quintet.packs import NUM_GROUPS, Candidates, candidate_packs, pack_table

from tests.helpers import bot_decisions

PLANNING = ("greedy", "sacrifice", "mixed", "best_response")
_POINTS = np.array([3, 4, 5, 6, 7], dtype=np.int64)


# --- the code the fast paths replace, as it was ---------------------------------------------------
def old_greedy_packs(cards: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    rest = np.asarray(cards, dtype=np.int64)
    packs = np.empty((5, 5), dtype=np.int64)
    keys = np.empty(5, dtype=np.int64)
    for p in range(5):
        packs[p], keys[p] = strongest_pack(rest)
        rest = np.setdiff1d(rest, packs[p])
    return packs, keys


def _old_mix_value(
    rows: np.ndarray, opponents: np.ndarray, weights: np.ndarray, objective: str
) -> np.ndarray:
    margin = (np.sign(rows[:, None, :] - opponents[None, :, :]) * _POINTS).sum(axis=-1)
    if objective == "win":
        margin = np.sign(margin)
    return margin @ weights


def old_best_response_plan(
    packs: np.ndarray,
    keys: np.ndarray,
    rng: np.random.Generator,
    *,
    objective: str = "points",
    samples: int = BEST_RESPONSE_SAMPLES,
    max_swaps: int = BEST_RESPONSE_SWAPS,
) -> np.ndarray:
    opponents, weights = mix_opponents(keys, objective, rng, samples)
    values = _old_mix_value(keys[ORDERS], opponents, weights, objective)
    row = ordered(packs, ORDERS[int(np.argmax(values))])
    row_keys = evaluate(row, "quintet")
    best = float(values.max())
    pairs = [(a, b) for a in range(5) for b in range(a + 1, 5)]
    slots = [(i, j) for i in range(5) for j in range(5)]
    swaps = np.array([(a, b, i, j) for a, b in pairs for i, j in slots], dtype=np.intp)
    a, b, i, j = swaps.T
    n = len(swaps)
    for _ in range(max_swaps):
        new_a = row[a].copy()
        new_b = row[b].copy()
        new_a[np.arange(n), i] = row[b, j]
        new_b[np.arange(n), j] = row[a, i]
        new_keys = evaluate(np.vstack([new_a, new_b]), "quintet")
        rows = np.repeat(row_keys[None, :], n, axis=0)
        rows[np.arange(n), a] = new_keys[:n]
        rows[np.arange(n), b] = new_keys[n:]
        values = _old_mix_value(rows, opponents, weights, objective)
        k = int(np.argmax(values))
        if values[k] <= best + 1e-9:
            break
        row[a[k]], row[b[k]] = new_a[k], new_b[k]
        row_keys = rows[k]
        values = _old_mix_value(row_keys[ORDERS], opponents, weights, objective)
        order = ORDERS[int(np.argmax(values))]
        row, row_keys, best = row[order], row_keys[order], float(values.max())
    return row


def old_candidate_packs(cards: np.ndarray, limit: int = 16) -> Candidates:
    """The subsets' enumeration (pokerzoo/envs/quintet/packs.py before the ranked list)."""
    binom = np.array([[comb(n, k + 1) for n in range(32)] for k in range(5)])
    positions = np.sort(np.asarray(cards, dtype=np.int64) - 20)
    slots = np.array(list(itertools.combinations(range(len(positions)), 5)), dtype=np.intp).T
    index = binom[0][positions][slots[0]]
    for k in range(1, 5):
        index = index + binom[k][positions][slots[k]]
    table = pack_table()
    scores = table.scores[index]
    groups = table.groups[index]
    best = np.full(NUM_GROUPS, -1, dtype=np.int64)
    np.maximum.at(best, groups, scores)
    hits = np.flatnonzero(scores == best[groups])
    found, first = np.unique(groups[hits], return_index=True)
    chosen = hits[first][np.argsort(-best[found], kind="stable")][:limit]
    counts = np.bincount(groups, minlength=NUM_GROUPS)
    stronger = np.cumsum(counts[::-1])[::-1] - counts
    masks = table.masks[index]
    rest = np.full(len(chosen), -1, dtype=np.int64)
    for r, mask in enumerate(table.masks[index[chosen]].tolist()):
        free = np.flatnonzero((masks & mask) == 0)
        if free.size:
            rest[r] = free[int(np.argmax(scores[free]))]
    found = rest >= 0
    return Candidates(
        packs=positions[slots[:, chosen]].T + 20,
        keys=table.keys[index[chosen]],
        groups=groups[chosen],
        stronger=stronger[groups[chosen]],
        rest_packs=np.where(found[:, None], positions[slots[:, rest]].T + 20, -1),
        rest_keys=np.where(found, table.keys[index[rest]], -1),
        rest_groups=np.where(found, groups[rest], -1),
        total=len(index),
    )


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


def _same_candidates(found: Candidates, expected: Candidates) -> None:
    for field in fields(Candidates):
        got, want = getattr(found, field.name), getattr(expected, field.name)
        if isinstance(want, np.ndarray):
            assert got.dtype == want.dtype and got.shape == want.shape, field.name
            np.testing.assert_array_equal(got, want, err_msg=field.name)
        else:
            assert type(got) is type(want) and got == want, field.name


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
    for s, (p, k) in enumerate(greedy):
        old = old_best_response_plan(p, k, np.random.default_rng(s), **options)
        np.testing.assert_array_equal(batch[s], old)
        np.testing.assert_array_equal(
            best_response_plan(p, k, np.random.default_rng(s), **options), old
        )


def test_candidate_packs_are_the_subsets_enumerations() -> None:
    rng = np.random.default_rng(9)
    for _ in range(120):
        cards = rng.choice(32, int(rng.integers(5, 33)), replace=False) + 20
        for limit in (1, 4, 16, 120):
            _same_candidates(candidate_packs(cards, limit), old_candidate_packs(cards, limit))


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
