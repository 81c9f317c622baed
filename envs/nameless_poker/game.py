"""Poker without a name's engine as every env drives it: the rules (:mod:`.rules`, whose module
docstring is the manual: rules, options, actions, dealing, payouts), each seat's observation
and info, the whole state for centralised critics and the text view (the contract of
:mod:`pokerzoo.envs.core.game`).

Info
----
Every seat's info holds the same keys at every step (:data:`INFO_SCHEMA`, the table below; the
PettingZoo envs add ``masked_action`` with ``masked_action="random"``, the Gymnasium view
``action_mask`` and ``seat``), numbers only (numpy scalars and arrays from the envs), seats as
absolute seat indices
(``player_s`` is seat ``s``), per-seat values as arrays indexed by seat: the last deal settled,
the same for every seat (all of it public: no card is ever in an info). It changes only when a
deal ends; until the first deal is settled it holds the neutral values the table names.

{info_table}

State
-----
:meth:`NamelessPokerGame.encode_state` (``env.state()``): the whole episode as one ``float32``
vector (:data:`STATE_LAYOUT`), for a centralised critic: every card wherever it lies (each
hand, the turned card, the trick on the table, the cards played this deal, the undealt stock),
the deal, the bids, tricks and scores. Seats are absolute (``player_s`` is seat ``s``), cards
card ids (``4 * rank + suit``, ranks 2..A, suits s h d c, the joker 52). Once the episode is
over the per-deal entries describe its last deal.

{state_table}
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np

from ..core.cards import JOKER, NUM_CARD_IDS
from ..core.info import InfoKey, InfoSchema
from ..core.observation import Field, ObservationLayout, document
from ..core.options import check_int
from .deals import DEAL_KINDS, MAX_HAND, NO_TRUMP, NUM_DEALS, NUM_PLAYERS, TRICK_POINTS, deal_kind
from .observation import LAYOUT, encode_observation
from .render import render_text
from .rules import *  # noqa: F403 - re-exported: the rules' names stay importable from here
from .rules import (
    ACTION_TABLE,
    ACTIONS,
    BID,
    LEAD_JOKER,
    NUM_ACTIONS,
    NUM_BIDS,
    PLAY,
    REWARDS,
    NamelessPokerRules,
    pack_order,
    play_mask,
)
from .state import NamelessPokerState

__all__ = [
    "ACTION_TABLE",
    "ACTIONS",
    "BID",
    "INFO_SCHEMA",
    "LEAD_JOKER",
    "NUM_ACTIONS",
    "NUM_BIDS",
    "PLAY",
    "REWARDS",
    "STATE_LAYOUT",
    "NamelessPokerGame",
    "NamelessPokerRules",
    "pack_order",
    "play_mask",
]

_MAX_SCORE = TRICK_POINTS * MAX_HAND  # 80: a deal's score lies in -80..80
_MAX_TOTAL = NUM_DEALS * _MAX_SCORE  # 2400
_CARD_COPIES = np.array([1] * JOKER + [2], dtype=np.int64)  # copies of each card id in the pack
_TRICK_SLOTS = NUM_PLAYERS - 1  # a fourth card closes the trick at once
_KIND_CODES = ", ".join(f"{i} {kind}" for i, kind in enumerate(DEAL_KINDS))

INFO_SCHEMA = InfoSchema(
    [
        InfoKey(
            "deal",
            "int",
            (),
            "number (1..30) of the last deal settled; 0 until the first deal is settled",
        ),
        InfoKey(
            "deal_kind",
            "int",
            (),
            f"its kind, the index in `DEAL_KINDS` ({_KIND_CODES}); -1 until the first deal is "
            "settled",
        ),
        InfoKey(
            "bids",
            "int",
            (NUM_PLAYERS,),
            "its bids (index: seat), 0..8; -1 for no bid (minimum and maximum deals), all -1 "
            "until the first deal is settled",
        ),
        InfoKey(
            "tricks",
            "int",
            (NUM_PLAYERS,),
            "the tricks each seat took in it (index: seat), 0..8; zeros until the first deal is "
            "settled",
        ),
        InfoKey(
            "deal_scores",
            "int",
            (NUM_PLAYERS,),
            "each seat's score of it (index: seat), -80..80; zeros until the first deal is settled",
        ),
        InfoKey(
            "totals",
            "int",
            (NUM_PLAYERS,),
            "each seat's running total after it (index: seat), -2400..2400; zeros until the "
            "first deal is settled",
        ),
        InfoKey(
            "winners",
            "bool",
            (NUM_PLAYERS,),
            "once the episode's last deal is settled: `True` for every seat with the highest "
            "total (ties: all of them); all `False` until then",
        ),
    ]
)
"""The info of every seat (module docstring); the Gymnasium view adds ``action_mask`` and
``seat`` after it."""

STATE_LAYOUT = ObservationLayout(
    [
        Field(
            "hands",
            NUM_PLAYERS * NUM_CARD_IDS,
            _CARD_COPIES.tolist() * NUM_PLAYERS,
            "copies of card id `c` in seat `s`'s hand at index `53 s + c` (dark hands too)",
        ),
        Field("turned_card", NUM_CARD_IDS, 1, "one-hot: the card turned for trump"),
        Field("trump", 5, 1, "one-hot trump suit s, h, d, c; index 4: no trump"),
        Field(
            "stock",
            NUM_CARD_IDS,
            _CARD_COPIES.tolist(),
            "copies of each card of this deal's pack neither dealt nor turned",
        ),
        Field("deal", 1, NUM_DEALS, "deal number 1..30 (the last deal once the episode is over)"),
        Field("deal_kind", 4, 1, "one-hot: regular (1-18), dark, minimum, maximum"),
        Field("hand_size", 1, MAX_HAND, "cards dealt to each player this deal"),
        Field("deals_left", 1, NUM_DEALS - 1, "deals of the episode after this one"),
        Field(
            "deals_to_come",
            NUM_DEALS,
            1,
            "1 at index `n - 1` for each deal number `n` the episode plays after this one",
        ),
        Field("dealer", NUM_PLAYERS, 1, "one-hot seat of the dealer"),
        Field("phase", 2, 1, "one-hot: bidding, play (all zero once the episode is over)"),
        Field("to_act", NUM_PLAYERS, 1, "one-hot seat to act (all zero once over)"),
        Field(
            "leader",
            NUM_PLAYERS,
            1,
            "one-hot seat leading the current trick (while bidding: the first trick's; all zero "
            "once over)",
        ),
        Field("bid_made", NUM_PLAYERS, 1, "per seat: 1 once its bid is made"),
        Field("bids", NUM_PLAYERS, MAX_HAND, "per seat: its bid (0 until made)"),
        Field("tricks", NUM_PLAYERS, MAX_HAND, "per seat: tricks taken this deal"),
        Field(
            "trick",
            _TRICK_SLOTS * NUM_CARD_IDS,
            1,
            "the current trick in play order: slot i (53 entries each) one-hot the i-th card",
        ),
        Field("called_suit", 4, 1, "one-hot suit named by a joker lead of the current trick"),
        Field(
            "played",
            NUM_CARD_IDS,
            _CARD_COPIES.tolist(),
            "copies of each card played this deal (the current trick included)",
        ),
        Field(
            "voids",
            NUM_PLAYERS * 5,
            1,
            "seat s at 5 s: s, h, d, c, joker; 1 when its plays this deal showed it holds none",
        ),
        Field("totals", NUM_PLAYERS, _MAX_TOTAL, "per seat: running total", low=-_MAX_TOTAL),
        Field(
            "deal_scores",
            NUM_PLAYERS,
            _MAX_SCORE,
            "per seat: its score of the last deal settled (zeros until the first)",
            low=-_MAX_SCORE,
        ),
    ],
    dtype=np.float32,
)
"""The layout of :meth:`NamelessPokerGame.encode_state` (module docstring)."""
_S = STATE_LAYOUT.starts()
_HANDS = STATE_LAYOUT["hands"]
_NEUTRAL_BIDS = np.full(NUM_PLAYERS, -1, dtype=np.int64)


class NamelessPokerGame(NamelessPokerRules):
    """:class:`~.rules.NamelessPokerRules` with each seat's observation and info, the whole state
    and the spectator's view (the module docstring describes the info and the state; the rules'
    module docstring is the manual). It takes the rules' options (their Args).
    """

    layout = LAYOUT
    info_schema = INFO_SCHEMA
    info_shared = True  # every seat is told the same
    state_layout = STATE_LAYOUT

    def observe(self, state: NamelessPokerState, player: int) -> np.ndarray:
        """``player``'s observation (:mod:`.observation`)."""
        return encode_observation(state, check_int("player", player, 0, NUM_PLAYERS - 1))

    def info(self, state: NamelessPokerState, player: int) -> dict[str, Any]:
        """``player``'s info (:data:`INFO_SCHEMA`): the last deal settled, the same for every
        seat; neutral values until the first deal is settled."""
        if not state.results:
            return {
                "deal": 0,
                "deal_kind": -1,
                "bids": _NEUTRAL_BIDS.copy(),
                "tricks": np.zeros(NUM_PLAYERS, dtype=np.int64),
                "deal_scores": np.zeros(NUM_PLAYERS, dtype=np.int64),
                "totals": np.zeros(NUM_PLAYERS, dtype=np.int64),
                "winners": np.zeros(NUM_PLAYERS, dtype=bool),
            }
        last = state.results[-1]
        bids = last["bids"]
        winners = last.get("winners", ())
        return {
            "deal": int(last["deal"]),
            "deal_kind": DEAL_KINDS.index(last["deal_kind"]),
            "bids": _NEUTRAL_BIDS.copy() if bids is None else np.array(bids, dtype=np.int64),
            "tricks": np.array(last["tricks"], dtype=np.int64),
            "deal_scores": np.array(last["deal_scores"], dtype=np.int64),
            "totals": np.array(last["totals"], dtype=np.int64),
            "winners": np.array([seat in winners for seat in range(NUM_PLAYERS)], dtype=bool),
        }

    def encode_state(self, state: NamelessPokerState) -> np.ndarray:
        """The whole episode as ``float32`` (:data:`STATE_LAYOUT`; module docstring): every
        hand, the stock and the trick included."""
        out = STATE_LAYOUT.zeros()
        hands = out[_HANDS].reshape(NUM_PLAYERS, NUM_CARD_IDS)  # a view: written in place
        for seat, hand in enumerate(state.hands):
            np.add.at(hands[seat], hand, 1)
        out[_S.turned_card + state.turned] = 1
        out[_S.trump + (4 if state.trump == NO_TRUMP else state.trump)] = 1
        stock = _CARD_COPIES - hands.sum(axis=0) - state.played
        stock[state.turned] -= 1
        out[STATE_LAYOUT["stock"]] = stock
        deal = state.deal
        out[_S.deal] = deal
        out[_S.deal_kind + deal_kind(deal)] = 1
        out[_S.hand_size] = state.hand_size
        out[_S.deals_left] = max(len(state.deals) - state.deal_index - 1, 0)
        for number in state.deals[state.deal_index + 1 :]:
            out[_S.deals_to_come + number - 1] = 1
        out[_S.dealer + state.dealer] = 1
        if state.to_act >= 0:
            out[_S.phase + (0 if state.bidding else 1)] = 1
            out[_S.to_act + state.to_act] = 1
            out[_S.leader + state.leader] = 1
        bids = state.bids
        out[STATE_LAYOUT["bid_made"]] = [b is not None for b in bids]
        out[STATE_LAYOUT["bids"]] = [b or 0 for b in bids]
        out[STATE_LAYOUT["tricks"]] = state.tricks
        for slot, card in enumerate(state.trick):
            out[_S.trick + slot * NUM_CARD_IDS + card] = 1
        if state.called != NO_TRUMP:
            out[_S.called_suit + state.called] = 1
        out[STATE_LAYOUT["played"]] = state.played
        out[STATE_LAYOUT["voids"]] = state.voids.ravel()
        out[STATE_LAYOUT["totals"]] = state.totals
        if state.results:
            out[STATE_LAYOUT["deal_scores"]] = state.results[-1]["deal_scores"]
        return out

    def render(self, state: NamelessPokerState) -> str:
        """A spectator's text view (:mod:`.render`): no hand is shown."""
        return render_text(state)


document(
    sys.modules[__name__],
    info_table=INFO_SCHEMA.table(),
    state_table=STATE_LAYOUT.table(),
)
