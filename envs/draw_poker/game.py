"""Draw poker (RULES §2, seed 001): :class:`DrawPokerGame`, the engine every env drives: the
rules (:mod:`.rules`, whose module docstring is the manual: rules, options, actions, rewards,
dealing a fixed pack) with each seat's observation and info, the whole state for centralised
critics and the text view (the contract of :mod:`pokerzoo.envs.core.game`).

Info
----
Every seat's info holds the same keys, types and shapes at every step
(:func:`make_info_schema`, built for ``N`` seats; the table below is for ``N = 2``; the
PettingZoo envs add ``masked_action`` with ``masked_action="random"``, the Gymnasium view
``action_mask`` and ``seat``), numpy scalars and arrays from the envs: the report of the last
hand settled, the same for every seat.
Before the first hand is settled every key holds its neutral value (-1, zeros, False; the
starting stacks). Seats are absolute (index ``s`` is ``player_s``). The report holds only what
the table saw: cards appear in ``shown`` only when a showdown showed them.

{info_table}

State
-----
:meth:`DrawPokerGame.encode_state` (``env.state()``): the whole game as one ``float32`` vector
(:func:`make_state_layout`; the table below is for ``N = 2``), every seat's cards, the stock and
the discards included, for a centralised critic. Seats are absolute; card ``c`` is the card id
(52 the joker).

{state_table}
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from functools import cache, cached_property
from typing import Any

import numpy as np

from ..core.betting import (
    encode_seat_money,
    hand_info_schema,
    neutral_hand_info,
    seat_fields,
    seat_money_fields,
)
from ..core.cards import NUM_CARD_IDS
from ..core.info import InfoKey, InfoSchema, SettledInfo
from ..core.observation import Field, ObservationLayout, document
from ..core.options import check_int
from .actions import (
    ACTION_TABLE,
    HAND_SIZE,
    PHASE_BET_BEFORE,
    PHASE_OVER,
    PHASES,
)
from .observation import encode_observation, make_layout
from .render import render_text
from .rules import *  # noqa: F403 - re-exported: the rules' names stay importable from here
from .rules import _KINDS, ORBITS, DrawPokerRules
from .state import DrawPokerState

__all__ = [
    "CATEGORY_CODES",
    "INFO_SCHEMA",
    "ORBITS",
    "STATE_LAYOUT",
    "DrawPokerGame",
    "DrawPokerRules",
    "DrawPokerState",
    "make_info_schema",
    "make_state_layout",
]


CATEGORY_CODES = (
    "0 nothing, 1 ace-king, 2 pair, 3 two pair, 4 three of a kind, 5 straight, 6 flush, "
    "7 full house, 8 four of a kind, 9 straight flush, 10 royal flush, 11 five of a kind"
)
"""The category codes of ``info["categories"]`` (:class:`~pokerzoo.envs.core.hands.Category`)."""


@cache
def make_info_schema(num_players: int = 2) -> InfoSchema:
    """Every seat's info for ``num_players`` seats (the module docstring's table)."""
    n = num_players
    return hand_info_schema(
        n,
        cards=HAND_SIZE,
        shown="`[s]`: the card ids seat `s` showed at the showdown, highest id first (52 a "
        "joker); all -1 for a seat that showed nothing (folded, sat out, no showdown)",
        categories=f"the category of each seat's shown hand: {CATEGORY_CODES}; -1 for none",
        pot_winners=[
            InfoKey("pot_winners", "bool", (n, n), "`[p, s]`: seat `s` won (a share of) pot `p`")
        ],
        shares="`[p, s]`: chips seat `s` took from pot `p` (odd chips to the winners nearest "
        "the dealer's left)",
        result="results",
    )


def make_state_layout(
    num_players: int = 2,
    *,
    chips: int = 200,
    bet: int = 2,
    counts: Sequence[int] | None = None,
    hands: int = 1,
) -> ObservationLayout:
    """The state vector for ``num_players`` seats (the module docstring's table); the other
    arguments set the bounds: all the chips at the table, the larger bet size, the copies of
    each card id in the pack (one 52-card deck without jokers when ``None``) and the hands."""
    n = num_players
    if counts is None:
        counts = [1] * (NUM_CARD_IDS - 1) + [0]
    pack = int(sum(counts))
    counts = [max(int(c), 1) for c in counts]  # (a bound of 0 would make low == high)
    slots = HAND_SIZE * NUM_CARD_IDS
    return ObservationLayout(
        [
            Field(
                "hands",
                n * slots,
                1,
                f"seat `s`'s card slot `i` (highest id first) holds card `c`: index "
                f"`{slots} * s + 53 * i + c`; zeros for an empty slot (not dealt in)",
            ),
            Field(
                "stock",
                NUM_CARD_IDS,
                counts,
                "copies of card `c` in the stock (at most the pack's copies, bound 1 for none)",
            ),
            Field(
                "discards",
                NUM_CARD_IDS,
                counts,
                "copies of card `c` discarded in this draw, not yet reshuffled into the stock",
            ),
            Field("stock_size", 1, pack, "cards in the stock"),
            Field(
                "phase",
                len(PHASES),
                1,
                "one-hot: betting before the draw, the draw, betting after the draw, over",
            ),
            *seat_fields(n),
            Field("hand_number", 1, hands, "the hand in play, 1..hands"),
            Field("hands_left", 1, hands, "hands still to play after this one (0 once over)"),
            Field("pot", 1, chips, "chips put in this hand, antes included (all pots)"),
            Field(
                "current_bet",
                1,
                chips,
                "the bet to match in the current (or, in the draw, the last) betting round",
            ),
            Field("bet_size", 1, bet, "bet and raise size of this hand's next or current betting"),
            Field("orbit", 1, ORBITS, "orbit of the current (or last) betting round, 1..3"),
            Field("bets_made", 1, 2 * n, "bets and raises made in the current (or last) round"),
            *seat_money_fields(
                n, chips, "chips seat `s` put in during the current (or last) betting round"
            ),
            Field("drawn", n, HAND_SIZE, "cards seat `s` drew in this hand's draw"),
            Field("has_drawn", n, 1, "seat `s` has made its draw"),
            Field(
                "history",
                2 * n * _KINDS,
                ORBITS,
                "betting summary, index `(phase * N + s) * 4 + kind` for seat `s`: phase 0 "
                "before the draw, 1 after; kind 0 bets/raises, 1 calls, 2 checks, 3 folds",
            ),
        ],
        dtype=np.float32,
    )


INFO_SCHEMA = make_info_schema()
"""The info of the default options (two seats)."""
STATE_LAYOUT = make_state_layout()
"""The state vector of the default options (two seats, one deck, 100 chips each)."""
document(sys.modules[__name__], info_table=INFO_SCHEMA.table(), state_table=STATE_LAYOUT.table())


class DrawPokerGame(DrawPokerRules):
    """Draw poker under one set of options: the engine of RULES §2 as the envs drive it,
    :class:`~.rules.DrawPokerRules` with the views (the rules' module docstring is the manual);
    it takes the rules' options (their Args).

    Actions:

    {actions}
    """

    info_shared = True  # every seat is told the same (the last settled hand)

    # the views of these options, built when first asked for (the rules' constructor checked
    # the options; these read them)
    @cached_property
    def layout(self) -> ObservationLayout:  # type: ignore[override]
        return make_layout(
            self.num_players,
            chips=sum(self.stacks),
            bet=max(self.bets),
            pack=int(self.deck.counts.sum()),
            hands=self.hands,
        )

    @cached_property
    def info_schema(self) -> InfoSchema:
        return make_info_schema(self.num_players)

    @cached_property
    def state_layout(self) -> ObservationLayout:
        return make_state_layout(
            self.num_players,
            chips=sum(self.stacks),
            bet=max(self.bets),
            counts=self.deck.counts.tolist(),
            hands=self.hands,
        )

    @cached_property
    def _state_at(self) -> Any:
        return self.state_layout.starts()

    @cached_property
    def _neutral_info(self) -> SettledInfo:
        return neutral_hand_info(self.info_schema, self.stacks)

    # --- views ------------------------------------------------------------------------------
    def observe(self, state: DrawPokerState, player: int) -> np.ndarray:
        if type(player) is not int or not 0 <= player < self.num_players:
            player = check_int("player", player, 0, self.num_players - 1)
        return encode_observation(state, player)

    def info(self, state: DrawPokerState, player: int) -> dict[str, Any]:
        """``player``'s info (:func:`make_info_schema`): the last settled hand's report, the
        same for every seat; neutral values before the first hand is settled."""
        return self._neutral_info if state.last_info is None else state.last_info

    def encode_state(self, state: DrawPokerState) -> np.ndarray:
        """The whole game as ``float32`` (:func:`make_state_layout`), every card included."""
        at = self._state_at
        n = self.num_players
        out = self.state_layout.zeros()
        slots = HAND_SIZE * NUM_CARD_IDS
        for seat, hand in enumerate(state.hands):
            for i, card in enumerate(hand):
                out[at.hands + slots * seat + NUM_CARD_IDS * i + card] = 1
        np.add.at(out, at.stock + np.asarray(state.stock, dtype=np.intp), 1)
        np.add.at(out, at.discards + np.asarray(state.discards, dtype=np.intp), 1)
        out[at.stock_size] = len(state.stock)
        phase = state.phase
        out[at.phase + phase] = 1
        actor = self.current_player(state)
        if actor >= 0:
            out[at.to_act + actor] = 1
        out[at.dealer + state.dealer] = 1
        out[at.hand_number] = state.hand_number + 1
        out[at.hands_left] = 0 if phase == PHASE_OVER else state.num_hands - state.hand_number - 1
        betting = state.betting
        out[at.pot] = sum(betting.committed)
        out[at.current_bet] = betting.current_bet
        out[at.bet_size] = state.bets[phase != PHASE_BET_BEFORE]
        out[at.orbit] = betting.orbit
        out[at.bets_made] = betting.bets
        encode_seat_money(out, at, betting, state.start_stacks)
        out[at.drawn : at.drawn + n] = state.draws[0]
        out[at.has_drawn : at.has_drawn + n] = state.draws[1]
        out[at.history : at.history + 2 * n * _KINDS] = state.history
        return out

    def render(self, state: DrawPokerState) -> str:
        return render_text(state)


document(DrawPokerGame, actions=ACTION_TABLE)
