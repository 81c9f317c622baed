"""Five-card stud's infos (the same numeric keys at every step), its whole state
(``env.state()``) and its observations (the same ``float32`` values as before, inside finite
bounds)."""

from __future__ import annotations

import hashlib
from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from pokerzoo.envs import five_card_stud_v0
from pokerzoo.envs.core.cards import NUM_CARD_IDS, parse_cards
from pokerzoo.envs.five_card_stud import (
    CALL,
    FOLD,
    INFO_SCHEMA,
    LAYOUT,
    RAISE,
    FiveCardStudGame,
    make_info_schema,
    pack_order,
)
from pokerzoo.envs.five_card_stud.env import FiveCardStudEnv

from tests.helpers import (
    check_aec_info_names,
    check_pettingzoo_state,
    plain_info,
    play_aec_games,
    play_single_seat_games,
    random_action,
)

BET, CHECK = RAISE, CALL
OPTION_SETS = {
    "heads-up": {},
    "4 seats, high-low eight or better, 3 hands": {
        "num_players": 4,
        "hi_lo": True,
        "low_qualifier": 8,
        "hands": 3,
        "stack": 12,
    },
    "3 seats, last card down, deuces and a joker, short stacks": {
        "num_players": 3,
        "last_card_down": True,
        "deuces_wild": True,
        "jokers": 1,
        "stack": [5, 100, 3],
        "hands": 2,
    },
    "10 seats": {"num_players": 10, "stack": 6},
    "6 seats, 20 hands, no raises": {"num_players": 6, "hands": 20, "stack": 8, "max_raises": 0},
}
NEUTRAL_2 = {
    "hand": 0,
    "dealer": -1,
    "showdown": False,
    "shown": [[-1] * 5] * 2,
    "categories": [-1, -1],
    "high_winners": [False, False],
    "low_winners": [False, False],
    "pot_amounts": [0, 0],
    "pot_eligible": [[False] * 2] * 2,
    "pot_high_winners": [[False] * 2] * 2,
    "pot_low_winners": [[False] * 2] * 2,
    "pot_shares": [[0] * 2] * 2,
    "put_in": [0, 0],
    "chips": [0, 0],
    "stacks": [100, 100],
}


def _plain(info: dict) -> dict:
    """The game's keys of an info as plain Python values, for comparisons."""
    return plain_info(info, INFO_SCHEMA.names)


# --- infos: the schema at every step -------------------------------------------------------------
@pytest.mark.parametrize("masked_action", ["raise", "random"])
@pytest.mark.parametrize("options", OPTION_SETS.values(), ids=OPTION_SETS.keys())
def test_every_info_of_an_aec_game_matches_the_schema(options: dict, masked_action: str) -> None:
    env = five_card_stud_v0.env(masked_action=masked_action, **options)
    schema = env.unwrapped.info_schema
    check_aec_info_names(
        schema, make_info_schema(env.unwrapped.game.num_players).names, masked_action
    )
    play_aec_games(env, range(3), np.random.default_rng(0), schema=schema)


@pytest.mark.parametrize("options", OPTION_SETS.values(), ids=OPTION_SETS.keys())
def test_every_info_of_the_gymnasium_env_matches_the_schema(options: dict) -> None:
    single = gym.make("pokerzoo/FiveCardStud-v0", opponent="random", **options)
    base = five_card_stud_v0.raw_env(**options).info_schema
    play_single_seat_games(single, base.names, range(3), np.random.default_rng(1))


# --- infos: content on fixed decks ----------------------------------------------------------------
DOWN = "check down"
"""A step that plays check/call for whoever acts until the hand is over."""


def _scripted(options: dict, hands: list[str], steps: list) -> tuple[Any, list]:
    """An AEC game of ``hands`` (seat 0 deals) played by ``steps`` (``(seat, action)``, or
    :data:`DOWN`); the env and every agent's infos after each step."""
    env = five_card_stud_v0.env(**options)
    env.reset(options={"cards": pack_order(hands)})
    seen = [dict(env.infos)]

    def step(action: int) -> None:
        env.step(action)
        seen.append(dict(env.infos))

    for item in steps:
        if item == DOWN:
            hand = env.unwrapped.game_state.hand
            while env.unwrapped.game_state.hand == hand and not env.unwrapped.game_state.over:
                step(CALL)
            continue
        seat, action = item
        assert env.agent_selection == f"player_{seat}"
        step(action)
    return env, seen


def _mask(n: int, seats: tuple[int, ...]) -> list[bool]:
    return [s in seats for s in range(n)]


CASES = {
    "everyone folds to the bettor": (
        {"num_players": 3},
        ["3c 9s", "4c Kd", "6c 5h"],
        [(1, BET), (2, FOLD), (0, FOLD)],
        {
            "hand": 1,
            "dealer": 0,
            "showdown": False,
            "shown": [[-1] * 5] * 3,
            "categories": [-1] * 3,
            "high_winners": _mask(3, (1,)),
            "low_winners": [False] * 3,
            "pot_amounts": [4, 0, 0],
            "pot_eligible": [_mask(3, (1,)), [False] * 3, [False] * 3],
            "pot_high_winners": [_mask(3, (1,)), [False] * 3, [False] * 3],
            "pot_low_winners": [[False] * 3] * 3,
            "pot_shares": [[0, 4, 0], [0] * 3, [0] * 3],
            "put_in": [1, 2, 1],
            "chips": [-1, 2, -1],
            "stacks": [99, 102, 99],
        },
    ),
    "heads-up showdown, ace high beats king high": (
        {},
        ["Kh 2c 7d 8s 9c", "Ah 3d 4s 6h Jc"],
        [(1, BET), (0, CALL), DOWN],
        {
            "hand": 1,
            "dealer": 0,
            "showdown": True,
            "shown": [parse_cards("Kh 2c 7d 8s 9c"), parse_cards("Ah 3d 4s 6h Jc")],
            "categories": [0, 0],
            "high_winners": [False, True],
            "low_winners": [False, False],
            "pot_amounts": [4, 0],
            "pot_eligible": [[True, True], [False, False]],
            "pot_high_winners": [[False, True], [False, False]],
            "pot_low_winners": [[False, False], [False, False]],
            "pot_shares": [[0, 4], [0, 0]],
            "put_in": [2, 2],
            "chips": [-2, 2],
            "stacks": [98, 102],
        },
    ),
    "a side pot for a short stack all-in": (
        {"num_players": 3, "bets": (2, 4), "stack": (4, 100, 100)},
        ["9c 9d 9h 4c 5d", "Kc Ks 7d 8h 2s", "Qc Jd 6h 3s Td"],
        [(1, BET), (2, CALL), (0, CALL), (0, CHECK), (1, BET), (2, CALL), (0, CALL)]
        + [(1, BET), (2, CALL), (1, CHECK), (2, CHECK)],
        {
            "hand": 1,
            "dealer": 0,
            "showdown": True,
            "shown": [
                parse_cards("9c 9d 9h 4c 5d"),
                parse_cards("Kc Ks 7d 8h 2s"),
                parse_cards("Qc Jd 6h 3s Td"),
            ],
            "categories": [4, 2, 0],
            "high_winners": _mask(3, (0,)),
            "low_winners": [False] * 3,
            "pot_amounts": [12, 10, 0],
            "pot_eligible": [[True] * 3, _mask(3, (1, 2)), [False] * 3],
            "pot_high_winners": [_mask(3, (0,)), _mask(3, (1,)), [False] * 3],
            "pot_low_winners": [[False] * 3] * 3,
            "pot_shares": [[12, 0, 0], [0, 10, 0], [0] * 3],
            "put_in": [4, 9, 9],
            "chips": [8, 1, -9],
            "stacks": [12, 101, 91],
        },
    ),
    "high-low, each pot split among the seats that may win it": (
        {"num_players": 3, "hi_lo": True, "low_qualifier": 8, "stack": (3, 100, 100)},
        ["As 2d 3c 4h 7s", "Kc Kd Kh 9c Qd", "Ac 3d 2h 5s 8c"],
        [(1, BET), (2, CALL), (0, CALL), (1, BET), (2, CALL), (0, CALL)]
        + [(1, BET), (2, CALL), (1, CHECK), (2, CHECK)],
        {
            "hand": 1,
            "dealer": 0,
            "showdown": True,
            "shown": [
                parse_cards("As 2d 3c 4h 7s"),
                parse_cards("Kc Kd Kh 9c Qd"),
                parse_cards("Ac 3d 2h 5s 8c"),
            ],
            "categories": [0, 4, 0],
            "high_winners": _mask(3, (1,)),
            "low_winners": _mask(3, (0,)),
            "pot_amounts": [9, 4, 0],
            "pot_eligible": [[True] * 3, _mask(3, (1, 2)), [False] * 3],
            "pot_high_winners": [_mask(3, (1,)), _mask(3, (1,)), [False] * 3],
            "pot_low_winners": [_mask(3, (0,)), _mask(3, (2,)), [False] * 3],
            "pot_shares": [[4, 5, 0], [0, 2, 2], [0] * 3],
            "put_in": [3, 5, 5],
            "chips": [1, 2, -3],
            "stacks": [4, 102, 97],
        },
    ),
}


@pytest.mark.parametrize(("options", "hands", "steps", "expected"), CASES.values(),
                         ids=CASES.keys())  # fmt: skip
def test_info_content_on_a_fixed_deck(
    options: dict, hands: list, steps: list, expected: dict
) -> None:
    env, seen = _scripted(options, hands, steps)
    neutral = _plain(env.unwrapped.game._neutral_info)
    assert neutral["stacks"] == list(env.unwrapped.game.options.stack)
    for infos in seen[:-1]:  # neutral until the hand is settled, for every agent
        assert all(_plain(info) == neutral for info in infos.values())
    final = seen[-1]
    assert set(final) == {f"player_{s}" for s in range(len(hands))}
    for info in final.values():
        assert _plain(info) == expected
        assert isinstance(info["hand"], np.integer) and isinstance(info["showdown"], np.bool_)
    assert env.unwrapped.game_state.results[-1]["chips"] == tuple(expected["chips"])


def test_the_neutral_info_of_the_default_table() -> None:
    env = five_card_stud_v0.env()
    env.reset(seed=0)
    assert all(_plain(info) == NEUTRAL_2 for info in env.infos.values())


def test_a_move_that_ends_two_hands_reports_the_last() -> None:
    env = five_card_stud_v0.env(num_players=3, hands=2, stack=(2, 2, 100))
    env.reset(seed=0, options={"cards": pack_order(["3c 9s", "4c 5d", "6c Kh"])})
    for seat, action in [(2, BET), (0, FOLD), (1, FOLD)]:
        assert env.agent_selection == f"player_{seat}"
        env.step(action)
    state = env.unwrapped.game_state
    assert state.over and len(state.results) == 2
    first, second = state.results
    for info in env.infos.values():
        plain = _plain(info)
        assert plain["hand"] == 2 and plain["showdown"] is True
        assert plain["chips"] == list(second["chips"]) and "previous_hands" not in info
    assert sum(env.rewards.values()) == 0
    assert env.rewards["player_2"] == first["chips"][2] + second["chips"][2]


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("last_card_down", [False, True])
def test_hidden_cards_never_reach_another_seats_info_before_a_showdown(
    seed: int, last_card_down: bool
) -> None:
    """Two games that differ in player_1's hole card: every seat's info is the same at every
    step until a showdown shows the cards (random play, the same moves)."""
    options = {"num_players": 3, "hands": 3, "stack": 10, "last_card_down": last_card_down}
    game = FiveCardStudGame(**options)
    pack = game.deal(np.random.default_rng(seed))
    other = list(pack)
    other[0], other[-1] = pack[-1], pack[0]  # player_1's hole card; the last card is never dealt
    envs = [five_card_stud_v0.env(**options) for _ in range(2)]
    for env, cards in zip(envs, (pack, other), strict=True):
        env.reset(seed=seed, options={"cards": cards})  # later packs: the same
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
        for env in envs:
            env.step(action)
    assert compared > 1


def test_shown_cards_are_those_of_the_showdown_only() -> None:
    env = five_card_stud_v0.env(num_players=4, hands=4, stack=10, last_card_down=True)
    rng = np.random.default_rng(5)
    showdowns = 0
    for seed in range(20):
        env.reset(seed=seed)
        for _agent in env.agent_iter():
            obs, _, term, trunc, info = env.last()
            results = env.unwrapped.game_state.results
            if not results:
                assert (info["shown"] == -1).all()
            else:
                report = results[-1]
                for seat, cards in enumerate(report["shown"]):
                    row = info["shown"][seat].tolist()
                    assert row == ([-1] * 5 if cards is None else parse_cards(cards))
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

    slots = v[layout["cards"]].reshape(n, 5, NUM_CARD_IDS)
    to_act = np.flatnonzero(v[layout["to_act"]])
    return {
        "cards": [[int(np.argmax(c)) if c.any() else -1 for c in seat] for seat in slots],
        "pack": np.flatnonzero(v[layout["pack"]]).tolist(),
        "pack_size": field("pack_size")[0],
        "round": int(np.argmax(v[layout["round"]])),
        "over": bool(field("over")[0]),
        "to_act": int(to_act[0]) if to_act.size else -1,
        "dealer": int(np.argmax(v[layout["dealer"]])),
        "hand_number": field("hand_number")[0],
        "pot": field("pot")[0],
        "current_bet": field("current_bet")[0],
        "bets_made": field("bets_made")[0],
        "stacks": field("stacks"),
        "round_bets": field("round_bets"),
        "committed": field("committed"),
        "start_stacks": field("start_stacks"),
        "dealt": [bool(x) for x in field("dealt")],
        "in_hand": [bool(x) for x in field("in_hand")],
        "history": field("history"),
    }


def _engine_view(env: Any) -> dict:
    game, state = env.unwrapped.game, env.unwrapped.game_state
    b = state.betting
    return {
        "cards": state.cards.tolist(),
        "pack": sorted(state.pack[state.next_card :].tolist()),
        "pack_size": len(state.pack) - state.next_card,
        "round": b.round,
        "over": state.over,
        "to_act": game.current_player(state),
        "dealer": state.dealer,
        "hand_number": state.hand + 1,
        "pot": state.pot,
        "current_bet": b.current_bet,
        "bets_made": b.bets,
        "stacks": list(b.stacks),
        "round_bets": list(b.round_bets),
        "committed": list(b.committed),
        "start_stacks": list(state.start_stacks),
        "dealt": list(b.dealt),
        "in_hand": [b.in_hand(s) for s in range(game.num_players)],
        "history": state.history.astype(np.int64).ravel().tolist(),
    }


@pytest.mark.parametrize(("options", "hands", "steps", "expected"), CASES.values(),
                         ids=CASES.keys())  # fmt: skip
def test_state_decodes_back_to_the_engine_state_on_a_fixed_deck(
    options: dict, hands: list, steps: list, expected: dict
) -> None:
    env = five_card_stud_v0.env(**options)
    env.reset(options={"cards": pack_order(hands)})
    views = []

    def look() -> None:
        state = env.state()
        assert state.dtype == np.float32 and env.state_space.contains(state)
        views.append(_decode_state(env, state))
        assert views[-1] == _engine_view(env)

    look()
    for item in steps:
        if item == DOWN:
            while not env.unwrapped.game_state.over:
                env.step(CALL)
                look()
            continue
        env.step(item[1])
        look()
    # the state holds the hole cards from the first step (another seat's observation does not)
    holes = [parse_cards(h)[0] for h in hands]
    assert [seat[0] for seat in views[0]["cards"]] == holes
    assert views[-1]["over"] and views[-1]["to_act"] == -1


@pytest.mark.parametrize("options", OPTION_SETS.values(), ids=OPTION_SETS.keys())
def test_state_and_observations_stay_inside_their_spaces_at_every_step(options: dict) -> None:
    env = five_card_stud_v0.env(**options)
    box = env.observation_space("player_0")["observation"]
    assert box.dtype == np.float32
    assert np.isfinite(box.low).all() and np.isfinite(box.high).all()

    def decodes_back_inside_the_box(env: Any, agent: str, info: dict, done: bool) -> None:
        assert _decode_state(env, env.state()) == _engine_view(env)
        for other in env.possible_agents:
            assert box.contains(env.observe(other)["observation"])

    play_aec_games(
        env, range(4), np.random.default_rng(2), states=True, each_step=decodes_back_inside_the_box
    )


@pytest.mark.parametrize("options", [{}, {"num_players": 5, "hi_lo": True, "hands": 3}])
def test_pettingzoo_state_test(options: dict) -> None:
    check_pettingzoo_state(five_card_stud_v0.env(masked_action="random", **options), 100)


# --- observations: unchanged values, finite bounds ---------------------------------------------
OLD_DIGEST = "3fb3ba3ad64efc76d3fe3a4c49a73a9ad87237b836069d7eafb18395b5d788f0"
"""sha256 of :func:`_observation_digest` on the code before the infos, the state and the
finite bounds."""
DIGEST_SETS = [
    {},
    {"num_players": 4, "hi_lo": True, "low_qualifier": 8, "hands": 3, "stack": 12},
    {
        "num_players": 3,
        "last_card_down": True,
        "deuces_wild": True,
        "jokers": 1,
        "stack": [5, 100, 3],
        "hands": 2,
    },
]


def _observation_digest() -> str:
    """Every observation (all seats, every step) of seeded random games and a fixed deal,
    through the AEC env and the Gymnasium env, as ``float32`` bytes."""
    digest = hashlib.sha256()
    fixed = pack_order(["As Ks Qs Js Ts", "2h 3h 4h 5h 7d"])
    for options in DIGEST_SETS:
        for seed in range(3):
            rng = np.random.default_rng(seed)
            env = five_card_stud_v0.raw_env(**options)
            env.reset(seed=seed, options=None if seed else {"cards": fixed})
            for _agent in env.agent_iter():
                for other in env.possible_agents:
                    obs = env.observe(other)["observation"]
                    assert obs.dtype == np.float32
                    digest.update(obs.tobytes())
                o, _, term, trunc, _ = env.last()
                env.step(None if term or trunc else random_action(rng, o["action_mask"]))
        single = FiveCardStudEnv(opponent="random", seat=None, **options)
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


def test_observations_are_the_float32_values_of_before_with_finite_bounds() -> None:
    assert _observation_digest() == OLD_DIGEST
    box = FiveCardStudEnv().observation_space
    assert box.dtype == np.float32 and np.isfinite(box.high).all()
    # the bounds follow the options: every chip at the table, the bets, the cap, the hands
    game = FiveCardStudGame(num_players=3, stack=(10, 20, 30), bets=(3, 7), max_raises=2, hands=4)
    high = game.layout.high
    assert game.layout.size == LAYOUT.size and LAYOUT.high[LAYOUT["pot"]][0] == 200
    assert high[LAYOUT["stacks"]].tolist() == [60] * 10 and high[LAYOUT["pot"]][0] == 60
    assert high[LAYOUT["bet_size"]][0] == 7 and high[LAYOUT["bets"]].tolist() == [3, 7]
    assert high[LAYOUT["bets_made"]][0] == high[LAYOUT["cap"]][0] == 3
    assert high[LAYOUT["history"]].max() == 4 and high[LAYOUT["hand_number"]][0] == 4
