"""The native vector env of Poker Squares: it replays the single env game for game."""

from __future__ import annotations

import itertools
from typing import Any

import gymnasium as gym
import numpy as np
import pokerzoo.envs  # noqa: F401  (registers the ids)
import pytest
from gymnasium.vector import AutoresetMode
from pokerzoo.envs.core.cards import format_cards
from pokerzoo.envs.core.errors import GameOverError, IllegalActionError
from pokerzoo.envs.poker_squares import PokerSquaresEnv
from pokerzoo.envs.poker_squares.vector import DEALS_AHEAD, PokerSquaresVectorEnv

SEED_GRID = "8c Qc Tc 4c 2c 9h Qh Th Jh Kh Ad 8d Td 4h 5s As Qs Ts Js Ks 3d 6s 7h 4d 5d"
CUSTOM = {"pair": 1, "two pair": 4, "flush": 9, "five of a kind": 50}
ROW_MAJOR = np.arange(25)


def random_legal(rng: np.random.Generator, masks: np.ndarray) -> np.ndarray:
    """One legal cell per game (0 where none is legal: a game about to be auto-reset)."""
    return np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])


def play_side_by_side(
    num_envs: int, seed: int, steps: int, autoreset: AutoresetMode, **options: Any
) -> None:
    """Step the vector env and ``num_envs`` single envs seeded ``seed + i`` with the same
    random legal cells, comparing everything each step."""
    venv = PokerSquaresVectorEnv(num_envs, autoreset_mode=autoreset, **options)
    singles = [PokerSquaresEnv(**options) for _ in range(num_envs)]
    obs, info = venv.reset(seed=seed)
    for i, env in enumerate(singles):
        single_obs, single_info = env.reset(seed=seed + i)
        np.testing.assert_array_equal(obs[i], single_obs)
        np.testing.assert_array_equal(info["action_mask"][i], single_info["action_mask"])
    rng = np.random.default_rng(seed + 1000)
    restart = np.zeros(num_envs, dtype=bool)  # next-step mode: games dealt by the next step
    ended_games = 0
    for step in range(steps):
        actions = random_legal(rng, info["action_mask"])
        obs, rewards, terminated, truncated, info = venv.step(actions)
        assert obs.dtype == np.float32 and venv.observation_space.contains(obs)
        assert info["action_mask"].dtype == np.int8
        np.testing.assert_array_equal(venv.action_masks(), info["action_mask"].astype(bool))
        assert not truncated.any()
        for i, env in enumerate(singles):
            where = f"step {step}, game {i}"
            if restart[i]:
                single_obs, single_info = env.reset()
                reward, done = 0.0, False
            else:
                single_obs, reward, done, _, single_info = env.step(int(actions[i]))
            assert rewards[i] == reward, where
            assert terminated[i] == done, where
            if done:
                ended_games += 1
                ended = info["final_info"] if autoreset == AutoresetMode.SAME_STEP else info
                assert ended["_score"][i] and ended["score"][i] == single_info["score"], where
                assert format_cards(ended["grid"][i]).split() == single_info["grid"], where
                if autoreset == AutoresetMode.SAME_STEP:
                    np.testing.assert_array_equal(info["final_obs"][i], single_obs, where)
                    single_obs, single_info = env.reset()
            np.testing.assert_array_equal(obs[i], single_obs, where)
            np.testing.assert_array_equal(info["action_mask"][i], single_info["action_mask"])
        restart = terminated & (autoreset == AutoresetMode.NEXT_STEP)
    assert ended_games >= 2 * num_envs  # at least two auto-resets of every game


OPTION_SETS = [
    {
        "scoring": scoring,
        "jokers": jokers,
        "placement": placement,
        "variant": variant,
        "reward": reward,
    }
    for (jokers, placement, variant, reward), scoring in zip(
        itertools.product(
            (0, 1, 2), ("free", "adjacent"), ("deal", "shuffle"), ("final", "incremental")
        ),
        itertools.cycle(("american", "english", CUSTOM)),
    )
]


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: "-".join(map(str, o.values()))[:60])
def test_vector_env_replays_single_env(options: dict[str, Any]) -> None:
    seed = 11 * options["jokers"] + 3 * len(options["placement"]) + len(options["reward"])
    play_side_by_side(4, seed, 2 * 26 + 3, AutoresetMode.NEXT_STEP, **options)


@pytest.mark.parametrize(
    "options", OPTION_SETS[::5], ids=lambda o: "-".join(map(str, o.values()))[:60]
)
def test_same_step_autoreset_replays_single_env(options: dict[str, Any]) -> None:
    play_side_by_side(3, 5, 2 * 25 + 3, AutoresetMode.SAME_STEP, **options)


def test_many_deals_and_resets_keep_following_each_generator() -> None:
    # More deals than a generator makes in one go (DEALS_AHEAD), with a reset mid-game.
    venv = PokerSquaresVectorEnv(2, jokers=1)
    singles = [PokerSquaresEnv(jokers=1) for _ in range(2)]
    obs, info = venv.reset(seed=[9, 4])
    expected = [env.reset(seed=seed)[0] for env, seed in zip(singles, (9, 4), strict=True)]
    rng = np.random.default_rng(2)
    for step in range((DEALS_AHEAD + 3) * 26):
        np.testing.assert_array_equal(obs, np.array(expected), f"step {step}")
        if step == 40:
            obs, info = venv.reset()
            expected = [env.reset()[0] for env in singles]
            continue
        actions = random_legal(rng, info["action_mask"])
        obs, _, terminated, _, info = venv.step(actions)
        for i, env in enumerate(singles):
            if env.game.is_terminal(env.game_state):
                expected[i] = env.reset()[0]
            else:
                expected[i] = env.step(int(actions[i]))[0]


def test_make_vec_builds_the_native_env_with_options() -> None:
    venv = gym.make_vec(
        "pokerzoo/PokerSquares-v0", num_envs=8, scoring="english", placement="adjacent"
    )
    assert isinstance(venv, PokerSquaresVectorEnv)
    assert venv.num_envs == 8 and venv.game.scoring["straight"] == 12
    assert venv.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    obs, info = venv.reset(seed=0)
    assert obs.shape == (8, 522) and venv.observation_space.shape == (8, 522)
    np.testing.assert_array_equal(info["action_mask"].sum(axis=1), np.ones(8))  # the centre
    same = gym.make_vec("pokerzoo/PokerSquares-v0", num_envs=2, autoreset_mode="SameStep")
    assert same.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP


@pytest.mark.parametrize("mode", ["NextStep", "SameStep"])
def test_gymnasium_vector_wrappers_read_the_autoreset_mode(mode: str) -> None:
    venv = gym.wrappers.vector.RecordEpisodeStatistics(
        gym.make_vec("pokerzoo/PokerSquares-v0", num_envs=3, autoreset_mode=mode)
    )
    _, info = venv.reset(options={"cards": SEED_GRID})
    for cell in range(25):
        _, _, _, _, info = venv.step(np.full(3, cell))
    assert list(info["episode"]["r"]) == [302.0] * 3
    assert list(info["episode"]["l"]) == [25] * 3


def test_seed_list_and_continued_generators_match_single_envs() -> None:
    venv = PokerSquaresVectorEnv(3)
    obs, _ = venv.reset(seed=[40, None, 7])
    single = PokerSquaresEnv()
    np.testing.assert_array_equal(obs[0], single.reset(seed=40)[0])
    np.testing.assert_array_equal(obs[2], single.reset(seed=7)[0])
    venv.reset(seed=100)
    again, _ = venv.reset()  # no seed: each game continues its own generator
    for i in range(3):
        single.reset(seed=100 + i)
        np.testing.assert_array_equal(again[i], single.reset()[0])


@pytest.mark.parametrize(
    ("scoring", "reward", "total"),
    [("american", "final", 302), ("english", "final", 113), ("american", "incremental", 302)],
)
def test_fixed_deal_scores_the_seed_example(scoring: str, reward: str, total: int) -> None:
    venv = PokerSquaresVectorEnv(2, scoring=scoring, reward=reward)
    venv.reset(options={"cards": SEED_GRID})
    earned = np.zeros(2)
    for cell in range(25):
        _, rewards, terminated, _, info = venv.step(np.array([cell, cell]))
        earned += rewards
        if reward == "final" and cell < 24:
            assert not rewards.any()
    assert terminated.all() and list(info["score"]) == [total, total]
    assert list(earned) == [total, total]
    assert format_cards(info["grid"][0]) == SEED_GRID


def test_fixed_deals_per_game_and_their_checks() -> None:
    venv = PokerSquaresVectorEnv(2, variant="shuffle")
    reverse = " ".join(reversed(SEED_GRID.split()))
    obs, _ = venv.reset(options={"cards": [SEED_GRID, reverse]})
    np.testing.assert_array_equal(obs[0], obs[1])  # shuffle sorts the same 25 cards alike
    with pytest.raises(ValueError, match="Jk"):
        venv.reset(options={"cards": SEED_GRID.replace("5d", "Jk")})  # no jokers in this deck
    with pytest.raises(ValueError, match="3 deals for 2 games"):
        venv.reset(options={"cards": [SEED_GRID] * 3})
    with pytest.warns(UserWarning, match=r"unknown reset options \['deck'\] ignored"):
        venv.reset(options={"deck": SEED_GRID})


@pytest.mark.parametrize(
    ("placement", "first", "action", "message"),
    [
        ("free", None, 30, r"env 1: bad cell 30: expected an int in 0\.\.24"),
        ("free", None, -1, r"env 1: bad cell -1"),
        ("free", 4, 4, r"env 1: illegal cell r1c5 \(4\): legal are r1c1 \(0\)"),
        ("adjacent", None, 0, r"env 1: illegal cell r1c1 \(0\): legal are r3c3 \(12\)$"),
        ("adjacent", 12, 0, r"env 1: illegal cell r1c1 \(0\): legal are r2c2 \(6\)"),
    ],
)
def test_illegal_action_names_env_and_cells_and_changes_nothing(
    placement: str, first: int | None, action: int, message: str
) -> None:
    venv = PokerSquaresVectorEnv(3, placement=placement)
    obs, info = venv.reset(seed=1)
    if first is not None:
        obs, _, _, _, info = venv.step(np.array([first] * 3))
    legal = random_legal(np.random.default_rng(0), info["action_mask"])
    actions = legal.copy()
    actions[1] = action
    with pytest.raises(IllegalActionError, match=message):
        venv.step(actions)
    after, *_ = venv.step(legal)  # the failed step changed nothing: the games go on as before
    for i in range(3):
        single = PokerSquaresEnv(placement=placement)
        single.reset(seed=1 + i)
        if first is not None:
            single.step(first)
        np.testing.assert_array_equal(after[i], single.step(int(legal[i]))[0])


@pytest.mark.parametrize("actions", [np.zeros(2, dtype=np.int64), np.zeros(3), [[0, 1, 2]]])
def test_actions_of_the_wrong_shape_or_type_raise(actions: Any) -> None:
    venv = PokerSquaresVectorEnv(3)
    venv.reset(seed=0)
    with pytest.raises(IllegalActionError, match="expected 3 int cells"):
        venv.step(actions)


def test_disabled_autoreset_raises_after_the_end_and_resets_by_mask() -> None:
    venv = PokerSquaresVectorEnv(3, autoreset_mode="Disabled")
    obs, _ = venv.reset(seed=3)
    for cell in range(25):
        obs, _, terminated, _, info = venv.step(np.full(3, cell))
    assert terminated.all()
    with pytest.raises(GameOverError, match="game 0 is over"):
        venv.step(np.zeros(3, dtype=np.int64))
    mask = np.array([False, True, False])
    new_obs, info = venv.reset(options={"reset_mask": mask})
    np.testing.assert_array_equal(new_obs[[0, 2]], obs[[0, 2]])
    single = PokerSquaresEnv()
    single.reset(seed=4)
    np.testing.assert_array_equal(new_obs[1], single.reset()[0])
    with pytest.raises(GameOverError, match="game 0 is over"):
        venv.step(np.zeros(3, dtype=np.int64))


def test_reset_mask_mid_game_redeals_only_those_games() -> None:
    venv = PokerSquaresVectorEnv(2)
    venv.reset(seed=8)
    obs, *_ = venv.step(np.array([3, 3]))
    new_obs, info = venv.reset(seed=[None, 50], options={"reset_mask": np.array([False, True])})
    np.testing.assert_array_equal(new_obs[0], obs[0])
    np.testing.assert_array_equal(new_obs[1], PokerSquaresEnv().reset(seed=50)[0])
    assert info["action_mask"][0, 3] == 0 and info["action_mask"][1].all()


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"num_envs": 0}, "bad num_envs 0"),
        ({"num_envs": 2, "reward": "dense"}, "bad reward 'dense'"),
        ({"num_envs": 2, "jokers": 3}, "bad jokers 3"),
        ({"num_envs": 2, "placement": "near"}, "bad placement 'near'"),
        ({"num_envs": 2, "variant": "draw"}, "bad variant 'draw'"),
        ({"num_envs": 2, "scoring": {"flush!": 3}}, "bad hand name 'flush!'"),
        ({"num_envs": 2, "render_mode": "rgb_array"}, "bad render_mode 'rgb_array'"),
        ({"num_envs": 2, "autoreset_mode": "later"}, "bad autoreset_mode 'later'"),
    ],
)
def test_bad_options_raise_naming_the_value(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        PokerSquaresVectorEnv(**kwargs)


def test_bad_reset_arguments_and_step_before_reset() -> None:
    venv = PokerSquaresVectorEnv(2)
    with pytest.raises(GameOverError, match="reset"):
        venv.step(np.zeros(2, dtype=np.int64))
    with pytest.raises(ValueError, match="first reset must deal every game"):
        venv.reset(options={"reset_mask": np.array([True, False])})
    with pytest.raises(ValueError, match="bad seed"):
        venv.reset(seed=[1, 2, 3])
    with pytest.raises(ValueError, match="bad seed -1"):
        venv.reset(seed=[5, -1])
    with pytest.raises(ValueError, match="bad reset_mask"):
        venv.reset(options={"reset_mask": [True, False]})


def test_render_ansi_gives_one_grid_per_game() -> None:
    venv = PokerSquaresVectorEnv(2, render_mode="ansi")
    venv.reset(options={"cards": SEED_GRID})
    for cell in range(25):
        venv.step(np.array([cell, cell]))
    frames = venv.render()
    assert isinstance(frames, tuple) and len(frames) == 2
    assert frames[0].startswith("game 0") and "Qc" in frames[0] and "302" in frames[0]
    assert PokerSquaresVectorEnv(1).render() is None
