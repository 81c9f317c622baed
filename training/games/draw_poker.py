"""Draw poker's training hooks: what ``pokerzoo play`` shows a person and how it reads a move.

A person types ``fold``, ``check`` or ``call``, ``bet`` or ``raise``, ``stand pat`` (or
``pat``), or ``discard As Kd`` naming the cards to throw away.
"""

from __future__ import annotations

import numpy as np

from ...envs.core.betting import CALL, FOLD, RAISE
from ...envs.core.cards import format_card, format_cards, parse_cards
from ...envs.draw_poker import PHASES, STAND_PAT, decode_observation, discard_action
from ..hooks import TrainingHooks

__all__ = ["HOOKS", "describe", "move_text", "parse_move"]

_WORDS = {"fold": FOLD, "check": CALL, "call": CALL, "bet": RAISE, "raise": RAISE}


def describe(observation: np.ndarray) -> str:
    """The person's cards, the pot, the bet to call and every stack, by absolute seat."""
    view = decode_observation(observation)
    n = view.num_players
    relative = [(seat - view.seat) % n for seat in range(n)]  # the view's seats are relative
    stacks = ", ".join(
        f"player_{seat} {view.stacks[k]}{'' if view.in_hand[k] else ' (out)'}"
        for seat, k in enumerate(relative)
    )
    return (
        f"hand {view.hand_number}, {PHASES[view.phase]}; you are player_{view.seat}, "
        f"player_{(view.seat + view.dealer) % n} deals\n"
        f"your cards: {format_cards(view.cards)}\n"
        f"pot {view.pot}, to call {view.to_call}; stacks: {stacks}"
    )


def parse_move(answer: str, observation: np.ndarray, mask: np.ndarray) -> int:
    """``"raise"`` -> 2, ``"discard As Kd"`` -> the draw action throwing those two away."""
    words = answer.split()
    if not words:
        raise ValueError("type fold, check, call, bet, raise, stand pat or discard CARDS")
    if words[0] in _WORDS and len(words) == 1:
        return _WORDS[words[0]]
    if answer in ("stand pat", "pat", "stand"):
        return STAND_PAT
    if words[0] == "discard":
        hand = decode_observation(observation).cards
        cards = parse_cards(" ".join(words[1:]))
        missing = [format_card(c) for c in cards if c not in hand]
        if missing:
            raise ValueError(
                f"you do not hold {', '.join(missing)}: your cards are {format_cards(hand)}"
            )
        return discard_action(hand.index(c) for c in cards)
    raise ValueError(
        f"bad move {answer!r}: type fold, check, call, bet, raise, stand pat or discard CARDS"
    )


def move_text(action: int, observation: np.ndarray) -> str:
    """How :func:`parse_move` reads ``action`` back (``"discard As Kd"``)."""
    if action < STAND_PAT:
        return ("fold", "call", "raise")[action]
    hand = decode_observation(observation).cards
    thrown = [hand[i] for i in range(len(hand)) if (action - STAND_PAT) >> i & 1]
    return f"discard {format_cards(thrown)}" if thrown else "stand pat"


HOOKS = TrainingHooks(
    describe=describe,
    parse_action=parse_move,
    action_text=move_text,
    prompt="fold / check / call / bet / raise / stand pat / discard CARDS",
    play_bot="rules",
)
