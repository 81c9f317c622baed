"""What the package's vector envs check alike: the autoreset mode, a reset's mask and seeds.

Both vector envs (Poker Squares' own, :mod:`pokerzoo.envs.poker_squares.vector`, and the bot
tables of :mod:`.seat_vector`) follow Gymnasium 1.x: an ``autoreset_mode`` chosen at
construction, ``reset(options={"reset_mask": mask})`` to deal some sub-envs again, and a seed
that is one int (sub-env ``i`` gets ``seed + i``) or one per sub-env. A bad value raises
``ValueError`` naming it and what was expected, before anything changes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium.vector import AutoresetMode

__all__ = ["VECTOR_METADATA", "check_autoreset_mode", "reset_rows", "vector_seeds"]

VECTOR_METADATA: dict[str, Any] = {
    "render_modes": ["ansi", "human"],
    "render_fps": 4,
    "autoreset_mode": AutoresetMode.NEXT_STEP,
}
"""The vector envs' class ``metadata`` (an instance's ``autoreset_mode`` is the one it was made
with)."""


def check_autoreset_mode(value: object) -> AutoresetMode:
    """``value`` (``"NextStep"``, ``"SameStep"``, ``"Disabled"`` or the enum) as the enum."""
    try:
        return AutoresetMode(value)
    except ValueError:
        modes = ", ".join(repr(m.value) for m in AutoresetMode)
        raise ValueError(f"bad autoreset_mode {value!r}: expected one of {modes}") from None


def reset_rows(reset_mask: object, num_envs: int, dealt: bool, what: str) -> np.ndarray:
    """The sub-envs a reset deals: every one (``reset_mask`` ``None``), else those of the
    ``bool`` mask of shape ``(num_envs,)``; a first reset (not ``dealt`` yet) must deal every
    ``what`` (``"game"``, ``"table"``)."""
    if reset_mask is None:
        return np.arange(num_envs)
    mask = np.asarray(reset_mask)
    if mask.shape != (num_envs,) or mask.dtype != np.bool_:
        raise ValueError(
            f"bad reset_mask {reset_mask!r}: expected a bool array of shape ({num_envs},)"
        )
    rows = np.flatnonzero(mask)
    if not dealt and len(rows) < num_envs:
        raise ValueError(f"bad reset_mask: the first reset must deal every {what}")
    return rows


def vector_seeds(seed: int | Sequence[int | None] | None, num_envs: int) -> list[int | None]:
    """One seed (or ``None``) per sub-env: ``seed + i`` for one int, the list as given."""
    if seed is None:
        return [None] * num_envs
    if isinstance(seed, (int, np.integer)) and not isinstance(seed, bool):
        seeds: list[object] = [int(seed) + i for i in range(num_envs)]
    elif isinstance(seed, (list, tuple, np.ndarray)) and len(seed) == num_envs:
        seeds = list(seed)
    else:
        raise ValueError(f"bad seed {seed!r}: expected None, an int or a list of {num_envs} seeds")
    for s in seeds:
        if s is not None and (isinstance(s, bool) or not isinstance(s, (int, np.integer)) or s < 0):
            raise ValueError(f"bad seed {s!r}: expected None or an int >= 0")
    return [None if s is None else int(s) for s in seeds]  # type: ignore[call-overload]
