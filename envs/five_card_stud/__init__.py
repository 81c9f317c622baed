"""Five-card stud (RULES §5, seed 004): 2-10 players, a hole card and four up cards (or the
last one down), four fixed-limit betting rounds, wild deuces and a joker, high-low.

Modules: :mod:`.rules` (:class:`FiveCardStudRules`: the rules as implemented, the options, the
action table), :mod:`.game` (:class:`FiveCardStudGame`, the engine every env drives: the rules
with the views), :mod:`.state` (the game record and its options),
:mod:`.observation` (:data:`LAYOUT`, :func:`encode_observation`, :func:`decode_observation`: the
index table), :mod:`.render` (the spectator's view), :mod:`.api` (:func:`compare_hands`,
:func:`compare_low`, :func:`qualifies_low`: RULES §6), :mod:`.pettingzoo_env` (also
``pokerzoo.envs.five_card_stud_v0``), :mod:`.env` (the Gymnasium id
``pokerzoo/FiveCardStud-v0``, imported on its own; its bots, which the registry entry names, are
imported when an env is built) and :mod:`.spec` (the registry entry).

>>> game = FiveCardStudGame(num_players=3)
>>> state = game.new_state(pack_order(["2s 5s", "3s As", "4s Ks"]))
>>> game.current_player(state)  # the ace showing opens the first round
1
>>> game.legal_mask(state, 1).tolist()  # first round: bet the minimum or fold
[1, 0, 1]
"""

from __future__ import annotations

from . import api, game, observation, render, state
from .api import *  # noqa: F403 - the package re-exports its modules' public names
from .game import *  # noqa: F403
from .observation import *  # noqa: F403
from .render import *  # noqa: F403
from .rules import *  # noqa: F403
from .state import *  # noqa: F403

# game.__all__ holds the rules' names too (game.py re-exports them)
__all__ = [*game.__all__, *state.__all__, *observation.__all__, *render.__all__, *api.__all__]
