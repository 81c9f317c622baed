"""Poker Squares rules engine (RULES §3): dealing, placement, scoring and the observation.

No Gymnasium, PettingZoo or torch import: the single env (:mod:`.poker_squares_env`), the
multi-player env (:mod:`.poker_squares_v0`), the vector env and the bots are thin layers over
this module.

Game
----
A 5x5 grid is filled with 25 cards, one at a time, each on an empty cell (``cell = 5 * row +
col``, row-major); placed cards never move. Each row and column then scores as a poker hand
under a scoring table; jokers are wild and a line scores its best-scoring reading.

Options (validated by :class:`PokerSquaresGame`, each bad value raises ``ValueError`` naming it):

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
``order = rng.permutation(make_deck("standard", jokers=jokers))``; the game's cards are
``order[:25]`` in that order (sorted by descending id in the shuffle variant). Tests hand
:meth:`PokerSquaresGame.new_state` a fixed list of 25 cards instead.

Observation (:func:`encode_observation`, ``uint8``, 522 entries)
-----------------------------------------------------------------
Each card is 18 features: ``[0:13]`` rank one-hot (2..A), ``[13:17]`` suit one-hot
(s, h, d, c), ``[17]`` joker; an empty slot is all zeros.

===========  =================================================================================
index        content
===========  =================================================================================
0..449       the grid: cell ``c`` at ``[18c, 18c+18)``
450..467     the card to place now (all zeros once the game is over)
468..520     per card id 0..52, copies still to come after the current card: ``"deal"``: every
             card of the deck not yet shown (0..1, jokers 0..2); ``"shuffle"``: exactly the
             cards still to place after the current one
521          cards placed so far (0..25)
===========  =================================================================================

Scripted API (RULES §6): :func:`score_hand`, :func:`score_grid`.

>>> score_hand("As Ks Qs Js Ts")
100
>>> score_hand("9h 9d 9c Jk 2s", scoring="english")
16
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Literal, Union

import numpy as np

from .cards import JOKER, NUM_CARD_IDS, CardsLike, format_card, make_deck, parse_cards
from .errors import GameOverError, check_action
from .hands import Category, category_name, make_classifier, points_table

__all__ = [
    "RENDER_MODES",
    "REWARDS",
    "check_reward",
    "CARD_FEATURES",
    "CELL_LINES",
    "EMPTY",
    "GRID_CELLS",
    "HAND_CATEGORIES",
    "HAND_NAMES",
    "LINES",
    "LINE_NAMES",
    "NEIGHBOURS",
    "OBS_CARD",
    "OBS_GRID",
    "OBS_HIGH",
    "OBS_PLACED",
    "OBS_SIZE",
    "OBS_TO_COME",
    "SCORING_TABLES",
    "PokerSquaresGame",
    "Scoring",
    "SquaresState",
    "SquaresView",
    "cell_name",
    "decode_observation",
    "encode_observation",
    "render_grid",
    "resolve_scoring",
    "score_grid",
    "score_hand",
    "update_observation",
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

_OPTIONS_PLACEMENT = ("free", "adjacent")
_OPTIONS_VARIANT = ("deal", "shuffle")
REWARDS = ("final", "incremental")  # reward options of the one-player envs, single and vector
RENDER_MODES = ("ansi", "human")


def check_reward(reward: object) -> str:
    """The one-player envs' ``reward`` option, validated."""
    if not isinstance(reward, str) or reward not in REWARDS:
        raise ValueError(f"bad reward {reward!r}: expected 'final' or 'incremental'")
    return reward


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


@cache
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


def _check_no_duplicates(ids: list[int], max_jokers: int) -> None:
    seen: set[int] = set()
    jokers = 0
    for card in ids:
        if card == JOKER:
            jokers += 1
            if jokers > max_jokers:
                raise ValueError(f"too many jokers: at most {max_jokers} allowed")
        elif card in seen:
            raise ValueError(f"duplicate card {format_card(card)!r}: one deck has one of each")
        seen.add(card)


def score_hand(cards: CardsLike, scoring: Scoring = "american") -> int:
    """Points of one 5-card line under a scoring table (jokers wild, best reading).

    ``cards`` is one string (``"As Kd Jk 9c 9d"``), a list of strings or a list of card ids.
    Raises ``ValueError`` naming a bad card, a wrong count or a bad scoring option.

    >>> score_hand("2s 2h 5d 5c 9s", scoring="english")
    3
    """
    _, points = resolve_scoring(scoring)
    ids = parse_cards(cards)
    if len(ids) != 5:
        raise ValueError(f"expected exactly 5 cards in a hand, got {len(ids)}: {cards!r}")
    _check_no_duplicates(ids, 5)
    return points[_classify()(*ids)]


def score_grid(cards25: CardsLike, scoring: Scoring = "american") -> int:
    """Total points of a full grid: 25 cards row-major, 5 rows plus 5 columns.

    Raises ``ValueError`` naming a bad or duplicate card, a wrong count or a bad scoring option.
    """
    _, points = resolve_scoring(scoring)
    ids = parse_cards(cards25)
    if len(ids) != GRID_CELLS:
        raise ValueError(f"expected exactly 25 cards in a grid, got {len(ids)}")
    _check_no_duplicates(ids, 2)
    classify = _classify()
    return sum(points[classify(*(ids[c] for c in line))] for line in LINES)


# --- state and rules -------------------------------------------------------------------------
@dataclass
class SquaresState:
    """One game in progress. Create with :meth:`PokerSquaresGame.new_state`; mutate only through
    :meth:`PokerSquaresGame.place`.
    """

    cards: list[int]  # the 25 cards in placement order
    grid: list[int]  # 25 cells row-major, EMPTY when empty
    placed: int  # cards placed so far; cards[placed] is the card to place now
    mask: np.ndarray  # int8 (25,): legal cells now
    line_fill: list[int]  # cards in each line (rows 0..4, columns 5..9)
    line_points: list[int]  # points of each completed line, 0 until it is complete
    to_come: np.ndarray  # int16 (53,): copies of each card id still to come after the current
    score: int  # points of the completed lines

    @property
    def over(self) -> bool:
        return self.placed == GRID_CELLS

    @property
    def card(self) -> int:
        """The card to place now, ``EMPTY`` once the game is over."""
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


class PokerSquaresGame:
    """The rules under one set of options: deal, legal cells, place a card, score.

    >>> game = PokerSquaresGame()
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
        if isinstance(jokers, (bool, np.bool_)) or not isinstance(jokers, (int, np.integer)):
            raise ValueError(f"bad jokers {jokers!r}: expected an int in 0..2")
        if not 0 <= jokers <= 2:
            raise ValueError(f"bad jokers {jokers!r}: expected an int in 0..2")
        if placement not in _OPTIONS_PLACEMENT:
            raise ValueError(f"bad placement {placement!r}: expected 'free' or 'adjacent'")
        if variant not in _OPTIONS_VARIANT:
            raise ValueError(f"bad variant {variant!r}: expected 'deal' or 'shuffle'")
        self.jokers = int(jokers)
        self.placement = placement
        self.variant = variant
        self.deck = make_deck("standard", jokers=self.jokers)
        self.deck_counts = np.bincount(self.deck, minlength=NUM_CARD_IDS).astype(np.int16)
        self._classify = _classify()
        self.max_score = max(self.points) * 10

    # dealing
    def deal(self, rng: np.random.Generator) -> list[int]:
        """The 25 cards of a new game in dealing order (before the variant's ordering)."""
        if not isinstance(rng, np.random.Generator):
            raise TypeError(f"rng must be a numpy.random.Generator, got {type(rng).__name__}")
        return rng.permutation(self.deck)[:GRID_CELLS].tolist()

    def new_state(self, cards: CardsLike) -> SquaresState:
        """A fresh game with these 25 cards as dealt (the shuffle variant sorts them)."""
        ids = parse_cards(cards)
        if len(ids) != GRID_CELLS:
            raise ValueError(f"expected 25 cards to deal, got {len(ids)}")
        counts = np.bincount(ids, minlength=NUM_CARD_IDS)
        over = np.flatnonzero(counts > self.deck_counts)
        if over.size:
            card = int(over[0])
            raise ValueError(
                f"card {format_card(card)!r} dealt {int(counts[card])} times: the deck holds "
                f"{int(self.deck_counts[card])} (jokers={self.jokers})"
            )
        if self.variant == "shuffle":
            ids.sort(reverse=True)
            to_come = counts.astype(np.int16)
        else:
            to_come = self.deck_counts.copy()
        to_come[ids[0]] -= 1
        mask = np.zeros(GRID_CELLS, dtype=np.int8)
        if self.placement == "adjacent":
            mask[CENTRE] = 1
        else:
            mask[:] = 1
        return SquaresState(ids, [EMPTY] * GRID_CELLS, 0, mask, [0] * 10, [0] * 10, to_come, 0)

    def reset(self, rng: np.random.Generator) -> SquaresState:
        """A fresh game dealt from ``rng``."""
        return self.new_state(self.deal(rng))

    # rules
    def place(self, state: SquaresState, cell: object) -> int:
        """Place the current card on ``cell``; return the points of the lines it completes.

        Raises :class:`~pokerzoo.envs.errors.IllegalActionError` (naming the cell and the legal
        ones) for an occupied or masked cell and :class:`~pokerzoo.envs.errors.GameOverError`
        after the last card; the state is unchanged then.
        """
        if state.placed == GRID_CELLS:
            raise GameOverError("the grid is full: the game is over, call reset() first")
        cell = check_action(cell, state.mask, cell_name, "cell")
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

    def legal_cells(self, state: SquaresState) -> list[int]:
        return np.flatnonzero(state.mask).tolist()

    def line_points(self, cards: list[int]) -> int:
        """Points of one full line of 5 card ids under this game's scoring."""
        return self.points[self._classify(*cards)]


# --- observation ---------------------------------------------------------------------------
OBS_SIZE = 522
OBS_GRID = slice(0, 450)
OBS_CARD = slice(450, 468)
OBS_TO_COME = slice(468, 521)
OBS_PLACED = 521
_CARD_AT = 450
_TO_COME_AT = 468


def _card_features() -> np.ndarray:
    table = np.zeros((NUM_CARD_IDS + 1, 18), dtype=np.uint8)  # last row: an empty slot
    for card in range(52):
        table[card, card >> 2] = 1
        table[card, 13 + (card & 3)] = 1
    table[JOKER, 17] = 1
    return table


CARD_FEATURES = _card_features()  # row EMPTY (-1, the last) is all zeros
CARD_FEATURES.setflags(write=False)

OBS_HIGH = np.ones(OBS_SIZE, dtype=np.uint8)
OBS_HIGH[_TO_COME_AT + JOKER] = 2
OBS_HIGH[OBS_PLACED] = GRID_CELLS
OBS_HIGH.setflags(write=False)


def encode_observation(state: SquaresState, out: np.ndarray | None = None) -> np.ndarray:
    """The 522-entry ``uint8`` observation of a state (index table in the module docstring)."""
    obs = np.zeros(OBS_SIZE, dtype=np.uint8) if out is None else out
    obs[:450] = CARD_FEATURES[state.grid].reshape(-1)
    obs[OBS_CARD] = CARD_FEATURES[state.card]
    obs[OBS_TO_COME] = state.to_come
    obs[OBS_PLACED] = state.placed
    return obs


def update_observation(obs: np.ndarray, state: SquaresState, cell: int) -> None:
    """Bring ``obs`` up to date after :meth:`PokerSquaresGame.place` put a card on ``cell``.

    Touches only what a placement changes, so an env step costs a few slice writes.
    """
    obs[18 * cell : 18 * cell + 18] = CARD_FEATURES[state.grid[cell]]
    card = state.card
    obs[OBS_CARD] = CARD_FEATURES[card]
    if card != EMPTY:
        obs[_TO_COME_AT + card] = state.to_come[card]
    obs[OBS_PLACED] = state.placed


@dataclass(frozen=True)
class SquaresView:
    """What an observation says, decoded: see :func:`decode_observation`."""

    grid: list[int]  # 25 card ids row-major, EMPTY for empty cells
    card: int  # the card to place now, EMPTY once the game is over
    to_come: np.ndarray  # int64 (53,): copies of each card id still to come after ``card``
    placed: int  # cards placed so far


_FEATURE_RANK = np.arange(13, dtype=np.int64)
_FEATURE_SUIT = np.arange(4, dtype=np.int64)


def decode_observation(observation: np.ndarray) -> SquaresView:
    """Decode a 522-entry observation (the inverse of :func:`encode_observation`)."""
    obs = np.asarray(observation)
    if obs.shape != (OBS_SIZE,):
        raise ValueError(f"expected a Poker Squares observation of shape (522,), got {obs.shape}")
    slots = obs[:_TO_COME_AT].reshape(26, 18).astype(np.int64)
    ids = 4 * (slots[:, :13] @ _FEATURE_RANK) + slots[:, 13:17] @ _FEATURE_SUIT
    ids = np.where(slots[:, 17] > 0, JOKER, ids)
    ids = np.where(slots.any(axis=1), ids, EMPTY).tolist()
    return SquaresView(
        ids[:GRID_CELLS], ids[GRID_CELLS], obs[OBS_TO_COME].astype(np.int64), int(obs[OBS_PLACED])
    )


# --- rendering -------------------------------------------------------------------------------
def _partial_name(cards: list[int]) -> str:
    """The hand made so far by an incomplete line (groups of ranks only, jokers wild)."""
    counts = sorted(np.bincount([c >> 2 for c in cards if c != JOKER], minlength=13), reverse=True)
    counts[0] += sum(1 for c in cards if c == JOKER)
    if counts[0] >= 4:
        return "four of a kind"
    if counts[0] == 3:
        return "three of a kind"
    if counts[0] == 2:
        return "two pair" if counts[1] == 2 else "pair"
    return "high card"


@cache
def _reachable() -> tuple[tuple[int, ...], ...]:
    """Per hand class, the categories some wild-card reading of it reaches."""
    tables = [points_table({cat: 1}) for cat in Category]
    return tuple(
        tuple(int(cat) for cat in Category if tables[cat][cls] > 0) for cls in range(len(tables[0]))
    )


def _line_text(game: PokerSquaresGame, state: SquaresState, line: int) -> str:
    cards = [state.grid[c] for c in LINES[line] if state.grid[c] != EMPTY]
    if len(cards) == 5:
        cls = game._classify(*cards)
        points = game.points[cls]
        by_name = {HAND_CATEGORIES[name]: value for name, value in game.scoring.items()}
        # the reading the line scores as: the best-paying reachable category, highest first
        best = max(_reachable()[cls], key=lambda cat: (by_name.get(cat, 0), cat))
        name = category_name(best) if best != Category.NOTHING else "high card"
        return f"{name:<16}{points:>4}"
    if not cards:
        return "empty"
    return f"{_partial_name(cards) + ' so far':<20} ({len(cards)}/5)"


def render_grid(game: PokerSquaresGame, state: SquaresState) -> str:
    """A text picture of the grid with each row's and column's hand and points.

    Full lines show the hand they score as and its points; incomplete lines show the hand made
    so far and how many cards they hold.
    """
    out = ["      " + "  ".join(f"c{c + 1}" for c in range(5))]
    for r in range(5):
        cells = "  ".join(
            format_card(state.grid[5 * r + c]) if state.grid[5 * r + c] != EMPTY else ".."
            for c in range(5)
        )
        out.append(f"  r{r + 1}  {cells}   {_line_text(game, state, r)}")
    for c in range(5):
        out.append(f"  c{c + 1}  {_line_text(game, state, 5 + c)}")
    if state.over:
        out.append(f"  final score {state.score}")
    else:
        out.append(
            f"  card to place {format_card(state.card)}   placed {state.placed}/25   "
            f"score so far {state.score}"
        )
    return "\n".join(out) + "\n"
