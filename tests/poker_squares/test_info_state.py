"""Multi-player Poker Squares' infos (the same numeric keys at every step) and whole state
(``env.state()``), and the ``float32`` observations of every Poker Squares env (the same values
as the ``uint8`` ones before, and the same features, bots and policies whatever the dtype)."""

from __future__ import annotations

import hashlib
import warnings

import numpy as np
import pytest
from pettingzoo.test import state_test
from pokerzoo.agents.poker_squares import BOTS
from pokerzoo.envs import poker_squares_v0
from pokerzoo.envs.core.cards import JOKER, parse_cards
from pokerzoo.envs.poker_squares import (
    INFO_SCHEMA,
    LAYOUT,
    PokerSquaresEnv,
    PokerSquaresGame,
    PokerSquaresVectorEnv,
    decode_observation,
)

from tests.helpers import aec_infos, check_info, parallel_infos, single_seat_episode

SEED_GRID = "8c Qc Tc 4c 2c 9h Qh Th Jh Kh Ad 8d Td 4h 5s As Qs Ts Js Ks 3d 6s 7h 4d 5d"
TRANSPOSED = [5 * (i % 5) + i // 5 for i in range(25)]  # fills the grid column by column
SCRAMBLED = [(7 * i) % 25 for i in range(25)]  # card i to cell 7i mod 25: 109 / 49 points
NEUTRAL = {"score": 0, "grid": [-1] * 25, "total": 0, "rounds_done": 0, "won": False}
OPTIONS = [
    {},
    {"num_players": 3, "rounds": 2, "reward": "margin"},
    {"num_players": 8, "reward": "incremental", "jokers": 2, "placement": "adjacent"},
    {"variant": "shuffle", "scoring": "english", "rounds": 3},
    {"scoring": {"pair": -4, "flush": 9}, "rounds": 2},
]


def _plain(info: dict) -> dict:
    return {k: np.asarray(info[k]).tolist() for k in INFO_SCHEMA.names}


# --- infos -------------------------------------------------------------------------------------
@pytest.mark.parametrize("options", OPTIONS, ids=str)
def test_every_info_matches_the_schema_and_the_state_its_space(options: dict) -> None:
    rng = np.random.default_rng(0)
    aec = poker_squares_v0.env(masked_action="random", **options)
    schema = aec.unwrapped.info_schema
    assert schema.names == (*INFO_SCHEMA.names, "masked_action")  # the mask: in the observation
    aec.reset(seed=1)
    for _agent in aec.agent_iter():
        for other in aec.agents:
            check_info(aec.infos[other], schema)
        assert aec.state_space.contains(aec.state())
        obs, _, term, trunc, _ = aec.last()
        aec.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    par = poker_squares_v0.parallel_env(**options)
    obs, infos = par.reset(seed=2)
    while True:
        for info in infos.values():
            check_info(info, par.info_schema)
        assert par.state_space.contains(par.state())
        if not par.agents:
            break
        obs, _, _, _, infos = par.step(
            {a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"]))) for a in par.agents}
        )
    rounds = options.get("rounds", 1)
    assert all(info["rounds_done"] == rounds for info in infos.values())
    assert sum(info["won"] for info in infos.values()) >= 1


# player_1's cell for each card, scoring, (score, won) of player_0 and player_1
DEALS = [
    (TRANSPOSED, "american", (302, True), (302, True)),
    (TRANSPOSED, "english", (113, True), (113, True)),
    (SCRAMBLED, "american", (302, True), (109, False)),
    (SCRAMBLED, "english", (113, True), (49, False)),
]


@pytest.mark.parametrize(("cells", "scoring", "first", "second"), DEALS)
@pytest.mark.parametrize("api", ["aec", "parallel"])
def test_info_content_on_a_fixed_deal(
    cells: list[int], scoring: str, first: tuple, second: tuple, api: str
) -> None:
    # player_0 places the seed grid row by row (RULES §3: 302 American, 113 English)
    order = {"player_0": list(range(25)), "player_1": cells}
    placed = {"player_0": 0, "player_1": 0}

    def place(agent: str) -> int:
        """The cell ``order`` gives ``agent``'s next card."""
        placed[agent] += 1
        return order[agent][placed[agent] - 1]

    if api == "parallel":
        env = poker_squares_v0.parallel_env(scoring=scoring)
        reset = env.reset(options={"cards": SEED_GRID})
        seen, final = parallel_infos(env, reset, lambda _: {a: place(a) for a in env.agents})
    else:
        aec = poker_squares_v0.env(scoring=scoring)
        aec.reset(options={"cards": SEED_GRID})
        seen, final = aec_infos(aec, lambda agent, _: place(agent))
    assert len(seen) == (50 if api == "parallel" else 100)
    assert all(_plain(info) == NEUTRAL for info in seen)
    ids = parse_cards(SEED_GRID)
    for agent, (score, won) in (("player_0", first), ("player_1", second)):
        grid = [0] * 25
        for i, cell in enumerate(order[agent]):
            grid[cell] = ids[i]
        expected = {"score": score, "grid": grid, "total": score, "rounds_done": 1, "won": won}
        assert _plain(final[agent]) == expected
        assert isinstance(final[agent]["score"], np.integer)
        assert isinstance(final[agent]["won"], np.bool_)


def test_later_rounds_keep_the_last_finished_rounds_results() -> None:
    env = poker_squares_v0.parallel_env(num_players=2, rounds=2)
    obs, infos = env.reset(seed=4, options={"cards": SEED_GRID})
    for i in range(50):
        before = infos
        obs, rewards, _, _, infos = env.step(
            {a: int(np.flatnonzero(obs[a]["action_mask"])[0]) for a in env.agents}
        )
        if i < 24:
            assert _plain(infos["player_0"]) == NEUTRAL
        elif i == 24:  # round 1 over (302: the seed grid, row by row), round 2 dealt
            first = _plain(infos["player_0"])
            assert first == {
                "score": 302,
                "grid": parse_cards(SEED_GRID),
                "total": 302,
                "rounds_done": 1,
                "won": False,
            }
        elif i < 49:
            assert _plain(infos["player_0"]) == _plain(before["player_0"]) == first
    last = _plain(infos["player_0"])
    assert last["rounds_done"] == 2 and last["score"] == rewards["player_0"]
    assert last["total"] == 302 + last["score"] and last["won"] is True
    assert last["grid"] == env.game_state.grids[0].grid


# --- state -------------------------------------------------------------------------------------
def _card(features: np.ndarray) -> int:
    """A card id from its 18 observation features (-1: none)."""
    if not features.any():
        return -1
    if features[17]:
        return JOKER
    return 4 * int(np.argmax(features[:13])) + int(np.argmax(features[13:17]))


def _decode_state(vector: np.ndarray, layout: object, n: int) -> dict:
    v = np.asarray(vector)
    grids = v[layout["grids"]].reshape(n, 25, 18)  # type: ignore[index]
    to_act = np.flatnonzero(v[layout["to_act"]])  # type: ignore[index]
    return {
        "grids": [[_card(c) for c in grid] for grid in grids],
        "deal": [_card(c) for c in v[layout["deal"]].reshape(25, 18)],  # type: ignore[index]
        "placed": v[layout["placed"]].tolist(),  # type: ignore[index]
        "to_act": int(to_act[0]) if to_act.size else -1,
        "scores": v[layout["scores"]].tolist(),  # type: ignore[index]
        "totals": v[layout["totals"]].tolist(),  # type: ignore[index]
        "rounds_done": int(v[layout["rounds_done"]][0]),  # type: ignore[index]
    }


def _engine_view(table: PokerSquaresGame, state: object) -> dict:
    grids = state.grids  # type: ignore[attr-defined]
    return {
        "grids": [list(g.grid) for g in grids],
        "deal": list(grids[0].cards),
        "placed": [g.placed for g in grids],
        "to_act": table.current_player(state),  # type: ignore[arg-type]
        "scores": [g.score for g in grids],
        "totals": list(state.totals),  # type: ignore[attr-defined]
        "rounds_done": state.rounds_done,  # type: ignore[attr-defined]
    }


@pytest.mark.parametrize(
    "options",
    [{"num_players": 3, "rounds": 2, "reward": "incremental"}, {"jokers": 2, "variant": "shuffle"}],
    ids=str,
)
def test_state_decodes_back_to_the_engine_state_at_every_step(options: dict) -> None:
    env = poker_squares_v0.env(**options)
    table = env.unwrapped.game
    n = table.num_players
    assert env.state_space.shape == (n * 450 + 450 + 4 * n + 1,)
    env.reset(seed=3, options={"cards": SEED_GRID[:-2] + "Jk" if options.get("jokers") else None})
    rng = np.random.default_rng(1)
    views = []
    for _agent in env.agent_iter():
        state = env.state()
        assert state.dtype == np.float32 and env.state_space.contains(state)
        views.append(_decode_state(state, table.state_layout, n))
        assert views[-1] == _engine_view(table, env.unwrapped.game_state)
        obs, _, term, _, _ = env.last()
        env.step(None if term else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert views[1]["placed"] == [1] + [0] * (n - 1) and views[1]["to_act"] == 1
    assert all(cell >= 0 for grid in views[-1]["grids"] for cell in grid)


def test_the_state_holds_the_cards_to_come_and_every_grid() -> None:
    env = poker_squares_v0.parallel_env(num_players=2)
    obs, _ = env.reset(options={"cards": SEED_GRID})
    obs, *_ = env.step({"player_0": 0, "player_1": 24})
    state = _decode_state(env.state(), env.game.state_layout, 2)
    assert state["deal"] == parse_cards(SEED_GRID)  # all 25, the next 24 included
    assert state["grids"][0][0] == state["grids"][1][24] == parse_cards("8c")[0]
    view = decode_observation(obs["player_0"]["observation"])
    assert view.grid[24] == -1 and view.card == parse_cards("Qc")[0]  # no other grid, no future


def test_state_bounds_are_finite_and_pettingzoo_state_test_passes() -> None:
    for options in OPTIONS:
        space = poker_squares_v0.parallel_env(**options).state_space
        assert np.isfinite(space.low).all() and np.isfinite(space.high).all()
        assert (space.low < space.high).all()
    low = poker_squares_v0.parallel_env(scoring={"pair": -4}, rounds=3).state_space.low
    assert low.min() == -120  # 3 rounds x 10 lines x -4
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for options in OPTIONS[:3]:
            state_test(
                poker_squares_v0.env(masked_action="random", **options),
                poker_squares_v0.parallel_env(masked_action="random", **options),
                num_cycles=60,
            )
    assert not [str(w.message) for w in caught if "state" in str(w.message).lower()]


# --- observations: float32, the same values -----------------------------------------------------
OLD_DIGEST = "d36339558f2c3c19d39ce5577c179b7a0d58441847ec4c12a7a4748adc34806f"
"""sha256 of :func:`_observation_digest`'s observations as the ``uint8`` encoders wrote them."""


def _observation_digest() -> str:
    """Observations of seeded and fixed deals through every env, as ``uint8`` bytes."""
    digest = hashlib.sha256()

    def add(observation: np.ndarray) -> None:
        assert observation.dtype == np.float32 and observation.shape[-1] == LAYOUT.size
        assert np.array_equal(observation, observation.astype(np.uint8))
        digest.update(observation.astype(np.uint8).tobytes())

    option_sets = [
        {},
        {"jokers": 2},
        {"variant": "shuffle"},
        {"placement": "adjacent", "jokers": 1},
    ]
    for k, options in enumerate(option_sets):
        for seed in range(3):
            for cards in (None, SEED_GRID):
                opts = None if cards is None else {"cards": cards}
                rng = np.random.default_rng(100 * k + seed)
                for o in single_seat_episode(PokerSquaresEnv(**options), rng, seed, opts):
                    add(o)
                par = poker_squares_v0.parallel_env(num_players=3, rounds=2, **options)
                obs, _ = par.reset(seed=seed, options=opts)
                for a in sorted(obs):
                    add(obs[a]["observation"])
                while par.agents:
                    acts = {
                        a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"])))
                        for a in par.agents
                    }
                    obs, *_ = par.step(acts)
                    for a in sorted(obs):
                        add(obs[a]["observation"])
                aec = poker_squares_v0.env(**options)
                aec.reset(seed=seed, options=opts)
                for _agent in aec.agent_iter():
                    o, _, term, trunc, _ = aec.last()
                    add(o["observation"])
                    done = term or trunc
                    aec.step(None if done else int(rng.choice(np.flatnonzero(o["action_mask"]))))
        for mode in ("NextStep", "SameStep"):
            venv = PokerSquaresVectorEnv(3, autoreset_mode=mode, **options)
            o, info = venv.reset(seed=7 + k)
            add(o)
            rng = np.random.default_rng(k)
            for _ in range(60):
                acts = np.array(
                    [rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in info["action_mask"]]
                )
                o, _, _, _, info = venv.step(acts)
                add(o)
                if "final_obs" in info:
                    add(info["final_obs"])
    return digest.hexdigest()


def test_observations_are_float32_with_the_values_of_the_uint8_encoder() -> None:
    spaces = [
        PokerSquaresEnv().observation_space,
        PokerSquaresVectorEnv(2).single_observation_space,
        PokerSquaresVectorEnv(2).observation_space,
        poker_squares_v0.raw_env().observation_space("player_0")["observation"],
    ]
    for space in spaces:
        assert space.dtype == np.float32
        assert np.isfinite(space.low).all() and np.isfinite(space.high).all()
    assert _observation_digest() == OLD_DIGEST


def test_every_env_names_its_render_fps() -> None:
    envs = (
        poker_squares_v0.raw_env,
        poker_squares_v0.PokerSquaresParallelEnv,
        PokerSquaresEnv,
        PokerSquaresVectorEnv,
    )
    for cls in envs:
        assert cls.metadata["render_fps"] == 4 and cls.metadata["render_modes"] == ["ansi", "human"]


def _observations(jokers: int = 0) -> np.ndarray:
    """Every observation of a few seeded random games of the single env."""
    env = PokerSquaresEnv(jokers=jokers)
    rng = np.random.default_rng(0)
    seen = []
    for seed in range(4):
        o, info = env.reset(seed=seed)
        seen.append(o)
        for _ in range(25):
            o, *_, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
            seen.append(o)
    return np.stack(seen)


def test_features_and_policies_do_not_depend_on_the_observation_dtype() -> None:
    from pokerzoo.training.games.poker_squares.hooks import lines
    from pokerzoo.training.games.poker_squares.td import (
        NUM_KEYS,
        LineValues,
        decode_batch,
        make_policy,
    )

    floats = _observations()
    small = floats.astype(np.uint8)
    assert np.array_equal(floats, small)
    assert np.array_equal(lines(floats), lines(small)) and lines(small).dtype == np.float32
    a, b = decode_batch(floats), decode_batch(small)
    assert all(np.array_equal(x, y) and x.dtype == y.dtype for x, y in zip(a, b, strict=True))
    values = LineValues(table=np.random.default_rng(0).normal(size=NUM_KEYS))
    masks = np.array([[c == -1 for c in decode_observation(o).grid] for o in floats])
    for lookahead in (False, True):
        policy = make_policy(values, lookahead=lookahead)
        assert np.array_equal(policy(floats, masks), policy(small, masks))
    for f, u in zip(_observations(jokers=2), _observations(jokers=2).astype(np.uint8), strict=True):
        x, y = decode_observation(f), decode_observation(u)
        assert (x.grid, x.card, x.placed) == (y.grid, y.card, y.placed)
        assert np.array_equal(x.to_come, y.to_come) and x.to_come.dtype == y.to_come.dtype


@pytest.mark.parametrize("name", sorted(BOTS))
def test_bots_move_the_same_whatever_the_observation_dtype(name: str) -> None:
    floats = _observations()[:: 5 if name == "search" else 1]
    moves = []
    for observations in (floats, floats.astype(np.uint8)):
        bot = BOTS[name](seed=5)
        moves.append(
            [
                bot.act(o, np.array([c == -1 for c in decode_observation(o).grid], np.int8))
                for o in observations
                if decode_observation(o).card != -1
            ]
        )
    assert moves[0] == moves[1] and len(moves[0]) >= 20


def test_the_docstring_state_table_is_the_default_games() -> None:
    from pokerzoo.envs.poker_squares import game

    assert game.PokerSquaresGame().state_layout.table() == game.DEFAULT_STATE_TABLE
    assert game.DEFAULT_STATE_TABLE in (game.__doc__ or "")
