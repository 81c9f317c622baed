"""Five-card stud (RULES §5, seed 004): the rules engine, :class:`FiveCardStudRules`.

:class:`~.game.FiveCardStudGame` (the engine every env drives) adds each seat's observation and
info, the whole state and the text view; its module docstring describes the info and the state.

Rules as implemented
--------------------
- One 52-card pack (plus ``jokers``, 0..1), 2..10 players, ``hands`` hands in a row with the
  stacks carried over. Seat ``h % num_players`` deals hand ``h`` (from 0: seat 0 deals the
  first, the deal moving one seat left each hand, past seats with no chips too; RULES §5 and
  seed 004 do not say how the first dealer is chosen, and the dealer only breaks ties of who
  acts first and of odd chips). Every seat with chips posts the ante and is dealt in; a seat
  with no chips sits the hand out. The ante must be smaller than the starting stacks of at
  least two seats: a first hand without two seats that can ante and still bet would hold no
  decision at all (draw poker applies the same rule). A short stack is allowed: a seat starting
  with the ante or less is all-in on it. The game ends after ``hands`` hands, or earlier when
  only one seat has chips.
- Deal: one hole card face down to each seat, one at a time clockwise from the dealer's left,
  then one up card each the same way. A betting round follows; then each later card (the
  third, fourth and fifth) is dealt face up, one each clockwise from the dealer's left to the
  players still in, and a betting round follows each. With ``last_card_down`` the fifth card
  is dealt face down.
- Betting is fixed limit (:mod:`pokerzoo.envs.core.betting`): the small bet ``bets[0]`` in the
  first two rounds, the big bet ``bets[1]`` in the last two; at most one bet and
  ``max_raises`` raises a round. In the first round nobody may check: the first to act must
  bet the minimum (the ``bet/raise`` action) or fold, and so must every seat after it until
  somebody bets (a seat whose bet nobody could answer, the others all-in, checks instead). In
  the first round the opener (the first seat to act in it) may not raise (seed 004: "Если
  игрок находится не на первой руке, он может повысить ставку"): it bets the minimum or goes
  out, and when raised it calls or folds; the other seats may raise up to the cap. In later
  rounds the first to act may check, and everybody may raise. A seat without chips is all-in;
  side pots as usual.
- First to act, first round: the highest up card by rank, aces high (``first_to_act="lowest"``:
  the lowest); suits never decide, equal ranks go to the seat nearest the dealer's left.
  Later rounds: the best showing hand among the players still in (:func:`showing_key`: groups of
  ranks, then high cards; straights and flushes do not count while showing), ties to the seat
  nearest the dealer's left. A seat that is all-in is skipped: the next seat clockwise acts.
- Wild cards showing (jokers, and deuces with ``deuces_wild``) read as the best they can be:
  alone, an ace; otherwise they join the largest group showing (the highest-ranked of equal
  groups), so ``Jk Kd 7c`` shows a pair of kings.
- If everybody but one folds, that player takes the pot unseen. Otherwise, after the fourth
  round, the players still in show down. High hands: the ``"standard"`` ruleset of
  :mod:`pokerzoo.envs.core.hands` (no suit priority, no ace-king; wild cards take their best
  value, five of a kind on top); equal hands split.
- ``hi_lo``: each pot is split between the best high hand and the best ace-to-five low hand
  (aces low, straights and flushes ignored, 5-4-3-2-A the best). With ``low_qualifier=8`` a low
  must be five different ranks, eight or lower; a pot with no qualifying low goes whole to the
  high hand. ``low_qualifier=None`` lets every hand play for low. One hand may win both halves
  (a scoop).
- Pots come from :meth:`~pokerzoo.envs.core.betting.Betting.pots` (main pot, then side pots
  for the all-in levels). A pot's high half is the larger when its amount is odd; each half (or
  the whole pot) is shared equally among tied winners, odd chips one each to the winners
  nearest the dealer's left (:func:`~pokerzoo.envs.core.betting.split`).

Options
-------
=================  ==========  ====================================================================
option             default     meaning
=================  ==========  ====================================================================
``num_players``    2           seats, 2..10
``ante``           1           chips each seat posts before the deal (>= 0, smaller than the
                               starting stacks of at least two seats)
``bets``           ``(1, 2)``  the small bet (rounds 1-2) and the big bet (rounds 3-4), each >= 1
``max_raises``     3           raises allowed after the bet in one round (>= 0)
``stack``          100         each seat's chips at the start: one int (more than the ante) or
                               one per seat (>= 0, at least two of them more than the ante)
``first_to_act``   "highest"   who opens the first round: the highest or the ``"lowest"`` up card
``last_card_down`` False       the fifth card is dealt face down
``deuces_wild``    False       deuces are wild (jokers always are)
``jokers``         0           jokers added to the pack, 0..1
``hi_lo``          False       the best high and the best low hand split each pot
``low_qualifier``  None        ``None`` (any low) or the highest card a low may hold, 5..13 (8:
                               eight-or-better); only with ``hi_lo``
``hands``          1           hands played, stacks carried over (>= 1)
=================  ==========  ====================================================================

Actions
-------
{actions}

Dealing order of ``new_state(cards)``
-------------------------------------
``cards`` is the top of the first hand's pack, dealt in order: the hole cards (one per seat
dealt in, clockwise from the dealer's left: seats 1, 2, ..., 0 in the first hand), then the
first up cards the same way, then for the third, fourth and fifth card one card each to the
players still in, clockwise from the dealer's left. :func:`pack_order` builds it from each
seat's cards. The rest of the pack follows, shuffled by ``rng`` (in id order when ``rng`` is
``None``); later hands are dealt from whole packs shuffled by ``rng`` (in id order without).

Rewards and infos
-----------------
:meth:`FiveCardStudRules.apply` returns a :class:`~pokerzoo.envs.core.game.Payout` on the move
that ends a hand: each seat's chip result of that hand (zero-sum). When one move ends more than
one hand (the next hand needed no decision because all but one seat were all-in from the
antes), the rewards add up. The state keeps every finished hand's report in
:attr:`~.state.FiveCardStudState.results` (the text view's dicts, module :mod:`.state`) and the
last one's info in :attr:`~.state.FiveCardStudState.last_info`.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ..core.betting import (
    BETTING_ACTIONS,
    CALL,
    FOLD,
    RAISE,
    Betting,
    RoundRules,
    check_ante,
    check_bets,
    check_stacks,
    hand_info,
)
from ..core.cards import JOKER, NUM_CARD_IDS, CardsLike, Deck, format_cards
from ..core.game import Engine, PackGame, Payout
from ..core.hands import category_name, make_evaluator, qualifies_low
from ..core.observation import document, markdown_table
from ..core.options import check_bool, check_choice, check_int
from .state import (
    CARDS_PER_HAND,
    HISTORY_KINDS,
    MAX_PLAYERS,
    NUM_ROUNDS,
    FiveCardStudState,
    StudOptions,
)

__all__ = [
    "ACTIONS",
    "ACTION_TABLE",
    "CALL",
    "FOLD",
    "FIRST_TO_ACT",
    "FiveCardStudRules",
    "RAISE",
    "is_wild",
    "pack_order",
    "showing_key",
    "up_card_rank",
]

ACTIONS = BETTING_ACTIONS
ACTION_TABLE = markdown_table(
    ("index", "name", "meaning"),
    [
        (
            "0",
            "`fold`",
            'give up the hand ("out"): when there is a bet to call, and in the first round '
            "until somebody bets",
        ),
        (
            "1",
            "`check/call`",
            "match the current bet (check when there is nothing to call); not legal in the "
            "first round before somebody bets",
        ),
        (
            "2",
            "`bet/raise`",
            "bet the round's size (the minimum: the only bet there is) or raise by it; masked "
            "once the round holds one bet and `max_raises` raises, and for the first round's "
            "opener once it has bet (it may call a raise or fold, not raise again)",
        ),
    ],
)
"""The action table in Markdown (docstrings and the game's docs page)."""
FIRST_TO_ACT = ("highest", "lowest")
_ACE = 12
_CATEGORY_SHIFT = 24  # a "standard" key holds its Category in bits 24 and up (core.hands)
# history columns (state.HISTORY_KINDS)
_BET_RAISE, _CALLED, _CHECKED, _FOLDED = range(4)
# legal masks by (fold, call, raise) bits: built once, copied out
_MASKS = tuple(np.array([b & 1, b >> 1 & 1, b >> 2 & 1], dtype=np.int8) for b in range(8))
_NO_ACTION = _MASKS[0]
_POT_WINNERS = ("high_winners", "low_winners")  # a pot's winners in a report (pot_arrays)


def _legal(betting: Betting) -> tuple[bool, bool, bool]:
    """Whether the seat to act may fold, check/call, bet/raise: the fixed-limit rules of
    :meth:`~pokerzoo.envs.core.betting.Betting.legal`, less a raise by the opener of the first
    round (the first seat that acted in it) when it acts again."""
    legal = betting.legal()
    history = betting.history  # this hand's moves: the first opened round 0
    if legal[2] and betting.round == 0 and history and history[0].seat == betting.actor:
        return (legal[0], legal[1], False)
    return legal


def is_wild(card: int, deuces_wild: bool = False) -> bool:
    """Whether ``card`` is wild: a joker, or a deuce with ``deuces_wild``."""
    return card == JOKER or (deuces_wild and card >> 2 == 0)


def up_card_rank(card: int, deuces_wild: bool = False) -> int:
    """Rank index (0 = deuce .. 12 = ace) an up card has when the first round's opener is
    chosen; a wild card counts as an ace."""
    return _ACE if is_wild(card, deuces_wild) else card >> 2


def showing_key(cards: Sequence[int], deuces_wild: bool = False) -> tuple[int, ...]:
    """Strength of up to five cards read as a showing hand: a larger tuple is a better hand.

    Groups of ranks first (four of a kind > three of a kind and a pair > three of a kind >
    two pair > pair > high card), then the ranks of the groups, largest groups first, then the
    odd cards from the highest. Straights and flushes do not count. Wild cards join the
    largest group (the highest-ranked of equal ones), or read as aces when no natural card
    shows. Hands of different sizes compare the same way (ace-deuce beats king-nine-seven),
    so a bot may hold its whole hand against another seat's up cards.

    >>> from pokerzoo.envs.core.cards import parse_cards
    >>> showing_key(parse_cards("3c 3d")) > showing_key(parse_cards("As Ks"))
    True
    """
    wilds = 0
    counts: dict[int, int] = {}
    for card in cards:
        if card == JOKER or (deuces_wild and card < 4):  # card ids 0..3 are the deuces
            wilds += 1
        else:
            counts[card >> 2] = counts.get(card >> 2, 0) + 1
    groups = sorted([(size, rank) for rank, size in counts.items()], reverse=True)
    if wilds:
        if groups:
            groups[0] = (groups[0][0] + wilds, groups[0][1])
        else:
            groups = [(wilds, _ACE)]
    pad = CARDS_PER_HAND - len(groups)
    if not groups:
        return _SINGLES[CARDS_PER_HAND] + _NO_RANKS[CARDS_PER_HAND]  # no card at all
    # groups padded with singletons: the number of cards shown never counts by itself
    sizes, ranks = zip(*groups, strict=True)
    return sizes + _SINGLES[pad] + ranks + _NO_RANKS[pad]


_SINGLES = tuple((1,) * pad for pad in range(CARDS_PER_HAND + 1))
_NO_RANKS = tuple((-1,) * pad for pad in range(CARDS_PER_HAND + 1))
""":func:`showing_key`'s padding by the number of groups missing (tuples made once)."""


def pack_order(hands: Sequence[CardsLike], dealer: int = 0) -> list[int]:
    """The top of a pack that deals each seat the cards ``hands[seat]`` (in the order dealt:
    hole card, first up card, ..., fifth card), for scripted hands.

    Cards go out street by street, clockwise from the dealer's left; a seat with fewer cards
    (it folds before the next street, or sits out with an empty hand) is skipped from then on.

    >>> format_cards(pack_order(["As Ks", "Ah Kh"]))
    'Ah As Kh Ks'
    """
    seats = [Deck(jokers=1).parse(cards, what=f"hand of seat {s}") for s, cards in enumerate(hands)]
    for seat, cards in enumerate(seats):
        if len(cards) > CARDS_PER_HAND:
            raise ValueError(f"hand of seat {seat}: expected at most 5 cards, got {len(cards)}")
    n = len(seats)
    order = [(dealer + step) % n for step in range(1, n + 1)]
    return [seats[s][p] for p in range(CARDS_PER_HAND) for s in order if p < len(seats[s])]


class FiveCardStudRules(PackGame, Engine[FiveCardStudState]):
    """Five-card stud under one set of options: the rules of the module docstring
    (:class:`~.game.FiveCardStudGame` adds the views).

    Implements :class:`pokerzoo.envs.core.game.Game` (the state is a
    :class:`~.state.FiveCardStudState`). Every option is checked here and a bad one raises
    ``ValueError`` naming it, the value and what was expected.
    """

    num_actions = len(ACTIONS)
    simultaneous = False

    def __init__(
        self,
        num_players: int = 2,
        ante: int = 1,
        bets: Sequence[int] = (1, 2),
        max_raises: int = 3,
        stack: int | Sequence[int] = 100,
        first_to_act: str = "highest",
        last_card_down: bool = False,
        deuces_wild: bool = False,
        jokers: int = 0,
        hi_lo: bool = False,
        low_qualifier: int | None = None,
        hands: int = 1,
    ) -> None:
        ante = check_int("ante", ante, 0)
        num_players = check_int("num_players", num_players, 2, MAX_PLAYERS)
        stacks = check_stacks(stack, num_players)
        ante = check_ante(ante, stacks)
        hi_lo = check_bool("hi_lo", hi_lo)
        if low_qualifier is not None:
            try:
                low_qualifier = check_int("low_qualifier", low_qualifier, 5, 13)
            except ValueError:
                raise ValueError(
                    f"bad low_qualifier {low_qualifier!r}: expected None or an int in 5..13 "
                    "(the highest card a low may hold; 8: eight-or-better)"
                ) from None
            if not hi_lo:
                raise ValueError(
                    f"bad low_qualifier {low_qualifier!r}: a low qualifier needs hi_lo=True"
                )
        self.options = StudOptions(
            num_players=num_players,
            ante=ante,
            bets=check_bets(bets),
            max_raises=check_int("max_raises", max_raises, 0),
            stack=stacks,
            first_to_act=check_choice("first_to_act", first_to_act, FIRST_TO_ACT),
            last_card_down=check_bool("last_card_down", last_card_down),
            deuces_wild=check_bool("deuces_wild", deuces_wild),
            jokers=check_int("jokers", jokers, 0, 1),
            hi_lo=hi_lo,
            low_qualifier=low_qualifier,
            hands=check_int("hands", hands, 1),
        )
        options = self.options
        self.num_players = options.num_players
        self.deck = Deck(jokers=options.jokers)
        small, big = options.bets
        self._round_rules = (
            RoundRules(bet=small, cap=options.cap, check_first=False),
            RoundRules(bet=small, cap=options.cap),
            RoundRules(bet=big, cap=options.cap),
            RoundRules(bet=big, cap=options.cap),
        )
        n = options.num_players
        # seats in dealing order, from the left of each possible dealer
        self._from_left = tuple(
            tuple((dealer + step) % n for step in range(1, n + 1)) for dealer in range(n)
        )
        # positions of the up cards showing when each betting round opens
        self._showing = tuple(
            tuple(p for p in range(round_ + 2) if options.face_up(p))
            for round_ in range(NUM_ROUNDS)
        )
        self._high = make_evaluator("standard", deuces_wild=options.deuces_wild)
        # the low evaluator's tables are built at the first hi-lo showdown: most games play
        # high only
        self._low: Callable[..., int] | None = None

    def __repr__(self) -> str:
        fields = ", ".join(f"{k}={v!r}" for k, v in vars(self.options).items())
        return f"{type(self).__name__}({fields})"

    # --- a new game -------------------------------------------------------------------------
    def new_state(
        self, cards: CardsLike | None = None, *, rng: np.random.Generator | None = None
    ) -> FiveCardStudState:
        """A new game, its first hand dealt up to the first decision.

        Args:
            cards: the top of the first hand's pack in dealing order (module docstring,
                :func:`pack_order`); any card form, checked against the pack (``ValueError``
                naming a bad or duplicate card).
            rng: draws the rest of the pack and every later pack; ``None`` deals them in id
                order. Kept in the state: a seed replays the same game.
        """
        options = self.options
        n = options.num_players
        if rng is not None and not isinstance(rng, np.random.Generator):
            raise TypeError(f"rng must be a numpy.random.Generator, got {type(rng).__name__}")
        top = [] if cards is None else self.deck.parse(cards, what="pack")
        chips = list(options.stack)
        state = FiveCardStudState(
            options=options,
            rng=rng,
            hand=0,
            dealer=0,
            pack=self.deck.pack(top, rng),
            next_card=0,
            cards=np.full((n, CARDS_PER_HAND), -1, dtype=np.int8),
            up=np.zeros((n, NUM_CARD_IDS), dtype=np.float32),
            betting=Betting.new(chips, options.ante),
            start_stacks=chips,
            history=np.zeros((NUM_ROUNDS, n, len(HISTORY_KINDS)), dtype=np.float32),
        )
        self._deal_hand(state)
        return state

    def _deal_hand(self, state: FiveCardStudState) -> None:
        """Deal the hole and first up cards (the antes are in) and open the first round."""
        for position in (0, 1):
            self._deal_street(state, position)
        state.betting.start_round(self._first_to_act(state), self._round_rules[0])

    def _deal_street(self, state: FiveCardStudState, position: int) -> None:
        """One card each, clockwise from the dealer's left, to the seats still in."""
        betting = state.betting
        seats = [seat for seat in self._from_left[state.dealer] if betting.in_hand(seat)]
        start = state.next_card
        state.next_card = start + len(seats)
        face_up = self.options.face_up(position)
        dealt, up = state.cards, state.up
        for seat, card in zip(seats, state.pack[start : state.next_card].tolist(), strict=True):
            dealt[seat, position] = card
            if face_up:
                up[seat, card] = 1

    def _first_to_act(self, state: FiveCardStudState) -> int:
        """The seat that opens the next betting round (module docstring)."""
        options = self.options
        betting = state.betting
        round_ = betting.round + 1
        rows = state.cards.tolist()
        best_seat, best_key = -1, None
        for seat in self._from_left[state.dealer]:  # ties stay with the seat seen first
            if not betting.in_hand(seat):
                continue
            key: tuple[int, ...]
            if round_ == 0:
                rank = up_card_rank(rows[seat][1], options.deuces_wild)
                key = (-rank,) if options.first_to_act == "lowest" else (rank,)
            else:
                shown = [rows[seat][p] for p in self._showing[round_]]
                key = showing_key(shown, options.deuces_wild)
            if best_key is None or key > best_key:
                best_seat, best_key = seat, key
        return best_seat

    # --- playing ----------------------------------------------------------------------------
    def current_player(self, state: FiveCardStudState) -> int:
        """The seat to act, ``-1`` once the game is over."""
        return -1 if state.over else state.betting.actor

    def legal_mask(self, state: FiveCardStudState, player: int) -> np.ndarray:
        """``int8 (3,)``: fold, check/call, bet/raise for ``player``; zeros when not its turn."""
        self._check_seat(player)
        if state.over or player != state.betting.actor:
            return _NO_ACTION.copy()
        fold, call, raise_ = _legal(state.betting)
        return _MASKS[fold | call << 1 | raise_ << 2].copy()

    def describe_action(self, action: int) -> str:
        """``"fold"``, ``"check/call"`` or ``"bet/raise"``."""
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            raise ValueError(f"bad action {action!r}: expected an int in 0..{len(ACTIONS) - 1}")
        if not 0 <= action < len(ACTIONS):
            raise ValueError(f"bad action {action!r}: expected an int in 0..{len(ACTIONS) - 1}")
        return ACTIONS[action]

    def _check_seat(self, player: object) -> int:
        n = self.num_players
        if type(player) is int and 0 <= player < n:
            return player
        if isinstance(player, (bool, np.bool_)) or not isinstance(player, (int, np.integer)):
            raise ValueError(f"bad player {player!r}: expected a seat in 0..{n - 1}")
        if not 0 <= player < n:
            raise ValueError(f"bad player {player!r}: expected a seat in 0..{n - 1}")
        return int(player)

    def game_over(self, state: FiveCardStudState, player: int) -> str | None:
        if state.over:
            return f"the game is over ({len(state.results)} of {self.options.hands} hands played)"
        return None

    def allows(self, state: FiveCardStudState, player: int, action: int) -> bool:
        """``legal_mask(state, player)[action]``, for an int ``action``, without the mask."""
        betting = state.betting
        return player == betting.actor and 0 <= action < len(ACTIONS) and _legal(betting)[action]

    def transition(self, state: FiveCardStudState, player: int, action: int) -> Payout | None:
        """``player`` plays the legal ``action`` (through :meth:`apply`, which checks it); the
        :class:`Payout` of the hand(s) it ends, else None."""
        seat = player
        betting = state.betting
        if action == RAISE:
            kind = _BET_RAISE
        elif action == FOLD:
            kind = _FOLDED
        else:
            kind = _CALLED if betting.current_bet > betting.round_bets[seat] else _CHECKED
        state.history[betting.round, seat, kind] += 1
        betting.act(action)
        results = self._advance(state) if betting.actor < 0 else []
        if not results:
            return None
        rewards = [0.0] * self.options.num_players
        for result in results:
            for s, chips in enumerate(result["chips"]):
                rewards[s] += chips
        return Payout(tuple(rewards))

    def _advance(self, state: FiveCardStudState) -> list[dict[str, Any]]:
        """Deal, open rounds, settle and start hands until a seat must act or the game ends;
        the results of the hands that ended."""
        results: list[dict[str, Any]] = []
        while not state.over:
            betting = state.betting
            if betting.actor >= 0:
                break
            if not betting.one_left and betting.round < NUM_ROUNDS - 1:
                self._deal_street(state, betting.round + 2)
                betting.start_round(self._first_to_act(state), self._round_rules[betting.round + 1])
                continue
            results.append(self._settle(state))
            self._next_hand(state)
        return results

    def _next_hand(self, state: FiveCardStudState) -> None:
        stacks = state.betting.stacks
        if state.hand + 1 >= self.options.hands or sum(s > 0 for s in stacks) < 2:
            state.over = True
            return
        state.hand += 1
        state.dealer = state.hand % self.options.num_players
        state.pack = self.deck.pack(rng=state.rng)
        state.next_card = 0
        state.betting = Betting.new(stacks, self.options.ante)
        state.start_stacks = list(stacks)
        state.cards.fill(-1)
        state.up.fill(0)
        state.history.fill(0)
        self._deal_hand(state)

    def _settle(self, state: FiveCardStudState) -> dict[str, Any]:
        """Pay the pots of a finished hand; its result dict (module docstring)."""
        options = self.options
        n = options.num_players
        betting = state.betting
        live = betting.players_in
        showdown = len(live) > 1
        high: dict[int, int] = {}
        low: dict[int, int] = {}
        shown: list[str | None] = [None] * n
        names: list[str | None] = [None] * n
        hands: dict[int, list[int]] = {}  # the cards shown, by seat
        categories: dict[int, int] = {}
        if showdown:
            rows = state.cards.tolist()
            for seat in live:
                hand = hands[seat] = rows[seat]
                key = high[seat] = self._high(*hand)
                category = categories[seat] = key >> _CATEGORY_SHIFT
                shown[seat] = format_cards(hand)
                names[seat] = category_name(category, "standard")
                if options.hi_lo:
                    if self._low is None:
                        self._low = make_evaluator("low", deuces_wild=options.deuces_wild)
                    low[seat] = self._low(*hand)
        else:
            high[live[0]] = 0
        pots = []
        for pot in betting.pots():
            high_winners, low_winners = self._winners(pot.eligible, high, low)
            if low_winners:
                low_half = pot.amount // 2
                shares = betting.award(pot.amount - low_half, high_winners, state.dealer)
                low_shares = betting.award(low_half, low_winners, state.dealer)
                for seat, chips in low_shares.items():
                    shares[seat] = shares.get(seat, 0) + chips
            else:
                shares = betting.award(pot.amount, high_winners, state.dealer)
            pots.append(pot.report(shares, high_winners=high_winners, low_winners=low_winners))
        high_winners, low_winners = self._winners(tuple(live), high, low)
        result = {
            "hand": state.hand + 1,
            "dealer": state.dealer,
            "showdown": showdown,
            "shown": tuple(shown),
            "categories": tuple(names),
            "high_winners": high_winners,
            "low_winners": low_winners,
            "pots": tuple(pots),
            "chips": tuple(
                [a - b for a, b in zip(betting.stacks, state.start_stacks, strict=True)]
            ),
            "stacks": tuple(betting.stacks),
        }
        state.results.append(result)
        state.last_info = hand_info(
            hand=state.hand + 1,
            dealer=state.dealer,
            showdown=showdown,
            shown=hands,
            categories=categories,
            winners={"high_winners": high_winners, "low_winners": low_winners},
            pots=pots,
            pot_winners=_POT_WINNERS,
            put_in=betting.committed,
            result=("chips", result["chips"]),
            stacks=result["stacks"],
            cards=CARDS_PER_HAND,
        )
        return result

    def _winners(
        self, eligible: tuple[int, ...], high: dict[int, int], low: dict[int, int]
    ) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The best high hands of ``eligible`` and the best qualifying lows (empty if none)."""
        if len(eligible) == 1:  # everybody else folded, or the pot of one all-in level
            high_winners = eligible
        else:
            best = max(high[s] for s in eligible)
            high_winners = tuple(s for s in eligible if high[s] == best)
        if not low:  # not hi_lo, or no showdown
            return high_winners, ()
        qualified = [
            s for s in eligible if s in low and qualifies_low(low[s], self.options.low_qualifier)
        ]
        if not qualified:
            return high_winners, ()
        best_low = max(low[s] for s in qualified)
        return high_winners, tuple(s for s in qualified if low[s] == best_low)

    def is_terminal(self, state: FiveCardStudState) -> bool:
        """The last hand is over (``hands`` played, or one seat holds every chip)."""
        return state.over


document(sys.modules[__name__], actions=ACTION_TABLE)
