"""Poker Squares (RULES §3): the rules engine, the scripted API and the observation encoding.

Modules: :mod:`.rules` (one grid: dealing, placement, scoring; :func:`score_hand` and
:func:`score_grid`, RULES §6), :mod:`.observation` (the 522-entry vector and its decoder),
:mod:`.render` (text pictures), :mod:`.game` (the multi-player engine), :mod:`.env` (the
Gymnasium env ``pokerzoo/PokerSquares-v0``), :mod:`.vector` (its native vector env),
:mod:`.pettingzoo_env` (multi-player PettingZoo envs, also ``pokerzoo.envs.poker_squares_v0``),
:mod:`.spec` (the game's registry entry). Importing the package does not import PettingZoo.
"""

from __future__ import annotations

from .env import PokerSquaresEnv
from .game import PokerSquaresTable, TableState
from .observation import (
    CARD_FEATURES,
    LAYOUT,
    SquaresView,
    decode_observation,
    encode_observation,
    update_observation,
)
from .render import render_grid
from .rules import (
    CELL_LINES,
    EMPTY,
    GRID_CELLS,
    HAND_CATEGORIES,
    HAND_NAMES,
    LINE_NAMES,
    LINES,
    NEIGHBOURS,
    REWARDS,
    SCORING_TABLES,
    PokerSquaresGame,
    Scoring,
    SquaresState,
    cell_name,
    check_reward,
    resolve_scoring,
    score_grid,
    score_hand,
)
from .vector import PokerSquaresVectorEnv

__all__ = [
    "CARD_FEATURES",
    "CELL_LINES",
    "EMPTY",
    "GRID_CELLS",
    "HAND_CATEGORIES",
    "HAND_NAMES",
    "LAYOUT",
    "LINES",
    "LINE_NAMES",
    "NEIGHBOURS",
    "REWARDS",
    "SCORING_TABLES",
    "PokerSquaresEnv",
    "PokerSquaresGame",
    "PokerSquaresTable",
    "PokerSquaresVectorEnv",
    "Scoring",
    "SquaresState",
    "SquaresView",
    "TableState",
    "cell_name",
    "check_reward",
    "decode_observation",
    "encode_observation",
    "render_grid",
    "resolve_scoring",
    "score_grid",
    "score_hand",
    "update_observation",
]
