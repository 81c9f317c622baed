"""Poker Squares in the game registry (:mod:`pokerzoo.envs.core.registry`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..core.registry import Scoring, package_game


def win_threshold(options: Mapping[str, Any]) -> float | None:
    """The score counted as a win (RULES §3): 100 American / 70 English for the deal variant,
    200 American for Poker Shuffle; none for other tables."""
    scoring = options.get("scoring", "american")
    if not isinstance(scoring, str):
        return None
    if options.get("variant", "deal") == "shuffle":
        return 200.0 if scoring == "american" else None
    return {"american": 100.0, "english": 70.0}.get(scoring)


SPEC = package_game(
    "poker_squares",
    title="Poker Squares",
    summary="place 25 cards on a 5x5 grid; rows and columns score as poker hands",
    players=1,
    options={
        "scoring": '"american" (default) | "english" | {hand name: points}',
        "jokers": "0 (default) .. 2, wild",
        "placement": '"free" (default) | "adjacent"',
        "variant": '"deal" (default, one card at a time) | "shuffle" (all 25 known)',
        "reward": '"final" (default) | "incremental" (points of each completed line)',
    },
    option_sets={
        "american": {},
        "english": {"scoring": "english"},
        "two jokers, incremental": {"jokers": 2, "reward": "incremental"},
        "adjacent": {"placement": "adjacent"},
        "shuffle": {"variant": "shuffle", "scoring": "english"},
    },
    table_option_sets={
        "3 players, 2 rounds, margin": {"num_players": 3, "rounds": 2, "reward": "margin"},
        "8 players, adjacent, jokers": {
            "num_players": 8,
            "reward": "incremental",
            "jokers": 2,
            "placement": "adjacent",
        },
        "shuffle, 3 rounds": {"variant": "shuffle", "scoring": "english", "rounds": 3},
    },
    env_class="PokerSquaresEnv",
    gym_id="pokerzoo/PokerSquares-v0",
    parallel=True,
    vector_class="PokerSquaresVectorEnv",
    scoring=Scoring(score_key="score", unit="point", win_threshold=win_threshold),
)
