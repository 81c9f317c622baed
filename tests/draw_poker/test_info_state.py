"""Draw poker's infos (the same numeric keys at every step), its whole state (``env.state()``)
and its observations (the same ``float32`` values as before the infos and the state existed)."""

from __future__ import annotations

import hashlib
from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from pokerzoo.envs import draw_poker_v0
from pokerzoo.envs.core.cards import NUM_CARD_IDS, parse_cards
from pokerzoo.envs.draw_poker import (
    CALL,
    FOLD,
    HAND_SIZE,
    INFO_SCHEMA,
    PHASES,
    RAISE,
    STAND_PAT,
    DrawPokerGame,
    discard_action,
    make_info_schema,
)
from pokerzoo.envs.draw_poker.env import DrawPokerEnv

from tests.helpers import (
    check_aec_info_names,
    check_pettingzoo_state,
    plain_info,
    play_aec_games,
    play_single_seat_games,
    random_action,
)

OPTION_SETS = {
    "heads-up": {},
    "4 seats, 2 decks, 4 jokers, 3 hands": {
        "num_players": 4,
        "decks": 2,
        "jokers": 4,
        "hands": 3,
        "stack": 12,
    },
    "3 seats, deuces wild, short stacks, 2 hands": {
        "num_players": 3,
        "deuces_wild": True,
        "stack": [5, 100, 3],
        "hands": 2,
    },
    "10 seats": {"num_players": 10, "stack": 6},
    "6 seats, 20 hands": {"num_players": 6, "hands": 20, "stack": 8},
}
NEUTRAL_2 = {
    "hand": 0,
    "dealer": -1,
    "showdown": False,
    "shown": [[-1] * 5] * 2,
    "categories": [-1, -1],
    "pot_amounts": [0, 0],
    "pot_eligible": [[False] * 2] * 2,
    "pot_winners": [[False] * 2] * 2,
    "pot_shares": [[0] * 2] * 2,
    "put_in": [0, 0],
    "results": [0, 0],
    "stacks": [100, 100],
}


def _plain(info: dict) -> dict:
    """The game's keys of an info as plain Python values, for comparisons."""
    return plain_info(info, INFO_SCHEMA.names)


# --- infos: the schema at every step -------------------------------------------------------------
@pytest.mark.parametrize("masked_action", ["raise", "random"])
@pytest.mark.parametrize("options", OPTION_SETS.values(), ids=OPTION_SETS.keys())
def test_every_info_of_an_aec_game_matches_the_schema(options: dict, masked_action: str) -> None:
    env = draw_poker_v0.env(masked_action=masked_action, **options)
    schema = env.unwrapped.info_schema
    check_aec_info_names(
        schema, make_info_schema(env.unwrapped.game.num_players).names, masked_action
    )
    play_aec_games(env, range(3), np.random.default_rng(0), schema=schema)


@pytest.mark.parametrize("options", OPTION_SETS.values(), ids=OPTION_SETS.keys())
def test_every_info_of_the_gymnasium_env_matches_the_schema(options: dict) -> None:
    single = gym.make("pokerzoo/DrawPoker-v0", opponent="random", **options)
    base = draw_poker_v0.raw_env(**options).info_schema
    play_single_seat_games(single, base.names, range(3), np.random.default_rng(1))


# --- infos: content on fixed decks ----------------------------------------------------------------
def _scripted(options: dict, hands: list[str], stock: str, steps: list) -> tuple[Any, list]:
    """An AEC game of ``hands`` (``player_0`` deals) played by ``steps`` (``(seat, action)``, an
    action given as a function of the state for the draw); the env and every info seen, per
    step, of every agent."""
    env = draw_poker_v0.env(**options)
    game = env.unwrapped.game
    env.reset(options={"cards": game.pack_for(hands, stock), "dealer": 0})
    seen = [dict(env.infos)]
    for seat, action in steps:
        assert env.agent_selection == f"player_{seat}"
        if callable(action):
            action = action(env.unwrapped.game_state)
        env.step(action)
        seen.append(dict(env.infos))
    return env, seen


def _discard(seat: int, cards: str):  # noqa: ANN202 - an action from the state
    return lambda state: discard_action(state.hands[seat].index(c) for c in parse_cards(cards))


PAT = STAND_PAT
CASES = {
    "showdown, pair of aces beats kings": (
        {},
        ["As Ah 9c 7d 4s", "Ks Kh Qc 8d 3s"],
        "",
        [(1, CALL), (0, CALL), (1, PAT), (0, PAT), (1, RAISE), (0, CALL)],
        {
            "hand": 1,
            "dealer": 0,
            "showdown": True,
            "shown": [parse_cards("As Ah 9c 7d 4s"), parse_cards("Ks Kh Qc 8d 3s")],
            "categories": [2, 2],
            "pot_amounts": [6, 0],
            "pot_eligible": [[True, True], [False, False]],
            "pot_winners": [[True, False], [False, False]],
            "pot_shares": [[6, 0], [0, 0]],
            "put_in": [3, 3],
            "results": [3, -3],
            "stacks": [103, 97],
        },
    ),
    "a fold shows no cards": (
        {},
        ["As Ah 9c 7d 4s", "Ks Kh Qc 8d 3s"],
        "",
        [(1, RAISE), (0, FOLD)],
        {
            "hand": 1,
            "dealer": 0,
            "showdown": False,
            "shown": [[-1] * 5] * 2,
            "categories": [-1, -1],
            "pot_amounts": [3, 0],
            "pot_eligible": [[False, True], [False, False]],
            "pot_winners": [[False, True], [False, False]],
            "pot_shares": [[0, 3], [0, 0]],
            "put_in": [1, 2],
            "results": [-1, 1],
            "stacks": [99, 101],
        },
    ),
    "side pots with three all-ins": (
        {"num_players": 4, "stack": (20, 3, 5, 7), "bets": (2, 4)},
        ["Js Th 9d 6c 4h", "As Ah Ad 7c 2s", "Ks Kh Kd 7d 3c", "Qs Qh 8d 8c 3d"],
        "Ac",
        [(1, RAISE), (2, RAISE), (3, RAISE), (0, CALL)]
        + [(1, _discard(1, "2s")), (2, PAT), (3, PAT), (0, PAT)],
        {
            "hand": 1,
            "dealer": 0,
            "showdown": True,
            "shown": [
                parse_cards("Js Th 9d 6c 4h"),
                parse_cards("Ac Ad Ah As 7c"),
                parse_cards("Ks Kh Kd 7d 3c"),
                parse_cards("Qs Qh 8d 8c 3d"),
            ],
            "categories": [0, 8, 4, 3],
            "pot_amounts": [12, 6, 4, 0],
            "pot_eligible": [
                [True, True, True, True],
                [True, False, True, True],
                [True, False, False, True],
                [False] * 4,
            ],
            "pot_winners": [
                [False, True, False, False],
                [False, False, True, False],
                [False, False, False, True],
                [False] * 4,
            ],
            "pot_shares": [[0, 12, 0, 0], [0, 0, 6, 0], [0, 0, 0, 4], [0] * 4],
            "put_in": [7, 3, 5, 7],
            "results": [-7, 9, 1, -3],
            "stacks": [13, 12, 6, 4],
        },
    ),
    "a split pot, the odd chip left of the dealer": (
        {"num_players": 3, "decks": 2},
        ["Ks Qh Jd 8c 4s", "9s 9h 9d 5c 2s", "9s 9h 9c 5d 2h"],
        "",
        [(1, RAISE), (2, CALL), (0, FOLD), (1, PAT), (2, PAT), (1, CALL), (2, CALL)],
        {
            "hand": 1,
            "dealer": 0,
            "showdown": True,
            "shown": [[-1] * 5, parse_cards("9s 9h 9d 5c 2s"), parse_cards("9s 9h 9c 5d 2h")],
            "categories": [-1, 4, 4],
            "pot_amounts": [5, 0, 0],
            "pot_eligible": [[False, True, True], [False] * 3, [False] * 3],
            "pot_winners": [[False, True, True], [False] * 3, [False] * 3],
            "pot_shares": [[0, 3, 2], [0] * 3, [0] * 3],
            "put_in": [1, 2, 2],
            "results": [-1, 1, 0],
            "stacks": [99, 101, 100],
        },
    ),
}


@pytest.mark.parametrize(("options", "hands", "stock", "steps", "expected"), CASES.values(),
                         ids=CASES.keys())  # fmt: skip
def test_info_content_on_a_fixed_deck(
    options: dict, hands: list, stock: str, steps: list, expected: dict
) -> None:
    env, seen = _scripted(options, hands, stock, steps)
    expected = {**expected, "shown": [sorted(row, reverse=True) for row in expected["shown"]]}
    n = len(hands)
    neutral = _plain(env.unwrapped.game._neutral_info)
    for infos in seen[:-1]:  # neutral until the hand is settled, for every agent
        assert all(_plain(info) == neutral for info in infos.values())
    assert neutral["stacks"] == list(env.unwrapped.game.stacks)
    final = seen[-1]
    assert set(final) == {f"player_{s}" for s in range(n)}
    for info in final.values():
        assert _plain(info) == expected
        assert isinstance(info["hand"], np.integer) and isinstance(info["showdown"], np.bool_)
    assert env.unwrapped.game_state.last_hand["results"] == tuple(expected["results"])


def test_the_neutral_info_of_the_default_table() -> None:
    env = draw_poker_v0.env()
    env.reset(seed=0)
    assert all(_plain(info) == NEUTRAL_2 for info in env.infos.values())


def test_the_info_reports_the_last_hand_while_the_next_is_played() -> None:
    env = draw_poker_v0.env(num_players=3, hands=3)
    game = env.unwrapped.game
    hands = ["As Ah 9c 7d 4s", "Ks Kh Qc 8d 3s", "2c 3d 5h 7s 9h"]
    env.reset(options={"cards": game.pack_for(hands), "dealer": 0})
    for seat, action in [(1, RAISE), (2, FOLD), (0, FOLD)]:
        assert env.agent_selection == f"player_{seat}"
        env.step(action)
    report = _plain(env.infos["player_0"])
    assert report["hand"] == 1 and report["results"] == [-1, 2, -1]
    assert env.unwrapped.game_state.hand_number == 1  # hand 2 is in play
    rng = np.random.default_rng(0)
    while env.unwrapped.game_state.hand_number == 1 and env.agents:
        assert all(_plain(i) == report for i in env.infos.values())
        obs, *_ = env.last()
        env.step(random_action(rng, obs["action_mask"]))
    assert _plain(env.infos["player_0"])["hand"] == 2


def _same_game_but_one_hidden_card(options: dict, seed: int):  # noqa: ANN202
    """Two packs that differ in one card of seat 1's hand only."""
    game = DrawPokerGame(**options)
    pack = game.deal(np.random.default_rng(seed))
    n = game.num_players
    seat1 = [pack[(i * n) + 0] for i in range(HAND_SIZE)]  # seat 1 is first left of dealer 0
    spare = next(c for c in pack[HAND_SIZE * n :] if c not in seat1)
    other = list(pack)
    i = pack.index(spare, HAND_SIZE * n)
    other[0], other[i] = spare, pack[0]
    return pack, other


@pytest.mark.parametrize("seed", range(12))
def test_hidden_cards_never_reach_another_seats_info_before_a_showdown(seed: int) -> None:
    """Two games that differ in one card of player_1's hand: every other seat's info is the
    same at every step until a showdown shows player_1's cards (random play, the same moves)."""
    options = {"num_players": 3, "hands": 2, "stack": 10}
    packs = _same_game_but_one_hidden_card(options, seed)
    envs = [draw_poker_v0.env(**options) for _ in packs]
    for env, pack in zip(envs, packs, strict=True):
        env.reset(seed=seed, options={"cards": pack, "dealer": 0})  # later packs: the same
    assert envs[0].unwrapped.game_state.hands[1] != envs[1].unwrapped.game_state.hands[1]
    rng = np.random.default_rng(seed)
    compared = 0
    while envs[0].agents:
        if any(env.infos["player_0"]["showdown"] for env in envs):
            break  # a showdown showed the hands: from here on the reports may differ
        for agent in envs[0].agents:
            assert _plain(envs[0].infos[agent]) == _plain(envs[1].infos[agent])
        compared += 1
        obs, _, term, trunc, _ = envs[0].last()
        if term or trunc:
            break
        action = random_action(rng, obs["action_mask"])
        if not envs[1].last()[0]["action_mask"][action]:
            break  # the hands differ in what the draw allows: the games part
        for env in envs:
            env.step(action)
    assert compared > 1


def test_shown_cards_are_those_of_the_showdown_only() -> None:
    """Over random games: a seat's cards are in ``shown`` only after a showdown it reached,
    and then they are its hand at the showdown."""
    env = draw_poker_v0.env(num_players=4, hands=4, stack=10)
    rng = np.random.default_rng(5)
    showdowns = 0
    for seed in range(20):
        env.reset(seed=seed)
        for _agent in env.agent_iter():
            obs, _, term, trunc, info = env.last()
            state = env.unwrapped.game_state
            report = state.last_hand
            if report is None:
                assert (info["shown"] == -1).all()
            else:
                for seat, cards in enumerate(report["shown"]):
                    row = info["shown"][seat].tolist()
                    assert row == ([-1] * 5 if cards is None else sorted(parse_cards(cards))[::-1])
                    assert cards is None or report["showdown"]
                showdowns += report["showdown"]
            env.step(None if term or trunc else random_action(rng, obs["action_mask"]))
    assert showdowns > 0


# --- state ----------------------------------------------------------------------------------------
def _decode_state(env: Any, vector: np.ndarray) -> dict:
    """What the state table says, read back by its index table."""
    layout = env.unwrapped.game.state_layout
    n = env.unwrapped.game.num_players
    v = np.asarray(vector)

    def field(name: str) -> list:
        return v[layout[name]].astype(np.int64).tolist()

    slots = v[layout["hands"]].reshape(n, HAND_SIZE, NUM_CARD_IDS)
    to_act = np.flatnonzero(v[layout["to_act"]])
    return {
        "hands": [[int(np.argmax(s)) for s in seat if s.any()] for seat in slots],
        "stock": sorted(np.repeat(np.arange(NUM_CARD_IDS), field("stock")).tolist()),
        "discards": sorted(np.repeat(np.arange(NUM_CARD_IDS), field("discards")).tolist()),
        "stock_size": field("stock_size")[0],
        "phase": int(np.argmax(v[layout["phase"]])),
        "to_act": int(to_act[0]) if to_act.size else -1,
        "dealer": int(np.argmax(v[layout["dealer"]])),
        "hand_number": field("hand_number")[0],
        "pot": field("pot")[0],
        "current_bet": field("current_bet")[0],
        "orbit": field("orbit")[0],
        "bets_made": field("bets_made")[0],
        "stacks": field("stacks"),
        "round_bets": field("round_bets"),
        "committed": field("committed"),
        "start_stacks": field("start_stacks"),
        "dealt": [bool(x) for x in field("dealt")],
        "in_hand": [bool(x) for x in field("in_hand")],
        "drawn": [d if h else -1 for d, h in zip(field("drawn"), field("has_drawn"), strict=True)],
        "history": field("history"),
    }


def _engine_view(env: Any) -> dict:
    game, state = env.unwrapped.game, env.unwrapped.game_state
    b = state.betting
    return {
        "hands": [list(h) for h in state.hands],
        "stock": sorted(state.stock),
        "discards": sorted(state.discards),
        "stock_size": len(state.stock),
        "phase": state.phase,
        "to_act": game.current_player(state),
        "dealer": state.dealer,
        "hand_number": state.hand_number + 1,
        "pot": sum(b.committed),
        "current_bet": b.current_bet,
        "orbit": b.orbit,
        "bets_made": b.bets,
        "stacks": list(b.stacks),
        "round_bets": list(b.round_bets),
        "committed": list(b.committed),
        "start_stacks": list(state.start_stacks),
        "dealt": list(b.dealt),
        "in_hand": [b.in_hand(s) for s in range(game.num_players)],
        "drawn": list(state.drawn),
        "history": state.history.astype(np.int64).tolist(),
    }


@pytest.mark.parametrize(("options", "hands", "stock", "steps", "expected"), CASES.values(),
                         ids=CASES.keys())  # fmt: skip
def test_state_decodes_back_to_the_engine_state_on_a_fixed_deck(
    options: dict, hands: list, stock: str, steps: list, expected: dict
) -> None:
    env = draw_poker_v0.env(**options)
    game = env.unwrapped.game
    env.reset(options={"cards": game.pack_for(hands, stock), "dealer": 0})
    views = []
    for seat, action in [*steps, (None, None)]:
        state = env.state()
        assert state.dtype == np.float32 and env.state_space.contains(state)
        views.append(_decode_state(env, state))
        assert views[-1] == _engine_view(env)
        if seat is None:
            break
        env.step(action(env.unwrapped.game_state) if callable(action) else action)
    # the state holds every seat's cards from the first step (the observations do not)
    assert views[0]["hands"] == [sorted(parse_cards(h), reverse=True) for h in hands]
    assert views[-1]["phase"] == PHASES.index("over") and views[-1]["to_act"] == -1


@pytest.mark.parametrize("options", OPTION_SETS.values(), ids=OPTION_SETS.keys())
def test_state_space_holds_the_state_at_every_step(options: dict) -> None:
    def decodes_back(env: Any, agent: str, info: dict, done: bool) -> None:
        assert _decode_state(env, env.state()) == _engine_view(env)

    env = draw_poker_v0.env(**options)
    play_aec_games(env, range(4), np.random.default_rng(2), states=True, each_step=decodes_back)


@pytest.mark.parametrize("options", [{}, {"num_players": 5, "jokers": 2, "hands": 3}])
def test_pettingzoo_state_test(options: dict) -> None:
    check_pettingzoo_state(draw_poker_v0.env(masked_action="random", **options), 100)


# --- observations: unchanged ----------------------------------------------------------------------
OLD_DIGEST = "14834f3ef65b04d52bc0da888a407f4fdb223bd218cf3763ab9af218c3f51ab8"
"""sha256 of :func:`_observation_digest` on the code before the infos and the state."""
DIGEST_SETS = [
    {},
    {"num_players": 4, "decks": 2, "jokers": 4, "hands": 3, "stack": 12},
    {"num_players": 3, "deuces_wild": True, "stack": [5, 100, 3], "hands": 2},
]


def _observation_digest() -> str:
    """Every observation (all seats, every step) of seeded random games and a fixed deal,
    through the AEC env and the Gymnasium env, as ``float32`` bytes."""
    digest = hashlib.sha256()
    fixed = DrawPokerGame().pack_for(["As Ks Qs Js Ts", "2h 3h 4h 5h 7d"], "9c 8c 7c 6c 5c")
    for options in DIGEST_SETS:
        for seed in range(3):
            rng = np.random.default_rng(seed)
            env = draw_poker_v0.raw_env(**options)
            env.reset(seed=seed, options=None if seed else {"cards": fixed})
            for _agent in env.agent_iter():
                for other in env.possible_agents:
                    obs = env.observe(other)["observation"]
                    assert obs.dtype == np.float32
                    digest.update(obs.tobytes())
                o, _, term, trunc, _ = env.last()
                env.step(None if term or trunc else random_action(rng, o["action_mask"]))
        single = DrawPokerEnv(opponent="random", seat=None, **options)
        for seed in range(2):
            rng = np.random.default_rng(seed)
            o, info = single.reset(seed=seed)
            digest.update(o.tobytes())
            done = False
            while not done:
                o, _, term, trunc, info = single.step(random_action(rng, info["action_mask"]))
                digest.update(o.tobytes())
                done = term or trunc
    return digest.hexdigest()


def test_observations_are_the_float32_values_of_before() -> None:
    env = draw_poker_v0.raw_env()
    box = env.observation_space("player_0")["observation"]
    assert box.dtype == np.float32 and DrawPokerEnv().observation_space.dtype == np.float32
    assert np.isfinite(box.low).all() and np.isfinite(box.high).all()
    assert _observation_digest() == OLD_DIGEST
