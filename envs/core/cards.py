"""Cards, card notation and decks.

Card ids
--------
A card is a small integer. The 52 ordinary cards are ``id = 4 * rank + suit`` with

=====  ==================================  =====  ====================
rank   ``2 3 4 5 6 7 8 9 T J Q K A``       suit   ``s h d c``
index  ``0 1 2 3 4 5 6 7 8 9 10 11 12``    index  ``0 1 2 3``
=====  ==================================  =====  ====================

so ``2s`` is 0, ``2h`` is 1, ``As`` is 48 and ``Ac`` is 51. Every joker is the same card,
``JOKER = 52``, written ``Jk``. Ids never depend on the deck in use: a piquet deck is just the
subset of ids with rank 7 and above.

Notation
--------
Ranks ``2 3 4 5 6 7 8 9 T J Q K A`` (``10`` is accepted for ``T``), suits ``s h d c``; input is
case-insensitive. ``parse_cards`` takes one string (``"As Kd Jk"``), a sequence of strings, or a
sequence of ids, and raises :class:`ValueError` naming the first bad token.

Decks
-----
A :class:`Deck` is what a game's pack holds: a 52-card or 32-card (piquet) deck, once or twice
over, with 0..4 jokers. :meth:`Deck.parse` is the one validation path of every scripted-API
function and every fixed deal: it parses cards in any form and checks that the pack could hold
them (how many cards, which cards, how many copies of each), raising :class:`ValueError` that
names the bad card. :func:`make_deck` gives the ordered pack as an array. Packs are shuffled
only through an explicit :class:`numpy.random.Generator` (:func:`shuffled`), so a seed
reproduces a deal.

>>> parse_cards("As 10d jk")
[48, 34, 52]
>>> format_cards([48, 34, 52])
'As Td Jk'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Literal, Union

import numpy as np

__all__ = [
    "JOKER",
    "Deck",
    "NUM_CARD_IDS",
    "RANKS",
    "SUITS",
    "CardsLike",
    "card_id",
    "card_rank",
    "card_suit",
    "format_card",
    "format_cards",
    "make_deck",
    "parse_card",
    "parse_cards",
    "shuffled",
]

RANKS = "23456789TJQKA"
SUITS = "shdc"
JOKER = 52
NUM_CARD_IDS = 53
PIQUET_LOWEST_RANK = RANKS.index("7")

CardsLike = Union[str, Iterable[Union[str, int]]]  # noqa: UP007 (a runtime alias on 3.10)

_TOKEN_TO_ID: dict[str, int] = {}
for _r, _rank in enumerate(RANKS):
    for _s, _suit in enumerate(SUITS):
        for _rank_text in {_rank, _rank.lower()} | ({"10"} if _rank == "T" else set()):
            for _suit_text in (_suit, _suit.upper()):
                _TOKEN_TO_ID[_rank_text + _suit_text] = 4 * _r + _s
for _joker in ("Jk", "JK", "jk", "jK"):
    _TOKEN_TO_ID[_joker] = JOKER
_ID_TO_TOKEN = [RANKS[i // 4] + SUITS[i % 4] for i in range(52)] + ["Jk"]


def card_id(rank: int, suit: int) -> int:
    """Id of the card with rank index ``rank`` (0 = deuce .. 12 = ace) and suit index ``suit``."""
    if not 0 <= rank < 13:
        raise ValueError(f"rank index {rank!r} out of range: expected 0..12 (2..A)")
    if not 0 <= suit < 4:
        raise ValueError(f"suit index {suit!r} out of range: expected 0..3 (s, h, d, c)")
    return 4 * rank + suit


def card_rank(card: int) -> int:
    """Rank index (0 = deuce .. 12 = ace) of an ordinary card id."""
    return card >> 2


def card_suit(card: int) -> int:
    """Suit index (0 = s, 1 = h, 2 = d, 3 = c) of an ordinary card id."""
    return card & 3


def parse_card(token: str | int) -> int:
    """One card from its notation (``"As"``, ``"10d"``, ``"Jk"``) or its id."""
    if isinstance(token, (int, np.integer)) and not isinstance(token, bool):
        value = int(token)
        if 0 <= value < NUM_CARD_IDS:
            return value
        raise ValueError(f"bad card id {value!r}: expected an int in 0..{NUM_CARD_IDS - 1}")
    if isinstance(token, str):
        card = _TOKEN_TO_ID.get(token.strip())
        if card is not None:
            return card
        raise ValueError(
            f"bad card {token!r}: expected a rank from '23456789TJQKA' (or '10') followed by a "
            "suit from 'shdc', or 'Jk' for a joker"
        )
    raise ValueError(f"bad card {token!r}: expected a card string such as 'As' or a card id")


def parse_cards(cards: CardsLike) -> list[int]:
    """Card ids from one space- or comma-separated string, a sequence of strings, or of ids.

    >>> parse_cards("Ts, 9h")
    [32, 29]
    """
    if isinstance(cards, str):
        tokens: Iterable[str | int] = cards.replace(",", " ").split()
    elif isinstance(cards, np.ndarray):
        if cards.ndim != 1:
            raise ValueError(f"expected a 1-d array of card ids, got shape {cards.shape}")
        tokens = cards.tolist()
    else:
        try:
            tokens = list(cards)
        except TypeError:
            raise ValueError(
                f"bad cards {cards!r}: expected a string, a list of strings or a list of ids"
            ) from None
    return [parse_card(token) for token in tokens]


def format_card(card: int) -> str:
    """Notation of one card id (``48 -> "As"``, ``52 -> "Jk"``)."""
    is_int = isinstance(card, (int, np.integer)) and not isinstance(card, bool)
    if is_int and 0 <= card < NUM_CARD_IDS:
        return _ID_TO_TOKEN[card]
    raise ValueError(f"bad card id {card!r}: expected an int in 0..{NUM_CARD_IDS - 1}")


def format_cards(cards: CardsLike) -> str:
    """Space-separated notation of cards given in any form (ids, strings, one string).

    >>> format_cards("as 10d jk")
    'As Td Jk'
    """
    if type(cards) is list and all(type(c) is int and 0 <= c < NUM_CARD_IDS for c in cards):
        return " ".join([_ID_TO_TOKEN[card] for card in cards])  # ids already: the engines' case
    return " ".join(_ID_TO_TOKEN[card] for card in parse_cards(cards))


DeckKind = Literal["standard", "piquet"]
_KINDS = ("standard", "piquet")


@dataclass(frozen=True)
class Deck:
    """The cards of one game's pack: ``kind`` (``"standard"``, 52 cards, or ``"piquet"``, 7 to
    ace, 32 cards), ``decks`` copies of those (1 or 2) and ``jokers`` (0..4) added.

    >>> Deck("piquet").parse("As Ks Qs Js Ts", count=5, what="pack")
    [48, 44, 40, 36, 32]
    >>> Deck().parse("As As Qs Js Ts")
    Traceback (most recent call last):
    ...
    ValueError: duplicate card As in hand: the pack (one 52-card deck) holds one
    """

    kind: DeckKind = "standard"
    jokers: int = 0
    decks: int = 1
    counts: np.ndarray = field(init=False, repr=False, compare=False)
    """``int16 (53,)``: copies of each card id in the pack."""
    _ordered: np.ndarray = field(init=False, repr=False, compare=False)
    """``int8``: the whole pack in id order (read-only; :meth:`pack` shuffles a copy)."""

    def __post_init__(self) -> None:
        if self.kind not in _KINDS:
            raise ValueError(f"bad deck kind {self.kind!r}: expected 'standard' or 'piquet'")
        jokers, decks = self.jokers, self.decks
        if isinstance(jokers, bool) or not isinstance(jokers, (int, np.integer)):
            raise ValueError(f"bad jokers {jokers!r}: expected an int in 0..4")
        if not 0 <= jokers <= 4:
            raise ValueError(f"bad jokers {jokers!r}: expected an int in 0..4")
        if isinstance(decks, bool) or decks not in (1, 2):
            raise ValueError(f"bad decks {decks!r}: expected 1 or 2")
        counts = np.zeros(NUM_CARD_IDS, dtype=np.int16)
        lowest = 0 if self.kind == "standard" else 4 * PIQUET_LOWEST_RANK
        counts[lowest:52] = decks
        counts[JOKER] = jokers
        counts.setflags(write=False)
        object.__setattr__(self, "counts", counts)
        ordered = np.repeat(np.arange(NUM_CARD_IDS, dtype=np.int8), counts)
        ordered.setflags(write=False)
        object.__setattr__(self, "_ordered", ordered)

    @property
    def cards(self) -> np.ndarray:
        """The ordered pack, ``int8``: the ordinary cards by id (twice over for two decks),
        then the jokers."""
        ordinary = np.flatnonzero(self.counts[:JOKER]).astype(np.int8)
        jokers = np.full(self.jokers, JOKER, dtype=np.int8)
        return np.concatenate([np.tile(ordinary, self.decks), jokers])

    def pack(self, top: Sequence[int] = (), rng: np.random.Generator | None = None) -> np.ndarray:
        """The pack in dealing order, ``int8``, top card first: ``top`` (card ids the caller
        has checked with :meth:`parse`), then the rest of the pack's cards in id order, shuffled
        by ``rng`` when one is given. A game deals a fixed pack and a random one the same way.

        >>> Deck("piquet").pack([51])[:3].tolist()
        [51, 20, 21]
        """
        if not len(top):  # a whole pack, every hand of every game: no counting needed
            return self._ordered.copy() if rng is None else shuffled(self._ordered, rng)
        counts = self.counts.astype(np.int64)
        np.subtract.at(counts, np.asarray(top, dtype=np.intp), 1)
        rest = np.repeat(np.arange(NUM_CARD_IDS, dtype=np.int8), counts)
        if rng is not None:
            rest = shuffled(rest, rng)
        return np.concatenate([np.asarray(top, dtype=np.int8), rest])

    def describe(self) -> str:
        """``"one 52-card deck and 2 jokers"``, for messages."""
        size = "52-card" if self.kind == "standard" else "piquet (7 to ace)"
        decks = "one" if self.decks == 1 else "two"
        noun = "deck" if self.decks == 1 else "decks"
        jokers = f" and {self.jokers} joker{'s' * (self.jokers != 1)}" if self.jokers else ""
        return f"{decks} {size} {noun}{jokers}"

    def check(self, ids: Sequence[int], what: str = "hand") -> None:
        """Raise :class:`ValueError` naming the first card of ``ids`` the pack cannot supply."""
        counts = self.counts
        seen: dict[int, int] = {}
        for card in ids:
            held = int(counts[card])
            seen[card] = seen.get(card, 0) + 1
            if seen[card] <= held:
                continue
            token = _ID_TO_TOKEN[card]
            pack = f"the pack ({self.describe()})"
            if held == 0:
                raise ValueError(f"card {token} in {what} is not in {pack}")
            if card == JOKER:
                raise ValueError(f"too many jokers in {what}: {seen[card]}, {pack} holds {held}")
            if held == 1:
                raise ValueError(f"duplicate card {token} in {what}: {pack} holds one")
            raise ValueError(
                f"card {token} appears {seen[card]} times in {what}: {pack} holds {held}"
            )

    def parse(self, cards: CardsLike, *, count: int | None = None, what: str = "hand") -> list[int]:
        """Card ids of ``cards`` (any form), checked: exactly ``count`` cards when given, each
        one the pack holds, never more copies than it holds."""
        ids = parse_cards(cards)
        if count is not None and len(ids) != count:
            raise ValueError(f"{what}: expected {count} cards, got {len(ids)}: {cards!r}")
        self.check(ids, what)
        return ids


def make_deck(kind: DeckKind = "standard", *, jokers: int = 0, decks: int = 1) -> np.ndarray:
    """An ordered deck as an ``int8`` array of card ids (:attr:`Deck.cards`).

    Args:
        kind: ``"standard"`` (52 cards) or ``"piquet"`` (32 cards, 7 to ace).
        jokers: jokers added to the whole pack, 0..4.
        decks: how many copies of the ordinary cards, 1 or 2.
    """
    return Deck(kind, jokers, decks).cards


def shuffled(deck: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A shuffled copy of ``deck``, drawn from ``rng`` (the only source of randomness)."""
    if not isinstance(rng, np.random.Generator):
        raise TypeError(f"rng must be a numpy.random.Generator, got {type(rng).__name__}")
    return rng.permutation(deck)
