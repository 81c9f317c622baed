"""Card notation, card ids and decks (RULES preamble: notation; §1, §2 and §3: decks)."""

from __future__ import annotations

import random
import re

import numpy as np
import pytest
from pokerzoo.envs.core.cards import (
    JOKER,
    NUM_CARD_IDS,
    RANKS,
    SUITS,
    Deck,
    card_id,
    card_rank,
    card_suit,
    format_card,
    format_cards,
    make_deck,
    parse_card,
    parse_cards,
    shuffled,
)

ALL_TOKENS = [r + s for r in RANKS for s in SUITS] + ["Jk"]


# --- ids and notation ------------------------------------------------------------------------
@pytest.mark.parametrize("card", range(NUM_CARD_IDS))
def test_notation_round_trip_for_every_id(card: int) -> None:
    token = format_card(card)
    assert token == ALL_TOKENS[card]
    assert parse_card(token) == card
    assert parse_cards(token) == [card]


def test_every_id_is_four_times_rank_plus_suit() -> None:
    for rank in range(13):
        for suit in range(4):
            card = card_id(rank, suit)
            assert card == 4 * rank + suit
            assert (card_rank(card), card_suit(card)) == (rank, suit)
    assert JOKER == 52 and format_card(JOKER) == "Jk"


@pytest.mark.parametrize(
    ("token", "expected"),
    [
        ("2s", 0),
        ("2h", 1),
        ("2d", 2),
        ("2c", 3),
        ("As", 48),
        ("Ac", 51),
        ("AS", 48),
        ("as", 48),
        ("aS", 48),
        ("Td", 34),
        ("td", 34),
        ("10d", 34),
        ("10D", 34),
        ("tD", 34),
        ("Jk", JOKER),
        ("JK", JOKER),
        ("jk", JOKER),
        ("jK", JOKER),
        (" Qh ", 41),
        (7, 7),
        (np.int8(52), JOKER),
        (np.int64(0), 0),
    ],
)
def test_parse_card_accepts_every_spelling(token: str | int, expected: int) -> None:
    assert parse_card(token) == expected


@pytest.mark.parametrize(
    ("cards", "expected"),
    [
        ("As Kd Jk", [48, 46, JOKER]),
        ("As,Kd, jk", [48, 46, JOKER]),
        ("10s 10h 10d 10c", [32, 33, 34, 35]),
        (["As", "kd", 52], [48, 46, JOKER]),
        ([0, 51, 52], [0, 51, JOKER]),
        (np.array([3, 4], dtype=np.int8), [3, 4]),
        ((c for c in ("2s", "3h")), [0, 5]),
        ("", []),
        ([], []),
    ],
)
def test_parse_cards_accepts_strings_lists_and_ids(cards: object, expected: list[int]) -> None:
    assert parse_cards(cards) == expected


def test_format_cards_writes_canonical_notation() -> None:
    assert format_cards(parse_cards("as 10d jk 7H")) == "As Td Jk 7h"
    assert format_cards(np.arange(NUM_CARD_IDS)) == " ".join(ALL_TOKENS)
    assert format_cards([]) == ""


@pytest.mark.parametrize(
    "token", ["1s", "Ax", "", "10", "1", "A", "s", "Ass", "Tk", "J k", "Joker", "11s", "0s", "AsKs"]
)
def test_malformed_string_raises_naming_the_token(token: str) -> None:
    with pytest.raises(ValueError, match=repr(token).replace("\\", "\\\\")):
        parse_card(token)


@pytest.mark.parametrize("token", [53, -1, 100, True, False, 1.0, None, b"As", np.int16(-3)])
def test_malformed_id_raises_naming_the_token(token: object) -> None:
    with pytest.raises(ValueError, match=str(token)):
        parse_card(token)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("cards", "bad"),
    [
        ("As 1s Kd", "'1s'"),
        ("As Ax", "'Ax'"),
        (["As", ""], "''"),
        (["10"], "'10'"),
        ([0, 53], "53"),
        ([-1], "-1"),
        ([True], "True"),
        (np.array([1, 60]), "60"),
    ],
)
def test_parse_cards_names_the_first_bad_token(cards: object, bad: str) -> None:
    with pytest.raises(ValueError, match=bad):
        parse_cards(cards)


@pytest.mark.parametrize("cards", [7, None, np.zeros((2, 5), dtype=np.int8)])
def test_parse_cards_rejects_non_sequences(cards: object) -> None:
    with pytest.raises(ValueError):
        parse_cards(cards)


@pytest.mark.parametrize("card", [53, -1, True, "As", 2.0])
def test_format_card_rejects_bad_ids(card: object) -> None:
    with pytest.raises(ValueError, match=repr(card)):
        format_card(card)  # type: ignore[arg-type]


@pytest.mark.parametrize(("rank", "suit"), [(13, 0), (-1, 0), (0, 4), (0, -1)])
def test_card_id_rejects_out_of_range_indices(rank: int, suit: int) -> None:
    with pytest.raises(ValueError, match="out of range"):
        card_id(rank, suit)


# --- decks -----------------------------------------------------------------------------------
@pytest.mark.parametrize("kind", ["standard", "piquet"])
@pytest.mark.parametrize("jokers", [0, 1, 2, 3, 4])
@pytest.mark.parametrize("decks", [1, 2])
def test_make_deck_sizes_and_contents(kind: str, jokers: int, decks: int) -> None:
    deck = make_deck(kind, jokers=jokers, decks=decks)  # type: ignore[arg-type]
    ordinary = 52 if kind == "standard" else 32
    assert deck.dtype == np.int8
    assert deck.shape == (ordinary * decks + jokers,)
    assert int((deck == JOKER).sum()) == jokers
    natural = deck[deck != JOKER]
    lowest = 0 if kind == "standard" else RANKS.index("7")
    expected = [4 * r + s for r in range(lowest, 13) for s in range(4)]
    assert sorted(natural.tolist()) == sorted(expected * decks)


def test_piquet_deck_is_seven_to_ace() -> None:
    assert format_cards(make_deck("piquet")[:4]) == "7s 7h 7d 7c"
    assert {format_card(c)[0] for c in make_deck("piquet")} == set("789TJQKA")


def test_make_deck_default_is_one_standard_deck() -> None:
    assert make_deck().tolist() == list(range(52))


@pytest.mark.parametrize(
    ("kwargs", "bad"),
    [
        ({"kind": "pinochle"}, "pinochle"),
        ({"kind": "Standard"}, "Standard"),
        ({"jokers": 5}, "5"),
        ({"jokers": -1}, "-1"),
        ({"jokers": True}, "True"),
        ({"jokers": 1.0}, "1.0"),
        ({"decks": 0}, "0"),
        ({"decks": 3}, "3"),
        ({"decks": True}, "True"),
        ({"decks": "2"}, "'2'"),
    ],
)
def test_make_deck_rejects_bad_options(kwargs: dict[str, object], bad: str) -> None:
    with pytest.raises(ValueError, match=bad):
        make_deck(**kwargs)  # type: ignore[arg-type]


def test_shuffled_is_a_reproducible_permutation() -> None:
    deck = make_deck(jokers=2, decks=2)
    a = shuffled(deck, np.random.default_rng(7))
    b = shuffled(deck, np.random.default_rng(7))
    c = shuffled(deck, np.random.default_rng(8))
    assert np.array_equal(a, b)
    assert not np.array_equal(a, c)
    assert sorted(a.tolist()) == sorted(deck.tolist())
    assert a.dtype == deck.dtype
    assert np.array_equal(deck, make_deck(jokers=2, decks=2))  # the input is left unchanged


@pytest.mark.parametrize("rng", [None, 7, np.random.RandomState(7), random.Random(7)])
def test_shuffled_only_accepts_a_generator(rng: object) -> None:
    with pytest.raises(TypeError, match="Generator"):
        shuffled(make_deck(), rng)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "cards", ["As Kd 10h jk", ["As", "Kd", "10h", "jk"], [48, 46, 33, 52], "as,KD ,Th Jk"]
)
def test_format_cards_takes_every_card_form(cards: object) -> None:
    # one string is parsed as cards, not read letter by letter
    assert format_cards(cards) == "As Kd Th Jk"  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("deck", "cards", "message"),
    [
        (Deck(), "As As", "duplicate card As in hand: the pack (one 52-card deck) holds one"),
        (Deck(decks=2), "As As As", "card As appears 3 times in hand"),
        (Deck(jokers=2), "Jk Jk Jk", "too many jokers in hand: 3"),
        (Deck(), "Jk", "card Jk in hand is not in the pack (one 52-card deck)"),
        (Deck("piquet"), "6s", "card 6s in hand is not in the pack"),
    ],
)
def test_deck_parse_names_what_the_pack_cannot_supply(deck: Deck, cards: str, message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        deck.parse(cards)
    assert Deck(decks=2, jokers=4).parse("As As Jk Jk Jk", count=5) == [48, 48, 52, 52, 52]
    with pytest.raises(ValueError, match=re.escape("pack: expected 5 cards, got 2")):
        deck.parse("As Kd", count=5, what="pack")
