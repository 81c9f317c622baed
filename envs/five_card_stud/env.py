"""Five-card stud (RULES §5) from one seat against bots: the Gymnasium env
``pokerzoo/FiveCardStud-v0``."""

from __future__ import annotations

from typing import Any, ClassVar

from ..core.single_seat import BotTableEnv, document_view
from .game import ACTION_TABLE
from .pettingzoo_env import raw_env

__all__ = ["FiveCardStudEnv"]


class FiveCardStudEnv(BotTableEnv):
    """Five-card stud for one learner at a table of bots, on the shared single-seat view
    (:class:`~pokerzoo.envs.core.single_seat.BotTableEnv`) of ``five_card_stud_v0``.

    ## Action Space
    ``Discrete(3)``: 0 fold, 1 check/call, 2 bet/raise; the legal ones are in
    ``info["action_mask"]`` and ``action_masks()``.

    {step_errors}

    {actions}

    ## Observation Space
    ``Box(0, high, (852,), float32)``, the learner's view (seats relative: entry 0 is the
    learner; the others' face-down cards never appear; ``high`` finite, from the options):

    {observation_table}

    {bot_rewards}

    {bot_info}

    {info_table}

    ## Options
    - ``opponent="rules"``: a name from :data:`pokerzoo.agents.five_card_stud.BOTS`
      (``"random"``, ``"caller"``, ``"rules"``, ``"equity"``, ``"maniac"``), a
      :class:`~pokerzoo.envs.core.bots.Bot`, or one per opponent seat.
    - ``seat=None``: the learner's seat, drawn every episode (or a fixed seat index).
    - the game's options (see :mod:`pokerzoo.envs.five_card_stud.pettingzoo_env`),
      ``render_mode`` and ``masked_action``.

    ## Seeding
    ``reset(seed=s)`` seeds the deals, the learner's seat and the bots; ``reset(options={"cards":
    ...})`` fixes the top of the first hand's pack in dealing order
    (:func:`~pokerzoo.envs.five_card_stud.pack_order` builds one from each seat's cards).

    ## Version History
    - v0: initial.
    - v0, issue 28: the first round's opener may not raise; the info's ``hand`` is 1-based; an
      ante not smaller than two seats' starting stacks is reported as a bad ante.
    - v0, infos: the info holds the keys of the info table at every step, numbers only, fixed
      shapes (was: the hand's report with card strings, names, ``None``, dicts and
      ``previous_hands``, only after a hand ended); see ``five_card_stud_v0``'s version history.
    - v0, observations: finite upper bounds from the options (was ``inf``), the same values.
    {seat_info_change}
    """

    aec_class: ClassVar[Any] = raw_env
    game: ClassVar[str | None] = "five_card_stud"


document_view(FiveCardStudEnv, actions=ACTION_TABLE)
