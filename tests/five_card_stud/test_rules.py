"""Five-card stud rules (RULES §5) on fixed decks: who acts first, betting limits, folds,
showdowns (high, high-low, wild cards), side pots, several hands, and exact payoffs."""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest
from pokerzoo.envs.core.cards import parse_cards
from pokerzoo.envs.core.errors import GameOverError, IllegalActionError
from pokerzoo.envs.core.game import Payout
from pokerzoo.envs.five_card_stud import (
    CALL,
    FOLD,
    RAISE,
    FiveCardStudGame,
    FiveCardStudState,
    pack_order,
    showing_key,
)

from tests.helpers import ACCEPTED_ANTES, cases, check_ante_posted

FILE = "stud_rules.yaml"  # the case tables, in tests/data
BET = RAISE  # in the first round "bet the minimum" is the bet/raise action
CHECK = CALL


def deal(game: FiveCardStudGame, hands: list[str]) -> FiveCardStudState:
    """A game whose first hand deals seat ``s`` the cards ``hands[s]`` (dealer: seat 0)."""
    return game.new_state(pack_order(hands), rng=np.random.default_rng(0))


def play(game: FiveCardStudGame, state: FiveCardStudState, moves: list[tuple[int, int]]):
    """Play ``(seat, action)`` pairs, checking the seat to act; the last move's payout."""
    payout = None
    for seat, action in moves:
        assert game.current_player(state) == seat, (
            f"expected player_{seat} to act, got player_{game.current_player(state)}\n"
            + game.render(state)
        )
        payout = game.apply(state, seat, action)
    return payout


def snapshot(state: FiveCardStudState) -> bytes:
    return pickle.dumps(state)


# --- who acts first ------------------------------------------------------------------------------
FIRST_ROUND = cases(FILE, "first_round")


@pytest.mark.parametrize(("first_to_act", "options", "ups", "expected"), FIRST_ROUND)
def test_first_round_opener(
    first_to_act: str, options: dict, ups: list[str], expected: int
) -> None:
    game = FiveCardStudGame(num_players=3, first_to_act=first_to_act, **options)
    holes = ["3c", "4c", "6c"]
    state = deal(game, [f"{hole} {up}" for hole, up in zip(holes, ups, strict=True)])
    assert game.current_player(state) == expected
    assert game.legal_mask(state, expected).tolist() == [1, 0, 1]  # bet the minimum or fold


MOVES = {"fold": FOLD, "check": CHECK, "call": CALL, "bet": BET, "raise": RAISE}
FIRST_ROUND_RAISES = cases(FILE, "first_round_raises")


@pytest.mark.parametrize(("options", "ups", "moves", "seat", "legal"), FIRST_ROUND_RAISES)
def test_the_first_rounds_opener_may_not_raise(
    options: dict, ups: list[str], moves: list[list], seat: int, legal: list[int]
) -> None:
    game = FiveCardStudGame(**{"num_players": 3, **options})
    holes = ["3c", "4c", "6c"][: game.num_players]
    state = deal(game, [f"{hole} {up}" for hole, up in zip(holes, ups, strict=True)])
    play(game, state, [(s, MOVES[name]) for s, name in moves])
    assert state.round == 0 and game.current_player(state) == seat
    assert game.legal_mask(state, seat).tolist() == legal
    if not legal[RAISE]:
        before = snapshot(state)
        with pytest.raises(IllegalActionError, match=f"player_{seat}: illegal action bet/raise"):
            game.apply(state, seat, RAISE)
        assert snapshot(state) == before


def test_in_the_first_round_every_seat_must_bet_or_fold_until_somebody_bets() -> None:
    game = FiveCardStudGame(num_players=3)
    state = deal(game, ["3c 9s", "4c Kd", "6c 5h"])
    play(game, state, [(1, FOLD)])
    assert game.legal_mask(state, 2).tolist() == [1, 0, 1]
    play(game, state, [(2, BET)])
    assert game.legal_mask(state, 0).tolist() == [1, 1, 1]


def open_round(game: FiveCardStudGame, state: FiveCardStudState) -> None:
    """Play a betting round to its end: the first seat bets (first round) or checks (later),
    the others call or check."""
    first = True
    round_ = state.round
    while not game.is_terminal(state) and state.round == round_:
        seat = game.current_player(state)
        mask = game.legal_mask(state, seat)
        game.apply(state, seat, BET if first and not mask[CALL] else CALL)
        first = False


LATER_ROUNDS = cases(FILE, "later_rounds")


@pytest.mark.parametrize(("round_", "options", "ups", "expected"), LATER_ROUNDS)
def test_best_showing_hand_opens_later_rounds(
    round_: int, options: dict, ups: list[str], expected: int
) -> None:
    game = FiveCardStudGame(num_players=3, **options)
    holes = ["2h", "3h", "4h"] if not options.get("deuces_wild") else ["7c", "8c", "Td"]
    hands = [f"{hole} {up}" for hole, up in zip(holes, ups, strict=True)]
    state = deal(game, hands)
    for _ in range(round_):
        open_round(game, state)
    assert state.round == round_
    assert game.current_player(state) == expected
    assert game.legal_mask(state, expected).tolist() == [0, 1, 1]  # later rounds: check or bet


def test_last_card_down_leaves_three_up_cards_to_decide_the_last_round() -> None:
    # seat 1 would show a pair of aces with its fifth card up
    game = FiveCardStudGame(num_players=3, last_card_down=True)
    state = deal(game, ["2h 9c 9d 5s 6s", "3h Ac Kd 4s As", "4h Qc Jd 7s 8s"])
    for _ in range(3):
        open_round(game, state)
    assert game.current_player(state) == 0  # the nines; the ace of seat 1 is face down
    assert state.up[1].sum() == 3


def test_showing_key_reads_groups_then_high_cards() -> None:
    def key(cards: str, wild: bool = False) -> tuple[int, ...]:
        return showing_key(parse_cards(cards), wild)

    assert key("Kc Kd") > key("As Kd") > key("As Qd") > key("Ks Qd")
    assert key("5c 5d 5h") > key("Ac Ad Kh Kd") > key("Ac Ad Qh")
    assert key("Jk") == key("As")
    assert key("As 2d") > key("Ks 9d 7h") and key("2s 2d") > key("As Kd Qh Jc")
    assert key("2s 7d", True) == key("7c 7d") > key("2s 7d")


def test_dealing_order_skips_seats_that_folded() -> None:
    game = FiveCardStudGame(num_players=3)
    # seat 2 folds in the first round: the third cards go to seats 1 and 0 only
    cards = "4c 5c 6c Kd 9s 8s Ah Ad 7h 7d Th Td"
    state = game.new_state(cards, rng=np.random.default_rng(0))
    assert state.cards[:, :2].tolist() == [parse_cards("6c 8s"), parse_cards("4c Kd"),
                                          parse_cards("5c 9s")]  # fmt: skip
    play(game, state, [(1, BET), (2, FOLD), (0, CALL)])
    assert state.cards[:, 2].tolist() == parse_cards("Ad Ah") + [-1]
    open_round(game, state)
    assert state.cards[:, 3].tolist() == parse_cards("7d 7h") + [-1]
    assert state.cards[2].tolist() == parse_cards("5c 9s") + [-1, -1, -1]


# --- betting limits ------------------------------------------------------------------------------
@pytest.mark.parametrize("max_raises", [0, 1, 3, 5])
def test_raise_cap_is_one_bet_and_max_raises(max_raises: int) -> None:
    # in the second round (small bet) heads-up, where both seats may raise: the first round's
    # opener may not (test_the_first_rounds_opener_may_not_raise)
    game = FiveCardStudGame(max_raises=max_raises)
    state = deal(game, ["3c 9s Tc", "4c Kd Th"])
    play(game, state, [(1, BET), (0, CALL)])
    assert state.round == 1 and game.current_player(state) == 1  # king-ten showing opens
    seat = 1
    for _ in range(1 + max_raises):
        assert game.legal_mask(state, seat)[RAISE] == 1
        play(game, state, [(seat, RAISE)])
        seat = 1 - seat
    assert game.legal_mask(state, seat).tolist() == [1, 1, 0]
    play(game, state, [(seat, CALL)])
    # ante + the first round's bet + (1 + max_raises) small bets
    assert state.betting.committed == [3 + max_raises] * 2
    # the next round allows the same again, at the big bet
    assert state.round == 2 and state.betting.rules.bet == 2


def test_the_first_round_reaches_the_cap_through_the_other_seats() -> None:
    game = FiveCardStudGame(num_players=3)
    state = deal(game, ["3c 9s", "4c Kd", "6c 5h"])
    play(game, state, [(1, BET), (2, RAISE), (0, RAISE), (1, CALL), (2, RAISE)])
    assert state.betting.bets == 4 and game.legal_mask(state, 0).tolist() == [1, 1, 0]
    play(game, state, [(0, CALL), (1, CALL)])
    assert state.round == 1 and state.betting.committed == [5, 5, 5]


def test_bet_sizes_small_then_big() -> None:
    game = FiveCardStudGame(bets=(2, 5))
    state = deal(game, ["3c 9s Tc Jc Qc", "4c Kd Th Jh Qh"])
    bets = []
    for _ in range(4):
        first = game.current_player(state)
        bets.append(state.betting.rules.bet)
        play(game, state, [(first, RAISE), (1 - first, CALL)])
    assert bets == [2, 2, 5, 5]
    assert state.betting.committed == [1 + 2 + 2 + 5 + 5] * 2
    assert state.results[-1]["pots"][0]["amount"] == 2 * (1 + 2 + 2 + 5 + 5)


# --- folds ---------------------------------------------------------------------------------------
def test_everyone_folds_to_the_bettor_who_takes_the_pot_unseen() -> None:
    game = FiveCardStudGame(num_players=3)
    state = deal(game, ["3c 9s", "4c Kd", "6c 5h"])
    payout = play(game, state, [(1, BET), (2, FOLD), (0, FOLD)])
    assert payout == Payout(rewards=(-1.0, 2.0, -1.0))
    info = state.results[-1]
    assert info["showdown"] is False
    assert info["shown"] == (None, None, None) and info["categories"] == (None, None, None)
    assert info["high_winners"] == (1,) and info["low_winners"] == ()
    assert info["pots"] == (
        {"amount": 4, "eligible": (1,), "high_winners": (1,), "low_winners": (), "shares": {1: 4}},
    )
    assert info["chips"] == (-1, 2, -1) and info["stacks"] == (99, 102, 99)
    assert game.is_terminal(state) and game.current_player(state) == -1


def test_folding_in_a_later_round() -> None:
    game = FiveCardStudGame()
    state = deal(game, ["3c 9s 9d", "4c Kd 2s"])
    play(game, state, [(1, BET), (0, RAISE), (1, CALL)])  # 3 each
    payout = play(game, state, [(0, RAISE), (1, FOLD)])  # pair of nines showing opens
    assert payout.rewards == (3.0, -3.0)


# --- showdowns -----------------------------------------------------------------------------------
def check_down(game: FiveCardStudGame, state: FiveCardStudState) -> Payout:
    """Everyone checks the later rounds to the showdown; the payout."""
    payout = None
    while not game.is_terminal(state):
        payout = game.apply(state, game.current_player(state), CHECK)
    return payout


SHOWDOWNS = cases(FILE, "showdowns")


@pytest.mark.parametrize(("options", "hands", "rewards", "high", "low", "categories"), SHOWDOWNS)
def test_heads_up_showdowns(
    options: dict,
    hands: list[str],
    rewards: tuple[float, ...],
    high: tuple[int, ...],
    low: tuple[int, ...],
    categories: tuple[str, ...],
) -> None:
    game = FiveCardStudGame(**options)
    state = deal(game, hands)
    first = game.current_player(state)
    play(game, state, [(first, BET), (1 - first, CALL)])  # a pot of 4
    payout = check_down(game, state)
    assert payout.rewards == rewards
    info = state.results[-1]
    assert info["showdown"] is True
    assert info["shown"] == tuple(hands)
    assert info["categories"] == categories
    assert info["high_winners"] == high and info["low_winners"] == low


def three_seat_hi_lo(options: dict, low_hand: str) -> tuple[Payout, dict]:
    """Seat 0 holds three kings, seat 1 ``low_hand``, seat 2 folds in the first round: a pot
    of 5 (three antes, two small bets). The payout and the hand's report."""
    game = FiveCardStudGame(num_players=3, hi_lo=True, **options)
    state = deal(game, ["Ks Kd Kh 9c 4d", low_hand, "7c Qs"])
    play(game, state, [(0, BET), (1, CALL), (2, FOLD)])
    return check_down(game, state), state.results[-1]


def test_hi_lo_odd_chip_goes_to_the_high_half() -> None:
    payout, report = three_seat_hi_lo({"low_qualifier": 8}, "Ah 2d 3c 4h 6s")
    # the high half is 3, the low half 2; each of the two put in 2
    assert payout.rewards == (1.0, 0.0, -1.0)
    pot = report["pots"][0]
    assert pot["shares"] == {0: 3, 1: 2}
    assert pot["high_winners"] == (0,) and pot["low_winners"] == (1,)


def test_hi_lo_without_a_qualifying_low_the_high_hand_takes_all() -> None:
    payout, report = three_seat_hi_lo({"low_qualifier": 8}, "Ah 2d 3c 4h 9s")
    assert payout.rewards == (3.0, -2.0, -1.0)
    assert report["low_winners"] == ()


def test_equal_hands_split_with_the_odd_chip_nearest_the_dealers_left() -> None:
    game = FiveCardStudGame(num_players=3)
    state = deal(game, ["As Kd Qh Jc Ts", "Ah Ks Qd Jh Tc", "7c 5s"])
    play(game, state, [(1, BET), (2, FOLD), (0, CALL)])
    payout = check_down(game, state)
    assert state.results[-1]["pots"][0]["shares"] == {1: 3, 0: 2}  # seat 1 is left of the dealer
    assert payout.rewards == (0.0, 1.0, -1.0)


def test_side_pot_for_a_short_stack_all_in() -> None:
    game = FiveCardStudGame(num_players=3, bets=(2, 4), stack=(4, 100, 100))
    state = deal(
        game,
        ["9c 9d 9h 4c 5d", "Kc Ks 7d 8h 2s", "Qc Jd 6h 3s Td"],  # trips, a pair, queen high
    )
    play(game, state, [(1, BET), (2, CALL), (0, CALL)])  # 3 each, seat 0 has 1 left
    play(game, state, [(0, CHECK), (1, BET), (2, CALL), (0, CALL)])  # seat 0 all-in for 1
    assert state.betting.stacks[0] == 0 and state.betting.committed == [4, 5, 5]
    play(game, state, [(1, BET), (2, CALL)])  # seat 0 is skipped
    payout = play(game, state, [(1, CHECK), (2, CHECK)])
    info = state.results[-1]
    assert [(p["amount"], p["eligible"], p["high_winners"]) for p in info["pots"]] == [
        (12, (0, 1, 2), (0,)),
        (10, (1, 2), (1,)),
    ]
    assert payout.rewards == (8.0, 1.0, -9.0)
    assert info["stacks"] == (12, 101, 91)


def test_hi_lo_splits_each_pot_among_the_seats_that_may_win_it() -> None:
    game = FiveCardStudGame(num_players=3, hi_lo=True, low_qualifier=8, stack=(3, 100, 100))
    state = deal(
        game,
        # a seven low (all-in), three kings, an eight low
        ["As 2d 3c 4h 7s", "Kc Kd Kh 9c Qd", "Ac 3d 2h 5s 8c"],
    )
    play(game, state, [(1, BET), (2, CALL), (0, CALL)])
    play(game, state, [(1, BET), (2, CALL), (0, CALL)])  # seat 0 is all-in: 3 each
    play(game, state, [(1, BET), (2, CALL)])
    payout = play(game, state, [(1, CHECK), (2, CHECK)])
    main, side = state.results[-1]["pots"]
    assert (main["amount"], main["high_winners"], main["low_winners"]) == (9, (1,), (0,))
    assert main["shares"] == {1: 5, 0: 4}  # the odd chip with the high half
    assert (side["amount"], side["high_winners"], side["low_winners"]) == (4, (1,), (2,))
    assert side["shares"] == {1: 2, 2: 2}
    assert payout.rewards == (1.0, 2.0, -3.0)
    assert state.results[-1]["low_winners"] == (0,)


@pytest.mark.parametrize(("ante", "stack"), [(0, 5), (1, 5), (2, 10)])
def test_antes_and_stacks(ante: int, stack: int) -> None:
    game = FiveCardStudGame(num_players=3, ante=ante, stack=stack)
    state = deal(game, ["3c 9s", "4c Kd", "6c 5h"])
    assert state.betting.committed == [ante] * 3 and state.betting.stacks == [stack - ante] * 3
    payout = play(game, state, [(1, BET), (2, FOLD), (0, FOLD)])
    assert payout.rewards == (-ante, 2 * ante, -ante)


def test_an_opener_nobody_can_answer_checks_instead_of_folding() -> None:
    game = FiveCardStudGame(num_players=3, stack=(1, 100, 100))
    # seat 0 is all-in on its ante; seat 1 opens with the king and folds
    state = deal(game, ["3c 9s", "4c Kd", "6c 5h"])
    play(game, state, [(1, FOLD)])
    assert game.legal_mask(state, 2).tolist() == [0, 1, 0]


def test_when_the_highest_up_card_is_all_in_the_next_seat_opens_and_may_not_raise() -> None:
    game = FiveCardStudGame(num_players=3, stack=(1, 100, 100))
    # seat 0 shows the ace but is all-in on its ante: seat 1 acts first, the round's opener
    state = deal(game, ["3c As", "4c Kd", "6c 5h"])
    assert game.current_player(state) == 1 and game.legal_mask(state, 1).tolist() == [1, 0, 1]
    play(game, state, [(1, BET), (2, RAISE)])
    assert game.current_player(state) == 1 and game.legal_mask(state, 1).tolist() == [1, 1, 0]


# --- several hands -------------------------------------------------------------------------------
def test_hands_carry_stacks_and_move_the_deal_left() -> None:
    game = FiveCardStudGame(num_players=3, hands=4)
    state = deal(game, ["3c 9s", "4c Kd", "6c 5h"])
    payout = play(game, state, [(1, BET), (2, FOLD), (0, FOLD)])
    assert payout.rewards == (-1.0, 2.0, -1.0) and state.results[-1]["hand"] == 1  # 1-based
    assert state.hand == 1 and state.dealer == 1 and not game.is_terminal(state)
    text = game.render(state)  # hand 2 in play, hand 1's result below it
    assert "hand 2/4" in text.splitlines()[0] and "hand 1 result:" in text
    assert state.start_stacks == [99, 102, 99]
    assert state.betting.committed == [1, 1, 1] and state.betting.stacks == [98, 101, 98]
    hands_seen = 1
    rng = np.random.default_rng(1)
    while not game.is_terminal(state):
        seat = game.current_player(state)
        legal = np.flatnonzero(game.legal_mask(state, seat))
        payout = game.apply(state, seat, int(rng.choice(legal)))
        if payout is not None:
            hands_seen = len(state.results)
            assert state.results[-1]["dealer"] == (hands_seen - 1) % 3
            assert state.results[-1]["hand"] == hands_seen
    assert hands_seen == 4 and len(state.results) == 4
    assert sum(state.betting.stacks) == 300


def test_a_seat_without_chips_sits_out_and_the_game_ends_with_one_seat_left() -> None:
    game = FiveCardStudGame(num_players=3, hands=5, stack=(2, 100, 100))
    # seat 0 (2 chips) goes all-in and loses; seats 1 and 2 play on
    state = deal(game, ["3c 9s 2d 4h 8c", "4c Kd Kc 7h 7s", "6c 5h"])
    # seat 0 calls all-in: nobody is left to bet against, the hand plays out at once
    payout = play(game, state, [(1, BET), (2, FOLD), (0, CALL)])
    assert payout.rewards == (-2.0, 3.0, -1.0)
    assert state.hand == 1 and state.betting.dealt == [False, True, True]
    assert (state.cards[0] == -1).all() and state.betting.committed == [0, 1, 1]
    assert "sitting out" in game.render(state)
    # heads-up from here on; seat 2 folds every hand until it is broke or the hands run out
    while not game.is_terminal(state):
        seat = game.current_player(state)
        mask = game.legal_mask(state, seat)
        game.apply(state, seat, FOLD if seat == 2 and mask[FOLD] else CALL if mask[CALL] else RAISE)
    assert len(state.results) == 5 and sum(state.betting.stacks) == 202


def test_a_hand_with_no_decision_plays_out_in_the_same_move() -> None:
    game = FiveCardStudGame(num_players=3, hands=2, stack=(2, 2, 100))
    # seats 0 and 1 keep one chip each after hand 1: in hand 2 both are all-in on the ante
    state = deal(game, ["3c 9s", "4c 5d", "6c Kh"])
    payout = play(game, state, [(2, BET), (0, FOLD), (1, FOLD)])
    assert game.is_terminal(state) and len(state.results) == 2
    first, second = state.results
    assert first["hand"] == 1 and second["hand"] == 2
    assert second["showdown"] is True
    info = game.info(state, 0)  # the info reports the last hand settled
    assert info["hand"] == 2 and bool(info["showdown"]) is True
    assert info["chips"].tolist() == list(second["chips"])
    assert first["chips"] == (-1, -1, 2)
    assert payout.rewards == tuple(
        float(a + b) for a, b in zip(first["chips"], second["chips"], strict=True)
    )
    assert sum(state.betting.stacks) == 104


def test_game_ends_early_when_one_seat_has_all_the_chips() -> None:
    game = FiveCardStudGame(hands=10, stack=(2, 100))
    state = deal(game, ["3c 9s 2d 4h 8c", "4c Kd Kc 7h 7s"])
    payout = play(game, state, [(1, BET), (0, CALL)])  # all-in: the hand plays out at once
    assert payout.rewards == (-2.0, 2.0) and game.is_terminal(state)
    assert len(state.results) == 1
    with pytest.raises(GameOverError):
        game.apply(state, 0, CALL)


# --- illegal actions change nothing --------------------------------------------------------------
ILLEGAL = [
    (1, CALL, IllegalActionError, r"player_1: illegal action check/call: legal are fold, bet/raise"),  # noqa: E501
    (0, BET, IllegalActionError, r"player_0: illegal action bet/raise: .*\(player_1 is to act\)"),
    (1, 3, IllegalActionError, r"player_1: bad action 3: expected an int in 0\.\.2"),
    (1, -1, IllegalActionError, r"player_1: bad action -1"),
    (1, None, IllegalActionError, r"player_1: bad action None"),
    (1, 1.0, IllegalActionError, r"player_1: bad action 1\.0"),
    (1, True, IllegalActionError, r"player_1: bad action True"),
    (1, "2", IllegalActionError, r"player_1: bad action '2'"),
    (3, FOLD, ValueError, r"bad player 3: expected an int in 0\.\.1"),
]  # fmt: skip


@pytest.mark.parametrize(("player", "action", "error", "message"), ILLEGAL)
def test_illegal_actions_raise_and_change_nothing(
    player: int, action: object, error: type, message: str
) -> None:
    game = FiveCardStudGame()
    state = deal(game, ["3c 9s", "4c Kd"])
    before, text = snapshot(state), game.render(state)
    with pytest.raises(error, match=message):
        game.apply(state, player, action)
    assert snapshot(state) == before and game.render(state) == text


@pytest.mark.parametrize(
    ("moves", "seat", "action", "message"),
    [
        (
            [(1, BET), (0, CALL), (1, BET), (0, RAISE), (1, RAISE), (0, RAISE)],
            1,
            RAISE,
            "legal are fold, check/call",
        ),
        ([(1, BET), (0, RAISE)], 1, RAISE, "player_1: illegal action bet/raise: legal are fold, "),
        ([(1, BET), (0, CALL)], 1, FOLD, "illegal action fold: legal are check/call, bet/raise"),
    ],
    ids=["raise over the cap", "the first round's opener re-raising", "fold with nothing to call"],
)
def test_illegal_moves_later_in_a_hand_change_nothing(
    moves: list[tuple[int, int]], seat: int, action: int, message: str
) -> None:
    game = FiveCardStudGame()
    state = deal(game, ["3c 9s Kh", "4c Kd Ks"])
    play(game, state, moves)
    before = snapshot(state)
    observations = [game.observe(state, s).copy() for s in range(2)]
    with pytest.raises(IllegalActionError, match=message):
        game.apply(state, seat, action)
    assert snapshot(state) == before
    assert all((game.observe(state, s) == observations[s]).all() for s in range(2))


def test_a_deep_copy_plays_on_independently() -> None:
    game = FiveCardStudGame()
    state = deal(game, ["3c 9s", "4c Kd"])
    twin = copy.deepcopy(state)
    play(game, state, [(1, BET), (0, FOLD)])
    assert not game.is_terminal(twin) and game.current_player(twin) == 1


# --- new_state and options -----------------------------------------------------------------------
@pytest.mark.parametrize(
    ("options", "cards", "message"),
    [
        ({}, "As Xx", "bad card 'Xx'"),
        ({}, "As Kd As", "duplicate card As in pack"),
        ({}, "As Jk", "card Jk in pack is not in the pack"),
        ({"jokers": 1}, "Jk Jk", "too many jokers in pack"),
        ({}, [0, 53], "bad card id 53"),
    ],
)
def test_new_state_names_a_bad_card(options: dict, cards: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        FiveCardStudGame(**options).new_state(cards)


def test_new_state_takes_a_joker_when_the_pack_has_one() -> None:
    state = FiveCardStudGame(jokers=1).new_state("Jk As Kd Qh")
    assert state.cards[:, :2].tolist() == [[48, 41], [52, 46]]


@pytest.mark.parametrize(
    ("stacks", "message"),
    [
        ((1, 1), r"bad ante 1: expected an int in 0\.\.0, .*\(stack 1\)"),  # no seat could act
        ((0, 100, 1), r"bad ante 1: expected an int in 0\.\.0, .*\(stack \(0, 100, 1\)\)"),
        ((0, 100, 0), r"bad stack \(0, 100, 0\): expected 3 ints >= 0.*at least two of them > 0"),
        ((100,), r"bad stack \(100,\)"),
        ("ab", "bad stack 'ab'"),
        ((100, -1), r"bad stack \(100, -1\)"),
        ((100.0, 100), r"bad stack \(100\.0, 100\)"),
    ],
    ids=str,
)
def test_bad_stacks_are_refused(stacks: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        FiveCardStudGame(num_players=2 if len(stacks) != 3 else 3, stack=stacks)


@pytest.mark.parametrize(("options", "ante"), ACCEPTED_ANTES)
def test_an_ante_below_two_starting_stacks_is_accepted(options: dict, ante: int) -> None:
    game = FiveCardStudGame(**options)
    assert game.options.ante == ante
    check_ante_posted(game, ante, game.options.stack)


def test_new_state_rejects_a_bad_rng() -> None:
    with pytest.raises(TypeError, match="numpy.random.Generator"):
        FiveCardStudGame().new_state(rng=0)


@pytest.mark.parametrize(("options", "message"), cases(FILE, "bad_options"))
def test_bad_options_name_the_option(options: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        FiveCardStudGame(**options)


def test_a_seed_replays_the_same_game() -> None:
    game = FiveCardStudGame(num_players=4, hands=5, hi_lo=True)

    def replay(seed: int) -> list[str]:
        state = game.new_state(rng=np.random.default_rng(seed))
        moves = np.random.default_rng(99)
        views = []
        while not game.is_terminal(state):
            seat = game.current_player(state)
            legal = np.flatnonzero(game.legal_mask(state, seat))
            game.apply(state, seat, int(moves.choice(legal)))
            views.append(game.render(state))
        return views

    assert replay(7) == replay(7)
    assert replay(7) != replay(8)


def test_without_rng_the_rest_of_the_pack_is_in_id_order() -> None:
    state = FiveCardStudGame().new_state("Ah")
    assert state.pack[:4].tolist() == [49, 0, 1, 2]
    assert sorted(state.pack.tolist()) == list(range(52))


def test_render_shows_up_cards_and_hides_face_down_cards() -> None:
    game = FiveCardStudGame(last_card_down=True)
    state = deal(game, ["3c 9s 9d 5s 6s", "4c Kd Ks 7h 8h"])
    text = game.render(state)
    assert "9s" in text and "Kd" in text and "3c" not in text and "4c" not in text
    for _ in range(3):
        open_round(game, state)
    text = game.render(state)
    assert "## 9s 9d 5s ##" in text and "6s" not in text
    payout = check_down(game, state)
    assert payout is not None
    text = game.render(state)
    assert "player_0 shows 3c 9s 9d 5s 6s (pair)" in text and "game over" in text
    assert "hand 1 result:" in text


def test_render_names_the_moves_and_marks_folds() -> None:
    game = FiveCardStudGame(num_players=3)
    state = deal(game, ["9c 9d", "Kc Ks 7d", "Qc Jd 6h"])
    play(game, state, [(1, BET), (2, RAISE), (0, FOLD), (1, CALL), (1, CHECK)])
    text = game.render(state)
    assert "last moves: player_1 bet, player_2 raise, player_0 fold, player_1 call, " in text
    assert "player_1 check" in text and "## 9d  folded" in text
    assert text.splitlines()[0] == "Five-card stud  hand 1/1  round 2/4 (bet 1)  pot 7"
    assert text.splitlines()[3].startswith("> player_2")
