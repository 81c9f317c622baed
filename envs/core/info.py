"""Info schemas: what a game's ``info`` holds, declared once, with one type and shape per key.

Learning libraries stack infos step by step into arrays (tianshou's ``Batch``, torchrl's
tensordicts), so every pokerzoo PettingZoo env gives each agent an info with **the same string
keys, of the same types and shapes, at every step of an episode**: a result that exists only
once a hand or the game is over (a winner, final points, a showdown) is present from the first
step with a documented neutral value (``-1`` for "no seat", zeros, ``False``). A game's engine
declares its :class:`InfoSchema` (``info_schema``, built for its options: shapes may depend on
the number of seats) and fills it (``info(state, player)``); the schema's :meth:`~InfoSchema.table`
is the info table of the env docstrings, and :meth:`~InfoSchema.check` is what the conformance
tests hold every info to.

>>> schema = InfoSchema([InfoKey("winner", "int", (), "the winning seat; -1 until the end")])
>>> schema.check({"winner": -1})
>>> print(schema.table())
| key | type | content |
|---|---|---|
| `winner` | int | the winning seat; -1 until the end |
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .observation import markdown_table

__all__ = ["InfoKey", "InfoSchema", "SettledInfo", "info_value", "settled"]

_SCALARS = {"int": (int, np.integer), "float": (float, np.floating), "bool": (bool, np.bool_)}
"""What a scalar key may hold: an engine may return Python numbers; the envs hand out numpy
scalars (``np.int64``, ``np.float64``, ``np.bool_``), which torchrl's info specs need."""
_ARRAYS = {"int": np.signedinteger, "float": np.floating, "bool": np.bool_}


@dataclass(frozen=True)
class InfoKey:
    """One info entry: ``kind`` is ``"int"``, ``"float"`` or ``"bool"``; ``shape`` is ``()``
    for a Python scalar, else the shape of a numpy array of that kind; ``doc`` says what it
    holds and its neutral value (Markdown, one line)."""

    key: str
    kind: str
    shape: tuple[int, ...]
    doc: str

    def __post_init__(self) -> None:
        if self.kind not in _SCALARS:
            raise ValueError(f"bad kind {self.kind!r} for {self.key}: expected int, float, bool")

    @property
    def type_name(self) -> str:
        if not self.shape:
            return self.kind
        return f"{self.kind} array {self.shape}".replace(",)", ")")


class InfoSchema:
    """The keys of one env's info (see the module docstring)."""

    def __init__(self, keys: Sequence[InfoKey]) -> None:
        names = [k.key for k in keys]
        if len(set(names)) != len(names):
            raise ValueError(f"duplicate info keys in {names}")
        self.keys = tuple(keys)

    def __iter__(self):  # noqa: ANN204 - an iterator of InfoKey
        return iter(self.keys)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(k.key for k in self.keys)

    def table(self) -> str:
        """The info table in Markdown: key, type, content."""
        rows = [(f"`{k.key}`", k.type_name, k.doc) for k in self.keys]
        return markdown_table(("key", "type", "content"), rows)

    def check(self, info: Mapping[str, object]) -> None:
        """Raise ``ValueError`` unless ``info`` holds exactly these keys, each of its kind and
        shape (the contract the conformance tests hold every step to)."""
        if set(info) != set(self.names):
            extra, missing = (
                sorted(set(info) - set(self.names)),
                sorted(set(self.names) - set(info)),
            )
            raise ValueError(f"info keys differ from the schema: extra {extra}, missing {missing}")
        for k in self.keys:
            value = info[k.key]
            if not k.shape:
                ok = isinstance(value, _SCALARS[k.kind]) and not (
                    k.kind != "bool" and isinstance(value, (bool, np.bool_))
                )
            else:
                ok = (
                    isinstance(value, np.ndarray)
                    and value.shape == k.shape
                    and np.issubdtype(value.dtype, _ARRAYS[k.kind])
                )
            if not ok:
                shape = getattr(value, "shape", None)
                raise ValueError(
                    f"info[{k.key!r}] is {type(value).__name__} {value!r} (shape {shape}): "
                    f"expected {k.type_name}"
                )


def info_value(value: Any) -> Any:
    """An info value as the envs hand it out: a Python int, bool or float as a numpy scalar
    (what torchrl's info specs read), an array made read-only (an env shares an info's arrays
    between steps until the next payout, so nobody may write to them)."""
    kind = type(value)
    if kind is np.ndarray:
        value.setflags(write=False)
        return value
    if kind is bool:
        return np.bool_(value)
    if kind is int:
        return np.int64(value)
    if kind is float:
        return np.float64(value)
    return value


class SettledInfo(dict[str, Any]):
    """An engine's info that is already what the envs hand out (:func:`info_value` of every
    value): an engine that keeps one per settled hand returns it as is, and the envs use it
    without a second pass over its keys. Build with :func:`settled`."""


def settled(info: Mapping[str, Any]) -> SettledInfo:
    """``info`` as a :class:`SettledInfo`: numpy scalars and read-only arrays (``info`` itself
    when it is one already).

    >>> out = settled({"hand": 1, "won": np.zeros(2, dtype=bool)})
    >>> type(out["hand"]).__name__, out["won"].flags.writeable
    ('int64', False)
    """
    if type(info) is SettledInfo:
        return info
    return SettledInfo({key: info_value(value) for key, value in info.items()})
