"""Poker without a name's training hooks (:mod:`.hooks`): the ``"reach"`` features
(:mod:`.reach`), built on the trick counts of :mod:`.features` and the Monte-Carlo odds of
:mod:`.odds`, and the rule over them."""

from .hooks import HOOKS

__all__ = ["HOOKS"]
