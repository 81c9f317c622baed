"""pokerzoo environments.

Importing this package registers every game of the registry (:mod:`.core.registry`) and its
Gymnasium ids under the ``pokerzoo/`` namespace, so
``gymnasium.make("pokerzoo.envs:pokerzoo/PokerSquares-v0")`` works in a fresh interpreter.
PettingZoo envs are versioned modules: ``pokerzoo.envs.<game>_v0`` with ``env()``, ``raw_env``
and, for simultaneous games, ``parallel_env()``. Each game lives in its own package
``pokerzoo.envs.<game>`` (rules engine, observation, render, envs, registry entry).

A game outside the package (a plugin) joins the registry through :func:`register_game` with
its :class:`GameSpec`, or by naming that spec in the ``pokerzoo.games`` entry point group of
its distribution, which importing this package reads; a spec that names its ``engine`` gets
its PettingZoo and Gymnasium envs built from it (:mod:`.core.build`).
"""

from __future__ import annotations

from .core.registry import GameSpec, GymId, Scoring, discover, register_game, unregister_game

__all__ = ["GameSpec", "GymId", "Scoring", "register_envs", "register_game", "unregister_game"]


def register_envs() -> None:
    """Register every game found in the package and its Gymnasium ids (idempotent)."""
    discover()


register_envs()
