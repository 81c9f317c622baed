"""Random draws in bulk that are, value for value, the draws of numpy's own calls.

A bot or a feature set that must stay exactly what it was (its decisions and features are
tested against their one-at-a-time versions, and trained weights depend on them) may still draw
faster: :func:`bounded_draws` reads the generator's raw bits once for what a loop of
``integers`` calls would draw, and leaves the generator where those calls would.

:func:`lowest` picks the cards that random keys draw first (the ``count`` lowest keys of a row,
lowest first, equal keys by position): the same on every CPU, where the order ``argpartition``
leaves its first entries in, or ``argsort`` leaves equal keys in, is its kernels' (numpy's
AVX-512, AVX2 and baseline kernels differ).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

import numpy as np

from . import jit

__all__ = ["bounded_draws", "bounded_draws_flat", "bounded_draws_many", "lowest"]


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
    flat, starts = bounded_draws_flat(rngs, counts, highs, rows)
    return [flat[starts[d] : starts[d + 1]].reshape(count, rows) for d, count in enumerate(counts)]


def bounded_draws_flat(
    rngs: Sequence[np.random.Generator], counts: Sequence[int], highs: Sequence[int], rows: int
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`bounded_draws_many`'s arrays flattened one after another: ``(draws, starts)``,
    ``int64``, generator ``d``'s ``(counts[d], rows)`` draws in C order at
    ``draws[starts[d]:starts[d + 1]]``.

    Each generator that its raw bits decide is read once (``random_raw``), and the draws of all
    of them are worked out in one pass: a compiled loop where numba is installed
    (:func:`pokerzoo.envs.core.compiled.lemire_draws`), numpy's arithmetic otherwise
    (:func:`_lemire_draws`); the same values either way (tested)."""
    starts = np.zeros(len(rngs) + 1, dtype=np.int64)
    np.cumsum([count * rows for count in counts], out=starts[1:])
    out = np.empty(int(starts[-1]), dtype=np.int64)
    raw: list[np.ndarray] = []
    read: list[tuple[int, dict[str, Any]]] = []
    for d, rng in enumerate(rngs):
        count, high = counts[d], highs[d]
        state = rng.bit_generator.state
        need = max(min(count, high - 1), 0) * rows  # a draw for each span above one value
        if _readable(rng, state, need, count, high, rows):
            raw.append(rng.bit_generator.random_raw(need // 2).view(np.uint32))
            read.append((d, state))
        else:
            out[starts[d] : starts[d + 1]] = _calls(rng, count, high, rows).reshape(-1)
    if read:
        which = [d for d, _ in read]
        args = (
            np.concatenate(raw),
            np.array([counts[d] for d in which], dtype=np.int64),
            np.array([highs[d] for d in which], dtype=np.int64),
            starts[which],
            rows,
            out,
        )
        if jit.available():
            from . import compiled

            rejected = compiled.lemire_draws(*args)
        else:
            rejected = _lemire_draws(*args)
        for k in np.flatnonzero(rejected):  # a draw numpy would take again
            d, state = read[k]
            rngs[d].bit_generator.state = state
            out[starts[d] : starts[d + 1]] = _calls(rngs[d], counts[d], highs[d], rows).reshape(-1)
    return out, starts


def _lemire_draws(
    raw: np.ndarray,
    counts: np.ndarray,
    highs: np.ndarray,
    starts: np.ndarray,
    rows: int,
    out: np.ndarray,
) -> np.ndarray:
    """The draws of generators read off their bits, into ``out``: generator ``k``'s draw ``i``
    (of ``counts[k]``, below ``highs[k]``) of row ``s`` at ``out[starts[k] + i * rows + s]``,
    ``i`` plus Lemire's ``(u * span) >> 32`` of its raw ``u`` (``span = highs[k] - i``; a span
    of one value draws nothing), the raws one generator after another, each draw's ``rows`` in
    a row. Returns whether each generator has a draw numpy would take again (its entries then
    mean nothing)."""
    drawn = np.maximum(np.minimum(counts, highs - 1), 0)
    spans = np.concatenate([high - np.arange(n) for high, n in zip(highs, drawn, strict=True)])
    n = spans.astype(np.uint64)[:, None]
    product = raw.reshape(-1, rows) * n
    bad = (product.astype(np.uint32) < ((2**32 - n) % n).astype(np.uint32)).any(axis=1)
    values = (product >> np.uint64(32)).view(np.int64)
    rejected = np.zeros(len(counts), dtype=bool)
    at = 0
    for k, (count, start) in enumerate(zip(counts, starts, strict=True)):
        stop = at + drawn[k]
        rejected[k] = bad[at:stop].any()
        block = out[start : start + count * rows].reshape(count, rows)
        block[: drawn[k]] = values[at:stop] + np.arange(drawn[k])[:, None]
        block[drawn[k] :] = np.arange(drawn[k], count)[:, None]
        at = stop
    return rejected


def lowest(keys: np.ndarray, count: int) -> np.ndarray:
    """The positions of the ``count`` lowest keys of each row (the last axis) of ``keys``,
    lowest first, equal keys by position: a stable ``argsort``'s first ``count`` entries
    (``int64``, ``keys.shape[:-1] + (count,)``), without sorting the rest. The cards random keys
    draw first (a key of 2.0 marking a card out of reach, past every random key below 1). Keys
    are not NaN.

    numpy: ``argpartition`` puts the ``count`` lowest first (in an order of its kernels'
    choosing) and those are sorted by key and position; a row whose next key equals the highest
    of them (equal keys across the cut, where the kernels may keep either) is sorted whole.
    Where numba is installed, rows of doubles by one compiled loop
    (:func:`pokerzoo.envs.core.compiled.lowest`): the same positions (tested)."""
    keys = np.asarray(keys)
    width = keys.shape[-1]
    if not 0 <= count <= width:
        raise ValueError(f"bad count {count!r}: expected 0 <= count <= {width} (keys per row)")
    if count == 0:
        return np.empty((*keys.shape[:-1], 0), dtype=np.int64)
    if count == width:
        return np.argsort(keys, axis=-1, kind="stable")
    if jit.available() and keys.dtype == np.float64 and keys.size:
        from . import compiled

        rows = np.ascontiguousarray(keys).reshape(-1, width)
        out = np.empty((rows.shape[0], count), dtype=np.int64)
        compiled.lowest(rows, out)
        return out.reshape(*keys.shape[:-1], count)
    parted = np.argpartition(keys, count, axis=-1)
    picks = parted[..., :count]
    values = np.take_along_axis(keys, picks, axis=-1)
    order = np.lexsort((picks, values), axis=-1)
    out = np.take_along_axis(picks, order, axis=-1)
    cut = np.take_along_axis(keys, parted[..., count : count + 1], axis=-1)[..., 0]
    tied = values.max(axis=-1) == cut
    if tied.any():
        out[tied] = np.argsort(keys[tied], axis=-1, kind="stable")[..., :count]
    return out
