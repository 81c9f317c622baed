"""The ``"packs"`` formulation batched: :class:`PackRowEnv` driven through its turns (its bots'
decisions yielded to a vector env) plays the same episodes as through ``reset``/``step``, and the
drafts' observations and the ``"candidates"`` features come out the same bit for bit one at a
time, in batches and as the code before the change (digests pinned with it, and a copy below of
the old ``"plans"``)."""

from __future__ import annotations

import hashlib
from typing import Any

import numpy as np
import pytest
from pokerzoo.envs.core.seat_vector import SeatVectorEnv
from pokerzoo.envs.core.turns import Turns, play_batched, play_turns
from pokerzoo.envs.quintet import NUM_PACKS
from pokerzoo.envs.quintet.env import QuintetEnv
from pokerzoo.training.games.quintet.hooks import (
    _BASE,
    _CURRENT,
    _DEALT,
    _PACK_FEATURES,
    _PACKS,
    NUM_PLANS,
    NUM_STATS,
    deal_plans,
    packs,
    plans,
)
from pokerzoo.training.games.quintet.packs import (
    CONTEXT,
    NUM_ACTIONS,
    ROW,
    PackFormulation,
    PackRowEnv,
    RowDraft,
    encode_draft,
    encode_drafts,
)

from tests.helpers import bot_decisions

OPPONENTS = ("greedy", "sacrifice", "mixed", "best_response", "random")


def old_plans(obs: np.ndarray) -> np.ndarray:
    """The ``"plans"`` features worked out row by row, as before the batched version."""
    n = len(obs)
    base = packs(obs)[:, _BASE:].reshape(n, NUM_PACKS, _PACK_FEATURES)
    extra = np.zeros((n, NUM_PACKS, NUM_PLANS * (2 + NUM_STATS)), dtype=np.float32)
    held = obs[:, _PACKS].reshape(n, NUM_PACKS, 32) > 0
    for i in range(n):
        current = obs[i, _CURRENT]
        if current.sum() == 0:
            continue
        pack_of, stats = deal_plans(obs[i, _DEALT] > 0)
        placed_pack, placed_card = np.nonzero(held[i])
        if placed_card.size:
            agreement = (pack_of[:, placed_card] == placed_pack).mean(axis=1)
        else:
            agreement = np.ones(NUM_PLANS)
        suggested = pack_of[:, int(np.argmax(current))]
        assign = (suggested[None, :] == np.arange(NUM_PACKS)[:, None]) * agreement[None, :]
        per_plan = np.concatenate([stats, agreement[:, None]], axis=1).ravel()
        extra[i, :, :NUM_PLANS] = assign
        extra[i, :, NUM_PLANS:] = per_plan[None, :]
    return np.concatenate([obs, np.concatenate([base, extra], axis=2).reshape(n, -1)], axis=1)


def _drafts(deals: int, seed: int, limits: tuple[int, ...] = (16, 3, 1, 120)) -> list[RowDraft]:
    """Every stage (fresh, each pack taken, arranged, done) of rows laid out with varied picks."""
    rng = np.random.default_rng(seed)
    found = []
    for d in range(deals):
        limit = limits[d % len(limits)]
        cards = rng.choice(32, 25, replace=False) + 20
        for stop in range(6):
            draft = RowDraft(cards, limit)
            picks = np.random.default_rng(d)
            for _ in range(stop):
                draft.commit(int(picks.choice(np.flatnonzero(draft.mask()))))
            found.append(draft)
    return found


def _digest(arrays: list[np.ndarray]) -> str:
    h = hashlib.sha256()
    for array in arrays:
        h.update(str(array.dtype).encode())
        h.update(str(array.shape).encode())
        h.update(array.tobytes())
    return h.hexdigest()[:16]


# --- the observations -----------------------------------------------------------------------------
# The observations of ``_drafts(30, seed=3)`` stacked, ``float32 (180, 8419)``: computed with
# the encoding before the batched one, before the order rows' ``beats`` and ``ties``.
OLD_ENCODING = "7ed5e30aec4cb2e7"
_COMPARED = ROW.size - ROW.start("beats")  # the columns after the old row's end


def _without_comparisons(observations: np.ndarray) -> np.ndarray:
    rows = observations[:, CONTEXT.size :].reshape(len(observations), NUM_ACTIONS, ROW.size)
    old = rows[:, :, : ROW.size - _COMPARED].reshape(len(observations), -1)
    return np.ascontiguousarray(np.concatenate([observations[:, : CONTEXT.size], old], axis=1))


def test_encode_drafts_is_the_old_encoding_row_by_row_in_any_batch() -> None:
    drafts = _drafts(30, seed=3)
    single = np.stack([encode_draft(d) for d in drafts])
    assert single.dtype == np.float32
    assert _digest([_without_comparisons(single)]) == OLD_ENCODING
    order = np.random.default_rng(0).permutation(len(drafts))
    for size in (1, 2, 7, 32, len(drafts)):
        for start in range(0, len(drafts), size):
            chosen = order[start : start + size]
            batch = encode_drafts([drafts[i] for i in chosen])
            assert batch.dtype == np.float32 and batch.tobytes() == single[chosen].tobytes()
    assert encode_drafts([]).shape == (0, single.shape[1])


def test_encode_draft_matches_the_digest_pinned_before_the_change() -> None:
    """Computed with the code before the change (40 deals, every stage of a row; the columns
    before the order rows' comparisons)."""
    rng = np.random.default_rng(2024)
    deals = [rng.choice(32, 25, replace=False) + 20 for _ in range(200)]
    rng.choice(32, 5)  # the deals' generator goes on to other draws there; only the deals matter
    observations = []
    for cards in deals[:40]:
        draft = RowDraft(cards, 16)
        k = 0
        while True:
            observations.append(_without_comparisons(encode_draft(draft)[None])[0])
            if draft.complete:
                break
            legal = np.flatnonzero(draft.mask())
            draft.commit(int(legal[k % len(legal)]))
            k += 7
    assert _digest(observations) == "5bb2d423d5b3c931"


def test_candidates_features_batch_equal_single_rows() -> None:
    features = PackFormulation().features["candidates"]
    observations = encode_drafts(_drafts(12, seed=8))
    batch = features(observations)
    assert batch.tobytes() == observations.tobytes()
    for i in range(0, len(observations), 5):
        assert features(observations[i]).tobytes() == observations[i].tobytes()


def test_plans_features_batch_equal_the_old_rows() -> None:
    """Every decision of two real games (both seats: cards placed, none placed, the end)."""
    obs, _ = bot_decisions("quintet", "greedy", 2)
    obs = np.concatenate([obs, obs[-1:]])  # a repeated row too
    old = old_plans(obs)
    assert plans(obs).tobytes() == old.tobytes()
    for i in range(0, len(obs), 9):
        assert plans(obs[i]).tobytes() == old[i].tobytes()
    done = obs[-1].copy()
    done[_CURRENT] = 0  # a player with nothing left to place
    assert plans(done[None]).tobytes() == old_plans(done[None]).tobytes()


# --- the env's turns ------------------------------------------------------------------------------
def _episode_by_step(env: PackRowEnv, seed: int, actions: np.random.Generator) -> list[Any]:
    observation, info = env.reset(seed=seed)
    trace: list[Any] = [observation, info]
    done = False
    while not done:
        action = int(actions.choice(np.flatnonzero(info["action_mask"])))
        observation, reward, terminated, truncated, info = env.step(action)
        trace += [action, observation, reward, terminated, truncated, info]
        done = terminated or truncated
    return trace


def _episode_by_turns(env: PackRowEnv, seed: int, actions: np.random.Generator) -> list[Any]:
    observation, info = play_turns(env.reset_turns(seed=seed))
    trace: list[Any] = [observation, info]
    done = False
    while not done:
        action = int(actions.choice(np.flatnonzero(info["action_mask"])))
        turns = env.step_turns(action)
        observation, reward, terminated, truncated, info = play_turns(turns)
        trace += [action, observation, reward, terminated, truncated, info]
        done = terminated or truncated
    return trace


def _same(a: Any, b: Any) -> None:
    if isinstance(a, tuple | list):
        assert type(a) is type(b) and len(a) == len(b)
        for x, y in zip(a, b, strict=True):
            _same(x, y)
    elif isinstance(a, dict):
        assert a.keys() == b.keys()
        for key in a:
            _same(a[key], b[key])
    elif isinstance(a, np.ndarray | np.generic):
        assert np.asarray(a).dtype == np.asarray(b).dtype
        assert np.asarray(a).tobytes() == np.asarray(b).tobytes()
    else:
        assert type(a) is type(b) and a == b


@pytest.mark.parametrize("opponent", OPPONENTS)
def test_turns_play_the_same_episodes_as_reset_and_step(opponent: str) -> None:
    by_step = PackRowEnv(QuintetEnv(opponent=opponent))
    by_turns = PackRowEnv(QuintetEnv(opponent=opponent))
    for seed in range(4):
        a = _episode_by_step(by_step, seed, np.random.default_rng(seed))
        b = _episode_by_turns(by_turns, seed, np.random.default_rng(seed))
        assert len(a) == len(b)
        for x, y in zip(a, b, strict=True):
            _same(x, y)


def _answer_counting(turns: Turns[Any]) -> tuple[Any, int]:
    """``turns`` played out, each bot answering its own decision: the result and the number
    of decisions asked."""
    asked = 0
    try:
        bot, observation, mask = next(turns)
        while True:
            asked += 1
            bot, observation, mask = turns.send(bot.act(observation, mask))
    except StopIteration as done:
        return done.value, asked


def test_turns_yield_every_bot_decision_of_the_row() -> None:
    env = PackRowEnv(QuintetEnv(opponent="greedy"))
    (_, info), before = _answer_counting(env.reset_turns(seed=0))
    for _ in range(4):
        env.step(int(np.flatnonzero(info["action_mask"])[0]))
    (_, _, terminated, _, _), after = _answer_counting(env.step_turns(0))
    # the opponent's 25 cards, before or after the learner's
    assert terminated and before + after == 25


def test_tables_played_together_replay_each_table_alone() -> None:
    """Several tables' turns answered in batches (:func:`play_batched`, the bots of a class in
    one ``act_batch`` call) and a :class:`SeatVectorEnv` of them: each table's episodes are its
    own env's through ``reset``/``step``."""
    tables = [PackRowEnv(QuintetEnv(opponent=name)) for name in OPPONENTS * 2]
    alone = [PackRowEnv(QuintetEnv(opponent=name)) for name in OPPONENTS * 2]
    starts = play_batched([t.reset_turns(seed=10 + i) for i, t in enumerate(tables)])
    expected = [env.reset(seed=10 + i) for i, env in enumerate(alone)]
    for got, want in zip(starts, expected, strict=True):
        _same(got, want)
    picks = np.random.default_rng(1)
    for _ in range(NUM_PACKS):
        masks = [t.action_masks() for t in tables]
        actions = [int(picks.choice(np.flatnonzero(m))) for m in masks]
        got = play_batched([t.step_turns(a) for t, a in zip(tables, actions, strict=True)])
        want = [env.step(a) for env, a in zip(alone, actions, strict=True)]
        for g, w in zip(got, want, strict=True):
            _same(g, w)

    vector = SeatVectorEnv([PackRowEnv(QuintetEnv(opponent=n)) for n in OPPONENTS])
    singles = [PackRowEnv(QuintetEnv(opponent=n)) for n in OPPONENTS]
    observations, _ = vector.reset(seed=20)
    for i, env in enumerate(singles):
        observation, _ = env.reset(seed=20 + i)
        assert observation.tobytes() == observations[i].tobytes()
    for _ in range(NUM_PACKS):
        actions = np.array(
            [int(picks.choice(np.flatnonzero(m))) for m in vector.action_masks()], dtype=np.int64
        )
        observations, rewards, terminated, _, _ = vector.step(actions)
        for i, env in enumerate(singles):
            observation, reward, ended, _, _ = env.step(int(actions[i]))
            assert observation.tobytes() == observations[i].tobytes()
            assert reward == rewards[i] and ended == terminated[i]
    vector.close()
