"""The betting games' ``"equity"`` features on fixed cards, with values worked out by hand."""

from __future__ import annotations

import numpy as np
import pytest
from pokerzoo.envs.core.betting import CALL, RAISE
from pokerzoo.envs.core.cards import parse_cards
from pokerzoo.envs.core.hands import Category
from pokerzoo.envs.draw_poker import STAND_PAT, DrawPokerGame, discard_action
from pokerzoo.envs.five_card_stud import FiveCardStudGame, pack_order
from pokerzoo.training.games.draw_poker import hooks as draw_poker
from pokerzoo.training.games.five_card_stud import hooks as five_card_stud
from pokerzoo.training.poker.features import (
    deal,
    draw_indicators,
    draw_indicators_batch,
    group_keys,
    made_hand,
    pot_odds,
    pot_share,
)


@pytest.mark.parametrize(
    ("cards", "ruleset", "category"),
    [
        ("As Ah Kd Kc 2s", "standard", Category.TWO_PAIR),
        ("9h Th Jh Qh Kh", "standard", Category.STRAIGHT_FLUSH),
        ("Ah Kd 7c 5s 3h", "draw", Category.ACE_KING),
        ("Ah Kd 7c 5s 3h", "standard", Category.NOTHING),
        ("Jk 4s 4h 4d 9c", "standard", Category.FOUR_OF_A_KIND),
        # fewer than five cards: groups of ranks only
        ("As Ah Ks", "standard", Category.PAIR),
        ("7s 7h 7d 2c", "standard", Category.THREE_OF_A_KIND),
        ("7s 7h 2d 2c", "standard", Category.TWO_PAIR),
        ("Jk 5s 5h", "standard", Category.THREE_OF_A_KIND),
        ("2s 3s 4s 5s", "standard", Category.NOTHING),  # four to a straight flush is nothing yet
    ],
)
def test_made_hand_is_the_category_one_hot(cards: str, ruleset: str, category: int) -> None:
    one_hot = made_hand(parse_cards(cards), ruleset)
    assert one_hot.sum() == 1 and one_hot[category] == 1


@pytest.mark.parametrize(
    ("better", "worse"),
    [
        ("3c 3d", "As Ks"),  # a pair beats high cards
        ("Ac 2d", "Kc 9d 7h"),  # hands of different sizes compare card by card
        ("9s 9h 9d", "As Ah Kd Kc"),  # three of a kind beats two pair
        ("Ks Kh", "Jk 5s"),  # a wild card pairs the five: fives lose to kings ...
        ("Jk 5s 5h", "Ks Kh"),  # ... but make three of a kind with a pair
        ("Jk", "Ks"),  # a wild card alone reads as an ace
        ("7s 7h 7d 2c 2d", "7s 7h 7d Ac Kd"),  # full house by groups, no straight or flush
    ],
)
def test_group_keys_order_hands_as_boards_are_read(better: str, worse: str) -> None:
    (first,), _ = group_keys(np.array([parse_cards(better)]))
    (second,), _ = group_keys(np.array([parse_cards(worse)]))
    assert first > second


@pytest.mark.parametrize(
    ("cards", "expected"),
    [
        ("Ah Kh 7h 2h 9c", [0.8, 0.4, 0, 0]),  # four to a flush
        ("9s Th Jd Qc 2h", [0.4, 0.8, 0, 0]),  # four to a straight
        ("5h 6h", [0.4, 0.4, 1, 1]),  # stud: both still open
        ("5h 5d 9h", [0.4, 0.4, 0, 0]),  # a pair closes the straight; two suits close the flush
        ("Jk As", [0.4, 0.4, 1, 1]),  # a wild card fits both
    ],
)
def test_draw_indicators(cards: str, expected: list[float]) -> None:
    assert draw_indicators(parse_cards(cards)).tolist() == pytest.approx(expected)
    assert draw_indicators_batch([parse_cards(cards)]).tolist() == [
        draw_indicators(parse_cards(cards)).tolist()
    ]


def test_draw_indicators_of_a_batch_are_those_of_each_hand() -> None:
    """Hands of 0 to 5 cards, jokers among them, each with its own deuces-wild flag: the
    batch's rows are each hand's own, to the bit."""
    rng = np.random.default_rng(3)
    hands = [rng.permutation(53)[: int(rng.integers(0, 6))].tolist() for _ in range(5000)]
    hands += [parse_cards("2s 2h Jk 5d 6d"), parse_cards("2c 3c 4c 5c"), []]
    wild = [bool(flag) for flag in rng.integers(0, 2, len(hands))]
    expected = np.array([draw_indicators(h, w) for h, w in zip(hands, wild, strict=True)])
    assert np.array_equal(draw_indicators_batch(hands, wild), expected)
    one_flag = np.array([draw_indicators(h, True) for h in hands])
    assert np.array_equal(draw_indicators_batch(hands, True), one_flag)


def test_pot_odds_by_hand() -> None:
    assert pot_odds(2, 6) == 0.25  # call 2 into 6: the call is a quarter of the 8 after it
    assert pot_odds(0, 6) == 0.0


def test_pot_share_splits_ties() -> None:
    mine = np.array([[5, 3, 4, 4]])  # four futures
    theirs = np.array([[4, 1], [3, 2], [4, 4], [1, 2]])  # two opponents
    # win, tie with one (1/2), tie with two (1/3), win
    assert pot_share(mine, theirs)[0].tolist() == pytest.approx([1, 0.5, 1 / 3, 1])


def test_deal_draws_without_replacement() -> None:
    unseen = np.arange(10)
    rows = deal(unseen, 200, 10, np.random.default_rng(0))
    assert (np.sort(rows, axis=1) == unseen).all()


# --- draw poker --------------------------------------------------------------------------------
def draw_observation(hands: list[str], actions: list[int], seat: int = 0) -> np.ndarray:
    """Seat ``seat``'s observation after ``actions`` (player_1 acts first: player_0 deals)."""
    game = DrawPokerGame()
    state = game.new_state(game.pack_for(hands), rng=np.random.default_rng(0))
    for action in actions:
        game.apply(state, game.current_player(state), action)
    return game.observe(state, seat)


def draw_features(observation: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    features = draw_poker.equity_features(observation)
    context = features[: draw_poker.CONTEXT.size]
    rows = features[draw_poker.CONTEXT.size : draw_poker.CONTEXT.size + 35 * 10].reshape(35, 10)
    assert features.shape == (draw_poker.CONTEXT.size + 350,)
    return context, rows


def test_draw_poker_royal_flush_wins_every_future() -> None:
    # player_1 bets 1 into the antes' 2: player_0 is to call 1 into 3
    obs = draw_observation(["Ah Kh Qh Jh Th", "2s 3d 5c 7s 9d"], [RAISE])
    context, rows = draw_features(obs)
    layout = draw_poker.CONTEXT
    assert context[layout["made_hand"]][Category.ROYAL_FLUSH] == 1
    assert context[layout["pot_odds"]][0] == pytest.approx(1 / 4)
    assert context[layout["equity_pat"]][0] == 1.0  # hearts top every other royal flush
    assert context[layout["equity"]][0] == 1.0
    assert context[layout["fair_share"]][0] == 0.5
    assert context[layout["opponents_bets"]].tolist()[:4] == pytest.approx([1 / 3, 0, 0, 0])
    assert rows[:3, :4].tolist() == np.eye(3, 4).tolist()  # fold, check/call, bet/raise
    assert (rows[STAND_PAT:, 3] == 1).all()
    assert rows[STAND_PAT, 4:9].tolist() == [1, 1, 1, 1, 1]  # stand pat: win, a straight+
    assert rows[STAND_PAT + 0b11111, 9] == 1.0  # all five thrown
    assert rows[STAND_PAT + 0b00001, 9] == pytest.approx(0.2)


def test_draw_poker_features_read_the_opponents_draw() -> None:
    # both call; player_1 draws three, then player_0 is to draw
    obs = draw_observation(
        ["8s 8h Kd 5c 2d", "Qs Qd 9c 6h 3s"], [CALL, CALL, discard_action([2, 3, 4])]
    )
    context, rows = draw_features(obs)
    drew = context[draw_poker.CONTEXT["opponents_drew"]]
    assert drew.tolist() == [0, 0, 0, 1, 0, 0, 0]  # drew 3
    # keeping the pair of eights always leaves at least a pair: the hand is listed highest id
    # first (Kd 8h 8s 5c 2d), so throwing K, 5 and 2 sets bits 0, 3 and 4
    keep_eights = STAND_PAT + 0b11001
    assert rows[keep_eights, 5] == 1.0
    assert rows[keep_eights, 4] == pytest.approx(context[draw_poker.CONTEXT["equity"]][0], abs=0.1)


def test_draw_poker_features_are_the_same_in_a_fresh_cache() -> None:
    obs = draw_observation(["8s 8h Kd 5c 2d", "Qs Qd 9c 6h 3s"], [])
    first = draw_poker.equity_features(obs)
    draw_poker._CACHE._entries.clear()
    assert np.array_equal(draw_poker.equity_features(obs), first)


# --- five-card stud ----------------------------------------------------------------------------
def stud_observation(hands: list[str], seat: int, actions: list[int]) -> np.ndarray:
    game = FiveCardStudGame(num_players=len(hands))
    state = game.new_state(pack_order(hands), rng=np.random.default_rng(0))
    for action in actions:
        game.apply(state, game.current_player(state), action)
    return game.observe(state, seat)


def test_stud_features_of_a_hidden_pair_against_a_king() -> None:
    # player_0: As down, Ah up; player_1: 7c down, Kd up. The ace opens with a bet of 1.
    obs = stud_observation(["As Ah", "7c Kd"], 1, [RAISE])
    features = five_card_stud.equity_features(obs)
    layout = five_card_stud.FEATURES
    assert features.shape == (layout.size,)
    assert features[layout["pot_odds"]][0] == pytest.approx(1 / 4)  # call 1 into 3
    assert features[layout["made_hand"]][Category.NOTHING] == 1
    assert features[layout["their_board"]][Category.NOTHING] == 1
    assert features[layout["their_high"]][0] == 1.0  # an ace up
    assert features[layout["own_high"]][0] == pytest.approx(11 / 12)
    assert features[layout["beaten"]][0] == 1  # A beats K-7
    assert features[layout["board_leads"]][0] == 0
    assert features[layout["opponents_bets"]].tolist() == pytest.approx([1 / 3, 0, 0, 0])
    assert 0.1 < features[layout["equity"]][0] < 0.4  # K-7 against an ace and a hidden card
    assert features[layout["ahead_now"]][0] == 0  # any ace-x beats K-7 now
    assert features[layout["board_beats"]][0] == 0
    # the hidden card pairs the ace with 3 of the 49 cards player_1 has not seen
    assert features[layout["their_made"]][0] == pytest.approx(3 / 49, abs=0.03)
    own = five_card_stud.equity_features(stud_observation(["As Ah", "7c Kd"], 0, []))
    assert own[layout["made_hand"]][Category.PAIR] == 1
    assert own[layout["equity"]][0] > 0.7
    assert own[layout["ahead_now"]][0] == 1  # aces beat K-x, even kings
    assert own[layout["board_beats"]][0] == pytest.approx(46 / 49, abs=0.03)  # unless K-K
    assert own[layout["bet_odds"]][0] == pytest.approx(1 / 3)  # bet 1 into the antes' 2


def test_stud_features_are_zero_once_folded() -> None:
    obs = stud_observation(["As Ah", "7c Kd"], 1, [RAISE, 0])  # player_1 folds
    features = five_card_stud.equity_features(obs)
    assert not features[: five_card_stud.FEATURES.size].any()


def test_features_of_a_finished_game_observation_are_zero() -> None:
    # PettingZoo gives a finished seat an all-zero observation (no seats, no cards)
    stud = five_card_stud.equity_features(np.zeros(852, dtype=np.float32))
    assert not stud.any()
    context, rows = draw_features(np.zeros(312, dtype=np.float32))
    assert not context.any() and not rows[:, 4:].any()


@pytest.mark.parametrize("deuces_wild", [False, True])
@pytest.mark.parametrize("size", [1, 2, 3, 4, 5])
def test_group_keys_table_is_the_groups_worked_out_for_every_hand(
    size: int, deuces_wild: bool
) -> None:
    """Exhaustive over ranks: every tuple of ``size`` ranks and the joker, in every order, on
    random suits, the table lookup gives what the column algorithm works out."""
    from pokerzoo.envs.core.cards import JOKER
    from pokerzoo.training.poker.features import _group_keys_by_columns

    ranks = np.indices((14,) * size).reshape(size, -1).T
    suits = np.random.default_rng(size).integers(0, 4, ranks.shape)
    hands = np.where(ranks == 13, JOKER, ranks * 4 + suits)
    keys, groups = group_keys(hands, deuces_wild)
    want_keys, want_groups = _group_keys_by_columns(hands, deuces_wild)
    assert keys.dtype == groups.dtype == np.int64
    assert np.array_equal(keys, want_keys) and np.array_equal(groups, want_groups)
    odd = hands[:50].copy()
    odd[:, 0] = -1  # not a card id: worked out as before, no table entry read for it
    got, want = group_keys(odd, deuces_wild), _group_keys_by_columns(odd, deuces_wild)
    assert np.array_equal(got[0], want[0]) and np.array_equal(got[1], want[1])
