"""The protocol every bot follows, so one bot serves every API of its game.

The envs name bots only through this protocol: a single-seat env (:mod:`.single_seat`) plays
any :class:`Bot` at the other seats, and finds a game's own bots by name through the game's
registry entry (:attr:`~.registry.GameSpec.bots`, imported when an env needs them). The
baseline bots live in :mod:`pokerzoo.agents` (``pokerzoo.agents.<game>.BOTS``), which
re-exports these names from :mod:`pokerzoo.agents.base`.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

import numpy as np

__all__ = ["Bot", "RandomBot", "masked_random_choice"]


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


class RandomBot:
    """A uniformly random legal action: every game's ``"random"`` bot.

    Takes any env options (and ignores them), like every bot, so
    ``BOTS["random"](seed=s, **env_options)`` builds it.
    """

    name = "random"

    def __init__(self, *, seed: int | None = None, **env_options: Any) -> None:
        self.reset(seed)

    def reset(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        return masked_random_choice(self.rng, action_mask)
