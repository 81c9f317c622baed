"""Poker without a name (RULES §4) for PettingZoo: ``env()`` / :class:`raw_env`, turn-based (AEC).

==================  ==========================================================================
Agents              ``player_0`` .. ``player_3``; seat ``i + 1`` sits at seat ``i``'s left
Turn order          the player on turn acts: bids from the dealer's left, the dealer last;
                    the dealer's left leads the first trick, each trick's winner the next;
                    the first dealer is drawn by lot (reset option ``dealer`` fixes it), then
                    the deal moves one seat left each deal
Action space        ``Discrete(66)`` (table below); the mask follows the phase and the follow
                    rules exactly (follow suit, else a trump or a joker, else anything; a joker
                    lead forces the highest card of the called suit), and the dealer
                    restriction when it is on
Observation space   ``Dict({"observation": Box(-2400, 2400, (389,), float32), "action_mask":
                    Box(0, 1, (66,), int8)})``; seats relative to the observer (entry 0 is the
                    observer); other hands never appear, and in the dark deals (19-22) a
                    player's own hand is hidden until it has bid
Rewards             at the end of each deal, each player's deal score (``reward="relative"``:
                    the score minus the table mean, zero-sum)
Infos               the same keys, types and shapes at every step from reset on (table
                    below), numbers only (numpy scalars and arrays), seats absolute: the last
                    deal settled (number, kind, bids, tricks, deal scores, running totals)
                    and, after the last deal, the winners (the highest total, ties included);
                    neutral values (0, -1, zeros, ``False``) until the first deal is settled;
                    the action mask is in the observation only (``env.info_schema`` lists the
                    keys)
State               ``state()``: the whole episode, every hand and the stock included,
                    ``Box(-2400, 2400, (630,), float32)`` (``state_space``; table below), for
                    centralised critics
Episode             the deals listed (``deals=None``: all 30); all agents terminate together
==================  ==========================================================================

Actions:

{actions}

Observation:

{observation_table}

Info (every agent, every step; the game's keys are the same for every agent;
``masked_action`` only with ``masked_action="random"``):

{info_table}

State (``state()``):

{state_table}

Options: ``deals`` (``None``: the 30 deals of RULES §4 in order; a list of distinct deal numbers
1..30 plays just those, in that order, the dealer moving one seat left each deal),
``dealer_restriction=False`` (the dealer may not make the bids add up to the hand size),
``reward="score" | "relative"``, ``render_mode`` (``"ansi"``: the table, the trick, bids and
scores as a spectator sees them; ``"human"`` prints it) and ``masked_action`` (see
:mod:`pokerzoo.envs.core.pettingzoo_env`).

Reset options: ``reset(options={"cards": ...})`` fixes the top of the first deal's pack in
dealing order (:func:`~pokerzoo.envs.nameless_poker.pack_order` builds one from four hands and
the turned card); ``reset(options={"dealer": d})`` has ``player_d`` deal the first deal (an int
0..3; a bad one raises ``ValueError`` naming it and changes nothing), the ``k``-th deal played
(from 0) then being dealt by ``player_{(d + k) % 4}``. Without ``dealer`` the first dealer is
drawn by lot from the episode's generator (RULES §4: reproducible under ``reset(seed=s)``;
drawn after the pack is shuffled, so a seed deals the same cards whoever deals them), except
that a fixed pack (``cards``) without ``dealer`` is dealt by ``player_0``.

Version history:

- v0: initial version.
- v0, issue 28: the first dealer is drawn by lot (was always ``player_0``, so that ``player_2``
  always dealt deals 19, 23 and 27) and the reset option ``dealer`` fixes it;
  ``reset(options={"cards": ...})`` alone still has ``player_0`` deal.
- v0, issue 27, infos: every agent's info holds the keys of the info table from the first step,
  numbers only (was: the deal's results only at the end of each deal, ``"deal_kind"`` a name,
  ``"bids"`` ``None`` in minimum and maximum deals, tuples by seat, ``"winners"`` a tuple of
  seats after the last deal only). ``deal_kind`` is the index in ``DEAL_KINDS`` (0 regular, 1
  dark, 2 minimum, 3 maximum), a missing bid -1, ``winners`` a ``bool`` array by seat.
- v0, issue 27, state: ``state()`` and ``state_space`` (the state table).
- v0, issue 27, observations: ``float32`` (was ``int16``), the same values and bounds.
{infos_change}
"""

from __future__ import annotations

from ..core.build import env_factory, module_aec_env
from .game import ACTION_TABLE, NamelessPokerGame
from .spec import SPEC

__all__ = ["env", "raw_env"]

raw_env = module_aec_env(
    __name__,
    SPEC,
    NamelessPokerGame,
    ("cards", "dealer"),
    doc="Poker without a name, turn-based (see the module docstring).",
    actions=ACTION_TABLE,
)
env = env_factory(raw_env)
