"""The contract between a game's rules engine and the shared env plumbing.

A game's rules live in one class per game (``PokerSquaresTable``, ``QuintetGame``,
``DrawPokerGame``, ...) holding the options, and a state record it creates and mutates. The
engine imports no RL library; the shared PettingZoo env (:mod:`.pettingzoo_env`), the
single-seat Gymnasium view (:mod:`.single_seat`), the bots and the tests all drive it through
this contract:

=========================================  =====================================================
``num_players``, ``num_actions``           seats (``player_0`` ..) and the size of the one
                                           ``Discrete`` action space
``layout``                                 the :class:`~.observation.ObservationLayout` of one
                                           seat's observation
``simultaneous``                           ``True`` when every seat acts once per round without
                                           seeing the others' moves of that round (a parallel
                                           env exists then)
``deal(rng)``                              the cards of a random game, in the order
                                           ``new_state`` takes them
``new_state(cards=None, *, rng=None,``    a new game; ``cards`` fixes the (first) deal, in the
``**reset_options)``                       game's documented order, ``rng`` draws everything
                                           else; the env's other reset options (its
                                           ``reset_options``) arrive as keywords; raises
                                           ``ValueError`` naming a bad card or option
``current_player(state)``                  the seat to act (in AEC order); ``-1`` once over
``legal_mask(state, player)``              ``int8 (num_actions,)``: what ``player`` may do now
                                           (all zeros when it may not act)
``apply(state, player, action)``           play it; returns a :class:`Payout` or ``None``;
                                           raises :class:`~.errors.IllegalActionError` (the
                                           state unchanged) for an action ``legal_mask``
                                           forbids, :class:`~.errors.GameOverError` once over
``is_terminal(state)``                     the game is over
``observe(state, player)``                 ``player``'s observation (a new array); another
                                           seat's hidden cards never appear in it
``describe_action(action)``                the action's name for messages and menus
``action_noun`` (optional)                 what an action is called in messages (``"cell"``,
                                           ``"pack"``; default ``"action"``)
``render(state)``                          a spectator's text view
``info_schema``, ``info(state, player)``   optional (:mod:`.info`): the seat's info, the same
                                           keys, types and shapes at every step, in new arrays
                                           (the env keeps them, read-only); it may change only
                                           on a transition that returns a :class:`Payout` (the
                                           env reads it then)
``info_shared`` (optional)                 ``True`` when every seat's info is the same (the env
                                           reads it once per payout)
``state_layout``, ``encode_state(state)``  optional: the whole game as one float32 vector
                                           (``env.state()``), hidden cards included
=========================================  =====================================================

Turn-based games let only ``current_player`` act; simultaneous games let every seat that has
not acted yet in the round act in any order (the AEC env takes them in seat order).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, TypeVar

import numpy as np

from .cards import CardsLike, Deck
from .observation import ObservationLayout

__all__ = ["Game", "PackGame", "Payout"]

StateT = TypeVar("StateT")


@dataclass(frozen=True)
class Payout:
    """What one transition settled: each seat's reward. The seats' infos are read from the
    engine's ``info`` after it (what a round, a hand or the game settled)."""

    rewards: tuple[float, ...]


class Game(Protocol[StateT]):
    """The rules of one game under one set of options (see the module docstring)."""

    num_players: int
    num_actions: int
    layout: ObservationLayout
    simultaneous: bool

    def deal(self, rng: np.random.Generator) -> list[int]: ...

    def new_state(
        self, cards: CardsLike | None = None, *, rng: np.random.Generator | None = None
    ) -> StateT: ...

    def current_player(self, state: StateT) -> int: ...

    def legal_mask(self, state: StateT, player: int) -> np.ndarray: ...

    def apply(self, state: StateT, player: int, action: object) -> Payout | None: ...

    def is_terminal(self, state: StateT) -> bool: ...

    def observe(self, state: StateT, player: int) -> np.ndarray: ...

    def describe_action(self, action: int) -> str: ...

    def render(self, state: StateT) -> str: ...


class PackGame:
    """Base of the games that deal every game from the whole of one pack, :attr:`deck` (draw
    poker, stud, poker without a name): a random game is that pack shuffled."""

    deck: Deck

    def deal(self, rng: np.random.Generator) -> list[int]:
        """A shuffled pack, top card first: what ``new_state(cards)`` deals from."""
        return self.deck.pack(rng=rng).tolist()
