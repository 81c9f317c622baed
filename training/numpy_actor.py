"""A trained policy's most probable action in numpy, for the players that only ask for it.

A snapshot of the learner seated at the training tables, and every trained agent in
``pokerzoo evaluate``, plays its policy's most probable legal action, a few rows at a time, many
times a rollout. Through torch each such call costs 0.2-0.6 ms whatever the batch (tensors built,
modules dispatched, the masked softmax), most of it overhead on networks this small; the same
layers as numpy products take 0.03-0.2 ms (``python benchmarks/snapshot_forward.py``).

:class:`NumpyActor` reads the actor's layers of a
:class:`~pokerzoo.training.masked_sampling.MaskablePolicy` (``ppo.policy: mlp``) or of a
:class:`~pokerzoo.training.policies.PerActionPolicy` (``ppo.policy: per_action``, without a gate) as
views of the policy's own parameters, so that it follows them as they train, and takes the legal
action with the highest logit. That is
:meth:`~pokerzoo.training.masked_sampling.MaskablePolicy.most_probable`'s action wherever the best
legal logit leads the next by more than float32 rounding. Where two legal actions' rows are
identical (Poker Squares' empty cells before the policy learns) their logits tie but for rounding,
which each library's products do by a row's place in the batch, so each may take either. The
evaluation tables of trained agents of every game came out the same to the digit, and short runs of
each multi-player default with a snapshot seated from the second rollout trained the same weights to
the bit (docs/results.md, Training throughput). A policy with parts this does not mirror (another
features extractor, observations torch preprocesses, a gate, an activation other than ReLU, Tanh or
none, a GPU) gets ``None`` from :meth:`NumpyActor.of`, and its callers keep torch's pass.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

__all__ = ["NumpyActor"]

Layer = tuple[np.ndarray, np.ndarray | None, Callable[[np.ndarray], np.ndarray] | None]
"""A linear layer's weight ``(out, in)`` and bias (views of the torch parameters), then the
activation after it (None: none)."""


def _relu(x: np.ndarray) -> np.ndarray:
    return np.maximum(x, 0, out=x)


def _tanh(x: np.ndarray) -> np.ndarray:
    return np.tanh(x, out=x)


def _layers(modules: Any) -> list[Layer] | None:
    """The linear layers of an ``nn.Sequential`` (or one ``nn.Linear``) of linear layers and
    activations, each with the activation that follows it; None: other modules."""
    from torch import nn

    activations: dict[type, Callable[[np.ndarray], np.ndarray] | None] = {
        nn.ReLU: _relu,
        nn.Tanh: _tanh,
        nn.Identity: None,
    }
    layers: list[Layer] = []
    for module in [modules] if isinstance(modules, nn.Linear) else list(modules):
        if type(module) is nn.Linear:
            bias = None if module.bias is None else module.bias.detach().numpy()
            layers.append((module.weight.detach().numpy(), bias, None))
        elif type(module) in activations and layers and layers[-1][2] is None:
            weight, bias, _ = layers[-1]
            layers[-1] = (weight, bias, activations[type(module)])
        elif type(module) is not nn.Identity:
            return None
    return layers


def _forward(x: np.ndarray, layers: list[Layer]) -> np.ndarray:
    for weight, bias, activation in layers:
        x = x @ weight.T
        if bias is not None:
            x += bias
        if activation is not None:
            x = activation(x)
    return x


@dataclass(frozen=True)
class _Head:
    """A :class:`~pokerzoo.training.policies.PerActionHead`'s layers."""

    layout: Any
    """Its :class:`~pokerzoo.training.features.PerActionLayout`."""
    context: list[Layer]
    score: list[Layer]


class NumpyActor:
    """The most probable legal action of a policy's observations, in numpy: build one with
    :meth:`of`, then call it as a batched policy, ``(observations, masks) -> actions``.

    Its layers: ``hidden``, the actor's hidden layers, then either ``logits`` (the action net's
    layers: a flat policy) or ``head`` (a per-action policy's scorer)."""

    def __init__(
        self, hidden: list[Layer], logits: list[Layer] | None = None, head: _Head | None = None
    ) -> None:
        if (logits is None) == (head is None):
            raise ValueError("expected the action net's logits layers or a per-action head")
        self._hidden = hidden
        self._logits = logits or []
        self._head = head

    @classmethod
    def of(cls, policy: Any) -> NumpyActor | None:
        """The actor of ``policy`` (a MaskablePPO policy), or None where it has parts this
        module does not mirror (its callers then play through torch)."""
        from gymnasium import spaces
        from sb3_contrib.common.maskable.distributions import MaskableCategoricalDistribution
        from stable_baselines3.common.preprocessing import is_image_space
        from stable_baselines3.common.torch_layers import FlattenExtractor

        from .masked_sampling import MaskablePolicy
        from .policies import PerActionHead, PerActionPolicy

        if not isinstance(policy, MaskablePolicy) or not isinstance(
            policy.action_dist, MaskableCategoricalDistribution
        ):
            return None
        if type(policy) not in (MaskablePolicy, PerActionPolicy):
            return None  # a subclass may score its actions otherwise
        if policy.device.type != "cpu" or type(policy.pi_features_extractor) is not (
            FlattenExtractor
        ):
            return None
        space = policy.observation_space
        if not isinstance(space, spaces.Box) or is_image_space(space):
            return None  # torch's preprocessing would one-hot or scale these observations
        hidden = _layers(policy.mlp_extractor.policy_net)
        if hidden is None:
            return None
        net = policy.action_net
        if type(net) is PerActionHead:
            if net.layout.gate is not None:
                return None
            context, score = _layers(net.context), _layers(net.score)
            if context is None or not score:
                return None
            return cls(hidden, head=_Head(net.layout, context, score))
        logits = _layers(net)
        return None if logits is None else cls(hidden, logits=logits)

    def __call__(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """The most probable legal action of each observation, ``(N,)`` ``int64``: the
        observations flattened and read as float32 (as torch reads them), ``masks`` ``bool``
        ``(N, A)``."""
        observations = np.asarray(observations, dtype=np.float32)
        n = observations.shape[0]
        if n == 0:
            return np.empty(0, dtype=np.int64)
        latent = _forward(observations.reshape(n, -1), self._hidden)
        masks = np.asarray(masks, dtype=bool).reshape(n, -1)
        if self._head is None:
            logits = _forward(latent, self._logits)
            return np.where(masks, logits, -np.inf).argmax(axis=1).astype(np.int64)
        return _per_action(self._head, latent, masks)


def _per_action(head: _Head, observation: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """The legal action with the highest of
    :class:`~pokerzoo.training.policies.PerActionHead`'s logits, scored on the legal rows
    only (the context's share of the scorer's first layer once an observation)."""
    layout, score = head.layout, head.score
    first = score[0][0]
    n = observation.shape[0]
    width = layout.width
    rows = observation[:, layout.offset : layout.offset + layout.actions * width]
    rows = rows.reshape(n, layout.actions, width)
    summary = _forward(observation[:, : layout.offset], head.context)
    shared = summary @ first[:, width:].T
    if score[0][1] is not None:
        shared += score[0][1]
    at, action = np.nonzero(masks)
    picked = rows[at, action]
    hidden = picked @ first[:, :width].T + shared[at]
    if score[0][2] is not None:
        hidden = score[0][2](hidden)
    scores = _forward(hidden, score[1:])[:, 0]
    if layout.padding:
        # A legal row of zeros is padding: the head gives it the logit 0, unscored.
        scores = np.where(np.abs(picked).sum(axis=1) > 0, scores, np.float32(0))
    logits = np.full(masks.shape, -np.inf, dtype=np.float32)
    logits[at, action] = scores
    return logits.argmax(axis=1).astype(np.int64)
