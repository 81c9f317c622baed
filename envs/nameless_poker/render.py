"""A spectator's text view of "poker without a name": public information only (no hand is shown).

>>> from pokerzoo.envs.nameless_poker import NamelessPokerGame
>>> game = NamelessPokerGame(deals=[3])
>>> print(game.render(game.new_state("As Kd Qh Jc Ts 9d 8h 7c 6s 5d 4h 3c 2h")))
Deal 3 (regular, 3 cards each), 1 of 1 in the episode; dealer player_0; turned 2h: trump h
seat      bid  tricks  total  cards
player_0    -       0      0      3
player_1    -       0      0      3  <- to bid
player_2    -       0      0      3
player_3    -       0      0      3
"""

from __future__ import annotations

from ..core.cards import SUITS, format_card, format_cards
from .deals import DEAL_KINDS, NO_TRUMP, NUM_PLAYERS
from .state import NamelessPokerState

__all__ = ["render_text"]


def render_text(state: NamelessPokerState) -> str:
    """The deal, the trump, each seat's bid, tricks, total and cards left, the trick in play and
    the last trick taken; the result once the episode is over."""
    size = state.hand_size
    trump = "no trump" if state.trump == NO_TRUMP else f"trump {SUITS[state.trump]}"
    position = min(state.deal_index, len(state.deals) - 1) + 1
    lines = [
        f"Deal {state.deal} ({DEAL_KINDS[state.kind]}, {size} card{'s' * (size > 1)} each), "
        f"{position} of {len(state.deals)} in the episode; dealer player_{state.dealer}; "
        f"turned {format_card(state.turned)}: {trump}",
        "seat      bid  tricks  total  cards",
    ]
    over = state.to_act < 0
    verb = "bid" if state.bidding else "play"
    for seat in range(NUM_PLAYERS):
        bid = state.bids[seat]
        row = (
            f"player_{seat}  {'-' if bid is None else bid:>3}  {state.tricks[seat]:>6}  "
            f"{state.totals[seat]:>5}  {len(state.hands[seat]):>5}"
        )
        if seat == state.to_act:
            row += f"  <- to {verb}"
        lines.append(row)
    if state.trick:
        called = "" if state.called == NO_TRUMP else f", Jk calling {SUITS[state.called]}"
        lines.append(f"trick (led by player_{state.leader}{called}): {format_cards(state.trick)}")
    if state.last_trick is not None:
        cards, leader, winner = state.last_trick
        lines.append(
            f"last trick (led by player_{leader}): {format_cards(cards)}, taken by player_{winner}"
        )
    if over:
        winners = state.results[-1]["winners"]
        names = ", ".join(f"player_{s}" for s in winners)
        lines.append(
            f"episode over: {'winners' if len(winners) > 1 else 'winner'} {names} with "
            f"{state.totals[winners[0]]}"
        )
    return "\n".join(lines)
