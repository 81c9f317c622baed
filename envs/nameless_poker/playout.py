"""Monte-Carlo play-outs of poker without a name: a deal with every hand dealt (:class:`World`),
a card put to it (:func:`put`), and the deal played to its end by the rules policy at every
seat (:func:`play_out`).

The Monte-Carlo bot (:class:`pokerzoo.agents.nameless_poker.MonteCarloBot`) and the training
features (``pokerzoo.training.games.nameless_poker.odds`` and ``.reach``) play thousands of
these per decision, so :func:`play_out` is the hot path of both. It plays exactly the cards of
:func:`~.analysis.rules_play` (a test plays both from thousands of positions) on bit masks: each
hand is an ``int`` with bit ``c`` set for natural card ``c`` (card ids rise with the rank within
a suit, ``rank * 4 + suit``), plus its count of jokers. A suit's cards are then
``hand & SUIT_MASKS[s]``, the lowest card ``(m & -m).bit_length() - 1``, and the rules'
"weakest" and "strongest" card (jokers, then trumps, then the other suits, each by rank; equal
ranks of side suits go to the lower card id, as in the policy's ascending hands) a few integer
operations instead of a scan of the hand.

``python benchmarks/nameless_playout.py`` times it against :func:`~.analysis.reference_play_out`,
the same play-outs a card at a time through the policy's own functions: 15.9 against 39.5 µs a
play-out (2.49 times faster; 2,000 positions, 2-core machine, otherwise idle). The list-based
play-out this replaced played 8-card deals 2.5 times slower than this one (85.9 against
33.6 µs), and the bot's whole games about 1.4 times slower, with every decision the same.

Many worlds at once (:class:`Worlds`, :func:`play_outs`): the same cards on arrays (``uint64``
masks). Where numba is installed (:mod:`.compiled`) one compiled loop plays each world to its
end, about 0.2 µs a world, so the Monte-Carlo bot and the features play every batch this way
(:func:`batch_worlds`); building the arrays from the worlds costs more (about 1.5 µs a world).
Without numba, numpy steps all the worlds one card at a time: a step costs about as much for a
few worlds as for thousands, so it pays from a few hundred (``benchmarks/nameless_batches.py``).
Both ways play the same cards (tests play both, and :func:`play_out`, on thousands of worlds).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import chain

import numpy as np

from ..core import jit
from ..core.cards import JOKER
from .deals import MAXIMUM, MINIMUM, NO_TRUMP, NUM_PLAYERS, winner_index
from .observation import NamelessPokerView
from .rules import LEAD_JOKER, PLAY

__all__ = [
    "NUMPY_BATCH_WORLDS", "SUIT_MASKS", "SampledDeals", "World", "Worlds", "batch_worlds",
    "play_out", "play_outs", "put", "put_action",
]  # fmt: skip

SUIT_MASKS: tuple[int, ...] = tuple(
    sum(1 << (4 * rank + s) for rank in range(13)) for s in range(4)
)
"""``SUIT_MASKS[s]``: the bits of the 13 natural cards of suit ``s``."""
_ACES = sum(1 << (48 + s) for s in range(4))
_KINGS_UP = sum(1 << c for c in range(44, 52))  # kings and aces
_ABOVE = tuple(~((1 << (card + 1)) - 1) for card in range(JOKER))
"""``_ABOVE[c]``: the bits of the cards with a higher id than ``c``."""
_BIT = tuple(1 << card for card in range(JOKER)) + (0,)
"""``_BIT[c]``: card ``c``'s bit; none for the joker (counted apart)."""
_BIT_VALUE = np.array(_BIT, dtype=np.float64)
"""``_BIT`` as doubles (exact: powers of two under 2**52)."""
NUMPY_BATCH_WORLDS = 400
"""Worlds from which numpy's steps over a batch pay (a step costs about as much for a few
worlds as for hundreds: ``benchmarks/nameless_batches.py``)."""


def batch_worlds() -> int:
    """Worlds from which the Monte-Carlo bot and the features play a batch of worlds together as
    :class:`Worlds` rather than one by one with :func:`play_out`: any batch where numba's loop
    runs (:mod:`.compiled`, a fraction of a microsecond a world;
    :func:`pokerzoo.envs.core.jit.available`), else :data:`NUMPY_BATCH_WORLDS`."""
    return 1 if jit.available() else NUMPY_BATCH_WORLDS


class World:
    """One deal as a Monte-Carlo player imagines it (every hand dealt), seats relative to the
    observer (0): what :func:`put` and :func:`play_out` play on."""

    __slots__ = ("bids", "called", "hands", "leader", "trick", "tricks", "trumps_played")

    def __init__(
        self,
        hands: list[list[int]],
        trick: list[int],
        leader: int,
        called: int,
        tricks: list[int],
        bids: list[int | None],
        trumps_played: int,
    ) -> None:
        self.hands = hands
        self.trick = trick
        self.leader = leader
        self.called = called
        self.tricks = tricks
        self.bids = bids
        self.trumps_played = trumps_played

    @classmethod
    def of_view(cls, view: NamelessPokerView, hands: list[list[int]]) -> World:
        """The deal in play as ``view`` sees it, the other seats holding ``hands`` (from
        :func:`~.sampling.deal_unseen`; seat 0 gets the observer's own hand)."""
        hands[0] = list(view.hand)
        return cls(
            hands,
            list(view.trick),
            view.leader,
            view.called_suit,
            list(view.tricks),
            list(view.bids),
            view.trumps_played,
        )

    def copy(self) -> World:
        return World(
            [list(h) for h in self.hands],
            list(self.trick),
            self.leader,
            self.called,
            list(self.tricks),
            list(self.bids),
            self.trumps_played,
        )


@dataclass(frozen=True, eq=False)
class SampledDeals:
    """Sampled deals of a view's unseen cards (:func:`~.sampling.deals_unseen`), each standing
    for the world ``World.of_view(view, deal)``, kept as the sampler drew them: World objects
    are built only where the worlds are played one by one (:meth:`worlds`), and many views'
    deals become arrays together without them (:meth:`Worlds.of_views`)."""

    view: NamelessPokerView
    deals: list[list[list[int]]]

    def __len__(self) -> int:
        return len(self.deals)

    def worlds(self) -> list[World]:
        """The deals' worlds as World objects (the deals left as they are)."""
        return [World.of_view(self.view, [list(hand) for hand in deal]) for deal in self.deals]


def put(world: World, seat: int, card: int, called: int, trump: int) -> None:
    """Play ``card`` from ``seat``'s hand; close the trick when it is the fourth card."""
    world.hands[seat].remove(card)
    trick = world.trick
    if not trick:
        world.called = called
    trick.append(card)
    if card != JOKER and card & 3 == trump:
        world.trumps_played += 1
    if len(trick) == NUM_PLAYERS:
        winner = (world.leader + winner_index(trick, trump)) % NUM_PLAYERS
        world.tricks[winner] += 1
        world.leader = winner
        world.trick = []
        world.called = NO_TRUMP


def put_action(world: World, action: int, trump: int) -> None:
    """The observer (seat 0) plays ``action``, a card or a joker lead naming a suit."""
    if action >= LEAD_JOKER:
        put(world, 0, JOKER, action - LEAD_JOKER, trump)
    else:
        put(world, 0, action - PLAY, NO_TRUMP, trump)


def _weakest(mask: int, trumps: int) -> int:
    """The card of least strength among natural cards ``mask`` and any jokers: the lowest side
    card (lowest rank, then lowest suit), else the lowest trump, else (``mask`` empty) a joker."""
    side = mask & ~trumps
    if side:
        return (side & -side).bit_length() - 1
    if mask:
        return (mask & -mask).bit_length() - 1
    return JOKER


def _strongest(mask: int, jokers: int, trumps: int) -> int:
    """The card of most strength: a joker, else the highest trump, else the highest side rank
    (of its suits, the lowest)."""
    if jokers:
        return JOKER
    high = mask & trumps
    if high:
        return high.bit_length() - 1
    base = ((mask.bit_length() - 1) >> 2) << 2
    block = (mask >> base) & 15
    return base + (block & -block).bit_length() - 1


def play_out(
    world: World, trump: int, kind: int, turned_trump: int, observer_wants: bool | None = None
) -> None:
    """Play the deal to its end with the rules policy at every seat; ``observer_wants`` (when
    given) fixes whether seat 0 tries to take each trick, whatever its bid and the deal kind.

    Card for card what :func:`~.analysis.rules_play` and :func:`put` would play (module doc: on
    bit masks, the follow rules of :func:`~pokerzoo.envs.nameless_poker.deals.follow_options`
    inlined, the trick's best card kept as the trick grows). The world ends with every hand
    empty and every trick counted.
    """
    bids, tricks = world.bids, world.tricks
    bit = _BIT.__getitem__
    masks = [sum(map(bit, hand)) for hand in world.hands]
    jokers = [hand.count(JOKER) for hand in world.hands]
    trumps = SUIT_MASKS[trump] if trump != NO_TRUMP else 0
    trick, leader, called = world.trick, world.leader, world.called
    trumps_played = world.trumps_played
    top, top_at = NO_TRUMP, 0  # the card taking the trick so far and its index in the trick
    if trick:
        top_at = winner_index(trick, trump)
        top = trick[top_at]
    fixed = observer_wants is not None
    no_bids = kind in (MAXIMUM, MINIMUM)  # every seat takes (maximum) or sheds every trick
    maximum = kind == MAXIMUM
    while True:
        played = len(trick)
        seat = (leader + played) % NUM_PLAYERS
        mask, held = masks[seat], jokers[seat]
        if not mask and not held:
            break
        if seat == 0 and fixed:
            want = observer_wants
        elif no_bids:
            want = maximum
        else:
            want = tricks[seat] < (bids[seat] or 0)
        if played:
            # The legal cards (follow_options): natural cards ``legal``, ``wild`` jokers.
            lead = trick[0]
            legal, wild = mask, held
            if lead == JOKER:
                natural = mask & SUIT_MASKS[called] if called != NO_TRUMP else 0
                if natural:  # the highest card of the called suit
                    legal, wild = 1 << (natural.bit_length() - 1), 0
                elif mask & trumps or (held and trumps):
                    legal = mask & trumps
            elif lead & 3 == trump:
                if mask & trumps or held:
                    legal = mask & trumps
            else:
                following = mask & SUIT_MASKS[lead & 3]
                if following:
                    legal, wild = following, 0
                elif mask & trumps or (held and trumps):
                    legal = mask & trumps
            if legal.bit_count() + wild == 1:
                card = JOKER if wild else legal.bit_length() - 1
            else:
                # rules_play, following: the legal cards that would take the trick from ``top``.
                if top == JOKER:
                    winning = 0
                else:
                    winning = legal & SUIT_MASKS[top & 3] & _ABOVE[top]
                    if top & 3 != trump:
                        winning |= legal & trumps
                last = played == NUM_PLAYERS - 1
                if want:
                    if not winning and not wild:
                        card = _weakest(legal, trumps)
                    elif last:  # nobody comes after: the cheapest card that wins
                        card = _weakest(winning, trumps)
                    elif winning:  # keep a joker for a trick it surely takes
                        card = _strongest(winning, 0, trumps)
                    else:
                        card = JOKER
                else:
                    losing = legal & ~winning
                    if losing:  # shed the most dangerous card that still loses
                        card = _strongest(losing, 0, trumps)
                    elif last:  # the trick is ours whatever: the strongest card goes
                        card = _strongest(legal, wild, trumps)
                    else:
                        card = _weakest(legal, trumps)
            if card == JOKER or (
                top != JOKER and (card > top if card & 3 == top & 3 else card & 3 == trump)
            ):
                top, top_at = card, played
        else:
            card, called = _lead(mask, held, trumps, trump, want, turned_trump + trumps_played)
            top, top_at = card, 0
        if card == JOKER:
            jokers[seat] = held - 1
        else:
            masks[seat] = mask ^ (1 << card)
            if card & 3 == trump:
                trumps_played += 1
        trick.append(card)
        if played == NUM_PLAYERS - 1:  # the fourth card: the trick is closed
            leader = (leader + top_at) % NUM_PLAYERS
            tricks[leader] += 1
            trick = []
            called = NO_TRUMP
    for hand in world.hands:
        hand.clear()
    world.trick, world.leader, world.called = trick, leader, called
    world.trumps_played = trumps_played


def _lead(mask: int, held: int, trumps: int, trump: int, want: bool, gone: int) -> tuple[int, int]:
    """The rules policy's lead (``_lead`` of :mod:`~.analysis`) from natural cards ``mask``
    and ``held`` jokers: the card, and the suit named when it is a joker (else ``NO_TRUMP``).
    ``gone``: natural trumps played or turned, not in any hand."""
    if not want:
        if mask:
            return _weakest(mask, trumps), NO_TRUMP
        return JOKER, 0  # only jokers left: the trick is ours whatever suit is named
    own_trumps = mask & trumps
    if held and own_trumps and 13 - own_trumps.bit_count() - gone > 0:
        return JOKER, trump  # pull the others' best trumps under the joker
    top = mask & (_ACES | (trumps & _KINGS_UP))
    if top:
        return _strongest(top, 0, trumps), NO_TRUMP
    if held:
        if trump != NO_TRUMP:
            return JOKER, trump
        if not mask:
            return JOKER, 0
        # Name the suit of our best card: the others must play their highest of it.
        return JOKER, _strongest(mask, 0, 0) & 3
    return _strongest(mask, 0, trumps), NO_TRUMP


# --- many play-outs at once ----------------------------------------------------------------------
# The same cards as play_out, for many worlds together: every world's hands as ``uint64`` bit
# masks (cards < 52, so a mask converts to a double exactly and its bit length is the double's
# exponent), one numpy step per card played, the worlds that have ended left untouched.

_U1 = np.uint64(1)
_SUITS_OF = np.array([*SUIT_MASKS, 0], dtype=np.uint64)
"""``_SUITS_OF[s]``: the bits of suit ``s``; ``_SUITS_OF[NO_TRUMP]`` (index -1): none."""
_ABOVE_OF = np.array([a & (2**64 - 1) for a in _ABOVE] + [0], dtype=np.uint64)
"""``_ABOVE_OF[c]``: ``_ABOVE[c]`` as ``uint64``; none for the joker."""
_ACES_U = np.uint64(_ACES)
_KINGS_UP_U = np.uint64(_KINGS_UP)
_BITWISE_COUNT = getattr(np, "bitwise_count", None)  # numpy >= 2.0


def _bit_length(masks: np.ndarray) -> np.ndarray:
    """``int.bit_length`` of every ``uint64`` mask (all under 2**53)."""
    return np.frexp(masks.astype(np.float64))[1].astype(np.int64)


def _lowest(masks: np.ndarray) -> np.ndarray:
    """The lowest set bit's index of every mask (-1 for an empty one)."""
    return _bit_length(masks & (~masks + _U1)) - 1


def _bit_count(masks: np.ndarray) -> np.ndarray:
    """``int.bit_count`` of every ``uint64`` mask (``numpy.bitwise_count`` where numpy has it)."""
    if _BITWISE_COUNT is not None:
        return _BITWISE_COUNT(masks).astype(np.int64)
    m = masks - ((masks >> _U1) & np.uint64(0x5555555555555555))
    m = (m & np.uint64(0x3333333333333333)) + ((m >> np.uint64(2)) & np.uint64(0x3333333333333333))
    m = (m + (m >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return ((m * np.uint64(0x0101010101010101)) >> np.uint64(56)).astype(np.int64)


def _weakest_many(masks: np.ndarray, trumps: np.ndarray) -> np.ndarray:
    """:func:`_weakest` of every mask."""
    side = masks & ~trumps
    return np.where(side != 0, _lowest(side), np.where(masks != 0, _lowest(masks), JOKER))


def _strongest_many(masks: np.ndarray, trumps: np.ndarray) -> np.ndarray:
    """:func:`_strongest` of every mask without jokers (masks not empty)."""
    high = masks & trumps
    base = np.maximum(((_bit_length(masks) - 1) >> 2) << 2, 0)
    block = (masks >> base.astype(np.uint64)) & np.uint64(15)
    return np.where(high != 0, _bit_length(high) - 1, base + _lowest(block))


def _hand_arrays(hands: list[Sequence[int]]) -> tuple[np.ndarray, np.ndarray]:
    """:class:`Worlds`' ``masks`` (``uint64``) and ``jokers`` of ``hands``, seat after seat and
    world after world: ``(worlds, NUM_PLAYERS)`` each."""
    held = np.fromiter(map(len, hands), dtype=np.int64, count=len(hands))
    cards = np.fromiter(chain.from_iterable(hands), dtype=np.int64, count=int(held.sum()))
    seat_of = np.repeat(np.arange(len(hands)), held)
    # Each hand's bits summed as doubles: distinct powers of two under 2**52, so exact.
    masks = np.bincount(seat_of, weights=_BIT_VALUE[cards], minlength=len(hands))
    jokers = np.bincount(seat_of, weights=cards == JOKER, minlength=len(hands))
    shape = (len(hands) // NUM_PLAYERS, NUM_PLAYERS)
    return masks.astype(np.uint64).reshape(shape), jokers.astype(np.int64).reshape(shape)


class Worlds:
    """Many :class:`World` as arrays, to play out together (:meth:`play_out`): per world the
    hands (``uint64`` bit masks and joker counts, seat by seat), the trick on the table (its
    lead, its best card so far and where it stands), the bids (``None`` as 0) and tricks, the
    trump, the deal kind, the natural trumps gone and seat 0's fixed intent (-1: none).

    Built from World objects (:meth:`of`) or straight from views' sampled deals
    (:meth:`of_views`, :meth:`of_parts`: the same arrays without a World each), then repeated
    (:meth:`take`: every action on the same sampled deal) and given seat 0's action
    (:meth:`put_actions`), without a World per copy.
    """

    _FIELDS = (
        "masks", "jokers", "bids", "tricks", "leader", "called", "gone", "played", "lead",
        "top", "top_at", "trump", "kind", "wants",
    )  # fmt: skip

    def __init__(self, **arrays: np.ndarray) -> None:
        for name in self._FIELDS:
            setattr(self, name, arrays[name])

    @classmethod
    def of(
        cls,
        worlds: Sequence[World],
        trump: Sequence[int] | np.ndarray,
        kind: Sequence[int] | np.ndarray,
        turned_trump: Sequence[int] | np.ndarray,
        observer_wants: Sequence[int] | np.ndarray | None = None,
    ) -> Worlds:
        """``worlds`` with their ``trump``, ``kind``, ``turned_trump`` and ``observer_wants``
        (``-1`` for ``None``, else 0 or 1) per world, as :func:`play_out` takes them."""
        n = len(worlds)
        masks, jokers = _hand_arrays([hand for w in worlds for hand in w.hands])
        bids = [0 if b is None else b for w in worlds for b in w.bids]
        tricks = [t for w in worlds for t in w.tricks]
        leader, called, gone, played = (
            np.array(
                [(w.leader, w.called, w.trumps_played, len(w.trick)) for w in worlds],
                dtype=np.int64,
            )
            .reshape(n, 4)
            .T
        )
        trump = np.asarray(trump, dtype=np.int64).reshape(n)
        lead, top, top_at = [JOKER] * n, [NO_TRUMP] * n, [0] * n
        trumps = trump.tolist()
        for i, w in enumerate(worlds):
            if w.trick:
                lead[i] = w.trick[0]
                top_at[i] = winner_index(w.trick, trumps[i])
                top[i] = w.trick[top_at[i]]
        return cls(
            masks=masks,
            jokers=jokers,
            bids=np.array(bids, dtype=np.int64).reshape(n, NUM_PLAYERS),
            tricks=np.array(tricks, dtype=np.int64).reshape(n, NUM_PLAYERS),
            leader=leader.copy(),
            called=called.copy(),
            gone=np.asarray(turned_trump, dtype=np.int64).reshape(n) + gone,
            played=played.copy(),
            lead=np.array(lead, dtype=np.int64),
            top=np.array(top, dtype=np.int64),
            top_at=np.array(top_at, dtype=np.int64),
            trump=trump,
            kind=np.asarray(kind, dtype=np.int64).reshape(n),
            wants=np.full(n, -1, dtype=np.int64)
            if observer_wants is None
            else np.asarray(observer_wants, dtype=np.int64).reshape(n),
        )

    @classmethod
    def of_views(
        cls,
        sampled: Sequence[SampledDeals],
        trump: Sequence[int],
        kind: Sequence[int],
        turned_trump: Sequence[int],
    ) -> Worlds:
        """:meth:`of` the worlds of each of ``sampled`` (:meth:`SampledDeals.worlds`), one
        after the other, with ``trump[i]``, ``kind[i]`` and ``turned_trump[i]``: the same
        arrays, built without a World each (a view's trick, tricks and bids are those of each
        of its worlds)."""
        counts = [len(part.deals) for part in sampled]
        masks, jokers = _hand_arrays(
            [
                hand
                for part in sampled
                for own in (list(part.view.hand),)
                for deal in part.deals
                for hand in (own, deal[1], deal[2], deal[3])
            ]
        )
        each = []  # per view: bids, tricks, leader, called, gone, played, lead, top, top_at, trump
        for view, suit, turned in zip((p.view for p in sampled), trump, turned_trump, strict=True):
            lead, top, top_at = JOKER, NO_TRUMP, 0
            if view.trick:
                lead = view.trick[0]
                top_at = winner_index(list(view.trick), suit)
                top = view.trick[top_at]
            each.append(
                [0 if b is None else b for b in view.bids]
                + list(view.tricks)
                + [view.leader, view.called_suit, turned + view.trumps_played, len(view.trick)]
                + [lead, top, top_at, suit]
            )
        table = np.repeat(np.array(each, dtype=np.int64).reshape(len(sampled), 16), counts, axis=0)
        column = [np.ascontiguousarray(table[:, c]) for c in range(8, 16)]
        return cls(
            masks=masks,
            jokers=jokers,
            bids=np.ascontiguousarray(table[:, 0:4]),
            tricks=np.ascontiguousarray(table[:, 4:8]),
            leader=column[0],
            called=column[1],
            gone=column[2],
            played=column[3],
            lead=column[4],
            top=column[5],
            top_at=column[6],
            trump=column[7],
            kind=np.repeat(np.asarray(kind, dtype=np.int64), counts),
            wants=np.full(len(table), -1, dtype=np.int64),
        )

    @classmethod
    def of_parts(
        cls,
        parts: Sequence[list[World] | SampledDeals],
        trump: Sequence[int],
        kind: Sequence[int],
        turned_trump: Sequence[int],
    ) -> Worlds:
        """The worlds of ``parts`` (World objects, or a view's :class:`SampledDeals`), part
        after part, each part with its ``trump``, ``kind`` and ``turned_trump``: :meth:`of` of
        the World lists and :meth:`of_views` of the sampled deals, then put in order."""
        listed = [i for i, part in enumerate(parts) if not isinstance(part, SampledDeals)]
        sampled = [i for i, part in enumerate(parts) if isinstance(part, SampledDeals)]
        built = []
        if listed:
            n = [len(parts[i]) for i in listed]
            built.append(
                cls.of(
                    [world for i in listed for world in parts[i]],  # type: ignore[union-attr]
                    *(
                        np.repeat([values[i] for i in listed], n)
                        for values in (trump, kind, turned_trump)
                    ),
                )
            )
        if sampled:
            built.append(
                cls.of_views(
                    [parts[i] for i in sampled],  # type: ignore[misc]
                    *([values[i] for i in sampled] for values in (trump, kind, turned_trump)),
                )
            )
        worlds = (
            built[0]
            if len(built) == 1
            else cls(
                **{name: np.concatenate([getattr(b, name) for b in built]) for name in cls._FIELDS}
            )
        )
        if not listed or not sampled:
            return worlds
        first = np.cumsum([0, *(len(parts[i]) for i in listed + sampled)])
        start = dict(zip(listed + sampled, first[:-1].tolist(), strict=True))
        order = [np.arange(start[i], start[i] + len(part)) for i, part in enumerate(parts)]
        return worlds.take(np.concatenate(order))

    def __len__(self) -> int:
        return len(self.trump)

    def take(self, index: np.ndarray) -> Worlds:
        """The worlds ``index`` (repeats make independent copies)."""
        return Worlds(**{name: getattr(self, name)[index] for name in self._FIELDS})

    def put_actions(self, actions: np.ndarray, rows: np.ndarray | None = None) -> None:
        """Seat 0 plays ``actions[i]`` in world ``rows[i]`` (every world by default;
        :func:`put_action`, seat 0 to play)."""
        actions = np.asarray(actions, dtype=np.int64)
        rows = np.arange(len(actions)) if rows is None else np.asarray(rows, dtype=np.int64)
        joker_lead = actions >= LEAD_JOKER
        card = np.where(joker_lead, JOKER, actions - PLAY)
        named = np.where(joker_lead, actions - LEAD_JOKER, NO_TRUMP)
        self._play(rows, np.zeros(len(actions), dtype=np.int64), card, named)

    def _play(
        self, live: np.ndarray, seat: np.ndarray, card: np.ndarray, named: np.ndarray
    ) -> None:
        """Worlds ``live``: ``seat`` (the seat to play) plays ``card``, naming ``named`` when
        it leads (:func:`put`)."""
        now = self.played[live]
        leading = now == 0
        self.called[live] = np.where(leading, named, self.called[live])
        self.lead[live] = np.where(leading, card, self.lead[live])
        is_joker = card == JOKER
        natural_card = ~is_joker
        self.jokers[live, seat] -= is_joker
        shift = np.where(natural_card, card, 0).astype(np.uint64)
        self.masks[live, seat] ^= np.where(natural_card, _U1 << shift, 0).astype(np.uint64)
        trump = self.trump[live]
        self.gone[live] += natural_card & ((card & 3) == trump)
        top = self.top[live]
        beats = is_joker | (
            (top != JOKER) & np.where((card & 3) == (top & 3), card > top, (card & 3) == trump)
        )
        new_top = leading | beats
        self.top[live] = np.where(new_top, card, top)
        self.top_at[live] = np.where(new_top, now, self.top_at[live])
        self.played[live] = now + 1
        closing = live[now == NUM_PLAYERS - 1]
        if closing.size:
            winner = (self.leader[closing] + self.top_at[closing]) % NUM_PLAYERS
            self.leader[closing] = winner
            self.tricks[closing, winner] += 1
            self.played[closing] = 0
            self.called[closing] = NO_TRUMP

    def play_out(self, trick_only: bool = False) -> np.ndarray:
        """Play every world to its end as :func:`play_out` would play it alone (``trick_only``:
        only to the end of the trick on the table, none led after it); ``int64 (n,
        NUM_PLAYERS)``: every seat's tricks at the end (the arrays end played out)."""
        if jit.available():
            from . import compiled

            compiled.play_out_worlds(
                self.masks.view(np.int64),
                *(getattr(self, name) for name in self._FIELDS[1:]),
                trick_only,
            )
            return self.tricks
        masks, jokers, trump = self.masks, self.jokers, self.trump
        trumps_of = _SUITS_OF[trump]
        has_trump_of = trump != NO_TRUMP
        no_bids_of = (self.kind == MAXIMUM) | (self.kind == MINIMUM)
        maximum_of = self.kind == MAXIMUM
        live = np.arange(len(trump))  # the worlds still in play (a world that ends stays ended)
        while live.size:
            seat = (self.leader[live] + self.played[live]) % NUM_PLAYERS
            mask, held = masks[live, seat], jokers[live, seat]
            going = (mask != 0) | (held > 0)
            if trick_only:
                going &= self.played[live] != 0
            if not going.all():
                live, seat, mask, held = live[going], seat[going], mask[going], held[going]
                if not live.size:
                    break
            want = np.where(
                no_bids_of[live], maximum_of[live], self.tricks[live, seat] < self.bids[live, seat]
            )
            wants_now = self.wants[live]
            want = np.where((seat == 0) & (wants_now >= 0), wants_now == 1, want)
            leading = self.played[live] == 0
            card = np.empty(live.size, dtype=np.int64)
            named = np.full(live.size, NO_TRUMP, dtype=np.int64)
            first = np.flatnonzero(leading)
            if first.size:
                at = live[first]
                card[first], named[first] = _leads(
                    mask[first], held[first], trumps_of[at], trump[at], want[first], self.gone[at]
                )
            rest = np.flatnonzero(~leading)
            if rest.size:
                at = live[rest]
                card[rest] = _follows(
                    mask[rest],
                    held[rest],
                    trumps_of[at],
                    trump[at],
                    has_trump_of[at],
                    want[rest],
                    self.lead[at],
                    self.called[at],
                    self.top[at],
                    self.played[at] == NUM_PLAYERS - 1,
                )
            self._play(live, seat, card, named)
        return self.tricks


def play_outs(
    worlds: Sequence[World],
    trump: Sequence[int] | np.ndarray,
    kind: Sequence[int] | np.ndarray,
    turned_trump: Sequence[int] | np.ndarray,
    observer_wants: Sequence[int] | np.ndarray | None = None,
) -> np.ndarray:
    """``int64 (len(worlds), NUM_PLAYERS)``: every seat's tricks at the end of each world,
    played as :func:`play_out` would play it alone (``trump``, ``kind``, ``turned_trump`` and
    ``observer_wants`` per world: ``-1`` for ``None``, else 0 or 1). The worlds are left as
    they are.

    Card for card :func:`play_out` (a test plays both on thousands of worlds), on arrays
    (:class:`Worlds`): by numba's compiled loop where it is installed (any number of worlds
    pays), else by numpy's steps over the worlds, which cost about as much for one world as for
    hundreds, so they pay from several hundred worlds.
    """
    return Worlds.of(worlds, trump, kind, turned_trump, observer_wants).play_out()


def _leads(
    mask: np.ndarray,
    held: np.ndarray,
    trumps: np.ndarray,
    trump: np.ndarray,
    want: np.ndarray,
    gone: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`_lead` in every world: the cards led and the suits named."""
    has_jokers = held > 0
    own_trumps = mask & trumps
    honours = mask & (_ACES_U | (trumps & _KINGS_UP_U))
    pull = has_jokers & (own_trumps != 0) & (13 - _bit_count(own_trumps) - gone > 0)
    card = np.where(
        pull | ((honours == 0) & has_jokers),
        JOKER,
        np.where(honours != 0, _strongest_many(honours, trumps), _strongest_many(mask, trumps)),
    )
    named = np.where(
        pull | ((trump != NO_TRUMP) & has_jokers),
        trump,
        np.where(mask == 0, 0, _strongest_many(mask, np.zeros_like(mask)) & 3),
    )
    named = np.where(card == JOKER, named, NO_TRUMP)
    card = np.where(want, card, _weakest_many(mask, trumps))
    named = np.where(want, named, np.where(mask != 0, NO_TRUMP, 0))
    return card, named


def _follows(
    mask: np.ndarray,
    held: np.ndarray,
    trumps: np.ndarray,
    trump: np.ndarray,
    has_trump: np.ndarray,
    want: np.ndarray,
    lead: np.ndarray,
    called: np.ndarray,
    top: np.ndarray,
    last: np.ndarray,
) -> np.ndarray:
    """:func:`play_out`'s following card in every world (the follow rules, then the rules
    policy's choice among the legal cards)."""
    has_jokers = held > 0
    own_trumps = mask & trumps
    lead_joker = lead == JOKER
    lead_suit = np.where(lead_joker, 0, lead & 3)
    can_trump = (own_trumps != 0) | (has_jokers & has_trump)
    natural = mask & _SUITS_OF[called]
    following = mask & _SUITS_OF[lead_suit]
    lead_trump = ~lead_joker & (lead_suit == trump)
    side_lead = ~lead_joker & ~lead_trump
    highest_called = lead_joker & (natural != 0)
    only_following = side_lead & (following != 0)
    to_trumps = (
        (lead_joker & (natural == 0) & can_trump)
        | (lead_trump & ((own_trumps != 0) | has_jokers))
        | (side_lead & (following == 0) & can_trump)
    )
    legal = np.where(to_trumps, own_trumps, mask)
    legal = np.where(only_following, following, legal)
    highest = _U1 << np.maximum(_bit_length(natural) - 1, 0).astype(np.uint64)
    legal = np.where(highest_called, highest, legal)
    wild = np.where(highest_called | only_following, 0, held)
    top_joker = top == JOKER
    top_suit = np.where(top_joker, 0, top & 3)
    winning = legal & _SUITS_OF[top_suit] & _ABOVE_OF[top]
    winning |= np.where(top_suit != trump, legal & trumps, 0).astype(np.uint64)
    winning = np.where(top_joker, 0, winning).astype(np.uint64)
    weakest_legal = _weakest_many(legal, trumps)
    take = np.where(
        (winning == 0) & (wild == 0),
        weakest_legal,
        np.where(
            last,
            _weakest_many(winning, trumps),
            np.where(winning != 0, _strongest_many(winning, trumps), JOKER),
        ),
    )
    losing = legal & ~winning
    strongest_legal = np.where(wild > 0, JOKER, _strongest_many(legal, trumps))
    shed = np.where(
        losing != 0,
        _strongest_many(losing, trumps),
        np.where(last, strongest_legal, weakest_legal),
    )
    card = np.where(want, take, shed)
    single = _bit_count(legal) + wild == 1
    return np.where(single, np.where(wild > 0, JOKER, _bit_length(legal) - 1), card)
