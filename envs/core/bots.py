"""The protocol every bot follows, so one bot serves every API of its game.

The envs name bots only through this protocol: a single-seat env (:mod:`.single_seat`) plays
any :class:`Bot` at the other seats, and finds a game's own bots by name through the game's
registry entry (:attr:`~.registry.GameSpec.bots`, imported when an env needs them). The
baseline bots live in :mod:`pokerzoo.agents` (``pokerzoo.agents.<game>.BOTS``), which
re-exports these names from :mod:`pokerzoo.agents.base`.

Batches
-------
Where many tables are played together (the vector envs of :mod:`.seat_vector`, evaluation),
:func:`act_batch` asks many bots at once, one row each. A bot class may define a classmethod
``act_batch(bots, observations, action_masks) -> actions`` for rows that are all its own
instances: it must decide exactly as each ``bot.act(row)`` would, each bot drawing from its own
generator in the order it would alone, so that a table plays the same game batched or not (a
Monte-Carlo bot draws its samples per bot and evaluates them all in one call). Other classes
are asked row by row.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

import numpy as np

__all__ = ["Bot", "RandomBot", "act_batch", "masked_random_choice"]


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


def act_batch(
    bots: Sequence[Bot], observations: np.ndarray, action_masks: np.ndarray
) -> np.ndarray:
    """``bots[i]``'s action for row ``i`` of ``observations`` and ``action_masks`` (``int64``):
    the rows of each bot class with an ``act_batch`` classmethod in one call (in row order),
    the others one by one; the same actions as ``bots[i].act`` row by row (module docstring).

    >>> bots = [RandomBot(seed=1), RandomBot(seed=2)]
    >>> masks = np.array([[0, 1, 1], [1, 0, 0]], dtype=np.int8)
    >>> act_batch(bots, np.zeros((2, 4)), masks).tolist()
    [1, 0]
    """
    if len(bots) != len(observations) or len(bots) != len(action_masks):
        raise ValueError(
            f"{len(bots)} bots for {len(observations)} observations and {len(action_masks)} "
            "masks: expected one row per bot"
        )
    actions = np.empty(len(bots), dtype=np.int64)
    groups: dict[type, list[int]] = {}
    for row, bot in enumerate(bots):
        groups.setdefault(type(bot), []).append(row)
    for kind, rows in groups.items():
        batched = getattr(kind, "act_batch", None)
        if batched is not None and len(rows) > 1:
            actions[rows] = batched([bots[r] for r in rows], observations[rows], action_masks[rows])
        else:
            for r in rows:
                actions[r] = bots[r].act(observations[r], action_masks[r])
    return actions
