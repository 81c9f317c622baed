"""The rules policy of poker without a name (pokerzoo.envs.nameless_poker.analysis) on
hand-made tricks and hands: the card it plays, its joker leads, its trick estimates and bids."""

from __future__ import annotations

import pytest
from pokerzoo.envs.core.cards import JOKER, parse_card, parse_cards
from pokerzoo.envs.nameless_poker.analysis import expected_tricks, rules_bid, rules_play
from pokerzoo.envs.nameless_poker.deals import follow_options

# --- the rules policy ----------------------------------------------------------------------------
# (case, hand, trick, trump, wants the trick, the card it plays)
PLAYS = [
    ("last, wanting: the cheapest winner", "Ah Qh 3h", "9h Jh Th", 0, True, "Qh"),
    ("last, shedding: the highest loser", "Ah Qh 3h", "9h Jh Th", 0, False, "3h"),
    ("shedding: the highest card that still loses", "Ah Th 3h", "9h Jh", 0, False, "Th"),
    ("wanting, no winner: the cheapest card", "Qh 3h", "9h Kh", 0, True, "3h"),
    ("void, wanting, not last: the highest trump", "2s Ks 9d", "9h Kh", 0, True, "Ks"),
    ("void, wanting, last: the lowest trump", "2s Ks 9d", "9h Kh 3h", 0, True, "2s"),
    ("no trump, void, wanting, no winner: the cheapest", "2s 9d", "9h Kh", -1, True, "2s"),
    ("no trump, void, shedding: the highest loser", "2s 9d", "9h Kh", -1, False, "9d"),
    ("not last, wanting: a natural winner before the joker", "Ks Jk 2d", "9h", 0, True, "Ks"),
    ("everything wins, not last: the weakest", "As Jk", "9h", 0, False, "As"),
    ("leading, shedding: the weakest natural", "Ah 2c 3s", "", 0, False, "2c"),
    ("leading, wanting: an ace", "Ah 2c 3s", "", 0, True, "Ah"),
]


@pytest.mark.parametrize(
    ("case", "hand", "trick", "trump", "want", "card"), PLAYS, ids=[p[0] for p in PLAYS]
)
def test_rules_play(case: str, hand: str, trick: str, trump: int, want: bool, card: str) -> None:
    cards, played = sorted(parse_cards(hand)), parse_cards(trick)
    options = follow_options(cards, played, trump, -1)
    assert rules_play(cards, options, played, trump, want, trumps_out=5) == (parse_card(card), -1)


def test_a_joker_lead_pulls_trumps_when_it_holds_trumps() -> None:
    hand = sorted(parse_cards("Jk Ks 4s 9d"))
    assert rules_play(hand, hand, [], 0, True, trumps_out=6) == (JOKER, 0)
    assert rules_play(hand, hand, [], 0, True, trumps_out=0)[0] != JOKER  # nothing to pull
    assert rules_play(hand, hand, [], 0, False, trumps_out=6)[0] != JOKER  # not when shedding


@pytest.mark.parametrize(
    ("hand", "trump", "low", "high"),
    [
        ("2c", 0, 0.0, 0.2),
        ("Jk", 0, 0.9, 1.0),
        ("As Ks Qs Jk", 0, 3.0, 4.0),  # trump honours and a joker
        ("Ah Kh 2d 3d", 0, 1.2, 1.4),  # a side ace and its guarded king
        ("As Ks 3s 2s 9h 8h 7h 6h", 0, 2.5, 3.5),  # two voids to ruff with spare trumps
    ],
)
def test_expected_tricks(hand: str, trump: int, low: float, high: float) -> None:
    assert low <= expected_tricks(parse_cards(hand), trump) <= high


def test_rules_bid_takes_the_nearest_legal_bid() -> None:
    assert rules_bid(2.4, [0, 1, 2, 3]) == 2
    assert rules_bid(2.4, [0, 1, 3]) == 3  # the dealer restriction took 2
    assert rules_bid(2.0, [0, 1, 3]) == 1  # a tie goes to the lower bid
