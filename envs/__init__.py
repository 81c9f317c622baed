"""pokerzoo environments.

Importing this package registers every Gymnasium id under the ``pokerzoo/`` namespace, so
``gymnasium.make("pokerzoo.envs:pokerzoo/PokerSquares-v0")`` works in a fresh interpreter.
PettingZoo envs are versioned modules: ``pokerzoo.envs.<game>_v0`` with ``env()``, ``raw_env``
and ``parallel_env()``.
"""

from __future__ import annotations

from gymnasium.envs.registration import register, registry

__all__ = ["register_envs"]


def register_envs() -> None:
    """Register the Gymnasium ids (idempotent)."""
    specs = {
        "pokerzoo/PokerSquares-v0": dict(
            entry_point="pokerzoo.envs.poker_squares_env:PokerSquaresEnv",
            vector_entry_point="pokerzoo.envs.poker_squares_vector:PokerSquaresVectorEnv",
        ),
        "pokerzoo/Quintet-v0": dict(entry_point="pokerzoo.envs.quintet_env:QuintetEnv"),
    }
    for env_id, kwargs in specs.items():
        if env_id not in registry:
            register(id=env_id, **kwargs)


register_envs()
