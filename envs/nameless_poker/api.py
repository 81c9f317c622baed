"""The scripted-evaluation API of "poker without a name" (RULES §6): check tricks and scores
without an engine.

Cards are one string (``"As Kd Jk"``), a list of strings or a list of card ids, validated
against the game's pack (52 cards and two jokers, :data:`.rules.PACK`); ``trump`` and
``called_suit`` are suit letters (``"s" "h" "d" "c"``, any case) or ``None``. Every bad card or
argument raises :class:`ValueError` naming it. The functions call the follow rules and the trick
winner the engine plays by (:mod:`.deals`).

>>> trick_winner("Kh Ah 2s Jk", trump="s")  # the joker takes it
3
>>> trick_winner("Kh Ah 2s 9d", trump="s")  # a trump takes a trick led in another suit
2
>>> trick_winner("Jk 9h Jk 2s", trump="h", called_suit="h")  # the last joker wins
2
>>> legal_plays("Ah 7h 2s Jk", "Jk", trump="s", called_suit="h")  # highest of the called suit
['Ah']
>>> legal_plays("Kd 7c 2s Jk", "9h", trump="s")  # void in hearts: a trump or the joker
['2s', 'Jk']
>>> deal_score(8, 3, 3), deal_score(8, 0, 0), deal_score(8, 2, 4), deal_score(8, 3, 1)
(30, 5, 4, -20)
>>> deal_score(24, None, 2), deal_score(28, None, 2)
(-20, 20)
"""

from __future__ import annotations

from ..core.cards import JOKER, SUITS, CardsLike, format_card
from ..core.options import check_int
from . import deals

__all__ = ["deal_score", "legal_plays", "trick_winner"]


def _suit(name: str, value: object) -> int:
    """A suit letter (or ``None``: :data:`.deals.NO_TRUMP`) as a suit index."""
    if value is None:
        return deals.NO_TRUMP
    if isinstance(value, str) and value.lower() in SUITS:
        return SUITS.index(value.lower())
    raise ValueError(f"bad {name} {value!r}: expected one of 's', 'h', 'd', 'c' or None")


def _called(trick: list[int], called_suit: object) -> int:
    """The called suit, required exactly when the trick opens with a joker."""
    if trick and trick[0] == JOKER:
        if called_suit is None:
            raise ValueError(
                "bad called_suit None: the trick opens with a joker, so the suit its leader "
                "named is needed (one of 's', 'h', 'd', 'c')"
            )
        return _suit("called_suit", called_suit)
    if called_suit is not None:
        raise ValueError(
            f"bad called_suit {called_suit!r}: expected None, the trick does not open with a joker"
        )
    return deals.NO_TRUMP


def trick_winner(trick: CardsLike, trump: str | None, called_suit: str | None = None) -> int:
    """Index in play order (0 = the lead) of the card that takes ``trick`` (1 to 4 cards).

    The last joker played if any; otherwise the highest trump; otherwise the highest card of
    the led suit. ``called_suit`` is the suit named with a joker lead (required then, ``None``
    otherwise); it never changes the winner, since the joker led wins unless the other joker
    follows.
    """
    cards = deals.PACK.parse(trick, what="trick")
    if not 1 <= len(cards) <= deals.NUM_PLAYERS:
        raise ValueError(f"bad trick {trick!r}: expected 1 to {deals.NUM_PLAYERS} cards")
    suit = _suit("trump", trump)
    _called(cards, called_suit)
    return deals.winner_index(cards, suit)


def legal_plays(
    hand: CardsLike, trick: CardsLike, trump: str | None, called_suit: str | None = None
) -> list[str]:
    """The distinct cards of ``hand`` (1 to 8 cards) that may be played to ``trick`` (the 0 to 3
    cards already played to it, the lead first), sorted by card id: rank 2 up to A, within a
    rank s, h, d, c, and ``Jk`` last.

    Leading (an empty trick), any card may be played; a joker led then names a suit, which this
    function does not ask for. ``called_suit`` is the suit named when ``trick`` opens with a
    joker (required then, ``None`` otherwise). The hand and the trick together must fit in the
    pack (no card twice, at most two jokers).
    """
    cards = deals.PACK.parse(hand, what="hand")
    played = deals.PACK.parse(trick, what="trick")
    if not 1 <= len(cards) <= deals.MAX_HAND:
        raise ValueError(f"bad hand {hand!r}: expected 1 to {deals.MAX_HAND} cards")
    if len(played) >= deals.NUM_PLAYERS:
        raise ValueError(f"bad trick {trick!r}: expected 0 to {deals.NUM_PLAYERS - 1} cards played")
    deals.PACK.check(cards + played, what="hand and trick together")
    suit = _suit("trump", trump)
    called = _called(played, called_suit)
    return [format_card(c) for c in sorted(set(deals.follow_options(cards, played, suit, called)))]


def deal_score(deal: int, bid: int | None, tricks: int) -> int:
    """One player's points in deal ``deal`` (1..30) for ``bid`` and ``tricks`` taken (RULES §4).

    Deals 1-22 (dark deals included) need a bid 0..hand size; deals 23-30 have none
    (``bid=None``). ``tricks`` is 0..hand size.
    """
    number = check_int("deal", deal, 1, deals.NUM_DEALS)
    size = deals.HAND_SIZES[number - 1]
    kind = deals.deal_kind(number)
    if kind >= deals.MINIMUM:
        if bid is not None:
            raise ValueError(f"bad bid {bid!r}: deal {number} has no bids, expected None")
    elif bid is None:
        raise ValueError(f"bad bid None: deal {number} needs a bid, expected an int in 0..{size}")
    else:
        bid = check_int("bid", bid, 0, size)
    taken = check_int("tricks", tricks, 0, size)
    return deals.score(kind, bid, taken)
