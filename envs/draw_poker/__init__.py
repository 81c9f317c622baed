"""Draw poker (RULES §2, seed 001): 2-10 players, one or two decks, jokers and deuces wild,
fixed-limit betting before and after a draw, the seed's suit-priority showdown.

Modules: :mod:`.rules` (the rules, :class:`DrawPokerRules`: the rules as implemented and the
options), :mod:`.game` (the engine every env drives, :class:`DrawPokerGame`: the rules with the
views), :mod:`.state` (its state record), :mod:`.actions` (the action table),
:mod:`.observation` (the index table, :func:`encode_observation`, :func:`decode_observation`),
:mod:`.render` (the spectator's view), :mod:`.api` (RULES §6: :func:`compare_hands`,
:func:`hand_category`), :mod:`.analysis` (the caller's draw on many hands at once, for the
equity bot and the training features), :mod:`.hidden` (what one seat of a heads-up hand
can infer of the other's cards: the local best response's range), :mod:`.pettingzoo_env` (also
``pokerzoo.envs.draw_poker_v0``), :mod:`.env` (the Gymnasium id ``pokerzoo/DrawPoker-v0``,
imported on its own; its bots, which the registry entry names, are imported when an env is
built) and :mod:`.spec` (the registry entry).
"""

from __future__ import annotations

from . import actions, api, game, observation, render, state
from .actions import *  # noqa: F403 - the package re-exports its modules' public names
from .api import *  # noqa: F403
from .game import *  # noqa: F403
from .observation import *  # noqa: F403
from .render import *  # noqa: F403
from .rules import *  # noqa: F403
from .state import *  # noqa: F403

__all__ = [
    *actions.__all__,
    *api.__all__,
    *game.__all__,  # the rules' names too (game.py re-exports them)
    *observation.__all__,
    *render.__all__,
    *state.__all__,
]
