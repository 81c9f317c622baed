"""What the betting games' feature sets share (draw poker and five-card stud, config
``features: equity``): a Monte-Carlo equity, pot odds, the made hand, draw indicators and the
opponents' betting, each a few numbers the policy would otherwise have to learn from one-hot
cards.

Equity is the observer's expected share of the pot at a showdown against the opponents still in,
given every card it can see: each future fills the unseen cards (the opponents' face-down cards,
the cards still to come) from the cards nobody has shown, and the batched evaluator of
:mod:`pokerzoo.envs.core.hands` scores every hand of every future in one call. A game builds its
own futures (draw poker: one per discard, against opponents who draw; stud: the cards still to be
dealt) with :func:`deal` and scores them with :func:`pot_share`.

Features run at every step of every training env, so they are computed once per set of visible
cards (:class:`FeatureCache`) from a generator seeded by those cards (:func:`seeded`): the same
observation always gets the same features, in any process, which evaluation and a reloaded model
rely on.
"""

from __future__ import annotations

import functools
import hashlib
import itertools
from collections import OrderedDict
from collections.abc import Callable, Sequence

import numpy as np

from ...envs.core.cards import JOKER
from ...envs.core.hands import Category, categories
from ...envs.core.observation import Field

__all__ = [
    "CATEGORIES",
    "DRAW_INDICATORS",
    "FAIR_SHARE",
    "POT",
    "POT_ODDS",
    "TO_CALL",
    "FeatureCache",
    "betting_summary",
    "category_floor",
    "category_of",
    "deal",
    "draw_indicators",
    "draw_indicators_batch",
    "group_keys",
    "made_hand",
    "pot_odds",
    "pot_share",
    "seeded",
]

CATEGORIES = len(Category)
"""Entries of :func:`made_hand`'s one-hot (every :class:`Category`, nothing .. five of a kind)."""
DRAW_INDICATORS = 4
"""Entries of :func:`draw_indicators`."""

# The betting features both games' layouts hold, defined once: the equity rule
# (:mod:`pokerzoo.training.rules`) reads them by these names in either game.
FAIR_SHARE = Field("fair_share", 1, 1, "`1 / players in`: the equity of an even hand")
POT_ODDS = Field("pot_odds", 1, 1, "`to_call / (pot + to_call)`: the equity a call needs")
TO_CALL = Field("to_call", 1, 10, "chips to call / bet size")
POT = Field("pot", 1, 10, "pot / 50")
_CATEGORY_SHIFT = 24  # evaluate()'s keys hold the Category from bit 24 up (hands.py, "Keys")
_WINDOWS = [frozenset((12, 0, 1, 2, 3))] + [frozenset(range(low, low + 5)) for low in range(9)]


def _is_wild(card: int, deuces_wild: bool) -> bool:
    return card == JOKER or (deuces_wild and card >> 2 == 0)


def group_keys(hands: np.ndarray, deuces_wild: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Strength of ``(M, k)`` hands of any size ``k <= 5`` by their groups of ranks alone (as a
    stud board is read: straights and flushes do not count): ``(keys, categories)``, higher keys
    better. Groups first (four of a kind > a full house > three of a kind > two pair > pair >
    high card), then the groups' ranks, largest first, then the odd cards from the highest;
    wild cards join the largest group (aces when no natural card). Hands of different sizes
    compare the same way.

    A hand's key depends on its ranks alone (a wild card its own rank): each hand's ranks,
    sorted, index a table of every such tuple (:func:`_group_table`, built once per size by
    :func:`_group_keys_by_columns`), four to six times faster than working the groups out."""
    hands = np.asarray(hands, dtype=np.int64)
    size = hands.shape[1]
    if not 1 <= size <= 5:
        return _group_keys_by_columns(hands, deuces_wild)
    wild = (hands == JOKER) | (deuces_wild & (hands < 4))
    ranks = np.sort(np.where(wild, _WILD_RANK, np.minimum(hands >> 2, 12)), axis=1)
    if len(ranks) and ranks[:, 0].min() < 0:  # not card ids: no table entry stands for them
        return _group_keys_by_columns(hands, deuces_wild)
    keys, category = _group_table(size)
    index = ranks @ _RANK_DIGITS[-size:]
    return keys[index], category[index]


_WILD_RANK = 13  # a wild card's rank in the tables' index (the natural ranks are 0..12)
_RANK_DIGITS = (_WILD_RANK + 1) ** np.arange(4, -1, -1, dtype=np.int64)


@functools.cache
def _group_table(size: int) -> tuple[np.ndarray, np.ndarray]:
    """:func:`_group_keys_by_columns` of every sorted tuple of ``size`` ranks (a wild card
    :data:`_WILD_RANK`), at the tuple's index in base 14: ``(keys, categories)``, ``int64
    (14 ** size,)``."""
    ranks = np.array(
        list(itertools.combinations_with_replacement(range(_WILD_RANK + 1), size)), dtype=np.int64
    )
    keys, category = _group_keys_by_columns(np.where(ranks == _WILD_RANK, JOKER, ranks * 4))
    index = ranks @ _RANK_DIGITS[-size:]
    table = np.zeros((2, (_WILD_RANK + 1) ** size), dtype=np.int64)
    table[0, index], table[1, index] = keys, category
    table.flags.writeable = False
    return table[0], table[1]


def _group_keys_by_columns(
    hands: np.ndarray, deuces_wild: bool = False
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`group_keys` worked out hand by hand: each card is scored ``count * 16 + rank``
    where it is the first of its rank (``-1`` for a wild card or a later card of the rank), so
    the groups come from sorting ``k`` columns."""
    hands = np.asarray(hands, dtype=np.int64)
    size = hands.shape[1]
    wild = (hands == JOKER) | (deuces_wild & (hands < 4))
    ranks = np.where(wild, -1, np.minimum(hands >> 2, 12))
    wilds = np.zeros(len(hands), dtype=np.int64)
    counts = np.zeros(hands.shape, dtype=np.int64)
    first = ~wild
    for i in range(size):
        wilds += wild[:, i]
        for j in range(size):
            same = ranks[:, i] == ranks[:, j]
            counts[:, j] += same
            if i < j:
                first[:, j] &= ~same
    order = np.full((len(hands), 5), -1, dtype=np.int64)
    order[:, :size] = np.sort(np.where(first, counts * 16 + ranks, -1), axis=1)[:, ::-1][:, :5]
    present = order >= 0
    group = np.where(present, order // 16, 0)
    group[:, 0] += wilds
    rank = np.where(present, order % 16 + 1, 0)
    rank[:, 0] = np.where(present[:, 0], rank[:, 0], np.where(wilds > 0, 13, 0))
    first, second = group[:, 0], group[:, 1]
    category = np.select(
        [first >= 4, (first == 3) & (second >= 2), first == 3, (first == 2) & (second == 2),
         first == 2],
        [Category.FOUR_OF_A_KIND, Category.FULL_HOUSE, Category.THREE_OF_A_KIND,
         Category.TWO_PAIR, Category.PAIR],
        Category.NOTHING,
    )  # fmt: skip
    keys = category.astype(np.int64)
    for column in range(5):
        keys = keys * 16 + rank[:, column]
    return keys, category


def made_hand(
    cards: Sequence[int], ruleset: str = "standard", deuces_wild: bool = False
) -> np.ndarray:
    """One-hot :class:`Category` of the cards held (``float32 (CATEGORIES,)``).

    Five cards: the evaluator's category under ``ruleset``. Fewer (stud before the last card):
    the groups of ranks only (:func:`group_keys`), since straights and flushes need five cards.
    """
    out = np.zeros(CATEGORIES, dtype=np.float32)
    if len(cards) == 5:
        out[int(categories(np.array([cards]), ruleset, deuces_wild=deuces_wild)[0])] = 1
    elif cards:
        out[int(group_keys(np.array([cards]), deuces_wild)[1][0])] = 1
    else:
        out[Category.NOTHING] = 1
    return out


def draw_indicators(cards: Sequence[int], deuces_wild: bool = False) -> np.ndarray:
    """How close the cards are to a flush and a straight (``float32 (DRAW_INDICATORS,)``).

    Entries: the most cards of one suit / 5, the most distinct ranks inside one straight's
    window / 5 (wild cards count in both), a flush still open (every card of one suit or wild)
    and a straight still open (no two natural cards of a rank, all inside one window). Four to a
    flush reads 0.8 in a draw poker hand; in stud the open flags say whether the cards to come
    can still make one.
    """
    wilds = sum(_is_wild(c, deuces_wild) for c in cards)
    natural = [c for c in cards if not _is_wild(c, deuces_wild)]
    suits = np.bincount([c & 3 for c in natural], minlength=4)
    ranks = {c >> 2 for c in natural}
    suited = int(suits.max()) + wilds
    connected = max(len(ranks & window) for window in _WINDOWS) + wilds
    flush_open = int(suits.max()) == len(natural)
    straight_open = len(ranks) == len(natural) and any(ranks <= window for window in _WINDOWS)
    return np.array(
        [min(suited, 5) / 5, min(connected, 5) / 5, flush_open, straight_open], dtype=np.float32
    )


_WINDOW_RANKS = np.array([[rank in window for rank in range(13)] for window in _WINDOWS])
"""``bool (windows, 13)``: the ranks of each straight's window."""


def draw_indicators_batch(
    hands: Sequence[Sequence[int]], deuces_wild: Sequence[bool] | bool = False
) -> np.ndarray:
    """:func:`draw_indicators` of each hand (up to five cards each), ``float32 (N,
    DRAW_INDICATORS)``, the same rows, read with array operations for the whole batch;
    ``deuces_wild`` is one flag for every hand or one per hand."""
    n = len(hands)
    cards = np.full((n, 5), -1, dtype=np.int64)
    for row, hand in enumerate(hands):
        cards[row, : len(hand)] = hand
    held = cards >= 0
    deuces = np.broadcast_to(np.asarray(deuces_wild, dtype=bool), (n,))[:, None]
    wild = (cards == JOKER) | (deuces & held & (cards >> 2 == 0))
    natural = held & ~wild
    wilds = wild.sum(axis=1)
    rows = np.repeat(np.arange(n), 5)[natural.ravel()]
    suits = np.zeros((n, 4), dtype=np.int64)
    np.add.at(suits, (rows, cards[natural] & 3), 1)
    ranks = np.zeros((n, 13), dtype=np.int64)
    np.add.at(ranks, (rows, cards[natural] >> 2), 1)
    present = ranks > 0
    suited = suits.max(axis=1) + wilds
    connected = (present[:, None, :] & _WINDOW_RANKS).sum(axis=2).max(axis=1) + wilds
    flush_open = suits.max(axis=1) == natural.sum(axis=1)
    inside = ~(present[:, None, :] & ~_WINDOW_RANKS).any(axis=2)  # (N, windows)
    straight_open = (ranks <= 1).all(axis=1) & inside.any(axis=1)
    return np.stack(
        [np.minimum(suited, 5) / 5, np.minimum(connected, 5) / 5, flush_open, straight_open],
        axis=1,
    ).astype(np.float32)


def pot_odds(to_call: float, pot: float) -> float:
    """The share of the pot after a call that the call pays: ``to_call / (pot + to_call)``, the
    equity a call needs to break even (0 when there is nothing to call)."""
    return to_call / (pot + to_call) if to_call > 0 else 0.0


def betting_summary(history: np.ndarray, steps: float = 3.0) -> np.ndarray:
    """Bets/raises, calls, checks and folds per betting round of the opponents (summed over
    them) and of the observer, divided by ``steps``: ``history`` is ``(rounds, seats, 4)`` by
    relative seat, seat 0 the observer. Returns ``float32 (rounds * 8,)``; with leading batch
    axes (``(..., rounds, seats, 4)``), one such row each."""
    history = np.asarray(history)
    theirs = history[..., 1:, :].sum(axis=-2)
    mine = history[..., 0, :]
    summary = np.concatenate([theirs, mine], axis=-1)
    return (summary.reshape(*summary.shape[:-2], -1) / steps).astype(np.float32)


def seeded(key: bytes) -> np.random.Generator:
    """A generator seeded by ``key`` (the visible cards): the same everywhere, unlike ``hash``,
    which Python salts per process."""
    return np.random.default_rng(int.from_bytes(hashlib.blake2b(key, digest_size=8).digest()))


def deal(unseen: np.ndarray, rows: int, count: int, rng: np.random.Generator) -> np.ndarray:
    """``rows`` random draws of ``count`` cards without replacement from ``unseen`` (card ids,
    one entry per copy): ``int64 (rows, count)``, a partial Fisher-Yates shuffle of every row at
    once."""
    deck = np.tile(np.asarray(unseen, dtype=np.int64), (rows, 1))
    index = np.arange(rows)
    for i in range(count):
        j = rng.integers(i, deck.shape[1], rows)
        card = deck[index, j]
        deck[index, j] = deck[:, i]
        deck[:, i] = card
    return deck[:, :count]


def pot_share(mine: np.ndarray, theirs: np.ndarray) -> np.ndarray:
    """The observer's share of the pot in each future: ``mine (..., S)`` its hands' keys in
    ``S`` futures, ``theirs (S, P)`` the keys of the ``P`` opponents' hands in the same futures
    (higher wins, equal keys split). Returns ``(..., S)``; its mean is the equity."""
    best = theirs.max(axis=1)
    ties = (theirs == best[:, None]).sum(axis=1)
    return np.where(mine > best, 1.0, np.where(mine == best, 1.0 / (ties + 1), 0.0))


def category_of(keys: np.ndarray) -> np.ndarray:
    """The :class:`Category` of ``evaluate`` keys (the key's high bits, as documented there)."""
    return keys >> _CATEGORY_SHIFT


def category_floor(category: int) -> int:
    """The lowest key a hand of ``category`` can have: a key's :func:`category_of` is at least
    ``category`` exactly where the key is at least this."""
    return int(category) << _CATEGORY_SHIFT


class FeatureCache:
    """Features per set of visible cards, least recently used dropped past ``size``.

    A hand visits the same cards at several decisions (and the duplicate evaluation plays each
    deal twice), so the Monte-Carlo work is done once per key.
    """

    def __init__(self, size: int = 50_000) -> None:
        self._size = size
        self._entries: OrderedDict[bytes, np.ndarray] = OrderedDict()

    def get(self, key: bytes, compute: Callable[[], np.ndarray]) -> np.ndarray:
        """The features stored under ``key``, computed by ``compute()`` the first time."""
        found = self._entries.get(key)
        if found is None:
            found = self._entries[key] = compute()
            if len(self._entries) > self._size:
                self._entries.popitem(last=False)
        else:
            self._entries.move_to_end(key)
        return found

    def get_many(
        self, keys: Sequence[bytes], compute: Callable[[list[int]], Sequence[np.ndarray]]
    ) -> list[np.ndarray]:
        """The features stored under each of ``keys``: ``compute(positions)`` gives those of the
        keys not stored yet, at their first ``positions`` in ``keys``, in that order, in one
        call (a batch's Monte-Carlo worked out together); the same as :meth:`get` key by key."""
        found: list[np.ndarray | None] = []
        first: dict[bytes, int] = {}
        for position, key in enumerate(keys):
            entry = self._entries.get(key)
            if entry is None:
                first.setdefault(key, position)
            else:
                self._entries.move_to_end(key)
            found.append(entry)
        if first:
            fresh = dict(zip(first, compute(list(first.values())), strict=True))
            self._entries.update(fresh)
            found = [
                fresh[key] if entry is None else entry
                for key, entry in zip(keys, found, strict=True)
            ]
            while len(self._entries) > self._size:
                self._entries.popitem(last=False)
        return found  # type: ignore[return-value]
