"""The first dealer of poker without a name (RULES §4, seed 003: "Первый сдатчик карт
определяется жребием"): drawn by lot from the episode's generator, fixed by ``dealer`` (engine)
/ the reset option ``"dealer"`` (PettingZoo and Gymnasium envs); a fixed pack alone is dealt by
``player_0``; a bad ``dealer`` is refused and changes nothing. (The rotation from each first
dealer is in ``test_rules.py``.)"""

from __future__ import annotations

import numpy as np
import pytest
from pokerzoo.envs.core.cards import parse_card, parse_cards
from pokerzoo.envs.nameless_poker import (
    ACTIONS,
    BID,
    NamelessPokerGame,
    decode_observation,
    pack_order,
)
from pokerzoo.envs.nameless_poker.env import NamelessPokerEnv
from pokerzoo.envs.nameless_poker_v0 import env as nameless_env

from tests import dealer_checks as dealing
from tests.helpers import cases

FILE = "nameless_rules.yaml"  # the case tables, in tests/data


# --- a fixed dealer on a fixed pack ------------------------------------------------------------
@pytest.mark.parametrize(("dealer", "hands", "turned", "order"), cases(FILE, "first_dealer"))
def test_dealer_fixes_the_first_dealer(
    dealer: int, hands: list[str], turned: str, order: list[int]
) -> None:
    game = NamelessPokerGame(deals=[2, 3], dealer_restriction=True)
    cards = pack_order(hands, turned, dealer=dealer)
    state = game.new_state(cards, rng=np.random.default_rng(0), dealer=dealer)
    assert state.dealer == dealer
    assert state.hands == [sorted(parse_cards(h)) for h in hands]
    assert state.turned == parse_card(turned)
    for seat in range(4):  # the observation shows the dealer relative to the observer
        assert decode_observation(game.observe(state, seat)).dealer == (dealer - seat) % 4
    bidders = []
    for _ in range(4):
        seat = game.current_player(state)
        bidders.append(seat)
        legal = {ACTIONS[a] for a in np.flatnonzero(game.legal_mask(state, seat))}
        # the dealer bids last, and may not make the bids add up to the hand size (2)
        assert legal == ({"bid 0", "bid 1"} if seat == dealer else {"bid 0", "bid 1", "bid 2"})
        game.apply(state, seat, BID)
    assert bidders == order and order[-1] == dealer
    assert game.current_player(state) == state.leader == (dealer + 1) % 4
    chooser = np.random.default_rng(1)
    while state.deal_index == 0:
        seat = game.current_player(state)
        game.apply(state, seat, int(chooser.choice(np.flatnonzero(game.legal_mask(state, seat)))))
    assert state.deal == 3 and state.dealer == (dealer + 1) % 4  # the deal passes left
    assert game.current_player(state) == (dealer + 2) % 4


def test_pack_order_deals_from_the_dealers_left() -> None:
    hands = ["As", "Kd", "Qh", "Jc"]
    assert pack_order(hands, "2s", dealer=3) == parse_cards("As Kd Qh Jc 2s")
    with pytest.raises(ValueError, match="bad dealer 4: expected an int in 0..3"):
        pack_order(hands, "2s", dealer=4)


def test_a_fixed_pack_or_no_generator_is_dealt_by_player_0() -> None:
    dealing.check_a_fixed_pack_or_no_generator_is_dealt_by_player_0(NamelessPokerGame())


# --- the lot -----------------------------------------------------------------------------------
def test_every_seat_deals_first_sometimes_and_a_seed_replays_the_lot() -> None:
    dealing.check_every_seat_deals_first_sometimes(NamelessPokerGame(), 100)


@pytest.mark.parametrize("seed", range(8))
def test_the_lot_comes_after_the_shuffle_the_same_cards_only_the_dealer_changes(
    seed: int,
) -> None:
    drawn, fixed = dealing.lot_after_the_shuffle(NamelessPokerGame(deals=[8]), seed)
    assert drawn.turned == fixed.turned


# --- bad dealers -------------------------------------------------------------------------------
BAD_DEALERS = cases(FILE, "bad_dealer")


@pytest.mark.parametrize(("dealer", "message"), BAD_DEALERS)
def test_a_bad_dealer_is_named(dealer: object, message: str) -> None:
    dealing.check_a_bad_dealer_is_named(NamelessPokerGame(), dealer, message)


# --- the envs ----------------------------------------------------------------------------------
def test_the_aec_env_takes_the_dealer_reset_option() -> None:
    dealing.check_the_aec_env_takes_the_dealer_reset_option(
        nameless_env(deals=[5]), decode_observation
    )


def test_the_aec_env_draws_the_lot_and_replays_it_under_a_seed() -> None:
    dealing.check_the_aec_env_draws_the_lot_and_replays_it(nameless_env(deals=[1]))


def test_the_aec_env_deals_a_fixed_pack_from_player_0_unless_told() -> None:
    env = nameless_env(deals=[2])
    dealing.check_the_aec_env_deals_a_fixed_pack_from_player_0(
        env, pack_order(["As Ks", "Ah Kh", "Ad Kd", "Ac Kc"], "2s")
    )
    env.reset(seed=0, options={"cards": pack_order(["As Ks", "Ah Kh", "Ad Kd", "Ac Kc"], "2s",
                                                   dealer=3), "dealer": 3})  # fmt: skip
    state = env.unwrapped.game_state
    assert state.dealer == 3 and env.agent_selection == "player_0"
    assert state.hands[0] == sorted(parse_cards("As Ks"))


def test_the_gymnasium_env_passes_the_dealer_on() -> None:
    dealing.check_the_gymnasium_env_passes_the_dealer_on(
        lambda: NamelessPokerEnv(opponent="random", seat=0, deals=[4]), 4, decode_observation
    )
