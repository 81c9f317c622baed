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

from collections.abc import Sequence
from dataclasses import dataclass, field

__all__ = [
    "BETTING_ACTIONS",
    "CALL",
    "FOLD",
    "RAISE",
    "Bet",
    "Betting",
    "Pot",
    "RoundRules",
    "split",
]

FOLD, CALL, RAISE = 0, 1, 2
BETTING_ACTIONS = ("fold", "check/call", "bet/raise")


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


@dataclass(frozen=True)
class Bet:
    """One betting action, as the hand's history records it."""

    round: int
    seat: int
    action: int
    """:data:`FOLD`, :data:`CALL` or :data:`RAISE`."""
    amount: int
    """Chips the seat put in with it."""
    to: int
    """The current bet of the round after it."""


@dataclass(frozen=True)
class Pot:
    """A pot and the seats that may win it (in seat order)."""

    amount: int
    eligible: tuple[int, ...]


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

    @classmethod
    def new(cls, stacks: Sequence[int], ante: int) -> Betting:
        """A hand with every seat that has chips dealt in and its ante posted (a short stack
        posts what it has)."""
        n = len(stacks)
        betting = cls(
            stacks=[int(s) for s in stacks],
            dealt=[s > 0 for s in stacks],
            committed=[0] * n,
            folded=[False] * n,
            round_bets=[0] * n,
            pending=[False] * n,
        )
        for seat in range(n):
            if betting.dealt[seat]:
                betting._put(seat, min(ante, betting.stacks[seat]))
        return betting

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
        return [s for s in range(self.num_seats) if self.in_hand(s)]

    @property
    def one_left(self) -> bool:
        """Everybody but one seat has folded: that seat takes the pot unseen."""
        return len(self.players_in) == 1

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
        self.current_bet = 0
        self.bets = 0
        self.start = first % n
        self.orbit = 1
        able = [self.can_act(s) for s in range(n)]
        if sum(able) < 2 or self.one_left:
            self.pending = [False] * n
            self.actor = -1
            return
        self.pending = able
        self.actor = self._next_pending(self.start - 1)

    @property
    def to_call(self) -> int:
        """Chips the seat to act must add to match the current bet."""
        return self.current_bet - self.round_bets[self.actor] if self.actor >= 0 else 0

    def legal(self) -> tuple[bool, bool, bool]:
        """Whether the seat to act may fold, check/call, bet/raise (all False between rounds)."""
        seat = self.actor
        if seat < 0 or self.rules is None:
            return (False, False, False)
        rules = self.rules
        to_call = self.current_bet - self.round_bets[seat]
        raise_ = (
            self.stacks[seat] > to_call
            and (rules.cap is None or self.bets < rules.cap)
            and (rules.orbits is None or self.orbit < rules.orbits)
            and any(self.can_act(s) for s in range(self.num_seats) if s != seat)
        )
        # "bet or fold" only while a bet is possible: a seat nobody could answer (the others
        # folded or all-in) checks rather than being forced to fold
        opening = self.current_bet == 0 and not rules.check_first and raise_
        fold = to_call > 0 or opening
        call = not opening
        return (fold, call, raise_)

    def act(self, action: int) -> None:
        """Play ``action`` (:data:`FOLD`, :data:`CALL`, :data:`RAISE`) for the seat to act.

        Raises ``ValueError`` for an action :meth:`legal` does not allow (nothing changes).
        """
        seat = self.actor
        if seat < 0 or self.rules is None:
            raise ValueError("no betting round in progress")
        if action not in (FOLD, CALL, RAISE) or not self.legal()[action]:
            raise ValueError(
                f"illegal betting action {action!r} for seat {seat}: legal are "
                f"{[BETTING_ACTIONS[a] for a, ok in enumerate(self.legal()) if ok]}"
            )
        to_call = self.current_bet - self.round_bets[seat]
        amount = 0
        if action == FOLD:
            self.folded[seat] = True
        elif action == CALL:
            amount = min(to_call, self.stacks[seat])
            self._put(seat, amount)
        else:
            amount = min(to_call + self.rules.bet, self.stacks[seat])
            self._put(seat, amount)
            if self.round_bets[seat] > self.current_bet:
                self.current_bet = self.round_bets[seat]
                self.bets += 1
                for other in range(self.num_seats):
                    if other != seat and self.can_act(other):
                        self.pending[other] = True
        self.pending[seat] = False
        self.history.append(Bet(self.round, seat, action, amount, self.current_bet))
        if self.one_left:
            self.pending = [False] * self.num_seats
            self.actor = -1
            return
        following = self._next_pending(seat)
        if following >= 0 and self._rel(following) <= self._rel(seat):
            self.orbit += 1
        self.actor = following

    @property
    def round_over(self) -> bool:
        return self.actor < 0

    def _rel(self, seat: int) -> int:
        return (seat - self.start) % self.num_seats

    def _next_pending(self, seat: int) -> int:
        n = self.num_seats
        for step in range(1, n + 1):
            other = (seat + step) % n
            if self.pending[other]:
                return other
        return -1

    def _put(self, seat: int, amount: int) -> None:
        self.stacks[seat] -= amount
        self.committed[seat] += amount
        if self.round_bets:
            self.round_bets[seat] += amount

    # --- pots ---------------------------------------------------------------------------------
    def pots(self) -> list[Pot]:
        """The main pot then the side pots, each with the seats that may win it.

        Levels are what the seats still in have put in; each pot holds every seat's chips
        between the previous level and its own (folded seats' chips included) and may be won
        by the seats still in that reached it. Chips put in above the highest level of a seat
        still in (a folded seat's raise that nobody matched) go to the last pot.
        """
        live = self.players_in
        levels = sorted({self.committed[s] for s in live})
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

    def pay(self, seat: int, chips: int) -> None:
        """Hand ``chips`` won from the pot to ``seat``'s stack."""
        self.stacks[seat] += chips


def split(amount: int, winners: Sequence[int], dealer: int, num_seats: int) -> dict[int, int]:
    """Divide ``amount`` chips among tied ``winners``: equal shares, the odd chips one each to
    the winners nearest the dealer's left, clockwise (RULES §2).

    >>> split(5, [0, 2], dealer=1, num_seats=4)
    {2: 3, 0: 2}
    """
    if not winners:
        raise ValueError("a pot needs at least one winner")
    order = sorted(set(winners), key=lambda s: (s - dealer - 1) % num_seats)
    share, odd = divmod(amount, len(order))
    return {seat: share + (1 if i < odd else 0) for i, seat in enumerate(order)}
