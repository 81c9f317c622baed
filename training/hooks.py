"""What training, evaluation and ``pokerzoo play`` need to know about a game beyond its registry
entry: its feature sets, its action formulations and how a person reads and types its actions.

Each game's hooks live in one module, ``pokerzoo.training.games.<game>``, as ``HOOKS`` (a
:class:`TrainingHooks`), named by the game's registry entry (``GameSpec.training``) and loaded
only here, so the envs never import the training package.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..envs.core.registry import GameSpec, games, load
from .evaluate import Policy, Probabilities, model_policy, model_probabilities
from .features import FeatureSet
from .formulations import NATIVE, Formulation
from .learners import ValueLearner
from .rules import FeatureRule
from .schema import Section

__all__ = [
    "TrainingHooks",
    "agent_policy",
    "agent_probabilities",
    "feature_set",
    "formulation",
    "hooks_for",
    "rule_policy",
    "rules_for",
    "td_schema",
]


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
    formulations: Mapping[str, Formulation] = field(default_factory=dict)
    """Action formulation name -> formulation (:mod:`pokerzoo.training.formulations`;
    ``"native"``, the game's own actions, is always available)."""
    rules: Mapping[str, FeatureRule] = field(default_factory=dict)
    """Rule name -> a hand-written policy over one of the feature sets
    (:mod:`pokerzoo.training.rules`): evaluation reports it beside an agent of that set."""
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
    td: ValueLearner | None = None
    """The game's own learner for ``algorithm: td`` runs (:mod:`pokerzoo.training.learners`);
    ``None``: the game trains with PPO only."""
    play_bot: str | None = None
    """``play``: the default opponent (or, for a one-player game, hint giver); ``None``: the
    game's first bot."""
    hidden: Callable[[Any], Any] | None = None
    """A heads-up betting game's hidden cards for the local best response (engine ->
    :class:`~pokerzoo.training.lbr.HiddenCards`); ``None``: no LBR for the game."""


_DEFAULT = TrainingHooks()


def hooks_for(spec: GameSpec) -> TrainingHooks:
    """The game's hooks (the generic defaults when its registry entry names none)."""
    if spec.training is None:
        return _DEFAULT
    hooks = load(spec.training)
    if not isinstance(hooks, TrainingHooks):
        raise TypeError(f"{spec.training} is a {type(hooks).__name__}, not TrainingHooks")
    return hooks


def td_schema() -> type[Section]:
    """The schema of the run config's ``td`` section: the ``config`` of the games' ``td``
    learners, found through the training hooks of every registered game (so the section means
    the same in every run config, whatever its game). They must agree; where no game has a
    learner it is a section without keys."""
    schemas = {
        learner.config: spec.name
        for spec in games().values()
        if (learner := hooks_for(spec).td) is not None
    }
    if len(schemas) > 1:
        named = ", ".join(f"{game} ({schema.__qualname__})" for schema, game in schemas.items())
        raise TypeError(f"the games' td learners declare different config sections: {named}")
    return next(iter(schemas), Section)


def formulation(spec: GameSpec, name: str) -> Formulation | None:
    """The game's action formulation ``name`` (``None`` for ``"native"``); an unknown name
    raises ``ValueError`` listing the known ones."""
    if name == NATIVE:
        return None
    known = hooks_for(spec).formulations
    if name not in known:
        names = ", ".join([NATIVE, *known])
        raise ValueError(f"unknown actions {name!r} for {spec.name}: expected one of {names}")
    return known[name]


def feature_set(spec: GameSpec, name: str, actions: str = NATIVE) -> FeatureSet | None:
    """The feature set ``name`` over the observations of the game's formulation ``actions``
    (``None`` for ``"raw"``); an unknown name raises ``ValueError`` listing the known ones."""
    if name == "raw":
        return None
    chosen = formulation(spec, actions)
    known = hooks_for(spec).features if chosen is None else chosen.features
    if name not in known:
        names = ", ".join(["raw", *known])
        where = spec.name if chosen is None else f"{spec.name} with actions {actions!r}"
        raise ValueError(f"unknown features {name!r} for {where}: expected one of {names}")
    return known[name]


def agent_policy(
    spec: GameSpec, model: Any, features: str = "raw", actions: str = NATIVE
) -> Policy:
    """A trained model as a batched policy over the game's own observations and actions: its
    feature set applied, its formulation's decisions turned into the game's actions.

    A model whose observations are not as wide as the feature set's (one trained before the
    set or the formulation changed: their docstrings' version history) raises ``ValueError``
    naming both widths."""
    policy = model_policy(model, _model_features(spec, model, features, actions))
    chosen = formulation(spec, actions)
    return policy if chosen is None else chosen.native_policy(policy)


def agent_probabilities(
    spec: GameSpec, model: Any, features: str = "raw", actions: str = NATIVE
) -> Probabilities:
    """A trained model's action probabilities over the game's own observations and actions
    (its feature set applied), for a player that samples its actions
    (:class:`~pokerzoo.training.opponents.SampledPolicyBot`). A model trained in an action
    formulation raises ``ValueError``: its decisions are not the game's actions, one each."""
    if actions != NATIVE:
        raise ValueError(
            f"bad actions {actions!r} for sampled play: expected {NATIVE!r}, a model whose "
            f"decisions are {spec.name}'s own actions (the formulation's decisions are not)"
        )
    return model_probabilities(model, _model_features(spec, model, features, actions))


def _model_features(spec: GameSpec, model: Any, features: str, actions: str) -> FeatureSet | None:
    """The feature set a model reads (``None``: raw observations), checked against the width
    of the model's observations (:func:`agent_policy`)."""
    chosen_features = feature_set(spec, features, actions)
    width = chosen_features.output_width if chosen_features is not None else None
    shape = getattr(getattr(model, "observation_space", None), "shape", None)
    if width is not None and shape is not None and tuple(shape) != (width,):
        where = spec.name if actions == NATIVE else f"{spec.name} with actions {actions!r}"
        raise ValueError(
            f"the model takes observations of shape {tuple(shape)}, but the feature set "
            f"{features!r} of {where} gives ({width},): it was trained with another version of "
            "them (see their version history); train it again, or evaluate it with the "
            "pokerzoo code it was trained with"
        )
    return chosen_features


def rules_for(spec: GameSpec, features: str, actions: str = NATIVE) -> dict[str, FeatureRule]:
    """The game's hand-written rules over the feature set ``features`` of its formulation
    ``actions`` (the game's own rules for ``"native"``, the formulation's otherwise)."""
    chosen = formulation(spec, actions)
    known = hooks_for(spec).rules if chosen is None else chosen.rules
    return {name: rule for name, rule in known.items() if rule.features == features}


def rule_policy(spec: GameSpec, rule: FeatureRule, actions: str = NATIVE) -> Policy:
    """A rule of :func:`rules_for` as a batched policy over the game's own observations and
    actions, as :func:`agent_policy` plays a model."""
    policy = rule.policy(feature_set(spec, rule.features, actions))
    chosen = formulation(spec, actions)
    return policy if chosen is None else chosen.native_policy(policy)
