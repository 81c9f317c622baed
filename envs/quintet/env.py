"""Quintet (RULES §1) from one seat against a bot: the Gymnasium env ``pokerzoo/Quintet-v0``."""

from __future__ import annotations

from typing import Any, ClassVar

from ..core.single_seat import BotTableEnv, document_view
from .pettingzoo_env import raw_env

__all__ = ["QuintetEnv"]


class QuintetEnv(BotTableEnv):
    """Quintet for one learner against a bot opponent, on the shared single-seat view
    (:class:`~pokerzoo.envs.core.single_seat.BotTableEnv`) of ``quintet_v0``.

    Both players arrange the same 25 piquet cards into five packs without seeing each other's;
    packs are compared position by position for 3, 4, 5, 6, 7 points. The cards are placed one
    per step in a fixed order (descending card id: aces first), the same card for both players;
    the bot places each card without seeing the learner's move, so the game stays simultaneous.
    The learner is ``player_0`` unless ``seat`` says otherwise (the game is symmetric).

    ## Action Space
    ``Discrete(5)``: the pack that receives the current card; pack ``p`` lies at position ``p + 1``
    and is worth ``3 + p`` points. Full packs are masked off: ``info["action_mask"]`` (int8) after
    every reset and step, and ``action_masks()`` (bool) for sb3-contrib's ``MaskablePPO``. A masked
    or out-of-range action raises :class:`~pokerzoo.envs.core.errors.IllegalActionError` naming it
    and leaves the game (and the bot) unchanged; a step after the end raises
    :class:`~pokerzoo.envs.core.errors.GameOverError`.

    ## Observation Space
    ``Box(0, high, (262,), float32)``, the learner's view; the bot's packs stay hidden. Card
    index ``c`` (0..31) is card id ``c + 20``.

    {observation_table}

    ## Rewards
    Zero until the 25th step, then ``reward="points"`` (default): own points minus the bot's
    (-25..25); ``reward="win"``: +1 / 0 / -1. Episodes last exactly 25 steps and are never
    truncated.

    ## Info
    After every reset and step: the learner's info of ``quintet_v0`` (the same keys, types and
    shapes at every step; seats are indices, ``player_s`` is seat ``s``; the results hold
    neutral values until the end), then ``action_mask`` and ``seat`` (the learner's seat index,
    ``player_i`` is ``i``); ``masked_action`` only with ``masked_action="random"``.
    ``env.unwrapped.info_schema`` lists the keys. The bots are ``env.unwrapped.opponents``
    (agent name -> :class:`~pokerzoo.envs.core.bots.Bot`, each with its ``name``) and the learner's
    agent name is ``env.unwrapped.learner``.

    {info_table}

    ## Options
    - ``opponent="greedy"``: a name from :data:`pokerzoo.agents.quintet.BOTS` (``"random"``,
      ``"greedy"``, ``"sacrifice"``, ``"mixed"``, ``"best_response"``), built with this env's
      ``reward``, or a :class:`~pokerzoo.envs.core.bots.Bot` instance.
    - ``reward="points" | "win"``.
    - ``seat=0``: the learner's seat (0 or 1), or ``None`` for a random seat each episode.
    - ``render_mode=None | "ansi" | "human"``: the text view of both rows.
    - ``masked_action="raise" | "random"``: what a masked pack does (see
      :mod:`pokerzoo.envs.core.pettingzoo_env`).

    ## Seeding
    ``reset(seed=s)`` reseeds the deal and the bot (the bot's seed is drawn from the env's
    generator at every reset), so a seeded episode replays exactly, bot included.
    ``reset(options={"cards": ...})`` plays a fixed deal (the 25 cards in play).

    ## Version History
    - v0: initial.
    - v0, infos: the info table above at every step, numbers only (was: at the end only,
      ``"arrangements"`` as pack strings by agent name, ``"points"`` by agent name,
      ``"winner"`` an agent name or ``None``).
    - v0, observations: ``float32`` (was ``uint8``), the same values.
    {seat_info_change}
    """

    metadata: ClassVar[dict[str, Any]] = {**BotTableEnv.metadata, "render_fps": 4}
    aec_class: ClassVar[Any] = raw_env
    game: ClassVar[str | None] = "quintet"
    default_opponent: ClassVar[str] = "greedy"
    default_seat: ClassVar[int | None] = 0


document_view(QuintetEnv)
