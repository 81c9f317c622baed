"""Quintet rules engine: fixed-deck replays with exact payoffs, illegal actions, encoding."""

from __future__ import annotations

import doctest
import importlib

import numpy as np
import pytest
from pokerzoo.agents.base import masked_random_choice
from pokerzoo.envs import quintet as game
from pokerzoo.envs import quintet_v0
from pokerzoo.envs.core.cards import format_cards, parse_cards
from pokerzoo.envs.core.errors import GameOverError, IllegalActionError
from pokerzoo.envs.quintet import LAYOUT, QuintetGame

RULES = QuintetGame()  # reward="points"
WIN = QuintetGame("win")

# Rows are five packs, position 1 (3 points) first. Each pair of rows holds the same 25 cards.
FULL_HOUSES = "Ac Ad Ah As Kc  Kd Kh Ks Qc Qd  Qh Qs Jc Jd Jh  Js Tc Td Th Ts  9c 9d 9h 9s 8c"
REVERSED = "9c 9d 9h 9s 8c  Js Tc Td Th Ts  Qh Qs Jc Jd Jh  Kd Kh Ks Qc Qd  Ac Ad Ah As Kc"
STRAIGHT_FLUSHES = "Jc Tc 9c 8c 7c  Jd Td 9d 8d 7d  Jh Th 9h 8h 7h  Js Ts 9s 8s 7s  Ac Ad Ah As Kc"
JUNK = "Jc Td 9h 8s Ac  Jd Th 9s 8c Ad  Js Tc 9d 8h Ah  Jh Ts 9c 8d 7c  As Kc 7d 7h 7s"


def _packs(row: str) -> list[list[int]]:
    ids = parse_cards(row)
    return [ids[i : i + 5] for i in range(0, 25, 5)]


def _actions(state: game.QuintetState, row: str) -> list[int]:
    """The pack of each card in placement order that lays out ``row``."""
    pack_of = {card: p for p, pack in enumerate(_packs(row)) for card in pack}
    return [pack_of[int(card)] for card in state.cards]


def _snapshot(state: game.QuintetState) -> tuple[bytes, ...]:
    return tuple(
        np.asarray(getattr(state, f)).tobytes()
        for f in ("cards", "removed", "assignment", "placed", "pack_sizes")
    )


# (row of player 0, row of player 1, results per position, points, points rewards, win rewards)
REPLAYS = [
    (FULL_HOUSES, REVERSED, (1, -1, 0, 1, -1), (9, 11), (-2.0, 2.0), (-1.0, 1.0)),
    (REVERSED, FULL_HOUSES, (-1, 1, 0, -1, 1), (11, 9), (2.0, -2.0), (1.0, -1.0)),
    (STRAIGHT_FLUSHES, JUNK, (1, 1, 1, 1, 1), (25, 0), (25.0, -25.0), (1.0, -1.0)),
    (FULL_HOUSES, FULL_HOUSES, (0, 0, 0, 0, 0), (0, 0), (0.0, 0.0), (0.0, 0.0)),
]


REPLAYED = pytest.mark.parametrize(
    ("row0", "row1", "results", "points", "margin", "win"),
    REPLAYS,
    ids=["full-houses-vs-reversed", "reversed-vs-full-houses", "straight-flushes-vs-junk", "draw"],
)


@pytest.mark.parametrize("simultaneous", [True, False], ids=["parallel env", "engine"])
@REPLAYED
def test_fixed_deck_replay_exact_payoffs(
    row0: str,
    row1: str,
    results: tuple[int, ...],
    points: tuple[int, int],
    margin: tuple[float, float],
    win: tuple[float, float],
    simultaneous: bool,
) -> None:
    state = RULES.new_state(row0)
    actions = list(zip(_actions(state, row0), _actions(state, row1), strict=True))
    env = quintet_v0.parallel_env()
    if simultaneous:
        env.reset(options={"cards": row0})
        state = env.game_state
    for a0, a1 in actions:
        assert not RULES.is_terminal(state)
        if simultaneous:
            env.step({"player_0": a0, "player_1": a1})
        else:
            RULES.apply(state, 0, a0)
            RULES.apply(state, 1, a1)
    assert RULES.is_terminal(state)
    result = RULES.outcome(state)
    for player, row in enumerate((row0, row1)):  # packs list their cards in placement order
        assert [sorted(p) for p in result.packs[player]] == [sorted(p) for p in _packs(row)]
    assert result.results == results
    assert result.points == points
    assert RULES.returns(state) == margin
    assert WIN.returns(state) == win
    text = RULES.render(state)
    assert f"points: player_0 {points[0]}, player_1 {points[1]}" in text


def test_players_advance_independently() -> None:
    state = RULES.new_state(FULL_HOUSES)
    for action in _actions(state, FULL_HOUSES):
        RULES.apply(state, 0, action)
    assert state.placed.tolist() == [25, 0]
    assert not RULES.is_terminal(state)
    assert RULES.current_card(state, 0) is None
    assert RULES.current_card(state, 1) == parse_cards("Ac")[0]
    with pytest.raises(ValueError, match="not finished"):
        RULES.outcome(state)


@REPLAYED
def test_plays_read_back_and_scored_again(
    row0: str,
    row1: str,
    results: tuple[int, ...],
    points: tuple[int, int],
    margin: tuple[float, float],
    win: tuple[float, float],
) -> None:
    """``plays`` gives each player's packs of a finished deal; ``with_plays`` scores those
    packs (or another deal's of the same cards) without placing the cards again."""
    state = RULES.new_state(row0)
    moves = np.array([_actions(state, row0), _actions(state, row1)])
    unplayed = _snapshot(state)
    rescored = RULES.with_plays(state, moves)
    assert _snapshot(state) == unplayed  # a new state
    for a0, a1 in moves.T:
        RULES.apply(state, 0, int(a0))
        RULES.apply(state, 1, int(a1))
    assert RULES.plays(state).tolist() == moves.tolist()
    assert _snapshot(rescored) == _snapshot(state)
    assert RULES.outcome(rescored).points == points
    assert RULES.outcome(RULES.with_plays(state, moves[::-1])).points == points[::-1]
    assert RULES.returns(RULES.with_plays(state, moves)) == margin


def test_plays_of_an_unfinished_deal_raise() -> None:
    state = _with_full_pack()
    with pytest.raises(ValueError, match=r"not finished: cards placed \[5, 0\]"):
        RULES.plays(state)


@pytest.mark.parametrize(
    ("plays", "named"),
    [
        (
            np.zeros((1, 25), dtype=int),
            r"shape \(1, 25\) and dtype int64: expected ints of shape \(2, 25\)",
        ),
        (np.zeros((2, 24), dtype=int), r"shape \(2, 24\)"),
        (np.zeros((2, 25)) + 0.5, "dtype float64: expected ints"),
        (np.full((2, 25), 5), "expected packs 0..4"),
        (np.full((2, 25), -1), "expected packs 0..4"),
        (np.tile(np.r_[np.zeros(6, int), np.repeat(np.arange(1, 5), 5)[1:]], (2, 1)), "sizes"),
    ],
)
def test_with_plays_rejects_bad_plays(plays: np.ndarray, named: str) -> None:
    state = RULES.new_state(FULL_HOUSES)
    before = _snapshot(state)
    with pytest.raises(ValueError, match=named):
        RULES.with_plays(state, plays)
    assert _snapshot(state) == before


def test_a_seat_plays_blind() -> None:
    """What a seat observes and may do depends only on the deal and its own moves: the same
    whatever the other seat plays and whichever seat it holds (``QuintetRules.blind``, which
    the evaluation relies on to score each player's moves against every other's)."""
    assert RULES.blind
    cards = RULES.new_state(JUNK).cards
    mine = _actions(RULES.new_state(JUNK), STRAIGHT_FLUSHES)
    others = [_actions(RULES.new_state(JUNK), JUNK), mine, [i // 5 for i in range(25)]]
    seen = []
    for seat in (0, 1):
        for theirs in others:
            env = quintet_v0.env()
            env.reset(options={"cards": JUNK})
            views = []
            while env.agents:
                agent = env.agent_selection
                if env.terminations[agent]:
                    env.step(None)
                    continue
                placed = int(env.unwrapped.game_state.placed[int(agent[-1])])
                if agent == f"player_{seat}":
                    view = env.observe(agent)
                    views.append((view["observation"].tobytes(), view["action_mask"].tolist()))
                    env.step(mine[placed])
                else:
                    env.step(theirs[placed])
            assert np.array_equal(env.unwrapped.game_state.cards, cards)
            seen.append(views)
    assert len(seen[0]) == 25
    assert all(views == seen[0] for views in seen)


def test_placement_order_is_descending_card_id() -> None:
    state = RULES.new_state(JUNK)
    assert format_cards(state.cards).startswith("Ac Ad Ah As Kc Jc Jd Jh Js Tc")
    assert format_cards(state.cards).endswith("8s 7c 7d 7h 7s")
    assert set(state.removed.tolist()) == set(parse_cards("Qs Qh Qd Qc Ks Kh Kd"))


def test_deal_is_reproducible_and_removes_seven_cards() -> None:
    a = RULES.new_state(rng=np.random.default_rng(7))
    b = RULES.new_state(rng=np.random.default_rng(7))
    assert np.array_equal(a.cards, b.cards) and np.array_equal(a.removed, b.removed)
    assert len(set(a.cards.tolist())) == 25 and len(a.removed) == 7
    assert sorted(a.cards.tolist() + a.removed.tolist()) == game.DECK.tolist()
    assert np.all(np.diff(a.cards.astype(int)) < 0)


@pytest.mark.parametrize(
    ("cards", "named"),
    [
        (FULL_HOUSES.rsplit(" ", 1)[0], "expected 25 cards"),
        (FULL_HOUSES.replace("8c", "6c"), "6c"),
        (FULL_HOUSES.replace("8c", "9c"), "duplicate card 9c"),
        (FULL_HOUSES.replace("8c", "Jk"), "Jk"),
    ],
)
def test_new_state_rejects_bad_cards(cards: str, named: str) -> None:
    with pytest.raises(ValueError, match=named):
        RULES.new_state(cards)


def _with_full_pack() -> game.QuintetState:
    state = RULES.new_state(FULL_HOUSES)
    for _ in range(5):
        RULES.apply(state, 0, 2)
    return state


def test_full_pack_raises_naming_it_and_state_unchanged() -> None:
    state = _with_full_pack()
    before = _snapshot(state)
    with pytest.raises(IllegalActionError) as err:
        RULES.apply(state, 0, 2)
    message = str(err.value)
    assert "illegal pack 2 (5-point pack, full)" in message
    assert "player_0 placing Kd" in message
    assert "legal are 0 (3-point pack), 1 (4-point pack), 3 (6-point pack), 4 (7-point pack)" in (
        message
    )
    assert _snapshot(state) == before
    assert RULES.legal_mask(state, 0).tolist() == [1, 1, 0, 1, 1]


@pytest.mark.parametrize("action", [5, -1, "2", 2.5, True, None, np.array([1, 2])])
def test_bad_pack_values_raise_and_state_unchanged(action: object) -> None:
    state = RULES.new_state(FULL_HOUSES)
    before = _snapshot(state)
    with pytest.raises(IllegalActionError, match="bad pack"):
        RULES.apply(state, 1, action)
    assert _snapshot(state) == before


def test_numpy_integer_actions_are_accepted() -> None:
    state = RULES.new_state(FULL_HOUSES)
    RULES.apply(state, 0, np.int64(3))
    RULES.apply(state, 1, np.array(4))
    assert state.pack_sizes.tolist() == [[0, 0, 0, 1, 0], [0, 0, 0, 0, 1]]


def test_parallel_env_checks_both_before_moving() -> None:
    env = quintet_v0.parallel_env()
    env.reset(options={"cards": FULL_HOUSES})
    for _ in range(5):
        env.step({"player_0": 2, "player_1": 0})
    state = env.game_state
    before = _snapshot(state)
    with pytest.raises(IllegalActionError, match="illegal pack for player_0 2"):
        env.step({"player_0": 2, "player_1": 1})
    with pytest.raises(IllegalActionError, match="bad pack for player_1 9"):
        env.step({"player_0": 1, "player_1": 9})
    with pytest.raises(IllegalActionError, match="no action for player_1"):
        env.step({"player_0": 1})
    assert _snapshot(state) == before


def test_game_over_error_after_the_last_card() -> None:
    state = RULES.new_state(FULL_HOUSES)
    for action in _actions(state, FULL_HOUSES):
        RULES.apply(state, 0, action)
        RULES.apply(state, 1, action)
    before = _snapshot(state)
    with pytest.raises(GameOverError):
        RULES.apply(state, 0, 0)
    with pytest.raises(GameOverError):
        RULES.apply(state, 1, 0)
    assert _snapshot(state) == before
    assert RULES.legal_mask(state, 1).tolist() == [0, 0, 0, 0, 0]


@pytest.mark.parametrize("player", [2, -1, "0", True])
def test_bad_player_is_named(player: object) -> None:
    with pytest.raises(ValueError, match="bad player"):
        RULES.apply(RULES.new_state(FULL_HOUSES), player, 0)  # type: ignore[arg-type]


def test_random_masked_play_never_raises() -> None:
    rng = np.random.default_rng(0)
    for _ in range(200):
        state = RULES.new_state(rng=rng)
        while not RULES.is_terminal(state):
            for p in range(2):
                RULES.apply(state, p, masked_random_choice(rng, RULES.legal_mask(state, p)))
        result = RULES.outcome(state)
        assert sum(result.points) == sum(
            v for v, r in zip(game.POSITION_POINTS, result.results, strict=True) if r
        )
        assert RULES.returns(state)[0] == -RULES.returns(state)[1]


def _index(card: str) -> int:
    return parse_cards(card)[0] - 20


def test_observation_index_table() -> None:
    state = RULES.new_state(FULL_HOUSES)
    RULES.apply(state, 0, 4)  # Ac to the 7-point pack
    RULES.apply(state, 0, 4)  # Ad
    RULES.apply(state, 0, 0)  # Ah to the 3-point pack
    RULES.apply(state, 1, 1)  # the other player's packs never show
    obs = game.encode_observation(state, 0)
    assert obs.shape == (LAYOUT.size,) and obs.dtype == np.float32
    expected = np.zeros(LAYOUT.size, dtype=np.float32)
    for card in FULL_HOUSES.split():
        expected[_index(card)] = 1
    expected[32 + 32 * 4 + _index("Ac")] = 1
    expected[32 + 32 * 4 + _index("Ad")] = 1
    expected[32 + 32 * 0 + _index("Ah")] = 1
    expected[192 + _index("As")] = 1
    for card in FULL_HOUSES.split():
        if card not in ("Ac", "Ad", "Ah", "As"):
            expected[224 + _index(card)] = 1
    expected[256:261] = [1, 0, 0, 0, 2]
    expected[261] = 3
    assert obs.tolist() == expected.tolist()
    assert np.all(obs <= LAYOUT.high)

    view = game.decode_observation(obs)
    assert format_cards(view.cards) == format_cards(state.cards)
    assert view.packs == RULES.pack_cards(state, 0)
    assert view.current == parse_cards("As")[0] and view.placed == 3


def test_observation_when_done_has_no_current_card() -> None:
    state = RULES.new_state(FULL_HOUSES)
    for action in _actions(state, FULL_HOUSES):
        RULES.apply(state, 0, action)
    obs = game.encode_observation(state, 0)
    assert not obs[LAYOUT["current"]].any() and not obs[LAYOUT["to_come"]].any()
    assert obs[LAYOUT["pack_sizes"]].tolist() == [5] * 5 and obs[LAYOUT["placed"]] == 25
    assert obs[LAYOUT["packs"]].sum() == 25


@pytest.mark.parametrize(
    "module", ["pokerzoo.envs.quintet.rules", "pokerzoo.envs.quintet.pettingzoo_env"]
)
def test_docstring_examples(module: str) -> None:
    result = doctest.testmod(importlib.import_module(module))
    assert result.attempted > 0 and result.failed == 0
