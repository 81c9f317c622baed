"""What the betting games' training hooks share (draw poker and five-card stud): the
``"equity"`` feature set with the hand-written rule ``"equity"`` over it (its betting part,
:func:`bet_by_equity`, written once), and the words a person types for a bet in ``pokerzoo
play``.

Each game's rule reads the same named features (:mod:`pokerzoo.training.poker.features`)
and takes the same two thresholds: ``raise_by`` (how far the equity must beat a fair share of
the pot to bet or raise) and ``call_by`` (how far it must beat the pot odds to call), tuned over
:data:`EQUITY_GRID` (``benchmarks/feature_rules.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import numpy as np

from ...envs.core.betting import CALL, FOLD, RAISE
from ..features import FeatureSet
from ..hooks import TrainingHooks
from ..rules import Decide, FeatureRule

__all__ = ["BETTING_WORDS", "EQUITY_GRID", "bet_by_equity", "equity_hooks"]

BETTING_WORDS: Mapping[str, int] = {
    "fold": FOLD,
    "check": CALL,
    "call": CALL,
    "bet": RAISE,
    "raise": RAISE,
}
"""A betting action as a person types it."""

EQUITY_GRID: Mapping[str, tuple[float, ...]] = {
    "raise_by": (0.0, 0.05, 0.1, 0.2),
    "call_by": (-0.05, 0.0, 0.05),
}
"""The thresholds the ``"equity"`` rule is tuned over."""


def bet_by_equity(
    equity: np.ndarray,
    fair_share: np.ndarray,
    odds: np.ndarray,
    masks: np.ndarray,
    raise_by: float,
    call_by: float,
    *,
    free: np.ndarray,
    stay: np.ndarray | int = CALL,
) -> np.ndarray:
    """The betting decision of an ``"equity"`` rule, batched: raise where the equity beats a
    fair share of the pot by ``raise_by`` and raising is legal; otherwise ``stay`` in (call or
    check, or the action that does) where that is ``free``, the equity beats the price's pot
    ``odds`` by ``call_by`` or folding is not legal; otherwise fold."""
    return np.where(
        (equity >= fair_share + raise_by) & masks[:, RAISE],
        RAISE,
        np.where(free | (equity >= odds + call_by) | ~masks[:, FOLD], stay, FOLD),
    )


def equity_hooks(
    features: FeatureSet,
    decide: Decide,
    *,
    params: Mapping[str, float],
    summary: str,
    describe: Callable[[np.ndarray], str],
    parse_action: Callable[[str, np.ndarray, np.ndarray], int],
    action_text: Callable[[int, np.ndarray], str],
    prompt: str,
) -> TrainingHooks:
    """A betting game's hooks: ``features`` as the ``"equity"`` feature set, the rule
    ``"equity"`` (``decide`` with the tuned ``params``, ``summary`` its one line) over it, and
    what ``pokerzoo play`` shows and reads, with the rule as the default opponent."""
    return TrainingHooks(
        features={"equity": features},
        rules={
            "equity": FeatureRule(
                features="equity",
                decide=decide,
                params=params,
                grid=EQUITY_GRID,
                summary=summary,
            )
        },
        describe=describe,
        parse_action=parse_action,
        action_text=action_text,
        prompt=prompt,
        play_bot="rules",
    )
