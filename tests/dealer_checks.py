"""Checks of the first dealer shared by the games whose first dealer is drawn by lot (draw poker,
poker without a name): the lot, a fixed pack dealt by ``player_0``, a bad ``dealer`` refused, and
the reset option ``"dealer"`` of the AEC and Gymnasium envs. Each game's test names only its own
table, pack and messages."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest


def check_a_fixed_pack_or_no_generator_is_dealt_by_player_0(game: Any) -> None:
    """A fixed pack (whatever the generator) and a new state with no generator are dealt by
    ``player_0``."""
    cards = game.deal(np.random.default_rng(1))
    dealers = {game.new_state(cards, rng=np.random.default_rng(s)).dealer for s in range(20)}
    assert dealers == {0}
    assert game.new_state().dealer == 0  # no generator: nothing is drawn


def check_every_seat_deals_first_sometimes(game: Any, seeds: int) -> None:
    """Over ``seeds`` seeds every seat of ``game`` is drawn first dealer, and the same seeds
    draw the same dealers again."""
    dealers = [game.new_state(rng=np.random.default_rng(seed)).dealer for seed in range(seeds)]
    assert set(dealers) == set(range(game.num_players))
    again = [game.new_state(rng=np.random.default_rng(seed)).dealer for seed in range(seeds)]
    assert again == dealers


def lot_after_the_shuffle(game: Any, seed: int) -> tuple[Any, Any]:
    """The state ``seed`` draws, and the one it deals with ``player_0`` fixed as dealer: the
    same pack dealt from another seat's left, seat ``s`` given what seat ``s - dealer`` got
    (checked here; the rest of the pack is the caller's to compare)."""
    drawn = game.new_state(rng=np.random.default_rng(seed))
    fixed = game.new_state(rng=np.random.default_rng(seed), dealer=0)
    n = game.num_players
    assert drawn.hands == [fixed.hands[(s - drawn.dealer) % n] for s in range(n)]
    return drawn, fixed


def check_a_bad_dealer_is_named(game: Any, dealer: object, message: str) -> None:
    """``game.new_state`` refuses ``dealer`` with ``message`` before it draws anything."""
    rng = np.random.default_rng(3)
    before = rng.bit_generator.state
    with pytest.raises(ValueError, match=message):
        game.new_state(rng=rng, dealer=dealer)
    assert rng.bit_generator.state == before  # checked before anything is drawn


def check_the_aec_env_takes_the_dealer_reset_option(
    env: Any, decode_observation: Callable[[np.ndarray], Any]
) -> None:
    """Each seat of an AEC env (three seats or more) deals when the reset option names it: the
    seat on its left acts first, and ``player_2`` sees the dealer relative to itself."""
    n = len(env.possible_agents)
    for dealer in range(n):
        env.reset(seed=9, options={"dealer": dealer})
        assert env.unwrapped.game_state.dealer == dealer
        assert env.agent_selection == f"player_{(dealer + 1) % n}"
        view = decode_observation(env.observe("player_2")["observation"])
        assert view.dealer == (dealer - 2) % n


def check_the_aec_env_draws_the_lot_and_replays_it(env: Any) -> None:
    """Sixty seeds of an AEC env draw every seat as dealer, and the same dealers again."""

    def lots() -> list[int]:
        dealers = []
        for seed in range(60):
            env.reset(seed=seed)
            dealers.append(env.unwrapped.game_state.dealer)
        return dealers

    first = lots()
    assert set(first) == set(range(len(env.possible_agents))) and lots() == first


def check_the_aec_env_deals_a_fixed_pack_from_player_0(env: Any, cards: list[int]) -> None:
    """Under any seed, a reset with the fixed pack ``cards`` and no ``dealer`` has ``player_0``
    deal."""
    for seed in range(10):
        env.reset(seed=seed, options={"cards": cards})
        assert env.unwrapped.game_state.dealer == 0


def check_the_gymnasium_env_passes_the_dealer_on(
    make: Callable[[], Any], n: int, decode_observation: Callable[[np.ndarray], Any]
) -> None:
    """A Gymnasium env of ``n`` seats (``make()``, the learner ``player_0``) deals from each
    seat the reset option names, and refuses a seat past the table, keeping the last dealer."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env = make()
    for dealer in range(n):
        observation, _ = env.reset(seed=2, options={"dealer": dealer})
        assert env.game_state.dealer == dealer
        assert decode_observation(observation).dealer == dealer  # the learner is player_0
    with pytest.raises(ValueError, match=f"bad dealer {n}: expected an int in 0..{n - 1}"):
        env.reset(seed=2, options={"dealer": n})
    assert env.game_state.dealer == n - 1
