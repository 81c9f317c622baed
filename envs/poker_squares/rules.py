"""Poker Squares rules engine (RULES §3): dealing, placement and scoring of one grid.

No Gymnasium, PettingZoo or torch import: the Gymnasium env (:mod:`.env`), the native vector
env (:mod:`.vector`), the multi-player engine (:mod:`.game`) and its PettingZoo env, and the
bots are thin layers over this module.

Game
----
A 5x5 grid is filled with 25 cards, one at a time, each on an empty cell (``cell = 5 * row +
col``, row-major); placed cards never move. Each row and column then scores as a poker hand
under a scoring table; jokers are wild and a line scores its best-scoring reading.

Options (validated by :class:`PokerSquaresRules`, each bad value raises ``ValueError`` naming it):

==============  =============================================================================
``scoring``     ``"american"`` (default), ``"english"`` or a mapping hand name -> points, names
                from :data:`HAND_NAMES`; missing names score 0, except a missing "royal
                flush", which scores as the straight flush it is.
``jokers``      0..2 jokers added to the 52-card deck (default 0).
``placement``   ``"free"`` (any empty cell, default) or ``"adjacent"`` (the first card on the
                centre cell 12, every later card touching a placed card by side or corner).
``variant``     ``"deal"`` (cards revealed one at a time, default) or ``"shuffle"`` (Poker
                Shuffle: the same 25 cards placed in descending card-id order, all known).
==============  =============================================================================

Dealing
-------
:meth:`PokerSquaresRules.deal` draws ``rng.permutation(deck)[:25]`` (the deck: 52 cards and
the jokers, in id order); :meth:`PokerSquaresRules.new_state` starts a grid with those 25 cards
in that order (sorted by descending id in the shuffle variant), or with any fixed 25 cards.

Scripted API (RULES §6): :func:`score_hand`, :func:`score_grid`.

>>> score_hand("As Ks Qs Js Ts")
100
>>> score_hand("9h 9d 9c Jk 2s", scoring="english")
16
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Literal, Union

import numpy as np

from ..core.cards import CardsLike, Deck
from ..core.errors import GameOverError, check_action
from ..core.hands import Category, make_classifier, points_table
from ..core.options import check_choice, check_int

__all__ = [
    "CELL_LINES",
    "CENTRE",
    "EMPTY",
    "GRID_CELLS",
    "HAND_CATEGORIES",
    "HAND_NAMES",
    "LINES",
    "LINE_NAMES",
    "NEIGHBOURS",
    "PLACEMENTS",
    "REWARDS",
    "SCORING_TABLES",
    "VARIANTS",
    "PokerSquaresRules",
    "Scoring",
    "SquaresState",
    "cell_name",
    "check_reward",
    "resolve_scoring",
    "score_grid",
    "score_hand",
]

Scoring = Union[Literal["american", "english"], Mapping[str, int]]  # noqa: UP007 (runtime alias)

GRID_CELLS = 25
EMPTY = -1  # an empty cell in SquaresState.grid and SquaresView.grid

# Hand names of the RULES §3 table, best first, and the hands.py category each one scores.
HAND_NAMES: tuple[str, ...] = (
    "five of a kind",
    "royal flush",
    "straight flush",
    "four of a kind",
    "full house",
    "flush",
    "straight",
    "three of a kind",
    "two pair",
    "pair",
)
HAND_CATEGORIES = {
    "five of a kind": Category.FIVE_OF_A_KIND,
    "royal flush": Category.ROYAL_FLUSH,
    "straight flush": Category.STRAIGHT_FLUSH,
    "four of a kind": Category.FOUR_OF_A_KIND,
    "full house": Category.FULL_HOUSE,
    "flush": Category.FLUSH,
    "straight": Category.STRAIGHT,
    "three of a kind": Category.THREE_OF_A_KIND,
    "two pair": Category.TWO_PAIR,
    "pair": Category.PAIR,
}

SCORING_TABLES: dict[str, dict[str, int]] = {
    "american": {
        "royal flush": 100,
        "straight flush": 75,
        "four of a kind": 50,
        "full house": 25,
        "flush": 20,
        "straight": 15,
        "three of a kind": 10,
        "two pair": 5,
        "pair": 2,
        "five of a kind": 0,  # not scored: a joker line reads as its best other hand instead
    },
    "english": {
        "royal flush": 30,
        "straight flush": 30,
        "four of a kind": 16,
        "full house": 10,
        "flush": 5,
        "straight": 12,
        "three of a kind": 6,
        "two pair": 3,
        "pair": 1,
        "five of a kind": 20,
    },
}

# Lines 0..4 are the rows, 5..9 the columns.
LINES: tuple[tuple[int, ...], ...] = tuple(
    [tuple(range(5 * r, 5 * r + 5)) for r in range(5)] + [tuple(range(c, 25, 5)) for c in range(5)]
)
LINE_NAMES: tuple[str, ...] = tuple(
    [f"r{r + 1}" for r in range(5)] + [f"c{c + 1}" for c in range(5)]
)
CELL_LINES: tuple[tuple[int, int], ...] = tuple((c // 5, 5 + c % 5) for c in range(GRID_CELLS))
NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        5 * (c // 5 + dr) + (c % 5 + dc)
        for dr in (-1, 0, 1)
        for dc in (-1, 0, 1)
        if (dr or dc) and 0 <= c // 5 + dr < 5 and 0 <= c % 5 + dc < 5
    )
    for c in range(GRID_CELLS)
)
CENTRE = 12

PLACEMENTS = ("free", "adjacent")
VARIANTS = ("deal", "shuffle")
REWARDS = ("final", "incremental")  # reward options of the one-player envs, single and vector
MAX_JOKERS = 2
_FULL_DECK = Deck("standard", jokers=MAX_JOKERS)  # every card a Poker Squares line may hold


def check_reward(reward: object) -> str:
    """The one-player envs' ``reward`` option, validated."""
    return check_choice("reward", reward, REWARDS)


def cell_name(cell: int) -> str:
    """Name of a cell for messages and rendering: ``7 -> "r2c3 (7)"`` (rows/columns from 1)."""
    return f"r{cell // 5 + 1}c{cell % 5 + 1} ({cell})"


# --- scoring ---------------------------------------------------------------------------------
def _check_scoring(scoring: object) -> tuple[tuple[str, int], ...]:
    """The scoring option as a canonical, hashable tuple of (hand name, points)."""
    if isinstance(scoring, str):
        table = SCORING_TABLES.get(scoring)
        if table is None:
            raise ValueError(
                f"bad scoring {scoring!r}: expected 'american', 'english' or a mapping of hand "
                "names to points"
            )
        return tuple(sorted(table.items()))
    if not isinstance(scoring, Mapping):
        raise ValueError(
            f"bad scoring {scoring!r}: expected 'american', 'english' or a mapping of hand names "
            "to points"
        )
    for name, value in scoring.items():
        if name not in HAND_CATEGORIES:
            raise ValueError(
                f"bad hand name {name!r} in scoring: expected one of {', '.join(HAND_NAMES)}"
            )
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
            raise ValueError(f"bad points {value!r} for {name!r} in scoring: expected an int")
    resolved = {name: int(scoring.get(name, 0)) for name in HAND_NAMES}
    if "royal flush" not in scoring:
        # a royal flush is the top straight flush: a table naming only the latter pays both
        resolved["royal flush"] = resolved["straight flush"]
    return tuple(sorted(resolved.items()))


@lru_cache(maxsize=64)  # one entry per distinct scoring table in use
def _points_by_class(canonical: tuple[tuple[str, int], ...]) -> tuple[int, ...]:
    by_category = {HAND_CATEGORIES[name]: value for name, value in canonical}
    return tuple(points_table(by_category).tolist())


def resolve_scoring(scoring: Scoring) -> tuple[dict[str, int], tuple[int, ...]]:
    """Validate a scoring option: (points by hand name, points by hand class id).

    The second item indexes :func:`pokerzoo.envs.hands.points_table` order (hand class ids of
    :func:`pokerzoo.envs.hands.make_classifier`); it is built once per distinct table.
    """
    canonical = _check_scoring(scoring)
    return dict(canonical), _points_by_class(canonical)


@cache
def _classify():  # noqa: ANN202 - the classifier callable of hands.py
    return make_classifier("standard")


def score_hand(cards: CardsLike, scoring: Scoring = "american") -> int:
    """Points of one 5-card line under a scoring table (jokers wild, best reading).

    ``cards`` is one string (``"As Kd Jk 9c 9d"``), a list of strings or a list of card ids.
    Raises ``ValueError`` naming a bad card, a wrong count or a bad scoring option.

    >>> score_hand("2s 2h 5d 5c 9s", scoring="english")
    3
    """
    _, points = resolve_scoring(scoring)
    ids = _FULL_DECK.parse(cards, count=5, what="hand")
    return points[_classify()(*ids)]


def score_grid(cards25: CardsLike, scoring: Scoring = "american") -> int:
    """Total points of a full grid: 25 cards row-major, 5 rows plus 5 columns.

    Raises ``ValueError`` naming a bad or duplicate card, a wrong count or a bad scoring option.
    """
    _, points = resolve_scoring(scoring)
    ids = _FULL_DECK.parse(cards25, count=GRID_CELLS, what="grid")
    classify = _classify()
    return sum(points[classify(*(ids[c] for c in line))] for line in LINES)


# --- state and rules -------------------------------------------------------------------------
@dataclass
class SquaresState:
    """One grid in progress. Create with :meth:`PokerSquaresRules.new_state`; mutate only through
    :meth:`PokerSquaresRules.place`.
    """

    cards: list[int]
    """The 25 cards in placement order."""
    grid: list[int]
    """25 cells row-major, ``EMPTY`` when empty."""
    placed: int
    """Cards placed so far; ``cards[placed]`` is the card to place now."""
    mask: np.ndarray
    """``int8 (25,)``: the legal cells now."""
    line_fill: list[int]
    """Cards in each line (rows 0..4, columns 5..9)."""
    line_points: list[int]
    """Points of each completed line, 0 until it is complete."""
    to_come: np.ndarray
    """``int16 (53,)``: copies of each card id still to come after the current one."""
    score: int
    """Points of the completed lines."""

    @property
    def card(self) -> int:
        """The card to place now, ``EMPTY`` once the grid is full."""
        return self.cards[self.placed] if self.placed < GRID_CELLS else EMPTY

    def copy(self) -> SquaresState:
        return SquaresState(
            list(self.cards),
            list(self.grid),
            self.placed,
            self.mask.copy(),
            list(self.line_fill),
            list(self.line_points),
            self.to_come.copy(),
            self.score,
        )


class PokerSquaresRules:
    """The rules of one grid under one set of options: deal, legal cells, place, score.

    >>> game = PokerSquaresRules()
    >>> state = game.new_state("8c Qc Tc 4c 2c 9h Qh Th Jh Kh Ad 8d Td 4h 5s "
    ...                        "As Qs Ts Js Ks 3d 6s 7h 4d 5d")
    >>> sum(game.place(state, cell) for cell in range(25))
    302
    """

    def __init__(
        self,
        *,
        scoring: Scoring = "american",
        jokers: int = 0,
        placement: str = "free",
        variant: str = "deal",
    ) -> None:
        self.scoring, self.points = resolve_scoring(scoring)
        self.jokers = check_int("jokers", jokers, 0, MAX_JOKERS)
        self.placement = check_choice("placement", placement, PLACEMENTS)
        self.variant = check_choice("variant", variant, VARIANTS)
        self.deck = Deck("standard", jokers=self.jokers)
        self._classify = _classify()
        initial = np.zeros(GRID_CELLS, dtype=np.int8)
        if self.placement == "adjacent":
            initial[CENTRE] = 1
        else:
            initial[:] = 1
        self.initial_mask = initial
        self.initial_mask.setflags(write=False)

    # dealing
    def deal(self, rng: np.random.Generator) -> list[int]:
        """The 25 cards of a new grid in dealing order (before the variant's ordering)."""
        if not isinstance(rng, np.random.Generator):
            raise TypeError(f"rng must be a numpy.random.Generator, got {type(rng).__name__}")
        return rng.permutation(self.deck.cards)[:GRID_CELLS].tolist()

    def new_state(
        self, cards: CardsLike | None = None, *, rng: np.random.Generator | None = None
    ) -> SquaresState:
        """A fresh grid: ``cards`` (25, in dealing order) or, without them, a deal from ``rng``.

        The shuffle variant places the cards in descending id order. Raises ``ValueError``
        naming a card the deck cannot supply.
        """
        if cards is None:
            if rng is None:
                raise ValueError("new_state needs the 25 cards or an rng to deal them")
            ids = self.deal(rng)
        else:
            ids = self.deck.parse(cards, count=GRID_CELLS, what="deal")
        if self.variant == "shuffle":
            ids.sort(reverse=True)
            to_come = np.bincount(ids, minlength=len(self.deck.counts)).astype(np.int16)
        else:
            to_come = self.deck.counts.copy()
        to_come[ids[0]] -= 1
        return SquaresState(
            ids, [EMPTY] * GRID_CELLS, 0, self.initial_mask.copy(), [0] * 10, [0] * 10, to_come, 0
        )

    # rules
    def is_terminal(self, state: SquaresState) -> bool:
        """The grid is full."""
        return state.placed == GRID_CELLS

    def place(self, state: SquaresState, cell: object) -> int:
        """Place the current card on ``cell``; return the points of the lines it completes.

        Raises :class:`~pokerzoo.envs.core.errors.IllegalActionError` (naming the cell and the
        legal ones) for an occupied or masked cell and
        :class:`~pokerzoo.envs.core.errors.GameOverError` after the last card; the state is
        unchanged then.
        """
        if state.placed == GRID_CELLS:
            raise GameOverError("the grid is full: the game is over, call reset() first")
        return self.put(state, check_action(cell, state.mask, cell_name, "cell"))

    def put(self, state: SquaresState, cell: int) -> int:
        """:meth:`place` for a ``cell`` known to be legal (checked by the caller: the table's
        :meth:`~pokerzoo.envs.poker_squares.game.PokerSquaresGame.apply`)."""
        card = state.cards[state.placed]
        grid = state.grid
        grid[cell] = card
        state.placed += 1
        mask = state.mask
        mask[cell] = 0
        if self.placement == "adjacent":
            for near in NEIGHBOURS[cell]:
                if grid[near] == EMPTY:
                    mask[near] = 1
        earned = 0
        for line in CELL_LINES[cell]:
            state.line_fill[line] += 1
            if state.line_fill[line] == 5:
                a, b, c, d, e = (grid[i] for i in LINES[line])
                points = self.points[self._classify(a, b, c, d, e)]
                state.line_points[line] = points
                earned += points
        state.score += earned
        if state.placed < GRID_CELLS:
            state.to_come[state.cards[state.placed]] -= 1
        return earned

    def hand_class(self, cards: list[int]) -> int:
        """Hand class of one full line of 5 card ids (the index of :attr:`points`)."""
        return self._classify(*cards)

    def line_points(self, cards: list[int]) -> int:
        """Points of one full line of 5 card ids under this game's scoring."""
        return self.points[self._classify(*cards)]
