"""The scripted API of poker without a name (RULES §6): ``trick_winner``, ``legal_plays`` and
``deal_score`` on hand-made cases, their validation, and their agreement with the engine."""

from __future__ import annotations

import doctest
from types import ModuleType

import numpy as np
import pytest
from pokerzoo.envs.core.cards import JOKER, SUITS, format_card, parse_cards
from pokerzoo.envs.nameless_poker import (
    LEAD_JOKER,
    PLAY,
    NamelessPokerGame,
    api,
    deal_score,
    legal_plays,
    render,
    rules,
    trick_winner,
)

# (rule, hand, trick, trump, called suit, legal plays)
LEGAL = [
    ("leading: any card, each once, sorted", "Jk Ah 2c Jk 9h", "", "s", None, "2c 9h Ah Jk"),
    ("follow suit", "Kh 2h As Jk", "9h", "s", None, "2h Kh"),
    ("void: a trump or a joker", "As 3s Kd Jk", "9h Ad", "s", None, "3s As Jk"),
    ("void, no trump nor joker: any", "Kd 2c", "9h", "s", None, "2c Kd"),
    ("no-trump deal, void: any", "As Kd Jk", "9h", None, None, "Kd As Jk"),
    ("trump led: trumps and jokers", "3s Ah Jk Jk", "9s", "s", None, "3s Jk"),
    ("joker led: the highest of the called suit", "7h Ah 3s", "Jk", "s", "h", "Ah"),
    ("joker led naming trump", "As 3s Kh Jk", "Jk", "S", "s", "As"),
    ("joker led, void: a trump or the joker", "Kd 3s Jk", "Jk 2d", "s", "H", "3s Jk"),
    ("joker led, void, none of those: any", "Kd 2c", "Jk", "s", "h", "2c Kd"),
    ("the joker played second changes nothing for the third", "Kh 2d", "9h Jk", "s", None, "Kh"),
]


@pytest.mark.parametrize(
    ("rule", "hand", "trick", "trump", "called", "expected"), LEGAL, ids=[r[0] for r in LEGAL]
)
def test_legal_plays(
    rule: str, hand: str, trick: str, trump: str | None, called: str | None, expected: str
) -> None:
    assert legal_plays(hand, trick, trump, called) == expected.split()


# (rule, trick, trump, called suit, winner)
WINNERS = [
    ("the lead alone", "9h", "s", None, 0),
    ("highest of the led suit", "9h Kh 2h Ah", "s", None, 3),
    ("a trump", "9h Ah 3s Kh", "s", None, 2),
    ("the joker over trumps", "9h As Jk", "s", None, 2),
    ("the joker led", "Jk As Ah Kh", "s", "h", 0),
    ("the last of two jokers", "Jk 2h Jk Ah", "s", "h", 2),
    ("no trump", "9h Ah As Kd", None, None, 1),
]


@pytest.mark.parametrize(
    ("rule", "trick", "trump", "called", "winner"), WINNERS, ids=[r[0] for r in WINNERS]
)
def test_trick_winner(
    rule: str, trick: str, trump: str | None, called: str | None, winner: int
) -> None:
    assert trick_winner(trick, trump, called) == winner


def test_every_card_form_is_accepted() -> None:
    assert trick_winner(["9h", "10h"], "s") == 1
    assert trick_winner(parse_cards("9h Th"), "s") == 1
    assert legal_plays(["kh", "2H"], parse_cards("9h"), "s") == ["2h", "Kh"]
    assert legal_plays(parse_cards("Kh 2h"), ["9h"], trump=None) == ["2h", "Kh"]


# (rule, deal, bid, tricks, score)
SCORES = [
    ("t = b > 0: +10 t", 8, 3, 3, 30),
    ("t = b = 0: +5", 8, 0, 0, 5),
    ("t > b: +1 a trick", 8, 2, 5, 5),
    ("t > b = 0: +1 a trick", 1, 0, 1, 1),
    ("t < b: -10 a missing trick", 8, 4, 1, -30),
    ("dark deals score as regular", 20, 2, 2, 20),
    ("dark deal under", 22, 2, 0, -20),
    ("minimum: -10 a trick", 23, None, 3, -30),
    ("minimum, no trick", 26, None, 0, 0),
    ("maximum: +10 a trick", 27, None, 3, 30),
    ("maximum, every trick", 30, None, 8, 80),
]


@pytest.mark.parametrize(
    ("rule", "deal", "bid", "tricks", "expected"), SCORES, ids=[r[0] for r in SCORES]
)
def test_deal_score(rule: str, deal: int, bid: int | None, tricks: int, expected: int) -> None:
    assert deal_score(deal, bid, tricks) == expected


# (call, message)
BAD = [
    (lambda: trick_winner("", "s"), "bad trick '': expected 1 to 4 cards"),
    (lambda: trick_winner("9h Kh 2h Ah 3h", "s"), "expected 1 to 4 cards"),
    (lambda: trick_winner("9h Xh", "s"), "bad card 'Xh'"),
    (lambda: trick_winner("9h 9h", "s"), "duplicate card 9h in trick"),
    (lambda: trick_winner("Jk Jk Jk", "s", "h"), "too many jokers in trick"),
    (lambda: trick_winner("9h", "x"), "bad trump 'x': expected one of 's', 'h', 'd', 'c' or None"),
    (lambda: trick_winner("9h", 0), "bad trump 0"),
    (lambda: trick_winner("Jk 9h", "s"), "bad called_suit None: the trick opens with a joker"),
    (lambda: trick_winner("9h Jk", "s", "h"), "bad called_suit 'h': expected None"),
    (lambda: trick_winner("Jk 9h", "s", "spades"), "bad called_suit 'spades'"),
    (lambda: legal_plays("", "9h", "s"), "bad hand '': expected 1 to 8 cards"),
    (lambda: legal_plays("2s 3s 4s 5s 6s 7s 8s 9s Ts", "", "s"), "expected 1 to 8 cards"),
    (lambda: legal_plays("As", "9h Kh 2h Ah", "s"), "expected 0 to 3 cards played"),
    (lambda: legal_plays("As 9h", "9h", "s"), "duplicate card 9h in hand and trick together"),
    (lambda: legal_plays("Jk 2c", "Jk Jk", "s", "h"), "too many jokers in hand and trick"),
    (lambda: legal_plays("As Zz", "", "s"), "bad card 'Zz'"),
    (lambda: legal_plays("As", "Jk", "s"), "bad called_suit None"),
    (lambda: deal_score(0, 1, 1), "bad deal 0: expected an int in 1..30"),
    (lambda: deal_score(31, 1, 1), "bad deal 31"),
    (lambda: deal_score(1, 2, 0), "bad bid 2: expected an int in 0..1"),
    (lambda: deal_score(8, None, 0), "bad bid None: deal 8 needs a bid"),
    (lambda: deal_score(23, 0, 0), "bad bid 0: deal 23 has no bids"),
    (lambda: deal_score(3, 1, 4), "bad tricks 4: expected an int in 0..3"),
    (lambda: deal_score(3, 1.0, 1), "bad bid 1.0"),
]


@pytest.mark.parametrize(("call", "message"), BAD, ids=[m for _, m in BAD])
def test_bad_arguments_are_named(call: object, message: str) -> None:
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        call()  # type: ignore[operator]


def test_the_api_agrees_with_the_engine_over_random_games() -> None:
    """Every decision of random play: the mask is ``legal_plays``; every trick: its winner is
    ``trick_winner``; every deal: its scores are ``deal_score``."""
    game = NamelessPokerGame()
    checked = {"plays": 0, "tricks": 0, "deals": 0}
    for seed in range(3):
        state = game.new_state(rng=np.random.default_rng(seed))
        chooser = np.random.default_rng(seed)
        while not game.is_terminal(state):
            seat = game.current_player(state)
            mask = game.legal_mask(state, seat)
            choice = int(chooser.choice(np.flatnonzero(mask)))
            trump = None if state.trump < 0 else SUITS[state.trump]
            called = SUITS[state.called] if state.called >= 0 else None
            trick, deal, before = list(state.trick), state.deal, list(state.tricks)
            if not state.bidding:
                plays = {JOKER if a >= LEAD_JOKER else a - PLAY for a in np.flatnonzero(mask)}
                expected = legal_plays(state.hands[seat], trick, trump, called)
                assert [format_card(c) for c in sorted(plays)] == expected
                checked["plays"] += 1
            payout = game.apply(state, seat, choice)
            if len(trick) == 3:
                index = trick_winner([*trick, choice - PLAY], trump, called)
                winner = (seat + 1 + index) % 4  # the leader sits after the fourth card
                ended = payout is not None  # the deal's tricks are in the info then
                after = game.info(state, 0)["tricks"].tolist() if ended else state.tricks
                gained = [a - b for a, b in zip(after, before, strict=True)]
                assert gained == [int(s == winner) for s in range(4)]
                checked["tricks"] += 1
            if payout is not None:
                info = game.info(state, seat)
                bids = [None if b < 0 else int(b) for b in info["bids"]]
                assert info["deal"] == deal
                assert info["deal_scores"].tolist() == [
                    deal_score(deal, bids[s], int(info["tricks"][s])) for s in range(4)
                ]
                checked["deals"] += 1
    assert checked == {"plays": 3 * 4 * 184, "tricks": 3 * 184, "deals": 3 * 30}


@pytest.mark.parametrize("module", [api, rules, render], ids=lambda m: m.__name__)
def test_the_docstring_examples(module: ModuleType) -> None:
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0
