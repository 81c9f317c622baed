"""Fixed-limit betting, shared by draw poker (RULES §2) and five-card stud (RULES §5).

One :class:`Betting` record holds the money of one hand: every seat's stack, what it has put in
the pot this hand and this round, who folded, and the betting round in progress. A game
creates it with the antes posted (:meth:`Betting.new`), opens each betting round
(:meth:`Betting.start_round`) with that round's :class:`RoundRules`, asks
:meth:`Betting.legal` for the seat to act and plays its choice (:meth:`Betting.act`), then
divides the pots (:meth:`Betting.pots`, :func:`split`) among the winners it finds.

Actions
-------
=====  ==============  ================================================================
index  name            meaning
=====  ==============  ================================================================
0      ``fold``        give up the hand (only when there is a bet to call, or when the
                       round's rules forbid checking)
1      ``check/call``  put in what the current bet asks (nothing: a check); a short
                       stack calls all-in for less
2      ``bet/raise``   call and add the round's bet size (a bet when nobody has bet yet);
                       a stack too short for the whole raise goes all-in
=====  ==============  ================================================================

Rules of a round
----------------
- Action goes clockwise from the round's first seat, skipping seats that folded or are
  all-in (no chips left); a seat with no chips at the start of a hand is not dealt in.
- The round ends when every seat still able to act has acted since the last bet or raise and
  matched the current bet (or gone all-in trying), or when one seat is left in the hand.
- ``RoundRules.cap``: the most bets and raises in one round (stud: one bet and three raises,
  4); ``RoundRules.orbits``: the most trips around the table, raising not allowed in the last
  one (draw poker: 3); ``RoundRules.check_first=False``: until somebody bets, a seat may not
  check and must bet or fold (stud's first round), unless no other seat could answer a bet.
- Raising needs chips beyond the call and at least one other seat that can still answer it.
  An all-in raise for less than the bet size still counts as a raise.

Pots
----
:meth:`Betting.pots` splits what was put in into the main pot and side pots: each all-in level
of the seats still in makes a pot that only the seats who reached it may win; chips of folded
seats stay in the pots they reached. :func:`split` divides a pot among tied winners, the odd
chips going one by one to the winners nearest the dealer's left (RULES §2).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any, NamedTuple

import numpy as np

from .info import InfoKey, InfoSchema, SettledInfo, settled
from .observation import Field
from .options import check_int

__all__ = [
    "BETTING_ACTIONS",
    "check_bets",
    "check_stacks",
    "CALL",
    "FOLD",
    "RAISE",
    "Bet",
    "Betting",
    "Pot",
    "RoundRules",
    "TABLE_ROWS",
    "check_ante",
    "encode_seat_money",
    "hand_info",
    "hand_info_schema",
    "neutral_hand_info",
    "pot_arrays",
    "seat_fields",
    "seat_money_fields",
    "split",
]

FOLD, CALL, RAISE = 0, 1, 2
BETTING_ACTIONS = ("fold", "check/call", "bet/raise")
TABLE_ROWS = ("dealt", "stacks", "round_bets", "committed", "in_hand", "all_in")
"""The rows of :attr:`Betting.table`: what every player sees of each seat's money."""


@dataclass(frozen=True)
class RoundRules:
    """The limits of one betting round (see the module docstring)."""

    bet: int
    """Size of a bet and of every raise."""
    cap: int | None = None
    """Most bets plus raises in the round (``None``: no cap)."""
    orbits: int | None = None
    """Most trips around the table; no raising in the last one (``None``: no limit)."""
    check_first: bool = True
    """Whether a seat may check while nobody has bet in the round."""


class Bet(NamedTuple):
    """One betting action, as the hand's history records it (a named tuple: one is made at
    every action)."""

    round: int
    seat: int
    action: int
    """:data:`FOLD`, :data:`CALL` or :data:`RAISE`."""
    amount: int
    """Chips the seat put in with it."""
    to: int
    """The current bet of the round after it."""


class Pot(NamedTuple):
    """A pot and the seats that may win it (in seat order). A named tuple: every settled hand
    makes one or more."""

    amount: int
    eligible: tuple[int, ...]

    def report(self, shares: Mapping[int, int], **winners: tuple[int, ...]) -> dict[str, Any]:
        """The pot as a hand's report shows it: its amount, the seats that could win it, its
        ``winners`` (one entry per kind of winner: ``winners``, or ``high_winners`` and
        ``low_winners``) and what each winner took."""
        return {"amount": self.amount, "eligible": self.eligible, **winners, "shares": shares}


@dataclass
class Betting:
    """The money of one hand and its betting round in progress.

    Create with :meth:`new`; the lists are indexed by seat.
    """

    stacks: list[int]
    """Chips each seat has behind (not yet put in)."""
    dealt: list[bool]
    """Seats dealt into the hand (those that had chips when it began)."""
    committed: list[int]
    """Chips each seat has put in the pot this hand (antes included)."""
    folded: list[bool]
    round_bets: list[int] = field(default_factory=list)
    """Chips each seat has put in during the current round."""
    rules: RoundRules | None = None
    round: int = -1
    """Index of the current betting round (0 for the first), -1 before the first."""
    current_bet: int = 0
    bets: int = 0
    """Bets and raises made in the current round."""
    start: int = 0
    """The seat the current round started from."""
    actor: int = -1
    """The seat to act, -1 when no betting round is in progress."""
    orbit: int = 0
    pending: list[bool] = field(default_factory=list)
    """Seats that must still act in the current round."""
    history: list[Bet] = field(default_factory=list)
    table: np.ndarray = field(init=False, repr=False, compare=False)
    """``float32 (6, num_seats)``: the rows :data:`TABLE_ROWS` of every seat (``in_hand``:
    dealt and not folded; ``all_in``: in the hand with no chips behind), kept in step with the
    lists by every change, for the observations to copy as it is (they are made at every
    decision; converting the lists would cost more than the rest of an observation)."""
    _legal: tuple[bool, bool, bool] = field(
        default=(False, False, False), init=False, repr=False, compare=False
    )
    """:meth:`legal`, worked out once per seat to act (the env, the game and :meth:`act` all
    ask it at every decision)."""

    def __post_init__(self) -> None:
        n = len(self.stacks)
        in_hand = [d and not f for d, f in zip(self.dealt, self.folded, strict=True)]
        round_bets = self.round_bets or [0] * n
        all_in = [i and c == 0 for i, c in zip(in_hand, self.stacks, strict=True)]
        rows = (*self.dealt, *self.stacks, *round_bets, *self.committed, *in_hand, *all_in)
        self.table = np.array(rows, dtype=np.float32).reshape(len(TABLE_ROWS), n)
        self._legal = self._find_legal()

    @classmethod
    def new(cls, stacks: Sequence[int], ante: int) -> Betting:
        """A hand with every seat that has chips dealt in and its ante posted (a short stack
        posts what it has)."""
        chips = [int(s) for s in stacks]
        antes = [min(ante, s) if s > 0 else 0 for s in chips]
        n = len(chips)
        return cls(
            stacks=[s - a for s, a in zip(chips, antes, strict=True)],
            dealt=[s > 0 for s in chips],
            committed=antes,
            folded=[False] * n,
            round_bets=list(antes),
            pending=[False] * n,
        )

    def copy(self) -> Betting:
        return Betting(
            list(self.stacks),
            list(self.dealt),
            list(self.committed),
            list(self.folded),
            list(self.round_bets),
            self.rules,
            self.round,
            self.current_bet,
            self.bets,
            self.start,
            self.actor,
            self.orbit,
            list(self.pending),
            list(self.history),
        )

    # --- who is in ----------------------------------------------------------------------------
    @property
    def num_seats(self) -> int:
        return len(self.stacks)

    def in_hand(self, seat: int) -> bool:
        """Dealt in and not folded."""
        return self.dealt[seat] and not self.folded[seat]

    def can_act(self, seat: int) -> bool:
        """In the hand with chips left to bet."""
        return self.dealt[seat] and not self.folded[seat] and self.stacks[seat] > 0

    @property
    def players_in(self) -> list[int]:
        """Seats still in the hand (dealt, not folded)."""
        folded = self.folded
        return [s for s, dealt in enumerate(self.dealt) if dealt and not folded[s]]

    @property
    def one_left(self) -> bool:
        """Everybody but one seat has folded: that seat takes the pot unseen."""
        # only seats dealt in ever fold
        return self.dealt.count(True) - self.folded.count(True) == 1

    @property
    def pot(self) -> int:
        return sum(self.committed)

    # --- a betting round ----------------------------------------------------------------------
    def start_round(self, first: int, rules: RoundRules) -> None:
        """Open the next betting round, action from seat ``first`` clockwise.

        When fewer than two seats can still bet (the others folded or all-in), there is
        nothing to bet on: the round is over at once (:attr:`actor` stays -1).
        """
        n = self.num_seats
        self.round += 1
        self.rules = rules
        self.round_bets = [0] * n
        self.table[2] = 0
        self.current_bet = 0
        self.bets = 0
        self.start = first % n
        self.orbit = 1
        able = self._able()
        if able.count(True) < 2 or self.one_left:
            self.pending = [False] * n
            self.actor = -1
        else:
            self.pending = able
            self.actor = self._next_pending(self.start - 1)
        self._legal = self._find_legal()

    @property
    def to_call(self) -> int:
        """Chips the seat to act must add to match the current bet."""
        return self.current_bet - self.round_bets[self.actor] if self.actor >= 0 else 0

    def legal(self) -> tuple[bool, bool, bool]:
        """Whether the seat to act may fold, check/call, bet/raise (all False between rounds)."""
        return self._legal

    def _find_legal(self) -> tuple[bool, bool, bool]:
        seat = self.actor
        rules = self.rules
        if seat < 0 or rules is None:
            return (False, False, False)
        to_call = self.current_bet - self.round_bets[seat]
        raise_ = (
            self.stacks[seat] > to_call
            and (rules.cap is None or self.bets < rules.cap)
            and (rules.orbits is None or self.orbit < rules.orbits)
            and self._answerable(seat)
        )
        # "bet or fold" only while a bet is possible: a seat nobody could answer (the others
        # folded or all-in) checks rather than being forced to fold
        opening = self.current_bet == 0 and not rules.check_first and raise_
        return (to_call > 0 or opening, not opening, raise_)

    def act(self, action: int) -> None:
        """Play ``action`` (:data:`FOLD`, :data:`CALL`, :data:`RAISE`) for the seat to act.

        Raises ``ValueError`` for an action :meth:`legal` does not allow (nothing changes).
        """
        seat = self.actor
        if seat < 0 or self.rules is None:
            raise ValueError("no betting round in progress")
        legal = self._legal
        if action not in (FOLD, CALL, RAISE) or not legal[action]:
            raise ValueError(
                f"illegal betting action {action!r} for seat {seat}: legal are "
                f"{[BETTING_ACTIONS[a] for a, ok in enumerate(legal) if ok]}"
            )
        to_call = self.current_bet - self.round_bets[seat]
        amount = 0
        pending = self.pending
        if action == FOLD:
            self.folded[seat] = True
            self.table[4, seat] = 0
        elif action == CALL:
            amount = min(to_call, self.stacks[seat])
            self._put(seat, amount)
        else:
            amount = min(to_call + self.rules.bet, self.stacks[seat])
            self._put(seat, amount)
            if self.round_bets[seat] > self.current_bet:
                self.current_bet = self.round_bets[seat]
                self.bets += 1
                for other, able in enumerate(self._able()):
                    if able:
                        pending[other] = True
        pending[seat] = False
        self.history.append(Bet(self.round, seat, action, amount, self.current_bet))
        if action == FOLD and self.one_left:  # (only a fold leaves one seat)
            self.pending = [False] * self.num_seats
            following = -1
        else:
            following = self._next_pending(seat)
            if following >= 0:
                n, start = self.num_seats, self.start
                if (following - start) % n <= (seat - start) % n:
                    self.orbit += 1
        self.actor = following
        self._legal = self._find_legal()

    @property
    def round_over(self) -> bool:
        return self.actor < 0

    def _answerable(self, seat: int) -> bool:
        """Whether another seat than ``seat`` can still bet (and so answer a raise)."""
        dealt, folded, stacks = self.dealt, self.folded, self.stacks
        for other in range(len(stacks)):
            if stacks[other] > 0 and other != seat and dealt[other] and not folded[other]:
                return True
        return False

    def _able(self) -> list[bool]:
        """:meth:`can_act` of every seat."""
        return [
            d and not f and c > 0
            for d, f, c in zip(self.dealt, self.folded, self.stacks, strict=True)
        ]

    def _next_pending(self, seat: int) -> int:
        """The first seat clockwise after ``seat`` that must still act (-1: none)."""
        pending = self.pending
        for other in range(seat + 1, len(pending)):
            if pending[other]:
                return other
        for other in range(0, seat + 1):
            if pending[other]:
                return other
        return -1

    def _put(self, seat: int, amount: int) -> None:
        stacks, table = self.stacks, self.table
        stacks[seat] -= amount
        self.committed[seat] += amount
        if self.round_bets:
            self.round_bets[seat] += amount
            table[2, seat] = self.round_bets[seat]
        table[1, seat] = stacks[seat]
        table[3, seat] = self.committed[seat]
        if not stacks[seat]:
            table[5, seat] = table[4, seat]

    # --- pots ---------------------------------------------------------------------------------
    def pots(self) -> list[Pot]:
        """The main pot then the side pots, each with the seats that may win it.

        Levels are what the seats still in have put in; each pot holds every seat's chips
        between the previous level and its own (folded seats' chips included) and may be won
        by the seats still in that reached it. Chips put in above the highest level of a seat
        still in (a folded seat's raise that nobody matched) go to the last pot.
        """
        live = self.players_in
        committed = self.committed
        levels = sorted({committed[s] for s in live})
        if len(levels) == 1:  # nobody in is short: one pot, every chip in it (most hands)
            total = sum(committed)
            return [Pot(total, tuple(live))] if total else []
        pots: list[Pot] = []
        previous = 0
        for level in levels:
            amount = sum(min(c, level) - min(c, previous) for c in self.committed)
            eligible = tuple(s for s in live if self.committed[s] >= level)
            if pots and pots[-1].eligible == eligible:
                pots[-1] = Pot(pots[-1].amount + amount, eligible)
            elif amount:
                pots.append(Pot(amount, eligible))
            previous = level
        excess = sum(max(0, c - previous) for c in self.committed)
        if excess:
            last = pots[-1]
            pots[-1] = Pot(last.amount + excess, last.eligible)
        return pots

    def award(self, amount: int, winners: Sequence[int], dealer: int) -> dict[int, int]:
        """Pay ``amount`` chips of a pot to its tied ``winners`` (:func:`split`: the odd chips
        to those nearest the dealer's left); each winner's share."""
        shares = split(amount, winners, dealer, len(self.stacks))
        for seat, chips in shares.items():
            self.pay(seat, chips)
        return shares

    def pay(self, seat: int, chips: int) -> None:
        """Hand ``chips`` won from the pot to ``seat``'s stack."""
        self.stacks[seat] += chips
        self.table[1, seat] = self.stacks[seat]
        self.table[5, seat] = self.in_hand(seat) and self.stacks[seat] == 0


def split(amount: int, winners: Sequence[int], dealer: int, num_seats: int) -> dict[int, int]:
    """Divide ``amount`` chips among tied ``winners``: equal shares, the odd chips one each to
    the winners nearest the dealer's left, clockwise (RULES §2).

    >>> split(5, [0, 2], dealer=1, num_seats=4)
    {2: 3, 0: 2}
    """
    if len(winners) == 1:
        return {winners[0]: amount}
    if not winners:
        raise ValueError("a pot needs at least one winner")
    order = sorted(set(winners), key=lambda s: (s - dealer - 1) % num_seats)
    share, odd = divmod(amount, len(order))
    return {seat: share + (1 if i < odd else 0) for i, seat in enumerate(order)}


def pot_arrays(
    pots: Sequence[Mapping[str, Any]], num_seats: int, winners: Sequence[str] = ("winners",)
) -> dict[str, np.ndarray]:
    """A hand's pot reports (:meth:`Pot.report`: main pot first) as fixed-shape arrays for an
    info, at most ``num_seats`` pots (one per all-in level of the seats still in), row ``p``
    pot ``p``, column ``s`` seat ``s``, zeros where a pot does not exist: ``pot_amounts``
    ``int64 (N,)``, ``pot_eligible`` ``bool (N, N)``, ``pot_<key>`` ``bool (N, N)`` for each
    key of ``winners`` (``pot_winners``, or ``pot_high_winners`` and ``pot_low_winners``) and
    ``pot_shares`` ``int64 (N, N)`` (the chips each seat took from the pot).

    >>> arrays = pot_arrays([Pot(5, (0, 1)).report({1: 5}, winners=(1,))], 2)
    >>> arrays["pot_amounts"].tolist(), arrays["pot_winners"].tolist()
    ([5, 0], [[False, True], [False, False]])
    """
    n = num_seats
    if len(pots) > n:
        raise ValueError(f"{len(pots)} pots for {n} seats: expected at most {n}")
    # nested lists, one np.array per key: a hand settles often, and small arrays are cheaper
    # built whole than filled element by element
    amounts = [0] * n
    eligible = [[False] * n for _ in range(n)]
    won = {key: [[False] * n for _ in range(n)] for key in winners}
    shares = [[0] * n for _ in range(n)]
    for p, pot in enumerate(pots):
        amounts[p] = pot["amount"]
        row = eligible[p]
        for seat in pot["eligible"]:
            row[seat] = True
        for key in winners:
            row = won[key][p]
            for seat in pot[key]:
                row[seat] = True
        row = shares[p]
        for seat, chips in pot["shares"].items():
            row[seat] = chips
    out = {
        "pot_amounts": np.array(amounts, dtype=np.int64),
        "pot_eligible": np.array(eligible, dtype=bool),
    }
    for key in winners:
        out[f"pot_{key}"] = np.array(won[key], dtype=bool)
    out["pot_shares"] = np.array(shares, dtype=np.int64)
    return out


def hand_info_schema(
    num_seats: int,
    *,
    cards: int,
    shown: str,
    categories: str,
    winners: Sequence[InfoKey] = (),
    pot_winners: Sequence[InfoKey],
    shares: str,
    result: str,
) -> InfoSchema:
    """The info of a fixed-limit betting game for ``num_seats`` seats: the report of the last
    hand settled. The keys every such game holds (``hand``, ``dealer``, ``showdown``, ``shown``
    ``(N, cards)``, ``categories``, ``pot_amounts``, ``pot_eligible``, ``pot_shares``, ``put_in``,
    the chip results under the name ``result`` and ``stacks``) take the game's own texts where
    they differ (``shown``, ``categories``, ``shares``); ``winners`` come after ``categories``
    and ``pot_winners`` (:func:`pot_arrays`' ``pot_<key>``) after ``pot_eligible``."""
    n = num_seats
    return InfoSchema(
        [
            InfoKey("hand", "int", (), "the last hand settled, 1-based; 0 before the first"),
            InfoKey("dealer", "int", (), "the seat that dealt it; -1 before the first"),
            InfoKey(
                "showdown",
                "bool",
                (),
                "it ended at a showdown (False: everybody else folded; False before the first)",
            ),
            InfoKey("shown", "int", (n, cards), shown),
            InfoKey("categories", "int", (n,), categories),
            *winners,
            InfoKey(
                "pot_amounts",
                "int",
                (n,),
                "chips in pot `p` (0 the main pot, then the side pots); 0 where none",
            ),
            InfoKey(
                "pot_eligible",
                "bool",
                (n, n),
                "`[p, s]`: seat `s` could win pot `p` (it reached it and did not fold)",
            ),
            *pot_winners,
            InfoKey("pot_shares", "int", (n, n), shares),
            InfoKey("put_in", "int", (n,), "chips each seat put in the pots, ante included"),
            InfoKey(
                result,
                "int",
                (n,),
                "each seat's chip result of the hand (stack after minus before; zero-sum)",
            ),
            InfoKey(
                "stacks",
                "int",
                (n,),
                "each seat's chips after the hand (the starting stacks before the first)",
            ),
        ]
    )


def neutral_hand_info(
    schema: InfoSchema, stacks: Sequence[int], pot_winners: Sequence[str] = ("winners",)
) -> SettledInfo:
    """The info of :func:`hand_info_schema` before the first hand is settled: ``hand`` 0,
    ``dealer`` -1, ``showdown`` False, ``shown`` and ``categories`` all -1, the starting
    ``stacks``, every other key zeros (False)."""
    n = len(stacks)
    info: dict[str, Any] = {}
    for key in schema:
        name = key.key
        if name == "hand":
            info[name] = 0
        elif name == "dealer":
            info[name] = -1
        elif name == "showdown":
            info[name] = False
        elif name in ("shown", "categories"):
            info[name] = np.full(key.shape, -1, dtype=np.int64)
        elif name == "stacks":
            info[name] = np.array(stacks, dtype=np.int64)
        elif name.startswith("pot_"):
            info.update(pot_arrays((), n, pot_winners))
        else:
            info[name] = np.zeros(key.shape, dtype=np.int64 if key.kind == "int" else bool)
    return settled(info)


def hand_info(
    *,
    hand: int,
    dealer: int,
    showdown: bool,
    shown: Mapping[int, Sequence[int]],
    categories: Mapping[int, int],
    winners: Mapping[str, Sequence[int]],
    pots: Sequence[Mapping[str, Any]],
    pot_winners: Sequence[str],
    put_in: Sequence[int],
    result: tuple[str, Sequence[int]],
    stacks: Sequence[int],
    cards: int,
) -> SettledInfo:
    """The info of :func:`hand_info_schema` for a settled hand, in its key order: ``shown``
    and ``categories`` the cards and category of each seat shown at the showdown (-1
    elsewhere), ``winners`` each seat-mask key after ``categories`` (stud's ``high_winners``
    and ``low_winners``; none in draw poker), ``pots`` the hand's pot reports
    (:func:`pot_arrays` with ``pot_winners``), ``result`` the name and values of the chip
    results, ``cards`` the cards in a hand.

    >>> info = hand_info(hand=1, dealer=0, showdown=False, shown={}, categories={},
    ...     winners={}, pots=[Pot(2, (1,)).report({1: 2}, winners=(1,))], pot_winners=("winners",),
    ...     put_in=[1, 1], result=("results", [-1, 1]), stacks=[9, 11], cards=5)
    >>> info["pot_winners"].tolist(), info["results"].tolist(), type(info["hand"]).__name__
    ([[False, True], [False, False]], [-1, 1], 'int64')
    """
    # Every int array is a view of one int64 buffer and every bool array of one bool buffer,
    # filled as flat lists from the layout's neutral values: a heads-up hand settles every few
    # decisions, and two conversions cost a third of one per key.
    n = len(stacks)
    nn = n * n
    neutral, num_bools, views = _hand_layout(
        n, cards, tuple(winners), tuple(pot_winners), result[0]
    )
    ints = list(neutral)
    for seat, held in shown.items():
        ints[seat * cards : seat * cards + cards] = held
    at = n * cards
    for seat, category in categories.items():
        ints[at + seat] = category
    at_amounts, at_shares = at + n, at + 2 * n
    bools = [False] * num_bools
    b = 0
    for won in winners.values():
        for seat in won:
            bools[b + seat] = True
        b += n
    for p, pot in enumerate(pots):
        ints[at_amounts + p] = pot["amount"]
        row = p * n
        for seat in pot["eligible"]:
            bools[b + row + seat] = True
        w = b + nn
        for key in pot_winners:
            for seat in pot[key]:
                bools[w + row + seat] = True
            w += nn
        row += at_shares
        for seat, chips in pot["shares"].items():
            ints[row + seat] = chips
    at = at_shares + nn
    ints[at : at + 3 * n] = [*put_in, *result[1], *stacks]
    int_buffer = np.array(ints, dtype=np.int64)
    bool_buffer = np.array(bools, dtype=bool)
    int_buffer.setflags(write=False)  # before the views are taken: they inherit it
    bool_buffer.setflags(write=False)
    info: dict[str, Any] = {
        "hand": _INT64[hand] if 0 <= hand < len(_INT64) else np.int64(hand),
        "dealer": _INT64[dealer],
        "showdown": np.True_ if showdown else np.False_,
    }
    for key, is_bool, where, shape in views:
        view = (bool_buffer if is_bool else int_buffer)[where]
        info[key] = view if shape is None else view.reshape(shape)
    return SettledInfo(info)


_INT64 = tuple(np.int64(i) for i in range(1024))
"""Shared numpy scalars for the small ints of an info (immutable, so sharing them is safe)."""


@cache
def _hand_layout(
    num_seats: int,
    cards: int,
    winners: tuple[str, ...],
    pot_winners: tuple[str, ...],
    result: str,
) -> tuple[tuple[int, ...], int, tuple[tuple[str, bool, slice, tuple[int, int] | None], ...]]:
    """Where :func:`hand_info` puts each array key: the int buffer's neutral values (-1 for
    ``shown`` and ``categories``, 0 after), the bool buffer's size, and per key (in the
    schema's order) whether it is a bool, its slice of its buffer and its 2-D shape (``None``:
    one row of ``num_seats``)."""
    n, nn = num_seats, num_seats * num_seats
    sizes: list[tuple[str, bool, int, tuple[int, int] | None]] = [
        ("shown", False, n * cards, (n, cards)),
        ("categories", False, n, None),
        *((key, True, n, None) for key in winners),
        ("pot_amounts", False, n, None),
        ("pot_eligible", True, nn, (n, n)),
        *((f"pot_{key}", True, nn, (n, n)) for key in pot_winners),
        ("pot_shares", False, nn, (n, n)),
        *((key, False, n, None) for key in ("put_in", result, "stacks")),
    ]
    views = []
    at = {False: 0, True: 0}
    for key, is_bool, size, shape in sizes:
        views.append((key, is_bool, slice(at[is_bool], at[is_bool] + size), shape))
        at[is_bool] += size
    neutral = (-1,) * (n * cards + n) + (0,) * (at[False] - n * cards - n)
    return neutral, at[True], tuple(views)


def seat_fields(num_seats: int) -> list[Field]:
    """The state fields ``to_act`` and ``dealer`` (one-hot seats) of a betting game."""
    return [
        Field("to_act", num_seats, 1, "one-hot seat to act (zeros once over)"),
        Field("dealer", num_seats, 1, "one-hot seat of the hand's dealer"),
    ]


def seat_money_fields(num_seats: int, chips: int, round_bets: str) -> list[Field]:
    """The state fields of every seat's money (:func:`encode_seat_money`), ``chips`` the bound
    of an amount, ``round_bets`` the game's text for what a seat put in this betting round."""
    n = num_seats
    return [
        Field("stacks", n, chips, "seat `s`'s chips behind"),
        Field("round_bets", n, chips, round_bets),
        Field("committed", n, chips, "chips seat `s` has put in this hand, ante included"),
        Field("start_stacks", n, chips, "seat `s`'s chips when the hand began"),
        Field("dealt", n, 1, "seat `s` is dealt into this hand (0: no chips, sitting out)"),
        Field("in_hand", n, 1, "seat `s` is dealt in and has not folded"),
        Field("all_in", n, 1, "seat `s` is in the hand with no chips behind"),
    ]


def encode_seat_money(
    out: np.ndarray, at: Any, betting: Betting, start_stacks: Sequence[int]
) -> None:
    """Write the fields of :func:`seat_money_fields` into the state vector ``out`` (``at``: the
    layout's starts)."""
    n = betting.num_seats
    table = betting.table  # rows dealt, stacks, round_bets, committed, in_hand, all_in
    for name, row in (
        ("stacks", 1),
        ("round_bets", 2),
        ("committed", 3),
        ("dealt", 0),
        ("in_hand", 4),
        ("all_in", 5),
    ):
        start = getattr(at, name)
        out[start : start + n] = table[row]
    out[at.start_stacks : at.start_stacks + n] = start_stacks


def check_ante(ante: int, stacks: Sequence[int]) -> int:
    """``ante`` if at least two seats start with more chips than the ante, so that the first
    hand holds two seats that can bet after anteing (a seat starting with the ante or less posts
    what it has and is all-in; one with no chips sits out); else ``ValueError`` naming the ante
    and the limit. Draw poker and five-card stud apply this rule."""
    limit = sorted(stacks)[-2]  # the second-largest starting stack
    if ante >= limit:
        stack = stacks[0] if len(set(stacks)) == 1 else tuple(stacks)
        raise ValueError(
            f"bad ante {ante}: expected an int in 0..{limit - 1}, smaller than the starting stacks "
            f"of at least two seats (stack {stack}), so that two seats can ante and still bet"
        )
    return ante


def check_bets(bets: object) -> tuple[int, int]:
    """The ``bets`` option of a fixed-limit game: two ints >= 1, the bet size of the early and of
    the late betting rounds (draw poker: before and after the draw; stud: small and big bet)."""
    expected = "expected two ints >= 1 (the early and the late rounds' bet size)"
    if isinstance(bets, (str, bytes)) or not isinstance(bets, Sequence) or len(bets) != 2:
        raise ValueError(f"bad bets {bets!r}: {expected}")
    try:
        return check_int("bets", bets[0], 1), check_int("bets", bets[1], 1)
    except ValueError:
        raise ValueError(f"bad bets {bets!r}: {expected}") from None


def check_stacks(stack: object, num_players: int, more_than: int = 0) -> tuple[int, ...]:
    """The ``stack`` option: every seat's chips at the start, one int for all (more than
    ``more_than``) or one int >= 0 per seat, at least two of them more than ``more_than`` (a
    seat with no chips sits out). Stud passes its ante: a hand where every seat is all-in on
    the ante would hold no decision."""
    if isinstance(stack, Sequence) and not isinstance(stack, (str, bytes)):
        expected = (
            f"expected {num_players} ints >= 0 (one a seat), at least two of them > {more_than}"
        )
        try:
            chips = tuple(check_int("stack", s, 0) for s in stack)
        except ValueError:
            raise ValueError(f"bad stack {stack!r}: {expected}") from None
        if len(chips) != num_players or sum(c > more_than for c in chips) < 2:
            raise ValueError(f"bad stack {stack!r}: {expected}")
        return chips
    if isinstance(stack, bool) or not isinstance(stack, int) or stack <= more_than:
        raise ValueError(f"bad stack {stack!r}: expected an int > {more_than}")
    return (stack,) * num_players
