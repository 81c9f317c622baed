"""Draw poker observations: the layout, what each field holds, hidden cards never shown, and
the decoder the bots read."""

from __future__ import annotations

import copy
import dataclasses

import numpy as np
import pytest
from pokerzoo.envs.core.betting import CALL, FOLD, RAISE
from pokerzoo.envs.core.cards import parse_cards
from pokerzoo.envs.draw_poker import (
    LAYOUT,
    PHASE_BET_AFTER,
    PHASE_BET_BEFORE,
    PHASE_DRAW,
    PHASE_OVER,
    STAND_PAT,
    DrawPokerGame,
    DrawPokerState,
    decode_observation,
    discard_action,
    encode_observation,
    make_layout,
)

from tests.helpers import check_seat_symmetry, rotated_betting, turned_list, turned_seat


@pytest.mark.parametrize("num_players", range(2, 11))
def test_the_size_depends_only_on_the_seats(num_players: int) -> None:
    layout = make_layout(num_players, chips=5000, bet=9, pack=108, hands=7)
    assert layout.size == 278 + 17 * num_players == make_layout(num_players).size
    game = DrawPokerGame(num_players=num_players)
    assert game.layout.size == layout.size
    assert game.observe(game.new_state(), 0).shape == (layout.size,)


def test_default_layout_and_table() -> None:
    assert LAYOUT.size == 312 and LAYOUT.dtype == np.float32
    assert DrawPokerGame().layout.high.tolist() == LAYOUT.high.tolist()
    from pokerzoo.envs.draw_poker import observation

    assert "| 0..1 | `seat` |" in observation.__doc__
    assert "{layout}" not in observation.__doc__


def test_the_bounds_follow_the_options() -> None:
    game = DrawPokerGame(num_players=3, stack=(10, 20, 30), bets=(3, 5), decks=2, hands=4)
    layout = game.layout
    assert (
        layout.high[layout["pot"]][0] == 60 and layout.high[layout["stacks"]].tolist() == [60] * 3
    )
    assert layout.high[layout["bet_size"]][0] == 5 and layout.high[layout["stock"]][0] == 104
    assert layout.high[layout["hand_number"]][0] == 4


def test_fields_of_a_scripted_hand(play) -> None:
    game = DrawPokerGame(num_players=3, hands=2)
    hands = ["As Ah Ad 7c 2s", "Ks Kh Kd 7d 3c", "Qs Qh 8d 8c 3d"]
    state = game.new_state(game.pack_for(hands, "Jc Tc"), rng=np.random.default_rng(0))
    view = decode_observation(game.observe(state, 0))
    assert view.num_players == 3 and view.seat == 0 and view.dealer == 0
    assert view.phase == PHASE_BET_BEFORE and view.cards == tuple(state.hands[0])
    assert view.cards == tuple(sorted(parse_cards(hands[0]), reverse=True))
    assert (view.pot, view.to_call, view.bet_size, view.orbit, view.bets_made) == (3, 0, 1, 1, 0)
    assert (view.stock, view.discard_pile, view.hand_number, view.hands_left) == (37, 0, 1, 1)
    assert view.stacks == (99, 99, 99) and view.committed == (1, 1, 1)
    assert view.in_hand == (True, True, True) and view.drawn == (-1, -1, -1)
    play(game, state, [(1, RAISE), (2, RAISE), (0, CALL), (1, CALL)])
    assert state.phase == PHASE_DRAW
    play(game, state, [(1, discard_action([3, 4]))])
    view = decode_observation(game.observe(state, 2))
    assert view.seat == 2 and view.phase == PHASE_DRAW and view.pot == 9
    assert view.round_bets == (0, 0, 0) and view.to_call == 0 and view.orbit == 0
    # relative seats: 0 is player_2 itself, 1 is player_0, 2 is player_1
    assert view.drawn == (-1, -1, 2) and view.stock == 35 and view.discard_pile == 2
    assert view.history[0] == ((1, 0, 0, 0), (0, 1, 0, 0), (1, 1, 0, 0))
    assert view.dealer == 1
    play(game, state, [(2, STAND_PAT), (0, discard_action([4]))])
    play(game, state, [(1, RAISE), (2, RAISE)])
    view = decode_observation(game.observe(state, 0))
    assert view.phase == PHASE_BET_AFTER and view.bet_size == 2
    assert (view.to_call, view.orbit, view.bets_made) == (4, 1, 2)
    assert view.round_bets == (0, 2, 4) and view.drawn == (1, 2, 0)
    assert view.cards == tuple(state.hands[0]) and set(parse_cards("Jc Tc")) <= set(state.hands[1])
    play(game, state, [(0, FOLD), (1, CALL)])
    view = decode_observation(game.observe(state, 1))
    assert view.phase == PHASE_BET_BEFORE and view.hand_number == 2 and view.hands_left == 0
    assert view.dealer == 0 and view.history == (((0,) * 4,) * 3,) * 2  # player_1 deals


def test_the_last_observation_is_over(play, rng) -> None:
    game = DrawPokerGame()
    state = game.new_state(rng=rng, dealer=0)
    play(game, state, [(1, RAISE), (0, FOLD)])
    view = decode_observation(game.observe(state, 0))
    assert view.phase == PHASE_OVER and view.hands_left == 0 and view.stacks == (99, 101)


def test_an_observation_is_a_new_array(rng) -> None:
    game = DrawPokerGame()
    state = game.new_state(rng=rng)
    first = game.observe(state, 0)
    first[:] = 7
    second = game.observe(state, 0)
    assert second[LAYOUT["pot"]][0] == 2 and second[LAYOUT["seat"]].tolist() == [1, 0]


def test_another_players_cards_are_never_observed(play) -> None:
    """Two deals that differ only in player_1's hidden card give player_0 the same views."""
    game = DrawPokerGame(num_players=3)
    stock = "5c 6c 9c"
    one = game.new_state(
        game.pack_for(["As Ah Ad 7c 2s", "Ks Kh Kd 7d 3c", "Qs Qh 8d 8c 3d"], stock)
    )
    other = game.new_state(
        game.pack_for(["As Ah Ad 7c 2s", "Ks Kh Kd 7d 4h", "Qs Qh 8d 8c 3d"], stock)
    )
    steps = [(1, RAISE), (2, CALL), (0, CALL), (1, STAND_PAT), (2, discard_action([4]))]
    steps += [(0, discard_action([3, 4])), (1, RAISE), (2, CALL), (0, CALL)]
    for seat, action in steps:
        for viewer in (0, 2):
            assert game.observe(one, viewer).tolist() == game.observe(other, viewer).tolist()
        assert game.observe(one, 1).tolist() != game.observe(other, 1).tolist()
        play(game, one, [(seat, action)])
        play(game, other, [(seat, action)])
    # the showdown reveals them (in the payout, not in an observation)
    assert one.last_hand["shown"][1] != other.last_hand["shown"][1]


@pytest.mark.parametrize("options", [{}, {"num_players": 6, "jokers": 2, "decks": 2}])
def test_swapping_a_hidden_card_with_the_stock_changes_no_other_view(options: dict) -> None:
    game = DrawPokerGame(**options)
    rng = np.random.default_rng(4)
    for _ in range(60):
        state = game.new_state(rng=rng)
        for _ in range(int(rng.integers(0, 12))):
            if game.is_terminal(state):
                break
            seat = game.current_player(state)
            legal = np.flatnonzero(game.legal_mask(state, seat))
            game.apply(state, seat, int(rng.choice(legal)))
        viewer = int(rng.integers(game.num_players))
        others = [s for s in range(game.num_players) if s != viewer and state.hands[s]]
        if game.is_terminal(state) or not others or not state.stock:
            continue
        swapped = copy.deepcopy(state)
        seat = others[int(rng.integers(len(others)))]
        hand = swapped.hands[seat]
        hand[0], swapped.stock[-1] = swapped.stock[-1], hand[0]
        hand.sort(reverse=True)
        assert game.observe(state, viewer).tolist() == game.observe(swapped, viewer).tolist()


@pytest.mark.parametrize(
    "options",
    [{}, {"num_players": 6}, {"num_players": 10}, {"decks": 2, "jokers": 4}, {"hands": 5}],
)
def test_observations_decode_to_the_state_and_stay_in_bounds(options: dict) -> None:
    game = DrawPokerGame(**options)
    layout = game.layout
    rng = np.random.default_rng(9)
    for _ in range(20):
        state = game.new_state(rng=rng)
        while not game.is_terminal(state):
            seat = game.current_player(state)
            obs = game.observe(state, seat)
            assert obs.dtype == np.float32
            assert (obs >= layout.low).all() and (obs <= layout.high).all()
            view = decode_observation(obs)
            assert view.seat == seat and view.cards == tuple(state.hands[seat])
            order = [(seat + k) % game.num_players for k in range(game.num_players)]
            assert view.stacks == tuple(state.betting.stacks[s] for s in order)
            assert view.pot == state.betting.pot and view.phase == state.phase
            assert view.in_hand == tuple(state.betting.in_hand(s) for s in order)
            assert view.dealer == (state.dealer - seat) % game.num_players
            legal = np.flatnonzero(game.legal_mask(state, seat))
            game.apply(state, seat, int(rng.choice(legal)))


@pytest.mark.parametrize("size", [311, 313, 278 + 17 * 11, 10])
def test_decode_rejects_a_bad_size(size: int) -> None:
    with pytest.raises(ValueError, match=f"bad observation of size {size}"):
        decode_observation(np.zeros(size, dtype=np.float32))


def test_encode_is_the_games_observe(rng) -> None:
    game = DrawPokerGame(num_players=4)
    state = game.new_state(rng=rng)
    assert encode_observation(state, 2).tolist() == game.observe(state, 2).tolist()


@pytest.mark.parametrize("seat", [3, -1, 1.0])
def test_observing_a_bad_seat_is_named(rng, seat: object) -> None:
    game = DrawPokerGame(num_players=3)
    with pytest.raises(ValueError, match=f"bad player {seat!r}: expected an int in 0..2"):
        game.observe(game.new_state(rng=rng), seat)  # type: ignore[arg-type]


# --- relative seats ------------------------------------------------------------------------------
def rotated(state: DrawPokerState, by: int) -> DrawPokerState:
    """``state`` with the table turned ``by`` seats: what seat ``s`` had, seat ``s + by`` has."""
    n = len(state.hands)
    history = np.roll(state.history.reshape(2, n, -1), by, axis=1).reshape(-1)
    return dataclasses.replace(
        state,
        betting=rotated_betting(state.betting, by),
        hands=copy.deepcopy(turned_list(state.hands, by)),
        stock=list(state.stock),
        discards=list(state.discards),
        drawn=turned_list(state.drawn, by),
        draws=np.roll(state.draws, by, axis=1),
        draw_queue=[turned_seat(s, by, n) for s in state.draw_queue],
        history=history,
        dealer=turned_seat(state.dealer, by, n),
        start_stacks=turned_list(state.start_stacks, by),
        rng=copy.deepcopy(state.rng),
    )


@pytest.mark.parametrize(
    "options",
    [{}, {"num_players": 3, "hands": 4, "stack": (6, 20, 9)}, {"num_players": 6, "jokers": 2}],
)
def test_the_same_situation_from_another_seat_is_the_same_observation(options: dict) -> None:
    """Turning the table ``by`` seats and looking from the seat the observer moved to gives the
    observation it had, but for ``seat``, at every step of whole games (later hands included:
    the deal, the dealer's move and the odd chips all follow the table round)."""
    check_seat_symmetry(DrawPokerGame(**options), rotated, decode_observation)
