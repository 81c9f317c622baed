"""Quintet envs: PettingZoo AEC and parallel, and the single-seat Gymnasium env."""

from __future__ import annotations

import warnings

import gymnasium as gym
import numpy as np
import pokerzoo.envs  # noqa: F401  (registers the Gymnasium ids)
import pytest
from gymnasium.utils.env_checker import check_env
from pokerzoo.agents.quintet import GreedyBot, RandomBot
from pokerzoo.envs import quintet as game
from pokerzoo.envs import quintet_v0
from pokerzoo.envs.core.cards import parse_cards
from pokerzoo.envs.core.errors import GameOverError, IllegalActionError
from pokerzoo.envs.quintet import QuintetGame
from pokerzoo.envs.quintet.env import QuintetEnv

from tests.helpers import PolicyBot

FULL_HOUSES = "Ac Ad Ah As Kc  Kd Kh Ks Qc Qd  Qh Qs Jc Jd Jh  Js Tc Td Th Ts  9c 9d 9h 9s 8c"
REVERSED = "9c 9d 9h 9s 8c  Js Tc Td Th Ts  Qh Qs Jc Jd Jh  Kd Kh Ks Qc Qd  Ac Ad Ah As Kc"


def _pack_of(row: str) -> dict[int, int]:
    ids = parse_cards(row)
    return {card: i // 5 for i, card in enumerate(ids)}


def _first_legal(mask: np.ndarray) -> int:
    return int(np.flatnonzero(mask)[0])


RULES = QuintetGame()
FIXED = {"cards": FULL_HOUSES}


@pytest.mark.parametrize("make", [quintet_v0.env, quintet_v0.parallel_env, QuintetEnv])
@pytest.mark.parametrize(
    ("options", "named"),
    [({"reward": "score"}, "bad reward 'score'"), ({"render_mode": "rgb_array"}, "'rgb_array'")],
)
def test_bad_options_are_named(make: object, options: dict, named: str) -> None:
    with pytest.raises(ValueError, match=named):
        make(**options)  # type: ignore[operator]


def test_spaces_are_the_same_object_every_call() -> None:
    for env in (quintet_v0.raw_env(), quintet_v0.parallel_env()):
        for agent in env.possible_agents:
            assert env.observation_space(agent) is env.observation_space(agent)
            assert env.action_space(agent) is env.action_space(agent)
            assert env.action_space(agent).n == 5


def test_parallel_scripted_game_terminal_info() -> None:
    env = quintet_v0.parallel_env()
    obs, infos = env.reset(seed=0, options=FIXED)
    rows = {"player_0": _pack_of(FULL_HOUSES), "player_1": _pack_of(REVERSED)}
    steps = 0
    while env.agents:
        for agent in env.agents:  # every live agent's own mask, in the observation only
            assert obs[agent]["action_mask"].any() and "action_mask" not in infos[agent]
        card = game.decode_observation(obs["player_0"]["observation"]).current
        actions = {agent: rows[agent][card] for agent in env.agents}
        obs, rewards, terms, truncs, infos = env.step(actions)
        steps += 1
    assert steps == 25 and all(terms.values()) and not any(truncs.values())
    assert rewards == {"player_0": -2.0, "player_1": 2.0}
    info = infos["player_0"]
    shared = ("arrangements", "results", "points", "winner")
    assert all(np.array_equal(info[key], infos["player_1"][key]) for key in shared)
    assert info["points"].tolist() == [9, 11]
    assert info["results"].tolist() == [1, -1, 0, 1, -1]
    assert info["winner"] == 1
    assert [sorted(p) for p in info["arrangements"][1].tolist()] == [
        sorted(parse_cards(REVERSED)[i : i + 5]) for i in range(0, 25, 5)
    ]
    assert env.render() is None
    with pytest.raises(GameOverError):
        env.step({"player_0": 0, "player_1": 0})


def test_parallel_illegal_action_changes_nothing() -> None:
    env = quintet_v0.parallel_env(render_mode="ansi")
    obs, _ = env.reset(seed=4)
    for _ in range(5):
        obs, *_ = env.step({"player_0": 1, "player_1": 2})
    before = env.render()
    state = env.game_state
    snapshot = [a.copy() for a in (state.assignment, state.pack_sizes, state.placed)]
    with pytest.raises(IllegalActionError, match=r"illegal pack for player_0 1 \(4-point pack\)"):
        env.step({"player_0": 1, "player_1": 0})
    with pytest.raises(IllegalActionError, match="bad pack for player_1 7"):
        env.step({"player_0": 0, "player_1": 7})
    with pytest.raises(IllegalActionError, match="no action for player_1"):
        env.step({"player_0": 0})
    assert env.render() == before
    after = (state.assignment, state.pack_sizes, state.placed)
    assert all(np.array_equal(a, b) for a, b in zip(snapshot, after, strict=True))
    assert obs["player_0"]["action_mask"].tolist() == [1, 0, 1, 1, 1]


def test_parallel_reset_seed_reproduces() -> None:
    def episode(seed: int) -> list:
        env = quintet_v0.parallel_env()
        obs, _ = env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        trace = []
        while env.agents:
            actions = {
                a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"]))) for a in env.agents
            }
            obs, rewards, *_, infos = env.step(actions)
            trace.append((obs["player_0"]["observation"].tobytes(), rewards["player_0"]))
        return [*trace, infos["player_0"]["arrangements"].tolist()]

    assert episode(11) == episode(11)
    assert episode(11) != episode(12)


def test_random_masked_play_never_raises() -> None:
    parallel = quintet_v0.parallel_env()
    aec = quintet_v0.env()
    rng = np.random.default_rng(0)
    for seed in range(30):
        obs, _ = parallel.reset(seed=seed)
        while parallel.agents:
            obs, *_ = parallel.step(
                {a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"]))) for a in obs}
            )
        aec.reset(seed=seed)
        for _agent in aec.agent_iter():
            o, _, term, trunc, _ = aec.last()
            aec.step(None if term or trunc else int(rng.choice(np.flatnonzero(o["action_mask"]))))


def test_aec_scripted_game_rewards_and_info() -> None:
    env = quintet_v0.env(reward="win", render_mode="ansi")
    env.reset(seed=0, options=FIXED)
    rows = {"player_0": _pack_of(FULL_HOUSES), "player_1": _pack_of(REVERSED)}
    finals = {}
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        assert "action_mask" not in info  # the mask is in the observation only
        assert obs["action_mask"].any() != (term or trunc)
        if term or trunc:
            finals[agent] = (reward, info)
            env.step(None)
            continue
        assert reward == 0
        card = game.decode_observation(obs["observation"]).current
        env.step(rows[agent][card])
    assert finals["player_0"][0] == -1.0 and finals["player_1"][0] == 1.0
    assert finals["player_0"][1]["points"].tolist() == [9, 11]
    assert finals["player_1"][1]["results"].tolist() == [1, -1, 0, 1, -1]
    with pytest.raises(GameOverError):
        env.step(0)


def test_aec_turns_hide_the_first_players_move() -> None:
    views = []
    for pack in (0, 4):
        env = quintet_v0.env()
        env.reset(seed=3)
        assert env.agent_selection == "player_0"
        assert not env.observe("player_1")["action_mask"].any()  # not on turn
        env.step(pack)
        assert env.agent_selection == "player_1"
        views.append(env.observe("player_1")["observation"])
    assert np.array_equal(views[0], views[1])


def test_aec_illegal_action_changes_nothing() -> None:
    env = quintet_v0.env()
    env.reset(seed=5)
    for _ in range(10):
        env.step(3)
    assert env.agent_selection == "player_0"
    before = env.observe("player_0")["observation"].copy()
    with pytest.raises(IllegalActionError, match=r"illegal pack for player_0 3 \(6-point pack\)"):
        env.step(3)
    with pytest.raises(IllegalActionError, match="bad pack for player_0 -1"):
        env.step(-1)
    assert env.agent_selection == "player_0"
    assert np.array_equal(env.observe("player_0")["observation"], before)
    env.step(0)
    assert env.agent_selection == "player_1"


# --- Gymnasium single seat -----------------------------------------------------------------------
@pytest.mark.parametrize("opponent", ["random", "greedy", "best_response"])
def test_gymnasium_check_env(opponent: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(gym.make("pokerzoo/Quintet-v0", opponent=opponent).unwrapped)


def _play(env: gym.Env, seed: int | None, policy_seed: int) -> list:
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(policy_seed)
    trace = [obs.tobytes()]
    while True:
        assert np.array_equal(info["action_mask"].astype(bool), env.unwrapped.action_masks())
        obs, reward, term, trunc, info = env.step(
            int(rng.choice(np.flatnonzero(env.action_masks())))
        )
        trace.append((obs.tobytes(), reward))
        if term or trunc:
            return [*trace, info["arrangements"].tolist(), info["points"].tolist()]


@pytest.mark.parametrize("opponent", ["random", "mixed", "best_response"])
def test_gymnasium_seed_reproduces_episode_and_bot(opponent: str) -> None:
    a = QuintetEnv(opponent=opponent)
    b = QuintetEnv(opponent=opponent)
    first = _play(a, 21, 0)
    assert _play(b, 21, 0) == first
    assert _play(a, None, 1) == _play(b, None, 1)  # the next episodes follow the seed too
    assert _play(a, 22, 0) != first


def test_gymnasium_random_opponent_is_seeded_from_the_env() -> None:
    # Same deal and same learner moves; only the opponent's seed differs between env seeds.
    env = QuintetEnv(opponent="random")
    rows = {tuple(_play(env, seed, 0)[-2][1][0]) for seed in range(5)}
    assert len(rows) > 1


def test_gymnasium_scripted_game() -> None:
    packs = _pack_of(REVERSED)
    reversed_bot = PolicyBot(
        "reversed", lambda observation, mask: packs[game.decode_observation(observation).current]
    )
    env = QuintetEnv(opponent=reversed_bot, render_mode="ansi")
    obs, info = env.reset(seed=0, options=FIXED)
    assert env.action_masks().tolist() == [True] * 5
    learner = _pack_of(FULL_HOUSES)
    for step in range(25):
        card = game.decode_observation(obs).current
        obs, reward, term, trunc, info = env.step(learner[card])
        assert term == (step == 24) and not trunc
        assert info["action_mask"].dtype == np.int8
    assert reward == -2.0
    assert info["points"].tolist() == [9, 11] and info["winner"] == 1
    assert info["results"].tolist() == [1, -1, 0, 1, -1]
    assert "player_1 wins" in env.render()
    assert not env.action_masks().any()
    with pytest.raises(GameOverError):
        env.step(0)


def test_gymnasium_illegal_action_changes_nothing() -> None:
    clean = QuintetEnv(opponent="random")
    dirty = QuintetEnv(opponent="random")
    for env in (clean, dirty):
        env.reset(seed=8)
        for _ in range(5):
            env.step(0)
    obs_before = game.encode_observation(dirty.game_state, 0)
    with pytest.raises(IllegalActionError, match=r"illegal pack for player_0 0 \(3-point pack\)"):
        dirty.step(0)
    with pytest.raises(IllegalActionError, match="bad pack for player_0 5"):
        dirty.step(5)
    assert np.array_equal(game.encode_observation(dirty.game_state, 0), obs_before)
    assert dirty.action_masks().tolist() == [False, True, True, True, True]
    rng = np.random.default_rng(0)
    for _ in range(20):  # the opponent's generator was not touched either
        action = int(rng.choice(np.flatnonzero(clean.action_masks())))
        assert np.array_equal(clean.step(action)[0], dirty.step(action)[0])
    assert RULES.outcome(clean.game_state) == RULES.outcome(dirty.game_state)


def test_gymnasium_step_before_reset_raises() -> None:
    with pytest.raises(GameOverError, match="reset"):
        QuintetEnv().step(0)


@pytest.mark.parametrize(
    ("opponent", "named"),
    [("alphazero", "bad opponent 'alphazero'"), (42, "bad opponent 42")],
)
def test_gymnasium_bad_opponent_is_named(opponent: object, named: str) -> None:
    with pytest.raises(ValueError, match=named):
        QuintetEnv(opponent=opponent)  # type: ignore[arg-type]


def test_gymnasium_opponent_built_with_env_options() -> None:
    env = gym.make("pokerzoo/Quintet-v0", opponent="mixed", reward="win")
    env.reset(seed=0)
    assert env.unwrapped.opponents["player_1"].objective == "win"
    env = QuintetEnv(opponent=GreedyBot(seed=1))
    env.reset(seed=0)
    assert isinstance(env.opponents["player_1"], GreedyBot)
    random_env = QuintetEnv(opponent="random")
    random_env.reset(seed=0)
    assert isinstance(random_env.opponents["player_1"], RandomBot)
