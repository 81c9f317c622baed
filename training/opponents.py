"""Opponents for multi-player training: baseline bots plus frozen snapshots of the learner.

:class:`OpponentPool` draws one opponent per seat per episode, by weight, from the game's bots
and from the snapshots saved so far (self-play). It owns a ``numpy`` Generator, so a seeded pool
replays the same opponents and gives each sampled opponent the same reset seed.

:class:`PolicyBot` makes a trained MaskablePPO model (or a saved ``.zip``) follow the
:class:`pokerzoo.agents.base.Bot` protocol, so a snapshot, a trained agent and a baseline bot
are interchangeable wherever the package plays a game. Models are loaded lazily (torch is only
imported when a snapshot first acts) and cached per path, so a pool keeps one copy of each.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import numpy as np

from ..agents.base import Bot

__all__ = ["OpponentPool", "PolicyBot", "load_model"]

_MODEL_CACHE: dict[tuple[str, int], Any] = {}


def load_model(path: str | Path) -> Any:
    """A MaskablePPO model from ``path`` (a ``.zip``), on the CPU, cached by path and mtime."""
    resolved = Path(path).resolve()
    key = (str(resolved), resolved.stat().st_mtime_ns)
    if key not in _MODEL_CACHE:
        from sb3_contrib import MaskablePPO

        _MODEL_CACHE[key] = MaskablePPO.load(resolved, device="cpu")
    return _MODEL_CACHE[key]


class PolicyBot:
    """A trained MaskablePPO policy as a :class:`Bot` (deterministic: the most likely action).

    ``model`` is a MaskablePPO instance or a path to a saved one (loaded on first use);
    ``transform`` is the run's feature function (None: raw observations).
    """

    def __init__(
        self,
        model: Any,
        name: str | None = None,
        transform: Callable[[np.ndarray], np.ndarray] | None = None,
    ) -> None:
        self.transform = transform
        self._model = model if not isinstance(model, (str, Path)) else None
        self._path = None if self._model is not None else str(model)
        self.name = name or (f"snapshot:{Path(self._path).stem}" if self._path else "agent")

    @property
    def model(self) -> Any:
        if self._model is None:
            self._model = load_model(self._path)
        return self._model

    def reset(self, seed: int | None = None) -> None:
        """Nothing to re-seed: the policy acts deterministically."""

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        if self.transform is not None:
            observation = self.transform(observation)
        action, _ = self.model.predict(
            observation, action_masks=np.asarray(action_mask, dtype=bool), deterministic=True
        )
        return int(action)


class OpponentPool:
    """Weighted sampling of opponents: named bots plus recent snapshots of the learner.

    ``make_bot(name, seed)`` builds a bot of the game. ``bots`` maps bot name to weight;
    ``snapshot_weight`` is the weight of "any snapshot" (a uniformly chosen one of the
    ``max_snapshots`` most recent), used once :meth:`add_snapshot` has given one.
    """

    def __init__(
        self,
        make_bot: Callable[[str, int | None], Bot],
        bots: Mapping[str, float],
        snapshot_weight: float = 0.0,
        max_snapshots: int = 5,
        snapshots: list[str] | None = None,
        seed: int | None = None,
        transform: Callable[[np.ndarray], np.ndarray] | None = None,
    ) -> None:
        self.transform = transform
        if any(w < 0 for w in bots.values()) or snapshot_weight < 0:
            raise ValueError("opponent weights must be >= 0")
        if sum(bots.values()) <= 0:
            raise ValueError(
                "the opponent pool needs at least one bot with a positive weight "
                "(snapshots only exist once training has run a while)"
            )
        self._make_bot = make_bot
        self._names = list(bots)
        self._weights = np.array([bots[n] for n in self._names], dtype=np.float64)
        self._bots = {name: make_bot(name, None) for name in self._names}
        self.snapshot_weight = float(snapshot_weight)
        self.max_snapshots = int(max_snapshots)
        self.snapshots: list[str] = []
        self._snapshot_bots: dict[str, PolicyBot] = {}
        for path in snapshots or []:
            self.add_snapshot(path)
        self.rng = np.random.default_rng(seed)

    def reset(self, seed: int | None = None) -> None:
        """Re-seed the sampling."""
        self.rng = np.random.default_rng(seed)

    def add_snapshot(self, path: str) -> None:
        """Make the model saved at ``path`` available as an opponent (oldest beyond the limit
        is dropped)."""
        path = str(path)
        if path in self.snapshots:
            return
        self.snapshots.append(path)
        self._snapshot_bots[path] = PolicyBot(path, transform=self.transform)
        while len(self.snapshots) > self.max_snapshots:
            dropped = self.snapshots.pop(0)
            del self._snapshot_bots[dropped]

    def sample(self) -> Bot:
        """One opponent for one seat of one episode, reset with a seed from the pool's rng."""
        use_snapshots = self.snapshots and self.snapshot_weight > 0
        weights = self._weights
        if use_snapshots:
            weights = np.append(weights, self.snapshot_weight)
        index = int(self.rng.choice(len(weights), p=weights / weights.sum()))
        if index < len(self._names):
            bot = self._bots[self._names[index]]
        else:
            bot = self._snapshot_bots[self.snapshots[int(self.rng.integers(len(self.snapshots)))]]
        bot.reset(int(self.rng.integers(2**31)))
        return bot
