"""The first dealer of poker without a name (RULES §4, seed 003: "Первый сдатчик карт
определяется жребием"): drawn by lot from the episode's generator, fixed by ``dealer`` (engine)
/ the reset option ``"dealer"`` (PettingZoo and Gymnasium envs); a fixed pack alone is dealt by
``player_0``; a bad ``dealer`` is refused and changes nothing. (The rotation from each first
dealer is in ``test_rules.py``.)"""

from __future__ import annotations

import warnings

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
    game = NamelessPokerGame()
    cards = game.deal(np.random.default_rng(1))
    dealers = {game.new_state(cards, rng=np.random.default_rng(s)).dealer for s in range(20)}
    assert dealers == {0}
    assert game.new_state().dealer == 0  # no generator: nothing is drawn


# --- the lot -----------------------------------------------------------------------------------
def test_every_seat_deals_first_sometimes_and_a_seed_replays_the_lot() -> None:
    game = NamelessPokerGame()
    dealers = [game.new_state(rng=np.random.default_rng(seed)).dealer for seed in range(100)]
    assert set(dealers) == {0, 1, 2, 3}
    again = [game.new_state(rng=np.random.default_rng(seed)).dealer for seed in range(100)]
    assert again == dealers


@pytest.mark.parametrize("seed", range(8))
def test_the_lot_comes_after_the_shuffle_the_same_cards_only_the_dealer_changes(
    seed: int,
) -> None:
    game = NamelessPokerGame(deals=[8])
    drawn = game.new_state(rng=np.random.default_rng(seed))
    dealer = drawn.dealer
    fixed = game.new_state(rng=np.random.default_rng(seed), dealer=0)
    # the same pack dealt from another seat's left: seat s gets what seat s - dealer got
    assert drawn.hands == [fixed.hands[(s - dealer) % 4] for s in range(4)]
    assert drawn.turned == fixed.turned


# --- bad dealers -------------------------------------------------------------------------------
BAD_DEALERS = cases(FILE, "bad_dealer")


@pytest.mark.parametrize(("dealer", "message"), BAD_DEALERS)
def test_a_bad_dealer_is_named(dealer: object, message: str) -> None:
    rng = np.random.default_rng(3)
    before = rng.bit_generator.state
    with pytest.raises(ValueError, match=message):
        NamelessPokerGame().new_state(rng=rng, dealer=dealer)  # type: ignore[arg-type]
    assert rng.bit_generator.state == before  # checked before anything is drawn


# --- the envs ----------------------------------------------------------------------------------
def test_the_aec_env_takes_the_dealer_reset_option() -> None:
    env = nameless_env(deals=[5])
    for dealer in range(4):
        env.reset(seed=9, options={"dealer": dealer})
        assert env.unwrapped.game_state.dealer == dealer
        assert env.agent_selection == f"player_{(dealer + 1) % 4}"
        view = decode_observation(env.observe("player_2")["observation"])
        assert view.dealer == (dealer - 2) % 4


def test_the_aec_env_draws_the_lot_and_replays_it_under_a_seed() -> None:
    env = nameless_env(deals=[1])

    def lots() -> list[int]:
        dealers = []
        for seed in range(60):
            env.reset(seed=seed)
            dealers.append(env.unwrapped.game_state.dealer)
        return dealers

    first = lots()
    assert set(first) == {0, 1, 2, 3} and lots() == first


def test_the_aec_env_deals_a_fixed_pack_from_player_0_unless_told() -> None:
    env = nameless_env(deals=[2])
    cards = pack_order(["As Ks", "Ah Kh", "Ad Kd", "Ac Kc"], "2s")
    for seed in range(10):
        env.reset(seed=seed, options={"cards": cards})
        assert env.unwrapped.game_state.dealer == 0
    env.reset(seed=0, options={"cards": pack_order(["As Ks", "Ah Kh", "Ad Kd", "Ac Kc"], "2s",
                                                   dealer=3), "dealer": 3})  # fmt: skip
    state = env.unwrapped.game_state
    assert state.dealer == 3 and env.agent_selection == "player_0"
    assert state.hands[0] == sorted(parse_cards("As Ks"))


def test_the_gymnasium_env_passes_the_dealer_on() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env = NamelessPokerEnv(opponent="random", seat=0, deals=[4])
    for dealer in range(4):
        observation, _ = env.reset(seed=2, options={"dealer": dealer})
        assert env.game_state.dealer == dealer
        assert decode_observation(observation).dealer == dealer  # the learner is player_0
    with pytest.raises(ValueError, match="bad dealer 4: expected an int in 0..3"):
        env.reset(seed=2, options={"dealer": 4})
    assert env.game_state.dealer == 3
