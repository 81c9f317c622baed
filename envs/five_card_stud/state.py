"""The record of a five-card stud game in progress, and the constants every module of the game
shares (kept apart from :mod:`.game` so that the observation and the render can read a state
without importing the engine)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..core.betting import Betting

__all__ = [
    "CARDS_PER_HAND",
    "FiveCardStudState",
    "HISTORY_KINDS",
    "MAX_PLAYERS",
    "NUM_ROUNDS",
    "StudOptions",
]

MAX_PLAYERS = 10
NUM_ROUNDS = 4  # a betting round after the second, third, fourth and fifth card
CARDS_PER_HAND = 5
HISTORY_KINDS = ("bets/raises", "calls", "checks", "folds")
"""What the betting history counts, per round and seat (the last axis of
:attr:`FiveCardStudState.history`)."""


@dataclass(frozen=True)
class StudOptions:
    """The validated options of one game (see :class:`~.game.FiveCardStudGame`)."""

    num_players: int = 2
    ante: int = 1
    bets: tuple[int, int] = (1, 2)
    max_raises: int = 3
    stack: tuple[int, ...] = (100, 100)
    """Each seat's chips at the start."""
    first_to_act: str = "highest"
    last_card_down: bool = False
    deuces_wild: bool = False
    jokers: int = 0
    hi_lo: bool = False
    low_qualifier: int | None = None
    hands: int = 1

    @property
    def cap(self) -> int:
        """Most bets plus raises in one betting round: one bet and ``max_raises`` raises."""
        return 1 + self.max_raises

    def face_up(self, position: int) -> bool:
        """Whether the card dealt ``position``-th (0 = the hole card) is dealt face up."""
        return 0 < position < CARDS_PER_HAND - 1 or (
            position == CARDS_PER_HAND - 1 and not self.last_card_down
        )


@dataclass(eq=False)
class FiveCardStudState:
    """A game in progress, created by :meth:`~.game.FiveCardStudGame.new_state` and changed
    only by :meth:`~.game.FiveCardStudGame.apply`.

    Seats are absolute (``player_0`` is seat 0). The lists of :attr:`betting` hold each seat's
    stack, chips put in and folds; :attr:`results` keeps every finished hand's report.
    """

    options: StudOptions
    rng: np.random.Generator | None
    """Draws every pack after the first fixed cards; ``None`` deals the rest in id order."""
    hand: int
    """Index of the hand in play (0 for the first)."""
    dealer: int
    """Seat of this hand's dealer: seat ``hand % num_players``."""
    pack: np.ndarray
    """``int8``: this hand's pack in dealing order (top first)."""
    next_card: int
    """Index in :attr:`pack` of the next card to deal."""
    cards: np.ndarray
    """``int8 (num_players, 5)``: each seat's cards in the order dealt (0: the hole card), -1
    where not dealt."""
    up: np.ndarray
    """``float32 (num_players, 53)``: 1 where a seat shows that card face up (kept after a fold:
    everybody saw it)."""
    betting: Betting
    start_stacks: list[int]
    """Each seat's chips when the hand began (its result is the difference at the end)."""
    history: np.ndarray
    """``float32 (4, num_players, 4)``: per betting round and seat, the :data:`HISTORY_KINDS`
    counts of this hand (float32: the observation copies it as it is)."""
    over: bool = False
    results: list[dict[str, Any]] = field(default_factory=list)
    """Every finished hand's report, as the text view shows it: ``hand`` (1-based),
    ``dealer``, ``showdown``, ``shown`` (per seat, the five cards as a string, or ``None``),
    ``categories`` (per seat, the high hand's name, or ``None``), ``high_winners`` and
    ``low_winners`` (seats), ``pots`` (each pot's ``amount``, ``eligible`` seats,
    ``high_winners``, ``low_winners`` and ``shares``, a dict seat -> chips), ``chips`` (per
    seat, the hand's result) and ``stacks`` (after the hand)."""
    last_info: dict[str, Any] | None = None
    """The last finished hand's report as every seat's info holds it (numbers only, fixed
    shapes: :meth:`~.game.FiveCardStudGame.info`); ``None`` before the first."""

    @property
    def round(self) -> int:
        """The betting round in progress (0..3)."""
        return self.betting.round

    @property
    def pot(self) -> int:
        """Chips in the pot: 0 once the game is over (the last hand's pots are paid out; the
        chips each seat put in stay in ``betting.committed``)."""
        return 0 if self.over else self.betting.pot
