"""Poker without a name (RULES §4) from one seat against three bots: the Gymnasium env
``pokerzoo/NamelessPoker-v0``."""

from __future__ import annotations

from typing import Any, ClassVar

from ...agents.nameless_poker import BOTS
from ..core.observation import document
from ..core.single_seat import STEP_ERRORS, BotTableEnv
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

    {step_errors}

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
    ``reset(seed=s)`` seeds the deals, the first dealer (drawn by lot), the learner's seat and
    the bots; ``reset(options={"cards": ...})`` fixes the top of the first deal's pack in
    dealing order (:func:`~pokerzoo.envs.nameless_poker.pack_order` builds one from four hands
    and the turned card; ``player_0`` deals it unless ``dealer`` is given) and
    ``reset(options={"dealer": d})`` has ``player_d`` (an absolute seat, 0..3) deal the first
    deal.

    ## Version History
    - v0: initial.
    - v0, issue 28: the first dealer is drawn by lot (was always ``player_0``); reset option
      ``dealer``.
    """

    aec_class: ClassVar[Any] = raw_env
    bots: ClassVar[Any] = BOTS


document(
    NamelessPokerEnv,
    actions=ACTION_TABLE,
    observation_table=LAYOUT.table(),
    step_errors=STEP_ERRORS,
)
