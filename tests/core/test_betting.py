"""Fixed-limit betting shared by draw poker and stud (RULES §2, §5): rounds, caps, orbits,
all-ins, side pots and odd chips, on scripted action sequences."""

from __future__ import annotations

import numpy as np
import pytest
from pokerzoo.envs.core.betting import (
    CALL,
    FOLD,
    RAISE,
    TABLE_ROWS,
    Betting,
    Pot,
    RoundRules,
    split,
)

DRAW = RoundRules(bet=1, orbits=3)
STUD_FIRST = RoundRules(bet=1, cap=4, check_first=False)
STUD_LATER = RoundRules(bet=2, cap=4)


def play(betting: Betting, actions: list[tuple[int, int]]) -> None:
    """Play ``(seat, action)`` pairs, checking that the named seat is the one to act."""
    for seat, action in actions:
        assert betting.actor == seat, f"expected seat {seat} to act, got {betting.actor}"
        betting.act(action)


def test_antes_and_checks_end_the_round() -> None:
    betting = Betting.new([100, 100], ante=1)
    assert betting.committed == [1, 1] and betting.stacks == [99, 99]
    betting.start_round(1, DRAW)
    assert betting.legal() == (False, True, True)  # no bet to call: no fold
    play(betting, [(1, CALL), (0, CALL)])
    assert betting.round_over and betting.pot == 2


def test_three_orbits_and_no_raise_in_the_third() -> None:
    betting = Betting.new([100, 100], ante=1)
    betting.start_round(1, DRAW)
    play(betting, [(1, RAISE), (0, RAISE), (1, RAISE), (0, RAISE)])
    assert betting.orbit == 3 and betting.actor == 1
    assert betting.legal() == (True, True, False)
    play(betting, [(1, CALL)])
    assert betting.round_over and betting.current_bet == 4 and betting.committed == [5, 5]


def test_a_phase_ends_early_after_an_orbit_without_a_raise() -> None:
    betting = Betting.new([100, 100, 100], ante=1)
    betting.start_round(1, DRAW)
    play(betting, [(1, RAISE), (2, CALL), (0, CALL)])
    assert betting.round_over and betting.orbit == 1


def test_stud_opening_round_must_bet_or_fold_and_caps_at_four_bets() -> None:
    betting = Betting.new([100, 100, 100], ante=1)
    betting.start_round(2, STUD_FIRST)
    assert betting.legal() == (True, False, True)
    play(betting, [(2, RAISE), (0, RAISE), (1, RAISE), (2, RAISE)])
    assert betting.bets == 4 and betting.legal() == (True, True, False)
    play(betting, [(0, CALL), (1, FOLD)])
    assert betting.round_over and betting.committed == [5, 4, 5]
    betting.start_round(0, STUD_LATER)
    assert betting.legal() == (False, True, True)  # later rounds: the first may check


def test_side_pots_with_three_all_ins() -> None:
    betting = Betting.new([6, 11, 21, 50], ante=1)
    betting.start_round(0, RoundRules(bet=10))
    play(betting, [(0, RAISE), (1, RAISE), (2, RAISE), (3, CALL)])
    # seat 0 all-in for 5 (short of a full raise), seat 1 for 10, seat 2 for 20; seat 3 calls
    assert betting.stacks == [0, 0, 0, 29]
    assert betting.round_over  # no one left who can answer a raise
    assert betting.pots() == [
        Pot(6 * 4, (0, 1, 2, 3)),
        Pot(5 * 3, (1, 2, 3)),
        Pot(10 * 2, (2, 3)),
    ]
    assert sum(p.amount for p in betting.pots()) == betting.pot


def test_folded_chips_stay_in_the_pots_they_reached() -> None:
    betting = Betting.new([100, 3, 100], ante=1)
    betting.start_round(0, RoundRules(bet=4))
    play(betting, [(0, RAISE), (1, CALL), (2, CALL)])  # seat 1 calls all-in for 2
    betting.start_round(0, RoundRules(bet=4))
    play(betting, [(0, RAISE), (2, FOLD)])
    assert betting.one_left is False  # seats 0 and 1 (all-in) are still in
    assert betting.pots() == [Pot(9, (0, 1)), Pot(6 + 2, (0,))]
    assert betting.pot == 9 + 3 + 5


def test_one_pot_holds_every_chip_when_the_seats_still_in_put_in_the_same() -> None:
    betting = Betting.new([100, 100, 100], ante=1)
    betting.start_round(0, RoundRules(bet=4))
    play(betting, [(0, RAISE), (1, CALL), (2, RAISE), (0, CALL), (1, FOLD)])
    # seats 0 and 2 put in 9 each; the folded seat 1's 5 go to the one pot it cannot win
    assert betting.pots() == [Pot(9 + 5 + 9, (0, 2))]
    assert Betting.new([0, 0], ante=1).pots() == []  # nobody dealt: no chips, no pot


def test_a_pot_needs_a_winner() -> None:
    with pytest.raises(ValueError, match="at least one winner"):
        split(5, [], 0, 4)


@pytest.mark.parametrize(
    ("amount", "winners", "dealer", "expected"),
    [
        (10, [0, 1], 0, {0: 5, 1: 5}),
        (11, [0, 1], 0, {1: 6, 0: 5}),  # seat 1 is first left of the dealer
        (11, [0, 1], 1, {0: 6, 1: 5}),
        (11, [0, 2, 3], 2, {3: 4, 0: 4, 2: 3}),
        (7, [3], 0, {3: 7}),
    ],
)
def test_split_gives_odd_chips_left_of_the_dealer(
    amount: int, winners: list[int], dealer: int, expected: dict[int, int]
) -> None:
    assert split(amount, winners, dealer, 4) == expected


def test_seats_without_chips_are_not_dealt_and_illegal_actions_change_nothing() -> None:
    betting = Betting.new([0, 100, 100], ante=1)
    assert betting.dealt == [False, True, True] and betting.pot == 2
    betting.start_round(1, DRAW)
    before = betting.copy()
    with pytest.raises(ValueError, match="illegal betting action 0"):
        betting.act(FOLD)
    assert betting == before
    play(betting, [(1, CALL), (2, RAISE), (1, FOLD)])
    assert betting.one_left and betting.players_in == [2]


def test_stud_opening_seat_checks_when_nobody_could_answer_a_bet() -> None:
    # seat 2 is all-in from its ante; once seat 0 folds, seat 1 has nobody to bet against
    betting = Betting.new([100, 100, 1], ante=1)
    betting.start_round(0, STUD_FIRST)
    assert betting.legal() == (True, False, True)
    play(betting, [(0, FOLD)])
    assert betting.actor == 1 and betting.legal() == (False, True, False)
    play(betting, [(1, CALL)])
    assert betting.round_over and betting.players_in == [1, 2]


def test_the_table_and_the_legal_actions_keep_in_step_with_the_lists() -> None:
    """Random hands: after every change ``table`` holds the lists' numbers and ``legal()`` is
    what a fresh record of the same money works out."""
    rng = np.random.default_rng(1)
    rules = [DRAW, STUD_FIRST, STUD_LATER, RoundRules(bet=3, cap=2)]

    def check(betting: Betting) -> None:
        in_hand = [betting.in_hand(s) for s in range(betting.num_seats)]
        all_in = [i and c == 0 for i, c in zip(in_hand, betting.stacks, strict=True)]
        lists = {
            "dealt": betting.dealt,
            "stacks": betting.stacks,
            "round_bets": betting.round_bets,
            "committed": betting.committed,
            "in_hand": in_hand,
            "all_in": all_in,
        }
        for row, name in zip(betting.table, TABLE_ROWS, strict=True):
            assert row.tolist() == [float(x) for x in lists[name]], name
        assert betting.legal() == betting.copy().legal()

    for _ in range(200):
        n = int(rng.integers(2, 8))
        betting = Betting.new(rng.integers(0, 12, n).tolist(), ante=int(rng.integers(0, 3)))
        check(betting)
        for _ in range(4):
            if betting.one_left:
                break
            betting.start_round(int(rng.integers(n)), rules[int(rng.integers(len(rules)))])
            check(betting)
            while not betting.round_over:
                betting.act(int(rng.choice(np.flatnonzero(betting.legal()))))
                check(betting)
        if any(betting.dealt):
            for pot in betting.pots():
                betting.pay(pot.eligible[0], pot.amount)
                check(betting)
