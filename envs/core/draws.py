"""Random draws in bulk that are, value for value, the draws of numpy's own calls.

A bot or a feature set that must stay exactly what it was (its decisions and features are
tested against their one-at-a-time versions, and trained weights depend on them) may still draw
faster: :func:`bounded_draws` reads the generator's raw bits once for what a loop of
``integers`` calls would draw, and leaves the generator where those calls would.
"""

from __future__ import annotations

import sys

import numpy as np

__all__ = ["bounded_draws"]


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
    lows = np.arange(count)
    spans = high - lows  # each call's n; 1: numpy returns the low without drawing
    drawn = spans > 1
    state = rng.bit_generator.state
    need = int(drawn.sum()) * rows
    if (
        type(rng.bit_generator) is not np.random.PCG64
        or sys.byteorder != "little"
        or state["has_uint32"]
        or need % 2
        or high >= 2**32
        or count > high
    ):
        return _calls(rng, count, high, rows)
    halves = rng.bit_generator.random_raw(need // 2).view(np.uint32).reshape(-1, rows)
    n = spans[drawn].astype(np.uint64)[:, None]
    product = halves * n
    threshold = ((2**32 - n) % n).astype(np.uint32)
    if (product.astype(np.uint32) < threshold).any():  # a draw numpy would take again
        rng.bit_generator.state = state
        return _calls(rng, count, high, rows)
    values = (product >> np.uint64(32)).view(np.int64)
    if drawn.all():
        return values + lows[:, None]
    out = np.broadcast_to(lows[:, None], (count, rows)).copy()
    out[drawn] += values
    return out


def _calls(rng: np.random.Generator, count: int, high: int, rows: int) -> np.ndarray:
    """What :func:`bounded_draws` stands for, the calls themselves (numpy's errors included)."""
    draws = [rng.integers(i, high, rows) for i in range(count)]
    return np.array(draws, dtype=np.int64).reshape(count, rows)
