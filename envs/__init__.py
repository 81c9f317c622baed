"""pokerzoo environments.

Importing this package registers every game of the registry (:mod:`.core.registry`) and its
Gymnasium ids under the ``pokerzoo/`` namespace, so
``gymnasium.make("pokerzoo.envs:pokerzoo/PokerSquares-v0")`` works in a fresh interpreter.
PettingZoo envs are versioned modules: ``pokerzoo.envs.<game>_v0`` with ``env()``, ``raw_env``
and, for simultaneous games, ``parallel_env()``. Each game lives in its own package
``pokerzoo.envs.<game>`` (rules engine, observation, render, envs, registry entry).
"""

from __future__ import annotations

from .core.registry import discover

__all__ = ["register_envs"]


def register_envs() -> None:
    """Register every game found in the package and its Gymnasium ids (idempotent)."""
    discover()


register_envs()
