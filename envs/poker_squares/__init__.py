"""Poker Squares (RULES §3): the rules engine, the scripted API and the observation encoding.

Modules: :mod:`.rules` (one grid: dealing, placement, scoring; :func:`score_hand` and
:func:`score_grid`, RULES §6), :mod:`.observation` (the 522-entry vector and its decoder),
:mod:`.render` (text pictures), :mod:`.game` (the multi-player engine), :mod:`.env` (the
Gymnasium env ``pokerzoo/PokerSquares-v0``), :mod:`.vector` (its native vector env),
:mod:`.pettingzoo_env` (multi-player PettingZoo envs, also ``pokerzoo.envs.poker_squares_v0``),
:mod:`.spec` (the game's registry entry). Importing the package does not import PettingZoo.
"""

from __future__ import annotations

from . import env, game, observation, render, rules, vector
from .env import *  # noqa: F403 - the package re-exports its modules' public names
from .game import *  # noqa: F403
from .observation import *  # noqa: F403
from .render import *  # noqa: F403
from .rules import *  # noqa: F403
from .vector import *  # noqa: F403

__all__ = [
    *rules.__all__,
    *observation.__all__,
    *render.__all__,
    *game.__all__,
    *env.__all__,
    *vector.__all__,
]
