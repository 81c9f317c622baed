"""Poker without a name (RULES §4) on fixed decks: dealing, bids, the follow rules, the trick
winner, joker leads, scoring, the schedule and the dealer rotation, and illegal actions."""

from __future__ import annotations

import copy

import numpy as np
import pytest
from pokerzoo.envs.core.cards import JOKER, format_card, parse_card, parse_cards
from pokerzoo.envs.core.errors import GameOverError, IllegalActionError
from pokerzoo.envs.core.game import Payout
from pokerzoo.envs.nameless_poker import (
    ACTIONS,
    BID,
    HAND_SIZES,
    LEAD_JOKER,
    NUM_ACTIONS,
    PACK,
    PLAY,
    NamelessPokerGame,
    NamelessPokerState,
    deal_score,
    pack_order,
    trick_winner,
)

from tests.helpers import cases

FILE = "nameless_rules.yaml"  # the case tables, in tests/data


# --- helpers -------------------------------------------------------------------------------------
def action(name: str) -> int:
    """An action from its name (``"bid 2"``, ``"lead Jk calling h"``) or short form: a card
    (``"As"``: play it) or ``"Jk>h"`` (lead a joker calling hearts)."""
    if name in ACTIONS:
        return ACTIONS.index(name)
    if ">" in name:
        return ACTIONS.index(f"lead Jk calling {name.split('>')[1]}")
    return PLAY + parse_card(name)


def legal(game: NamelessPokerGame, state: NamelessPokerState) -> set[str]:
    """Names of the current player's legal actions."""
    mask = game.legal_mask(state, game.current_player(state))
    return {ACTIONS[a] for a in np.flatnonzero(mask)}


def names(cards: str) -> set[str]:
    """``"As Jk"`` -> ``{"play As", "play Jk"}``."""
    return {f"play {format_card(c)}" for c in parse_cards(cards)}


def act(game: NamelessPokerGame, state: NamelessPokerState, moves: str) -> Payout | None:
    """Play space-separated moves (see :func:`action`; ``b2`` is ``bid 2``), each by the seat to
    act; returns the last payout."""
    payout = None
    for move in moves.split():
        name = f"bid {move[1:]}" if move.startswith("b") else move
        payout = game.apply(state, game.current_player(state), action(name))
    return payout


def fill(known: dict[int, str], turned: str, size: int) -> list[list[int]]:
    """Four hands of ``size`` cards: the ``known`` ones completed with the lowest unused
    natural cards (never a joker)."""
    used = set(parse_cards(" ".join(known.values()))) | {parse_card(turned)}
    free = [c for c in range(JOKER) if c not in used]
    hands = []
    for seat in range(4):
        cards = parse_cards(known.get(seat, ""))
        while len(cards) < size:
            cards.append(free.pop(0))
        hands.append(cards)
    return hands


def start(
    hands: list[list[int]] | list[str], turned: str, deal: int | None = None, **options: object
) -> tuple[NamelessPokerGame, NamelessPokerState]:
    """A one-deal game dealing ``hands`` (seat 0 deals, seat 1 leads) and turning ``turned``."""
    size = len(parse_cards(hands[0]))
    game = NamelessPokerGame(deals=[deal or min(size, 8)], **options)
    return game, game.new_state(pack_order(hands, turned), rng=np.random.default_rng(0))


def bid_zero(game: NamelessPokerGame, state: NamelessPokerState) -> None:
    """Everybody bids 0 (no dealer restriction): straight to the play."""
    while state.bidding:
        game.apply(state, game.current_player(state), BID)


def snapshot(state: NamelessPokerState) -> tuple[object, ...]:
    """Every field of the state, arrays and the generator's position included."""
    fields = dict(vars(state))
    fields["played"] = state.played.tolist()
    fields["voids"] = state.voids.tolist()
    fields["rng"] = None if state.rng is None else state.rng.bit_generator.state
    return tuple(sorted((k, repr(v)) for k, v in fields.items()))


# --- dealing -------------------------------------------------------------------------------------
def test_new_state_deals_one_card_each_from_the_dealers_left_then_turns_trump() -> None:
    game = NamelessPokerGame(deals=[2])
    state = game.new_state("As Kd Qh Jc Ts 9d 8h 7c 6h", rng=np.random.default_rng(0))
    assert state.dealer == 0
    assert [sorted(h) for h in state.hands] == [
        sorted(parse_cards(h)) for h in ("Jc 7c", "As Ts", "Kd 9d", "Qh 8h")
    ]
    assert state.turned == parse_card("6h") and state.trump == 1
    assert state.bidding and game.current_player(state) == 1


def test_the_rest_of_the_pack_is_in_id_order_without_rng() -> None:
    game = NamelessPokerGame()
    state = game.new_state()
    assert state.hands == [[3], [0], [1], [2]]  # 2s to the dealer's left, 2c to the dealer
    assert state.turned == parse_card("3s") and state.trump == 0


def test_deal_draws_a_whole_first_pack_that_new_state_deals_as_given() -> None:
    game = NamelessPokerGame()
    cards = game.deal(np.random.default_rng(5))
    assert sorted(cards) == sorted(PACK.cards.tolist()) and len(cards) == 54
    first, second = (game.new_state(cards, rng=np.random.default_rng(s)) for s in (1, 2))
    assert first.hands == second.hands and first.turned == second.turned == cards[4]
    assert first.hands[1] == [cards[0]]


def test_a_joker_turned_means_no_trump() -> None:
    game, state = start(["2c", "As", "Kd", "Qh"], "Jk")
    assert state.trump == -1


def test_a_seed_replays_the_same_episode() -> None:
    game = NamelessPokerGame()
    runs = []
    for _ in range(2):
        state = game.new_state("As Kd", rng=np.random.default_rng(7))
        chooser = np.random.default_rng(1)
        trail = []
        while not game.is_terminal(state):
            mask = game.legal_mask(state, game.current_player(state))
            choice = int(chooser.choice(np.flatnonzero(mask)))
            trail.append((choice, tuple(map(tuple, state.hands))))
            game.apply(state, game.current_player(state), choice)
        runs.append((trail, state.totals))
    assert runs[0] == runs[1]


@pytest.mark.parametrize(
    ("cards", "message"),
    [
        ("As As", "duplicate card As in pack"),
        ("Jk Jk Jk", "too many jokers in pack"),
        ("As Xx", "bad card 'Xx'"),
        ([60], "bad card id 60"),
    ],
)
def test_new_state_rejects_bad_cards(cards: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        NamelessPokerGame().new_state(cards)  # type: ignore[arg-type]


def test_new_state_rejects_a_bad_generator() -> None:
    with pytest.raises(TypeError, match="numpy.random.Generator"):
        NamelessPokerGame().new_state(rng=7)  # type: ignore[arg-type]


@pytest.mark.parametrize(("options", "message"), cases(FILE, "bad_options"))
def test_options_are_validated(options: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        NamelessPokerGame(**options)  # type: ignore[arg-type]


def test_pack_order_rejects_uneven_hands() -> None:
    with pytest.raises(ValueError, match="sizes"):
        pack_order(["As", "Kd", "Qh Jh", "2c"], "Jk")
    with pytest.raises(ValueError, match="duplicate card As in hands and turned card"):
        pack_order(["As", "Kd", "Qh", "2c"], "As")


# --- the schedule and the dealer -----------------------------------------------------------------
def test_the_30_deal_schedule() -> None:
    assert HAND_SIZES == (1, 2, 3, 4, 5, 6, 7, 8, 8, 8, 8, 7, 6, 5, 4, 3, 2, 1) + (8,) * 12


def play_recording_deals(
    game: NamelessPokerGame, seed: int, dealer: int | None = 0
) -> list[tuple[int, ...]]:
    """Random play from first dealer ``dealer`` (``None``: by lot); per deal: number, hand size,
    dealer, first to act, bidding or not."""
    state = game.new_state(rng=np.random.default_rng(seed), dealer=dealer)
    chooser = np.random.default_rng(seed)
    seen = []
    while True:
        seen.append(
            (
                state.deal,
                len(state.hands[0]),
                state.dealer,
                game.current_player(state),
                state.bidding,
            )
        )
        deal = state.deal_index
        while state.deal_index == deal and not game.is_terminal(state):
            mask = game.legal_mask(state, game.current_player(state))
            game.apply(state, game.current_player(state), int(chooser.choice(np.flatnonzero(mask))))
        if game.is_terminal(state):
            return seen


@pytest.mark.parametrize("first", [0, 1, 2, 3])
def test_the_full_game_follows_the_schedule_and_the_dealer_rotates_clockwise(first: int) -> None:
    seen = play_recording_deals(NamelessPokerGame(), 3, dealer=first)
    assert [s[0] for s in seen] == list(range(1, 31))
    assert [s[1] for s in seen] == list(HAND_SIZES)
    assert [s[2] for s in seen] == [(first + n - 1) % 4 for n in range(1, 31)]
    assert [s[3] for s in seen] == [(first + n) % 4 for n in range(1, 31)]  # the dealer's left
    assert [s[4] for s in seen] == [True] * 22 + [False] * 8  # minimum, maximum: no bids
    # the first of each kind of 8-card deal (19 dark, 23 minimum, 27 maximum): the seat facing
    # the first dealer deals all three
    assert {seen[n - 1][2] for n in (19, 23, 27)} == {(first + 2) % 4}


@pytest.mark.parametrize(("first", "deals", "dealers"), cases(FILE, "dealer_rotation"))
def test_a_subset_of_deals_is_played_in_order_the_dealer_moving_one_seat_per_deal(
    first: int, deals: list[int], dealers: list[int]
) -> None:
    seen = play_recording_deals(NamelessPokerGame(deals=deals), 5, dealer=first)
    assert [s[0] for s in seen] == deals
    assert [s[2] for s in seen] == dealers
    assert [s[3] for s in seen] == [(d + 1) % 4 for d in dealers]


# --- bids ----------------------------------------------------------------------------------------
def test_bids_go_clockwise_from_the_dealers_left_the_dealer_last() -> None:
    game, state = start(fill({}, "2s", 3), "2s")
    order = []
    for bid in (1, 0, 2, 3):
        order.append(game.current_player(state))
        assert legal(game, state) == {f"bid {b}" for b in range(4)}
        act(game, state, f"b{bid}")
    assert order == [1, 2, 3, 0]
    assert state.bids == [3, 1, 0, 2] and not state.bidding
    assert game.current_player(state) == 1


@pytest.mark.parametrize(
    ("deal", "bids", "forbidden"),
    [
        (3, "b1 b1 b0", 1),  # 1 + 1 + 0 + 1 would make 3
        (3, "b0 b0 b0", 3),
        (3, "b3 b0 b0", 0),
        (3, "b2 b2 b0", None),  # already over the hand size: every bid is allowed
        (19, "b2 b2 b2", 2),  # dark deals too
    ],
)
def test_the_dealer_restriction(deal: int, bids: str, forbidden: int | None) -> None:
    size = HAND_SIZES[deal - 1]
    everything = {f"bid {b}" for b in range(size + 1)}
    for restriction in (False, True):
        game, state = start(fill({}, "2s", size), "2s", deal, dealer_restriction=restriction)
        act(game, state, bids)
        assert game.current_player(state) == state.dealer == 0
        if restriction and forbidden is not None:
            assert legal(game, state) == everything - {f"bid {forbidden}"}
        else:
            assert legal(game, state) == everything


def test_dark_bids_are_made_before_the_hand_is_seen() -> None:
    game, state = start(fill({}, "2s", 8), "2s", 19)
    for seat in (1, 2, 3, 0):
        assert game.current_player(state) == seat
        for other in range(4):
            hidden = state.bids[other] is None
            obs = game.observe(state, other)
            assert obs[game.layout["hand_hidden"]][0] == int(hidden)
            assert obs[game.layout["hand"]].sum() == (0 if hidden else 8)
        assert legal(game, state) == {f"bid {b}" for b in range(9)}
        act(game, state, "b1")
    assert all(game.observe(state, s)[game.layout["hand"]].sum() == 8 for s in range(4))


def test_a_regular_deal_shows_the_hand_before_the_bid() -> None:
    game, state = start(fill({}, "2s", 8), "2s", 8)
    obs = game.observe(state, 1)
    assert obs[game.layout["hand_hidden"]][0] == 0 and obs[game.layout["hand"]].sum() == 8


@pytest.mark.parametrize("deal", [23, 27])
def test_minimum_and_maximum_deals_have_no_bids(deal: int) -> None:
    game, state = start(fill({}, "2s", 8), "2s", deal)
    assert not state.bidding and game.current_player(state) == 1
    mask = game.legal_mask(state, 1)
    assert not mask[BID:PLAY].any() and mask[PLAY:].any()


# --- the follow rules ----------------------------------------------------------------------------
FOLLOW = cases(FILE, "follow")


@pytest.mark.parametrize(("turned", "lead", "hand", "expected"), FOLLOW)
def test_follow_rules(turned: str, lead: str, hand: str, expected: str) -> None:
    size = len(hand.split())
    lead_card = lead.split(">")[0]
    game, state = start(fill({1: lead_card, 2: hand}, turned, size), turned)
    bid_zero(game, state)
    act(game, state, lead)
    assert game.current_player(state) == 2
    assert legal(game, state) == names(expected)


def test_leading_any_card_and_a_joker_only_with_a_called_suit() -> None:
    game, state = start(fill({1: "As 9h Jk"}, "2d", 3), "2d")
    bid_zero(game, state)
    calls = {f"lead Jk calling {s}" for s in "shdc"}
    assert legal(game, state) == names("As 9h") | calls  # "play Jk" is a follower's action


def test_a_follower_plays_a_joker_with_play_jk() -> None:
    game, state = start(fill({1: "9h", 2: "Jk"}, "2s", 1), "2s")
    bid_zero(game, state)
    act(game, state, "9h")
    assert legal(game, state) == {"play Jk"}


def test_both_jokers_in_one_hand_are_one_card() -> None:
    game, state = start(fill({1: "Jk Jk"}, "2s", 2), "2s")
    bid_zero(game, state)
    assert legal(game, state) == {f"lead Jk calling {s}" for s in "shdc"}
    act(game, state, "Jk>h")
    assert state.hands[1] == [JOKER]


# --- the trick winner ----------------------------------------------------------------------------
WINNERS = cases(FILE, "winners")


@pytest.mark.parametrize(("turned", "trick", "winner"), WINNERS)
def test_trick_winner(turned: str, trick: str, winner: int) -> None:
    moves = trick.split()
    cards = [m.split(">")[0] for m in moves]
    game, state = start([cards[3], cards[0], cards[1], cards[2]], turned)
    bid_zero(game, state)
    payout = act(game, state, trick)
    assert payout is not None
    seat = (1 + winner) % 4
    assert game.info(state, 0)["tricks"].tolist() == [int(s == seat) for s in range(4)]
    called = moves[0].split(">")[1] if ">" in moves[0] else None
    assert trick_winner(" ".join(cards), None if turned == "Jk" else turned[1], called) == winner


def test_the_winner_leads_the_next_trick() -> None:
    game, state = start(fill({1: "9h 2d", 2: "Ah 3d", 3: "Kh 4d", 0: "Qh 5d"}, "2c", 2), "2c")
    bid_zero(game, state)
    act(game, state, "9h Ah Kh Qh")
    assert state.tricks == [0, 0, 1, 0] and game.current_player(state) == 2
    assert state.last_trick == (tuple(parse_cards("9h Ah Kh Qh")), 1, 2)


# --- scoring -------------------------------------------------------------------------------------
SCORING = cases(FILE, "scoring")


@pytest.mark.parametrize(("hands", "turned", "bids", "plays", "scores"), SCORING)
def test_scoring(
    hands: list[str], turned: str, bids: str, plays: str, scores: tuple[int, ...]
) -> None:
    for reward in ("score", "relative"):
        game, state = start(hands, turned, reward=reward)
        act(game, state, bids)
        payout = act(game, state, plays)
        assert payout is not None
        info = game.info(state, 0)
        assert tuple(info["deal_scores"].tolist()) == scores
        mean = sum(scores) / 4
        expected = scores if reward == "score" else tuple(s - mean for s in scores)
        assert payout.rewards == pytest.approx(expected)
        assert tuple(info["totals"].tolist()) == scores and state.totals == list(scores)
        assert info["winners"].tolist() == [scores[s] == max(scores) for s in range(4)]


def test_bid_zero_with_a_trick_scores_one_point() -> None:
    game, state = start(["7h 8h", "As Ks", "3h 4h", "5h 6h"], "2c")
    act(game, state, "b0 b0 b0 b0")
    payout = act(game, state, "As 3h 5h 7h Ks 4h 6h 8h")
    assert payout is not None
    # t > b = 0: one point a trick
    assert game.info(state, 0)["deal_scores"].tolist() == [5, 2, 5, 5]


STRONG = "As Ks Qs Js Ts 9s 8s 7s"  # trumps with the 2s turned and both jokers in the stock


@pytest.mark.parametrize(("deal", "points"), [(23, -10), (24, -10), (27, 10), (30, 10)])
def test_minimum_and_maximum_deals_score_every_trick(deal: int, points: int) -> None:
    game, state = start(fill({1: STRONG}, "2s", 8), "2s", deal)
    payout = None
    while payout is None:
        seat = game.current_player(state)
        mask = game.legal_mask(state, seat)
        choice = np.flatnonzero(mask)[-1] if seat == 1 else np.flatnonzero(mask)[0]
        payout = game.apply(state, seat, int(choice))
    info = game.info(state, 1)
    assert info["tricks"].tolist() == [0, 8, 0, 0]
    assert info["bids"].tolist() == [-1] * 4  # no bids in a minimum or maximum deal
    assert info["deal_kind"] == (2 if deal <= 26 else 3)
    assert info["deal_scores"].tolist() == [0, 8 * points, 0, 0]
    assert deal_score(deal, None, 8) == 8 * points


def test_totals_add_up_over_deals_and_the_next_deal_is_dealt() -> None:
    game = NamelessPokerGame(deals=[1, 2])
    state = game.new_state(pack_order(["2h", "As", "3h", "4h"], "2d"), rng=np.random.default_rng(0))
    payout = act(game, state, "b1 b0 b1 b0 As 3h 4h 2h")
    assert payout is not None
    info = game.info(state, 0)
    assert info["totals"].tolist() == [5, 10, 5, -10] and not info["winners"].any()
    assert state.deal == 2 and state.dealer == 1 and [len(h) for h in state.hands] == [2] * 4
    assert state.bidding and game.current_player(state) == 2
    assert state.tricks == [0] * 4 and not state.played.any() and state.last_trick is None


# --- illegal actions -----------------------------------------------------------------------------
def bidding_state() -> tuple[NamelessPokerGame, NamelessPokerState]:
    return start(fill({1: "9h 2d 3d", 2: "3s 4d Jk"}, "2s", 3), "2s")


def playing_state() -> tuple[NamelessPokerGame, NamelessPokerState]:
    game, state = bidding_state()
    bid_zero(game, state)
    act(game, state, "9h")
    return game, state


# (state, seat, action, message)
ILLEGAL = [
    ("bidding", 1, NUM_ACTIONS, "player_1: bad action 66: expected an int in 0..65"),
    ("bidding", 1, -1, "bad action -1"),
    ("bidding", 1, 1.0, "bad action 1.0"),
    ("bidding", 1, None, "bad action None"),
    ("bidding", 1, True, "bad action True"),
    ("bidding", 1, "bid 1", "bad action 'bid 1'"),
    ("bidding", 1, BID + 4, "player_1: illegal action bid 4: legal are bid 0, bid 1, bid 2, bid 3"),
    ("bidding", 1, PLAY + parse_card("9h"), "illegal action play 9h"),
    ("bidding", 2, BID, r"player_2: illegal action bid 0: legal are none \(player_1 is to act\)"),
    ("playing", 2, BID, "player_2: illegal action bid 0: legal are play 3s, play Jk"),
    ("playing", 2, PLAY + parse_card("4d"), "illegal action play 4d: legal are play 3s, play Jk"),
    ("playing", 2, PLAY + parse_card("As"), "illegal action play As"),
    ("playing", 2, LEAD_JOKER + 1, "illegal action lead Jk calling h"),
    ("playing", 3, PLAY + parse_card("2s"), r"player_3: .* \(player_2 is to act\)"),
]


@pytest.mark.parametrize(("which", "seat", "bad", "message"), ILLEGAL)
def test_an_illegal_action_raises_and_changes_nothing(
    which: str, seat: int, bad: object, message: str
) -> None:
    game, state = bidding_state() if which == "bidding" else playing_state()
    before, view, copied = snapshot(state), game.render(state), copy.deepcopy(state)
    with pytest.raises(IllegalActionError, match=message):
        game.apply(state, seat, bad)
    assert snapshot(state) == before and game.render(state) == view
    assert game.observe(state, seat).tolist() == game.observe(copied, seat).tolist()


def test_a_joker_lead_needs_a_called_suit() -> None:
    game, state = start(fill({1: "Jk 2d"}, "2s", 2), "2s")
    bid_zero(game, state)
    before = snapshot(state)
    with pytest.raises(IllegalActionError, match="illegal action play Jk"):
        game.apply(state, 1, PLAY + JOKER)
    assert snapshot(state) == before


def test_a_bad_seat_is_rejected() -> None:
    game, state = bidding_state()
    with pytest.raises(ValueError, match="bad player 4: expected an int in 0..3"):
        game.apply(state, 4, BID)


def test_after_the_episode_every_action_raises_game_over() -> None:
    game, state = start(["2h", "As", "3h", "4h"], "2d")
    act(game, state, "b0 b0 b0 b0 As 3h 4h 2h")
    assert game.is_terminal(state) and game.current_player(state) == -1
    assert not any(game.legal_mask(state, s).any() for s in range(4))
    before = snapshot(state)
    with pytest.raises(GameOverError, match="episode is over"):
        game.apply(state, 1, BID)
    assert snapshot(state) == before


def test_every_action_has_a_distinct_name() -> None:
    game = NamelessPokerGame()
    described = [game.describe_action(a) for a in range(NUM_ACTIONS)]
    assert len(set(described)) == NUM_ACTIONS == 66
    assert described[:2] == ["bid 0", "bid 1"] and described[PLAY] == "play 2s"
    assert described[PLAY + JOKER] == "play Jk" and described[-1] == "lead Jk calling c"
    with pytest.raises(ValueError, match="bad action 66"):
        game.describe_action(66)
