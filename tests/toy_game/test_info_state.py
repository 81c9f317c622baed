"""The toy game's infos (the same numeric keys at every step), whole state (``env.state()``)
and ``float32`` observations, as every shipped game has them."""

from __future__ import annotations

import numpy as np
import pytest
from pokerzoo.envs.core.build import single_env_class
from pokerzoo.envs.core.cards import parse_cards

from tests.helpers import check_info, check_pettingzoo_state

from .game import INFO_SCHEMA, LAYOUT, STATE_LAYOUT
from .spec import SPEC

env = SPEC.make_aec  # the envs built from the spec (pokerzoo.envs.core.build)
TakeTwoEnv = single_env_class(SPEC)

ROW = "As 7d Kh 2c Qs"  # ranks 12, 5, 11, 0, 10


def test_every_info_matches_the_schema_and_every_state_its_space() -> None:
    game = env(masked_action="random")
    schema = game.unwrapped.info_schema
    assert schema.names == (*INFO_SCHEMA.names, "masked_action")  # the mask: in the observation
    rng = np.random.default_rng(0)
    for seed in range(10):
        game.reset(seed=seed)
        for _agent in game.agent_iter():
            for other in game.agents:
                check_info(game.infos[other], schema)
            assert game.state_space.contains(game.state())
            obs, _, term, trunc, _ = game.last()
            game.step(None if term or trunc else int(rng.integers(5)))  # masked: random
    single = TakeTwoEnv(opponent="random")
    assert single.info_schema.names == (*INFO_SCHEMA.names, "action_mask", "seat")
    _, info = single.reset(seed=0)
    check_info(info, single.info_schema)
    assert info["seat"] == single.seats.index(single.learner)
    assert set(single.opponents) == set(single.seats) - {single.learner}


# takes in turn (player_0 first), rank totals, winner
GAMES = [
    ([0, 2, 4, 1], [22, 16], 0),  # As + Qs against Kh + 7d
    ([3, 0, 1, 2], [5, 23], 1),  # 2c + 7d against As + Kh
    ([0, 2, 3, 4], [12, 21], 1),
    ([2, 4, 0, 3], [23, 10], 0),
]


@pytest.mark.parametrize(("takes", "totals", "winner"), GAMES)
def test_info_and_state_on_a_fixed_row(takes: list[int], totals: list[int], winner: int) -> None:
    game = env()
    game.reset(options={"cards": ROW})
    ranks = [c >> 2 for c in parse_cards(ROW)]
    owner = [-1] * 5
    for k, card in enumerate(takes):
        for agent in game.agents:
            info = game.infos[agent]
            assert info["totals"].tolist() == [0, 0] and info["winner"] == -1
        state = game.state()
        assert state[STATE_LAYOUT["ranks"]].tolist() == ranks
        taken = state[STATE_LAYOUT["owner"]].reshape(2, 5)
        assert [0 if taken[0, i] else 1 if taken[1, i] else -1 for i in range(5)] == owner
        assert np.flatnonzero(state[STATE_LAYOUT["to_act"]]).tolist() == [k % 2]
        so_far = [sum(r for r, o in zip(ranks, owner, strict=True) if o == p) for p in (0, 1)]
        assert state[STATE_LAYOUT["totals"]].tolist() == so_far
        game.step(card)
        owner[card] = k % 2
    for agent in ("player_0", "player_1"):
        assert game.infos[agent]["totals"].tolist() == totals
        assert game.infos[agent]["winner"] == winner
    state = game.state()
    assert not state[STATE_LAYOUT["to_act"]].any()
    assert state[STATE_LAYOUT["totals"]].tolist() == totals


def test_a_tie_has_no_winner_and_observations_are_float32() -> None:
    game = env()
    game.reset(options={"cards": "As Ah 3c 3d 9s"})
    for card in (0, 1, 2, 3):
        game.step(card)
    assert game.infos["player_0"]["totals"].tolist() == [13, 13]
    assert game.infos["player_0"]["winner"] == -1
    obs = game.observe("player_0")["observation"]
    assert obs.dtype == LAYOUT.dtype == np.float32
    assert game.observation_space("player_0")["observation"].dtype == np.float32
    assert obs.tolist() == [12, 12, 1, 1, 7, 1, 0, 1, 0, 0, 0, 1, 0, 1, 0]


def test_every_env_names_its_render_fps() -> None:
    assert env().metadata["render_fps"] == TakeTwoEnv.metadata["render_fps"] == 4


def test_pettingzoo_state_test() -> None:
    game = env(masked_action="random")
    check_pettingzoo_state(game, 20)
    assert np.isfinite(game.state_space.low).all() and np.isfinite(game.state_space.high).all()
