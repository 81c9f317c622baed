"""The Gymnasium Poker Squares env: spaces, dealing, rewards, masks, errors, render."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pokerzoo.envs  # noqa: F401 - registers the ids
import pytest
from gymnasium.utils.env_checker import check_env
from pokerzoo.envs.core.cards import make_deck, parse_cards
from pokerzoo.envs.core.errors import GameOverError, IllegalActionError
from pokerzoo.envs.poker_squares import LAYOUT, PokerSquaresEnv, encode_observation, score_grid

from tests.poker_squares.variants import VARIANT_NAMES, VARIANTS

SEED_GRID = "8c Qc Tc 4c 2c 9h Qh Th Jh Kh Ad 8d Td 4h 5s As Qs Ts Js Ks 3d 6s 7h 4d 5d"


def _play(env: gym.Env, cells: list[int] | None = None, rng: np.random.Generator | None = None):
    """Play one episode (given cells, else random legal ones): rewards, last info."""
    rewards = []
    info: dict = {}
    mask = env.unwrapped.action_masks()
    for i in range(25):
        cell = cells[i] if cells is not None else int(rng.choice(np.flatnonzero(mask)))
        _, reward, terminated, truncated, info = env.step(cell)
        rewards.append(reward)
        mask = info["action_mask"]
        assert terminated == (i == 24) and not truncated
    return rewards, info


def test_check_env_default_and_made() -> None:
    check_env(PokerSquaresEnv(), skip_render_check=True)
    env = gym.make("pokerzoo/PokerSquares-v0")
    check_env(env.unwrapped)
    assert env.spec is not None and env.spec.id == "pokerzoo/PokerSquares-v0"


def test_make_with_options() -> None:
    env = gym.make(
        "pokerzoo/PokerSquares-v0",
        scoring="english",
        jokers=2,
        placement="adjacent",
        variant="shuffle",
        reward="incremental",
    )
    game = env.unwrapped.game
    assert (game.jokers, game.placement, game.variant) == (2, "adjacent", "shuffle")
    assert env.unwrapped.reward_mode == "incremental"
    obs, info = env.reset(seed=0)
    assert info["action_mask"].tolist() == [int(c == 12) for c in range(25)]


def test_spaces() -> None:
    env = PokerSquaresEnv()
    assert env.action_space == gym.spaces.Discrete(25)
    space = env.observation_space
    assert space.shape == (522,) and space.dtype == np.float32
    assert np.array_equal(space.high, LAYOUT.high)
    assert space.high[520] == 2 and space.high[521] == 25 and space.high[:520].max() == 1
    assert not space.low.any()


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"reward": "sparse"}, "bad reward 'sparse'"),
        ({"render_mode": "rgb_array"}, "bad render_mode 'rgb_array'"),
    ],
)
def test_bad_options_raise(options: dict, message: str) -> None:
    """The env's own options (the rule options: tests/poker_squares/test_rules.py)."""
    with pytest.raises(ValueError, match=message):
        PokerSquaresEnv(**options)


@pytest.mark.parametrize(("jokers", "seed"), [(0, 0), (1, 5), (2, 123)])
def test_reset_deals_the_spec_order(jokers: int, seed: int) -> None:
    env = PokerSquaresEnv(jokers=jokers)
    obs, info = env.reset(seed=seed)
    deck = make_deck("standard", jokers=jokers)
    expected = np.random.default_rng(seed).permutation(deck)[:25].tolist()
    assert env.game_state.cards == expected
    assert np.array_equal(obs, encode_observation(env.game_state))
    assert info["action_mask"].dtype == np.int8 and info["action_mask"].all()


def test_seed_reproducibility() -> None:
    a, b = PokerSquaresEnv(), PokerSquaresEnv()
    obs_a, _ = a.reset(seed=42)
    obs_b, _ = b.reset(seed=42)
    rng_a, rng_b = np.random.default_rng(1), np.random.default_rng(1)
    assert np.array_equal(obs_a, obs_b)
    for _ in range(25):
        cell_a = int(rng_a.choice(np.flatnonzero(a.action_masks())))
        cell_b = int(rng_b.choice(np.flatnonzero(b.action_masks())))
        out_a, out_b = a.step(cell_a), b.step(cell_b)
        assert np.array_equal(out_a[0], out_b[0]) and out_a[1:4] == out_b[1:4]
    assert a.game_state.cards == b.game_state.cards


def test_fixed_cards_option_and_unknown_options() -> None:
    env = PokerSquaresEnv()
    env.reset(options={"cards": SEED_GRID})
    assert env.game_state.cards == parse_cards(SEED_GRID)
    with pytest.warns(UserWarning, match=r"unknown reset options \['deck'\] ignored.*'cards'"):
        env.reset(options={"deck": SEED_GRID})  # Gymnasium's convention: ignored, with a warning


@pytest.mark.parametrize(("scoring", "total"), [("american", 302), ("english", 113)])
def test_final_and_incremental_rewards_on_the_seed_grid(scoring: str, total: int) -> None:
    final = PokerSquaresEnv(scoring=scoring)
    final.reset(options={"cards": SEED_GRID})
    rewards, info = _play(final, list(range(25)))
    assert rewards == [0.0] * 24 + [float(total)]
    assert info["score"] == total and isinstance(info["score"], int)
    assert info["grid"] == SEED_GRID.split()
    incremental = PokerSquaresEnv(scoring=scoring, reward="incremental")
    incremental.reset(options={"cards": SEED_GRID})
    rewards, info = _play(incremental, list(range(25)))
    assert sum(rewards) == total and info["score"] == total
    assert rewards[4] == {"american": 20, "english": 5}[scoring]  # r1 flush
    assert rewards[20] == {"american": 2, "english": 1}[scoring]  # c1 pair


def test_info_and_masks_after_every_step() -> None:
    env = PokerSquaresEnv(placement="adjacent")
    obs, info = env.reset(seed=3)
    assert info["action_mask"].tolist() == [int(c == 12) for c in range(25)]
    assert env.action_masks().dtype == bool
    _, _, _, _, info = env.step(12)
    assert np.flatnonzero(info["action_mask"]).tolist() == [6, 7, 8, 11, 13, 16, 17, 18]
    assert np.array_equal(env.action_masks(), info["action_mask"].astype(bool))
    assert "score" not in info and "grid" not in info


@pytest.mark.parametrize(VARIANT_NAMES, VARIANTS)
def test_random_masked_play_never_raises_and_rewards_agree(
    scoring: object, jokers: int, placement: str, variant: str
) -> None:
    envs = {
        mode: PokerSquaresEnv(
            scoring=scoring, jokers=jokers, placement=placement, variant=variant, reward=mode
        )
        for mode in ("final", "incremental")
    }
    for episode in range(3):
        totals = {}
        for mode, env in envs.items():
            obs, info = env.reset(seed=episode)
            assert env.observation_space.contains(obs)
            rewards, info = _play(env, rng=np.random.default_rng(episode))
            totals[mode] = sum(rewards)
            assert info["score"] == score_grid(info["grid"], scoring)
        assert totals["final"] == totals["incremental"]


def test_shuffle_variant_observation_shows_every_card_to_come() -> None:
    env = PokerSquaresEnv(variant="shuffle")
    obs, _ = env.reset(options={"cards": SEED_GRID})
    ordered = sorted(parse_cards(SEED_GRID), reverse=True)
    assert env.game_state.cards == ordered
    assert obs[468:521].sum() == 24
    to_come = obs[468:521].astype(int)
    assert sorted(np.repeat(np.arange(53), to_come).tolist(), reverse=True) == ordered[1:]
    obs, *_ = env.step(0)
    assert obs[468:521].sum() == 23 and obs[468 + ordered[1]] == 0


def _state_snapshot(env: PokerSquaresEnv) -> tuple:
    s = env.game_state
    return (list(s.grid), s.placed, s.mask.tolist(), s.to_come.tolist(), s.score, s.line_fill)


@pytest.mark.parametrize(
    ("placement", "before", "action", "message"),
    [
        ("free", [7], 7, r"r2c3 \(7\)"),
        ("adjacent", [], 3, r"illegal cell r1c4 \(3\): legal are r3c3 \(12\)"),
        ("free", [], 99, "bad cell 99"),
        ("free", [], np.int64(-2), "bad cell -2"),
    ],
)
def test_illegal_action_raises_and_state_is_unchanged(
    placement: str, before: list[int], action: object, message: str
) -> None:
    env = PokerSquaresEnv(placement=placement)
    env.reset(seed=0)
    for cell in before:
        env.step(cell)
    snapshot = _state_snapshot(env)
    obs = encode_observation(env.game_state)
    with pytest.raises(IllegalActionError, match=message):
        env.step(action)
    assert _state_snapshot(env) == snapshot
    assert np.array_equal(encode_observation(env.game_state), obs)
    # and the env keeps working
    cell = int(np.flatnonzero(env.action_masks())[0])
    next_obs, *_ = env.step(cell)
    assert next_obs[521] == len(before) + 1


def test_game_over_and_step_before_reset() -> None:
    env = PokerSquaresEnv()
    with pytest.raises(GameOverError):
        env.step(0)
    env.reset(seed=1)
    _play(env, list(range(25)))
    assert not env.action_masks().any()
    with pytest.raises(GameOverError):
        env.step(0)


def test_render_ansi_and_human(capsys: pytest.CaptureFixture[str]) -> None:
    env = PokerSquaresEnv(render_mode="ansi")
    env.reset(options={"cards": SEED_GRID})
    text = env.render()
    assert isinstance(text, str) and "card to place 8c" in text and "empty" in text
    _play(env, list(range(25)))
    text = env.render()
    assert "royal flush" in text and "final score 302" in text
    human = PokerSquaresEnv(render_mode="human")
    human.reset(options={"cards": SEED_GRID})
    assert "card to place 8c" in capsys.readouterr().out
    human.step(0)
    assert "placed 1/25" in capsys.readouterr().out
    assert human.render() is None


def test_maskable_ppo_accepts_the_env() -> None:
    sb3_contrib = pytest.importorskip("sb3_contrib")
    torch = pytest.importorskip("torch")
    torch.set_num_threads(1)
    model = sb3_contrib.MaskablePPO("MlpPolicy", PokerSquaresEnv(), n_steps=50, batch_size=25)
    model.learn(total_timesteps=50)
    env = PokerSquaresEnv()
    obs, _ = env.reset(seed=0)
    action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
    assert env.action_masks()[int(action)]
