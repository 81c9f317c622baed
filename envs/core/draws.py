"""Random draws in bulk that are, value for value, the draws of numpy's own calls.

A bot or a feature set that must stay exactly what it was (its decisions and features are
tested against their one-at-a-time versions, and trained weights depend on them) may still draw
faster: :func:`bounded_draws` reads the generator's raw bits once for what a loop of
``integers`` calls would draw, and leaves the generator where those calls would.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

import numpy as np

__all__ = ["bounded_draws", "bounded_draws_many"]


def bounded_draws(rng: np.random.Generator, count: int, high: int, rows: int) -> np.ndarray:
    """``rng.integers(i, high, rows)`` for ``i`` in ``range(count)``, one call after the other
    (the draws of a partial Fisher-Yates shuffle): ``int64 (count, rows)``, value for value and
    leaving ``rng`` where those calls leave it, in one pass over the generator's raw bits.

    numpy's ``integers`` below 2**32 values is Lemire's multiply-and-shift on the 32-bit halves
    of its bit generator's 64-bit outputs, the low half first (``PCG64``'s buffered
    ``next_uint32``): a draw in ``[0, n)`` is ``(u * n) >> 32`` unless ``(u * n) mod 2**32 <
    (2**32 - n) mod n``, when it takes the next ``u`` instead (a chance below ``n / 2**32``),
    and a range of one value takes nothing. Where a draw would be taken again, or the
    generator is not a fresh-buffered ``PCG64`` on a little-endian machine, or the draws end on
    half a 64-bit output, or ``high`` needs more than 32 bits, the generator is put back (if it
    was read) and asked the calls themselves. Tested against ``integers``, a rejection
    included.
    """
    return bounded_draws_many([rng], [count], [high], rows)[0]


def _readable(
    rng: np.random.Generator, state: dict[str, Any], need: int, count: int, high: int, rows: int
) -> bool:
    """Whether ``need`` draws below ``high`` can be read off ``rng``'s raw bits (the docstring
    of :func:`bounded_draws`); otherwise the calls themselves are made."""
    return (
        type(rng.bit_generator) is np.random.PCG64
        and sys.byteorder == "little"
        and not state["has_uint32"]
        and need % 2 == 0
        and high < 2**32
        and count <= high
        and rows > 0
    )


def _calls(rng: np.random.Generator, count: int, high: int, rows: int) -> np.ndarray:
    """What :func:`bounded_draws` stands for, the calls themselves (numpy's errors included)."""
    draws = [rng.integers(i, high, rows) for i in range(count)]
    return np.array(draws, dtype=np.int64).reshape(count, rows)


def bounded_draws_many(
    rngs: Sequence[np.random.Generator], counts: Sequence[int], highs: Sequence[int], rows: int
) -> list[np.ndarray]:
    """:func:`bounded_draws` ``(rngs[d], counts[d], highs[d], rows)`` for each ``d``: each
    generator read once, the arithmetic of them all in one pass (the same values, each
    generator left where its own calls leave it)."""
    out: list[np.ndarray | None] = [None] * len(rngs)
    raw: list[np.ndarray] = []
    spans: list[np.ndarray] = []
    read: list[tuple[int, Any, np.ndarray]] = []
    for d, rng in enumerate(rngs):
        count, high = counts[d], highs[d]
        span = high - np.arange(count)
        drawn = span > 1
        state = rng.bit_generator.state
        need = int(drawn.sum()) * rows
        if not _readable(rng, state, need, count, high, rows):
            out[d] = _calls(rng, count, high, rows)
            continue
        raw.append(rng.bit_generator.random_raw(need // 2).view(np.uint32))
        spans.append(span[drawn])
        read.append((d, state, drawn))
    if read:
        n = np.concatenate(spans).astype(np.uint64)[:, None]
        product = np.concatenate(raw).reshape(-1, rows) * n
        rejected = (product.astype(np.uint32) < ((2**32 - n) % n).astype(np.uint32)).any(axis=1)
        values = (product >> np.uint64(32)).view(np.int64)
        at = 0
        for d, state, drawn in read:
            stop = at + int(drawn.sum())
            count = counts[d]
            if rejected[at:stop].any():  # a draw numpy would take again
                rngs[d].bit_generator.state = state
                out[d] = _calls(rngs[d], count, highs[d], rows)
            elif drawn.all():
                out[d] = values[at:stop] + np.arange(count)[:, None]
            else:
                mine = np.broadcast_to(np.arange(count)[:, None], (count, rows)).copy()
                mine[drawn] += values[at:stop]
                out[d] = mine
            at = stop
    return out  # type: ignore[return-value]
