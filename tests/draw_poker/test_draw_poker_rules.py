"""Draw poker rules (RULES §2) on fixed decks with exact payoffs: betting phases, the draw and its
short stock, showdowns with the seed's tie-breaks, side pots, odd chips, hands carried over,
options and illegal actions."""

from __future__ import annotations

import doctest
import importlib

import numpy as np
import pytest
from pokerzoo.envs.core.betting import CALL, FOLD, RAISE
from pokerzoo.envs.core.cards import parse_cards
from pokerzoo.envs.core.errors import GameOverError, IllegalActionError
from pokerzoo.envs.draw_poker import (
    PHASE_BET_AFTER,
    PHASE_BET_BEFORE,
    PHASE_DRAW,
    STAND_PAT,
    DrawPokerGame,
    DrawPokerState,
    decode_observation,
    discard_action,
)

from tests.helpers import ACCEPTED_ANTES, cases, check_ante_posted

PAT = STAND_PAT
FILE = "draw_rules.yaml"  # the case tables, in tests/data


def discard(state: DrawPokerState, seat: int, cards: str) -> int:
    """The draw action by which ``seat`` discards ``cards`` (found in its sorted hand)."""
    hand = state.hands[seat]
    return discard_action(hand.index(card) for card in parse_cards(cards))


def deal(game: DrawPokerGame, hands: list[str], stock: str = "") -> DrawPokerState:
    return game.new_state(game.pack_for(hands, stock), rng=np.random.default_rng(0))


# --- dealing ---------------------------------------------------------------------------------
def test_cards_are_dealt_one_at_a_time_from_the_dealers_left_then_the_stock() -> None:
    game = DrawPokerGame(num_players=3)
    cards = "2s 3s 4s 2h 3h 4h 2d 3d 4d 2c 3c 4c 5s 5h 5d  As Ks"
    state = game.new_state(cards)
    ids = parse_cards(cards)
    # seat 0 deals: seat 1 gets the 1st, 4th, ... card, seat 2 the 2nd, 5th, ..., seat 0 last
    seat_cards = [ids[2:15:3], ids[0:15:3], ids[1:15:3]]
    assert state.hands == [sorted(cards, reverse=True) for cards in seat_cards]
    assert state.stock[:2] == parse_cards("As Ks")
    assert sorted(state.stock) == sorted(set(range(52)) - set(ids[:15]))
    assert state.stock[2:] == sorted(state.stock[2:])  # no rng: the rest in id order


def test_pack_for_deals_each_seat_its_hand() -> None:
    game = DrawPokerGame(num_players=4, jokers=2)
    hands = ["As Ks Qs Js Ts", "2h 3h 4h 5h 7d", "Jk Jk 9c 9d 9h", "8s 8h 6c 6d 3c"]
    state = game.new_state(game.pack_for(hands, "Ac Kc"), rng=np.random.default_rng(5))
    assert state.hands == [sorted(parse_cards(h), reverse=True) for h in hands]
    assert state.stock[:2] == parse_cards("Ac Kc")
    assert len(state.stock) == 52 + 2 - 20


def test_the_rest_of_the_pack_is_shuffled_by_the_generator() -> None:
    game = DrawPokerGame()
    first = game.new_state(rng=np.random.default_rng(7))
    again = game.new_state(rng=np.random.default_rng(7))
    other = game.new_state(rng=np.random.default_rng(8))
    assert first.hands == again.hands and first.stock == again.stock
    assert (first.hands, first.stock) != (other.hands, other.stock)
    assert sorted(sum(first.hands, []) + first.stock) == list(range(52))


@pytest.mark.parametrize(
    ("options", "cards", "message"),
    [
        ({}, "As As", "duplicate card As in cards"),
        ({}, "Jk", "card Jk in cards is not in the pack"),
        ({"jokers": 1}, "Jk 2s Jk", "too many jokers in cards: 2"),
        ({"decks": 2}, "As As As", "card As appears 3 times in cards"),
        ({}, "Zz", "bad card 'Zz'"),
        ({}, [53], "bad card id 53"),
    ],
)
def test_a_bad_fixed_pack_names_the_card(options: dict, cards: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        DrawPokerGame(**options).new_state(cards)


def test_new_state_rejects_a_non_generator() -> None:
    with pytest.raises(TypeError, match="numpy.random.Generator"):
        DrawPokerGame().new_state(rng=0)  # type: ignore[arg-type]


# --- options ---------------------------------------------------------------------------------
@pytest.mark.parametrize(("options", "message"), cases(FILE, "bad_options"))
def test_bad_options_name_the_option(options: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        DrawPokerGame(**options)


@pytest.mark.parametrize(("options", "ante"), ACCEPTED_ANTES)
def test_an_ante_below_two_starting_stacks_is_accepted(options: dict, ante: int) -> None:
    game = DrawPokerGame(**options)
    assert game.ante == ante
    check_ante_posted(game, ante, game.stacks)


def test_default_options() -> None:
    game = DrawPokerGame()
    assert repr(game) == (
        "DrawPokerGame(num_players=2, decks=1, jokers=0, deuces_wild=False, ante=1, "
        "bets=(1, 2), stack=100, hands=1)"
    )
    assert game.num_actions == 35 and game.simultaneous is False


# --- everyone folds to one player ------------------------------------------------------------
@pytest.mark.parametrize(
    ("num_players", "steps", "rewards", "pot"),
    [
        (3, [(1, RAISE), (2, FOLD), (0, FOLD)], (-1, 2, -1), 4),
        (2, [(1, CALL), (0, CALL), (1, PAT), (0, PAT), (1, RAISE), (0, FOLD)], (-1, 1), 4),
        (2, [(1, RAISE), (0, RAISE), (1, FOLD)], (2, -2), 5),
    ],
    ids=["before the draw", "after the draw", "a raise answered by a fold"],
)
def test_everyone_folds_to_one_player_who_takes_the_pot_unseen(
    play, rng, num_players: int, steps: list, rewards: tuple, pot: int
) -> None:
    game = DrawPokerGame(num_players=num_players)
    state = game.new_state(rng=rng, dealer=0)
    payouts = play(game, state, steps)
    assert len(payouts) == 1 and game.is_terminal(state) and game.current_player(state) == -1
    payout = payouts[0]
    assert payout.rewards == tuple(float(r) for r in rewards)
    winner = rewards.index(max(rewards))
    info = state.last_hand
    assert info["showdown"] is False
    assert info["shown"] == (None,) * num_players
    assert info["categories"] == (None,) * num_players
    assert info["pots"] == ({"amount": pot, "eligible": (winner,), "winners": (winner,),
                             "shares": {winner: pot}},)  # fmt: skip
    assert info["results"] == rewards
    assert "no cards shown" in game.render(state)


# --- showdowns ------------------------------------------------------------------------------
CHECK_DOWN = [(1, CALL), (0, CALL), (1, PAT), (0, PAT), (1, CALL), (0, CALL)]

SHOWDOWNS = cases(FILE, "showdowns")


@pytest.mark.parametrize(("options", "hand0", "hand1", "rewards", "names"), SHOWDOWNS)
def test_showdown(
    play, options: dict, hand0: str, hand1: str, rewards: tuple, names: tuple
) -> None:
    game = DrawPokerGame(**options)
    state = deal(game, [hand0, hand1])
    (payout,) = play(game, state, CHECK_DOWN)
    assert payout.rewards == tuple(float(r) for r in rewards)
    info = state.last_hand
    assert info["showdown"] is True
    assert info["categories"] == names
    assert [set(parse_cards(cards)) for cards in info["shown"]] == [
        set(parse_cards(hand0)),
        set(parse_cards(hand1)),
    ]
    winners = tuple(s for s in (0, 1) if rewards[s] >= 0)
    assert info["pots"][0]["winners"] == winners


@pytest.mark.parametrize(
    ("hands", "steps", "rewards", "shares"),
    [
        (
            ["Ks Qh Jd 8c 4s", "9s 9h 9d 5c 2s", "9s 9h 9c 5d 2h"],
            [(1, RAISE), (2, CALL), (0, FOLD), (1, PAT), (2, PAT), (1, CALL), (2, CALL)],
            (-1, 1, 0),
            {1: 3, 2: 2},
        ),
        (
            ["9s 9h 9d 5c 2s", "Ks Qh Jd 8c 4s", "9s 9h 9c 5d 2h"],
            [(1, CALL), (2, RAISE), (0, CALL), (1, FOLD), (2, PAT), (0, PAT), (2, CALL), (0, CALL)],
            (0, -1, 1),
            {2: 3, 0: 2},
        ),
    ],
    ids=["seats 1 and 2 tie", "seats 0 and 2 tie"],
)
def test_a_split_pot_gives_the_odd_chip_to_the_first_winner_left_of_the_dealer(
    play, hands: list, steps: list, rewards: tuple, shares: dict
) -> None:
    game = DrawPokerGame(num_players=3, decks=2)
    state = deal(game, hands)
    (payout,) = play(game, state, steps)
    assert payout.rewards == tuple(float(r) for r in rewards)
    (pot,) = state.last_hand["pots"]
    assert pot["amount"] == 5 and pot["shares"] == shares
    assert list(pot["shares"]) == list(shares)  # the odd chip's winner first


def test_side_pots_with_three_all_ins(play) -> None:
    game = DrawPokerGame(num_players=4, stack=(20, 3, 5, 7), bets=(2, 4))
    hands = ["Js Th 9d 6c 4h", "As Ah Ad 7c 2s", "Ks Kh Kd 7d 3c", "Qs Qh 8d 8c 3d"]
    state = deal(game, hands, stock="Ac")
    play(game, state, [(1, RAISE), (2, RAISE), (3, RAISE), (0, CALL)])
    assert state.betting.stacks == [13, 0, 0, 0]
    assert state.betting.committed == [7, 3, 5, 7]
    # all-in players draw too: player_1 throws the deuce and catches the fourth ace
    assert state.phase == PHASE_DRAW and game.current_player(state) == 1
    (payout,) = play(game, state, [(1, discard(state, 1, "2s")), (2, PAT), (3, PAT), (0, PAT)])
    # nobody is left to bet against player_0 after the draw: straight to the showdown
    assert payout.rewards == (-7.0, 9.0, 1.0, -3.0)
    info = state.last_hand
    assert info["categories"] == ("nothing", "four of a kind", "three of a kind", "two pair")
    assert info["shown"][1] == "Ac Ad Ah As 7c"
    assert [(p["amount"], p["eligible"], p["winners"]) for p in info["pots"]] == [
        (12, (0, 1, 2, 3), (1,)),
        (6, (0, 2, 3), (2,)),
        (4, (0, 3), (3,)),
    ]
    assert info["stacks"] == (13, 12, 6, 4)


# --- the betting phases ----------------------------------------------------------------------
def test_three_orbits_at_most_and_no_raise_in_the_third(play) -> None:
    game = DrawPokerGame(num_players=3)
    hands = ["As Ah Ad 7c 2s", "Ks Kh Kd 7d 3c", "Qs Qh 8d 8c 3d"]
    state = deal(game, hands)
    first_orbit = [(1, RAISE), (2, RAISE), (0, RAISE)]
    second_orbit = [(1, RAISE), (2, CALL), (0, RAISE)]
    play(game, state, first_orbit + second_orbit)
    assert state.betting.orbit == 3 and state.betting.current_bet == 5
    mask = game.legal_mask(state, 1)
    assert mask[:3].tolist() == [1, 1, 0] and not mask[3:].any()  # no raise in the third orbit
    with pytest.raises(IllegalActionError, match="illegal action bet/raise"):
        game.apply(state, 1, RAISE)
    play(game, state, [(1, CALL)])
    assert game.legal_mask(state, 2)[:3].tolist() == [1, 1, 0]
    play(game, state, [(2, CALL)])  # player_0 matched already: the phase is over
    assert state.phase == PHASE_DRAW and state.betting.committed == [6, 6, 6]
    play(game, state, [(1, PAT), (2, PAT), (0, PAT)])
    assert state.phase == PHASE_BET_AFTER and state.betting.rules.bet == 2
    # a full orbit with no raise after the bet ends the phase: the showdown
    (payout,) = play(game, state, [(1, RAISE), (2, CALL), (0, CALL)])
    assert payout.rewards == (16.0, -8.0, -8.0)


@pytest.mark.parametrize(
    ("num_players", "steps"),
    [(2, [(1, CALL), (0, CALL)]), (4, [(1, CALL), (2, CALL), (3, CALL), (0, CALL)])],
)
def test_an_orbit_of_checks_ends_the_phase(play, rng, num_players: int, steps: list) -> None:
    game = DrawPokerGame(num_players=num_players)
    state = game.new_state(rng=rng, dealer=0)
    assert state.phase == PHASE_BET_BEFORE
    assert game.legal_mask(state, 1)[:3].tolist() == [0, 1, 1]  # nothing to call: no fold
    play(game, state, steps)
    assert state.phase == PHASE_DRAW and state.betting.pot == num_players


def test_the_draw_goes_clockwise_from_the_dealers_left_over_the_players_in(play, rng) -> None:
    game = DrawPokerGame(num_players=4)
    state = game.new_state(rng=rng, dealer=0)
    play(game, state, [(1, RAISE), (2, FOLD), (3, CALL), (0, CALL)])
    assert state.draw_queue == [1, 3, 0]
    mask = game.legal_mask(state, 1)
    assert not mask[:3].any() and mask[3:].all()
    play(game, state, [(1, discard_action([0, 4])), (3, PAT), (0, discard_action(range(5)))])
    assert state.drawn == [5, 2, -1, 0]
    assert state.phase == PHASE_BET_AFTER and game.current_player(state) == 1


def test_a_short_stock_reshuffles_the_discards_and_masks_a_larger_discard(play, snapshot) -> None:
    game = DrawPokerGame(num_players=10)
    # every card in id order: 50 dealt, the stock is Ad Ac; the generator only reshuffles
    state = game.new_state(range(52), rng=np.random.default_rng(3))
    assert state.stock == parse_cards("Ad Ac")
    play(game, state, [(seat % 10, CALL) for seat in range(1, 11)])
    first = state.hands[1][:2]
    play(game, state, [(1, discard_action([0, 1]))])
    assert state.hands[1][:2] == [51, 50]  # Ac Ad, the hand kept highest first
    assert state.stock == [] and state.discards == first
    # player_2: two cards can be supplied (the reshuffled discards), three cannot
    mask = game.legal_mask(state, 2)
    assert mask[discard_action([0, 1])] == 1 and mask[discard_action([3, 4])] == 1
    assert mask[discard_action([0, 1, 2])] == 0 and mask[discard_action(range(5))] == 0
    view = decode_observation(game.observe(state, 2))
    assert (view.stock, view.discard_pile, view.supply) == (0, 2, 2)
    before = snapshot(game, state)
    with pytest.raises(IllegalActionError, match="player_2: illegal action discard 0,1,2"):
        game.apply(state, 2, discard_action([0, 1, 2]))
    assert snapshot(game, state) == before
    second = state.hands[2][:2]
    kept = state.hands[2][2:]
    play(game, state, [(2, discard_action([0, 1]))])
    # player_2 receives player_1's discards, never its own
    assert sorted(state.hands[2]) == sorted(kept + first)
    assert state.stock == [] and state.discards == second
    play(game, state, [(3, discard_action([0]))])
    assert len(set(state.hands[3]) & set(second)) == 1
    assert len(state.stock) + len(state.discards) == 2
    assert game.legal_mask(state, 4)[discard_action([0, 1, 2])] == 0
    payouts = play(game, state, [(seat % 10, PAT) for seat in range(4, 11)])
    assert payouts == [] and state.phase == PHASE_BET_AFTER
    (payout,) = play(game, state, [(seat % 10, CALL) for seat in range(1, 11)])
    assert sum(payout.rewards) == 0 and sum(state.betting.stacks) == 1000
    held = sorted(sum(state.hands, []))
    assert len(set(held)) == 50  # no card was dealt twice


# --- hands carried over ----------------------------------------------------------------------
def test_the_deal_moves_left_and_a_player_with_no_chips_sits_out(play) -> None:
    game = DrawPokerGame(num_players=3, stack=(1, 5, 5), hands=3)
    state = deal(game, ["3s 4h 6d 8c Ts", "Ks Kh Kd 5c 2s", "Qs Qh 7d 5d 2h"])
    assert state.betting.stacks == [0, 4, 4]  # player_0 is all-in with its ante
    steps = [(1, CALL), (2, CALL), (1, PAT), (2, PAT), (0, PAT), (1, CALL), (2, CALL)]
    (payout,) = play(game, state, steps)
    assert payout.rewards == (-1.0, 2.0, -1.0)
    # hand 2: player_1 deals, player_0 has no chips and is not dealt in
    assert (state.hand_number, state.dealer) == (1, 1)
    assert state.betting.dealt == [False, True, True] and state.hands[0] == []
    assert state.betting.committed == [0, 1, 1] and game.current_player(state) == 2
    view = decode_observation(game.observe(state, 0))
    assert view.cards == () and view.dealt == (False, True, True)
    assert (view.hand_number, view.hands_left) == (2, 1)
    assert "player_0: stack 0, sitting out" in game.render(state)
    (payout,) = play(game, state, [(2, RAISE), (1, FOLD)])
    assert payout.rewards == (0.0, -1.0, 1.0) and state.last_hand["hand"] == 2
    assert (state.hand_number, state.dealer, game.current_player(state)) == (2, 2, 1)
    (payout,) = play(game, state, [(1, RAISE), (2, FOLD)])
    assert payout.rewards == (0.0, 1.0, -1.0) and game.is_terminal(state)
    assert state.betting.stacks == [0, 7, 4]


def test_the_deal_skips_a_player_with_no_chips(play) -> None:
    game = DrawPokerGame(num_players=3, stack=(5, 1, 5), hands=2)
    state = deal(game, ["Ks Kh Kd 5c 2s", "3s 4h 6d 8c Ts", "Qs Qh 7d 5d 2h"])
    steps = [(2, CALL), (0, CALL), (1, PAT), (2, PAT), (0, PAT), (2, CALL), (0, CALL)]
    (payout,) = play(game, state, steps)
    assert payout.rewards == (2.0, -1.0, -1.0)
    assert state.dealer == 2 and game.current_player(state) == 0


def test_the_game_ends_when_only_one_player_has_chips(play) -> None:
    game = DrawPokerGame(stack=2, hands=5)
    state = deal(game, ["As Ah 7d 5c 2s", "Ks Kh 7c 5d 2h"])
    play(game, state, [(1, RAISE), (0, CALL)])
    assert state.phase == PHASE_DRAW  # both all-in: no betting after the draw
    (payout,) = play(game, state, [(1, PAT), (0, PAT)])
    assert payout.rewards == (2.0, -2.0) and game.is_terminal(state)
    with pytest.raises(GameOverError, match="the game is over"):
        game.apply(state, 0, CALL)


# --- illegal actions -------------------------------------------------------------------------
ILLEGAL = [
    ("fold with nothing to call", [], 1, FOLD,
     "player_1: illegal action fold: legal are check/call, bet/raise$"),
    ("a draw in the betting", [], 1, PAT, "player_1: illegal action stand pat"),
    ("acting out of turn", [], 0, CALL,
     r"player_0: illegal action check/call: legal are none \(player_1 is to act\)"),
    ("a bet in the draw", [(1, CALL), (0, CALL)], 1, CALL,
     "player_1: illegal action check/call: legal are stand pat, discard 0, "),
    ("a raise in the third orbit", [(1, RAISE), (0, RAISE), (1, RAISE), (0, RAISE)], 1, RAISE,
     "illegal action bet/raise: legal are fold, check/call$"),
    ("out of the space", [], 1, 35, "bad action 35: expected an int in 0..34"),
    ("negative", [], 1, -1, "bad action -1"),
    ("a float", [], 1, 1.0, "bad action 1.0"),
    ("a bool", [], 1, True, "bad action True"),
    ("None", [], 1, None, "bad action None"),
    ("a string", [], 1, "1", "bad action '1'"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("case", "steps", "seat", "action", "message"), ILLEGAL, ids=[c[0] for c in ILLEGAL]
)
def test_an_illegal_action_raises_and_changes_nothing(
    play, snapshot, rng, case: str, steps: list, seat: int, action: object, message: str
) -> None:
    game = DrawPokerGame()
    state = game.new_state(rng=rng, dealer=0)
    play(game, state, steps)
    before = snapshot(game, state)
    with pytest.raises(IllegalActionError, match=message):
        game.apply(state, seat, action)
    assert snapshot(game, state) == before


@pytest.mark.parametrize("seat", [2, -1, "0", None])
def test_a_bad_seat_is_named(rng, seat: object) -> None:
    game = DrawPokerGame()
    with pytest.raises(ValueError, match=f"bad player {seat!r}"):
        game.apply(game.new_state(rng=rng, dealer=0), seat, CALL)  # type: ignore[arg-type]


def test_numpy_integers_are_actions(rng) -> None:
    game = DrawPokerGame()
    state = game.new_state(rng=rng, dealer=0)
    game.apply(state, np.int64(1), np.int8(CALL))
    assert game.current_player(state) == 0


# --- docs ------------------------------------------------------------------------------------
@pytest.mark.parametrize("module", ["rules", "api", "actions", "observation"])
def test_doctests(module: str) -> None:
    result = doctest.testmod(importlib.import_module(f"pokerzoo.envs.draw_poker.{module}"))
    assert result.failed == 0


def test_docstrings_hold_the_tables() -> None:
    from pokerzoo.envs.draw_poker import game, rules

    assert "| 3 + d | `discard i,j,..` |" in rules.__doc__
    assert "| 3 + d | `discard i,j,..` |" in DrawPokerGame.__doc__
    assert "{actions}" not in rules.__doc__
    assert "{actions}" not in game.__doc__


def test_the_engine_imports_numpy_and_the_core_only() -> None:
    # the engine's modules; the env modules beside them wrap it for PettingZoo and Gymnasium
    import ast
    import pathlib

    from pokerzoo.envs import draw_poker

    allowed = {"numpy", "__future__", "collections", "dataclasses", "functools", "sys", "typing"}
    folder = pathlib.Path(draw_poker.__file__).parent
    engine = ("actions", "api", "game", "observation", "render", "rules", "state", "__init__")
    for path in (folder / f"{name}.py" for name in engine):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module or ""]
            else:
                continue
            for name in names:
                assert name.split(".")[0] in allowed, f"{path.name} imports {name}"
