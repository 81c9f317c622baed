"""Five-card stud's infos (the same numeric keys at every step), its whole state
(``env.state()``) and its observations (the same ``float32`` values as before, inside finite
bounds)."""

from __future__ import annotations

from typing import Any

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

from tests import info_checks as checks
from tests.helpers import check_pettingzoo_state, plain_info, play_aec_games

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
    **checks.NEUTRAL_HEADS_UP,
    "high_winners": [False, False],
    "low_winners": [False, False],
    "pot_high_winners": [[False] * 2] * 2,
    "pot_low_winners": [[False] * 2] * 2,
    "chips": [0, 0],
}


# --- infos: the schema at every step -------------------------------------------------------------
@pytest.mark.parametrize("options", OPTION_SETS.values(), ids=OPTION_SETS.keys())
def test_every_info_of_the_gymnasium_env_matches_the_schema(options: dict) -> None:
    checks.check_every_gymnasium_info("pokerzoo/FiveCardStud-v0", five_card_stud_v0, options)


@pytest.mark.parametrize("masked_action", ["raise", "random"])
@pytest.mark.parametrize("options", OPTION_SETS.values(), ids=OPTION_SETS.keys())
def test_every_info_of_an_aec_game_matches_the_schema(options: dict, masked_action: str) -> None:
    checks.check_every_aec_info(five_card_stud_v0, make_info_schema, options, masked_action)


# --- infos: content on fixed decks ----------------------------------------------------------------
DOWN = "check down"
"""A step that plays check/call for whoever acts until the hand is over."""


def _plain(info: dict) -> dict:
    """The game's keys of an info as plain Python values, for comparisons."""
    return plain_info(info, INFO_SCHEMA.names)


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


# options, hands (seat 0 deals), the steps, and the info of every agent once the first hand is
# settled (the hand number 1 and the dealer 0 are every case's: the test adds them)
CASES = {
    "everyone folds to the bettor": (
        {"num_players": 3},
        ["3c 9s", "4c Kd", "6c 5h"],
        [(1, BET), (2, FOLD), (0, FOLD)],
        {
            "showdown": False,
            "shown": checks.shown(None, None, None),
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
            "showdown": True,
            "shown": checks.shown("Kh 2c 7d 8s 9c", "Ah 3d 4s 6h Jc"),
            "categories": [0, 0],
            "high_winners": [False, True],
            "low_winners": [False, False],
            "pot_amounts": [4, 0],
            "pot_eligible": [[True, True], [False, False]],
            "pot_high_winners": [[False, True], [False, False]],
            "pot_low_winners": [[False] * 2] * 2,
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
            "showdown": True,
            "shown": checks.shown("9c 9d 9h 4c 5d", "Kc Ks 7d 8h 2s", "Qc Jd 6h 3s Td"),
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
            "showdown": True,
            "shown": checks.shown("As 2d 3c 4h 7s", "Kc Kd Kh 9c Qd", "Ac 3d 2h 5s 8c"),
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
    stack = env.unwrapped.game.options.stack
    assert _plain(env.unwrapped.game._neutral_info)["stacks"] == list(stack)
    expected = {"hand": 1, "dealer": 0, **expected}
    checks.check_the_settled_hand(env, seen, INFO_SCHEMA.names, len(hands), expected)
    assert env.unwrapped.game_state.results[-1]["chips"] == tuple(expected["chips"])


def test_the_neutral_info_of_the_default_table() -> None:
    checks.check_the_neutral_info_of_the_default_table(
        five_card_stud_v0, INFO_SCHEMA.names, NEUTRAL_2
    )


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
    checks.check_hidden_cards_stay_hidden(envs, INFO_SCHEMA.names, np.random.default_rng(seed))


def test_shown_cards_are_those_of_the_showdown_only() -> None:
    checks.check_shown_only_after_a_showdown(
        five_card_stud_v0.env(num_players=4, hands=4, stack=10, last_card_down=True),
        lambda state: state.results[-1] if state.results else None,
        parse_cards,
    )


# --- state ----------------------------------------------------------------------------------------
def _decode_state(env: Any, vector: np.ndarray) -> dict:
    """What the state table says, read back by its index table."""
    layout = env.unwrapped.game.state_layout
    n = env.unwrapped.game.num_players
    v = np.asarray(vector)
    slots = v[layout["cards"]].reshape(n, 5, NUM_CARD_IDS)
    return {
        **checks.decoded_betting(env, v),
        "cards": [[int(np.argmax(c)) if c.any() else -1 for c in seat] for seat in slots],
        "pack": np.flatnonzero(v[layout["pack"]]).tolist(),
        "pack_size": int(v[layout["pack_size"]].astype(np.int64)[0]),
        "round": int(np.argmax(v[layout["round"]])),
        "over": bool(v[layout["over"]].astype(np.int64)[0]),
    }


def _engine_view(env: Any) -> dict:
    state = env.unwrapped.game_state
    return {
        **checks.engine_betting(env),
        "cards": state.cards.tolist(),
        "pack": sorted(state.pack[state.next_card :].tolist()),
        "pack_size": len(state.pack) - state.next_card,
        "round": state.betting.round,
        "over": state.over,
        "hand_number": state.hand + 1,
        "pot": state.pot,
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
DIGEST_SETS = list(OPTION_SETS.values())[:3]
"""The option sets the digest plays: heads-up and the next two of :data:`OPTION_SETS`."""


def _observation_digest() -> str:
    """Every observation (all seats, every step) of seeded random games and a fixed deal,
    through the AEC env and the Gymnasium env, as ``float32`` bytes."""
    fixed = pack_order(["As Ks Qs Js Ts", "2h 3h 4h 5h 7d"])
    return checks.observation_digest(five_card_stud_v0.raw_env, FiveCardStudEnv, DIGEST_SETS, fixed)


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
