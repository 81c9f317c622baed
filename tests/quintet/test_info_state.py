"""Quintet's infos (the same numeric keys at every step), its whole state (``env.state()``) and
its ``float32`` observations (the same values as the ``uint8`` ones before, and the same
features and bot moves whatever the dtype)."""

from __future__ import annotations

import hashlib

import numpy as np
import pytest
from pokerzoo.agents.quintet import BOTS
from pokerzoo.envs import quintet_v0
from pokerzoo.envs.core.cards import parse_cards
from pokerzoo.envs.quintet import INFO_SCHEMA, LAYOUT, STATE_LAYOUT, QuintetGame
from pokerzoo.envs.quintet import decode_observation as decode
from pokerzoo.envs.quintet.env import QuintetEnv

from tests.helpers import (
    aec_infos,
    check_aec_info_names,
    check_info,
    check_pettingzoo_state,
    parallel_infos,
    play_aec_games,
    single_seat_episode,
)

RULES = QuintetGame()
FULL_HOUSES = "Ac Ad Ah As Kc  Kd Kh Ks Qc Qd  Qh Qs Jc Jd Jh  Js Tc Td Th Ts  9c 9d 9h 9s 8c"
REVERSED = "9c 9d 9h 9s 8c  Js Tc Td Th Ts  Qh Qs Jc Jd Jh  Kd Kh Ks Qc Qd  Ac Ad Ah As Kc"
STRAIGHT_FLUSHES = "Jc Tc 9c 8c 7c  Jd Td 9d 8d 7d  Jh Th 9h 8h 7h  Js Ts 9s 8s 7s  Ac Ad Ah As Kc"
JUNK = "Jc Td 9h 8s Ac  Jd Th 9s 8c Ad  Js Tc 9d 8h Ah  Jh Ts 9c 8d 7c  As Kc 7d 7h 7s"
NEUTRAL = {
    "points": [0, 0],
    "winner": -1,
    "results": [0] * 5,
    "arrangements": [[[-1] * 5] * 5] * 2,
}


def _row(row: str) -> list[list[int]]:
    """The five packs of a row as card ids in placement order (descending id)."""
    ids = parse_cards(row)
    return [sorted(ids[i : i + 5], reverse=True) for i in range(0, 25, 5)]


def _pack_of(row: str) -> dict[int, int]:
    return {card: p for p, pack in enumerate(_row(row)) for card in pack}


def _plain(info: dict) -> dict:
    """The game's keys of an info as plain lists, for comparisons."""
    return {k: np.asarray(info[k]).tolist() for k in INFO_SCHEMA.names}


# --- infos -------------------------------------------------------------------------------------
@pytest.mark.parametrize("masked_action", ["raise", "random"])
def test_every_info_of_an_aec_game_matches_the_schema(masked_action: str) -> None:
    env = quintet_v0.env(masked_action=masked_action)
    schema = env.unwrapped.info_schema
    check_aec_info_names(schema, INFO_SCHEMA.names, masked_action)
    play_aec_games(env, range(3), np.random.default_rng(0), schema=schema)


def test_every_info_of_a_parallel_game_and_of_the_gymnasium_env_matches_the_schema() -> None:
    env = quintet_v0.parallel_env(masked_action="random")
    obs, infos = env.reset(seed=1)
    steps = 0
    while True:
        for info in infos.values():
            check_info(info, env.info_schema)
        if not env.agents:
            break
        obs, _, _, _, infos = env.step({a: 0 for a in env.agents})  # masked: random packs
        steps += 1
    assert steps == 25
    single = QuintetEnv(opponent="random", seat=None)
    base = quintet_v0.raw_env().info_schema
    assert single.info_schema.names == (*base.names, "action_mask", "seat")
    for seed in range(2):
        _, info = single.reset(seed=seed)
        while True:
            assert ("player_0", "player_1")[info["seat"]] == single.learner
            assert set(single.opponents) == {"player_0", "player_1"} - {single.learner}
            check_info(info, single.info_schema)
            if not info["action_mask"].any():
                break
            _, _, _, _, info = single.step(int(np.flatnonzero(info["action_mask"])[0]))


# row of player_0, row of player_1, points, winner, results per position
DEALS = [
    (FULL_HOUSES, REVERSED, [9, 11], 1, [1, -1, 0, 1, -1]),
    (REVERSED, FULL_HOUSES, [11, 9], 0, [-1, 1, 0, -1, 1]),
    (STRAIGHT_FLUSHES, JUNK, [25, 0], 0, [1, 1, 1, 1, 1]),
    (FULL_HOUSES, FULL_HOUSES, [0, 0], -1, [0, 0, 0, 0, 0]),
]


@pytest.mark.parametrize(
    ("row0", "row1", "points", "winner", "results"),
    DEALS,
    ids=["full-houses-vs-reversed", "reversed-vs-full-houses", "straight-flushes-vs-junk", "draw"],
)
@pytest.mark.parametrize("api", ["aec", "parallel"])
def test_info_content_on_a_fixed_deal(
    row0: str, row1: str, points: list, winner: int, results: list, api: str
) -> None:
    rows = {"player_0": _pack_of(row0), "player_1": _pack_of(row1)}
    if api == "parallel":
        env = quintet_v0.parallel_env()

        def place(obs: dict) -> dict[str, int]:
            card = decode(obs["player_0"]["observation"]).current
            return {a: rows[a][card] for a in env.agents}

        seen, final = parallel_infos(env, env.reset(options={"cards": row0}), place)
    else:
        aec = quintet_v0.env()
        aec.reset(options={"cards": row0})
        seen, final = aec_infos(
            aec, lambda agent, obs: rows[agent][decode(obs["observation"]).current]
        )
    assert len(seen) == (50 if api == "parallel" else 100)  # 25 cards, 2 infos a step
    assert all(_plain(info) == NEUTRAL for info in seen)
    expected = {
        "points": points,
        "winner": winner,
        "results": results,
        "arrangements": [_row(row0), _row(row1)],
    }
    assert set(final) == {"player_0", "player_1"}
    assert all(_plain(info) == expected for info in final.values())
    assert isinstance(final["player_0"]["winner"], np.integer)


# --- state -------------------------------------------------------------------------------------
def _decode_state(vector: np.ndarray) -> dict:
    """What :data:`STATE_LAYOUT` says, read back by its index table."""
    v = np.asarray(vector)
    packs = v[STATE_LAYOUT["packs"]].reshape(2, 5, 32)
    current = v[STATE_LAYOUT["current"]].reshape(2, 32)
    to_act = np.flatnonzero(v[STATE_LAYOUT["to_act"]])
    return {
        "cards": sorted((np.flatnonzero(v[STATE_LAYOUT["dealt"]]) + 20).tolist(), reverse=True),
        "packs": [
            [sorted((np.flatnonzero(packs[s, p]) + 20).tolist(), reverse=True) for p in range(5)]
            for s in range(2)
        ],
        "current": [int(np.argmax(c)) + 20 if c.any() else None for c in current],
        "pack_sizes": v[STATE_LAYOUT["pack_sizes"]].reshape(2, 5).tolist(),
        "placed": v[STATE_LAYOUT["placed"]].tolist(),
        "to_act": int(to_act[0]) if to_act.size else -1,
        "results": v[STATE_LAYOUT["results"]].tolist(),
        "points": v[STATE_LAYOUT["points"]].tolist(),
    }


def _engine_view(state: object) -> dict:
    over = RULES.is_terminal(state)  # type: ignore[arg-type]
    outcome = RULES.outcome(state) if over else None  # type: ignore[arg-type]
    return {
        "cards": state.cards.tolist(),  # type: ignore[attr-defined]
        "packs": [RULES.pack_cards(state, s) for s in range(2)],  # type: ignore[arg-type]
        "current": [RULES.current_card(state, s) for s in range(2)],  # type: ignore[arg-type]
        "pack_sizes": state.pack_sizes.tolist(),  # type: ignore[attr-defined]
        "placed": state.placed.tolist(),  # type: ignore[attr-defined]
        "to_act": RULES.current_player(state),  # type: ignore[arg-type]
        "results": list(outcome.results) if outcome else [0] * 5,
        "points": list(outcome.points) if outcome else [0, 0],
    }


@pytest.mark.parametrize(("row0", "row1"), [(FULL_HOUSES, REVERSED), (STRAIGHT_FLUSHES, JUNK)])
def test_state_decodes_back_to_the_engine_state_at_every_step(row0: str, row1: str) -> None:
    env = quintet_v0.env()
    env.reset(options={"cards": row0})
    assert env.state_space.shape == (437,) and env.state_space.dtype == np.float32
    rows = {"player_0": _pack_of(row0), "player_1": _pack_of(row1)}
    views = []
    for agent in env.agent_iter():
        state = env.state()
        assert state.dtype == np.float32 and env.state_space.contains(state)
        views.append(_decode_state(state))
        assert views[-1] == _engine_view(env.unwrapped.game_state)
        obs, _, term, _, _ = env.last()
        env.step(None if term else rows[agent][decode(obs["observation"]).current])
    # the state shows both rows as they are built: player_0 is one card ahead in the AEC env
    assert views[1]["placed"] == [1, 0] and views[1]["to_act"] == 1
    assert views[-1]["packs"] == [_row(row0), _row(row1)] and views[-1]["to_act"] == -1


def test_state_space_holds_the_state_at_every_step_and_pettingzoo_state_test() -> None:
    env = quintet_v0.parallel_env(masked_action="random")
    rng = np.random.default_rng(3)
    for seed in range(5):
        obs, _ = env.reset(seed=seed)
        while env.agents:
            assert env.state_space.contains(env.state())
            obs, *_ = env.step(
                {a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"]))) for a in env.agents}
            )
        assert env.state_space.contains(env.state())
    assert np.isfinite(env.state_space.low).all() and np.isfinite(env.state_space.high).all()
    check_pettingzoo_state(
        quintet_v0.env(masked_action="random"), 30, quintet_v0.parallel_env(masked_action="random")
    )


def test_the_state_holds_what_the_observations_hide() -> None:
    env = quintet_v0.parallel_env()
    obs, _ = env.reset(seed=2)
    obs, *_ = env.step({"player_0": 0, "player_1": 4})
    state = _decode_state(env.state())
    card = state["cards"][0]
    assert state["packs"][0][0] == [card] and state["packs"][1][4] == [card]
    for agent in ("player_0", "player_1"):  # each observation holds its own packs only
        assert decode(obs[agent]["observation"]).packs == state["packs"][int(agent[-1])]


# --- observations: float32, the same values -----------------------------------------------------
OLD_DIGEST = "012019663561b3fbfd0ef7d4f6ed8fab635a10be14ae29b5c8059898ca3a2534"
"""sha256 of :func:`_observation_digest`'s observations as the ``uint8`` encoder wrote them."""


def _observation_digest() -> str:
    """Observations of seeded and fixed deals through every API, as ``uint8`` bytes."""
    digest = hashlib.sha256()

    def add(observation: np.ndarray) -> None:
        assert observation.dtype == np.float32 and observation.shape == (LAYOUT.size,)
        assert np.array_equal(observation, observation.astype(np.uint8))
        digest.update(observation.astype(np.uint8).tobytes())

    for seed in range(6):
        for cards in (None, FULL_HOUSES):
            opts = None if cards is None else {"cards": cards}
            rng = np.random.default_rng(seed)
            env = quintet_v0.parallel_env()
            obs, _ = env.reset(seed=seed, options=opts)
            for a in sorted(obs):
                add(obs[a]["observation"])
            while env.agents:
                acts = {
                    a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"]))) for a in env.agents
                }
                obs, *_ = env.step(acts)
                for a in sorted(obs):
                    add(obs[a]["observation"])
            aec = quintet_v0.env()
            aec.reset(seed=seed, options=opts)
            for agent in aec.agent_iter():
                o, _, term, trunc, _ = aec.last()
                add(o["observation"])
                add(aec.observe("player_1" if agent == "player_0" else "player_0")["observation"])
                done = term or trunc
                aec.step(None if done else int(rng.choice(np.flatnonzero(o["action_mask"]))))
            single = QuintetEnv(opponent="greedy", seat=seed % 2)
            for o in single_seat_episode(single, rng, seed, opts):
                add(o)
    return digest.hexdigest()


def test_observations_are_float32_with_the_values_of_the_uint8_encoder() -> None:
    assert (
        LAYOUT.dtype == np.float32
        and quintet_v0.raw_env().observation_space("player_0")["observation"].dtype == np.float32
    )
    assert QuintetEnv().observation_space.dtype == np.float32
    assert np.isfinite(LAYOUT.low).all() and np.isfinite(LAYOUT.high).all()
    assert _observation_digest() == OLD_DIGEST


def test_every_env_names_its_render_fps() -> None:
    for cls in (quintet_v0.raw_env, quintet_v0.raw_parallel_env, QuintetEnv):
        assert cls.metadata["render_fps"] == 4 and cls.metadata["render_modes"] == ["ansi", "human"]


def _observations(deals: int) -> np.ndarray:
    """Every observation of both seats over ``deals`` seeded random games."""
    env = quintet_v0.parallel_env()
    rng = np.random.default_rng(0)
    seen = []
    for seed in range(deals):
        obs, _ = env.reset(seed=seed)
        while env.agents:
            seen += [obs[a]["observation"] for a in env.agents]
            obs, *_ = env.step(
                {a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"]))) for a in env.agents}
            )
        seen += [obs[a]["observation"] for a in obs]
    return np.stack(seen)


def test_features_and_policies_do_not_depend_on_the_observation_dtype() -> None:
    from pokerzoo.training.games.quintet.hooks import packs, plans
    from pokerzoo.training.games.quintet.packs import PlannedRows, ordered_strongest

    floats = _observations(4)
    small = floats.astype(np.uint8)
    assert np.array_equal(floats, small)
    assert np.array_equal(packs(floats), packs(small)) and packs(small).dtype == np.float32
    few = floats[:30]  # one deal: "plans" runs a search per deal
    assert np.array_equal(plans(few), plans(few.astype(np.uint8)))
    masks = np.ones((len(floats), 5), dtype=bool)
    masks[:, 2] = False
    rows = ordered_strongest((4, 3, 2, 1, 0))
    assert np.array_equal(PlannedRows(rows)(floats, masks), PlannedRows(rows)(small, masks))
    for f, u in zip(floats[::7], small[::7], strict=True):
        a, b = decode(f), decode(u)
        assert a.cards.tolist() == b.cards.tolist() and a.cards.dtype == b.cards.dtype
        assert (a.packs, a.current, a.placed) == (b.packs, b.current, b.placed)


@pytest.mark.parametrize("name", sorted(BOTS))
def test_bots_move_the_same_whatever_the_observation_dtype(name: str) -> None:
    floats = _observations(2)
    moves = []
    for observations in (floats, floats.astype(np.uint8)):
        bot = BOTS[name](seed=5)
        mask = np.ones(5, dtype=np.int8)
        moves.append([bot.act(o, mask) for o in observations if decode(o).current is not None])
    assert moves[0] == moves[1] and len(moves[0]) == 100
