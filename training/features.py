"""Observation features a run can add to a game's observation (config key ``features``).

A feature set (:class:`FeatureSet`) is a batched function ``(N, D) observations -> (N, D')
float32`` that a game's training hooks name (:mod:`pokerzoo.training.games`). The run's config
names the set, so training (a ``FeatureVecEnv`` over the vector env, or a ``FeatureEnv`` inside
each ``SubprocVecEnv`` worker), evaluation, snapshots and ``play`` all apply the same function
before the policy sees an observation. ``"raw"`` (the default) leaves the observation as the env
gives it. A set with a :class:`PerActionLayout` lays out one row of features per action, which
``ppo.policy: per_action`` (:mod:`pokerzoo.training.policies`) scores with one shared network.

This module holds what the games' sets share: :func:`batched` and :func:`line_features`, what a
line of cards (a Poker Squares row or column, a Quintet pack) would hold with one more card.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

__all__ = [
    "FeatureSet",
    "Gate",
    "PerActionLayout",
    "batched",
    "per_observation",
    "line_features",
    "straight_windows",
]

FeatureFn = Callable[[np.ndarray], np.ndarray]


@dataclass(frozen=True)
class Gate:
    """Candidates' suggestions inside each per-action row, for the policy's gate
    (:class:`~pokerzoo.training.policies.PerActionHead`)."""

    column: int
    """First column (in each action's row) of the candidates' suggestions."""
    candidates: int
    """How many candidates make suggestions (one column each)."""
    stats_column: int
    """First column of the candidates' statistics (read from the first action's row)."""
    stats: int
    """Statistics per candidate."""
    weight: float
    """The gate's starting weight, the same for every candidate."""


@dataclass(frozen=True)
class PerActionLayout:
    """Where a feature set lays out one row of features per action."""

    offset: int
    """Index of the first row; the entries before it are the whole-observation context."""
    actions: int
    """Rows, one per action (the action space's size)."""
    width: int
    """Features per row."""
    gate: Gate | None = None
    padding: bool = False
    """A row of zeros is padding, never a legal action's (Quintet's candidate rows past the
    candidates): the head scores the other rows only and gives padding the logit 0, which the
    action mask then drops (MaskablePPO's masked logits do not depend on it). Models saved
    before this field load with ``False``: every row scored."""


@dataclass(frozen=True)
class FeatureSet:
    """A named, batched feature function, with its per-action layout when it has one."""

    function: FeatureFn
    per_action: PerActionLayout | None = None
    summary: str = ""
    width: int | None = None
    """Features per observation of a set without a per-action layout (one with a layout
    declares its width there: :attr:`output_width`)."""

    @property
    def output_width(self) -> int | None:
        """The declared features per observation: the per-action layout's context and rows
        (``offset + actions * width``), else :attr:`width` (``None``: not declared)."""
        if self.per_action is not None:
            return self.per_action.offset + self.per_action.actions * self.per_action.width
        return self.width

    def __call__(self, observations: np.ndarray) -> np.ndarray:
        return self.function(observations)


def batched(features: FeatureFn) -> FeatureFn:
    """Let a feature function of ``(N, D)`` float32 observations also take one ``(D,)``."""

    @functools.wraps(features)
    def wrapper(observations: np.ndarray) -> np.ndarray:
        obs = np.asarray(observations, dtype=np.float32)
        if obs.ndim == 1:
            return features(obs[None])[0]
        return features(obs)

    return wrapper


def per_observation(feature: FeatureFn) -> FeatureFn:
    """A feature function of one ``(D,)`` observation as a batched one (:func:`batched`), for
    features worked out observation by observation (a Monte-Carlo per set of visible cards)."""

    @batched
    def features(observations: np.ndarray) -> np.ndarray:
        return np.stack([feature(obs) for obs in observations])

    return features


def straight_windows(lowest_rank: int = 0) -> np.ndarray:
    """``(W, 13)`` rank sets of the straights from ``lowest_rank`` up (rank 0 = deuce); with
    ``lowest_rank == 0`` the wheel A-2-3-4-5 comes first."""
    windows = [np.isin(np.arange(13), (12, 0, 1, 2, 3))] if lowest_rank == 0 else []
    windows += [np.isin(np.arange(13), range(low, low + 5)) for low in range(lowest_rank, 9)]
    return np.array(windows, dtype=np.float32)


def line_features(
    ranks: np.ndarray,
    suits: np.ndarray,
    jokers: np.ndarray,
    current: np.ndarray,
    windows: np.ndarray,
) -> np.ndarray:
    """Per line, what it would hold with the current card added: ``(N, L, 7)``.

    ``ranks (N, L, 13)``, ``suits (N, L, 4)`` and ``jokers (N, L)`` count the line's cards;
    ``current (N, 18)`` is the card to place (rank one-hot, suit one-hot, joker bit);
    ``windows (W, 13)`` are the straights' rank sets. Features: cards in the line / 5, cards of
    the current card's rank / 4, of its suit / 5, a flush still possible, a straight still
    possible, the largest group of one rank / 4, the line complete. Jokers count as cards of no
    rank and no suit (they keep flushes and straights alive).
    """
    cur_rank, cur_suit, cur_joker = current[:, :13], current[:, 13:17], current[:, 17]
    suited = cur_suit.sum(axis=1) > 0
    ranks = ranks + cur_rank[:, None, :]
    size = ranks.sum(axis=2) + jokers + cur_joker[:, None]
    same_rank = (ranks * cur_rank[:, None, :]).sum(axis=2)
    same_suit = (suits * cur_suit[:, None, :]).sum(axis=2) + suited[:, None]
    # A flush stays possible while the line's cards (jokers aside) share one suit, the
    # current card's when it has one.
    flush_live = ((suits > 0).sum(axis=2) <= 1) & (
        (same_suit == suits.sum(axis=2) + suited[:, None]) | ~suited[:, None]
    )
    present = (ranks > 0).astype(np.float32)
    inside = np.einsum("nlr,wr->nlw", present, windows)
    straight_live = (ranks <= 1).all(axis=2) & (inside == present.sum(axis=2, keepdims=True)).any(
        axis=2
    )
    return np.stack(
        [
            size / 5,
            same_rank / 4,
            same_suit / 5,
            flush_live,
            straight_live,
            ranks.max(axis=2) / 4,
            size >= 5,
        ],
        axis=2,
    ).astype(np.float32)
