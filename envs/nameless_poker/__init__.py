"""Poker without a name (RULES §4, seed 003): four-player trick bids over 30 deals, two jokers.

Modules: :mod:`.rules` (:class:`NamelessPokerRules`, dealing, bidding, play and scoring: its
docstring is the manual), :mod:`.game` (:class:`NamelessPokerGame`, the engine every env drives:
the rules with each seat's observation and info, the whole state and the text view),
:mod:`.state` (its state record), :mod:`.deals` (the rules of one deal: schedule,
follow rules, trick winner, scoring), :mod:`.observation` (:data:`LAYOUT`,
:func:`encode_observation`, :func:`decode_observation`: the index table), :mod:`.render` (the
spectator's view), :mod:`.api` (RULES §6: :func:`trick_winner`, :func:`legal_plays`,
:func:`deal_score`), the analysis the bots and the training features share (imported on their
own): :mod:`.analysis` (the rules policy), :mod:`.sampling` (deals of the unseen cards) and
:mod:`.playout` (deals played out by the rules policy), :mod:`.pettingzoo_env` (also
``pokerzoo.envs.nameless_poker_v0``), :mod:`.env` (the Gymnasium id
``pokerzoo/NamelessPoker-v0``, imported on its own; its bots, which the registry entry names,
are imported when an env is built) and :mod:`.spec` (the registry entry).
"""

from __future__ import annotations

from . import api, deals, game, observation, render, state
from .api import *  # noqa: F403 - the package re-exports its modules' public names
from .deals import *  # noqa: F403
from .game import *  # noqa: F403
from .observation import *  # noqa: F403
from .render import *  # noqa: F403
from .rules import *  # noqa: F403
from .state import *  # noqa: F403

__all__ = [
    *api.__all__,
    *deals.__all__,
    *game.__all__,  # the rules' names too (game.py re-exports them)
    *observation.__all__,
    *render.__all__,
    *state.__all__,
]
