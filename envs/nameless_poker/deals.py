"""The laws of one deal of "poker without a name" (RULES §4), on card ids, with no engine state.

The engine (:mod:`.game`), the scripted API (:mod:`.api`), the observation and the bots all
read the schedule, the follow rules, the trick winner and the scoring from here, so each rule
is written once.

Schedule
--------
Deal ``n`` (1..30) deals ``HAND_SIZES[n - 1]`` cards to each of the four players:
1, 2, .., 7, 8, 8, 8, 8, 7, .., 2, 1 in deals 1-18 (``"regular"``: bids after seeing the
hand), 8 in deals 19-22 (``"dark"``: bids before seeing it), 8 in deals 23-26 (``"minimum"``:
no bids, every trick -10) and 8 in deals 27-30 (``"maximum"``: no bids, every trick +10).

Suits and trump
---------------
Suits are indices ``0..3`` (``s h d c``, as :mod:`pokerzoo.envs.core.cards`); ``NO_TRUMP``
(``-1``) is a deal whose turned card is a joker and a trick led by a joker with no suit called.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..core.cards import JOKER, SUITS, Deck

__all__ = [
    "PACK",
    "DARK",
    "DEAL_KINDS",
    "HAND_SIZES",
    "MAXIMUM",
    "MAX_HAND",
    "MINIMUM",
    "NIL_POINTS",
    "NO_TRUMP",
    "NUM_DEALS",
    "NUM_PLAYERS",
    "REGULAR",
    "TRICK_POINTS",
    "beats",
    "deal_kind",
    "follow_options",
    "score",
    "suit_letter",
    "winner_index",
]

PACK = Deck(jokers=2)
"""The pack: 52 cards and two jokers (both written ``Jk``); every card input is validated
through it."""

NUM_PLAYERS = 4
NUM_DEALS = 30
MAX_HAND = 8
NO_TRUMP = -1
HAND_SIZES: tuple[int, ...] = (1, 2, 3, 4, 5, 6, 7, 8, 8, 8, 8, 7, 6, 5, 4, 3, 2, 1) + (8,) * 12
DEAL_KINDS = ("regular", "dark", "minimum", "maximum")
"""Kinds of deal, indexed as the observation's one-hot ``deal_kind``."""
REGULAR, DARK, MINIMUM, MAXIMUM = range(4)
TRICK_POINTS = 10
"""Points per trick: made bids, the missing tricks of a failed bid, minimum and maximum deals."""
NIL_POINTS = 5
"""A bid of 0 made (no trick taken)."""


def deal_kind(deal: int) -> int:
    """Index in :data:`DEAL_KINDS` of deal ``deal`` (1..30)."""
    if deal <= 18:
        return REGULAR
    return (deal - 19) // 4 + DARK


def score(kind: int, bid: int | None, tricks: int) -> int:
    """Points of one player in one deal of kind ``kind`` (``bid`` is ``None`` in minimum and
    maximum deals): RULES §4.

    Deals with bids: ``t = b > 0`` scores ``10 t``; ``t = b = 0`` scores 5; ``t > b`` scores
    ``t`` (one point a trick); ``t < b`` scores ``-10 (b - t)``. Minimum deals ``-10 t``,
    maximum deals ``+10 t``.
    """
    if kind == MINIMUM:
        return -TRICK_POINTS * tricks
    if kind == MAXIMUM:
        return TRICK_POINTS * tricks
    if bid is None:
        raise ValueError(f"a {DEAL_KINDS[kind]} deal needs a bid")
    if tricks == bid:
        return TRICK_POINTS * tricks if bid > 0 else NIL_POINTS
    if tricks > bid:
        return tricks
    return -TRICK_POINTS * (bid - tricks)


def follow_options(hand: Sequence[int], trick: Sequence[int], trump: int, called: int) -> list[int]:
    """The cards of ``hand`` that may be played to ``trick`` (cards in play order), in hand order.

    ``trump`` is the trump suit or :data:`NO_TRUMP`; ``called`` is the suit the leader named
    when the trick opens with a joker (ignored otherwise). RULES §4:

    - leading: any card;
    - a joker led with suit ``called``: the highest natural card of that suit if the follower
      holds one; else, in a trump deal, a trump or a joker if it holds one; else any card;
    - trumps led: a trump or a joker (the joker follows suit to a trump lead); else any card;
    - another suit led: a card of that suit; else, in a trump deal, a trump or a joker if it
      holds one; else any card.

    In a no-trump deal a follower void in the led (or called) suit may play any card, a joker
    included: there is no trump the joker would have to stand for.
    """
    if not trick:
        return list(hand)
    lead = trick[0]
    if lead == JOKER:
        natural = [c for c in hand if c != JOKER and c & 3 == called]
        if natural:
            return [max(natural)]
    elif lead & 3 == trump:
        trumps = [c for c in hand if c == JOKER or c & 3 == trump]
        return trumps or list(hand)
    else:
        suit = lead & 3
        following = [c for c in hand if c != JOKER and c & 3 == suit]
        if following:
            return following
    if trump != NO_TRUMP:
        trumps = [c for c in hand if c == JOKER or c & 3 == trump]
        if trumps:
            return trumps
    return list(hand)


def beats(card: int, best: int, trump: int) -> bool:
    """Whether ``card``, played after ``best`` (the card taking the trick so far), takes it.

    A joker beats everything played before it; nothing natural beats a joker; a card of the
    suit of ``best`` beats it when higher (ids of one suit rise with the rank); a trump beats a
    card of another suit.
    """
    if card == JOKER:
        return True
    if best == JOKER:
        return False
    if card & 3 == best & 3:
        return card > best
    return card & 3 == trump


def winner_index(trick: Sequence[int], trump: int) -> int:
    """Index in play order of the card that takes ``trick`` (one card or more): the last joker
    played if any; otherwise the highest trump; otherwise the highest card of the led suit."""
    best, top = 0, trick[0]
    for i in range(1, len(trick)):
        card = trick[i]  # beats(card, top, trump), inline: this runs in every Monte-Carlo play-out
        if card == JOKER or (
            top != JOKER and (card > top if card & 3 == top & 3 else card & 3 == trump)
        ):
            best, top = i, card
    return best


def suit_letter(suit: int) -> str:
    """``"s"``, ``"h"``, ``"d"``, ``"c"`` for suits 0..3, ``"-"`` for :data:`NO_TRUMP`."""
    return SUITS[suit] if suit != NO_TRUMP else "-"
