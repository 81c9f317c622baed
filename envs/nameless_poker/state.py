"""The state record of a nameless poker episode (RULES §4): the deal in progress and the
running totals.

Created by :meth:`~pokerzoo.envs.nameless_poker.game.NamelessPokerGame.new_state` and mutated
only by :meth:`~pokerzoo.envs.nameless_poker.game.NamelessPokerGame.apply`; the observation and
the text view read it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..core.cards import JOKER, NUM_CARD_IDS
from .deals import HAND_SIZES, NO_TRUMP, NUM_PLAYERS, deal_kind

__all__ = ["NamelessPokerState"]


@dataclass(eq=False)
class NamelessPokerState:
    """One episode in progress; mutated only by :meth:`~.game.NamelessPokerGame.apply`.

    Seats are absolute (``0..3``). The per-deal attributes describe the deal in progress (the
    last deal once the episode is over).
    """

    rng: np.random.Generator | None
    """Draws every later deal's pack (``None``: packs in id order)."""
    deals: tuple[int, ...]
    """The deal numbers of the episode, in playing order."""
    deal_index: int = 0
    """Position in ``deals`` of the deal in progress."""
    dealer: int = 0
    """Seat dealing the deal in progress: the first deal's by lot (or
    ``new_state(dealer=...)``), then one seat clockwise each deal."""
    hands: list[list[int]] = field(default_factory=lambda: [[] for _ in range(NUM_PLAYERS)])
    """Each seat's cards, ascending ids (a joker is 52)."""
    turned: int = JOKER
    """The card turned for trump."""
    trump: int = NO_TRUMP
    bids: list[int | None] = field(default_factory=lambda: [None] * NUM_PLAYERS)
    tricks: list[int] = field(default_factory=lambda: [0] * NUM_PLAYERS)
    """Tricks taken this deal."""
    bidding: bool = False
    leader: int = 0
    """Seat that leads the current trick."""
    trick: list[int] = field(default_factory=list)
    """Cards of the current trick in play order (at most 3 between actions)."""
    called: int = NO_TRUMP
    """Suit the leader named when the current trick opened with a joker."""
    played: np.ndarray = field(default_factory=lambda: np.zeros(NUM_CARD_IDS, dtype=np.int16))
    """``int16 (53,)``: copies of each card played this deal, the current trick included."""
    voids: np.ndarray = field(default_factory=lambda: np.zeros((NUM_PLAYERS, 5), dtype=np.int16))
    """``int16 (4, 5)``: 1 where a seat's plays this deal showed it holds no natural card of
    suit s, h, d, c (columns 0..3) or no joker (column 4); public knowledge."""
    to_act: int = 0
    """Seat to act, ``-1`` once the episode is over."""
    totals: list[int] = field(default_factory=lambda: [0] * NUM_PLAYERS)
    """Running totals of the episode."""
    last_trick: tuple[tuple[int, ...], int, int] | None = None
    """The last trick completed this deal: its cards in play order, its leader and winner."""
    results: list[dict[str, Any]] = field(default_factory=list)
    """The record of every deal settled so far, in playing order: ``deal`` (number),
    ``deal_kind`` (its name in :data:`.deals.DEAL_KINDS`), ``bids`` (by seat; ``None`` in minimum
    and maximum deals), ``tricks``, ``deal_scores`` and ``totals`` (tuples by seat), and in the
    episode's last deal ``winners`` (the seats with the highest total). The info
    (:meth:`~.game.NamelessPokerGame.info`) is the last of them, as numbers."""

    @property
    def deal(self) -> int:
        """Number (1..30) of the deal in progress, of the last deal once the episode is over."""
        return self.deals[min(self.deal_index, len(self.deals) - 1)]

    @property
    def kind(self) -> int:
        """Index in :data:`.deals.DEAL_KINDS` of the deal in progress."""
        return deal_kind(self.deal)

    @property
    def hand_size(self) -> int:
        """Cards dealt to each seat in the deal in progress."""
        return HAND_SIZES[self.deal - 1]
