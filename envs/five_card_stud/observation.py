"""One seat's observation of five-card stud: what that player may know, as one flat vector.

Seats are **relative**: seat ``k`` is the player ``k`` seats to the observer's left (clockwise),
``k = 0`` the observer. The vector has room for 10 seats whatever ``num_players`` is (one
space for every table size; the entries of missing seats are 0 and ``seats`` says which exist).
Card ``c`` is the card id of :mod:`pokerzoo.envs.core.cards` (``4 * rank + suit``; 52 the
joker). Chips are counted in chips (not normalised). The bounds are finite and follow the
options (:func:`make_layout`): chips up to every chip at the table, counts up to the cap.

The observer's own face-down cards are in ``hole``; other seats' face-down cards never appear,
not even after the showdown (the hands shown are in the info). Up cards stay in
``up_cards`` after their seat folds: everybody saw them.

{table}

``history`` index ``40 * r + 4 * k + j``: in betting round ``r`` (0..3) of this hand, how many
times relative seat ``k`` bet or raised (``j = 0``), called (``j = 1``), checked (``j = 2``) or
folded (``j = 3``).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from functools import cache
from typing import NamedTuple

import numpy as np

from ..core.betting import TABLE_ROWS
from ..core.cards import NUM_CARD_IDS
from ..core.observation import Field, ObservationLayout, document
from . import state as stud
from .state import FiveCardStudState, StudOptions

__all__ = [
    "LAYOUT",
    "FiveCardStudView",
    "ObserverPlan",
    "decode_observation",
    "decode_observations",
    "encode_observation",
    "encode_with_plans",
    "make_layout",
    "observer_plans",
]

_SEATS = stud.MAX_PLAYERS
_KINDS = len(stud.HISTORY_KINDS)
_ROUNDS = stud.NUM_ROUNDS


@cache
def make_layout(options: StudOptions = StudOptions()) -> ObservationLayout:  # noqa: B008
    """The layout of a game's options: the same fields and size for every option set, the
    bounds from the options (chips: every chip at the table; the bet sizes; the cap; the
    hands to play)."""
    chips = sum(options.stack)
    cap = options.cap
    hands = options.hands
    return ObservationLayout(
        [
            Field("hole", NUM_CARD_IDS, 1, "own face-down cards by card id: the hole card, and "
                  "the fifth card with `last_card_down`"),
            Field("up_cards", _SEATS * NUM_CARD_IDS, 1, "index `53 * k + c`: relative seat `k` "
                  "shows card `c` face up (folded seats keep theirs)"),
            Field("seats", _SEATS, 1, "relative seat `k` exists at this table"),
            Field("in_hand", _SEATS, 1, "seat `k` is dealt in and has not folded"),
            Field("all_in", _SEATS, 1, "seat `k` is in the hand with no chips behind"),
            Field("stacks", _SEATS, chips, "seat `k`'s chips behind"),
            Field("committed", _SEATS, chips, "chips seat `k` has put in the pot this hand "
                  "(ante included)"),
            Field("round_bets", _SEATS, chips, "chips seat `k` has put in during this betting "
                  "round"),
            Field("pot", 1, chips, "chips in the pot, all pots together (0 once the game is "
                  "over)"),
            Field("to_call", 1, chips, "chips the observer must add to call (at most its stack)"),
            Field("bet_size", 1, max(options.bets), "size of a bet and of a raise in this round"),
            Field("bets_made", 1, cap, "bets and raises made in this round"),
            Field("cap", 1, cap, "most bets and raises a round allows (`1 + max_raises`)"),
            Field("round", _ROUNDS, 1, "one-hot betting round: after the 2nd, 3rd, 4th, 5th "
                  "card"),
            Field("to_act", _SEATS, 1, "one-hot relative seat to act (all 0 when the game is "
                  "over)"),
            Field("dealer", _SEATS, 1, "one-hot relative seat of the dealer"),
            Field("seat", _SEATS, 1, "one-hot absolute seat of the observer (`player_i`)"),
            Field("history", _ROUNDS * _SEATS * _KINDS, cap + 1, "betting history of this hand "
                  "(below)"),
            Field("hand_number", 1, hands, "the hand in play, 1..hands"),
            Field("hands_left", 1, hands, "hands still to play after this one (at most)"),
            Field("ante", 1, options.ante, "option `ante`"),
            Field("bets", 2, options.bets, "option `bets`: the small and the big bet"),
            Field("variant", 5, [1, 1, 1, 1, 13], "options `last_card_down`, `deuces_wild`, "
                  "`jokers`, `hi_lo`, `low_qualifier` (0: none)"),
        ],
        dtype=np.float32,
    )  # fmt: skip


LAYOUT = make_layout()
"""The layout of the default options (two seats of 100 chips, bets 1 and 2, 3 raises, one
hand); every option set has the same fields and size (:func:`make_layout` sets the bounds)."""
document(sys.modules[__name__], table=LAYOUT.table())


_HOLE = LAYOUT.start("hole")
_UP = LAYOUT.start("up_cards")
_POT, _TO_CALL, _BET_SIZE, _BETS_MADE = (
    LAYOUT.start(name) for name in ("pot", "to_call", "bet_size", "bets_made")
)
_ROUND = LAYOUT.start("round")
_TO_ACT = LAYOUT.start("to_act")
_DEALER = LAYOUT.start("dealer")
_HAND_NUMBER = LAYOUT.start("hand_number")
_HANDS_LEFT = LAYOUT.start("hands_left")
_TABLE_ROWS = TABLE_ROWS[1:]  # the rows of Betting.table in the layout: all but dealt


class ObserverPlan(NamedTuple):
    """Where one observer's view puts things, for one table size and set of options: encoding
    is then a copy, a few writes and three scatters (an observation is made at every
    decision)."""

    base: np.ndarray
    """``float32 (size,)``: the entries that never change (``seats``, ``cap``, ``seat`` and the
    options)."""
    up: np.ndarray
    """``intp (n, 53)``: where each entry of ``state.up`` goes."""
    money: np.ndarray
    """``intp (5, n)``: where each entry of ``betting.table[1:]`` goes."""
    history: np.ndarray
    """``intp (4, n, 4)``: where each entry of ``state.history`` goes."""


@cache
def observer_plans(options: StudOptions) -> tuple[ObserverPlan, ...]:
    n = options.num_players
    seats = np.arange(n)
    cards = np.arange(NUM_CARD_IDS)
    rounds = np.arange(_ROUNDS)[:, None, None]
    kinds = np.arange(_KINDS)
    observers = []
    for observer in range(n):
        relative = (seats - observer) % n
        base = LAYOUT.zeros()
        base[LAYOUT["seats"].start + seats] = 1
        base[LAYOUT.start("cap")] = options.cap
        base[LAYOUT.start("seat") + observer] = 1
        base[LAYOUT["ante"]] = options.ante
        base[LAYOUT["bets"]] = options.bets
        base[LAYOUT["variant"]] = (
            options.last_card_down,
            options.deuces_wild,
            options.jokers,
            options.hi_lo,
            options.low_qualifier or 0,
        )
        history = LAYOUT.start("history") + (rounds * _SEATS + relative[:, None]) * _KINDS + kinds
        observers.append(
            ObserverPlan(
                base=base,
                up=_UP + NUM_CARD_IDS * relative[:, None] + cards,
                money=np.stack([LAYOUT.start(name) + relative for name in _TABLE_ROWS]),
                history=history,
            )
        )
    return tuple(observers)


def encode_observation(state: FiveCardStudState, player: int) -> np.ndarray:
    """``player``'s observation of ``state`` as ``float32 (LAYOUT.size,)`` (module docstring)."""
    return encode_with_plans(state, player, observer_plans(state.options))


def encode_with_plans(
    state: FiveCardStudState, player: int, observers: tuple[ObserverPlan, ...]
) -> np.ndarray:
    """:func:`encode_observation` with the plan of the state's options (the game keeps it:
    finding it by the options costs a hash of them)."""
    options = state.options
    n = options.num_players
    betting = state.betting
    base, up, money, history = observers[player]
    obs = base.copy()
    cards = state.cards[player].tolist()
    hole = cards[0]
    if hole >= 0:
        obs[_HOLE + hole] = 1
    if options.last_card_down:
        fifth = cards[stud.CARDS_PER_HAND - 1]
        if fifth >= 0:
            obs[_HOLE + fifth] = 1
    obs[up] = state.up
    obs[money] = betting.table[1:]
    obs[history] = state.history
    if betting.dealt[player] and not betting.folded[player]:
        owed = betting.current_bet - betting.round_bets[player]
        obs[_TO_CALL] = min(owed, betting.stacks[player])
    obs[_POT] = state.pot
    obs[_BET_SIZE] = betting.rules.bet if betting.rules else 0
    obs[_BETS_MADE] = betting.bets
    obs[_ROUND + betting.round] = 1
    if not state.over and betting.actor >= 0:
        obs[_TO_ACT + (betting.actor - player) % n] = 1
    obs[_DEALER + (state.dealer - player) % n] = 1
    obs[_HAND_NUMBER] = state.hand + 1
    obs[_HANDS_LEFT] = options.hands - 1 - state.hand
    return obs


@dataclass(frozen=True)
class FiveCardStudView:
    """An observation read back (:func:`decode_observation`): what the bots play from.

    Per-seat tuples are indexed by relative seat (0: the observer, ``k``: ``k`` seats to its
    left) and hold ``num_players`` entries; card lists are card ids in ascending order.
    """

    num_players: int
    seat: int
    """The observer's absolute seat."""
    hole: tuple[int, ...]
    """Own face-down cards."""
    up: tuple[tuple[int, ...], ...]
    """Each seat's up cards."""
    in_hand: tuple[bool, ...]
    all_in: tuple[bool, ...]
    stacks: tuple[int, ...]
    committed: tuple[int, ...]
    round_bets: tuple[int, ...]
    pot: int
    to_call: int
    bet_size: int
    bets_made: int
    cap: int
    round: int
    to_act: int
    """Relative seat to act, -1 when none."""
    dealer: int
    """Relative seat of the dealer."""
    history: np.ndarray
    """``int (4, num_players, 4)``: per round and relative seat, bets/raises, calls, checks,
    folds."""
    hand_number: int
    """The hand in play, from 1."""
    hands_left: int
    ante: int
    bets: tuple[int, int]
    last_card_down: bool
    deuces_wild: bool
    jokers: int
    hi_lo: bool
    low_qualifier: int | None

    @property
    def own_cards(self) -> tuple[int, ...]:
        """Every card the observer holds, face down and up."""
        return self.hole + self.up[0]

    @property
    def opponents_in(self) -> tuple[int, ...]:
        """Relative seats of the other players still in the hand."""
        return tuple(k for k in range(1, self.num_players) if self.in_hand[k])


def decode_observation(observation: np.ndarray) -> FiveCardStudView:
    """The :class:`FiveCardStudView` of an :func:`encode_observation` vector."""
    obs = np.asarray(observation)
    if obs.shape != (LAYOUT.size,):
        raise ValueError(
            f"expected a five-card stud observation of shape ({LAYOUT.size},), got {obs.shape}"
        )
    n = int(obs[LAYOUT["seats"]].sum())
    to_act = np.flatnonzero(obs[LAYOUT["to_act"]])
    up = obs[LAYOUT["up_cards"]].reshape(_SEATS, NUM_CARD_IDS)[:n]
    return _view(
        n,
        seat=int(np.argmax(obs[LAYOUT["seat"]])),
        hole=tuple(np.flatnonzero(obs[LAYOUT["hole"]]).tolist()),
        up=tuple(tuple(np.flatnonzero(row).tolist()) for row in up),
        seats={name: obs[LAYOUT[name]][:n].astype(np.int64).tolist() for name in _PER_SEAT},
        numbers=obs[_POT : _POT + 5].astype(np.int64).tolist()
        + obs[_HAND_NUMBER : _HAND_NUMBER + 10].astype(np.int64).tolist(),
        round_=int(np.argmax(obs[LAYOUT["round"]])),
        to_act=int(to_act[0]) if to_act.size else -1,
        dealer=int(np.argmax(obs[LAYOUT["dealer"]])),
        history=obs[LAYOUT["history"]].reshape(_ROUNDS, _SEATS, _KINDS)[:, :n].astype(np.int64),
    )


def decode_observations(observations: np.ndarray) -> list[FiveCardStudView]:
    """:func:`decode_observation` of each row of ``observations`` (``(M, LAYOUT.size)``), the
    same views field for field, read with a few array calls for the whole batch where one
    observation alone takes a dozen (the feature sets and bots read a batch at every step)."""
    obs = np.asarray(observations)
    if obs.ndim != 2 or obs.shape[1] != LAYOUT.size:
        raise ValueError(
            f"expected five-card stud observations of shape (M, {LAYOUT.size}), got {obs.shape}"
        )
    m = len(obs)
    seats_in = obs[:, LAYOUT["seats"]].sum(axis=1).astype(np.int64).tolist()
    per_seat = {name: obs[:, LAYOUT[name]].astype(np.int64).tolist() for name in _PER_SEAT}
    numbers = np.concatenate(
        [obs[:, _POT : _POT + 5], obs[:, _HAND_NUMBER : _HAND_NUMBER + 10]], axis=1
    )
    numbers = numbers.astype(np.int64).tolist()
    seat = obs[:, LAYOUT["seat"]].argmax(axis=1).tolist()
    rounds = obs[:, LAYOUT["round"]].argmax(axis=1).tolist()
    dealer = obs[:, LAYOUT["dealer"]].argmax(axis=1).tolist()
    acting = obs[:, LAYOUT["to_act"]] != 0
    to_act = np.where(acting.any(axis=1), acting.argmax(axis=1), -1).tolist()
    rows, cards = np.nonzero(obs[:, LAYOUT["hole"]])
    hole = _grouped(rows.tolist(), cards.tolist(), m)
    up_rows, up_seats, up_cards = np.nonzero(
        obs[:, LAYOUT["up_cards"]].reshape(m, _SEATS, NUM_CARD_IDS)
    )
    up = _grouped((up_rows * _SEATS + up_seats).tolist(), up_cards.tolist(), m * _SEATS)
    history = obs[:, LAYOUT["history"]].reshape(m, _ROUNDS, _SEATS, _KINDS).astype(np.int64)
    return [
        _view(
            (n := seats_in[r]),
            seat=seat[r],
            hole=hole[r],
            up=tuple(up[r * _SEATS : r * _SEATS + n]),
            seats={name: values[r][:n] for name, values in per_seat.items()},
            numbers=numbers[r],
            round_=rounds[r],
            to_act=to_act[r],
            dealer=dealer[r],
            history=np.ascontiguousarray(history[r, :, :n]),
        )
        for r in range(m)
    ]


_PER_SEAT = ("in_hand", "all_in", "stacks", "committed", "round_bets")


def _view(
    n: int,
    *,
    seat: int,
    hole: tuple[int, ...],
    up: tuple[tuple[int, ...], ...],
    seats: dict[str, list[int]],
    numbers: list[int],
    round_: int,
    to_act: int,
    dealer: int,
    history: np.ndarray,
) -> FiveCardStudView:
    """The view of one observation's decoded parts: ``seats`` the :data:`_PER_SEAT` entries of
    the ``n`` seats, ``numbers`` the five money entries from ``pot`` and the ten from
    ``hand_number``."""
    (pot, to_call, bet_size, bets_made, cap, hand_number, hands_left, ante, small, big,
     last_down, wild, jokers, hi_lo, qualifier) = numbers  # fmt: skip
    return FiveCardStudView(
        num_players=n,
        seat=seat,
        hole=hole,
        up=up,
        in_hand=tuple(bool(x) for x in seats["in_hand"]),
        all_in=tuple(bool(x) for x in seats["all_in"]),
        stacks=tuple(seats["stacks"]),
        committed=tuple(seats["committed"]),
        round_bets=tuple(seats["round_bets"]),
        pot=pot,
        to_call=to_call,
        bet_size=bet_size,
        bets_made=bets_made,
        cap=cap,
        round=round_,
        to_act=to_act,
        dealer=dealer,
        history=history,
        hand_number=hand_number,
        hands_left=hands_left,
        ante=ante,
        bets=(small, big),
        last_card_down=bool(last_down),
        deuces_wild=bool(wild),
        jokers=jokers,
        hi_lo=bool(hi_lo),
        low_qualifier=qualifier or None,
    )


def _grouped(groups: list[int], values: list[int], size: int) -> list[tuple[int, ...]]:
    """``values`` gathered by ``groups`` (ascending, as ``np.nonzero`` gives them) into
    ``size`` tuples, in order."""
    out: list[list[int]] = [[] for _ in range(size)]
    for group, value in zip(groups, values, strict=True):
        out[group].append(value)
    return [tuple(items) for items in out]
