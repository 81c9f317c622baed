"""A spectator's text view of a Quintet deal."""

from __future__ import annotations

from collections.abc import Sequence

from ..core.cards import format_card, format_cards
from ..core.hands import category_name, hand_category
from .rules import NUM_PACKS, NUM_PLAYERS, PACK_SIZE, POSITION_POINTS, QuintetRules, QuintetState

__all__ = ["render_text"]


def _pack_label(cards: Sequence[int]) -> str:
    text = format_cards(cards)
    if len(cards) == PACK_SIZE:
        text += f"  ({category_name(hand_category(cards, 'quintet'), 'quintet')})"
    return text


def render_text(rules: QuintetRules, state: QuintetState) -> str:
    """The cards, both rows so far and, at the end, each position's result and the score."""
    lines = [
        f"Quintet  cards in play: {format_cards(state.cards)}",
        f"         removed: {format_cards(state.removed)}",
    ]
    for player in range(NUM_PLAYERS):
        card = rules.current_card(state, player)
        status = f"next {format_card(card)}" if card is not None else "done"
        lines.append(f"player_{player}: {int(state.placed[player])}/25 placed, {status}")
    rows = [rules.pack_cards(state, player) for player in range(NUM_PLAYERS)]
    result = rules.outcome(state) if rules.is_terminal(state) else None
    lines.append("pos pts  player_0                                  player_1")
    for p in range(NUM_PACKS):
        mark = ""
        if result is not None:
            mark = {1: "  < player_0", -1: "  > player_1", 0: "  = equal"}[result.results[p]]
        left, right = _pack_label(rows[0][p]), _pack_label(rows[1][p])
        lines.append(f"{p + 1:>3} {POSITION_POINTS[p]:>3}  {left:<40}  {right}{mark}".rstrip())
    if result is not None:
        p0, p1 = result.points
        verdict = "draw" if result.winner is None else f"player_{result.winner} wins"
        lines.append(f"points: player_0 {p0}, player_1 {p1}: {verdict}")
    return "\n".join(lines)
