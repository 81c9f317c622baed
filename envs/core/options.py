"""Validation of game options, reset seeds and reset options: one wording for every game.

Every check returns the value it accepted (normalised: a numpy int becomes an ``int``) and
raises :class:`ValueError` naming the option, the bad value and what was expected; an option a
constructor does not take at all raises :class:`~.errors.UnknownOptionError`, a ``TypeError``
(Python's convention for an unexpected keyword).

>>> check_int("num_players", 11, 2, 10)
Traceback (most recent call last):
...
ValueError: bad num_players 11: expected an int in 2..10
"""

from __future__ import annotations

import inspect
import re
import warnings
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any, TypeVar

import numpy as np

from .errors import UnknownOptionError

__all__ = [
    "build",
    "check_bool",
    "check_choice",
    "check_int",
    "check_reset_options",
    "check_seed",
]

T = TypeVar("T")


def _is_int(value: object) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def check_int(name: str, value: object, low: int | None = None, high: int | None = None) -> int:
    """``value`` as an ``int`` in ``low..high`` (either end may be open)."""
    if type(value) is int and (low is None or value >= low) and (high is None or value <= high):
        return value  # the common case, without building the message a bad value gets
    if low is not None and high is not None:
        expected = f"an int in {low}..{high}"
    elif low is not None:
        expected = f"an int >= {low}"
    elif high is not None:
        expected = f"an int <= {high}"
    else:
        expected = "an int"
    if not _is_int(value):
        raise ValueError(f"bad {name} {value!r}: expected {expected}")
    number = int(value)  # type: ignore[call-overload]
    if (low is not None and number < low) or (high is not None and number > high):
        raise ValueError(f"bad {name} {value!r}: expected {expected}")
    return number


def check_bool(name: str, value: object) -> bool:
    """``value`` if it is ``True`` or ``False`` (numpy bools included)."""
    if not isinstance(value, (bool, np.bool_)):
        raise ValueError(f"bad {name} {value!r}: expected True or False")
    return bool(value)


def check_choice(name: str, value: T, choices: Collection[T]) -> T:
    """``value`` if it is one of ``choices``."""
    try:
        ok = value in choices
    except TypeError:  # an unhashable value asked of a set
        ok = False
    if not ok:
        expected = ", ".join(repr(c) for c in choices)
        raise ValueError(f"bad {name} {value!r}: expected one of {expected}")
    return value


def check_seed(seed: object) -> int | None:
    """A reset seed: ``None`` (fresh entropy) or an int >= 0."""
    if seed is None:
        return None
    if not _is_int(seed) or int(seed) < 0:  # type: ignore[call-overload]
        raise ValueError(f"bad seed {seed!r}: expected None or an int >= 0")
    return int(seed)  # type: ignore[call-overload]


def check_reset_options(options: object, allowed: Collection[str]) -> dict[str, Any]:
    """``reset(options=...)`` as a dict of the keys in ``allowed``.

    ``None`` is an empty dict. An unknown key is ignored with a :class:`UserWarning` naming it
    and the accepted keys (Gymnasium's convention: a wrapper or a checker may pass options an
    env does not know, such as PettingZoo's ``api_test`` probe ``{"options": 1}``); a value of a
    known key is the game's to check. Anything but a mapping is an error.
    """
    if options is None:
        return {}
    if not isinstance(options, Mapping):
        raise ValueError(f"bad reset options {options!r}: expected a dict or None")
    unknown = sorted(str(key) for key in options if key not in allowed)
    if unknown:
        accepted = ", ".join(repr(key) for key in allowed) or "none"
        warnings.warn(
            f"unknown reset options {unknown} ignored: accepted keys are {accepted}",
            UserWarning,
            stacklevel=3,
        )
    return {key: value for key, value in options.items() if key in allowed}


def build(
    factory: Callable[..., T],
    options: Mapping[str, Any],
    what: str,
    also: Sequence[str] = (),
) -> T:
    """``factory(**options)``; an option it does not take raises
    :class:`~.errors.UnknownOptionError` (a ``TypeError``) naming the option and the accepted
    ones: the factory's parameters and ``also``, the keywords the caller itself takes."""
    parameters = inspect.signature(factory).parameters.values()
    named = [p.name for p in parameters if p.kind not in (p.VAR_KEYWORD, p.VAR_POSITIONAL)]
    takes_any = any(p.kind is p.VAR_KEYWORD for p in parameters)
    if not takes_any:
        for key in options:
            if key not in named:
                raise UnknownOptionError.naming(str(key), [*also, *named], what)
    try:
        return factory(**options)
    except UnknownOptionError as error:  # from a factory that passes **options on
        accepted = dict.fromkeys([*also, *named, *error.accepted])
        raise UnknownOptionError.naming(error.option, list(accepted), what) from None
    except TypeError as error:
        match = re.search(r"unexpected keyword argument '(\w+)'", str(error))
        if match is None:
            raise
        raise UnknownOptionError.naming(match.group(1), [*also, *named], what) from None
