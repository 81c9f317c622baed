"""Play-outs of poker without a name compiled with numba, where numba is installed
(:mod:`pokerzoo.envs.core.jit`): the cards of :func:`~.playout.play_out`, world after world, on
the arrays of :class:`~.playout.Worlds`.

:meth:`Worlds.play_out <.playout.Worlds.play_out>` calls :func:`play_out_worlds` where
:func:`pokerzoo.envs.core.jit.available` (importing this module imports numba), and steps the worlds
with numpy otherwise: the same cards either way (a test plays both, and :func:`~.playout.play_out`,
on thousands of worlds). Each world is played to its end by one loop of machine code, a few hundred
nanoseconds a world against 5-16 µs with numpy over the worlds or in Python one world at a time, so
with numba the Monte-Carlo bot and the features play every batch of worlds, however small, this way
(:func:`~.playout.batch_worlds`).

:func:`deal_ways` builds the deal counts of :class:`~.sampling.DealCounts` (the exact draws of
the Monte-Carlo deals) with :func:`one_seat`, their seat step, and :func:`count_options` gives a
group's weighted options, as :mod:`.sampling`'s numpy code does: the same sums and products in
the same order, so the same doubles (tested on every void position of three games and on random
arrays), 2-5x faster than numpy's slices and small arrays. :func:`draw_deals` is
:func:`~.sampling.deals_unseen`'s loop over the samples (the shuffled tries and the exact draws):
numba's ``Generator.random`` and ``Generator.permutation`` draw what numpy's do from the same
state, so it draws the same deals and leaves the generator as the Python loop does (tested on
every void position of three games).

The play here restates :func:`~.playout.play_out`'s helpers (``_lead``, ``_weakest``,
``_strongest``, the follow rules) in the dialect numba compiles: ``int64`` masks and bit
helpers of its own where the Python code calls ``int.bit_length`` and ``int.bit_count``, which
numba lacks and which keep the Python play-out fast where numba is not installed. The tests
hold the two to the same cards. The masks are ``int64`` here (the bits of the 52 natural
cards, as ``uint64`` in :class:`~.playout.Worlds`, read through a view): numba sums ``uint64``
and ``int64`` as floats.

Importing this module compiles nothing: the first call of a loop in a process compiles it
(about 15 s for all of them, once per install), or loads it from numba's cache beside this file
(:func:`pokerzoo.envs.core.jit.jit`; about 0.3 s for all of them).
"""

from __future__ import annotations

import math

import numpy as np

from ..core import jit
from ..core.cards import JOKER
from ..core.compiled import pairwise_sum
from .deals import MAXIMUM, MINIMUM, NO_TRUMP, NUM_PLAYERS

__all__ = ["count_options", "deal_ways", "draw_deals", "one_seat", "play_out_worlds"]

_SUIT0 = sum(1 << (4 * rank) for rank in range(13))  # suit 0's 13 cards; suit s: << s
_ACES = sum(1 << (48 + s) for s in range(4))
_KINGS_UP = sum(1 << c for c in range(44, 52))


@jit.jit
def _bit_length(mask: int) -> int:
    """``int.bit_length`` of a mask under 2**53 (the double's exponent)."""
    if mask == 0:
        return 0
    return math.frexp(float(mask))[1]


@jit.jit
def _lowest(mask: int) -> int:
    """The index of the lowest set bit (``mask`` not empty)."""
    return _bit_length(mask & -mask) - 1


@jit.jit
def _bit_count(mask: int) -> int:
    count = 0
    while mask:
        mask &= mask - 1
        count += 1
    return count


@jit.jit
def _suit(s: int) -> int:
    """The bits of suit ``s``'s natural cards (none for ``NO_TRUMP``)."""
    if s < 0:
        return 0
    return _SUIT0 << s


@jit.jit
def _weakest(mask: int, trumps: int) -> int:
    side = mask & ~trumps
    if side:
        return _lowest(side)
    if mask:
        return _lowest(mask)
    return JOKER


@jit.jit
def _strongest(mask: int, jokers: int, trumps: int) -> int:
    if jokers:
        return JOKER
    high = mask & trumps
    if high:
        return _bit_length(high) - 1
    base = ((_bit_length(mask) - 1) >> 2) << 2
    block = (mask >> base) & 15
    return base + _lowest(block)


@jit.jit
def _lead(mask: int, held: int, trumps: int, trump: int, want: bool, gone: int) -> tuple[int, int]:
    """:func:`~.playout._lead`: the card led and the suit named (``NO_TRUMP``: none)."""
    if not want:
        if mask:
            return _weakest(mask, trumps), NO_TRUMP
        return JOKER, 0
    own_trumps = mask & trumps
    if held and own_trumps and 13 - _bit_count(own_trumps) - gone > 0:
        return JOKER, trump
    top = mask & (_ACES | (trumps & _KINGS_UP))
    if top:
        return _strongest(top, 0, trumps), NO_TRUMP
    if held:
        if trump != NO_TRUMP:
            return JOKER, trump
        if not mask:
            return JOKER, 0
        return JOKER, _strongest(mask, 0, 0) & 3
    return _strongest(mask, 0, trumps), NO_TRUMP


@jit.jit
def _follow(
    mask: int,
    held: int,
    trumps: int,
    trump: int,
    want: bool,
    lead: int,
    called: int,
    top: int,
    last: bool,
) -> int:
    """:func:`~.playout.play_out`'s following card: the follow rules, then the rules policy's
    choice among the legal cards."""
    legal, wild = mask, held
    if lead == JOKER:
        natural = mask & _suit(called)
        if natural:
            legal, wild = 1 << (_bit_length(natural) - 1), 0
        elif mask & trumps or (held and trumps):
            legal = mask & trumps
    elif lead & 3 == trump:
        if mask & trumps or held:
            legal = mask & trumps
    else:
        following = mask & _suit(lead & 3)
        if following:
            legal, wild = following, 0
        elif mask & trumps or (held and trumps):
            legal = mask & trumps
    if _bit_count(legal) + wild == 1:
        return JOKER if wild else _bit_length(legal) - 1
    if top == JOKER:
        winning = 0
    else:
        winning = legal & _suit(top & 3) & ~((1 << (top + 1)) - 1)
        if top & 3 != trump:
            winning |= legal & trumps
    if want:
        if not winning and not wild:
            return _weakest(legal, trumps)
        if last:
            return _weakest(winning, trumps)
        if winning:
            return _strongest(winning, 0, trumps)
        return JOKER
    losing = legal & ~winning
    if losing:
        return _strongest(losing, 0, trumps)
    if last:
        return _strongest(legal, wild, trumps)
    return _weakest(legal, trumps)


@jit.jit
def play_out_worlds(
    masks: np.ndarray,
    jokers: np.ndarray,
    bids: np.ndarray,
    tricks: np.ndarray,
    leader: np.ndarray,
    called: np.ndarray,
    gone: np.ndarray,
    played: np.ndarray,
    lead: np.ndarray,
    top: np.ndarray,
    top_at: np.ndarray,
    trump: np.ndarray,
    kind: np.ndarray,
    wants: np.ndarray,
    trick_only: bool,
) -> None:
    """Every world of :class:`~.playout.Worlds`' arrays (``masks`` as ``int64``) played to its
    end, or to the end of the trick on the table (``trick_only``), in place."""
    for w in range(trump.shape[0]):
        suit = trump[w]
        trumps = _suit(suit)
        no_bids = kind[w] == MAXIMUM or kind[w] == MINIMUM
        maximum = kind[w] == MAXIMUM
        now, first, named, best, best_at = played[w], leader[w], called[w], top[w], top_at[w]
        led, out = lead[w], gone[w]
        while True:
            seat = (first + now) % NUM_PLAYERS
            mask, held = masks[w, seat], jokers[w, seat]
            if (mask == 0 and held == 0) or (trick_only and now == 0):
                break
            if seat == 0 and wants[w] >= 0:
                want = wants[w] == 1
            elif no_bids:
                want = maximum
            else:
                want = tricks[w, seat] < bids[w, seat]
            if now == 0:
                card, named = _lead(mask, held, trumps, suit, want, out)
                led = card
            else:
                card = _follow(
                    mask, held, trumps, suit, want, led, named, best, now == NUM_PLAYERS - 1
                )
            if card == JOKER:
                jokers[w, seat] = held - 1
            else:
                masks[w, seat] = mask ^ (1 << card)
                if card & 3 == suit:
                    out += 1
            if (
                now == 0
                or card == JOKER
                or (best != JOKER and (card > best if card & 3 == best & 3 else card & 3 == suit))
            ):  # the card takes the trick so far
                best, best_at = card, now
            if now == NUM_PLAYERS - 1:
                first = (first + best_at) % NUM_PLAYERS
                tricks[w, first] += 1
                now, named = 0, NO_TRUMP
            else:
                now += 1
        played[w], leader[w], called[w], top[w], top_at[w] = now, first, named, best, best_at
        lead[w], gone[w] = led, out


@jit.jit
def one_seat(ways: np.ndarray, most: int, inverse_factorial: np.ndarray) -> np.ndarray:
    """:func:`~.sampling._one_seat` on ``ways`` seen as ``(before, axis, after, cards)``:
    ``out[a, p, b, t] = ways[a, p, b, t] + sum_x ways[a, p - x, b, t - x] / x!``, the terms
    added in the order ``x = 1, 2, ...`` as numpy's slices add them (the same doubles)."""
    out = np.empty_like(ways)
    for a in range(ways.shape[0]):
        for p in range(ways.shape[1]):
            for b in range(ways.shape[2]):
                for t in range(ways.shape[3]):
                    total = ways[a, p, b, t]
                    for x in range(1, min(most, p, t) + 1):
                        total += ways[a, p - x, b, t - x] * inverse_factorial[x]
                    out[a, p, b, t] = total
    return out


@jit.jit
def count_options(
    ways: np.ndarray,
    strides: np.ndarray,
    places: np.ndarray,
    axes: np.ndarray,
    cards: int,
    inverse_factorial: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """:meth:`~.sampling.DealCounts._count_options` on the next group's ``ways`` (flat, with
    its ``strides`` in items): every count ``x`` its open seats (``axes``) may take, in the
    order of ``numpy.indices``, weighted ``ways[places - x] * (1/x_0! * 1/x_1! * ...) * 1 /
    (cards - sum x)!`` (numpy's order of products), those of weight 0 left out; the cumulative
    weights (summed in order) and the counts."""
    seats = axes.shape[0]
    ranges = np.empty(seats, dtype=np.int64)
    total = 1
    for i in range(seats):
        ranges[i] = min(places[axes[i]], cards) + 1
        total *= ranges[i]
    cumulative = np.empty(total)
    counts = np.empty((total, seats), dtype=np.int64)
    x = np.zeros(seats, dtype=np.int64)
    kept = 0
    running = 0.0
    for _ in range(total):
        taken = 0
        for i in range(seats):
            taken += x[i]
        if taken <= cards:
            at = 0
            for a in range(places.shape[0]):
                at += places[a] * strides[a]
            for i in range(seats):
                at -= x[i] * strides[axes[i]]
            share = 1.0  # (times 1.0 is exact: numpy's product from the first factor)
            for i in range(seats):
                share = share * inverse_factorial[x[i]]
            weight = ways[at] * share * inverse_factorial[cards - taken]
            if weight > 0:
                running += weight
                cumulative[kept] = running
                counts[kept] = x
                kept += 1
        i = seats - 1  # the next count, the last seat's fastest
        while i >= 0:
            x[i] += 1
            if x[i] < ranges[i]:
                break
            x[i] = 0
            i -= 1
    return cumulative[:kept], counts[:kept]


@jit.jit
def deal_ways(
    shape: np.ndarray,
    group_cards: np.ndarray,
    group_axes: np.ndarray,
    group_most: np.ndarray,
    inverse_factorial: np.ndarray,
    factorial: np.ndarray,
) -> np.ndarray:
    """:class:`~.sampling.DealCounts`' ``ways`` (row ``g``: ``ways[g]`` flat, the places of
    ``shape``), computed group after group from the last as the numpy code computes them: each
    open seat's step (:func:`one_seat`, its ``group_axes`` and ``group_most`` -1 padded), then
    the stock's share, summed over the cards as numpy sums a row (pairwise: in order under 8
    terms, else eight running sums; a group has at most 54 cards), so the same doubles."""
    places = 1
    for n in shape:
        places *= n
    groups = group_cards.shape[0]
    ways = np.zeros((groups + 1, places))
    ways[groups, 0] = 1.0  # once every group is dealt: one way, every place filled
    for g in range(groups - 1, -1, -1):
        cards = group_cards[g]
        step = np.zeros((places, cards + 1))
        step[:, 0] = ways[g + 1]
        for j in range(group_axes.shape[1]):
            axis = group_axes[g, j]
            if axis < 0:
                break
            before = 1
            for a in range(axis):
                before *= shape[a]
            seen = step.reshape(before, shape[axis], places // before // shape[axis], cards + 1)
            step = one_seat(seen, group_most[g, j], inverse_factorial).reshape(places, cards + 1)
        terms = np.empty(cards + 1)
        for p in range(places):
            for t in range(cards + 1):
                terms[t] = step[p, t] * inverse_factorial[cards - t]
            ways[g, p] = factorial[cards] * pairwise_sum(terms)
    return ways


@jit.jit
def _hands_in_turn(sizes: np.ndarray, voids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Where each seat's hand begins in a shuffle dealt in turn, and whether a void of the seat
    may refuse it (the seat gets cards and has shown a void)."""
    seats = sizes.shape[0]
    begins = np.zeros(seats, dtype=np.int64)
    for r in range(1, seats):
        begins[r] = begins[r - 1] + sizes[r - 1]
    checking = np.zeros(seats, dtype=np.bool_)
    for r in range(seats):
        if sizes[r] > 0:
            for c in range(voids.shape[1]):
                if voids[r, c]:
                    checking[r] = True
    return begins, checking


@jit.jit
def _respects(
    order: np.ndarray,
    begins: np.ndarray,
    sizes: np.ndarray,
    checking: np.ndarray,
    voids: np.ndarray,
) -> bool:
    """Whether the shuffle ``order`` dealt in turn gives no seat a card of a column it has shown
    void in (:func:`~.sampling._shuffled_tries`' check)."""
    for r in range(sizes.shape[0]):
        if checking[r]:
            for k in range(begins[r], begins[r] + sizes[r]):
                card = order[k]
                if voids[r, 4 if card == JOKER else card & 3]:
                    return False
    return True


@jit.jit
def _deal_in_turn(
    order: np.ndarray, begins: np.ndarray, sizes: np.ndarray, out: np.ndarray
) -> None:
    """The shuffle ``order`` dealt in turn: each seat's hand sorted into ``out[seat]``."""
    for r in range(sizes.shape[0]):
        out[r, : sizes[r]] = np.sort(order[begins[r] : begins[r] + sizes[r]])


@jit.jit
def draw_deals(
    rng: np.random.Generator,
    pool: np.ndarray,
    sizes: np.ndarray,
    voids: np.ndarray,
    tries: int,
    out: np.ndarray,
    start: int,
    exact_first: bool,
    ways: np.ndarray,
    strides: np.ndarray,
    axis_of: np.ndarray,
    group_cards: np.ndarray,
    group_seats: np.ndarray,
    of_column: np.ndarray,
    inverse_factorial: np.ndarray,
) -> int:
    """The deals of :func:`~.sampling.deals_unseen` from sample ``start`` on, drawn from
    ``rng`` as the Python code draws them (numba's ``Generator.random`` and ``permutation``
    are numpy's: the same doubles and shuffles from the same state): each hand sorted into
    ``out[sample, seat, :sizes[seat]]``.

    Per sample, up to ``tries`` shuffles of ``pool`` dealt in turn, the first that puts no card
    of a column ``voids`` bars in a hand kept (:func:`~.sampling._shuffled_tries`; the first
    sample skips them when ``exact_first``); failing that, an exact draw from the deal counts
    (:meth:`~.sampling.DealCounts.draw` and :func:`~.sampling._exact_deal`): ``ways`` (a row
    per group, flat, ``strides`` in items; ``axis_of[r]``: seat ``r``'s axis, -1 when it
    gets no cards), ``group_cards`` and ``group_seats`` (-1 padded) the position's groups,
    ``of_column`` each column's group. Without counts (``ways`` of no rows) it returns the first
    sample that needs them, its tries drawn; else ``len(out)``."""
    seats = sizes.shape[0]
    begins, checking = _hands_in_turn(sizes, voids)
    groups = group_cards.shape[0]
    axes = strides.shape[0]
    for s in range(start, out.shape[0]):
        if not (s == start and exact_first):
            kept = False
            for _ in range(tries):
                order = rng.permutation(pool)
                kept = _respects(order, begins, sizes, checking, voids)
                if kept:
                    _deal_in_turn(order, begins, sizes, out[s])
                    break
            if kept:
                continue
        if ways.shape[0] == 0:
            return s
        # How many cards of each group each seat gets (DealCounts.draw) ...
        places = np.zeros(axes, dtype=np.int64)
        for r in range(seats):
            if axis_of[r] >= 0:
                places[axis_of[r]] = sizes[r]
        taken = np.zeros((groups, seats), dtype=np.int64)
        for g in range(groups):
            opened = 0
            while opened < seats and group_seats[g, opened] >= 0:
                opened += 1
            if g == groups - 1:  # the last group fills the places left
                for j in range(opened):
                    r = group_seats[g, j]
                    taken[g, r] = places[axis_of[r]]
                break
            on = np.empty(opened, dtype=np.int64)
            for j in range(opened):
                on[j] = axis_of[group_seats[g, j]]
            cumulative, counts = count_options(
                ways[g + 1], strides, places, on, group_cards[g], inverse_factorial
            )
            pick = np.searchsorted(cumulative, rng.random() * cumulative[-1], side="right")
            pick = min(pick, counts.shape[0] - 1)  # (rounding could reach the end)
            for j in range(opened):
                r = group_seats[g, j]
                taken[g, r] = counts[pick, j]
                places[on[j]] -= counts[pick, j]
        # ... then which ones: the shuffled cards by group, in turn to the group's seats.
        order = rng.permutation(pool)
        held = np.zeros(seats, dtype=np.int64)
        for g in range(groups):
            j = got = 0
            for card in order:
                if of_column[4 if card == JOKER else card & 3] != g:
                    continue
                while j < seats and group_seats[g, j] >= 0 and got == taken[g, group_seats[g, j]]:
                    j += 1
                    got = 0
                if j == seats or group_seats[g, j] < 0:
                    break  # the rest of the group: the stock
                r = group_seats[g, j]
                out[s, r, held[r]] = card
                held[r] += 1
                got += 1
        for r in range(seats):
            out[s, r, : sizes[r]] = np.sort(out[s, r, : sizes[r]])
    return out.shape[0]
