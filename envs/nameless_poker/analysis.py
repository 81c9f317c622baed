"""The rules policy of poker without a name (RULES §4): the model of play that the rules bot
plays, that the Monte-Carlo play-outs (:mod:`.playout`) give every seat, and that the training
features assume of the other seats.

- Bidding: :func:`expected_tricks` (a value per joker, trump and side-suit honour, plus ruffs
  for void side suits), the legal bid nearest it (:func:`rules_bid`), :data:`DARK_BID` in the
  dark deals.
- Play: :func:`wants_trick` (whether a seat tries to take the next trick) and
  :func:`rules_play` (takes tricks while under its bid, sheds them once it has made it, ducks in
  minimum deals and grabs in maximum deals, leads a joker calling trump to pull the others'
  trumps when it holds trumps of its own).
- :func:`reference_play_out`: a deal played to its end by this policy at every seat, a card at
  a time through the functions above: the specification :func:`~.playout.play_out` (the fast
  play-out, on bit masks) is tested against card for card.

The bots (:mod:`pokerzoo.agents.nameless_poker`) act through these functions; nothing here
decodes an observation.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..core.cards import JOKER
from .deals import (
    MAXIMUM,
    MINIMUM,
    NO_TRUMP,
    NUM_PLAYERS,
    beats,
    follow_options,
    winner_index,
)
from .playout import World, put

__all__ = [
    "DARK_BID",
    "expected_tricks",
    "reference_play_out",
    "rules_bid",
    "rules_play",
    "wants_trick",
]

ACE, KING, QUEEN = 12, 11, 10
DARK_BID = 1
"""The rules policy's bid in a dark deal (8 cards, hand unseen)."""
# Expected tricks of one card by rank (2 .. A), as a trump and in a side suit.
_TRUMP_VALUE = (0.3,) * 9 + (0.45, 0.55, 0.7, 0.9)
_SIDE_VALUE = (0.0,) * 10 + (0.1, 0.35, 0.75)
_JOKER_VALUE = 0.95
_GUARDED_KING = 0.2
"""Extra for a side king with its suit's ace in the same hand."""
_RUFF_VALUE = 0.35
"""Extra for a void side suit, when the hand holds trumps to spare for it."""


def _strength(card: int, trump: int) -> int:
    """How hard a card is to beat: jokers, then trumps, then the other suits, each by rank."""
    if card == JOKER:
        return 100
    return (card >> 2) + (50 if card & 3 == trump else 0)


_STRENGTH = [
    [_strength(card, trump) for card in range(JOKER + 1)] for trump in (0, 1, 2, 3, NO_TRUMP)
]
"""``_STRENGTH[trump][card]``: :func:`_strength` by table (``NO_TRUMP``, -1, is the last row)."""


# --- bidding -------------------------------------------------------------------------------------
def expected_tricks(hand: Sequence[int], trump: int) -> float:
    """The tricks a hand is expected to take: a value per joker, trump and side-suit honour,
    plus a ruff for each void side suit it holds a spare trump for."""
    value = 0.0
    suits = [0, 0, 0, 0]
    for card in hand:
        if card != JOKER:
            suits[card & 3] += 1
    for card in hand:
        if card == JOKER:
            value += _JOKER_VALUE
            continue
        rank, suit = card >> 2, card & 3
        if suit == trump:
            value += _TRUMP_VALUE[rank]
        else:
            value += _SIDE_VALUE[rank]
            if rank == KING and 4 * ACE + suit in hand:
                value += _GUARDED_KING
    if trump != NO_TRUMP and len(hand) >= 4:
        voids = sum(1 for s in range(4) if s != trump and suits[s] == 0)
        value += _RUFF_VALUE * min(voids, max(suits[trump] - 1, 0))
    return value


def rules_bid(estimate: float, legal: Sequence[int]) -> int:
    """The legal bid nearest ``estimate`` (ties: the lower)."""
    return min(legal, key=lambda b: (abs(b - estimate), b))


def wants_trick(kind: int, bid: int | None, taken: int) -> bool:
    """Whether a seat tries to take the next trick: always in maximum deals, never in minimum
    deals, otherwise while it is under its bid."""
    if kind == MAXIMUM:
        return True
    if kind == MINIMUM:
        return False
    return taken < (bid or 0)


# --- play ----------------------------------------------------------------------------------------
def rules_play(
    hand: Sequence[int],
    options: Sequence[int],
    trick: Sequence[int],
    trump: int,
    want: bool,
    trumps_out: int,
) -> tuple[int, int]:
    """The rules policy's card among ``options`` (the legal cards of ``hand`` for ``trick``), and
    the suit it names when it leads a joker (else ``NO_TRUMP``).

    ``want``: it tries to take this trick; ``trumps_out``: natural trumps neither in its hand,
    nor played, nor turned (the others may hold them).
    """
    if not trick:
        return _lead(hand, trump, want, trumps_out)
    if len(options) == 1:
        return options[0], NO_TRUMP
    strength = _STRENGTH[trump].__getitem__
    best = trick[winner_index(trick, trump)]
    winning = [c for c in options if beats(c, best, trump)]
    last = len(trick) == NUM_PLAYERS - 1
    if want:
        if not winning:
            return min(options, key=strength), NO_TRUMP
        if last:  # nobody comes after: the cheapest card that wins
            return min(winning, key=strength), NO_TRUMP
        natural = [c for c in winning if c != JOKER]  # keep a joker for a trick it surely takes
        return (max(natural, key=strength) if natural else JOKER), NO_TRUMP
    losing = [c for c in options if c not in winning]
    if losing:  # shed the most dangerous card that still loses
        return max(losing, key=strength), NO_TRUMP
    if last:  # the trick is ours whatever: get rid of the strongest card
        return max(options, key=strength), NO_TRUMP
    return min(options, key=strength), NO_TRUMP


def _lead(hand: Sequence[int], trump: int, want: bool, trumps_out: int) -> tuple[int, int]:
    strength = _STRENGTH[trump].__getitem__
    natural = [c for c in hand if c != JOKER]
    joker = len(natural) < len(hand)
    if not want:
        if natural:
            return min(natural, key=strength), NO_TRUMP
        return JOKER, 0  # only jokers left: the trick is ours whatever suit is named
    if joker and trump != NO_TRUMP and trumps_out > 0 and any(c & 3 == trump for c in natural):
        return JOKER, trump  # pull the others' best trumps under the joker
    top = [c for c in natural if c >> 2 == ACE or (c & 3 == trump and c >> 2 >= KING)]
    if top:
        return max(top, key=strength), NO_TRUMP
    if joker:
        if trump != NO_TRUMP:
            return JOKER, trump
        # Name the suit of our best card: the others must play their highest of it.
        return JOKER, (max(natural, key=lambda c: c >> 2) & 3) if natural else 0
    return max(natural, key=strength), NO_TRUMP


def reference_play_out(
    world: World, trump: int, kind: int, turned_trump: int, observer_wants: bool | None = None
) -> None:
    """:func:`~.playout.play_out` written plainly, a card at a time through the rules policy's
    own functions (:func:`~pokerzoo.envs.nameless_poker.deals.follow_options`,
    :func:`wants_trick`, :func:`rules_play`, :func:`~.playout.put`): the specification the fast
    play-out is tested against card for card, and its baseline in
    ``benchmarks/nameless_playout.py``."""
    while True:
        seat = (world.leader + len(world.trick)) % NUM_PLAYERS
        hand = world.hands[seat]
        if not hand:
            return
        options = follow_options(hand, world.trick, trump, world.called)
        if seat == 0 and observer_wants is not None:
            want = observer_wants
        else:
            want = wants_trick(kind, world.bids[seat], world.tricks[seat])
        out = 0
        if trump != NO_TRUMP:
            own = sum(1 for c in hand if c != JOKER and c & 3 == trump)
            out = 13 - own - world.trumps_played - turned_trump
        card, called = rules_play(hand, options, world.trick, trump, want, out)
        put(world, seat, card, called, trump)
