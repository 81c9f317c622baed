"""The state record of a draw poker game: the hand in play and what carries over to the next.

Created by :meth:`~pokerzoo.envs.draw_poker.game.DrawPokerGame.new_state` and mutated only by
:meth:`~pokerzoo.envs.draw_poker.game.DrawPokerGame.apply`; the observation and the text view
read it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..core.betting import Betting
from .actions import PHASE_BET_BEFORE

__all__ = ["DrawPokerState"]


@dataclass(eq=False)
class DrawPokerState:
    """A game in progress: the hand being played and what carries over to the next.

    Mutated only by :meth:`DrawPokerGame.apply`. Lists are indexed by seat.
    """

    betting: Betting
    """The money of the hand: stacks, bets, folds, the betting round in progress."""
    hands: list[list[int]]
    """Each seat's cards, highest id first (empty for a seat sitting out)."""
    stock: list[int]
    """The stock, top card first."""
    discards: list[int] = field(default_factory=list)
    """Cards discarded in this draw that are not yet reshuffled into the stock."""
    drawn: list[int] = field(default_factory=list)
    """Cards each seat drew this hand, -1 before its draw."""
    draws: np.ndarray = field(default_factory=lambda: np.zeros((2, 0), dtype=np.float32))
    """``float32 (2, N)``: :attr:`drawn` as the observation shows it, kept in step with it (row
    0 the cards drawn, 0 before the draw; row 1 whether the seat has drawn)."""
    draw_queue: list[int] = field(default_factory=list)
    """Seats still to draw, in order; the first is to act."""
    history: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.float32))
    """Betting summary, ``float32``: index ``(phase * N + seat) * 4 + kind``, kinds bets/raises,
    calls, checks, folds (the observation's ``history`` field by absolute seat: the observation
    turns it to the observer's seats)."""
    dealer: int = 0
    """The seat dealing the hand in play (the first hand's is drawn by lot, or fixed by
    ``new_state(dealer=...)``; then the next seat clockwise with chips each hand)."""
    phase: int = PHASE_BET_BEFORE
    hand_number: int = 0
    """The hand in play, 0-based."""
    num_hands: int = 1
    bets: tuple[int, int] = (1, 2)
    start_stacks: list[int] = field(default_factory=list)
    """Stacks before this hand's antes (chip results are measured from them)."""
    last_hand: Mapping[str, Any] | None = None
    """The report of the last hand settled, as the text view shows it (the cards shown as
    strings, the category names, the pots with their shares as dicts)."""
    last_info: dict[str, Any] | None = None
    """The same report as every seat's info holds it (numbers only, fixed shapes:
    :meth:`~pokerzoo.envs.draw_poker.game.DrawPokerGame.info`); ``None`` before the first
    hand is settled."""
    rng: np.random.Generator | None = None
    """Every shuffle after the first deal draws from it (``None``: nothing is shuffled)."""
