"""The contract between a game's rules engine and the shared env plumbing.

A game's rules live in one class per game (``PokerSquaresGame``, ``QuintetGame``,
``DrawPokerGame``, ...) holding the options, and a state record it creates and mutates. Every
engine derives from :class:`Engine`, whose :meth:`~Engine.apply` checks once that the seat may
still act, that it is a seat and that the action is legal, then calls the engine's own
:meth:`~Engine.transition`: an engine writes only its transition (and, where its messages need
more context, :meth:`~Engine.game_over` and :meth:`~Engine.illegal`). The envs check the action
against the mask they hold and call ``transition`` directly. The engine imports no RL library;
the shared PettingZoo env (:mod:`.pettingzoo_env`), the single-seat Gymnasium view
(:mod:`.single_seat`), the bots and the tests all drive it through this contract:

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
                                           (:class:`Engine` implements it)
``transition(state, player, action)``      the same for an action known to be legal: the
                                           game's own rules (what :class:`Engine` calls)
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
``blind``, ``plays(state)``,               optional: ``True`` when every seat plays blind,
``with_plays(state, plays)``               what it observes and may do depending only on the
                                           deal and its own moves (never on another seat's
                                           moves, nor on which seat it holds); such an engine
                                           gives each seat's moves of a finished game (an
                                           array, a row a seat) and the finished game in which
                                           the seats made the moves ``plays`` (a new state),
                                           so an evaluation scores players' moves of one deal
                                           against each other without playing each pairing
=========================================  =====================================================

Turn-based games let only ``current_player`` act; simultaneous games let every seat that has
not acted yet in the round act in any order (the AEC env takes them in seat order).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

import numpy as np

from .cards import CardsLike, Deck
from .errors import GameOverError, IllegalActionError, check_action
from .observation import ObservationLayout
from .options import check_int

__all__ = ["Engine", "Game", "PackGame", "Payout"]

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

    def transition(self, state: StateT, player: int, action: int) -> Payout | None: ...

    def is_terminal(self, state: StateT) -> bool: ...

    def observe(self, state: StateT, player: int) -> np.ndarray: ...

    def describe_action(self, action: int) -> str: ...

    def render(self, state: StateT) -> str: ...


class Engine(Generic[StateT]):
    """Base of every game's engine (see the module docstring): :meth:`apply` checks, then
    :meth:`transition` plays. A subclass defines the contract's other members."""

    num_players: int
    num_actions: int
    action_noun: str = "action"
    """What an action is called in messages (``"cell"``, ``"pack"``)."""

    def apply(self, state: StateT, player: int, action: object) -> Payout | None:
        """Play ``action`` for ``player``; the :class:`Payout` it settles, else ``None``.

        Raises:
            ValueError: ``player`` is not a seat.
            GameOverError: ``player`` may not act any more (:meth:`game_over` says why).
            IllegalActionError: ``action`` is not an int in the action space, or the mask
                forbids it (:meth:`illegal` words it: the seat, the action, the legal ones).
            The state is unchanged after any of them.
        """
        if type(player) is not int or not 0 <= player < self.num_players:
            player = check_int("player", player, 0, self.num_players - 1)
        over = self.game_over(state, player)
        if over is not None:
            raise GameOverError(over)
        # the common case, a plain int the mask allows, is recognised by ``allows`` (which an
        # engine may answer without building the mask); anything else goes through
        # check_action: numpy ints pass, the rest raise
        if type(action) is not int or not self.allows(state, player, action):
            try:
                action = check_action(
                    action,
                    self.legal_mask(state, player),
                    self.describer(state, player),
                    self.action_noun,
                )
            except IllegalActionError as err:
                raise IllegalActionError(self.illegal(state, player, err)) from None
        return self.transition(state, player, action)

    def transition(self, state: StateT, player: int, action: int) -> Payout | None:
        """Play a legal ``action`` for ``player`` (the game's rules; :meth:`apply` checked it)."""
        raise NotImplementedError(f"{type(self).__name__} defines no transition")

    def game_over(self, state: StateT, player: int) -> str | None:
        """Why ``player`` may not act any more, the :class:`GameOverError`'s message; ``None``
        while it may. The default: the game is over (:meth:`is_terminal`)."""
        return "the game is over: call reset()" if self.is_terminal(state) else None

    def allows(self, state: StateT, player: int, action: int) -> bool:
        """``legal_mask(state, player)[action]`` for an int ``action`` (out of the space:
        ``False``); an engine may answer it without building the mask."""
        return 0 <= action < self.num_actions and bool(self.legal_mask(state, player)[action])

    def describer(self, state: StateT, player: int) -> Callable[[int], str]:
        """How an illegal action's message names actions: ``describe_action`` by default."""
        return self.describe_action

    def illegal(self, state: StateT, player: int, error: IllegalActionError) -> str:
        """The message of an illegal action: the seat, ``error`` (the action and the legal
        ones) and, when another seat is to act, which."""
        current = self.current_player(state)
        turn = "" if current in (player, -1) else f" (player_{current} is to act)"
        return f"player_{player}: {error}{turn}"

    # the rest of the contract, defined by every engine
    def legal_mask(self, state: StateT, player: int) -> np.ndarray:
        raise NotImplementedError

    def current_player(self, state: StateT) -> int:
        raise NotImplementedError

    def is_terminal(self, state: StateT) -> bool:
        raise NotImplementedError

    def describe_action(self, action: int) -> str:
        return str(action)


class PackGame:
    """Base of the games that deal every game from the whole of one pack, :attr:`deck` (draw
    poker, stud, poker without a name): a random game is that pack shuffled."""

    deck: Deck

    def deal(self, rng: np.random.Generator) -> list[int]:
        """A shuffled pack, top card first: what ``new_state(cards)`` deals from."""
        return self.deck.pack(rng=rng).tolist()
