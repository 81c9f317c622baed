"""Poker without a name's training hooks: what ``pokerzoo play`` shows a person and how it reads
a move (``bid 3``, ``play Qh``, ``lead Jk calling hearts``)."""

from __future__ import annotations

import numpy as np

from ...envs.core.cards import JOKER, SUITS, format_card, format_cards, parse_card
from ...envs.nameless_poker import (
    ACTIONS,
    BID,
    LEAD_JOKER,
    NO_TRUMP,
    NUM_PLAYERS,
    PLAY,
    decode_observation,
)
from ..hooks import TrainingHooks

__all__ = ["HOOKS", "describe", "parse_move"]

_SUIT_NAMES = {"spades": 0, "hearts": 1, "diamonds": 2, "clubs": 3}


def describe(observation: np.ndarray) -> str:
    """The deal, trump, the person's hand, the bids and tricks, the trick on the table."""
    view = decode_observation(observation)

    def seat(relative: int) -> str:
        return f"player_{(view.seat + relative) % NUM_PLAYERS}"

    trump = "no trump" if view.trump == NO_TRUMP else f"trump {SUITS[view.trump]}"
    hand = "hidden until you bid (dark deal)" if view.hand_hidden else format_cards(view.hand)
    lines = [
        f"deal {view.deal} ({view.kind}, {view.hand_size} cards), {trump}; you are {seat(0)}",
        f"your hand: {hand}",
    ]
    for k in range(NUM_PLAYERS):
        bid = "-" if view.bids[k] is None else view.bids[k]
        lines.append(f"  {seat(k)}: bid {bid}, tricks {view.tricks[k]}, total {view.totals[k]}")
    if view.trick:
        played = ", ".join(
            f"{seat((view.leader + i) % NUM_PLAYERS)} {format_card(c)}"
            for i, c in enumerate(view.trick)
        )
        called = "" if view.called_suit == NO_TRUMP else f" (calling {SUITS[view.called_suit]})"
        lines.append(f"trick: {played}{called}")
    return "\n".join(lines)


def parse_move(answer: str, observation: np.ndarray, mask: np.ndarray) -> int:
    """``"bid 3"`` -> 3, ``"play Qh"`` -> the card's action, ``"lead Jk calling hearts"`` (or
    ``"lead Jk h"``) -> the joker lead naming hearts."""
    words = answer.split()
    if len(words) == 2 and words[0] == "bid" and words[1].isdigit():
        return BID + int(words[1])
    if len(words) == 2 and words[0] == "play":
        return PLAY + parse_card(words[1])
    if len(words) >= 3 and words[0] == "lead" and parse_card(words[1]) == JOKER:
        suit = words[-1]
        if suit in SUITS:
            return LEAD_JOKER + SUITS.index(suit)
        if suit in _SUIT_NAMES:
            return LEAD_JOKER + _SUIT_NAMES[suit]
    raise ValueError(f"bad move {answer!r}: type 'bid 3', 'play Qh' or 'lead Jk calling hearts'")


HOOKS = TrainingHooks(
    describe=describe,
    parse_action=parse_move,
    action_text=lambda action, observation: ACTIONS[action],
    prompt="bid N / play CARD / lead Jk calling SUIT",
    play_bot="rules",
)
