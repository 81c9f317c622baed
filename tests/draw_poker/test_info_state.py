"""Draw poker's infos (the same numeric keys at every step), its whole state (``env.state()``)
and its observations (the same ``float32`` values as before the infos and the state existed)."""

from __future__ import annotations

from typing import Any

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

from tests import info_checks as checks
from tests.helpers import check_pettingzoo_state, plain_info, play_aec_games, random_action

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
NEUTRAL_2 = {**checks.NEUTRAL_HEADS_UP, "pot_winners": [[False] * 2] * 2, "results": [0, 0]}


def _plain(info: dict) -> dict:
    """The game's keys of an info as plain Python values, for comparisons."""
    return plain_info(info, INFO_SCHEMA.names)


# --- infos: the schema at every step -------------------------------------------------------------
@pytest.mark.parametrize("masked_action", ["raise", "random"])
@pytest.mark.parametrize("options", OPTION_SETS.values(), ids=OPTION_SETS.keys())
def test_every_info_of_an_aec_game_matches_the_schema(options: dict, masked_action: str) -> None:
    checks.check_every_aec_info(draw_poker_v0, make_info_schema, options, masked_action)


@pytest.mark.parametrize("options", OPTION_SETS.values(), ids=OPTION_SETS.keys())
def test_every_info_of_the_gymnasium_env_matches_the_schema(options: dict) -> None:
    checks.check_every_gymnasium_info("pokerzoo/DrawPoker-v0", draw_poker_v0, options)


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
# options, hands (player_0 deals), the stock, the steps, and the info of every agent once the
# first hand is settled (the hand number 1 and the dealer 0 are every case's: the test adds them)
CASES = {
    "showdown, pair of aces beats kings": (
        {},
        ["As Ah 9c 7d 4s", "Ks Kh Qc 8d 3s"],
        "",
        [(1, CALL), (0, CALL), (1, PAT), (0, PAT), (1, RAISE), (0, CALL)],
        {
            "showdown": True,
            "shown": checks.shown("As Ah 9c 7d 4s", "Ks Kh Qc 8d 3s"),
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
            "showdown": False,
            "shown": checks.shown(None, None),
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
            "showdown": True,
            "shown": checks.shown(
                "Js Th 9d 6c 4h", "Ac Ad Ah As 7c", "Ks Kh Kd 7d 3c", "Qs Qh 8d 8c 3d"
            ),
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
            "showdown": True,
            "shown": checks.shown(None, "9s 9h 9d 5c 2s", "9s 9h 9c 5d 2h"),
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
    shown_sorted = [sorted(row, reverse=True) for row in expected["shown"]]
    expected = {"hand": 1, "dealer": 0, **expected, "shown": shown_sorted}
    assert _plain(env.unwrapped.game._neutral_info)["stacks"] == list(env.unwrapped.game.stacks)
    checks.check_the_settled_hand(env, seen, INFO_SCHEMA.names, len(hands), expected)
    assert env.unwrapped.game_state.last_hand["results"] == tuple(expected["results"])


def test_the_neutral_info_of_the_default_table() -> None:
    checks.check_the_neutral_info_of_the_default_table(draw_poker_v0, INFO_SCHEMA.names, NEUTRAL_2)


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
    # the hands may differ in what the draw allows: there the games part
    checks.check_hidden_cards_stay_hidden(
        envs, INFO_SCHEMA.names, np.random.default_rng(seed), may_part=True
    )


def test_shown_cards_are_those_of_the_showdown_only() -> None:
    """Over random games: a seat's cards are in ``shown`` only after a showdown it reached,
    and then they are its hand at the showdown."""
    checks.check_shown_only_after_a_showdown(
        draw_poker_v0.env(num_players=4, hands=4, stack=10),
        lambda state: state.last_hand,
        lambda cards: sorted(parse_cards(cards))[::-1],
    )


# --- state ----------------------------------------------------------------------------------------
def _decode_state(env: Any, vector: np.ndarray) -> dict:
    """What the state table says, read back by its index table."""
    layout = env.unwrapped.game.state_layout
    n = env.unwrapped.game.num_players
    v = np.asarray(vector)

    def field(name: str) -> list:
        return v[layout[name]].astype(np.int64).tolist()

    slots = v[layout["hands"]].reshape(n, HAND_SIZE, NUM_CARD_IDS)
    return {
        **checks.decoded_betting(env, v),
        "hands": [[int(np.argmax(s)) for s in seat if s.any()] for seat in slots],
        "stock": sorted(np.repeat(np.arange(NUM_CARD_IDS), field("stock")).tolist()),
        "discards": sorted(np.repeat(np.arange(NUM_CARD_IDS), field("discards")).tolist()),
        "stock_size": field("stock_size")[0],
        "phase": int(np.argmax(v[layout["phase"]])),
        "orbit": field("orbit")[0],
        "drawn": [d if h else -1 for d, h in zip(field("drawn"), field("has_drawn"), strict=True)],
    }


def _engine_view(env: Any) -> dict:
    state = env.unwrapped.game_state
    return {
        **checks.engine_betting(env),
        "hands": [list(h) for h in state.hands],
        "stock": sorted(state.stock),
        "discards": sorted(state.discards),
        "stock_size": len(state.stock),
        "phase": state.phase,
        "hand_number": state.hand_number + 1,
        "pot": sum(state.betting.committed),
        "orbit": state.betting.orbit,
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
DIGEST_SETS = list(OPTION_SETS.values())[:3]
"""The option sets the digest plays: heads-up and the next two of :data:`OPTION_SETS`."""


def _observation_digest() -> str:
    """Every observation (all seats, every step) of seeded random games and a fixed deal,
    through the AEC env and the Gymnasium env, as ``float32`` bytes."""
    fixed = DrawPokerGame().pack_for(["As Ks Qs Js Ts", "2h 3h 4h 5h 7d"], "9c 8c 7c 6c 5c")
    return checks.observation_digest(draw_poker_v0.raw_env, DrawPokerEnv, DIGEST_SETS, fixed)


def test_observations_are_the_float32_values_of_before() -> None:
    env = draw_poker_v0.raw_env()
    box = env.observation_space("player_0")["observation"]
    assert box.dtype == np.float32 and DrawPokerEnv().observation_space.dtype == np.float32
    assert np.isfinite(box.low).all() and np.isfinite(box.high).all()
    assert _observation_digest() == OLD_DIGEST
