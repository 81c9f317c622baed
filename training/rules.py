"""Hand-written rules over a feature set: what a trained agent's learning is measured against.

A game's feature set may already hold most of what a good decision needs (an equity, pot odds).
To show what training added beyond the features themselves, a game's hooks may name
:class:`FeatureRule` s (``TrainingHooks.rules``): a short decision over the same features, with
a few thresholds. :func:`tune_rule` picks the thresholds from a small grid on deals of their own
(seeds from 2,000,000, apart from training and from the evaluation deals); ``pokerzoo evaluate``
plays every rule that reads the run's feature set on the same deals and seeds as the agent and
reports it in rows of its own (:func:`pokerzoo.training.report.evaluate_run`).

A rule's decision must read only its features and the mask, never a bot: it is the best a person
can write over what the agent sees, not a borrowed player.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..envs.core.registry import GameSpec
from .evaluate import Evaluation, Policy, evaluate_agent

__all__ = ["TUNING_SEED", "FeatureRule", "rule_score", "tune_rule"]

TUNING_SEED = 2_000_000
"""First deal of the tuning deals: apart from the evaluation deals (1,000,000 ..) and from
training's seeds."""

Decide = Callable[..., np.ndarray]
"""``decide(features (K, D), masks (K, A) bool, **params) -> actions (K,)``."""


@dataclass(frozen=True)
class FeatureRule:
    """A hand-written batched policy over one feature set of its game."""

    features: str
    """The feature set it reads (a name in the game's ``TrainingHooks.features``)."""
    decide: Decide
    """The decision: features and masks in, one action per row out, thresholds as keywords."""
    params: Mapping[str, float]
    """The thresholds it plays with (the best of :attr:`grid` by :func:`tune_rule`)."""
    grid: Mapping[str, Sequence[float]] = field(default_factory=dict)
    """The values :func:`tune_rule` tries for each threshold (every combination)."""
    summary: str = ""
    """One line: what the rule does."""

    def policy(
        self, transform: Callable[[np.ndarray], np.ndarray] | None, **params: float
    ) -> Policy:
        """The rule as a batched policy over the game's observations: ``transform`` is its
        feature set's function, ``params`` override :attr:`params`."""
        chosen = {**self.params, **params}

        def policy(observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
            features = observations if transform is None else transform(observations)
            return np.asarray(self.decide(features, np.asarray(masks, dtype=bool), **chosen))

        return policy

    def candidates(self) -> list[dict[str, float]]:
        """Every combination of the grid's values (:attr:`params` alone without a grid)."""
        if not self.grid:
            return [dict(self.params)]
        names = list(self.grid)
        return [
            dict(zip(names, values, strict=True))
            for values in itertools.product(*(self.grid[n] for n in names))
        ]


def rule_score(evaluation: Evaluation) -> float:
    """What tuning maximises: the mean result per game over the opponents (games of several
    players), or the mean score (one-player games)."""
    if evaluation.agent_mean is not None:
        return evaluation.agent_mean.value
    return float(np.mean([r.agent_mean.value for r in evaluation.opponents.values()]))


def tune_rule(
    spec: GameSpec,
    rule: FeatureRule,
    transform: Callable[[np.ndarray], np.ndarray] | None,
    options: Mapping[str, Any],
    episodes: int,
    opponents: Sequence[str] | None = None,
    seed: int = TUNING_SEED,
) -> list[tuple[dict[str, float], Evaluation]]:
    """Every candidate of ``rule``'s grid evaluated on the same ``episodes`` deals from ``seed``
    against ``opponents`` (default: every bot), best :func:`rule_score` first."""
    results = []
    for params in rule.candidates():
        policy = rule.policy(transform, **params)
        results.append((params, evaluate_agent(spec, policy, options, episodes, opponents, seed)))
    return sorted(results, key=lambda item: -rule_score(item[1]))
