"""The parameters every ecosystem test runs over, read from the game registry (a new game is
covered without a list here naming it), and the little each test shares."""

from __future__ import annotations

from typing import Any

import numpy as np
import pokerzoo.envs  # noqa: F401  (registers the Gymnasium and PettingZoo ids)
import pytest
from pokerzoo.envs.core.registry import GameSpec, games, pettingzoo_id

AEC = [pytest.param(spec, id=spec.name) for spec in games().values() if spec.aec is not None]
"""Every game with PettingZoo envs (its AEC env)."""

PARALLEL = [param for param in AEC if param.values[0].parallel is not None]
"""Every game with a parallel PettingZoo env."""

GYM_IDS = [
    pytest.param(spec, gym_id.id, id=gym_id.id)
    for spec in games().values()
    for gym_id in spec.gym_ids
]
"""Every Gymnasium id of every game."""


def pz_id(spec: GameSpec) -> str:
    """The game's id in PettingZoo's registry (``pettingzoo.make("aec", ...)``)."""
    found = pettingzoo_id(spec)
    assert found is not None, f"{spec.name} has PettingZoo envs but no PettingZoo id"
    return found


def random_legal(mask: Any, rng: np.random.Generator) -> int:
    """A uniformly random legal action of a mask (any array-like of 0/1 or bools)."""
    legal = np.flatnonzero(np.asarray(mask))
    assert legal.size, "an agent is to act with no legal action"
    return int(rng.choice(legal))
