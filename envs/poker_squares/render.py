"""Text pictures of Poker Squares grids: each row's and column's hand and points."""

from __future__ import annotations

from functools import cache

import numpy as np

from ..core.cards import JOKER, format_card
from ..core.hands import Category, category_name, points_table
from .rules import EMPTY, HAND_CATEGORIES, LINES, PokerSquaresRules, SquaresState

__all__ = ["render_grid"]


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


def _line_text(game: PokerSquaresRules, state: SquaresState, line: int) -> str:
    cards = [state.grid[c] for c in LINES[line] if state.grid[c] != EMPTY]
    if len(cards) == 5:
        cls = game.hand_class(cards)
        points = game.points[cls]
        by_name = {HAND_CATEGORIES[name]: value for name, value in game.scoring.items()}
        # the reading the line scores as: the best-paying reachable category, highest first
        best = max(_reachable()[cls], key=lambda cat: (by_name.get(cat, 0), cat))
        name = category_name(best) if best != Category.NOTHING else "high card"
        return f"{name:<16}{points:>4}"
    if not cards:
        return "empty"
    return f"{_partial_name(cards) + ' so far':<20} ({len(cards)}/5)"


def render_grid(game: PokerSquaresRules, state: SquaresState) -> str:
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
    if game.is_terminal(state):
        out.append(f"  final score {state.score}")
    else:
        out.append(
            f"  card to place {format_card(state.card)}   placed {state.placed}/25   "
            f"score so far {state.score}"
        )
    return "\n".join(out) + "\n"
