"""The five-card stud observation: the index table, relative seats, what decode reads back,
and no face-down card of another seat in any observation."""

from __future__ import annotations

import copy
import dataclasses

import numpy as np
import pytest
from pokerzoo.envs.core.cards import parse_cards
from pokerzoo.envs.five_card_stud import (
    CALL,
    FOLD,
    LAYOUT,
    RAISE,
    FiveCardStudGame,
    FiveCardStudState,
    decode_observation,
    observation,
    pack_order,
)

from tests.helpers import check_seat_symmetry, rotated_betting, turned_list, turned_seat


def test_layout_is_documented_in_the_module_docstring() -> None:
    assert LAYOUT.table() in observation.__doc__
    assert LAYOUT.size == 53 + 530 + 60 + 5 + 4 + 30 + 160 + 2 + 1 + 2 + 5
    assert LAYOUT.dtype == np.float32


def scripted() -> tuple[FiveCardStudGame, object]:
    """Three seats, dealer 0; seat 1 opens with the king and bets, seat 2 calls, seat 0
    raises, seat 1 folds, seat 2 calls; the third cards are out."""
    game = FiveCardStudGame(num_players=3, hands=3)
    hands = ["3c 9s 7h", "4c Kd", "6c 5h Qd"]
    state = game.new_state(pack_order(hands), rng=np.random.default_rng(0))
    for seat, action in [(1, RAISE), (2, CALL), (0, RAISE), (1, FOLD), (2, CALL)]:
        assert game.current_player(state) == seat
        game.apply(state, seat, action)
    return game, state


def test_decode_reads_back_the_table_from_the_observers_seat() -> None:
    game, state = scripted()
    view = decode_observation(game.observe(state, 2))
    assert view.num_players == 3 and view.seat == 2
    assert view.hole == tuple(parse_cards("6c"))
    # relative seats: 0 is seat 2 itself, 1 is seat 0, 2 is seat 1
    assert view.up == (
        tuple(sorted(parse_cards("5h Qd"))),
        tuple(sorted(parse_cards("9s 7h"))),
        tuple(parse_cards("Kd")),  # a folded seat's up card stays seen
    )
    assert view.own_cards == tuple(parse_cards("6c")) + view.up[0]
    assert view.in_hand == (True, True, False) and view.opponents_in == (1,)
    assert view.all_in == (False, False, False)
    assert view.committed == (3, 3, 2) and view.stacks == (97, 97, 98)
    assert view.round_bets == (0, 0, 0) and view.pot == 8
    assert view.round == 1 and view.bet_size == 1 and view.bets_made == 0 and view.cap == 4
    assert view.to_act == 0 and view.to_call == 0  # seat 2's queen-high board opens round 2
    assert view.dealer == 1  # seat 0 deals: one seat to seat 2's left
    assert view.hand_number == 1 and view.hands_left == 2
    assert view.ante == 1 and view.bets == (1, 2) and view.low_qualifier is None
    assert not (view.hi_lo or view.deuces_wild or view.last_card_down) and view.jokers == 0
    history = np.zeros((4, 3, 4), dtype=np.int64)
    history[0, 0] = (0, 2, 0, 0)  # seat 2 called the bet and the raise
    history[0, 1] = (1, 0, 0, 0)  # seat 0 raised
    history[0, 2] = (1, 0, 0, 1)  # seat 1 bet, then folded
    assert (view.history == history).all()


def test_to_call_and_the_seat_to_act() -> None:
    game, state = scripted()
    game.apply(state, 2, RAISE)
    view = decode_observation(game.observe(state, 0))
    assert view.to_act == 0 and view.to_call == 1 and view.bets_made == 1
    assert view.round_bets == (0, 0, 1)  # seat 2 is two seats to seat 0's left
    other = decode_observation(game.observe(state, 2))
    assert other.to_act == 1 and other.to_call == 0


def test_options_are_in_the_observation() -> None:
    game = FiveCardStudGame(
        num_players=4, ante=2, bets=(3, 6), max_raises=2, last_card_down=True,
        deuces_wild=True, jokers=1, hi_lo=True, low_qualifier=8, hands=7,
    )  # fmt: skip
    view = decode_observation(game.observe(game.new_state(rng=np.random.default_rng(0)), 3))
    assert (view.ante, view.bets, view.cap, view.hands_left) == (2, (3, 6), 3, 6)
    assert view.last_card_down and view.deuces_wild and view.jokers == 1
    assert view.hi_lo and view.low_qualifier == 8 and view.num_players == 4 and view.seat == 3


def test_the_last_card_down_is_the_observers_own_hole_card() -> None:
    game = FiveCardStudGame(last_card_down=True)
    state = game.new_state(pack_order(["3c 9s 9d 5s 6s", "4c Kd Ks 7h 8h"]))
    while state.round < 3:
        seat = game.current_player(state)
        game.apply(state, seat, CALL if game.legal_mask(state, seat)[CALL] else RAISE)
    mine, theirs = (
        decode_observation(game.observe(state, 0)),
        decode_observation(game.observe(state, 1)),
    )
    assert mine.hole == tuple(sorted(parse_cards("3c 6s")))
    assert theirs.up[1] == tuple(sorted(parse_cards("9s 9d 5s")))
    assert parse_cards("6s")[0] not in theirs.up[1] + theirs.own_cards


def swapped_hidden_card(hands: list[str], seat: int, position: int, new: str) -> list[str]:
    changed = [h.split() for h in hands]
    changed[seat][position] = new
    return [" ".join(h) for h in changed]


@pytest.mark.parametrize(
    ("options", "position"), [({}, 0), ({"last_card_down": True}, 4), ({"jokers": 1}, 0)]
)
def test_another_seats_face_down_cards_never_show(options: dict, position: int) -> None:
    """Two deals differing only in one face-down card of seat 1 give seats 0 and 2 the same
    observation at every step, the showdown's end included."""
    game = FiveCardStudGame(num_players=3, **options)
    hands = ["3c 9s 9d 5s 6s", "4c Kd Ks 7h 8h", "Ac Qd Jd 2h 2s"]
    other = swapped_hidden_card(hands, 1, position, "Jk" if options.get("jokers") else "Th")
    states = [game.new_state(pack_order(h), rng=np.random.default_rng(0)) for h in (hands, other)]
    steps = 0
    while not game.is_terminal(states[0]):
        for seat in (0, 2):
            a, b = (game.observe(s, seat) for s in states)
            assert (a == b).all()
        seat = game.current_player(states[0])
        action = CALL if game.legal_mask(states[0], seat)[CALL] else RAISE
        for state in states:
            game.apply(state, seat, action)
        steps += 1
    assert steps >= 9  # the hand went to the showdown
    for seat in (0, 2):
        assert (game.observe(states[0], seat) == game.observe(states[1], seat)).all()
    assert states[0].results[0]["shown"] != states[1].results[0]["shown"]


def test_random_hidden_cards_never_show() -> None:
    """Random deals and random play: swapping an unseen card of each seat's opponents with a
    card still in the pack leaves that seat's observations unchanged until the hand ends."""
    rng = np.random.default_rng(3)
    for trial in range(60):
        n = int(rng.integers(2, 8))
        game = FiveCardStudGame(
            num_players=n, last_card_down=bool(trial % 2), jokers=trial % 3 // 2
        )
        pack = game.new_state(rng=np.random.default_rng(trial)).pack
        observer = int(rng.integers(n))
        hidden = int(rng.integers(n - 1))  # a hole card of a seat other than the observer
        hidden += hidden >= observer
        hole_index = (hidden - 1) % n  # hole cards go out from seat 1 (dealer 0)
        other = pack.copy()
        other[hole_index], other[-1] = pack[-1], pack[hole_index]
        states = [game.new_state(p, rng=np.random.default_rng(0)) for p in (pack, other)]
        moves = np.random.default_rng(trial)
        while True:
            a, b = (game.observe(s, observer) for s in states)
            assert (a == b).all(), f"trial {trial}"
            seat = game.current_player(states[0])
            legal = np.flatnonzero(game.legal_mask(states[0], seat))
            action = int(moves.choice(legal))
            if any(game.apply(s, seat, action) is not None for s in states):
                break


def test_observations_stay_inside_the_layout_bounds() -> None:
    game = FiveCardStudGame(num_players=10, hands=3, hi_lo=True, low_qualifier=8)
    rng = np.random.default_rng(0)
    state = game.new_state(rng=rng)
    while not game.is_terminal(state):
        for seat in range(10):
            obs = game.observe(state, seat)
            assert obs.dtype == np.float32 and obs.shape == (LAYOUT.size,)
            layout = game.layout  # the bounds of these options (finite)
            assert (obs >= layout.low).all() and (obs <= layout.high).all()
        seat = game.current_player(state)
        game.apply(state, seat, int(rng.choice(np.flatnonzero(game.legal_mask(state, seat)))))


def test_decode_rejects_a_wrong_shape() -> None:
    with pytest.raises(ValueError, match="expected a five-card stud observation"):
        decode_observation(np.zeros(10))


# --- relative seats ------------------------------------------------------------------------------
def rotated(state: FiveCardStudState, by: int) -> FiveCardStudState:
    """``state`` with the table turned ``by`` seats: what seat ``s`` had, seat ``s + by`` has."""
    return dataclasses.replace(
        state,
        rng=copy.deepcopy(state.rng),
        dealer=turned_seat(state.dealer, by, state.options.num_players),
        pack=state.pack.copy(),
        cards=np.roll(state.cards, by, axis=0),
        up=np.roll(state.up, by, axis=0),
        betting=rotated_betting(state.betting, by),
        start_stacks=turned_list(state.start_stacks, by),
        history=np.roll(state.history, by, axis=1),
        results=[],
    )


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"num_players": 3, "stack": (5, 30, 12), "last_card_down": True},
        {"num_players": 7, "jokers": 1, "hi_lo": True},
    ],
)
def test_the_same_situation_from_another_seat_is_the_same_observation(options: dict) -> None:
    """Turning the table ``by`` seats and looking from the seat the observer moved to gives the
    observation it had, but for ``seat``, at every step of a hand, its end included."""
    check_seat_symmetry(FiveCardStudGame(**options), rotated, decode_observation)
