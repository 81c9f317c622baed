"""The rules engine of "poker without a name" (RULES §4, seed 003): trick bids, four players,
30 deals, two jokers.

Rules as implemented
--------------------
- Pack: 52 cards plus two jokers; both jokers are the same card ``Jk``. Ranks 2 (low) .. A.
- Four seats, ``player_0`` .. ``player_3``; seat ``i + 1`` sits on seat ``i``'s left, so
  clockwise is ascending seat order. The first dealer of the episode is chosen by lot (seed
  003: "Первый сдатчик карт определяется жребием"): drawn uniformly from ``rng`` after the
  first pack is shuffled (so a seed deals the same cards whoever deals them);
  ``new_state(dealer=d)`` fixes it, and a fixed pack (``cards``) without ``dealer``, or no
  ``rng``, has seat 0 deal (a scripted deal is fixed by its cards alone). The deal passes one
  seat clockwise after every deal played, so the ``k``-th deal played (from 0) is dealt by seat
  ``(first + k) % 4``, ``first`` the first dealer, whichever deal numbers ``deals`` lists.
- Deal ``n`` gives each player ``HAND_SIZES[n - 1]`` cards, one at a time clockwise from the
  dealer's left; the next card of the pack is turned face up and its suit is trump (a joker:
  no trump). Deals 1-18 are regular, 19-22 dark (bids made before the hand is seen: the
  observation shows a seat its hand only once its bid is made), 23-26 minimum and 27-30 maximum
  (no bids).
- Bids: from the dealer's left clockwise, the dealer last, each 0..hand size. With
  ``dealer_restriction`` the dealer may not bid the number that makes the bids add up to the
  hand size.
- Play: the dealer's left leads the first trick, the winner of a trick leads the next. The
  follow rules and the trick winner are :func:`.deals.follow_options` and
  :func:`.deals.winner_index` (one implementation shared with the scripted API): follow the led
  suit; void, play a trump or a joker if able (the joker is the highest trump and follows suit
  to a trump lead); in a no-trump deal a void player plays any card. A joker led names a suit:
  each follower holding natural cards of it plays the highest of them, the others a trump or
  the other joker if able (any card in a no-trump deal). The last joker played takes the trick,
  else the highest trump, else the highest card of the led suit.
- Scoring (:func:`.deals.score`): deals 1-22 with bid ``b`` and tricks ``t``: ``t = b > 0``
  +10 t; ``t = b = 0`` +5; ``t > b`` +t; ``t < b`` -10 (b - t). Minimum deals -10 t, maximum
  deals +10 t. The highest total after the episode's deals wins (ties: every seat on top).

Options
-------
``deals``: ``None`` (the 30 deals in order) or a list of distinct deal numbers 1..30 played in
the given order. ``dealer_restriction`` (default ``False``): the dealer's bid may not make the
bids add up to the hand size. ``reward``: ``"score"`` (default: each seat's deal score at the
end of every deal) or ``"relative"`` (the deal score minus the table's mean: zero-sum).

``new_state`` also takes ``dealer``, the seat (0..3) that deals the first deal (the env's
reset option ``dealer``); ``None`` (default) draws it by lot from ``rng`` (seat 0 deals a fixed
pack, see above). A bad ``dealer`` raises ``ValueError`` naming it and the seats expected.

Actions
-------
One ``Discrete(66)`` space:

{actions}

Leading a joker is only ever one of the four ``lead Jk calling ..`` actions; ``play Jk`` is a
joker played to a trick somebody else led. Masks follow the phase and the follow rules exactly.

Dealing from a fixed pack
-------------------------
``new_state(cards)``: ``cards`` is the top of the first deal's pack in dealing order: the
hand-size rounds of one card each, clockwise from the dealer's left (card ``k`` goes to seat
``(dealer + 1 + k) % 4``; the dealer is seat 0 unless ``new_state(dealer=d)`` names another),
then the turned card. The rest of that pack follows, shuffled by ``rng`` (in id order when
``rng`` is ``None``). Every later deal is a fresh pack shuffled by ``rng`` (in id order when
``rng`` is ``None``: tests only). ``deal(rng)`` draws a random first pack in that order;
:func:`pack_order` builds one from the four hands and the turned card (and the dealer).

Payouts
-------
The action that ends a deal returns a :class:`~pokerzoo.envs.core.game.Payout`: each seat's
reward (no infos: the info is :meth:`NamelessPokerGame.info`). The state keeps the record of
every deal settled (:attr:`~.state.NamelessPokerState.results`), which the info reads.

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
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..core.cards import JOKER, NUM_CARD_IDS, SUITS, CardsLike, format_card
from ..core.game import Engine, PackGame, Payout
from ..core.info import InfoKey, InfoSchema
from ..core.observation import Field, ObservationLayout, document, markdown_table
from ..core.options import check_bool, check_choice, check_int
from .deals import (
    DEAL_KINDS,
    MAX_HAND,
    MINIMUM,
    NO_TRUMP,
    NUM_DEALS,
    NUM_PLAYERS,
    PACK,
    TRICK_POINTS,
    deal_kind,
    follow_options,
    score,
    winner_index,
)
from .observation import LAYOUT, encode_observation
from .render import render_text
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
    "pack_order",
    "play_mask",
]

NUM_BIDS = MAX_HAND + 1
BID = 0
"""Action ``BID + b``: bid ``b`` tricks (0..8)."""
PLAY = BID + NUM_BIDS
"""Action ``PLAY + c``: play card id ``c`` (0..51, or 52 for a joker played to a trick)."""
LEAD_JOKER = PLAY + NUM_CARD_IDS
"""Action ``LEAD_JOKER + s``: lead a joker naming suit ``s`` (0..3: s, h, d, c)."""
NUM_ACTIONS = LEAD_JOKER + len(SUITS)
ACTIONS: tuple[str, ...] = (
    tuple(f"bid {b}" for b in range(NUM_BIDS))
    + tuple(f"play {format_card(c)}" for c in range(NUM_CARD_IDS))
    + tuple(f"lead Jk calling {s}" for s in SUITS)
)
REWARDS = ("score", "relative")


ACTION_TABLE = markdown_table(
    ("index", "name", "meaning"),
    [
        (f"{BID}..{PLAY - 1}", "`bid b`", "bid b = index tricks (0..hand size)"),
        (
            f"{PLAY}..{LEAD_JOKER - 2}",
            "`play <card>`",
            f"play card id index - {PLAY} (`2s` .. `Ac`, id = 4 rank + suit)",
        ),
        (f"{LEAD_JOKER - 1}", "`play Jk`", "play a joker to a trick another player led"),
        (
            f"{LEAD_JOKER}..{NUM_ACTIONS - 1}",
            "`lead Jk calling <suit>`",
            f"lead a joker naming suit s, h, d, c (index - {LEAD_JOKER})",
        ),
    ],
)
"""The action table in Markdown (docstrings and the game's docs page)."""

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


def play_mask(hand: Sequence[int], trick: Sequence[int], trump: int, called: int) -> np.ndarray:
    """``int8 (66,)``: the card plays a seat holding ``hand`` (sorted ids) may make to ``trick``
    (a joker the leader plays is one of the four joker leads, naming a suit)."""
    mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
    options = follow_options(hand, trick, trump, called)
    mask[[PLAY + card for card in options]] = 1
    if not trick and options[-1] == JOKER:  # the hand is sorted: a joker comes last
        mask[PLAY + JOKER] = 0
        mask[LEAD_JOKER:] = 1
    return mask


def pack_order(hands: Sequence[CardsLike], turned: str | int, *, dealer: int = 0) -> list[int]:
    """The top of a first deal's pack that deals ``hands`` (by seat, seat 0 first; each any card
    form, all the same size 1..8) and turns ``turned`` (a card string or id) when seat
    ``dealer`` deals: the card order :meth:`NamelessPokerGame.new_state` expects (pass it the
    same ``dealer``).

    >>> from pokerzoo.envs.core.cards import format_cards
    >>> format_cards(pack_order(["As", "Kd", "Qh", "Jc"], "Jk"))
    'Kd Qh Jc As Jk'
    >>> format_cards(pack_order(["As", "Kd", "Qh", "Jc"], "Jk", dealer=2))
    'Jc As Kd Qh Jk'
    """
    dealer = check_int("dealer", dealer, 0, NUM_PLAYERS - 1)
    if isinstance(hands, str) or not isinstance(hands, Sequence) or len(hands) != NUM_PLAYERS:
        raise ValueError(f"bad hands {hands!r}: expected one hand per seat ({NUM_PLAYERS})")
    parsed = [PACK.parse(hand, what=f"hand of player_{seat}") for seat, hand in enumerate(hands)]
    size = len(parsed[0])
    if not 1 <= size <= MAX_HAND or any(len(hand) != size for hand in parsed):
        sizes = [len(hand) for hand in parsed]
        raise ValueError(f"bad hands: sizes {sizes}, expected four hands of one size 1..{MAX_HAND}")
    order = [
        parsed[(dealer + 1 + k) % NUM_PLAYERS][k // NUM_PLAYERS] for k in range(NUM_PLAYERS * size)
    ]
    order += PACK.parse([turned], count=1, what="turned card")
    PACK.check(order, what="hands and turned card")
    return order


def _check_deals(deals: object) -> tuple[int, ...]:
    if deals is None:
        return tuple(range(1, NUM_DEALS + 1))
    expected = f"None or a non-empty list of distinct deal numbers 1..{NUM_DEALS}"
    if isinstance(deals, (str, bytes)) or not isinstance(deals, (Sequence, np.ndarray)):
        raise ValueError(f"bad deals {deals!r}: expected {expected}")
    numbers = tuple(check_int(f"deals[{i}]", n, 1, NUM_DEALS) for i, n in enumerate(deals))
    if not numbers:
        raise ValueError(f"bad deals {deals!r}: expected {expected}")
    if len(set(numbers)) != len(numbers):
        twice = next(n for n in numbers if numbers.count(n) > 1)
        raise ValueError(f"bad deals {deals!r}: deal {twice} is listed twice; expected {expected}")
    return numbers


class NamelessPokerGame(PackGame, Engine[NamelessPokerState]):
    """Poker without a name under one set of options (the module docstring is the manual).

    Args:
        deals: ``None`` for the 30 deals, or the deal numbers (1..30, distinct) to play, in order.
        dealer_restriction: the dealer may not make the bids add up to the hand size.
        reward: ``"score"`` each seat's deal score, ``"relative"`` that minus the table mean.
    """

    num_players = NUM_PLAYERS
    num_actions = NUM_ACTIONS
    layout = LAYOUT
    info_schema = INFO_SCHEMA
    info_shared = True  # every seat is told the same
    state_layout = STATE_LAYOUT
    simultaneous = False
    deck = PACK

    def __init__(
        self,
        deals: Sequence[int] | None = None,
        dealer_restriction: bool = False,
        reward: str = "score",
    ) -> None:
        self.deals = _check_deals(deals)
        self.dealer_restriction = check_bool("dealer_restriction", dealer_restriction)
        self.reward = check_choice("reward", reward, REWARDS)

    def __repr__(self) -> str:
        deals = None if self.deals == tuple(range(1, NUM_DEALS + 1)) else list(self.deals)
        return (
            f"NamelessPokerGame(deals={deals!r}, dealer_restriction={self.dealer_restriction}, "
            f"reward={self.reward!r})"
        )

    # --- dealing ---------------------------------------------------------------------------------
    def new_state(
        self,
        cards: CardsLike | None = None,
        *,
        rng: np.random.Generator | None = None,
        dealer: int | None = None,
    ) -> NamelessPokerState:
        """A new episode, its first deal dealt.

        Args:
            cards: the top of the first deal's pack in dealing order (module docstring).
            rng: shuffles everything else and draws the first dealer by lot.
            dealer: the seat (0..3) that deals the first deal; ``None`` draws it by lot from
                ``rng`` (after the pack is shuffled), or seat 0 when ``cards`` fixes the pack or
                there is no ``rng``.

        Raises:
            ValueError: a bad card of ``cards``, or a ``dealer`` that is not a seat; checked
                before anything is drawn.
        """
        if dealer is not None:
            dealer = check_int("dealer", dealer, 0, NUM_PLAYERS - 1)
        top = [] if cards is None else PACK.parse(cards, what="pack")
        pack = PACK.pack(top, rng).tolist()
        if dealer is None:  # the lot, drawn after the shuffle
            dealer = int(rng.integers(NUM_PLAYERS)) if cards is None and rng is not None else 0
        state = NamelessPokerState(rng=rng, deals=self.deals, dealer=dealer)
        self._deal(state, pack)
        return state

    def _deal(self, state: NamelessPokerState, pack: list[int]) -> None:
        """Deal the deal at ``state.deal_index`` from ``pack`` (``state.dealer`` dealing) and
        open its bidding (or play)."""
        size = state.hand_size
        first = state.dealer + 1
        state.hands = [
            sorted(pack[(seat - first) % NUM_PLAYERS : NUM_PLAYERS * size : NUM_PLAYERS])
            for seat in range(NUM_PLAYERS)
        ]
        state.turned = pack[NUM_PLAYERS * size]
        state.trump = NO_TRUMP if state.turned == JOKER else state.turned & 3
        state.bids = [None] * NUM_PLAYERS
        state.tricks = [0] * NUM_PLAYERS
        state.trick = []
        state.called = NO_TRUMP
        state.played = np.zeros(NUM_CARD_IDS, dtype=np.int16)
        state.voids = np.zeros((NUM_PLAYERS, 5), dtype=np.int16)
        state.last_trick = None
        state.leader = first % NUM_PLAYERS
        state.to_act = state.leader
        state.bidding = state.kind < MINIMUM

    # --- the contract ----------------------------------------------------------------------------
    def current_player(self, state: NamelessPokerState) -> int:
        """The seat to act, ``-1`` once the episode is over."""
        return state.to_act

    def is_terminal(self, state: NamelessPokerState) -> bool:
        return state.to_act < 0

    def legal_mask(self, state: NamelessPokerState, player: int) -> np.ndarray:
        """``int8 (66,)``: the actions ``player`` may take now (all zeros when not its turn)."""
        mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
        if player != state.to_act:
            return mask
        if state.bidding:
            size = state.hand_size
            mask[BID : BID + size + 1] = 1
            if self.dealer_restriction and player == state.dealer:
                forbidden = size - sum(b for b in state.bids if b is not None)
                if 0 <= forbidden <= size:
                    mask[BID + forbidden] = 0
            return mask
        return play_mask(state.hands[player], state.trick, state.trump, state.called)

    def game_over(self, state: NamelessPokerState, player: int) -> str | None:
        if state.to_act < 0:
            return f"the episode is over: its {len(state.deals)} deals are played"
        return None

    def transition(self, state: NamelessPokerState, player: int, action: int) -> Payout | None:
        """``player`` takes the legal ``action`` (through :meth:`apply`, which checks it);
        returns the deal's :class:`Payout` when it ends the deal."""
        if state.bidding:
            self._bid(state, player, action - BID)
            return None
        return self._play(state, player, action)

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

    def describe_action(self, action: int) -> str:
        """``"bid 3"``, ``"play As"``, ``"play Jk"``, ``"lead Jk calling h"``."""
        return ACTIONS[check_int("action", action, 0, NUM_ACTIONS - 1)]

    def render(self, state: NamelessPokerState) -> str:
        """A spectator's text view (:mod:`.render`): no hand is shown."""
        return render_text(state)

    # --- moves -----------------------------------------------------------------------------------
    def _bid(self, state: NamelessPokerState, player: int, bid: int) -> None:
        state.bids[player] = bid
        if player == state.dealer:
            state.bidding = False
            state.to_act = state.leader
        else:
            state.to_act = (player + 1) % NUM_PLAYERS

    def _play(self, state: NamelessPokerState, player: int, action: int) -> Payout | None:
        if action >= LEAD_JOKER:
            card = JOKER
            state.called = action - LEAD_JOKER
        else:
            card = action - PLAY
        state.hands[player].remove(card)
        trick = state.trick
        if trick:
            _note_voids(state, player, card)
        trick.append(card)
        state.played[card] += 1
        if len(trick) < NUM_PLAYERS:
            state.to_act = (player + 1) % NUM_PLAYERS
            return None
        winner = (state.leader + winner_index(trick, state.trump)) % NUM_PLAYERS
        state.tricks[winner] += 1
        state.last_trick = (tuple(trick), state.leader, winner)
        state.trick = []
        state.called = NO_TRUMP
        state.leader = state.to_act = winner
        if state.hands[winner]:
            return None
        return self._end_deal(state)

    def _end_deal(self, state: NamelessPokerState) -> Payout:
        kind = state.kind
        scores = [score(kind, state.bids[s], state.tricks[s]) for s in range(NUM_PLAYERS)]
        state.totals = [t + s for t, s in zip(state.totals, scores, strict=True)]
        record: dict[str, Any] = {
            "deal": state.deal,
            "deal_kind": DEAL_KINDS[kind],
            "bids": None if kind >= MINIMUM else tuple(state.bids),
            "tricks": tuple(state.tricks),
            "deal_scores": tuple(scores),
            "totals": tuple(state.totals),
        }
        state.deal_index += 1
        if state.deal_index < len(state.deals):
            state.dealer = (state.dealer + 1) % NUM_PLAYERS  # the deal passes clockwise
            self._deal(state, PACK.pack(rng=state.rng).tolist())
        else:
            state.to_act = -1
            best = max(state.totals)
            record["winners"] = tuple(s for s in range(NUM_PLAYERS) if state.totals[s] == best)
        state.results.append(record)
        if self.reward == "relative":
            mean = sum(scores) / NUM_PLAYERS
            rewards = tuple(float(s - mean) for s in scores)
        else:
            rewards = tuple(float(s) for s in scores)
        return Payout(rewards)


def _note_voids(state: NamelessPokerState, player: int, card: int) -> None:
    """Record what ``player``'s card, played to the current trick, shows it does not hold.

    Failing to follow the led (or called) suit shows a void in it; in a trump deal, a void
    follower that plays neither a trump nor a joker shows it holds neither.
    """
    lead = state.trick[0]
    trump = state.trump
    suit = card & 3 if card != JOKER else NO_TRUMP
    voids = state.voids[player]
    if lead == JOKER:
        asked = state.called
    elif lead & 3 == trump:
        if card != JOKER and suit != trump:
            voids[trump] = voids[4] = 1
        return
    else:
        asked = lead & 3
    if suit == asked:
        return
    voids[asked] = 1
    if trump != NO_TRUMP and card != JOKER and suit != trump:
        voids[trump] = voids[4] = 1


document(
    sys.modules[__name__],
    actions=ACTION_TABLE,
    info_table=INFO_SCHEMA.table(),
    state_table=STATE_LAYOUT.table(),
)
