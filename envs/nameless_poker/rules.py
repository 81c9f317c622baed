"""The rules engine of "poker without a name" (RULES §4, seed 003): trick bids, four players,
30 deals, two jokers.

:class:`NamelessPokerRules` deals, masks, plays and scores; :class:`~.game.NamelessPokerGame`
adds each seat's observation and info, the whole state and the text view (the engine contract
of :mod:`pokerzoo.envs.core.game`; its module docstring describes the info and the state).

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
reward (no infos: the info is :meth:`~.game.NamelessPokerGame.info`). The state keeps the record of
every deal settled (:attr:`~.state.NamelessPokerState.results`), which the info reads.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..core.cards import JOKER, NUM_CARD_IDS, SUITS, CardsLike, format_card
from ..core.game import Engine, PackGame, Payout
from ..core.observation import document, markdown_table
from ..core.options import check_bool, check_choice, check_int
from .deals import (
    DEAL_KINDS,
    MAX_HAND,
    MINIMUM,
    NO_TRUMP,
    NUM_DEALS,
    NUM_PLAYERS,
    PACK,
    follow_options,
    score,
    winner_index,
)
from .state import NamelessPokerState

__all__ = [
    "ACTION_TABLE",
    "ACTIONS",
    "BID",
    "LEAD_JOKER",
    "NUM_ACTIONS",
    "NUM_BIDS",
    "PLAY",
    "REWARDS",
    "NamelessPokerRules",
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
    ``dealer`` deals: the card order :meth:`NamelessPokerRules.new_state` expects (pass it the
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


class NamelessPokerRules(PackGame, Engine[NamelessPokerState]):
    """Poker without a name under one set of options (the module docstring is the manual); the
    engine the envs drive is :class:`~.game.NamelessPokerGame`, these rules with the views.

    Args:
        deals: ``None`` for the 30 deals, or the deal numbers (1..30, distinct) to play, in order.
        dealer_restriction: the dealer may not make the bids add up to the hand size.
        reward: ``"score"`` each seat's deal score, ``"relative"`` that minus the table mean.
    """

    num_players = NUM_PLAYERS
    num_actions = NUM_ACTIONS
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
            f"{type(self).__name__}(deals={deals!r}, dealer_restriction={self.dealer_restriction}, "
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

    def describe_action(self, action: int) -> str:
        """``"bid 3"``, ``"play As"``, ``"play Jk"``, ``"lead Jk calling h"``."""
        return ACTIONS[check_int("action", action, 0, NUM_ACTIONS - 1)]

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


document(sys.modules[__name__], actions=ACTION_TABLE)
