"""Quintet (RULES §1): the rules engine, the scripted API and the observation encoding.

Modules: :mod:`.rules` (dealing, placement, scoring; :func:`compare_packs` and
:func:`score_rows`, RULES §6), :mod:`.observation` (the 262-entry vector and its decoder),
:mod:`.render` (the spectator's view), :mod:`.game` (the engine every env drives, with each
seat's info and the whole state), the analysis the bots and the training features share
(imported on their own): :mod:`.packs` (the packs a set of cards can form), :mod:`.analysis`
(greedy packs, the order game, the best reply) and :mod:`.search` (a row against a model of the
bots), :mod:`.pettingzoo_env` (also ``pokerzoo.envs.quintet_v0``), :mod:`.env` (the Gymnasium
env ``pokerzoo/Quintet-v0``, imported on its own; its bots, which the registry entry names, are
imported when an env is built), :mod:`.spec` (the game's registry entry).
"""

from __future__ import annotations

from . import game, observation, render, rules
from .game import *  # noqa: F403 - the package re-exports its modules' public names
from .observation import *  # noqa: F403
from .render import *  # noqa: F403
from .rules import *  # noqa: F403

__all__ = [*rules.__all__, *observation.__all__, *render.__all__, *game.__all__]
