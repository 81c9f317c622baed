"""Draw poker's text view: what a spectator at the table may see.

The hand so far: who deals, the pot, each seat's stack, bet and state, every betting action and
draw in order, whose turn it is; the cards only when a showdown shows them (the last hand's
report, with its pots and winners, is kept until the next one ends). Hidden cards never appear.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..core.betting import CALL, FOLD
from .actions import PHASE_BET_AFTER, PHASE_BET_BEFORE, PHASE_DRAW, PHASE_OVER, PHASES
from .state import DrawPokerState

__all__ = ["render_text"]


def render_text(state: DrawPokerState) -> str:
    """The readable view of ``state`` (several lines, no trailing newline)."""
    betting = state.betting
    n = len(betting.stacks)
    lines = [
        f"Draw poker, hand {state.hand_number + 1} of {state.num_hands}: "
        f"player_{state.dealer} deals, pot {betting.pot}, {_turn(state)}"
    ]
    for seat in range(n):
        lines.append(f"  player_{seat}: {_seat_text(state, seat)}")
    for round_index, title in ((0, "before the draw"), (1, "after the draw")):
        acts = _betting_text(state, round_index)
        if acts:
            lines.append(f"  {title}: {acts}")
        if round_index == 0:
            draws = _draw_text(state)
            if draws:
                lines.append(f"  the draw: {draws}")
    if state.last_hand is not None:
        lines.append(_report_text(state.last_hand))
    return "\n".join(lines)


def _turn(state: DrawPokerState) -> str:
    phase = state.phase
    if phase == PHASE_OVER:
        return "the game is over"
    if phase == PHASE_DRAW:
        return f"the draw, player_{state.draw_queue[0]} to draw"
    betting = state.betting
    to_call = betting.current_bet - betting.round_bets[betting.actor]
    owed = f", {to_call} to call" if to_call else ""
    return f"{PHASES[phase]}, player_{betting.actor} to act{owed}"


def _seat_text(state: DrawPokerState, seat: int) -> str:
    betting = state.betting
    stack = f"stack {betting.stacks[seat]}"
    if not betting.dealt[seat]:
        return f"{stack}, sitting out"
    if betting.folded[seat]:
        status = "folded"
    elif betting.stacks[seat] == 0:
        status = "all-in"
    else:
        status = "in"
    parts = [stack, f"put in {betting.committed[seat]}", status]
    if state.phase in (PHASE_BET_BEFORE, PHASE_BET_AFTER) and betting.round_bets[seat]:
        parts.append(f"bet {betting.round_bets[seat]} this round")
    if state.drawn[seat] >= 0:
        parts.append(_drew(state.drawn[seat]))
    return ", ".join(parts)


def _drew(count: int) -> str:
    return "stood pat" if count == 0 else f"drew {count}"


def _betting_text(state: DrawPokerState, round_index: int) -> str:
    betting = state.betting
    # chips behind after the antes, replayed action by action to mark who went all-in
    behind = [s - c for s, c in zip(state.start_stacks, betting.committed, strict=True)]
    for bet in betting.history:
        behind[bet.seat] += bet.amount
    acts = []
    current = 0
    for bet in betting.history:
        behind[bet.seat] -= bet.amount
        if bet.round != round_index:
            continue
        if bet.action == FOLD:
            what = "folds"
        elif bet.action == CALL:
            what = f"calls {bet.amount}" if bet.amount else "checks"
        else:
            what = f"bets {bet.to}" if current == 0 else f"raises to {bet.to}"
        if bet.amount and behind[bet.seat] == 0:
            what += " all-in"
        current = bet.to
        acts.append(f"player_{bet.seat} {what}")
    return ", ".join(acts)


def _draw_text(state: DrawPokerState) -> str:
    n = len(state.drawn)
    seats = [(state.dealer + 1 + i) % n for i in range(n)]
    draws = []
    for seat in seats:
        count = state.drawn[seat]
        if count >= 0:
            draws.append(f"player_{seat} " + ("stands pat" if count == 0 else f"draws {count}"))
    return ", ".join(draws)


def _report_text(report: Mapping[str, Any]) -> str:
    if report["showdown"]:
        shown = [
            f"player_{seat} {cards} ({category})"
            for seat, (cards, category) in enumerate(
                zip(report["shown"], report["categories"], strict=True)
            )
            if cards is not None
        ]
        head = f"  hand {report['hand']} showdown: " + ", ".join(shown)
    else:
        head = f"  hand {report['hand']}: everybody else folded, no cards shown"
    pots = []
    for i, pot in enumerate(report["pots"]):
        name = "main pot" if i == 0 else f"side pot {i}"
        shares = ", ".join(f"player_{seat} {chips}" for seat, chips in pot["shares"].items())
        pots.append(f"{name} {pot['amount']}: {shares}")
    results = " ".join(f"{r:+d}" if r else "0" for r in report["results"])
    return f"{head}\n  {'; '.join(pots) or 'no pot'}; results {results}"
