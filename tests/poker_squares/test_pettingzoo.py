"""The multi-player PettingZoo Poker Squares env: API tests, shared deal, rewards, errors."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from pokerzoo.envs.core.cards import parse_cards
from pokerzoo.envs.core.errors import GameOverError, IllegalActionError
from pokerzoo.envs.poker_squares import PokerSquaresEnv, encode_observation
from pokerzoo.envs.poker_squares_v0 import PokerSquaresParallelEnv, parallel_env, raw_env

SEED_GRID = "8c Qc Tc 4c 2c 9h Qh Th Jh Kh Ad 8d Td 4h 5s As Qs Ts Js Ks 3d 6s 7h 4d 5d"

API_OPTIONS = [
    {},
    {"num_players": 3, "rounds": 2, "reward": "margin"},
    {"num_players": 8, "reward": "incremental", "jokers": 2, "placement": "adjacent"},
    {"num_players": 2, "variant": "shuffle", "scoring": "english", "rounds": 3},
]


@pytest.fixture(autouse=True)
def _quiet_api_tests():
    # the API tests warn that dict observations are not arrays, as for every masked env
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        yield


def _play_parallel(par: PokerSquaresParallelEnv, seed: int, policy_seed: int):
    """Random masked play: summed rewards and the last infos."""
    obs, _ = par.reset(seed=seed)
    rng = np.random.default_rng(policy_seed)
    totals = dict.fromkeys(par.possible_agents, 0.0)
    infos: dict = {}
    while par.agents:
        actions = {a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"]))) for a in par.agents}
        obs, rewards, terms, truncs, infos = par.step(actions)
        for a, r in rewards.items():
            totals[a] += r
        assert not any(truncs.values())
    return totals, infos


def test_every_player_places_the_same_card_and_round_one_matches_the_single_env() -> None:
    par = parallel_env(num_players=3)
    obs, infos = par.reset(seed=11)
    single = PokerSquaresEnv()
    single_obs, _ = single.reset(seed=11)
    for a in par.possible_agents:
        assert np.array_equal(obs[a]["observation"], single_obs)
        assert obs[a]["action_mask"].dtype == np.int8
    states = dict(zip(par.possible_agents, par.game_state.grids, strict=True))
    assert all(s.cards == single.game_state.cards for s in states.values())
    obs, *_ = par.step({"player_0": 0, "player_1": 5, "player_2": 24})
    for a in par.possible_agents:
        assert np.array_equal(obs[a]["observation"], encode_observation(states[a]))
    assert obs["player_0"]["observation"][450:468].tolist() == (
        obs["player_2"]["observation"][450:468].tolist()
    )


@pytest.mark.parametrize("reward", ["final", "incremental", "margin"])
def test_rewards_on_a_fixed_deal(reward: str) -> None:
    par = parallel_env(num_players=2, reward=reward)
    par.reset(options={"cards": SEED_GRID})
    # player_0 places row-major (302 points), player_1 fills column-major: the transposed grid
    transposed = [5 * (i % 5) + i // 5 for i in range(25)]
    totals = {"player_0": 0.0, "player_1": 0.0}
    for i in range(25):
        _, rewards, terms, _, infos = par.step({"player_0": i, "player_1": transposed[i]})
        for a, r in rewards.items():
            totals[a] += r
        if reward != "incremental" and i < 24:
            assert rewards == {"player_0": 0.0, "player_1": 0.0}
    assert all(terms.values()) and par.agents == []
    assert infos["player_0"]["score"] == infos["player_1"]["score"] == 302
    assert infos["player_0"]["total"] == 302 and infos["player_0"]["won"] is np.True_
    assert infos["player_1"]["won"] is np.True_
    assert infos["player_1"]["grid"].tolist() == [parse_cards(SEED_GRID)[c] for c in transposed]
    expected = 0.0 if reward == "margin" else 302.0
    assert totals == {"player_0": expected, "player_1": expected}


def test_margin_rewards_are_zero_sum_and_final_equals_incremental() -> None:
    for seed in range(3):
        sums = {}
        for reward in ("final", "incremental", "margin"):
            par = parallel_env(num_players=4, rounds=2, reward=reward)
            sums[reward], infos = _play_parallel(par, seed, policy_seed=seed)
        assert sums["final"] == sums["incremental"]
        assert abs(sum(sums["margin"].values())) < 1e-9
        totals = {a: infos[a]["total"] for a in infos}
        assert totals == {a: int(v) for a, v in sums["final"].items()}
        best = max(totals.values())
        assert {a for a in infos if infos[a]["won"]} == {a for a in totals if totals[a] == best}
        # margin: own total minus the mean total of the others
        for a, value in sums["margin"].items():
            others = [t for b, t in totals.items() if b != a]
            assert value == pytest.approx(totals[a] - sum(others) / len(others))


def test_rounds_deal_fresh_cards_and_add_up() -> None:
    par = parallel_env(num_players=2, rounds=2)
    obs, _ = par.reset(seed=5)
    first_cards = list(par.game_state.grids[0].cards)
    round_scores = []
    for step in range(50):
        actions = {a: int(np.flatnonzero(obs[a]["action_mask"])[0]) for a in par.agents}
        obs, rewards, terms, _, infos = par.step(actions)
        if step == 24:
            round_scores.append(infos["player_0"]["score"])
            assert rewards["player_0"] == infos["player_0"]["score"]
            assert not any(terms.values()) and par.agents
            assert obs["player_0"]["observation"][521] == 0  # a fresh grid
            assert par.game_state.grids[0].cards != first_cards
    round_scores.append(infos["player_0"]["score"])
    assert infos["player_0"]["total"] == sum(round_scores)
    assert all(terms.values())


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"num_players": 1}, "bad num_players 1"),
        ({"num_players": 9}, "bad num_players 9"),
        ({"num_players": 2.0}, "bad num_players 2.0"),
        ({"rounds": 0}, "bad rounds 0"),
        ({"reward": "win"}, "bad reward 'win'"),
        ({"render_mode": "rgb"}, "bad render_mode 'rgb'"),
    ],
)
def test_bad_options(options: dict, message: str) -> None:
    """The table's own options (the rule options: tests/poker_squares/test_rules.py)."""
    for factory in (parallel_env, raw_env):
        with pytest.raises(ValueError, match=message):
            factory(**options)


def test_parallel_illegal_action_changes_nothing() -> None:
    par = parallel_env(num_players=2)
    par.reset(options={"cards": SEED_GRID})
    par.step({"player_0": 0, "player_1": 0})
    before = {a: encode_observation(s).copy() for a, s in enumerate(par.game_state.grids)}
    with pytest.raises(IllegalActionError, match=r"cell for player_1 r1c1 \(0\)"):
        par.step({"player_0": 1, "player_1": 0})
    with pytest.raises(IllegalActionError, match="no action for player_1"):
        par.step({"player_0": 1})
    after = {a: encode_observation(s) for a, s in enumerate(par.game_state.grids)}
    assert all(np.array_equal(before[a], after[a]) for a in before)
    par.step({"player_0": 1, "player_1": 1})
    for i in range(2, 25):
        par.step({"player_0": i, "player_1": i})
    with pytest.raises(GameOverError):
        par.step({"player_0": 0, "player_1": 0})


def test_aec_turns_masks_and_illegal_action() -> None:
    aec = raw_env(num_players=2, placement="adjacent")
    aec.reset(options={"cards": SEED_GRID})
    assert aec.agent_selection == "player_0"
    assert aec.observe("player_0")["action_mask"].tolist() == [int(c == 12) for c in range(25)]
    assert not aec.observe("player_1")["action_mask"].any()  # not on turn
    with pytest.raises(IllegalActionError, match=r"cell for player_0 r1c1 \(0\)"):
        aec.step(0)
    assert aec.agent_selection == "player_0"
    aec.step(12)
    assert aec.agent_selection == "player_1"
    assert aec.observe("player_1")["action_mask"][12] == 1
    # player_0 has placed 8c and waits; player_1 still has it to place
    assert aec.observe("player_1")["observation"][521] == 0
    assert aec.observe("player_0")["observation"][521] == 1
    aec.step(12)
    assert aec.agent_selection == "player_0"
    card = aec.observe("player_0")["observation"][450:468]
    assert int(np.flatnonzero(card)[0]) == parse_cards("Qc")[0] >> 2  # the next card, a queen


def test_aec_rewards_arrive_at_the_round_end() -> None:
    aec = raw_env(num_players=2, rounds=1, reward="margin")
    aec.reset(options={"cards": SEED_GRID})
    transposed = [5 * (i % 5) + i // 5 for i in range(25)]
    order = {"player_0": list(range(25)), "player_1": [transposed[i] for i in range(25)]}
    order["player_1"][0], order["player_1"][1] = order["player_1"][1], order["player_1"][0]
    placed = {"player_0": 0, "player_1": 0}
    totals = {"player_0": 0.0, "player_1": 0.0}
    for agent in aec.agent_iter():
        _, reward, term, _, info = aec.last()
        totals[agent] += reward
        if term:
            assert "total" in info
            aec.step(None)
            continue
        aec.step(order[agent][placed[agent]])
        placed[agent] += 1
    assert totals["player_0"] == -totals["player_1"]
    assert aec.agents == []


def test_render_shows_every_grid() -> None:
    par = parallel_env(num_players=2, render_mode="ansi")
    par.reset(options={"cards": SEED_GRID})
    text = par.render()
    assert "player_0" in text and "player_1" in text and "round 1/1" in text
    assert parallel_env().render() is None
