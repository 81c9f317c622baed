"""Poker without a name (RULES §4) from one seat against three bots: the Gymnasium env
``pokerzoo/NamelessPoker-v0``."""

from __future__ import annotations

from typing import Any, ClassVar

from ...agents.nameless_poker import BOTS
from ..core.observation import document
from ..core.single_seat import BotTableEnv
from .game import ACTION_TABLE
from .observation import LAYOUT
from .pettingzoo_env import raw_env

__all__ = ["NamelessPokerEnv"]


class NamelessPokerEnv(BotTableEnv):
    """Poker without a name for one learner at a table of three bots, on the shared single-seat
    view (:class:`~pokerzoo.envs.core.single_seat.BotTableEnv`) of ``nameless_poker_v0``.

    ## Action Space
    ``Discrete(66)``; the legal actions are in ``info["action_mask"]`` and ``action_masks()``:

    {actions}

    A masked or out-of-range action raises :class:`~pokerzoo.envs.core.errors.IllegalActionError`
    naming it and the legal ones, and changes nothing (with ``masked_action="random"`` a random
    legal action is played instead); a step after the end raises
    :class:`~pokerzoo.envs.core.errors.GameOverError`.

    ## Observation Space
    ``Box(int16, (389,))``, the learner's view (seats relative: entry 0 is the learner):

    {observation_table}

    ## Rewards
    The learner's deal score (``reward="relative"``: minus the table mean) at the end of each
    deal, delivered on its step that ends the deal or, when a bot plays the deal's last card, on
    its next step (or its last). ``info`` carries each deal's results once it is over,
    ``"seat"`` and ``"opponents"``.

    ## Options
    - ``opponent="rules"``: a name from :data:`pokerzoo.agents.nameless_poker.BOTS`
      (``"random"``, ``"rules"``, ``"montecarlo"``), a :class:`~pokerzoo.agents.base.Bot`, or
      one per opponent seat.
    - ``seat=None``: the learner's seat, drawn every episode (or a fixed seat index).
    - ``deals``, ``dealer_restriction``, ``reward`` (see
      :mod:`pokerzoo.envs.nameless_poker.pettingzoo_env`), ``render_mode`` and
      ``masked_action``.

    ## Seeding
    ``reset(seed=s)`` seeds the deals, the learner's seat and the bots; ``reset(options={"cards":
    ...})`` fixes the first deal's pack.

    ## Version History
    - v0: initial.
    """

    aec_class: ClassVar[Any] = raw_env
    bots: ClassVar[Any] = BOTS
    default_opponent: ClassVar[str] = "rules"


document(NamelessPokerEnv, actions=ACTION_TABLE, observation_table=LAYOUT.table())
