"""Deals of the cards a seat has not seen, in poker without a name (RULES §4): what a
Monte-Carlo player imagines the other hands hold.

:func:`deal_unseen` (one deal) and :func:`deals_unseen` (many, the position read once) draw hands
for the other seats uniformly from the deals consistent with what the observer has seen: no seat
holds a card of a suit (or a joker) its plays showed it lacks. The Monte-Carlo bot
(:class:`pokerzoo.agents.nameless_poker.MonteCarloBot`) and the training features
(``pokerzoo.training.games.nameless_poker.odds`` and ``.reach``) play each deal out with
:func:`~.playout.play_out`.

Where numba is installed (:func:`pokerzoo.envs.core.jit.available`), :func:`deals_unseen`'s loop
over the samples and :class:`DealCounts`' construction run as compiled loops
(:mod:`.compiled`): numba's ``Generator.random`` and ``permutation`` draw what numpy's do from
the same state, and the weights are summed as numpy sums them, so the deals drawn, and the
generator left behind, are the same either way (tested on every void position of three games).
"""

from __future__ import annotations

import bisect
import math
from collections import OrderedDict
from collections.abc import Sequence

import numpy as np

from ..core import jit
from ..core.cards import JOKER
from .deals import NUM_PLAYERS
from .observation import NamelessPokerView

__all__ = [
    "DealCounts",
    "Groups",
    "deal_counts",
    "deal_unseen",
    "deals_unseen",
    "unseen_pool",
]

# A *deal* of the unseen cards gives each relative seat ``r`` a hand of ``sizes[r]`` of them and
# leaves the rest in the undealt stock; it is *consistent* when no seat that gets cards holds a
# card of a column (s h d c, joker) its plays showed it does not hold (``view.voids``). Deals
# are counted with the two jokers as two cards, as in a shuffled pack, so "uniform over the
# consistent deals" is the law of a shuffled deal conditioned on the voids.
_COLUMN = np.array([card & 3 for card in range(JOKER)] + [4])
"""Column of each card id: its suit, 4 for the joker."""
_COLUMN_OF: list[int] = _COLUMN.tolist()
_REJECTION_TRIES = 4
"""Shuffled deals :func:`deal_unseen` tries before it draws from the exact counts."""
_MIN_ACCEPTANCE = 0.25
"""When the product over the seats of the chance that a shuffled hand misses its voids is under
this, :func:`deal_unseen` tries no shuffled deal."""
_CACHE_SIZE = 64
"""Positions whose :class:`DealCounts` :func:`deal_counts` keeps (least recently used out)."""
_FACTORIAL = [float(math.factorial(n)) for n in range(JOKER + 2)]
_INVERSE_FACTORIAL = np.array([1.0 / f for f in _FACTORIAL])
_FACTORIAL_ARRAY = np.array(_FACTORIAL)

Groups = tuple[tuple[int, tuple[int, ...]], ...]
"""A position's groups of columns open to the same seats: per group ``(its unseen cards, the
relative seats that get cards and may hold them)``, sorted."""


def unseen_pool(view: NamelessPokerView, sizes: Sequence[int]) -> np.ndarray:
    """The cards ``view`` has not seen, ascending (a joker twice when both are unseen), to deal
    ``sizes[r]`` of them to each relative seat.

    Raises:
        ValueError: the observation is inconsistent: a card seen more often than the pack holds
            it, or fewer unseen cards than ``sum(sizes)``.
    """
    counts = view.unseen
    if (counts < 0).any():
        raise ValueError(
            "cannot deal the unseen cards: the observation is inconsistent (cards "
            f"{np.flatnonzero(counts < 0).tolist()} seen more often than the pack holds them)"
        )
    pool = np.repeat(np.arange(JOKER + 1), counts)
    if len(pool) < sum(sizes):
        raise ValueError(
            f"cannot deal the unseen cards: the observation is inconsistent ({len(pool)} unseen "
            f"cards for hands of {list(sizes)})"
        )
    return pool


def _groups(
    view: NamelessPokerView, sizes: Sequence[int], pool: np.ndarray
) -> tuple[Groups, list[int], float] | None:
    """The position's :data:`Groups`, the group of each column (-1: no unseen card) and the
    product over the seats of the chance that a shuffled hand misses its voids (about the share
    of consistent deals); ``None`` when no void bars a seat that gets cards from a column with
    unseen cards."""
    cards = np.bincount(_COLUMN[pool], minlength=5).tolist()
    voids = view.voids.tolist()
    seats = tuple(r for r in range(NUM_PLAYERS) if sizes[r])
    merged: dict[tuple[int, ...], list[int]] = {}
    for column in range(5):
        if cards[column]:
            open_seats = tuple(r for r in seats if not voids[r][column])
            merged.setdefault(open_seats, []).append(column)
    if all(open_seats == seats for open_seats in merged):
        return None
    ordered = sorted((sum(cards[c] for c in cs), seats, cs) for seats, cs in merged.items())
    of_column = [-1] * 5
    for g, (_, _, columns) in enumerate(ordered):
        for column in columns:
            of_column[column] = g
    likely = 1.0
    for r in seats:
        allowed = sum(n for n, open_seats, _ in ordered if r in open_seats)
        likely *= math.comb(allowed, sizes[r]) / math.comb(len(pool), sizes[r])
    return tuple((n, open_seats) for n, open_seats, _ in ordered), of_column, likely


class DealCounts:
    """The consistent deals of one position, counted by how many cards of each group go to each
    seat (the cards of a group are interchangeable for the voids), for exact uniform draws.

    A deal that gives ``x[g][r]`` of the ``n_g`` cards of group ``g`` to seat ``r`` and the
    rest to the stock stands for ``prod_g n_g! / (prod_r x[g][r]! * stock_g!)`` deals of the
    cards themselves. ``ways[g]`` (``float``, an axis per seat that gets cards, over the places
    left in its hand) sums these products over the counts of groups ``g, g + 1, ...`` that fill
    the places exactly (computed group by group, within a group seat by seat; by
    :func:`.compiled.deal_ways` where numba is installed, the same doubles); ``total``: the
    consistent deals. Weights are doubles (relative rounding about 1e-15).

    Args:
        sizes: hand size per relative seat.
        groups: the position's :data:`Groups`.
    """

    def __init__(self, sizes: tuple[int, ...], groups: Groups) -> None:
        self.sizes = sizes
        self.groups = groups
        self.seats = [r for r in range(NUM_PLAYERS) if sizes[r]]
        self._axis = {r: a for a, r in enumerate(self.seats)}
        shape = tuple(sizes[r] + 1 for r in self.seats)
        if jit.available():  # numba's loop: the same doubles
            from . import compiled

            group_axes = np.full((len(groups), NUM_PLAYERS), -1, dtype=np.int64)
            group_most = np.full((len(groups), NUM_PLAYERS), -1, dtype=np.int64)
            for g, (cards, seats) in enumerate(groups):
                group_axes[g, : len(seats)] = [self._axis[r] for r in seats]
                group_most[g, : len(seats)] = [min(sizes[r], cards) for r in seats]
            flat = compiled.deal_ways(
                np.array(shape, dtype=np.int64),
                np.array([cards for cards, _ in groups], dtype=np.int64),
                group_axes,
                group_most,
                _INVERSE_FACTORIAL,
                _FACTORIAL_ARRAY,
            )
            self.ways = list(flat.reshape(len(groups) + 1, *shape))
        else:
            after = np.zeros(shape)  # once every group is dealt: one way, every place filled
            after[(0,) * len(shape)] = 1.0
            self.ways = [after]
            for cards, seats in reversed(groups):
                # ways[places, t]: the open seats so far take t of the group's cards, x each:
                # 1 / x!
                ways = np.zeros((*shape, cards + 1))
                ways[..., 0] = after
                for r in seats:
                    ways = _one_seat(ways, self._axis[r], min(sizes[r], cards))
                stock = _INVERSE_FACTORIAL[cards - np.arange(cards + 1)]
                after = _FACTORIAL[cards] * (ways * stock).sum(axis=-1)
                self.ways.insert(0, after)
        self.total = float(self.ways[0][tuple(sizes[r] for r in self.seats)])
        self._options: dict[tuple[int, tuple[int, ...]], tuple[list[float], list[list[int]]]] = {}
        self._arrays: tuple[np.ndarray, ...] | None = None

    def arrays(self) -> tuple[np.ndarray, ...]:
        """The counts as :func:`.compiled.draw_deals` reads them: ``ways`` (a flat row per
        group), its strides in items, each relative seat's axis (-1: no cards), each group's
        cards and open seats (-1 padded)."""
        if self._arrays is None:
            ways = np.stack(self.ways)
            axis_of = np.array([self._axis.get(r, -1) for r in range(NUM_PLAYERS)])
            group_seats = np.full((len(self.groups), NUM_PLAYERS), -1, dtype=np.int64)
            for g, (_, seats) in enumerate(self.groups):
                group_seats[g, : len(seats)] = seats
            self._arrays = (
                ways.reshape(len(ways), -1),
                np.array(ways.strides[1:], dtype=np.int64) // ways.itemsize,
                axis_of.astype(np.int64),
                np.array([cards for cards, _ in self.groups], dtype=np.int64),
                group_seats,
            )
        return self._arrays

    def draw(self, rng: np.random.Generator) -> list[list[int]]:
        """``taken[g][j]``: the cards of group ``g`` its ``j``-th open seat gets (the rest go to
        the stock), drawn in proportion to the consistent deals that give them."""
        places = tuple(self.sizes[r] for r in self.seats)
        taken = []
        for g in range(len(self.groups) - 1):
            options = self._options.get((g, places)) or self._count_options(g, places)
            cumulative, counts = options
            pick = bisect.bisect_right(cumulative, rng.random() * cumulative[-1])
            chosen = counts[min(pick, len(counts) - 1)]  # (rounding could reach the end)
            left = list(places)
            for r, x in zip(self.groups[g][1], chosen, strict=True):
                left[self._axis[r]] -= x
            places = tuple(left)
            taken.append(chosen)
        # The last group fills the places left (the counts gave it no other way).
        taken.append([places[self._axis[r]] for r in self.groups[-1][1]])
        return taken

    def _count_options(
        self, g: int, places: tuple[int, ...]
    ) -> tuple[list[float], list[list[int]]]:
        """With ``places`` left before group ``g``: the counts its open seats may take and their
        cumulative weights (kept for the next draws)."""
        cards, seats = self.groups[g]
        axes = [self._axis[r] for r in seats]
        if jit.available():  # numba's loop: the same weights, summed in the same order
            from . import compiled

            ways = self.ways[g + 1]
            cumulative, chosen = compiled.count_options(
                ways.reshape(-1),
                np.array(ways.strides, dtype=np.int64) // ways.itemsize,
                np.array(places, dtype=np.int64),
                np.array(axes, dtype=np.int64),
                cards,
                _INVERSE_FACTORIAL,
            )
            options = cumulative.tolist(), chosen.tolist()
            self._options[(g, places)] = options
            return options
        ranges = [min(places[a], cards) + 1 for a in axes]
        grid = np.indices(ranges).reshape(len(axes), math.prod(ranges))
        taken = grid.sum(axis=0)
        grid, taken = grid[:, taken <= cards], taken[taken <= cards]
        left = [np.full(len(taken), p) for p in places]
        for a, x in zip(axes, grid, strict=True):
            left[a] = places[a] - x
        weights = (
            self.ways[g + 1][tuple(left)]
            * _INVERSE_FACTORIAL[grid].prod(axis=0)
            * _INVERSE_FACTORIAL[cards - taken]
        )
        keep = weights > 0
        options = np.cumsum(weights[keep]).tolist(), grid[:, keep].T.tolist()
        self._options[(g, places)] = options
        return options


def _one_seat(ways: np.ndarray, axis: int, most: int) -> np.ndarray:
    """A seat's step in :class:`DealCounts`: ``out[p, t] = sum_x ways[p - x on axis, t - x] /
    x!`` over the ``x <= most`` cards of the group the seat may take (numba's loop where it is
    installed, :func:`.compiled.one_seat`: the same doubles)."""
    if jit.available():
        from . import compiled

        shape = ways.shape
        seen = (math.prod(shape[:axis]), shape[axis], math.prod(shape[axis + 1 : -1]), shape[-1])
        out = compiled.one_seat(ways.reshape(seen), most, _INVERSE_FACTORIAL)
        return out.reshape(shape)  # type: ignore[no-any-return]
    out = ways.copy()
    for x in range(1, most + 1):
        target: list[slice] = [slice(None)] * ways.ndim
        source: list[slice] = [slice(None)] * ways.ndim
        target[axis] = target[-1] = slice(x, None)
        source[axis] = slice(0, ways.shape[axis] - x)
        source[-1] = slice(0, ways.shape[-1] - x)
        out[tuple(target)] += ways[tuple(source)] * _INVERSE_FACTORIAL[x]
    return out


_COUNTS: OrderedDict[tuple[tuple[int, ...], Groups], DealCounts] = OrderedDict()


def deal_counts(sizes: tuple[int, ...], groups: Groups) -> DealCounts:
    """The :class:`DealCounts` of a position, kept for the next draws of the same position (the
    Monte-Carlo bot and the features draw many per decision)."""
    key = (sizes, groups)
    counts = _COUNTS.get(key)
    if counts is None:
        counts = _COUNTS[key] = DealCounts(sizes, groups)
        if len(_COUNTS) > _CACHE_SIZE:
            _COUNTS.popitem(last=False)
    else:
        _COUNTS.move_to_end(key)
    return counts


def _deal_in_turn(order: list[int], sizes: Sequence[int]) -> list[list[int]]:
    """The shuffled cards ``order`` dealt to the hands in turn (the rest: the stock)."""
    hands, start = [], 0
    for size in sizes:
        hands.append(sorted(order[start : start + size]))
        start += size
    return hands


def _void_checks(sizes: Sequence[int], voids: np.ndarray) -> list[tuple[int, int, list[bool]]]:
    """Per seat that gets cards and has shown a void: where its hand lies in a shuffled deal
    dealt in turn, and its voids by column."""
    checks, start = [], 0
    for r, size in enumerate(sizes):
        if size and voids[r].any():
            checks.append((start, start + size, voids[r].tolist()))
        start += size
    return checks


def _shuffled_tries(
    pool: np.ndarray,
    sizes: Sequence[int],
    checks: list[tuple[int, int, list[bool]]],
    tries: int,
    rng: np.random.Generator,
) -> list[list[int]] | None:
    """The first of ``tries`` shuffled deals that respects the voids (``checks``, of
    :func:`_void_checks`), if any."""
    for _ in range(tries):
        order = rng.permutation(pool).tolist()
        for begin, end, void in checks:
            if any(void[_COLUMN_OF[card]] for card in order[begin:end]):
                break
        else:
            return _deal_in_turn(order, sizes)
    return None


def _exact_deal(
    pool: np.ndarray, counts: DealCounts, of_column: list[int], rng: np.random.Generator
) -> list[list[int]]:
    """A consistent deal, uniform: how many cards of each group each seat gets, drawn from
    ``counts``, then which ones, by a shuffle."""
    taken = counts.draw(rng)
    order = rng.permutation(pool)
    group = np.array(of_column)[_COLUMN[order]]
    cards = order[np.argsort(group, kind="stable")].tolist()  # by group, shuffled within
    hands: list[list[int]] = [[] for _ in range(NUM_PLAYERS)]
    start = 0
    for (n, seats), xs in zip(counts.groups, taken, strict=True):
        at = start
        for r, x in zip(seats, xs, strict=True):
            hands[r] += cards[at : at + x]
            at += x
        start += n
    return [sorted(hand) for hand in hands]


def deal_unseen(
    view: NamelessPokerView,
    sizes: Sequence[int],
    rng: np.random.Generator,
    tries: int = _REJECTION_TRIES,
) -> list[list[int]]:
    """Hands of ``sizes[r]`` cards for the relative seats (size 0: an empty hand, e.g. the
    observer's own, which the caller fills), from the cards ``view`` has not seen, the rest
    left in the undealt stock; hands sorted.

    Guarantee: the deal is drawn uniformly from the deals consistent with ``view``: every
    assignment of the unseen cards (the two jokers counted as two cards, as in a shuffled pack)
    to the hands and the stock in which no seat that gets cards holds a card of a column (s h d
    c, joker) it has shown void in (``view.voids``) is equally likely: the law of a shuffled
    deal conditioned on the voids. Successive draws are independent.

    How: when no void bars a seat that gets cards from a column with unseen cards, the shuffled
    unseen cards are dealt in turn. Otherwise up to ``tries`` shuffles are dealt in turn and the
    first consistent one kept (uniform given acceptance; no try where the seats' chances to miss
    their voids multiply to under :data:`_MIN_ACCEPTANCE`); failing that, the deal is drawn
    from the exact counts of the consistent deals (:class:`DealCounts`, kept per position by
    :func:`deal_counts`). A mixture of uniform draws is uniform, whichever way a deal came.

    Raises:
        ValueError: no consistent deal exists (the observation is inconsistent): a card seen
            more often than the pack holds it, fewer unseen cards than places, or voids no deal
            of the unseen cards can respect.
    """
    return deals_unseen(view, sizes, rng, 1, tries)[0]


def deals_unseen(
    view: NamelessPokerView,
    sizes: Sequence[int],
    rng: np.random.Generator,
    samples: int,
    tries: int = _REJECTION_TRIES,
) -> list[list[list[int]]]:
    """``samples`` independent draws of :func:`deal_unseen` (the same guarantee, the same
    random draws as ``samples`` calls of it), the position read once."""
    pool = unseen_pool(view, sizes)
    position = _groups(view, sizes, pool)
    # numba's loop draws from a Generator (any bit generator) as numpy does; anything else
    # (a legacy RandomState) goes the Python way.
    compiled = isinstance(rng, np.random.Generator) and jit.available()
    if position is None:  # no void bars anything: deal the shuffled cards in turn
        if compiled:  # (one try that nothing can fail: the same shuffles)
            return _compiled_deals(pool, sizes, None, rng, samples, 1, None, None)
        return [_deal_in_turn(rng.permutation(pool).tolist(), sizes) for _ in range(samples)]
    groups, of_column, likely = position
    key = (tuple(int(s) for s in sizes), groups)
    if likely < _MIN_ACCEPTANCE:
        tries = 0
    if compiled:
        return _compiled_deals(pool, sizes, view, rng, samples, tries, key, of_column)
    checks = _void_checks(sizes, view.voids) if tries else []
    deals = []
    for _ in range(samples):
        hands = _shuffled_tries(pool, sizes, checks, tries, rng)
        if hands is not None:
            deals.append(hands)
            continue
        counts = deal_counts(*key)
        if counts.total <= 0:
            raise _no_consistent_deal(sizes, view.voids)
        deals.append(_exact_deal(pool, counts, of_column, rng))
    return deals


def _as_lists(out: np.ndarray, sizes: np.ndarray) -> list[list[list[int]]]:
    """The deals :mod:`.compiled` wrote (``out[deal, seat, :sizes[seat]]``) as lists."""
    s0, s1, s2, s3 = sizes.tolist()
    return [[a[:s0], b[:s1], c[:s2], d[:s3]] for a, b, c, d in out.tolist()]


_NO_VOIDS = np.zeros((NUM_PLAYERS, 5), dtype=bool)
_NO_COUNTS = (
    np.zeros((0, 1)),
    np.zeros(0, dtype=np.int64),
    np.zeros(NUM_PLAYERS, dtype=np.int64),
    np.zeros(0, dtype=np.int64),
    np.zeros((0, NUM_PLAYERS), dtype=np.int64),
    np.zeros(5, dtype=np.int64),
)
""":func:`.compiled.draw_deals`'s deal counts before a draw needs them."""


def _compiled_deals(
    pool: np.ndarray,
    sizes: Sequence[int],
    view: NamelessPokerView | None,
    rng: np.random.Generator,
    samples: int,
    tries: int,
    key: tuple[tuple[int, ...], Groups] | None,
    of_column: list[int] | None,
) -> list[list[list[int]]]:
    """:func:`deals_unseen`'s loop over the samples by numba's :func:`.compiled.draw_deals`
    (``view`` ``None``: no void in the way): the same draws from ``rng``, hence the same deals;
    the deal counts built (:func:`deal_counts`) when a draw first needs them, as the Python loop
    builds them."""
    from . import compiled

    counts = np.array(sizes, dtype=np.int64)
    voids = _NO_VOIDS if view is None else np.ascontiguousarray(view.voids, dtype=bool)
    out = np.zeros((samples, NUM_PLAYERS, max(int(counts.max()), 1)), dtype=np.int64)
    done = 0
    kept = None if key is None else _COUNTS.get(key)
    if kept is not None and of_column is not None:  # counted before: one call draws them all
        if kept.total > 0:
            compiled.draw_deals(
                rng, pool, counts, voids, tries, out, 0, False, *kept.arrays(),
                np.array(of_column, dtype=np.int64), _INVERSE_FACTORIAL,
            )  # fmt: skip
            _COUNTS.move_to_end(key)  # (as deal_counts keeps it)
            done = samples
    elif tries:  # (without tries the first draw needs the counts)
        done = compiled.draw_deals(
            rng, pool, counts, voids, tries, out, 0, False, *_NO_COUNTS, _INVERSE_FACTORIAL
        )
    if done < samples:
        if key is None or of_column is None:  # (no void in the way: the one try is kept)
            raise RuntimeError("a shuffled deal was refused where no void is in the way")
        exact = deal_counts(*key)
        if exact.total <= 0:
            raise _no_consistent_deal(sizes, voids)
        compiled.draw_deals(
            rng, pool, counts, voids, tries, out, done, True, *exact.arrays(),
            np.array(of_column, dtype=np.int64), _INVERSE_FACTORIAL,
        )  # fmt: skip
    return _as_lists(out, counts)


def _no_consistent_deal(sizes: Sequence[int], voids: np.ndarray) -> ValueError:
    return ValueError(
        "cannot deal the unseen cards: the observation is inconsistent (no deal of the "
        f"unseen cards in hands of {list(sizes)} respects the voids "
        f"{voids.astype(int).tolist()})"
    )
