"""Poker Squares' lines as the line-pattern learner sees them, kept up to date card by card.

The learner (:mod:`pokerzoo.training.games.poker_squares.td`) values a position as a sum over its
10 lines of a learned value per *line pattern* (what a line holds and could still become, see
that module). Computing a pattern from a line's five card slots costs a rank histogram per line
per candidate cell; this module instead keeps, for a batch of games, each line's components (rank
counts, the rank and suit sets, the shape code) and the cards not yet seen, updates them when a
card is placed, and derives a line's pattern, or the pattern it would have with one more card,
from them in a few array operations. That is what makes training see millions of games and the
one-card look-ahead fit in milliseconds per game.

:func:`line_keys` computes the same pattern ids from the cards themselves (the definition, used
by the tests to check the incremental path).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ....envs.poker_squares.rules import EMPTY, GRID_CELLS, LINES, resolve_scoring
from ...features import straight_windows

__all__ = [
    "CELL_LINES",
    "CODE_STEP",
    "DIRECTION",
    "HOPE_BITS",
    "LINE_CELLS",
    "LOW_SUIT",
    "NUM_KEYS",
    "OUTS",
    "PAIR_OUTS",
    "RANK_BITS",
    "RANK_OUTS",
    "RIVALS",
    "SHAPES",
    "STRAIGHTS",
    "T_SIZE",
    "LineParts",
    "LineState",
    "flush_hopes",
    "full_index",
    "left_counts",
    "line_keys",
    "line_points",
    "of_suit",
    "outs_weights",
    "pattern_ids",
    "rivals",
    "suit_hopes",
]

T_SIZE = GRID_CELLS + 1  # t = cards on the grid, 0..25
OUTS = 4  # buckets of the suit outs
RANK_OUTS = 7  # buckets of each of the two rank outs counts (singles', pairs')
PAIR_OUTS = 16
"""A line's ``rank_outs`` component is ``single_outs + PAIR_OUTS * pair_outs``: the unseen cards
of the ranks it holds once (at most 15) and of those it holds two or more times."""
RIVALS = 3  # buckets of a flush in the making's rivals: 0, 1, 2 or more
NUM_LINES = len(LINES)


def _shapes() -> list[tuple[int, ...]]:
    """Rank-multiplicity multisets of 0..5 cards, descending (partitions of n <= 5)."""
    out: list[tuple[int, ...]] = []

    def parts(n: int, largest: int) -> list[tuple[int, ...]]:
        if n == 0:
            return [()]
        return [(k, *rest) for k in range(min(n, largest), 0, -1) for rest in parts(n - k, k)]

    for n in range(6):
        out.extend(parts(n, 4))  # at most four of a rank without jokers
    return out


SHAPES: list[tuple[int, ...]] = _shapes()
"""Index = shape id of a pattern."""
STRAIGHTS = 4  # 0: no straight possible; 1, 2, 3+: ranks that would keep one possible
NUM_KEYS = len(SHAPES) * 2 * STRAIGHTS * 2 * RANK_OUTS * RANK_OUTS * OUTS * RIVALS * T_SIZE

# The shape code of a line: c1 + 6 c2 + 36 c3 + 216 c4 (ck = number of ranks held k times).
# Adding a card of a rank held k times changes it by CODE_STEP[k].
CODE_STEP = np.array([1, 5, 30, 180, 0], dtype=np.int64)


def _shape_lut() -> np.ndarray:
    lut = np.full(6**4, -1, dtype=np.int64)
    for i, shape in enumerate(SHAPES):
        c = [shape.count(k) for k in (1, 2, 3, 4)]
        lut[c[0] + 6 * c[1] + 36 * c[2] + 216 * c[3]] = i
    return lut


_WINDOWS = [int(w) for w in straight_windows() @ (1 << np.arange(13))]  # rank bit sets
_ROYAL = 0b11111 << 8


def _straight_lut() -> np.ndarray:
    """Whether a 13-bit rank set (bit 0 = deuce) fits in one straight window."""
    masks = np.arange(1 << 13)
    ok = np.zeros(1 << 13, dtype=bool)
    for w in _WINDOWS:
        ok |= (masks & ~w) == 0
    return ok


_SHAPE_LUT = _shape_lut()


def _straight_ranks_lut() -> np.ndarray:
    """For a 13-bit rank set fitting a straight window: how many other ranks would still fit
    one with it (0 where none: no window holds the set), capped at ``STRAIGHTS - 1``."""
    masks = np.arange(1 << 13)
    helpful = np.zeros(1 << 13, dtype=np.int64)
    for w in _WINDOWS:
        helpful |= np.where((masks & ~w) == 0, w & ~masks, 0)
    count = np.array([bin(h).count("1") for h in helpful])
    return np.minimum(count, STRAIGHTS - 1)


_STRAIGHT_LUT = _straight_lut()
_STRAIGHT_RANKS_LUT = _straight_ranks_lut()
_SUITS_ONE = np.array([bin(m).count("1") <= 1 for m in range(16)])  # at most one suit held
LOW_SUIT = np.array([(m & -m).bit_length() - 1 if m else 0 for m in range(16)], dtype=np.int64)
RANK_BITS = 1 << np.arange(13, dtype=np.int64)
DIRECTION = (np.arange(NUM_LINES) >= NUM_LINES // 2).astype(np.int64)
"""Each line's direction: 0 for the rows, 1 for the columns (the pattern's column bit)."""
LINE_CELLS = np.array(LINES, dtype=np.intp)  # (10, 5)
CELL_LINES = np.array(
    [[i for i, line in enumerate(LINES) if c in line] for c in range(GRID_CELLS)], dtype=np.intp
)  # (25, 2): row, column


def _full_points_lut(points_by_name: dict[str, int]) -> np.ndarray:
    """Points of a full line by ``shape id * 4 + flush * 2 + straight`` (plus the royal flush
    apart: index ``len(SHAPES) * 4``)."""
    lut = np.zeros(len(SHAPES) * 4 + 1)
    by_shape = {
        (4, 1): "four of a kind",
        (3, 2): "full house",
        (3, 1, 1): "three of a kind",
        (2, 2, 1): "two pair",
        (2, 1, 1, 1): "pair",
    }
    for i, shape in enumerate(SHAPES):
        if sum(shape) != 5:
            continue
        for flush in (0, 1):
            for straight in (0, 1):
                name = by_shape.get(shape)
                if shape == (1, 1, 1, 1, 1):
                    name = {
                        (1, 1): "straight flush",
                        (1, 0): "flush",
                        (0, 1): "straight",
                    }.get((flush, straight))
                lut[i * 4 + flush * 2 + straight] = points_by_name.get(name, 0) if name else 0
    lut[-1] = points_by_name["royal flush"]
    return lut


def line_points(scoring: str) -> np.ndarray:
    """The full-line points table of a scoring option (indexed as :class:`LineState` does)."""
    return _full_points_lut(resolve_scoring(scoring)[0])


def flush_hopes(suits: np.ndarray, n: np.ndarray) -> np.ndarray:
    """Whether each line, holding ``n`` cards of the suits ``suits`` (4-bit sets), is a flush in
    the making: one suit, at least one card and room for more."""
    return _SUITS_ONE[suits] & (n > 0) & (n < 5)


HOPE_BITS = 3
"""Bits of one suit's count in :func:`suit_hopes` (a direction has at most 5 lines)."""


def suit_hopes(suits: np.ndarray, n: np.ndarray) -> np.ndarray:
    """``(..., 10)``: for each line, how many lines of its direction (itself included) are
    flushes in the making of each suit, packed :data:`HOPE_BITS` bits a suit (read one with
    :func:`of_suit`); ``suits`` and ``n`` ``(..., 10)``."""
    suits, n = np.broadcast_arrays(suits, n)
    mine = np.where(flush_hopes(suits, n), 1 << (HOPE_BITS * LOW_SUIT[suits]), 0)
    return mine.reshape(*mine.shape[:-1], 2, NUM_LINES // 2).sum(axis=-1)[..., DIRECTION]


def of_suit(packed: np.ndarray, suit: np.ndarray) -> np.ndarray:
    """The count of ``suit`` in counts packed by :func:`suit_hopes`."""
    return (packed >> (HOPE_BITS * suit)) & ((1 << HOPE_BITS) - 1)


def rivals(suits: np.ndarray, n: np.ndarray) -> np.ndarray:
    """``(..., 10)``: for a flush in the making, the other lines of its direction in the making
    of the same suit (0 for other lines)."""
    suits, n = np.broadcast_arrays(suits, n)
    same = of_suit(suit_hopes(suits, n), LOW_SUIT[suits])
    return np.where(flush_hopes(suits, n), same - 1, 0)


def outs_weights(hist: np.ndarray) -> np.ndarray:
    """What an unseen card of each rank adds to a line's ``rank_outs`` given the line's rank
    counts ``hist``: 1 for a rank held once, :data:`PAIR_OUTS` for one held more, else 0."""
    return np.where(hist >= 2, PAIR_OUTS, (hist == 1).astype(np.int64))


def left_counts(seen: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Cards not yet seen per rank ``(B, 13)`` and per suit ``(B, 4)``; ``seen`` ``(B, k)`` card
    ids, ``EMPTY`` ignored."""
    valid = seen >= 0
    ranks = (np.where(valid, seen >> 2, 13)[:, :, None] == np.arange(13)).sum(axis=1)
    suits = (np.where(valid, seen & 3, 4)[:, :, None] == np.arange(4)).sum(axis=1)
    return 4 - ranks, 13 - suits


@dataclass(frozen=True)
class LineParts:
    """What a line pattern is made of, for lines broadcast together (the last axis is the line:
    rows then columns, for the row/column bit)."""

    code: np.ndarray
    """Shape code: ``c1 + 6 c2 + 36 c3 + 216 c4`` (``ck``: ranks held ``k`` times)."""
    ranks: np.ndarray
    """The ranks held, a 13-bit set (bit 0: deuce)."""
    suits: np.ndarray
    """The suits held, a 4-bit set."""
    n: np.ndarray
    """Cards in the line."""
    rank_outs: np.ndarray
    """Unseen cards of the ranks held once, plus :data:`PAIR_OUTS` times those of the ranks
    held more often."""
    suit_left: np.ndarray
    """Unseen cards of the line's suit (used where it holds one suit)."""
    rivals: np.ndarray
    """Other lines of its direction that could still be flushes of its suit (used where it
    could still be one itself): they draw on the same unseen cards (:func:`rivals`)."""


def pattern_ids(parts: LineParts, t: np.ndarray | int) -> np.ndarray:
    """Pattern ids of lines with ``t`` cards on the grid."""
    code, n = parts.code, parts.n
    shape = _SHAPE_LUT[code]
    flush = _SUITS_ONE[parts.suits]
    # distinct ranks in one window; then how many ranks could join them in one
    straight = np.where(
        (code == n) & _STRAIGHT_LUT[parts.ranks], _STRAIGHT_RANKS_LUT[parts.ranks], 0
    )
    spare = parts.suit_left - (5 - n) + 1
    suit_outs = np.where(flush & (n > 0), np.clip(spare, 0, OUTS - 1), 0)
    pattern = ((shape * 2 + flush) * STRAIGHTS + straight) * 2 + DIRECTION
    pair_outs, single_outs = np.divmod(parts.rank_outs, PAIR_OUTS)
    pattern = pattern * RANK_OUTS + np.minimum(pair_outs, RANK_OUTS - 1)
    pattern = (pattern * RANK_OUTS + np.minimum(single_outs, RANK_OUTS - 1)) * OUTS + suit_outs
    rival_count = np.where(flush_hopes(parts.suits, n), parts.rivals, 0)
    pattern = pattern * RIVALS + np.clip(rival_count, 0, RIVALS - 1)
    return pattern * T_SIZE + t


def full_index(parts: LineParts) -> np.ndarray:
    """Index into :func:`line_points` of full lines."""
    code, ranks, suits = parts.code, parts.ranks, parts.suits
    flush = _SUITS_ONE[suits]
    straight = (code == 5) & _STRAIGHT_LUT[ranks]
    index = _SHAPE_LUT[code] * 4 + flush * 2 + straight
    return np.where(flush & (ranks == _ROYAL), len(SHAPES) * 4, index)


def line_keys(
    cards: np.ndarray, t: np.ndarray | int, rank_left: np.ndarray, suit_left: np.ndarray
) -> np.ndarray:
    """Pattern ids of the 10 lines of grids, from their cards: ``cards`` ``(..., 10, 5)`` card
    ids (``EMPTY`` = -1, rows then columns as :data:`LINES`) with ``t`` cards on the grid;
    ``rank_left`` ``(..., 1, 13)`` and ``suit_left`` ``(..., 1, 4)`` the unseen cards per rank
    and suit (:func:`left_counts`). The definition that :class:`LineState` keeps incrementally."""
    cards = np.asarray(cards)
    valid = cards >= 0
    ranks = np.where(valid, cards >> 2, 13)
    hist = (ranks[..., :, None] == np.arange(13)).sum(axis=-2)  # (..., 13)
    code = sum((hist == k).sum(axis=-1) * 6 ** (k - 1) for k in (1, 2, 3, 4))
    rank_set = ((hist > 0) * RANK_BITS).sum(axis=-1)
    suit_set = (
        (np.where(valid, cards & 3, 4)[..., :, None] == np.arange(4)).any(axis=-2)
        * (1 << np.arange(4))
    ).sum(axis=-1)
    rank_outs = (outs_weights(hist) * rank_left).sum(axis=-1)
    suit_left_of_line = np.take_along_axis(suit_left, LOW_SUIT[suit_set][..., None], axis=-1)
    n = valid.sum(axis=-1)
    parts = LineParts(
        code,
        rank_set,
        suit_set,
        n,
        rank_outs,
        suit_left_of_line[..., 0],
        rivals(suit_set, n),
    )
    return pattern_ids(parts, t)


@dataclass
class LineState:
    """The 10 lines of ``B`` grids, kept card by card: per line its rank counts ``hist``
    ``(B, 10, 13)``, shape ``code``, rank set ``ranks`` and suit set ``suits`` (bit masks),
    number of cards ``n``; per game the grid, the unseen cards per rank and suit and ``t`` (cards
    on the grid)."""

    grid: np.ndarray
    hist: np.ndarray
    code: np.ndarray
    ranks: np.ndarray
    suits: np.ndarray
    n: np.ndarray
    rank_left: np.ndarray
    suit_left: np.ndarray
    t: np.ndarray

    @classmethod
    def empty(cls, games: int) -> LineState:
        """``games`` empty grids with a full pack unseen."""
        lines = (games, NUM_LINES)
        return cls(
            grid=np.full((games, GRID_CELLS), EMPTY, dtype=np.int64),
            hist=np.zeros((*lines, 13), dtype=np.int64),
            code=np.zeros(lines, dtype=np.int64),
            ranks=np.zeros(lines, dtype=np.int64),
            suits=np.zeros(lines, dtype=np.int64),
            n=np.zeros(lines, dtype=np.int64),
            rank_left=np.full((games, 13), 4, dtype=np.int64),
            suit_left=np.full((games, 4), 13, dtype=np.int64),
            t=np.zeros(games, dtype=np.int64),
        )

    @classmethod
    def of_grids(cls, grids: np.ndarray, seen: np.ndarray | None = None) -> LineState:
        """The state of grids ``(B, 25)`` (``EMPTY`` for free cells); ``seen`` ``(B, k)`` cards
        also seen but not on the grid (the card in hand), ``EMPTY`` ignored."""
        grids = np.asarray(grids, dtype=np.int64)
        state = cls.empty(len(grids))
        for cell in range(GRID_CELLS):
            games = np.flatnonzero(grids[:, cell] != EMPTY)
            if len(games):
                state.place(grids[games, cell], np.full(len(games), cell), games)
        if seen is not None:
            seen = np.asarray(seen, dtype=np.int64).reshape(len(grids), -1)
            for k in range(seen.shape[1]):
                games = np.flatnonzero(seen[:, k] != EMPTY)
                state.see(seen[games, k], games)
        return state

    def see(self, cards: np.ndarray, games: np.ndarray | slice = slice(None)) -> None:
        """Mark ``cards`` (one per game of ``games``) as seen."""
        rows = np.arange(self.grid.shape[0])[games]
        self.rank_left[rows, cards >> 2] -= 1
        self.suit_left[rows, cards & 3] -= 1

    def place(
        self, cards: np.ndarray, cells: np.ndarray, games: np.ndarray | slice = slice(None)
    ) -> None:
        """Put ``cards`` on ``cells`` (one per game of ``games``, all games by default) and see
        them."""
        rows = np.arange(self.grid.shape[0])[games]
        self.grid[rows, cells] = cards
        rank, suit = cards >> 2, cards & 3
        for side in (0, 1):
            line = CELL_LINES[cells, side]
            held = self.hist[rows, line, rank]
            self.code[rows, line] += CODE_STEP[held]
            self.hist[rows, line, rank] = held + 1
            self.ranks[rows, line] |= RANK_BITS[rank]
            self.suits[rows, line] |= 1 << suit
            self.n[rows, line] += 1
        self.rank_left[rows, rank] -= 1
        self.suit_left[rows, suit] -= 1
        self.t[rows] += 1

    def rank_outs(self) -> np.ndarray:
        """``(B, 10)`` unseen cards of the ranks each line holds (see :data:`PAIR_OUTS`)."""
        return (outs_weights(self.hist) * self.rank_left[:, None, :]).sum(axis=2)

    def parts(self) -> LineParts:
        """The components of the lines as they are."""
        suit_left = np.take_along_axis(self.suit_left, LOW_SUIT[self.suits], axis=1)
        return LineParts(
            self.code,
            self.ranks,
            self.suits,
            self.n,
            self.rank_outs(),
            suit_left,
            rivals(self.suits, self.n),
        )

    def keys(self) -> np.ndarray:
        """``(B, 10)`` pattern ids of the lines as they are."""
        return pattern_ids(self.parts(), self.t[:, None])

    def full_index(self) -> np.ndarray:
        """``(B, 10)`` index into :func:`line_points` (meaningful for full lines only)."""
        return full_index(self.parts())
