"""Quintet's training hooks (:mod:`.hooks`: the ``"packs"`` and ``"plans"`` features) and its
``"packs"`` action formulation (:mod:`.packs`: whole packs, then their order)."""

from .hooks import HOOKS

__all__ = ["HOOKS"]
