"""The spectator's text view of a five-card stud game: up cards, stacks and bets, never a
face-down card before it is shown (the last hand's showdown, once over, lists the hands shown).

::

    Five-card stud  hand 1/1  round 2/4 (bet 1)  pot 6
      player_0 D  stack  97  in   3  round   1  ## Kd 7c
    > player_1    stack  97  in   3  round   1  ## Ah 9h
"""

from __future__ import annotations

from ..core.betting import BETTING_ACTIONS, CALL, RAISE
from ..core.cards import format_card
from .state import NUM_ROUNDS, FiveCardStudState

__all__ = ["render_text"]


def _seat_line(state: FiveCardStudState, seat: int) -> str:
    options = state.options
    betting = state.betting
    marker = ">" if not state.over and betting.actor == seat else " "
    dealer = "D" if seat == state.dealer else " "
    if not betting.dealt[seat]:
        return f"{marker} player_{seat} {dealer}  stack {betting.stacks[seat]:>3}  sitting out"
    cards = " ".join(
        format_card(int(c)) if options.face_up(p) else "##"
        for p, c in enumerate(state.cards[seat])
        if c >= 0
    )
    status = "  folded" if betting.folded[seat] else ""
    if betting.in_hand(seat) and betting.stacks[seat] == 0:
        status = "  all-in"
    return (
        f"{marker} player_{seat} {dealer}  stack {betting.stacks[seat]:>3}  "
        f"in {betting.committed[seat]:>3}  round {betting.round_bets[seat]:>3}  {cards}{status}"
    )


def _result_lines(result: dict) -> list[str]:
    lines = [f"hand {result['hand']} result:"]
    for seat, (cards, name) in enumerate(zip(result["shown"], result["categories"], strict=True)):
        if cards is not None:
            lines.append(f"  player_{seat} shows {cards} ({name})")
    for i, pot in enumerate(result["pots"]):
        label = "main pot" if i == 0 else f"side pot {i}"
        shares = ", ".join(f"player_{s} +{c}" for s, c in pot["shares"].items())
        lines.append(f"  {label} {pot['amount']}: {shares}")
    chips = ", ".join(f"player_{s} {c:+d}" for s, c in enumerate(result["chips"]))
    lines.append(f"  chips: {chips}")
    return lines


def render_text(state: FiveCardStudState) -> str:
    """The text view of ``state`` (module docstring)."""
    options = state.options
    betting = state.betting
    rules = betting.rules
    round_text = f"round {betting.round + 1}/{NUM_ROUNDS} (bet {rules.bet if rules else 0})"
    header = f"Five-card stud  hand {state.hand + 1}/{options.hands}  {round_text}  pot {state.pot}"
    if state.over:
        header += "  game over"
    lines = [header]
    lines += [_seat_line(state, seat) for seat in range(options.num_players)]
    if betting.history:
        names = []
        opened: set[int] = set()  # rounds with a bet in them: a later bet/raise is a raise
        for bet in betting.history:
            name = BETTING_ACTIONS[bet.action]
            if bet.action == CALL:
                name = "call" if bet.amount else "check"
            elif bet.action == RAISE:
                name = "raise" if bet.round in opened else "bet"
                opened.add(bet.round)
            names.append(f"player_{bet.seat} {name}")
        lines.append("last moves: " + ", ".join(names[-8:]))
    if state.results and (state.over or state.results[-1]["hand"] == state.hand):
        lines += _result_lines(state.results[-1])
    return "\n".join(lines)
