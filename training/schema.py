"""The base of every config section (:mod:`.config`'s and a learner's own, such as Poker
Squares' :class:`~pokerzoo.training.games.poker_squares.td.TDConfig`): strict, unknown keys
forbidden, attribute docstrings as field descriptions, and the numbers YAML reads as strings.

It imports nothing of the package, so a learner module defines its section here, beside the
learner, without an import cycle; the learner names it (``ValueLearner.config``) in its game's
training hooks, where :mod:`.config` finds it (:func:`~.hooks.td_schema`).
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, BeforeValidator, ConfigDict

__all__ = ["ConfigError", "Number", "Section"]


class ConfigError(ValueError):
    """A config key is unknown or its value is bad; the message names the key's dotted path."""


def _number(value: Any) -> Any:
    """YAML reads ``3e-4`` (no dot) as a string: accept a numeric string where a number goes."""
    if isinstance(value, str):
        try:
            return float(value)
        except ValueError:
            return value
    return value


Number = Annotated[float, BeforeValidator(_number)]
"""A float that also accepts a numeric string (``"3e-4"``)."""


class Section(BaseModel):
    """A config section: strict types, no unknown keys, defaults validated too."""

    model_config = ConfigDict(
        extra="forbid", strict=True, use_attribute_docstrings=True, validate_default=True
    )
