"""Poker without a name (RULES §4) from one seat against three bots: the Gymnasium env
``pokerzoo/NamelessPoker-v0``."""

from __future__ import annotations

from typing import Any, ClassVar

from ..core.single_seat import BotTableEnv, document_view
from .game import ACTION_TABLE
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
    ``Box(-2400, 2400, (389,), float32)``, the learner's view (seats relative: entry 0 is the
    learner; every entry a whole number):

    {observation_table}

    ## Rewards
    The learner's deal score (``reward="relative"``: minus the table mean) at the end of each
    deal, delivered on its step that ends the deal or, when a bot plays the deal's last card, on
    its next step (or its last).

    ## Info
    After every reset and step: the learner's info of ``nameless_poker_v0`` (the same keys,
    types and shapes at every step; seats are absolute indices, ``player_s`` is seat ``s``: the
    last deal settled, neutral values until the first), then ``action_mask`` and ``seat`` (the
    learner's seat index, ``player_i`` is ``i``); ``masked_action`` only with
    ``masked_action="random"``.
    ``env.unwrapped.info_schema`` lists the keys. The bots are ``env.unwrapped.opponents``
    (agent name -> :class:`~pokerzoo.envs.core.bots.Bot`, each with its ``name``) and the learner's
    agent name is ``env.unwrapped.learner``.

    {info_table}

    ## Options
    - ``opponent="rules"``: a name from :data:`pokerzoo.agents.nameless_poker.BOTS`
      (``"random"``, ``"rules"``, ``"montecarlo"``, ``"search"``), a
      :class:`~pokerzoo.envs.core.bots.Bot`, or one per opponent seat.
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
    - v0, issue 27, infos: the info table above at every step, numbers only (was: each deal's
      results at its end only, ``"deal_kind"`` a name, ``"bids"`` ``None`` in minimum and
      maximum deals, tuples by seat, ``"winners"`` a tuple of seats after the last deal only).
    - v0, issue 27, observations: ``float32`` (was ``int16``), the same values.
    - v0, issue 31: ``opponent="search"``, the stronger reference player.
    {seat_info_change}
    """

    aec_class: ClassVar[Any] = raw_env
    game: ClassVar[str | None] = "nameless_poker"


document_view(NamelessPokerEnv, actions=ACTION_TABLE)
