"""The core's loops compiled with numba, where numba is installed (:mod:`.jit`): each stands
for numpy code of its caller, which calls it where :func:`.jit.available` and gives the same
values either way (tests run both).

:func:`lemire_draws` is :func:`.draws._lemire_draws`, the arithmetic of
:func:`~.draws.bounded_draws_flat`: numpy's bounded draws worked out from the raw bits of the
generators read, one loop over the draws where numpy makes a dozen passes over arrays of them.
:func:`hand_keys` and :func:`draw_keys` are :func:`.hands.evaluate`'s and
:func:`.hands.evaluate_draws`' reading of the evaluator's tables, one hand at a time.
:func:`pairwise_sum` adds a row of doubles as numpy's ``sum`` does (the same double), for the
compiled loops whose means must be numpy's to the bit (five-card stud's and draw poker's
features, poker without a name's deal counts). :func:`partial_shuffles` is draw poker's equity
bot's shuffles (and five-card stud's features' deals), and :func:`lowest` is
:func:`.draws.lowest`'s pick of the cards random keys draw first.

Importing this module compiles nothing: the first call in a process compiles a loop (a second
or so, once per install) or loads it from numba's cache.
"""

from __future__ import annotations

import numpy as np

from . import jit

__all__ = [
    "block_sum",
    "draw_keys",
    "hand_keys",
    "lemire_draws",
    "lowest",
    "pairwise_sum",
    "partial_shuffles",
]


@jit.jit
def lemire_draws(
    raw: np.ndarray,
    counts: np.ndarray,
    highs: np.ndarray,
    starts: np.ndarray,
    rows: int,
    out: np.ndarray,
) -> np.ndarray:
    """:func:`pokerzoo.envs.core.draws._lemire_draws`: the same entries of ``out`` and the same
    verdicts (a generator with a draw numpy would take again)."""
    rejected = np.zeros(counts.shape[0], dtype=np.bool_)
    at = 0
    for k in range(counts.shape[0]):
        high = highs[k]
        for i in range(counts[k]):
            span = high - i
            base = starts[k] + i * rows
            if span <= 1:  # one value left: numpy draws nothing
                for s in range(rows):
                    out[base + s] = i
                continue
            threshold = np.uint64((4294967296 - span) % span)
            for s in range(rows):
                product = np.uint64(raw[at]) * np.uint64(span)
                at += 1
                if (product & np.uint64(0xFFFFFFFF)) < threshold:
                    rejected[k] = True
                out[base + s] = np.int64(product >> np.uint64(32)) + i
    return rejected


@jit.jit
def draw_keys(
    hands: np.ndarray,
    drawn: np.ndarray,
    keep: np.ndarray,
    thrown: np.ndarray,
    weights: np.ndarray,
    nibbles: np.ndarray,
    tables: tuple,
) -> np.ndarray:
    """:func:`pokerzoo.envs.core.hands.evaluate_draws`' keys of checked ids: hand ``v`` keeps
    ``hands[v]``'s cards where ``keep[o]`` says and draws ``drawn[v, s, :thrown[o]]``; its
    card ``weights`` and suit ``nibbles`` are summed and read in ``tables`` (whether the suits
    count, then the evaluator's tables: ``hands._loop_tables``) as
    :func:`~pokerzoo.envs.core.hands.evaluate` reads them: the same keys, ``int64 (V, S, O)``."""
    suits, section_offset, sparse_to_class, key, shift, mul, flush_mul, priority = tables
    views, samples = drawn.shape[0], drawn.shape[1]
    options = keep.shape[0]
    depth = 0
    for o in range(options):
        depth = max(depth, thrown[o])
    out = np.empty((views, samples, options), dtype=np.int64)
    kept = np.zeros(options, dtype=np.int64)
    kept_suits = np.zeros(options, dtype=np.int64)
    running = np.zeros(depth + 1, dtype=np.int64)
    running_suits = np.zeros(depth + 1, dtype=np.int64)
    for v in range(views):
        for o in range(options):
            kept[o] = 0
            kept_suits[o] = 0
            for c in range(5):
                if keep[o, c]:
                    kept[o] += weights[hands[v, c]]
                    kept_suits[o] += nibbles[hands[v, c]]
        for s in range(samples):
            for k in range(depth):
                running[k + 1] = running[k] + weights[drawn[v, s, k]]
                running_suits[k + 1] = running_suits[k] + nibbles[drawn[v, s, k]]
            for o in range(options):
                total = kept[o] + running[thrown[o]]
                field = total >> 20
                cls = sparse_to_class[(total & 1048575) + section_offset[field]]
                found = key[cls]
                if suits:
                    nibble = ((kept_suits[o] + running_suits[thrown[o]]) >> shift[cls]) & 15
                    found += nibble * mul[cls] + flush_mul[cls] * priority[field]
                out[v, s, o] = found
    return out


@jit.jit
def hand_keys(
    hands: np.ndarray,
    weights: np.ndarray,
    nibbles: np.ndarray,
    tables: tuple,
    out: np.ndarray,
) -> int:
    """:func:`pokerzoo.envs.core.hands.evaluate`'s keys of ``hands`` (``(N, 5)``) into ``out``:
    each hand's card ``weights`` and suit ``nibbles`` summed and read in ``tables`` (as
    :func:`draw_keys` reads them; its loop is written out here, where a call would cost the
    loop three quarters of its speed). Returns -1, or the first row holding a card id
    out of range or a card the ruleset rejects (its weight overflows the suit field), where it
    stops."""
    suits, section_offset, sparse_to_class, key, shift, mul, flush_mul, priority = tables
    for i in range(hands.shape[0]):
        total = 0
        suit_sum = 0
        for c in range(5):
            card = hands[i, c]
            if card < 0 or card >= weights.shape[0]:
                return i
            total += weights[card]
            suit_sum += nibbles[card]
        field = total >> 20
        if field >= section_offset.shape[0]:  # beyond the sections: a rejected card
            return i
        cls = sparse_to_class[(total & 1048575) + section_offset[field]]
        found = key[cls]
        if suits:
            found += ((suit_sum >> shift[cls]) & 15) * mul[cls] + flush_mul[cls] * priority[field]
        out[i] = found
    return -1


@jit.jit
def block_sum(terms: np.ndarray, start: int, n: int) -> float:
    """``terms[start:start + n].sum()`` for ``n <= 128``, as numpy adds such a row: in order
    under 8 terms, else eight running sums, paired, then the rest in order."""
    if n < 8:
        total = -0.0
        for i in range(start, start + n):
            total += terms[i]
        return total
    r0, r1, r2, r3 = terms[start], terms[start + 1], terms[start + 2], terms[start + 3]
    r4, r5, r6, r7 = terms[start + 4], terms[start + 5], terms[start + 6], terms[start + 7]
    i = 8
    while i < n - n % 8:
        r0 += terms[start + i]
        r1 += terms[start + i + 1]
        r2 += terms[start + i + 2]
        r3 += terms[start + i + 3]
        r4 += terms[start + i + 4]
        r5 += terms[start + i + 5]
        r6 += terms[start + i + 6]
        r7 += terms[start + i + 7]
        i += 8
    total = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
    while i < n:
        total += terms[start + i]
        i += 1
    return total


@jit.jit
def pairwise_sum(terms: np.ndarray) -> float:
    """``terms.sum()`` as numpy adds a contiguous row of doubles: rows of up to 128 terms by
    :func:`block_sum`, longer ones split in two (the first part a multiple of 8 terms) and the
    parts' sums added. A loop over a stack of parts, not a recursion: numba's cache does not
    load recursive functions safely."""
    starts = np.empty(64, dtype=np.int64)
    sizes = np.empty(64, dtype=np.int64)
    stages = np.empty(64, dtype=np.int64)  # 0: split it, 1: its second half next, 2: add them
    sums = np.empty(64)
    top, kept = 0, 0
    starts[0], sizes[0], stages[0] = 0, terms.shape[0], 0
    while top >= 0:
        start, n = starts[top], sizes[top]
        half = n // 2 - (n // 2) % 8
        if n <= 128:
            sums[kept] = block_sum(terms, start, n)
            kept += 1
            top -= 1
        elif stages[top] == 0:
            stages[top] = 1
            top += 1
            starts[top], sizes[top], stages[top] = start, half, 0
        elif stages[top] == 1:
            stages[top] = 2
            top += 1
            starts[top], sizes[top], stages[top] = start + half, n - half, 0
        else:
            kept -= 1
            sums[kept - 1] = sums[kept - 1] + sums[kept]
            top -= 1
    return sums[0]


@jit.jit
def partial_shuffles(
    unseen: np.ndarray,
    unseen_start: np.ndarray,
    picks: np.ndarray,
    picks_start: np.ndarray,
    steps: np.ndarray,
    rows: np.ndarray,
    out: np.ndarray,
    out_start: np.ndarray,
) -> None:
    """Partial Fisher-Yates shuffles of many decks: deck ``d`` (``unseen[unseen_start[d]:
    unseen_start[d + 1]]``) is dealt ``rows[d]`` times, step ``i`` of row ``r`` swapping card
    ``i`` with card ``picks[picks_start[d] + i * rows[d] + r]`` (``i`` or after); the first
    ``steps[d]`` cards of each row go to ``out[out_start[d]:]``, ``(rows[d], steps[d])`` in C
    order. Each row's swaps are undone after it, so every row starts from the deck in order."""
    deck = np.empty(unseen.shape[0], dtype=np.int64)
    for d in range(steps.shape[0]):
        begin = unseen_start[d]
        for c in range(unseen_start[d + 1] - begin):
            deck[c] = unseen[begin + c]
        count, many = steps[d], rows[d]
        for r in range(many):
            for i in range(count):
                j = picks[picks_start[d] + i * many + r]
                card = deck[j]
                deck[j] = deck[i]
                deck[i] = card
                out[out_start[d] + r * count + i] = card
            for i in range(count - 1, -1, -1):
                j = picks[picks_start[d] + i * many + r]
                card = deck[j]
                deck[j] = deck[i]
                deck[i] = card


@jit.jit
def lowest(keys: np.ndarray, out: np.ndarray) -> None:
    """:func:`pokerzoo.envs.core.draws.lowest` of the rows of ``keys`` (``(N, M)`` doubles,
    ``M >= count``): ``out[r]`` (``(N, count)``) the positions of row ``r``'s ``count`` lowest
    keys, lowest first, equal keys by position.

    A row's keys below a bar (a quarter above the previous row's ``count``-th lowest, doubled
    until ``count`` keys are below it) are listed in one pass without branches: its ``count``
    lowest keys (and every key equal to the last of them) are among them, and they are sorted
    into place by insertion (a key goes after the keys equal to it, read before it). A row
    without a bar that works (the first, keys not above 0) is sorted into place whole."""
    count, width = out.shape[1], keys.shape[1]
    values = np.empty(count)
    below = np.empty(width, dtype=np.int64)
    bar = np.inf
    for r in range(keys.shape[0]):
        while True:
            listed = 0
            for c in range(width):  # every index written, the count moved past the keys below
                below[listed] = c
                listed += keys[r, c] < bar
            if listed >= count:
                break
            if bar > 0.0 and bar < 1e300:
                bar *= 2.0
                continue
            for c in range(width):  # every key
                below[c] = c
            listed = width
            break
        filled = 0
        for k in range(listed):
            c = below[k]
            key = keys[r, c]
            if filled == count:
                if not key < values[count - 1]:
                    continue
                at = count - 1
            else:
                at = filled
                filled += 1
            while at > 0 and key < values[at - 1]:
                values[at] = values[at - 1]
                out[r, at] = out[r, at - 1]
                at -= 1
            values[at] = key
            out[r, at] = c
        last = values[count - 1]
        bar = 1.25 * last if last > 0.0 else np.inf
