"""Quintet (RULES §1): the rules engine, the scripted API and the observation encoding.

Modules: :mod:`.rules` (dealing, placement, scoring; :func:`compare_packs` and
:func:`score_rows`, RULES §6), :mod:`.observation` (the 262-entry vector and its decoder),
:mod:`.render` (the spectator's view), :mod:`.game` (the engine every env drives),
:mod:`.pettingzoo_env` (also ``pokerzoo.envs.quintet_v0``), :mod:`.env` (the Gymnasium env
``pokerzoo/Quintet-v0``, imported on its own: it needs the bots), :mod:`.spec` (the game's
registry entry).
"""

from __future__ import annotations

from .game import QuintetGame
from .observation import LAYOUT, ObservedDeal, decode_observation, encode_observation
from .render import render_text
from .rules import (
    DECK,
    NUM_CARDS,
    NUM_PACKS,
    NUM_PLAYERS,
    NUM_REMOVED,
    PACK_SIZE,
    POSITION_POINTS,
    REWARDS,
    Outcome,
    QuintetRules,
    QuintetState,
    compare_packs,
    describe_pack,
    placement_order,
    score_rows,
)

__all__ = [
    "DECK",
    "LAYOUT",
    "NUM_CARDS",
    "NUM_PACKS",
    "NUM_PLAYERS",
    "NUM_REMOVED",
    "PACK_SIZE",
    "POSITION_POINTS",
    "REWARDS",
    "ObservedDeal",
    "Outcome",
    "QuintetGame",
    "QuintetRules",
    "QuintetState",
    "compare_packs",
    "decode_observation",
    "describe_pack",
    "encode_observation",
    "placement_order",
    "render_text",
    "score_rows",
]
