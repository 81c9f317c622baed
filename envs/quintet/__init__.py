"""Quintet (RULES §1): the rules engine, the scripted API and the observation encoding.

Modules: :mod:`.rules` (dealing, placement, scoring; :func:`compare_packs` and
:func:`score_rows`, RULES §6), :mod:`.observation` (the 262-entry vector and its decoder),
:mod:`.render` (the spectator's view), :mod:`.game` (the engine every env drives, with each
seat's info and the whole state), :mod:`.pettingzoo_env` (also ``pokerzoo.envs.quintet_v0``),
:mod:`.env` (the Gymnasium env ``pokerzoo/Quintet-v0``, imported on its own: it needs the
bots), :mod:`.spec` (the game's registry entry).
"""

from __future__ import annotations

from . import game, observation, render, rules
from .game import *  # noqa: F403 - the package re-exports its modules' public names
from .observation import *  # noqa: F403
from .render import *  # noqa: F403
from .rules import *  # noqa: F403

__all__ = [*rules.__all__, *observation.__all__, *render.__all__, *game.__all__]
