"""Helpers shared by the draw poker tests: scripted play and state snapshots."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pytest
from pokerzoo.envs.core.game import Payout
from pokerzoo.envs.draw_poker import DrawPokerGame, DrawPokerState

Steps = Sequence[tuple[int, int]]


def _play(game: DrawPokerGame, state: DrawPokerState, steps: Steps) -> list[Payout]:
    """Play ``(seat, action)`` pairs, checking each named seat is the one to act; the payouts."""
    payouts = []
    for seat, action in steps:
        assert game.current_player(state) == seat, (
            f"expected player_{seat} to act before {game.describe_action(action)}, got "
            f"player_{game.current_player(state)}\n{game.render(state)}"
        )
        payout = game.apply(state, seat, action)
        if payout is not None:
            payouts.append(payout)
    return payouts


def _snapshot(game: DrawPokerGame, state: DrawPokerState) -> tuple[Any, ...]:
    """Everything a state holds, comparable with ``==`` (the generator by its bit state)."""
    fields = {k: v for k, v in vars(state).items() if k != "rng"}
    rng = None if state.rng is None else state.rng.bit_generator.state
    observations = tuple(
        tuple(game.observe(state, seat).tolist()) for seat in range(game.num_players)
    )
    masks = tuple(tuple(game.legal_mask(state, seat).tolist()) for seat in range(game.num_players))
    return repr(fields), rng, observations, masks, game.render(state)


@pytest.fixture
def play() -> Callable[[DrawPokerGame, DrawPokerState, Steps], list[Payout]]:
    return _play


@pytest.fixture
def snapshot() -> Callable[[DrawPokerGame, DrawPokerState], tuple[Any, ...]]:
    return _snapshot


@pytest.fixture
def rng() -> np.random.Generator:
    return np.random.default_rng(0)
