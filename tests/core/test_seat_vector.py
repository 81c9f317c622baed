"""The vector env of bot tables (``envs/core/seat_vector.py``) for every game of several players
in the registry: each table replays its single env exactly (seeded ``seed + i``), in every
autoreset mode; batched bots decide as they do alone; errors change nothing."""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode
from pokerzoo.envs.core.bots import RandomBot, act_batch
from pokerzoo.envs.core.errors import GameOverError, IllegalActionError
from pokerzoo.envs.core.registry import games
from pokerzoo.envs.core.seat_vector import SeatVectorEnv

from tests.helpers import bot_decisions, random_action

MULTI = sorted(name for name, spec in games().items() if spec.players > 1 and spec.single)
TABLES = 3


def _tables(game: str, count: int = TABLES, **options: Any) -> list[Any]:
    spec = games()[game]
    return [spec.make_single(opponent="random", **options) for _ in range(count)]


def _same_info(vector_info: dict[str, Any], i: int, single_info: dict[str, Any]) -> None:
    for key, value in single_info.items():
        assert vector_info["_" + key][i], key
        np.testing.assert_array_equal(vector_info[key][i], value, err_msg=key)


def _pick(rng: np.random.Generator, mask: np.ndarray) -> int:
    """A random legal action, 0 for a table whose game is over (its action is ignored)."""
    return random_action(rng, mask) if mask.any() else 0


@pytest.mark.parametrize("mode", ["NextStep", "SameStep"])
@pytest.mark.parametrize("game", MULTI)
def test_each_table_replays_its_single_env(game: str, mode: str) -> None:
    vector = SeatVectorEnv(_tables(game), autoreset_mode=mode)
    singles = _tables(game)
    observations, info = vector.reset(seed=40)
    for i, single in enumerate(singles):
        single_observation, single_info = single.reset(seed=40 + i)
        np.testing.assert_array_equal(observations[i], single_observation)
        _same_info(info, i, single_info)
    rngs = [np.random.default_rng(i) for i in range(TABLES)]
    ended = np.zeros(TABLES, dtype=bool)
    games_ended = 0
    for _ in range(2000):  # until two games have ended (autoreset exercised), or give up
        if games_ended >= 2:
            break
        masks = vector.action_masks()
        actions = np.array([_pick(rng, mask) for rng, mask in zip(rngs, masks, strict=True)])
        observations, rewards, terminated, truncated, info = vector.step(actions)
        for i, single in enumerate(singles):
            if ended[i]:  # "NextStep": dealt again, the action ignored
                single_observation, single_info = single.reset()
                expected = (single_observation, 0.0, False, False, single_info)
            else:
                expected = single.step(int(actions[i]))
            single_observation, reward, term, trunc, single_info = expected
            assert (rewards[i], terminated[i], truncated[i]) == (reward, term, trunc)
            if mode == "SameStep" and (term or trunc):
                np.testing.assert_array_equal(info["final_obs"][i], single_observation)
                _same_info(info["final_info"], i, single_info)
                single_observation, single_info = single.reset()
            np.testing.assert_array_equal(observations[i], single_observation)
            _same_info(info, i, single_info)
        ended = (terminated | truncated) if mode == "NextStep" else np.zeros(TABLES, dtype=bool)
        games_ended += int((terminated | truncated).sum())
    assert games_ended >= 2


@pytest.mark.parametrize("game", MULTI)
def test_batched_bots_decide_as_alone(game: str) -> None:
    """Every bot of the game, several instances asked in one batch, decides as its twin asked
    alone, decision after decision (each draws from its own generator)."""
    spec = games()[game]
    observations, masks = bot_decisions(game, "random", 2)
    rows = min(len(observations), 12)
    for name in spec.bot_classes:
        batch = [spec.make_bot(name, seed=s) for s in range(3)]
        twins = [spec.make_bot(name, seed=s) for s in range(3)]
        for start in range(0, rows - 2, 3):
            chunk = slice(start, start + 3)
            got = act_batch(batch, observations[chunk], masks[chunk].astype(np.int8))
            alone = [
                twin.act(o, m.astype(np.int8))
                for twin, o, m in zip(twins, observations[chunk], masks[chunk], strict=True)
            ]
            assert got.tolist() == alone, name


def test_act_batch_needs_one_row_per_bot() -> None:
    with pytest.raises(ValueError, match="2 bots for 1 observations"):
        act_batch([RandomBot(), RandomBot()], np.zeros((1, 3)), np.ones((1, 3), dtype=np.int8))


@pytest.mark.parametrize("game", MULTI)
def test_make_vec_builds_the_tables_with_options(game: str) -> None:
    spec = games()[game]
    gym_id = spec.gym_ids[0].id
    vector = gym.make_vec(gym_id, num_envs=2, opponent="random", autoreset_mode="SameStep")
    assert isinstance(vector, SeatVectorEnv)
    assert vector.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    assert vector.single_observation_space == spec.make_single().observation_space
    observations, info = vector.reset(seed=1)
    assert observations.shape == (2, *vector.single_observation_space.shape)
    assert vector.observation_space.contains(observations)
    assert set(vector.info_schema.names) <= set(info)


@pytest.mark.parametrize("game", MULTI)
def test_an_illegal_action_names_the_table_and_changes_nothing(game: str) -> None:
    vector = SeatVectorEnv(_tables(game))
    observations, _ = vector.reset(seed=3)
    rng = np.random.default_rng(0)
    while (vector.action_masks().all(axis=1)).all():  # until some table has a masked action
        observations, *_ = vector.step(np.array([_pick(rng, m) for m in vector.action_masks()]))
    masks = vector.action_masks()
    table = int(np.flatnonzero(~masks.all(axis=1))[0])
    illegal = int(np.flatnonzero(~masks[table])[0])
    actions = np.array([_pick(rng, m) for m in masks])
    actions[table] = illegal
    states = [repr(vars(t.game_state)) for t in vector.tables]
    with pytest.raises(IllegalActionError, match=f"illegal action {illegal} for env {table}"):
        vector.step(actions)
    assert [repr(vars(t.game_state)) for t in vector.tables] == states
    actions[table] = _pick(rng, masks[table])
    again, *_ = vector.step(actions)  # the tables still play on
    assert again.shape == observations.shape


@pytest.mark.parametrize(
    "actions",
    [np.zeros(2, dtype=np.int64), np.zeros((TABLES, 1), dtype=np.int64), np.zeros(TABLES) + 0.5],
)
def test_actions_of_the_wrong_shape_or_type_raise(actions: np.ndarray) -> None:
    vector = SeatVectorEnv(_tables(MULTI[0]))
    vector.reset(seed=0)
    with pytest.raises(IllegalActionError, match="one per table"):
        vector.step(actions)


def test_disabled_autoreset_raises_after_the_end_and_resets_by_mask() -> None:
    game = "draw_poker"
    vector = SeatVectorEnv(_tables(game, 2), autoreset_mode="Disabled")
    vector.reset(seed=5)
    rng = np.random.default_rng(0)
    done = np.zeros(2, dtype=bool)
    while not done.any():
        actions = np.array([_pick(rng, m) for m in vector.action_masks()])
        _, _, terminated, truncated, _ = vector.step(actions)
        done = terminated | truncated
    with pytest.raises(GameOverError, match="reset_mask"):
        vector.step(np.array([_pick(rng, m) for m in vector.action_masks()]))
    observations, _ = vector.reset(options={"reset_mask": done})
    assert vector.action_masks()[done].any(axis=1).all()  # dealt again: a learner to act
    single = games()[game].make_single(opponent="random")
    first = int(np.flatnonzero(done)[0])
    single.reset(seed=5 + first)
    assert observations.shape == (2, *single.observation_space.shape)


BAD_CALLS = [
    (lambda t: SeatVectorEnv(t, autoreset_mode="Sometimes"), "autoreset_mode 'Sometimes'"),
    (lambda t: SeatVectorEnv([]), "at least one table"),
    (lambda t: SeatVectorEnv(t).step(np.zeros(2, dtype=np.int64)), "call reset"),
    (
        lambda t: SeatVectorEnv(t).reset(options={"reset_mask": np.array([True, False])}),
        "first reset must deal every table",
    ),
    (lambda t: SeatVectorEnv(t).reset(seed=[1, 2, 3]), "a list of 2 seeds"),
    (lambda t: SeatVectorEnv(t).reset(options={"reset_mask": [1, 0]}), "bad reset_mask"),
]


@pytest.mark.parametrize(("call", "message"), BAD_CALLS)
def test_bad_arguments_raise_naming_the_value(call: Any, message: str) -> None:
    with pytest.raises((ValueError, GameOverError), match=message):
        call(_tables(MULTI[0], 2))


def test_tables_with_other_spaces_are_refused() -> None:
    spec = games()["draw_poker"]
    tables = [spec.make_single(), spec.make_single(num_players=3)]
    with pytest.raises(ValueError, match="same spaces at every table"):
        SeatVectorEnv(tables)


@pytest.mark.parametrize("game", MULTI)
def test_a_seed_replays_the_same_steps_within_the_spaces(game: str) -> None:
    """Two vector envs reset with the same seed step alike; every observation lies in the
    observation space and every table still playing has a legal action."""
    first, second = SeatVectorEnv(_tables(game)), SeatVectorEnv(_tables(game))
    seen = [first.reset(seed=8)[0], second.reset(seed=8)[0]]
    np.testing.assert_array_equal(*seen)
    rng = np.random.default_rng(5)
    ended = np.zeros(TABLES, dtype=bool)
    for _ in range(60):
        masks = first.action_masks()
        np.testing.assert_array_equal(masks, second.action_masks())
        assert masks[~ended].any(axis=1).all()
        actions = np.array([_pick(rng, m) for m in masks])
        one, two = first.step(actions), second.step(actions)
        for a, b in zip(one[:4], two[:4], strict=True):
            np.testing.assert_array_equal(a, b)
        assert first.observation_space.contains(one[0])
        ended = one[2] | one[3]


def test_gymnasium_vector_wrappers_read_the_episodes() -> None:
    """Gymnasium's RecordEpisodeStatistics over the bot tables (NextStep autoreset) reports
    each ended game's return: the sum of that table's rewards since its reset."""
    vector = gym.wrappers.vector.RecordEpisodeStatistics(SeatVectorEnv(_tables("quintet", 2)))
    vector.reset(seed=4)
    rng = np.random.default_rng(0)
    returns = np.zeros(2)
    reported = 0
    for _ in range(60):
        masks = vector.env.action_masks()
        _, rewards, terminated, truncated, info = vector.step(
            np.array([_pick(rng, m) for m in masks])
        )
        returns += rewards
        ended = terminated | truncated
        if ended.any():
            np.testing.assert_array_equal(info["episode"]["r"][ended], returns[ended])
            reported += int(ended.sum())
            returns[ended] = 0.0
    assert reported >= 2


def test_tables_made_to_replace_masked_actions_replace_them() -> None:
    """``masked_action="random"`` tables take a masked action (a random legal one is played, as
    in their single env): the vector env lets it through and each table stays its single env."""
    spec = games()["draw_poker"]
    vector = SeatVectorEnv([spec.make_single(masked_action="random") for _ in range(2)])
    singles = [spec.make_single(masked_action="random") for _ in range(2)]
    vector.reset(seed=2)
    for i, single in enumerate(singles):
        single.reset(seed=2 + i)
    masked = [int(np.flatnonzero(~row)[0]) for row in vector.action_masks()]
    observations, rewards, _, _, info = vector.step(np.array(masked))
    for i, single in enumerate(singles):
        observation, reward, _, _, single_info = single.step(masked[i])
        np.testing.assert_array_equal(observations[i], observation)
        assert rewards[i] == reward
        _same_info(info, i, single_info)
