"""Five-card stud (RULES §5) for PettingZoo: ``env()`` / :class:`raw_env`, turn-based (AEC).

==================  ==========================================================================
Agents              ``player_0`` .. ``player_{n-1}``, ``num_players`` = 2..10 (default 2);
                    seat ``i + 1`` sits at seat ``i``'s left (clockwise is increasing seat)
Turn order          the player on turn acts: the highest (or lowest) up card opens the first
                    round, the best showing hand the later ones, then clockwise
Action space        ``Discrete(3)``: 0 fold, 1 check/call, 2 bet/raise; the mask follows the
                    round (no check before the first bet of the first round; no raise for
                    the first round's opener) and the cap of one bet and ``max_raises`` raises
Observation space   ``Dict({"observation": Box(0, high, (852,), float32), "action_mask":
                    Box(0, 1, (3,), int8)})``: own hole card(s), every seat's up cards, pot,
                    amount to call, stacks and bets, who is in, the betting history, the round;
                    seats are relative (entry 0 is the observer); hidden cards of others never
                    appear; ``high`` is finite, from the options (every chip at the table, the
                    bet sizes, the cap, the hands)
Rewards             at the end of each hand, each player's chip result of the hand (zero-sum)
Infos               the same keys, types and shapes at every step from reset on, numbers only
                    (numpy scalars and arrays; table below, for two players; ``N`` =
                    ``num_players``): the last settled hand's report, the same for every
                    player (``hand``, ``dealer``, ``showdown``, the cards ``shown`` and their
                    ``categories``, the high and low winners, the pots as arrays of at most
                    ``N`` pots, ``put_in``, ``chips``, ``stacks``), neutral (0, -1, zeros,
                    False, the starting stacks) until the first hand is settled; the action
                    mask is in the observation only (``env.info_schema`` lists the keys)
State               ``state()``: the whole game, every hole card and the rest of the pack
                    included, ``Box(0, high, (size,), float32)`` (``state_space``; table
                    below, for two players), for centralised critics
Episode             ``hands`` hands (stacks carried over, a player with no chips sits out), or
                    until one player has all the chips; all agents terminate together
==================  ==========================================================================

Actions:

{actions}

Observation:

{observation_table}

The history holds, for each betting round and relative seat, its bets/raises, calls, checks and
folds (index ``682 + (round * 10 + seat) * 4 + kind``).

Info (every agent, every step, ``num_players=2``; ``masked_action`` only with
``masked_action="random"``):

{info_table}

State (``state()``, ``num_players=2``):

{state_table}

Options (RULES §5 defaults): ``num_players=2``, ``ante=1`` (smaller than two seats' starting
stacks), ``bets=(1, 2)`` (the small and the big bet), ``max_raises=3``, ``stack=100`` (or one
int per seat), ``first_to_act="highest" |
"lowest"``, ``last_card_down=False``, ``deuces_wild=False``, ``jokers=0`` (0..1),
``hi_lo=False``, ``low_qualifier=None`` (or 8 for eight-or-better), ``hands=1``,
``render_mode`` (``"ansi"``: the table as a spectator sees it, up cards, bets and pots;
``"human"`` prints it) and ``masked_action`` (see :mod:`pokerzoo.envs.core.pettingzoo_env`).
``reset(options={"cards": ...})`` fixes the top of the first hand's pack in dealing order
(:func:`~pokerzoo.envs.five_card_stud.pack_order` builds one from each seat's cards).

Version history:

- v0: initial version.
- v0, issue 28: in the first betting round the opener may no longer raise (seed 004): it bets
  the minimum or folds, and when raised calls or folds (heads-up, the first round now holds one
  raise at most). The info's ``hand`` is 1-based (was 0-based), like draw poker's ``hand`` and
  the observation's ``hand_number``. An ante not smaller than the starting stacks of two seats
  is reported as a bad ante, naming the ante and the limit (``ante=200`` reported a bad stack);
  the rule itself is unchanged, and draw poker now applies it too.
- v0, infos: every agent's info holds the keys of the info table from the first step, numbers
  only, fixed shapes (was: ``"action_mask"`` only, plus the hand's report from the end of a
  hand until the agent's next step, with ``shown`` as card strings or ``None``,
  ``categories`` as names or ``None``, winners as tuples of seats, ``pots`` as a tuple of
  dicts with ``shares`` a dict by seat, and ``previous_hands``, the reports of earlier hands
  ended by the same move). ``shown`` is now card ids (-1 for none), ``categories`` category
  codes (-1 for none), winners ``bool (N,)`` masks, the pots ``pot_amounts``,
  ``pot_eligible``, ``pot_high_winners``, ``pot_low_winners``, ``pot_shares``;
  ``previous_hands`` is gone (the info reports the last settled hand); ``put_in`` is new; the
  report stays until the next hand is settled.
- v0, state: ``state()`` and ``state_space`` (the state table).
- v0, observations: the ``Box`` has finite upper bounds from the options (was ``inf`` for the
  chips, counts, hands and options); the same ``float32`` values.
{infos_change}
"""

from __future__ import annotations

from ..core.build import env_factory, module_aec_env
from .game import ACTION_TABLE, FiveCardStudGame
from .spec import SPEC

__all__ = ["env", "raw_env"]

raw_env = module_aec_env(__name__, SPEC, FiveCardStudGame, actions=ACTION_TABLE)
env = env_factory(raw_env)
