"""Five-card stud (RULES §5) for PettingZoo: ``env()`` / :class:`raw_env`, turn-based (AEC).

==================  ==========================================================================
Agents              ``player_0`` .. ``player_{n-1}``, ``num_players`` = 2..10 (default 2);
                    seat ``i + 1`` sits at seat ``i``'s left (clockwise is increasing seat)
Turn order          the player on turn acts: the highest (or lowest) up card opens the first
                    round, the best showing hand the later ones, then clockwise
Action space        ``Discrete(3)``: 0 fold, 1 check/call, 2 bet/raise; the mask follows the
                    round (no check before the first bet of the first round; no raise for
                    the first round's opener) and the cap of one bet and ``max_raises`` raises
Observation space   ``Dict({"observation": Box(float32, (852,)), "action_mask": Box(0, 1, (3,),
                    int8)})``: own hole card(s), every seat's up cards, pot, amount to call,
                    stacks and bets, who is in, the betting history, the round; seats are
                    relative (entry 0 is the observer); hidden cards of others never appear
Rewards             at the end of each hand, each player's chip result of the hand (zero-sum)
Infos               ``"action_mask"`` always; at the end of each hand, for every player: the
                    hand's number ``hand`` (1-based), the hands shown and their categories,
                    the high and low winners, every pot with its winners and shares, the chip
                    results and stacks
Episode             ``hands`` hands (stacks carried over, a player with no chips sits out), or
                    until one player has all the chips; all agents terminate together
==================  ==========================================================================

Actions:

{actions}

Observation:

{observation_table}

The history holds, for each betting round and relative seat, its bets/raises, calls, checks and
folds (index ``682 + (round * 10 + seat) * 4 + kind``).

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
"""

from __future__ import annotations

import sys
from typing import Any, ClassVar

from ..core.observation import document
from ..core.pettingzoo_env import CardGameAECEnv, order_enforcing, pettingzoo_metadata
from .game import ACTION_TABLE, FiveCardStudGame
from .observation import LAYOUT

__all__ = ["env", "raw_env"]

document(sys.modules[__name__], actions=ACTION_TABLE, observation_table=LAYOUT.table())


class raw_env(CardGameAECEnv):  # noqa: N801 - PettingZoo's conventional name
    """Five-card stud, turn-based (see the module docstring for spaces, rewards and options)."""

    metadata: ClassVar[dict[str, Any]] = pettingzoo_metadata(
        "five_card_stud_v0", parallelizable=False
    )
    game_class = FiveCardStudGame


def env(**options: Any) -> Any:
    """The AEC env in PettingZoo's order-enforcing wrapper."""
    return order_enforcing(raw_env(**options))
