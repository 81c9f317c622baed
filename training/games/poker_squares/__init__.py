"""Poker Squares' training hooks (:mod:`.hooks`: the ``"lines"`` features) and its own learner,
the line-pattern afterstate values (:mod:`.td`, over the patterns of :mod:`.lines`) with its
config section (:class:`.td.TDConfig`, the run config's ``td:``)."""

from .hooks import HOOKS

__all__ = ["HOOKS"]
