"""Public alias of :mod:`pokerzoo.envs.core.hands` (five-card hand evaluation):
the module path RULES §6 and the README document."""

from .core.hands import (
    NUM_HAND_CLASSES,
    RULESETS,
    Category,
    Ruleset,
    categories,
    category_name,
    evaluate,
    hand_category,
    hand_classes,
    hand_key,
    make_classifier,
    make_evaluator,
    points_table,
    qualifies_low,
)

__all__ = [
    "NUM_HAND_CLASSES",
    "RULESETS",
    "Category",
    "Ruleset",
    "categories",
    "category_name",
    "evaluate",
    "hand_category",
    "hand_classes",
    "hand_key",
    "make_classifier",
    "make_evaluator",
    "points_table",
    "qualifies_low",
]
