"""The protocol every baseline bot follows, so one bot serves every API of its game."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

import numpy as np

__all__ = ["Bot", "masked_random_choice"]


@runtime_checkable
class Bot(Protocol):
    """A policy that maps (observation, action mask) to an action.

    A bot owns a ``numpy.random.Generator``; ``reset(seed)`` re-seeds it so an episode with a
    seeded env and a seeded bot replays exactly. ``observation`` is exactly what the game's env
    returns for the bot's seat (for PettingZoo envs, the ``"observation"`` entry).
    """

    name: str

    def reset(self, seed: int | None = None) -> None: ...

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int: ...


def masked_random_choice(rng: np.random.Generator, action_mask: np.ndarray) -> int:
    """A uniformly random legal action."""
    legal = np.flatnonzero(action_mask)
    if legal.size == 0:
        raise ValueError("no legal action: the action mask is all zeros")
    return int(legal[rng.integers(legal.size)])
