"""Observation layouts: a game's flat observation vector described once, as named fields.

A game's observation module declares an :class:`ObservationLayout` of :class:`Field` s; the
layout gives each field's slice, the vector's size, dtype and bounds (what the envs' ``Box``
spaces are built from) and the index table that the env docstrings and the README show
(:meth:`ObservationLayout.table`), so the table is written once, next to the encoder.

>>> layout = ObservationLayout(
...     [Field("card", 18, 1, "the card to place"), Field("placed", 1, 25, "cards placed")]
... )
>>> layout["placed"], layout.size
(slice(18, 19, None), 19)
>>> print(layout.table())
| index | field | content |
|---|---|---|
| 0..17 | `card` | the card to place |
| 18 | `placed` | cards placed |
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from types import SimpleNamespace

import numpy as np

__all__ = ["Field", "ObservationLayout", "document", "markdown_table"]


@dataclass(frozen=True)
class Field:
    """``size`` consecutive entries named ``name``, each in ``low..high`` (``high`` may give one
    bound per entry), described by ``doc`` (Markdown, one line)."""

    name: str
    size: int
    high: float | Sequence[float]
    doc: str
    low: float = 0


class ObservationLayout:
    """Named fields laid end to end in one flat vector of ``dtype``."""

    def __init__(self, fields: Sequence[Field], dtype: type = np.uint8) -> None:
        names = [f.name for f in fields]
        if len(set(names)) != len(names):
            raise ValueError(f"duplicate field names in {names}")
        self.fields = tuple(fields)
        self.dtype = np.dtype(dtype)
        self._slices: dict[str, slice] = {}
        start = 0
        for f in self.fields:
            if f.size < 1:
                raise ValueError(f"field {f.name!r} has size {f.size}: expected >= 1")
            self._slices[f.name] = slice(start, start + f.size)
            start += f.size
        self.size = start
        high = np.concatenate([np.broadcast_to(np.asarray(f.high), f.size) for f in self.fields])
        low = np.concatenate([np.full(f.size, f.low) for f in self.fields])
        self.high = high.astype(self.dtype)
        self.low = low.astype(self.dtype)
        self.high.setflags(write=False)
        self.low.setflags(write=False)

    def __getitem__(self, name: str) -> slice:
        try:
            return self._slices[name]
        except KeyError:
            raise KeyError(f"no field {name!r}: the fields are {list(self._slices)}") from None

    def __contains__(self, name: object) -> bool:
        return name in self._slices

    def start(self, name: str) -> int:
        """Index of the first entry of field ``name``."""
        return self[name].start

    def starts(self) -> SimpleNamespace:
        """Each field's first index as an attribute named after the field, for an encoder that
        writes the vector at every step without looking names up (``starts().placed``).

        >>> ObservationLayout([Field("card", 18, 1, "-"), Field("placed", 1, 25, "-")]).starts()
        namespace(card=0, placed=18)
        """
        return SimpleNamespace(**{name: part.start for name, part in self._slices.items()})

    def zeros(self) -> np.ndarray:
        """An all-zero observation vector."""
        return np.zeros(self.size, dtype=self.dtype)

    def table(self) -> str:
        """The index table in Markdown: index range, field name, content."""
        rows = []
        for f in self.fields:
            part = self._slices[f.name]
            index = str(part.start) if f.size == 1 else f"{part.start}..{part.stop - 1}"
            rows.append((index, f"`{f.name}`", f.doc))
        return markdown_table(("index", "field", "content"), rows)

    def __repr__(self) -> str:
        return f"ObservationLayout({self.size} entries, {[f.name for f in self.fields]})"


def markdown_table(header: Sequence[str], rows: Iterable[Sequence[str]]) -> str:
    """A Markdown table (the observation and action tables of docstrings and the README)."""
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def document(obj: object, **tables: str) -> None:
    """Fill ``{name}`` placeholders in ``obj.__doc__`` with ``tables`` (written once, shown in
    every docstring that needs them). A placeholder stands alone on its line; the text is
    indented as that line is. Other braces in the docstring are left alone."""
    lines = (obj.__doc__ or "").split("\n")
    for name, text in tables.items():
        placeholder = "{" + name + "}"
        found = [i for i, line in enumerate(lines) if line.strip() == placeholder]
        if not found:
            raise ValueError(f"{obj!r} has no line {placeholder} in its docstring")
        for i in reversed(found):
            indent = lines[i][: len(lines[i]) - len(lines[i].lstrip())]
            lines[i : i + 1] = [indent + row for row in text.split("\n")]
    obj.__doc__ = "\n".join(lines)
