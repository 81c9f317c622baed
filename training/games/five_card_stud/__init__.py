"""Five-card stud's training hooks (:mod:`.hooks`: the ``"equity"`` features and their rule)."""

from .hooks import HOOKS

__all__ = ["HOOKS"]
