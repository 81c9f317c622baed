"""Five-card stud's training hooks: what ``pokerzoo play`` shows a person and how it reads a move
(``fold``, ``check`` or ``call``, ``bet`` or ``raise``)."""

from __future__ import annotations

import numpy as np

from ...envs.core.betting import CALL, FOLD, RAISE
from ...envs.core.cards import format_cards
from ...envs.five_card_stud import decode_observation
from ..hooks import TrainingHooks

__all__ = ["HOOKS", "describe", "parse_move"]

_WORDS = {"fold": FOLD, "check": CALL, "call": CALL, "bet": RAISE, "raise": RAISE}


def describe(observation: np.ndarray) -> str:
    """The person's cards, every seat's up cards, stacks and bets, the pot and the call."""
    view = decode_observation(observation)
    lines = [f"hand {view.hand_number}; you are player_{view.seat}; round {view.round + 1} of 4"]
    lines.append(f"your cards: {format_cards(view.hole)} (down) {format_cards(view.up[0])} (up)")
    for k in range(1, view.num_players):
        seat = (view.seat + k) % view.num_players
        state = "in" if view.in_hand[k] else "out"
        lines.append(
            f"player_{seat}: {format_cards(view.up[k])} showing, stack {view.stacks[k]}, "
            f"bet {view.round_bets[k]}, {state}"
        )
    lines.append(f"pot {view.pot}, to call {view.to_call}, bet size {view.bet_size}")
    return "\n".join(lines)


def parse_move(answer: str, observation: np.ndarray, mask: np.ndarray) -> int:
    """``"call"`` -> 1."""
    if answer not in _WORDS:
        raise ValueError(f"bad move {answer!r}: type fold, check, call, bet or raise")
    return _WORDS[answer]


HOOKS = TrainingHooks(
    describe=describe,
    parse_action=parse_move,
    action_text=lambda action, observation: ("fold", "call", "raise")[action],
    prompt="fold / check / call / bet / raise",
    play_bot="rules",
)
