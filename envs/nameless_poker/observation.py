"""One seat's observation of "poker without a name": a flat ``float32`` vector and its decoded
view.

Seat-indexed fields are **relative**: entry ``r`` of ``dealer``, ``to_act``, ``bids``,
``tricks``, ``leader``, ``voids`` and ``totals`` is the seat ``r`` places clockwise from the
observer (``r = 0`` is the observer, 1 its left neighbour, ...), so one policy serves every
seat; ``seat`` gives the observer's absolute seat. Card-indexed fields use card ids (``4 *
rank + suit``, ranks 2..A, suits s h d c, the joker 52).

What a seat may not see never appears: the other hands, and its own hand in a dark deal until
its bid is made (``hand`` is all zeros and ``hand_hidden`` is 1 then). Everything else is
public: the turned card, the bids, the tricks, the cards played, and ``voids``, what the plays
of each seat this deal have shown it does not hold.

Every entry is a whole number (counts, one-hots, bids, tricks, totals within +-2400), held as
``float32`` (``int16`` before issue 27: the same values); :func:`decode_observation` reads either.

{table}
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from functools import cached_property
from itertools import compress

import numpy as np

from ..core.cards import JOKER, NUM_CARD_IDS
from ..core.observation import Field, ObservationLayout, document
from .deals import (
    DARK,
    DEAL_KINDS,
    MAX_HAND,
    NO_TRUMP,
    NUM_DEALS,
    NUM_PLAYERS,
    TRICK_POINTS,
    deal_kind,
)
from .state import NamelessPokerState

__all__ = ["LAYOUT", "NamelessPokerView", "decode_observation", "encode_observation"]

_TRICK_SLOTS = NUM_PLAYERS - 1  # a fourth card closes the trick at once
_MAX_TOTAL = NUM_DEALS * TRICK_POINTS * MAX_HAND  # 2400: every deal bid and made at 8 tricks
_CARD_COPIES = [1] * JOKER + [2]

LAYOUT = ObservationLayout(
    [
        Field("hand", NUM_CARD_IDS, _CARD_COPIES, "own cards: copies of card id c at index c"),
        Field("hand_hidden", 1, 1, "1 in a dark deal until own bid is made (`hand` all zero)"),
        Field("trump", 5, 1, "one-hot trump suit s, h, d, c; index 4: no trump"),
        Field("turned_card", NUM_CARD_IDS, 1, "one-hot: the card turned for trump"),
        Field("deal", 1, NUM_DEALS, "deal number 1..30"),
        Field("deal_kind", 4, 1, "one-hot: regular (1-18), dark, minimum, maximum"),
        Field("hand_size", 1, MAX_HAND, "cards dealt to each player this deal"),
        Field("deals_left", 1, NUM_DEALS - 1, "deals of the episode after this one"),
        Field("seat", NUM_PLAYERS, 1, "one-hot own absolute seat (`player_0` .. `player_3`)"),
        Field("dealer", NUM_PLAYERS, 1, "one-hot relative seat of the dealer"),
        Field("phase", 2, 1, "one-hot: bidding, play (all zero once the episode is over)"),
        Field("to_act", NUM_PLAYERS, 1, "one-hot relative seat to act"),
        Field("bid_made", NUM_PLAYERS, 1, "per relative seat: 1 once its bid is made"),
        Field("bids", NUM_PLAYERS, MAX_HAND, "per relative seat: its bid (0 until made)"),
        Field("tricks", NUM_PLAYERS, MAX_HAND, "per relative seat: tricks taken this deal"),
        Field("leader", NUM_PLAYERS, 1, "one-hot relative seat leading the current trick"),
        Field(
            "trick",
            _TRICK_SLOTS * NUM_CARD_IDS,
            1,
            "the current trick in play order: slot i (53 entries each) one-hot the i-th card",
        ),
        Field("called_suit", 4, 1, "one-hot suit named by a joker lead of the current trick"),
        Field("played", NUM_CARD_IDS, _CARD_COPIES, "copies of each card played this deal"),
        Field(
            "voids",
            NUM_PLAYERS * 5,
            1,
            "relative seat r at 5 r: s, h, d, c, joker; 1 when its plays showed it holds none",
        ),
        Field("totals", NUM_PLAYERS, _MAX_TOTAL, "per relative seat: running total", -_MAX_TOTAL),
    ],
    dtype=np.float32,
)
document(sys.modules[__name__], table=LAYOUT.table())

_AT = LAYOUT.starts()  # each field's first index, by field name
# _SEATS[p][r]: the absolute seat r places clockwise from seat p.
_SEATS = [[(p + r) % NUM_PLAYERS for r in range(NUM_PLAYERS)] for p in range(NUM_PLAYERS)]


def encode_observation(state: NamelessPokerState, player: int) -> np.ndarray:
    """``player``'s observation of ``state``: ``float32`` of :data:`LAYOUT` ``.size`` entries."""
    obs = LAYOUT.zeros()
    seats = _SEATS[player]
    if state.bidding and state.bids[player] is None and state.kind == DARK:
        obs[_AT.hand_hidden] = 1
    else:
        for card in state.hands[player]:
            obs[_AT.hand + card] += 1
    obs[_AT.trump + (4 if state.trump == NO_TRUMP else state.trump)] = 1
    obs[_AT.turned_card + state.turned] = 1
    deal = state.deal
    obs[_AT.deal] = deal
    obs[_AT.deal_kind + deal_kind(deal)] = 1
    obs[_AT.hand_size] = state.hand_size
    obs[_AT.deals_left] = max(len(state.deals) - state.deal_index - 1, 0)
    obs[_AT.seat + player] = 1
    obs[_AT.dealer + (state.dealer - player) % NUM_PLAYERS] = 1
    bids = state.bids
    obs[LAYOUT["bid_made"]] = [bids[s] is not None for s in seats]
    obs[LAYOUT["bids"]] = [bids[s] or 0 for s in seats]
    tricks = state.tricks
    obs[LAYOUT["tricks"]] = [tricks[s] for s in seats]
    if state.to_act >= 0:
        obs[_AT.phase + (0 if state.bidding else 1)] = 1
        obs[_AT.to_act + (state.to_act - player) % NUM_PLAYERS] = 1
        if not state.bidding:
            obs[_AT.leader + (state.leader - player) % NUM_PLAYERS] = 1
    for slot, card in enumerate(state.trick):
        obs[_AT.trick + slot * NUM_CARD_IDS + card] = 1
    if state.called != NO_TRUMP:
        obs[_AT.called_suit + state.called] = 1
    obs[LAYOUT["played"]] = state.played
    obs[LAYOUT["voids"]] = state.voids[seats].ravel()
    totals = state.totals
    obs[LAYOUT["totals"]] = [totals[s] for s in seats]
    return obs


@dataclass(frozen=True, eq=False)
class NamelessPokerView:
    """A decoded observation: what the bots read. Seats are relative (0 is the observer)."""

    seat: int
    """The observer's absolute seat."""
    hand: tuple[int, ...]
    """Own cards, ascending ids (a joker is 52, twice when both are held); empty when hidden."""
    hand_hidden: bool
    trump: int
    """Trump suit 0..3, or ``NO_TRUMP`` (-1)."""
    turned_card: int
    deal: int
    kind: str
    """One of :data:`.deals.DEAL_KINDS`."""
    hand_size: int
    deals_left: int
    dealer: int
    bidding: bool
    """The deal is in its bidding phase."""
    to_act: int
    """Relative seat to act, ``-1`` once the episode is over."""
    bids: tuple[int | None, ...]
    tricks: tuple[int, ...]
    leader: int
    """Relative seat leading the current trick (``-1`` while bidding)."""
    trick: tuple[int, ...]
    """Cards of the current trick in play order: the leader's first."""
    called_suit: int
    """Suit named by the joker that opened the current trick, else ``NO_TRUMP``."""
    played: np.ndarray
    """``int16 (53,)``: copies of each card played this deal (current trick included)."""
    voids: np.ndarray
    """``bool (4, 5)``: relative seat x (s, h, d, c, joker) it has shown it does not hold."""
    totals: tuple[int, ...]

    @cached_property
    def trumps_played(self) -> int:
        """Natural trumps played this deal (the current trick's included; 0 without trump)."""
        trump = self.trump
        return int(self.played[trump:JOKER:4].sum()) if trump != NO_TRUMP else 0

    @property
    def unseen(self) -> np.ndarray:
        """``int16 (53,)``: copies of each card neither in the hand, nor played, nor turned:
        the cards the other hands and the undealt stock share."""
        counts = np.array(_CARD_COPIES, dtype=np.int16) - self.played
        counts[self.turned_card] -= 1
        for card in self.hand:
            counts[card] -= 1
        return counts


def decode_observation(observation: np.ndarray) -> NamelessPokerView:
    """The :class:`NamelessPokerView` of an observation :func:`encode_observation` made, in any
    numeric dtype holding its whole numbers (``float32`` as the envs give it, ``int16``, ...):
    the view is the same whatever the dtype.

    The vector is read as one Python list, not a numpy call per field (the bots and the
    features decode every observation they see: 53 -> 35 microseconds a decode, the same
    view); one-hot fields read as ``numpy.argmax`` would (the first largest entry, 0 when all
    are zero)."""
    obs = np.asarray(observation)
    if obs.shape != (LAYOUT.size,):
        raise ValueError(f"bad observation shape {obs.shape}: expected ({LAYOUT.size},)")
    v = obs.tolist()
    at = _AT
    # A natural card is held once at most (its field's bound is 1), the joker up to twice.
    hand = (*compress(range(JOKER), v[at.hand : at.hand + JOKER]),) + (JOKER,) * int(
        v[at.hand + JOKER]
    )
    trump = _first_largest(v, at.trump, 5)
    bidding, playing = v[at.phase], v[at.phase + 1]
    made = v[at.bid_made : at.bid_made + NUM_PLAYERS]
    bids = v[at.bids : at.bids + NUM_PLAYERS]
    trick = []
    for slot in range(_TRICK_SLOTS):
        begin = at.trick + slot * NUM_CARD_IDS
        if any(v[begin : begin + NUM_CARD_IDS]):
            trick.append(_first_largest(v, begin, NUM_CARD_IDS))
    called = v[at.called_suit : at.called_suit + 4]
    return NamelessPokerView(
        seat=_first_largest(v, at.seat, NUM_PLAYERS),
        hand=hand,
        hand_hidden=bool(v[at.hand_hidden]),
        trump=NO_TRUMP if trump == 4 else trump,
        turned_card=_first_largest(v, at.turned_card, NUM_CARD_IDS),
        deal=int(v[at.deal]),
        kind=DEAL_KINDS[_first_largest(v, at.deal_kind, 4)],
        hand_size=int(v[at.hand_size]),
        deals_left=int(v[at.deals_left]),
        dealer=_first_largest(v, at.dealer, NUM_PLAYERS),
        bidding=bool(bidding),
        to_act=_first_largest(v, at.to_act, NUM_PLAYERS) if bidding or playing else -1,
        bids=tuple(int(b) if m else None for b, m in zip(bids, made, strict=True)),
        tricks=tuple(int(t) for t in v[at.tricks : at.tricks + NUM_PLAYERS]),
        leader=_first_largest(v, at.leader, NUM_PLAYERS) if playing else -1,
        trick=tuple(trick),
        called_suit=called.index(max(called)) if any(called) else NO_TRUMP,
        played=obs[LAYOUT["played"]].astype(np.int16),
        voids=obs[LAYOUT["voids"]].reshape(NUM_PLAYERS, 5).astype(bool),
        totals=tuple(int(t) for t in v[at.totals : at.totals + NUM_PLAYERS]),
    )


def _first_largest(values: list[float], start: int, length: int) -> int:
    """``numpy.argmax`` of ``values[start : start + length]``: the first largest entry's
    index in the field."""
    field = values[start : start + length]
    return field.index(max(field))
