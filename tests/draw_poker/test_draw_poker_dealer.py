"""The first dealer of draw poker (RULES §2, seed 001: "Первый сдатчик определяется по жребию"):
drawn by lot from the episode's generator, fixed by ``dealer`` (engine) / the reset option
``"dealer"`` (PettingZoo and Gymnasium envs); a fixed pack alone is dealt by ``player_0``; a bad
``dealer`` is refused and changes nothing."""

from __future__ import annotations

import numpy as np
import pytest
from pokerzoo.envs.core.cards import parse_cards
from pokerzoo.envs.draw_poker import (
    CALL,
    FOLD,
    RAISE,
    STAND_PAT,
    DrawPokerGame,
    decode_observation,
)
from pokerzoo.envs.draw_poker.env import DrawPokerEnv
from pokerzoo.envs.draw_poker_v0 import env as draw_env

from tests import dealer_checks as dealing
from tests.helpers import cases

FILE = "draw_rules.yaml"  # the case tables, in tests/data


# --- a fixed dealer on a fixed pack ------------------------------------------------------------
@pytest.mark.parametrize(
    ("options", "dealer", "hands", "opener", "draw_order"), cases(FILE, "first_dealer")
)
def test_dealer_fixes_the_first_dealer(
    play, options: dict, dealer: int, hands: list[str], opener: int, draw_order: list[int]
) -> None:
    game = DrawPokerGame(**options)
    n = game.num_players
    state = game.new_state(
        game.pack_for(hands, "Ac", dealer=dealer), rng=np.random.default_rng(0), dealer=dealer
    )
    assert state.dealer == dealer
    assert state.hands == [sorted(parse_cards(h), reverse=True) for h in hands]
    assert state.stock[0] == parse_cards("Ac")[0]
    assert game.current_player(state) == opener == (dealer + 1) % n
    assert f"player_{dealer} deals" in game.render(state).splitlines()[0]
    for seat in range(n):  # the observation shows the dealer relative to the observer
        assert decode_observation(game.observe(state, seat)).dealer == (dealer - seat) % n
    play(game, state, [((opener + i) % n, CALL) for i in range(n)])
    assert state.draw_queue == draw_order
    play(game, state, [(seat, STAND_PAT) for seat in draw_order])
    (payout,) = play(game, state, [((opener + i) % n, CALL) for i in range(n)])
    assert state.last_hand["dealer"] == dealer and state.last_hand["showdown"] is True


def test_pack_for_deals_from_the_dealers_left() -> None:
    game = DrawPokerGame(num_players=3)
    hands = ["As Ah Ad 7c 2s", "Ks Kh Kd 7d 3c", "Qs Qh 8d 8c 3d"]
    # player_1 deals: player_2 gets the first card, then player_0, player_1 the last
    assert game.pack_for(hands, dealer=1)[:3] == parse_cards("Qs As Ks")
    with pytest.raises(ValueError, match="bad dealer 3: expected an int in 0..2"):
        game.pack_for(hands, dealer=3)


def test_a_fixed_pack_or_no_generator_is_dealt_by_player_0() -> None:
    dealing.check_a_fixed_pack_or_no_generator_is_dealt_by_player_0(DrawPokerGame(num_players=4))


@pytest.mark.parametrize(("dealer", "dealers"), [(0, [0, 1, 2]), (1, [1, 2, 0]), (2, [2, 0, 1])])
def test_the_deal_passes_left_from_the_first_dealer(play, dealer: int, dealers: list[int]) -> None:
    game = DrawPokerGame(num_players=3, hands=3)
    state = game.new_state(rng=np.random.default_rng(4), dealer=dealer)
    seen = []
    while not game.is_terminal(state):
        seen.append(state.dealer)
        opener = game.current_player(state)
        assert opener == (state.dealer + 1) % 3
        (payout,) = play(game, state, [(opener, RAISE), ((opener + 1) % 3, FOLD),
                                       ((opener + 2) % 3, FOLD)])  # fmt: skip
        assert state.last_hand["dealer"] == seen[-1]
    assert seen == dealers


def test_the_deal_passes_over_a_seat_with_no_chips_from_any_first_dealer(play) -> None:
    game = DrawPokerGame(num_players=3, stack=(5, 0, 5), hands=2)
    state = game.new_state(rng=np.random.default_rng(4), dealer=2)
    assert state.betting.dealt == [True, False, True] and game.current_player(state) == 0
    play(game, state, [(0, RAISE), (2, FOLD)])
    assert state.dealer == 0 and game.current_player(state) == 2  # player_1 is skipped


# --- the lot -----------------------------------------------------------------------------------
@pytest.mark.parametrize("num_players", [2, 3, 6, 10])
def test_every_seat_deals_first_sometimes_and_a_seed_replays_the_lot(num_players: int) -> None:
    dealing.check_every_seat_deals_first_sometimes(DrawPokerGame(num_players=num_players), 300)


@pytest.mark.parametrize("seed", range(8))
def test_the_lot_comes_after_the_shuffle_the_same_cards_only_the_dealer_changes(
    seed: int,
) -> None:
    drawn, fixed = dealing.lot_after_the_shuffle(DrawPokerGame(num_players=3), seed)
    assert drawn.stock == fixed.stock


def test_the_lot_is_drawn_among_the_seats_with_chips() -> None:
    game = DrawPokerGame(num_players=3, stack=(0, 5, 5))
    dealers = {game.new_state(rng=np.random.default_rng(seed)).dealer for seed in range(100)}
    assert dealers == {1, 2}


# --- bad dealers -------------------------------------------------------------------------------
BAD_DEALERS = cases(FILE, "bad_dealer")


@pytest.mark.parametrize(("options", "dealer", "message"), BAD_DEALERS)
def test_a_bad_dealer_is_named(options: dict, dealer: object, message: str) -> None:
    dealing.check_a_bad_dealer_is_named(DrawPokerGame(**options), dealer, message)


# --- the envs ----------------------------------------------------------------------------------
def test_the_aec_env_takes_the_dealer_reset_option() -> None:
    dealing.check_the_aec_env_takes_the_dealer_reset_option(
        draw_env(num_players=4), decode_observation
    )


def test_the_aec_env_deals_a_fixed_pack_from_player_0_unless_told() -> None:
    env = draw_env(num_players=3)
    cards = env.unwrapped.game.deal(np.random.default_rng(5))
    dealing.check_the_aec_env_deals_a_fixed_pack_from_player_0(env, cards)
    env.reset(seed=0, options={"cards": cards, "dealer": 2})
    assert env.unwrapped.game_state.dealer == 2 and env.agent_selection == "player_0"


def test_the_aec_env_draws_the_lot_and_replays_it_under_a_seed() -> None:
    dealing.check_the_aec_env_draws_the_lot_and_replays_it(draw_env(num_players=4))


def test_the_gymnasium_env_passes_the_dealer_on() -> None:
    dealing.check_the_gymnasium_env_passes_the_dealer_on(
        lambda: DrawPokerEnv(opponent="caller", seat=0, num_players=3), 3, decode_observation
    )
