"""Draw poker (RULES §2, seed 001): the rules engine, :class:`DrawPokerRules`.

:class:`~.game.DrawPokerGame` (the engine every env drives) adds each seat's observation and
info, the whole state and the text view; its module docstring describes the info and the state.

Rules as implemented
--------------------
- 2..10 seats, seat ``i`` is ``player_i``; seat ``i + 1`` (mod ``N``) sits at seat ``i``'s left,
  so "clockwise" is increasing seat index.
- ``hands`` hands are played with the stacks carried over. The first dealer is chosen by lot
  (seed 001: "Первый сдатчик определяется по жребию"): drawn uniformly from ``rng`` among the
  seats with chips, after the first pack is shuffled (so a seed deals the same cards whoever
  deals them). ``new_state(dealer=d)`` fixes it; a fixed pack (``cards``) without ``dealer``, or
  no ``rng``, has seat 0 deal (a scripted deal is fixed by its cards alone). The deal then passes
  to the next seat clockwise that still has chips. A seat with no chips sits out (not dealt, no
  ante). The game ends after the last hand, or as soon as only one seat has chips.
- The pack: ``decks`` 52-card decks and ``jokers`` jokers, shuffled for every hand. Jokers are
  always wild, deuces too with ``deuces_wild``: a wild card stands for any card, duplicates
  included, and takes the value that makes the best hand (suit tie-breaks included).
- Every seat dealt in antes ``ante`` (a shorter stack puts in what it has and is all-in). The
  ante must be smaller than the starting stacks of at least two seats, so that the first hand
  holds two seats that can ante and still bet; five-card stud has the same rule (there a first
  hand without two such seats would hold no decision at all; here only the draw would be left).
  A short stack is allowed: a seat starting with the ante or less is all-in on it. Five cards
  each, one at a time, clockwise from the dealer's left; the rest of the pack is the stock.
- Betting before the draw, then after it: fixed limit, bet and raise size ``bets[0]`` before
  and ``bets[1]`` after, clockwise from the first seat left of the dealer that can bet, by
  :class:`~pokerzoo.envs.core.betting.Betting` with ``orbits=3``: fold (only facing a bet),
  check/call, bet/raise; at most three orbits, no raise in the third; the phase ends once every
  seat that can still bet has acted since the last raise and matched it. A seat with no chips
  left is all-in: it stays in the hand (and draws) for the pots it reached.
- The draw: each seat still in, clockwise from the dealer's left, discards any subset of its
  five cards (32 actions, standing pat included) and receives as many from the top of the stock.
  When the stock is short, the discards already made in this draw (not the current seat's) are
  shuffled under what is left of it; a discard larger than the stock and those discards
  together is masked.
- The hand ends when one seat is left (it takes every pot unseen: no cards shown) or at the
  showdown after the second betting: each pot (main, then side pots from
  :meth:`~pokerzoo.envs.core.betting.Betting.pots`) goes to the best hand among the seats that
  reached it, by the ``"draw"`` ruleset of :mod:`pokerzoo.envs.core.hands` (RULES §2's
  categories, ace-king included, and suit priority hearts > clubs > diamonds > spades); equal
  hands split it, odd chips to the winners nearest the dealer's left
  (:func:`~pokerzoo.envs.core.betting.split`).

Options
-------
``num_players`` 2..10 (default 2); ``decks`` 1 or 2 (1); ``jokers`` 0..4 (0); ``deuces_wild``
(False); ``ante`` >= 0 and smaller than the starting stacks of at least two seats (1); ``bets``
the bet size before and after the draw, two ints >= 1 ((1, 2)); ``stack`` every seat's starting
chips, >= 1, or one int >= 0 per seat, at least two of them >= 1 (100); ``hands`` >= 1 (1). A
bad option raises ``ValueError`` naming it, the value and what was expected.

``new_state`` also takes ``dealer``, the seat (0..N-1) that deals the first hand (the env's
reset option ``dealer``); ``None`` (default) draws it by lot from ``rng`` (seat 0 deals a fixed
pack, see above). A bad ``dealer`` raises ``ValueError`` naming it and the seats expected.

Actions
-------
{actions}

Rewards and results
-------------------
The transition that ends a hand returns a :class:`~pokerzoo.envs.core.game.Payout`: each seat's
chip result of the hand (its stack after the hand minus before it, ante included; the results
sum to zero). The hand's report is then every seat's info (:meth:`~.game.DrawPokerGame.info`,
described in :mod:`.game`) until the next hand is settled; the state keeps it as
:attr:`~.state.DrawPokerState.last_hand`
(the text view's dict: the cards shown as strings, the category names, the pots with their
shares as dicts) and :attr:`~.state.DrawPokerState.last_info` (the info's arrays).

Dealing a fixed pack
--------------------
``new_state(cards)`` fixes the top of the first hand's pack in dealing order: card ``j`` of the
first ``5 * N`` goes to the ``(j mod N)``-th seat clockwise from the dealer's left (the dealer is
seat 0 unless ``dealer`` names another: seat 1 first, seat 0 last), the cards after those are the
stock from its top (:meth:`DrawPokerRules.pack_for` builds such a pack). The pack's other cards
follow, shuffled by ``rng`` (in card-id order when ``rng`` is ``None``). ``rng`` also shuffles
the later hands' packs and the reshuffled discards; with ``rng=None`` nothing is ever shuffled
(later packs in card-id order, discards in the order they were made), so a game replays exactly
for the same ``rng`` seed.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

import numpy as np

from ..core.betting import (
    FOLD,
    RAISE,
    Betting,
    RoundRules,
    check_ante,
    check_bets,
    check_stacks,
    hand_info,
)
from ..core.cards import CardsLike, Deck, format_cards, parse_cards
from ..core.game import Engine, PackGame, Payout
from ..core.hands import category_name, make_evaluator
from ..core.observation import document
from ..core.options import check_bool, check_int
from .actions import (
    ACTION_TABLE,
    HAND_SIZE,
    NUM_ACTIONS,
    NUM_DISCARDS,
    PHASE_BET_AFTER,
    PHASE_BET_BEFORE,
    PHASE_DRAW,
    PHASE_OVER,
    STAND_PAT,
    describe_action,
)
from .state import DrawPokerState

__all__ = ["ORBITS", "DrawPokerRules", "DrawPokerState"]

ORBITS = 3
"""Most orbits of a betting phase; raising is not allowed in the last."""
_POPCOUNT = tuple(bin(d).count("1") for d in range(NUM_DISCARDS))
_KINDS = 4  # history summary entries per phase and seat: bets/raises, calls, checks, folds
_CATEGORY_SHIFT = 24  # a "draw" key holds its Category in bits 24 and up (core.hands)


def _masks() -> tuple[tuple[np.ndarray, ...], tuple[np.ndarray, ...]]:
    """Legal masks by (fold, call, raise) bits for the betting, by cards available for the
    draw: built once, copied out."""
    betting = []
    for bits in range(8):
        mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
        mask[:3] = [bits & 1, bits >> 1 & 1, bits >> 2 & 1]
        betting.append(mask)
    draw = []
    for supply in range(HAND_SIZE + 1):
        mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
        mask[STAND_PAT:] = [_POPCOUNT[d] <= supply for d in range(NUM_DISCARDS)]
        draw.append(mask)
    return tuple(betting), tuple(draw)


_BETTING_MASKS, _DRAW_MASKS = _masks()
_NO_ACTION = np.zeros(NUM_ACTIONS, dtype=np.int8)
_UNDEALT = Betting.new((), 0)
"""A new state's betting until :meth:`DrawPokerRules._deal` deals the first hand (a game
starts at every reset: building a table only to replace it would cost a tenth of a hand)."""


class DrawPokerRules(PackGame, Engine[DrawPokerState]):
    """Draw poker under one set of options: the rules of RULES §2 (see the module docstring;
    :class:`~.game.DrawPokerGame` adds the views).

    Args:
        num_players: seats, 2..10.
        decks: 52-card decks in the pack, 1 or 2.
        jokers: jokers added to the pack, 0..4 (always wild).
        deuces_wild: deuces are wild too.
        ante: chips every seat dealt in puts in the pot before the deal, >= 0.
        bets: the bet and raise size before and after the draw, two ints >= 1.
        stack: every seat's chips at the start of the game, or one int per seat (>= 0, at least
            two of them >= 1; a seat with none sits out); at least two seats hold more than the
            ante.
        hands: hands to play, stacks carried over, >= 1.

    Actions:

    {actions}
    """

    simultaneous = False
    num_actions = NUM_ACTIONS

    def __init__(
        self,
        num_players: int = 2,
        decks: int = 1,
        jokers: int = 0,
        deuces_wild: bool = False,
        ante: int = 1,
        bets: Sequence[int] = (1, 2),
        stack: int | Sequence[int] = 100,
        hands: int = 1,
    ) -> None:
        self.num_players = check_int("num_players", num_players, 2, 10)
        self.decks = check_int("decks", decks, 1, 2)
        self.jokers = check_int("jokers", jokers, 0, 4)
        self.deuces_wild = check_bool("deuces_wild", deuces_wild)
        ante = check_int("ante", ante, 0)
        self.bets = check_bets(bets)
        self.stacks = check_stacks(stack, self.num_players)
        self.ante = check_ante(ante, self.stacks)
        self.hands = check_int("hands", hands, 1)
        self.deck = Deck("standard", jokers=self.jokers, decks=self.decks)
        self._rounds = (
            RoundRules(bet=self.bets[0], orbits=ORBITS),
            RoundRules(bet=self.bets[1], orbits=ORBITS),
        )
        self._strength = make_evaluator("draw", deuces_wild=self.deuces_wild)

    def __repr__(self) -> str:
        stack = self.stacks[0] if len(set(self.stacks)) == 1 else self.stacks
        return (
            f"{type(self).__name__}(num_players={self.num_players}, decks={self.decks}, "
            f"jokers={self.jokers}, deuces_wild={self.deuces_wild}, ante={self.ante}, "
            f"bets={self.bets}, stack={stack}, hands={self.hands})"
        )

    # --- a new game -------------------------------------------------------------------------
    def new_state(
        self,
        cards: CardsLike | None = None,
        *,
        rng: np.random.Generator | None = None,
        dealer: int | None = None,
    ) -> DrawPokerState:
        """A new game, its first hand dealt (see "Dealing a fixed pack" in the module doc).

        Args:
            cards: the top of the first hand's pack in dealing order.
            rng: shuffles the rest of the pack, every later pack and the reshuffled discards,
                and draws the first dealer by lot.
            dealer: the seat that deals the first hand; ``None`` draws it by lot from ``rng``
                among the seats with chips (after the pack is shuffled), or seat 0 when
                ``cards`` fixes the pack or there is no ``rng``.

        Raises:
            ValueError: a card of ``cards`` the pack does not hold (or holds fewer copies of),
                or a ``dealer`` that is not a seat; checked before anything is drawn.
            TypeError: ``rng`` is not a ``numpy.random.Generator``.
        """
        if rng is not None and not isinstance(rng, np.random.Generator):
            raise TypeError(f"rng must be a numpy.random.Generator or None, got {rng!r}")
        n = self.num_players
        if dealer is not None:
            dealer = check_int("dealer", dealer, 0, n - 1)
        top = [] if cards is None else self.deck.parse(cards, what="cards")
        pack = self.deck.pack(top, rng).tolist()
        if dealer is None:
            if cards is None and rng is not None:  # the lot, drawn after the shuffle
                seated = [s for s in range(n) if self.stacks[s] > 0]
                dealer = seated[int(rng.integers(len(seated)))]
            else:
                dealer = 0
        state = DrawPokerState(
            betting=_UNDEALT,  # replaced by the first hand's in _deal
            hands=[[] for _ in range(n)],
            stock=[],
            dealer=dealer,
            num_hands=self.hands,
            bets=self.bets,
            rng=rng,
        )
        self._deal(state, pack, self.stacks)
        return state

    def pack_for(
        self, hands: Sequence[CardsLike], stock: CardsLike = (), *, dealer: int = 0
    ) -> list[int]:
        """The ``cards`` for :meth:`new_state` that deal ``hands[i]`` (five cards) to seat ``i``
        in the first hand and put ``stock`` on top of the stock (top card first), when seat
        ``dealer`` deals it (pass the same ``dealer`` to :meth:`new_state`).

        >>> game = DrawPokerRules()
        >>> format_cards(game.pack_for(["As Ks Qs Js Ts", "2h 3h 4h 5h 7d"], "9c"))
        '2h As 3h Ks 4h Qs 5h Js 7d Ts 9c'
        >>> format_cards(game.pack_for(["As Ks Qs Js Ts", "2h 3h 4h 5h 7d"], dealer=1))
        'As 2h Ks 3h Qs 4h Js 5h Ts 7d'
        """
        n = self.num_players
        dealer = check_int("dealer", dealer, 0, n - 1)
        if isinstance(hands, str) or len(hands) != n:
            raise ValueError(f"bad hands {hands!r}: expected {n} hands, one per seat")
        by_seat = [
            self.deck.parse(h, count=HAND_SIZE, what=f"player_{s}'s hand")
            for s, h in enumerate(hands)
        ]
        order = [(dealer + 1 + i) % n for i in range(n)]  # clockwise from the dealer's left
        cards = [by_seat[seat][k] for k in range(HAND_SIZE) for seat in order]
        cards += parse_cards(stock)
        return self.deck.parse(cards, what="cards")

    def _deal(self, state: DrawPokerState, pack: list[int], stacks: Sequence[int]) -> None:
        """Start a hand at ``state.dealer`` from ``pack`` (top card first) with the seats'
        ``stacks`` before the antes: antes, cards, the first betting round."""
        n = self.num_players
        betting = Betting.new(stacks, self.ante)
        seats = [(state.dealer + 1 + i) % n for i in range(n)]
        seats = [s for s in seats if betting.dealt[s]]
        dealt = len(seats)
        state.hands = [[] for _ in range(n)]
        for k, seat in enumerate(seats):
            state.hands[seat] = sorted(pack[k : HAND_SIZE * dealt : dealt], reverse=True)
        state.stock = pack[HAND_SIZE * dealt :]
        state.betting = betting
        state.start_stacks = list(stacks)
        state.discards = []
        state.drawn = [-1] * n
        state.draws = np.zeros((2, n), dtype=np.float32)
        state.draw_queue = []
        state.history = np.zeros(2 * n * _KINDS, dtype=np.float32)
        state.phase = PHASE_BET_BEFORE
        betting.start_round(state.dealer + 1, self._rounds[0])
        self._advance(state)  # never a Payout: every hand reaches a decision, the draw at least

    # --- whose turn, what is legal ----------------------------------------------------------
    def current_player(self, state: DrawPokerState) -> int:
        phase = state.phase
        if phase == PHASE_DRAW:
            return state.draw_queue[0]
        if phase == PHASE_OVER:
            return -1
        return state.betting.actor

    def legal_mask(self, state: DrawPokerState, player: int) -> np.ndarray:
        phase = state.phase
        if phase == PHASE_DRAW:
            if player != state.draw_queue[0]:
                return _NO_ACTION.copy()
            supply = len(state.stock) + len(state.discards)
            return _DRAW_MASKS[min(supply, HAND_SIZE)].copy()
        if phase == PHASE_OVER or player != state.betting.actor:
            return _NO_ACTION.copy()
        fold, call, raise_ = state.betting.legal()
        return _BETTING_MASKS[fold | call << 1 | raise_ << 2].copy()

    def is_terminal(self, state: DrawPokerState) -> bool:
        return state.phase == PHASE_OVER

    def describe_action(self, action: int) -> str:
        return describe_action(action)

    # --- playing ----------------------------------------------------------------------------
    def game_over(self, state: DrawPokerState, player: int) -> str | None:
        if state.phase == PHASE_OVER:
            return f"the game is over (after {state.hand_number + 1} of {state.num_hands} hands)"
        return None

    def transition(self, state: DrawPokerState, player: int, action: int) -> Payout | None:
        """Play the legal ``action`` for ``player`` (through :meth:`apply`, which checks it);
        returns the hand's :class:`Payout` when it ends it."""
        if state.phase == PHASE_DRAW:
            self._draw(state, player, action - STAND_PAT)
        else:
            self._bet(state, player, action)
        return self._advance(state)

    def allows(self, state: DrawPokerState, player: int, action: int) -> bool:
        """``legal_mask(state, player)[action]``, for an int ``action``, without the mask."""
        if state.phase == PHASE_DRAW:
            supply = len(state.stock) + len(state.discards)
            return (
                player == state.draw_queue[0]
                and STAND_PAT <= action < NUM_ACTIONS
                and _POPCOUNT[action - STAND_PAT] <= supply
            )
        betting = state.betting
        return player == betting.actor and 0 <= action < STAND_PAT and betting.legal()[action]

    def _bet(self, state: DrawPokerState, seat: int, action: int) -> None:
        betting = state.betting
        to_call = betting.current_bet - betting.round_bets[seat]
        betting.act(action)
        if action == RAISE:
            kind = 0
        elif action == FOLD:
            kind = 3
        else:
            kind = 1 if to_call > 0 else 2
        state.history[(betting.round * self.num_players + seat) * _KINDS + kind] += 1

    def _draw(self, state: DrawPokerState, seat: int, bits: int) -> None:
        count = _POPCOUNT[bits]
        if count:
            stock = state.stock
            if count > len(stock):
                stock.extend(self._shuffled(state, state.discards))
                state.discards = []
            hand = state.hands[seat]
            kept = [card for i, card in enumerate(hand) if not bits >> i & 1]
            state.discards.extend(card for i, card in enumerate(hand) if bits >> i & 1)
            state.hands[seat] = sorted(kept + stock[:count], reverse=True)
            del stock[:count]
        state.drawn[seat] = count
        state.draws[0, seat] = count
        state.draws[1, seat] = 1
        del state.draw_queue[0]

    @staticmethod
    def _shuffled(state: DrawPokerState, cards: list[int]) -> list[int]:
        if state.rng is None:
            return list(cards)
        return state.rng.permutation(cards).tolist()

    def _advance(self, state: DrawPokerState) -> Payout | None:
        """Move past whatever needs no decision (a betting round nobody can bet in, the end of
        a phase, the end of a hand) until a seat must act; the Payout of a hand that ended."""
        betting = state.betting
        while True:
            phase = state.phase
            if phase == PHASE_DRAW:
                if state.draw_queue:
                    return None
                state.phase = PHASE_BET_AFTER
                betting.start_round(state.dealer + 1, self._rounds[1])
                continue
            if phase == PHASE_OVER or betting.actor >= 0:  # (a seat to act: not one left)
                return None
            if betting.one_left:
                return self._settle(state, showdown=False)
            if phase == PHASE_BET_AFTER:
                return self._settle(state, showdown=True)
            n = self.num_players
            state.phase = PHASE_DRAW
            seats = ((state.dealer + 1 + i) % n for i in range(n))
            state.draw_queue = [s for s in seats if betting.in_hand(s)]

    # --- the end of a hand ------------------------------------------------------------------
    def _settle(self, state: DrawPokerState, *, showdown: bool) -> Payout:
        """Pay every pot, report the hand, then deal the next one or end the game."""
        n = self.num_players
        betting = state.betting
        live = betting.players_in
        shown: list[str | None] = [None] * n
        names: list[str | None] = [None] * n
        keys: dict[int, int] = {}
        if showdown:
            hands = state.hands
            for seat in live:
                keys[seat] = self._strength(*hands[seat])
                shown[seat] = format_cards(hands[seat])
                names[seat] = category_name(keys[seat] >> _CATEGORY_SHIFT, "draw")
        pots = []
        for pot in betting.pots():
            if showdown:
                best = max(keys[s] for s in pot.eligible)
                winners = tuple(s for s in pot.eligible if keys[s] == best)
            else:
                winners = pot.eligible
            shares = betting.award(pot.amount, winners, state.dealer)
            pots.append(pot.report(shares, winners=winners))
        stacks = tuple(betting.stacks)
        results = tuple(
            after - before for after, before in zip(stacks, state.start_stacks, strict=True)
        )
        report = {
            "hand": state.hand_number + 1,
            "dealer": state.dealer,
            "showdown": showdown,
            "shown": tuple(shown),
            "categories": tuple(names),
            "pots": tuple(pots),
            "put_in": tuple(betting.committed),
            "results": results,
            "stacks": stacks,
        }
        state.last_hand = report
        state.last_info = hand_info(
            hand=state.hand_number + 1,
            dealer=state.dealer,
            showdown=showdown,
            shown={seat: state.hands[seat] for seat in keys},
            categories={seat: key >> _CATEGORY_SHIFT for seat, key in keys.items()},
            winners={},
            pots=pots,
            pot_winners=("winners",),
            put_in=betting.committed,
            result=("results", results),
            stacks=stacks,
            cards=HAND_SIZE,
        )
        payout = Payout(rewards=tuple(float(r) for r in results))
        with_chips = [s for s in range(n) if stacks[s] > 0]
        if state.hand_number + 1 >= state.num_hands or len(with_chips) < 2:
            state.phase = PHASE_OVER
            return payout
        state.hand_number += 1
        following = ((state.dealer + i) % n for i in range(1, n + 1))
        state.dealer = next(s for s in following if stacks[s] > 0)
        self._deal(state, self.deck.pack(rng=state.rng).tolist(), stacks)
        return payout


document(DrawPokerRules, actions=ACTION_TABLE)
document(sys.modules[__name__], actions=ACTION_TABLE)
