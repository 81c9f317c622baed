"""What training, evaluation and ``pokerzoo play`` need to know about a game beyond its registry
entry: its feature sets and how a person reads and types its actions.

Each game's hooks live in one module, ``pokerzoo.training.games.<game>``, as ``HOOKS`` (a
:class:`TrainingHooks`), named by the game's registry entry (``GameSpec.training``) and loaded
only here, so the envs never import the training package.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import numpy as np

from ..envs.core.registry import GameSpec, load
from .features import FeatureSet

__all__ = ["TrainingHooks", "feature_set", "hooks_for"]


def _parse_index(answer: str, observation: np.ndarray, mask: np.ndarray) -> int:
    try:
        return int(answer)
    except ValueError:
        raise ValueError(f"bad action {answer!r}: type its number") from None


@dataclass(frozen=True)
class TrainingHooks:
    """One game's training hooks (every field has a generic default)."""

    features: Mapping[str, FeatureSet] = field(default_factory=dict)
    """Feature set name -> set (``"raw"``, no features, is always available)."""
    describe: Callable[[np.ndarray], str] | None = None
    """``play``: what a person reads from its observation at its turn (``None``: the env's
    text view only)."""
    parse_action: Callable[[str, np.ndarray, np.ndarray], int] = _parse_index
    """``play``: a typed answer, the observation and the mask -> an action (``ValueError``
    naming what is wrong)."""
    action_text: Callable[[int, np.ndarray], str] = lambda action, observation: str(action)
    """``play``: how an action is typed, to show a hint or a default."""
    prompt: str = "action number"
    """``play``: what the person is asked to type."""
    play_bot: str | None = None
    """``play``: the default opponent (or, for a one-player game, hint giver); ``None``: the
    game's first bot."""


_DEFAULT = TrainingHooks()


def hooks_for(spec: GameSpec) -> TrainingHooks:
    """The game's hooks (the generic defaults when its registry entry names none)."""
    if spec.training is None:
        return _DEFAULT
    hooks = load(spec.training)
    if not isinstance(hooks, TrainingHooks):
        raise TypeError(f"{spec.training} is a {type(hooks).__name__}, not TrainingHooks")
    return hooks


def feature_set(spec: GameSpec, name: str) -> FeatureSet | None:
    """The game's feature set ``name`` (``None`` for ``"raw"``); an unknown name raises
    ``ValueError`` listing the known ones."""
    if name == "raw":
        return None
    known = hooks_for(spec).features
    if name not in known:
        names = ", ".join(["raw", *known])
        raise ValueError(f"unknown features {name!r} for {spec.name}: expected one of {names}")
    return known[name]
