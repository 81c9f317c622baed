"""Draw poker observations: one seat's view as one flat ``float32`` vector, and its decoder.

Seats are **relative**: entry ``k`` of every per-seat field, of ``dealer`` and of the history is
the player ``k`` seats to the observer's left (clockwise), ``k = 0`` the observer, so one policy
can play any seat; ``seat`` alone gives the observer's absolute seat (``player_i``). The vector's
size depends on the number of seats ``N`` (``278 + 17 * N``: 312 for two players, 448 for ten);
:func:`make_layout` gives the layout of a table, :data:`LAYOUT` that of the default options, and
:func:`decode_observation` reads any of them back (it finds ``N`` from the size).

{layout}

The history summary counts, for each betting phase (0 before the draw, 1 after) and relative
seat, the ``bet/raise`` actions, the calls (``check/call`` with chips to put in), the checks
(``check/call`` with nothing to put in) and the folds. Another seat's cards are never in the
vector: opponents are known only by their stacks, bets, the cards they drew and their betting;
the hands shown at a showdown are reported in every seat's info instead (``shown``).
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
from .actions import HAND_SIZE, PHASE_BET_BEFORE, PHASE_DRAW, PHASE_OVER, PHASES
from .state import DrawPokerState

__all__ = [
    "HISTORY_KINDS",
    "LAYOUT",
    "DrawPokerView",
    "decode_observation",
    "decode_observations",
    "encode_observation",
    "make_layout",
]

HISTORY_KINDS = ("bets/raises", "calls", "checks", "folds")
"""What the history summary counts per phase and seat, in this order."""
_MOST_ACTS = 3  # a seat acts at most once per orbit, three orbits a phase
_FIXED = len(PHASES) + HAND_SIZE * NUM_CARD_IDS + 9
_PER_SEAT = 2 + 7 + 2 * len(HISTORY_KINDS)


@cache
def make_layout(
    num_players: int = 2, *, chips: int = 200, bet: int = 2, pack: int = 52, hands: int = 1
) -> ObservationLayout:
    """The layout for ``num_players`` seats; the other arguments only set the bounds: all the
    chips at the table, the larger bet size, the pack's size and the hands to play."""
    n = num_players
    fields = [
        Field("seat", n, 1, "one-hot absolute seat of the observer (`player_i`)"),
        Field("dealer", n, 1, "one-hot relative seat of the dealer"),
        Field(
            "phase",
            len(PHASES),
            1,
            "one-hot: betting before the draw, the draw, betting after the draw, over",
        ),
        Field(
            "cards",
            HAND_SIZE * NUM_CARD_IDS,
            1,
            "own cards, highest id first (the positions the discard bits name): 5 slots of 53, "
            "slot `i` one-hot on the card id (52 a joker); all zero when not dealt in",
        ),
        Field("pot", 1, chips, "chips in the pot (every seat's bets this hand, antes included)"),
        Field("to_call", 1, chips, "chips a call would put in now (0 outside the betting)"),
        Field("bet_size", 1, bet, "bet and raise size of this hand's next or current betting"),
        Field("orbit", 1, 3, "orbit of the betting round in progress, 1..3 (0 outside one)"),
        Field("bets_made", 1, 2 * n, "bets and raises made in the betting round in progress"),
        Field("stock", 1, pack, "cards left in the stock"),
        Field(
            "discard_pile",
            1,
            pack,
            "cards discarded in this draw so far (reshuffled when the stock runs short)",
        ),
        Field("hand_number", 1, hands, "the hand in play, 1..hands"),
        Field("hands_left", 1, hands, "hands still to play after this one"),
        Field("stacks", n, chips, "relative seat `k`'s chips behind"),
        Field("round_bets", n, chips, "chips seat `k` has put in during the betting round"),
        Field("committed", n, chips, "chips seat `k` has put in this hand, antes included"),
        Field("dealt", n, 1, "seat `k` is dealt into this hand (0: no chips, sitting out)"),
        Field("in_hand", n, 1, "seat `k` is dealt in and has not folded"),
        Field("drawn", n, HAND_SIZE, "cards seat `k` drew in this hand's draw"),
        Field("has_drawn", n, 1, "seat `k` has made its draw"),
        Field(
            "history",
            2 * n * len(HISTORY_KINDS),
            _MOST_ACTS,
            "betting summary, index `(phase * N + k) * 4 + kind` for relative seat `k`: phase 0 "
            "before the draw, 1 after; kind 0 bets/raises, 1 calls, 2 checks, 3 folds",
        ),
    ]
    return ObservationLayout(fields, dtype=np.float32)


LAYOUT = make_layout()
"""The layout of the default options (two players, 100 chips each, bets 1 and 2, one hand)."""

document(
    sys.modules[__name__],
    layout="Index table for ``N`` seats (shown for ``N = 2``):\n\n" + LAYOUT.table(),
)


_SCALARS = 9  # pot .. hands_left
_TABLE_ROWS = TABLE_ROWS[:5]  # the rows of Betting.table in the layout: all but all_in


class _Observer(NamedTuple):
    """Where one observer's view puts things: encoding is then a copy, a few writes and three
    scatters (an observation is made at every decision)."""

    base: np.ndarray
    """``float32 (size,)``: the observer's ``seat`` one-hot (the rest is written each time)."""
    dealer: tuple[int, ...]
    """``dealer[seat]``: the entry of ``dealer`` that marks absolute ``seat``."""
    money: np.ndarray
    """``intp (5, N)``: where each entry of ``betting.table[:5]`` goes."""
    draws: np.ndarray
    """``intp (2, N)``: where each entry of ``state.draws`` goes."""
    history: np.ndarray
    """``intp (8 * N,)``: where each entry of ``state.history`` goes."""


class _Plan(NamedTuple):
    """The offsets of one table size and its :class:`_Observer` s."""

    phase: int
    cards: tuple[int, ...]
    """Start of each card slot."""
    scalars: int
    """Start of the fields ``pot`` .. ``hands_left``."""
    round_bets: int
    observers: tuple[_Observer, ...]


@cache
def _plan(num_players: int) -> _Plan:
    n = num_players
    layout = make_layout(n)
    seats = np.arange(n)
    kinds = np.arange(len(HISTORY_KINDS))
    observers = []
    for observer in range(n):
        relative = (seats - observer) % n
        base = np.zeros(layout.size, dtype=np.float32)
        base[layout.start("seat") + observer] = 1
        history = [
            layout.start("history") + (phase * n + relative)[:, None] * len(kinds) + kinds
            for phase in (0, 1)
        ]
        observers.append(
            _Observer(
                base=base,
                dealer=tuple((layout.start("dealer") + relative).tolist()),
                money=np.stack([layout.start(name) + relative for name in _TABLE_ROWS]),
                draws=np.stack([layout.start(name) + relative for name in ("drawn", "has_drawn")]),
                history=np.concatenate(history, axis=None),
            )
        )
    return _Plan(
        phase=layout.start("phase"),
        cards=tuple(layout.start("cards") + NUM_CARD_IDS * i for i in range(HAND_SIZE)),
        scalars=layout.start("pot"),
        round_bets=layout.start("round_bets"),
        observers=tuple(observers),
    )


@cache
def _num_players_of_size(size: int) -> int:
    num_players, rest = divmod(size - _FIXED, _PER_SEAT)
    if rest or not 2 <= num_players <= 10:
        raise ValueError(
            f"bad observation of size {size}: expected {_FIXED} + {_PER_SEAT} * N entries for "
            "N in 2..10 seats"
        )
    return num_players


def encode_observation(state: DrawPokerState, player: int) -> np.ndarray:
    """``player``'s observation of ``state`` (a new ``float32`` vector, see the index table)."""
    betting = state.betting
    n = len(betting.stacks)
    at = _plan(n)
    base, dealer, money, draws, history = at.observers[player]
    obs = base.copy()
    phase = state.phase
    obs[dealer[state.dealer]] = 1
    obs[at.phase + phase] = 1
    for slot, card in zip(at.cards, state.hands[player], strict=False):
        obs[slot + card] = 1
    obs[money] = betting.table[:5]
    if phase == PHASE_DRAW:
        to_call = orbit = bets_made = 0
        obs[at.round_bets : at.round_bets + n] = 0  # the last betting's, not shown in the draw
    elif phase == PHASE_OVER or betting.actor < 0:
        to_call = orbit = bets_made = 0
    else:
        orbit, bets_made = betting.orbit, betting.bets
        to_call = 0
        if betting.dealt[player] and not betting.folded[player]:
            owed = betting.current_bet - betting.round_bets[player]
            to_call = min(owed, betting.stacks[player])
    obs[at.scalars : at.scalars + _SCALARS] = (
        sum(betting.committed),
        to_call,
        state.bets[phase != PHASE_BET_BEFORE],
        orbit,
        bets_made,
        len(state.stock),
        len(state.discards),
        state.hand_number + 1,
        0 if phase == PHASE_OVER else state.num_hands - state.hand_number - 1,
    )
    obs[draws] = state.draws
    obs[history] = state.history
    return obs


@dataclass(frozen=True)
class DrawPokerView:
    """An observation read back (what the bots act on).

    Per-seat tuples are indexed by relative seat, as in the vector (0: the observer, ``k``: the
    player ``k`` seats to its left, absolute seat ``(seat + k) % num_players``).
    """

    num_players: int
    seat: int
    """The observer's absolute seat."""
    dealer: int
    """Relative seat of the dealer."""
    phase: int
    """Index into :data:`~.actions.PHASES`."""
    cards: tuple[int, ...]
    """Own card ids, highest first (position ``i`` is bit ``i`` of a discard); empty when not
    dealt in."""
    pot: int
    to_call: int
    bet_size: int
    orbit: int
    bets_made: int
    stock: int
    discard_pile: int
    hand_number: int
    hands_left: int
    stacks: tuple[int, ...]
    round_bets: tuple[int, ...]
    committed: tuple[int, ...]
    dealt: tuple[bool, ...]
    in_hand: tuple[bool, ...]
    drawn: tuple[int, ...]
    """Cards each seat drew, ``-1`` for a seat that has not drawn (yet)."""
    history: tuple[tuple[tuple[int, int, int, int], ...], ...]
    """``history[phase][k]``: relative seat ``k``'s bets/raises, calls, checks and folds (see
    the module doc)."""

    @property
    def opponents_in(self) -> tuple[int, ...]:
        """Relative seats of the other players still in the hand."""
        return tuple(k for k in range(1, self.num_players) if self.in_hand[k])

    @property
    def supply(self) -> int:
        """Cards the draw can still hand out: the stock and, reshuffled, the discard pile."""
        return self.stock + self.discard_pile


def decode_observation(observation: np.ndarray) -> DrawPokerView:
    """The :class:`DrawPokerView` of an observation vector from :func:`encode_observation`."""
    obs = np.asarray(observation)
    if obs.ndim != 1:
        raise ValueError(f"bad observation of shape {obs.shape}: expected a 1-d vector")
    return decode_observations(obs[None])[0]


def decode_observations(observations: np.ndarray) -> list[DrawPokerView]:
    """:func:`decode_observation` of each row of ``observations`` (``(M, size)``, one number of
    seats), read with a few array calls for the whole batch (the feature sets and bots read a
    batch at every step)."""
    obs = np.asarray(observations)
    if obs.ndim != 2:
        raise ValueError(f"bad observations of shape {obs.shape}: expected (M, size) rows")
    n = _num_players_of_size(obs.shape[1])
    layout = make_layout(n)
    values = np.rint(obs).astype(np.int64)
    m = len(values)

    def field(name: str) -> np.ndarray:
        return values[:, layout[name]]

    slots = field("cards").reshape(m, HAND_SIZE, NUM_CARD_IDS)
    held, card = slots.any(axis=2).tolist(), slots.argmax(axis=2).tolist()
    drawn = np.where(field("has_drawn") != 0, field("drawn"), -1).tolist()
    history = field("history").reshape(m, 2, n, len(HISTORY_KINDS)).tolist()
    first = {name: field(name).argmax(axis=1).tolist() for name in ("seat", "dealer", "phase")}
    numbers = {name: field(name)[:, 0].tolist() for name in _NUMBERS}
    seats = {name: field(name).tolist() for name in ("stacks", "round_bets", "committed")}
    flags = {name: (field(name) != 0).tolist() for name in ("dealt", "in_hand")}
    return [
        DrawPokerView(
            num_players=n,
            seat=first["seat"][r],
            dealer=first["dealer"][r],
            phase=first["phase"][r],
            cards=tuple(c for c, h in zip(card[r], held[r], strict=True) if h),
            **{name: column[r] for name, column in numbers.items()},
            **{name: tuple(column[r]) for name, column in seats.items()},
            **{name: tuple(column[r]) for name, column in flags.items()},
            drawn=tuple(drawn[r]),
            history=tuple(tuple(tuple(seat) for seat in phase) for phase in history[r]),
        )
        for r in range(m)
    ]


_NUMBERS = (
    "pot", "to_call", "bet_size", "orbit", "bets_made", "stock", "discard_pile", "hand_number",
    "hands_left",
)  # fmt: skip
