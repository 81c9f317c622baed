"""Five-card stud (RULES §5, seed 004): :class:`FiveCardStudGame`, the engine every env drives:
the rules (:mod:`.rules`, whose module docstring is the manual: rules, options, actions, dealing
order, rewards) with each seat's observation and info, the whole state for centralised critics
and the text view (the contract of :mod:`pokerzoo.envs.core.game`).

Info
----
Every seat's info holds the same keys, types and shapes at every step
(:func:`make_info_schema`, built for ``N`` seats; the table below is for ``N = 2``; the
PettingZoo envs add ``masked_action`` with ``masked_action="random"``, the Gymnasium view
``action_mask`` and ``seat``), numpy scalars and arrays from the envs: the report of the last
hand settled, the same for every seat
(when one move ends several hands, the last of them). Before the first hand is settled every
key holds its neutral value (-1, zeros, False; the starting stacks). Seats are absolute
(index ``s`` is ``player_s``). Face-down cards appear in ``shown`` only once a showdown showed
them.

{info_table}

State
-----
:meth:`FiveCardStudGame.encode_state` (``env.state()``): the whole game as one ``float32``
vector (:func:`make_state_layout`; the table below is for ``N = 2``), every card included (the
hole cards, a fifth card dealt down, the rest of the pack), for a centralised critic. Seats are
absolute; card ``c`` is the card id (52 the joker).

{state_table}
"""

from __future__ import annotations

import sys
from functools import cache, cached_property
from typing import Any

import numpy as np

from ..core.betting import (
    CALL,
    FOLD,
    RAISE,
    encode_seat_money,
    hand_info_schema,
    neutral_hand_info,
    seat_fields,
    seat_money_fields,
)
from ..core.cards import NUM_CARD_IDS
from ..core.info import InfoKey, InfoSchema, SettledInfo
from ..core.observation import Field, ObservationLayout, document
from .observation import encode_with_plans, make_layout, observer_plans
from .render import render_text
from .rules import *  # noqa: F403 - re-exported: the rules' names stay importable from here
from .rules import (
    _POT_WINNERS,
    ACTION_TABLE,
    ACTIONS,
    FiveCardStudRules,
    is_wild,
    pack_order,
    showing_key,
    up_card_rank,
)
from .state import (
    CARDS_PER_HAND,
    HISTORY_KINDS,
    NUM_ROUNDS,
    FiveCardStudState,
    StudOptions,
)

__all__ = [
    "ACTIONS",
    "ACTION_TABLE",
    "CALL",
    "CATEGORY_CODES",
    "FOLD",
    "FiveCardStudGame",
    "FiveCardStudRules",
    "INFO_SCHEMA",
    "RAISE",
    "STATE_LAYOUT",
    "is_wild",
    "make_info_schema",
    "make_state_layout",
    "pack_order",
    "showing_key",
    "up_card_rank",
]


CATEGORY_CODES = (
    "0 high card, 2 pair, 3 two pair, 4 three of a kind, 5 straight, 6 flush, 7 full house, "
    "8 four of a kind, 9 straight flush, 10 royal flush, 11 five of a kind"
)
"""The category codes of ``info["categories"]`` (:class:`~pokerzoo.envs.core.hands.Category`;
1, draw poker's ace-king, never occurs)."""


@cache
def make_info_schema(num_players: int = 2) -> InfoSchema:
    """Every seat's info for ``num_players`` seats (the module docstring's table)."""
    n = num_players
    return hand_info_schema(
        n,
        cards=CARDS_PER_HAND,
        shown="`[s]`: the card ids seat `s` showed at the showdown, in the order dealt (the "
        "hole card first; 52 a joker); all -1 for a seat that showed nothing (folded, "
        "sat out, no showdown)",
        categories=f"the high category of each seat's shown hand: {CATEGORY_CODES}; -1 for none",
        winners=[
            InfoKey(
                "high_winners",
                "bool",
                (n,),
                "the seats with the best high hand among those still in (the main pot's high "
                "winners; the seat left alone when everybody else folded)",
            ),
            InfoKey(
                "low_winners",
                "bool",
                (n,),
                "the seats with the best qualifying low hand (`hi_lo`); all False without "
                "`hi_lo` or when no low qualifies",
            ),
        ],
        pot_winners=[
            InfoKey(
                "pot_high_winners", "bool", (n, n), "`[p, s]`: seat `s` won pot `p`'s high half"
            ),
            InfoKey(
                "pot_low_winners",
                "bool",
                (n, n),
                "`[p, s]`: seat `s` won pot `p`'s low half (`hi_lo`, a qualifying low)",
            ),
        ],
        shares="`[p, s]`: chips seat `s` took from pot `p` (high and low halves together)",
        result="chips",
    )


@cache
def make_state_layout(options: StudOptions = StudOptions()) -> ObservationLayout:  # noqa: B008
    """The state vector of a game's options (the module docstring's table): ``N`` seats, the
    bounds from the options."""
    n = options.num_players
    chips = sum(options.stack)
    slots = CARDS_PER_HAND * NUM_CARD_IDS
    return ObservationLayout(
        [
            Field(
                "cards",
                n * slots,
                1,
                f"seat `s`'s card `p` (0 the hole card, 1..3 up, 4 the fifth: up, or down with "
                f"`last_card_down`) is card `c`: index `{slots} * s + 53 * p + c`; zeros for a "
                "card not dealt",
            ),
            Field("pack", NUM_CARD_IDS, 1, "card `c` is in the pack, still to be dealt"),
            Field("pack_size", 1, NUM_CARD_IDS, "cards still to be dealt"),
            Field("round", NUM_ROUNDS, 1, "one-hot betting round: after the 2nd .. 5th card"),
            Field("over", 1, 1, "the game is over"),
            *seat_fields(n),
            Field("hand_number", 1, options.hands, "the hand in play, 1..hands"),
            Field("hands_left", 1, options.hands, "hands still to play after this one"),
            Field("pot", 1, chips, "chips in the pot, all pots together (0 once over)"),
            Field("current_bet", 1, chips, "the bet to match in this betting round"),
            Field("bet_size", 1, max(options.bets), "size of a bet and of a raise this round"),
            Field("bets_made", 1, options.cap, "bets and raises made in this round"),
            *seat_money_fields(n, chips, "chips seat `s` put in during this betting round"),
            Field(
                "history",
                NUM_ROUNDS * n * len(HISTORY_KINDS),
                options.cap + 1,
                "betting history of this hand, index `(r * N + s) * 4 + j`: in round `r` "
                "(0..3) seat `s` bet or raised (`j = 0`), called (1), checked (2), folded (3)",
            ),
        ],
        dtype=np.float32,
    )


INFO_SCHEMA = make_info_schema()
"""The info of the default options (two seats)."""
STATE_LAYOUT = make_state_layout()
"""The state vector of the default options (two seats of 100 chips)."""
document(sys.modules[__name__], info_table=INFO_SCHEMA.table(), state_table=STATE_LAYOUT.table())


class FiveCardStudGame(FiveCardStudRules):
    """Five-card stud under one set of options: the engine of the rules' module docstring as the
    envs drive it, :class:`~.rules.FiveCardStudRules` with the views (the module docstring
    describes the info and the state).

    Implements :class:`pokerzoo.envs.core.game.Game` (the state is a
    :class:`~.state.FiveCardStudState`). Every option is checked here and a bad one raises
    ``ValueError`` naming it, the value and what was expected.
    """

    info_shared = True  # every seat is told the same (the last settled hand)

    # the views of these options, built when first asked for (the rules' constructor checked
    # the options; these read them)
    @cached_property
    def _observers(self) -> Any:
        return observer_plans(self.options)

    @cached_property
    def layout(self) -> ObservationLayout:  # type: ignore[override]
        return make_layout(self.options)

    @cached_property
    def info_schema(self) -> InfoSchema:
        return make_info_schema(self.options.num_players)

    @cached_property
    def state_layout(self) -> ObservationLayout:
        return make_state_layout(self.options)

    @cached_property
    def _state_at(self) -> Any:
        return self.state_layout.starts()

    @cached_property
    def _neutral_info(self) -> SettledInfo:
        return neutral_hand_info(self.info_schema, self.options.stack, _POT_WINNERS)

    def observe(self, state: FiveCardStudState, player: int) -> np.ndarray:
        """``player``'s observation (:mod:`.observation`); others' face-down cards never in it."""
        return encode_with_plans(state, self._check_seat(player), self._observers)

    def info(self, state: FiveCardStudState, player: int) -> dict[str, Any]:
        """``player``'s info (:func:`make_info_schema`): the last settled hand's report, the
        same for every seat; neutral values before the first hand is settled."""
        self._check_seat(player)
        return self._neutral_info if state.last_info is None else state.last_info

    def encode_state(self, state: FiveCardStudState) -> np.ndarray:
        """The whole game as ``float32`` (:func:`make_state_layout`), every card included."""
        at = self._state_at
        out = self.state_layout.zeros()
        slots = CARDS_PER_HAND * NUM_CARD_IDS
        seats, positions = np.nonzero(state.cards >= 0)
        cards = state.cards[seats, positions].astype(np.intp)
        out[at.cards + slots * seats + NUM_CARD_IDS * positions + cards] = 1
        rest = state.pack[state.next_card :].astype(np.intp)
        out[at.pack + rest] = 1
        out[at.pack_size] = rest.size
        betting = state.betting
        out[at.round + betting.round] = 1
        out[at.over] = state.over
        if not state.over and betting.actor >= 0:
            out[at.to_act + betting.actor] = 1
        out[at.dealer + state.dealer] = 1
        out[at.hand_number] = state.hand + 1
        out[at.hands_left] = self.options.hands - 1 - state.hand
        out[at.pot] = state.pot
        out[at.current_bet] = betting.current_bet
        out[at.bet_size] = betting.rules.bet if betting.rules else 0
        out[at.bets_made] = betting.bets
        encode_seat_money(out, at, betting, state.start_stacks)
        out[at.history : at.history + state.history.size] = state.history.ravel()
        return out

    def render(self, state: FiveCardStudState) -> str:
        """A spectator's text view (:mod:`.render`)."""
        return render_text(state)
