"""Draw poker (RULES §2) for PettingZoo: ``env()`` / :class:`raw_env`, turn-based (AEC).

==================  ==========================================================================
Agents              ``player_0`` .. ``player_{n-1}``, ``num_players`` = 2..10 (default 2);
                    seat ``i + 1`` sits at seat ``i``'s left (clockwise is increasing seat)
Turn order          the player on turn acts: the betting clockwise from the dealer's left,
                    the draw likewise; the first dealer is drawn by lot (reset option
                    ``dealer`` fixes it), then the deal moves left each hand
Action space        ``Discrete(35)`` (table below); the mask follows the phase, the three-orbit
                    limit (no raise in the third orbit) and a short stock (a discard larger
                    than the stock and the discards already made can supply is masked)
Observation space   ``Dict({"observation": Box(float32, 278 + 17 * num_players),
                    "action_mask": Box(0, 1, (35,), int8)})``; another player's cards never
                    appear; seats are relative (entry ``k`` of a per-seat field is the player
                    ``k`` seats to the observer's left, 0 the observer; ``seat`` is its own
                    seat): index table below, for two players (every per-seat field has one
                    entry per seat)
Rewards             at the end of each hand, each player's chip result of the hand (its stack
                    after minus before, ante included): zero-sum
Infos               the same keys, types and shapes at every step from reset on, numbers only
                    (numpy scalars and arrays; table below, for two players; ``N`` =
                    ``num_players``): the last settled hand's report, the same for every
                    player (``hand``, ``dealer``, ``showdown``, the cards ``shown`` and their
                    ``categories``, the pots as arrays of at most ``N`` pots, ``put_in``,
                    ``results``, ``stacks``), neutral (0, -1, zeros, False, the starting
                    stacks) until the first hand is settled; the action mask is in the
                    observation only (``env.info_schema`` lists the keys)
State               ``state()``: the whole game, every seat's cards, the stock and the discards
                    included, ``Box(0, high, (size,), float32)`` (``state_space``; table below,
                    for two players), for centralised critics
Episode             ``hands`` hands (stacks carried over, a player with no chips sits out), or
                    until one player has all the chips; all agents terminate together
==================  ==========================================================================

Actions:

{actions}

Observation (``num_players=2``):

{observation_table}

Info (every agent, every step, ``num_players=2``; ``masked_action`` only with
``masked_action="random"``):

{info_table}

State (``state()``, ``num_players=2``):

{state_table}

Options (RULES §2 defaults): ``num_players=2``, ``decks=1``, ``jokers=0``,
``deuces_wild=False``, ``ante=1`` (smaller than two seats' starting stacks), ``bets=(1, 2)``
(the bet and raise size before and after the draw), ``stack=100`` (every seat's chips at the
start, or one int per seat), ``hands=1``,
``render_mode`` (``"ansi"``: the hand so far, who did what, the pot, and the cards only when a
showdown shows them; ``"human"`` prints it) and ``masked_action`` (see
:mod:`pokerzoo.envs.core.pettingzoo_env`).

Reset options: ``reset(options={"cards": ...})`` fixes the top of the first hand's pack in
dealing order (:meth:`~pokerzoo.envs.draw_poker.DrawPokerGame.pack_for` builds one from each
seat's hand); ``reset(options={"dealer": d})`` has ``player_d`` deal the first hand (an int
0..N-1; a bad one raises ``ValueError`` naming it and changes nothing). Without ``dealer`` the
first dealer is drawn by lot from the episode's generator (RULES §2: reproducible under
``reset(seed=s)``; drawn after the pack is shuffled, so a seed deals the same cards whoever
deals them), except that a fixed pack (``cards``) without ``dealer`` is dealt by ``player_0``.

Version history:

- v0: initial version.
- v0, issue 28: the first dealer is drawn by lot (was always ``player_0``) and the reset option
  ``dealer`` fixes it; ``reset(options={"cards": ...})`` alone still has ``player_0`` deal. An
  ante must be smaller than the starting stacks of at least two seats, as in five-card stud
  (``ValueError`` naming the ante and the limit; ``ante=100`` with ``stack=100`` used to put
  every seat all-in on its ante).
- v0, infos: every agent's info holds the keys of the info table from the first step, numbers
  only, fixed shapes (was: ``"action_mask"`` only, plus the hand's report from the end of a
  hand until the agent's next step, with ``shown`` as card strings or ``None``,
  ``categories`` as names or ``None``, ``pots`` as a tuple of dicts with ``shares`` a dict by
  seat, and tuples by seat). ``shown`` is now card ids (-1 for none), ``categories`` category
  codes (-1 for none), the pots ``pot_amounts``, ``pot_eligible``, ``pot_winners``,
  ``pot_shares``; the report stays until the next hand is settled.
- v0, state: ``state()`` and ``state_space`` (the state table).
{infos_change}
"""

from __future__ import annotations

from ..core.build import env_factory, module_aec_env
from .actions import ACTION_TABLE
from .game import DrawPokerGame
from .spec import SPEC

__all__ = ["env", "raw_env"]

raw_env = module_aec_env(__name__, SPEC, DrawPokerGame, ("cards", "dealer"), actions=ACTION_TABLE)
env = env_factory(raw_env)
