"""Draw poker (RULES §2) from one seat against bots: the Gymnasium env ``pokerzoo/DrawPoker-v0``."""

from __future__ import annotations

from typing import Any, ClassVar

from ..core.single_seat import BotTableEnv, document_view
from .actions import ACTION_TABLE
from .pettingzoo_env import raw_env

__all__ = ["DrawPokerEnv"]


class DrawPokerEnv(BotTableEnv):
    """Draw poker for one learner at a table of bots, on the shared single-seat view
    (:class:`~pokerzoo.envs.core.single_seat.BotTableEnv`) of ``draw_poker_v0``.

    ## Action Space
    ``Discrete(35)``; the legal actions are in ``info["action_mask"]`` and ``action_masks()``:

    {actions}

    {step_errors}

    ## Observation Space
    ``Box(float32, (278 + 17 * num_players,))``, the learner's view (never another player's
    cards; seats relative: entry 0 of a per-seat field is the learner, entry ``k`` the player
    ``k`` seats to its left); for two players:

    {observation_table}

    {bot_rewards}

    {bot_info}

    {info_table}

    ## Options
    - ``opponent="rules"``: a name from :data:`pokerzoo.agents.draw_poker.BOTS` (``"random"``,
      ``"caller"``, ``"rules"``, ``"equity"``, ``"maniac"``, ``"bluffer"``), a
      :class:`~pokerzoo.envs.core.bots.Bot`, or one per opponent seat; bots get this env's
      options.
    - ``seat=None``: the learner's seat, drawn every episode (or a fixed seat index).
    - the game's options: ``num_players``, ``decks``, ``jokers``, ``deuces_wild``, ``ante``,
      ``bets``, ``stack``, ``hands`` (see :mod:`pokerzoo.envs.draw_poker.pettingzoo_env`),
      ``render_mode`` and ``masked_action``.

    ## Seeding
    ``reset(seed=s)`` seeds the deals, the first dealer (drawn by lot), the learner's seat and
    the bots; ``reset(options={"cards": ...})`` fixes the top of the first hand's pack in
    dealing order (:meth:`~pokerzoo.envs.draw_poker.DrawPokerGame.pack_for` builds one from each
    seat's hand; ``player_0`` deals it unless ``dealer`` is given) and ``reset(options={"dealer":
    d})`` has ``player_d`` (an absolute seat, 0..N-1) deal the first hand.

    ## Version History
    - v0: initial.
    - v0, issue 28: the first dealer is drawn by lot (was always ``player_0``); reset option
      ``dealer``; an ante not smaller than two seats' starting stacks is refused.
    - v0, infos: the info holds the keys of the info table at every step, numbers only, fixed
      shapes (was: the hand's report with card strings, names, ``None`` and dicts, only after a
      hand ended); see ``draw_poker_v0``'s version history.
    {seat_info_change}
    - v0, bots: ``opponent="maniac"`` (bets or raises whenever it may, never folds).
    - v0, bots: ``opponent="bluffer"`` (the rules bot, betting after the draw whenever nobody
      has bet, whatever it holds).
    """

    aec_class: ClassVar[Any] = raw_env
    game: ClassVar[str | None] = "draw_poker"


document_view(DrawPokerEnv, actions=ACTION_TABLE)
