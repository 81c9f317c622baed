"""Action formulations: the decisions a learner makes in place of its game's own actions (config
key ``actions``).

A game's own actions (``actions: native``, the default) are what its envs step with, e.g. one
card into one pack in Quintet. Some games are easier to learn at a coarser grain: in Quintet a
whole pack and the position it takes. A :class:`Formulation` provides that grain without
changing the game:

- :meth:`~Formulation.wrap` turns the single-seat training env (the game's own actions) into an
  env of the formulation's decisions. The wrapped env still plays the real game underneath,
  opponents included, and pays the game's own rewards.
- :meth:`~Formulation.native_policy` turns a batched policy over the formulation's observations
  and masks back into a batched policy over the game's own (the
  :data:`~pokerzoo.training.evaluate.Policy` evaluation calls). Evaluation on duplicate deals,
  snapshots in the opponent pool, ``pokerzoo evaluate`` and ``pokerzoo play`` thus use a
  trained agent of any formulation as they use any other agent.
- :attr:`~Formulation.features` are the feature sets that read the formulation's observations
  (the game's own feature sets read the game's observations, so they do not apply).
- :attr:`~Formulation.rules` are hand-written rules making the formulation's decisions from
  those features (:mod:`pokerzoo.training.rules`): ``pokerzoo evaluate`` plays them beside an
  agent of the formulation, on the same deals, to show what learning added.

A game's training hooks name its formulations (``TrainingHooks.formulations``); nothing here
knows a game.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol, runtime_checkable

from .evaluate import Policy
from .features import FeatureSet
from .rules import FeatureRule

__all__ = ["NATIVE", "Formulation"]

NATIVE = "native"
"""The ``actions`` value of a game's own actions (no formulation)."""


@runtime_checkable
class Formulation(Protocol):
    """An action formulation of one game (see the module docstring)."""

    summary: str
    """One line for ``pokerzoo list``."""
    features: Mapping[str, FeatureSet]
    """Feature set name -> set over this formulation's observations (``"raw"``, none, is
    always available)."""
    rules: Mapping[str, FeatureRule]
    """Rule name -> a hand-written rule over one of :attr:`features` (may be empty)."""

    def wrap(self, env: Any) -> Any:
        """The single-seat Gymnasium env ``env`` (the game's own actions) as an env of this
        formulation's decisions: a ``gymnasium.Wrapper`` (so ``env``'s own methods, such as the
        opponent pool's ``add_snapshot``, stay reachable) whose ``info["action_mask"]`` and
        ``action_masks()`` give the decisions' mask."""
        ...

    def native_policy(self, policy: Policy) -> Policy:
        """A batched policy over the game's own observations and masks that decides with
        ``policy`` (over this formulation's observations and masks). ``policy`` must be
        deterministic: its decisions may be computed once and reused."""
        ...
