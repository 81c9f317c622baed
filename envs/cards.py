"""Public alias of :mod:`pokerzoo.envs.core.cards` (cards, card notation and decks):
the module path RULES §6 and the README document."""

from .core.cards import (
    JOKER,
    NUM_CARD_IDS,
    RANKS,
    SUITS,
    CardsLike,
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
