"""A game's own learner, trained and evaluated by ``algorithm: td`` runs.

Most games learn with PPO (:mod:`.train`), which needs nothing of the game beyond its env. A game
whose structure allows a much faster learner (Poker Squares: line-pattern afterstate values
trained on millions of games at once, :mod:`pokerzoo.training.games.poker_squares.td`) declares
it here, in its training hooks, and the generic run driver (:mod:`.td`) trains it into a run
folder that ``pokerzoo evaluate`` and ``pokerzoo play`` read like any other.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from .evaluate import Policy
from .schema import Section

__all__ = ["Progress", "ValueLearner", "ValueModel"]

Progress = Callable[[int, float, float], None]
"""Called after each batch of training games: games so far, the batch's mean score, seconds."""


class ValueModel(Protocol):
    """What a learner's model offers the driver."""

    games: int
    """Games it has been trained on."""
    kept_games: int
    """Games it had learned from when the run kept it (its best validation check)."""
    validation: float
    """Its score at that check (nan where the run made none)."""

    def save(self, path: str | Path) -> None: ...


@dataclass(frozen=True)
class ValueLearner:
    """A game's own learner: how to make, train, save and play its model."""

    config: type[Section]
    """The schema of the learner's own config section (the run config's ``td``), beside the
    learner: :mod:`.config` finds it through the games' training hooks
    (:func:`~.hooks.td_schema`) and validates the section with it."""
    new: Callable[[Any, Mapping[str, Any]], ValueModel]
    """A fresh model for the config (the learner's own section, an instance of
    :attr:`config`) and the env options (an unsupported option raises ``ValueError`` naming
    it)."""
    load: Callable[[Path], ValueModel]
    """A model saved by its ``save``."""
    train: Callable[[Any, Any, int, Progress, int], None]
    """Train in place: the model, the config, the seed, the progress callback and the games
    already played in the run (the schedules continue from there on a resumed run)."""
    policy: Callable[[ValueModel, bool], Policy]
    """The batched policy (observations, masks) -> actions, with or without look-ahead."""
    decisions_per_game: int
    """Env steps of one game (learning curves count env steps like PPO's)."""
    references: Callable[[Mapping[str, Any]], Mapping[str, float]] = field(
        default=lambda options: {}
    )
    """Published results drawn on the learning curve for these env options (label -> mean)."""
    variants: Callable[[ValueModel], Mapping[str, Policy]] = field(default=lambda model: {})
    """Other ways of playing the model with look-ahead that its report shows beside the agent
    on the same deals (name -> policy), for example the plain search where the agent's
    differs."""
