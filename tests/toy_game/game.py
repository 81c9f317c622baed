"""The rules of "take two" (see the package docstring), in the engine contract of
:mod:`pokerzoo.envs.core.game`: the observation, each seat's info (:data:`INFO_SCHEMA`) and the
whole state (:data:`STATE_LAYOUT`, ``env.state()``) included."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from pokerzoo.envs.core.cards import CardsLike, Deck, format_card, format_cards
from pokerzoo.envs.core.game import Engine, Payout
from pokerzoo.envs.core.info import InfoKey, InfoSchema
from pokerzoo.envs.core.observation import Field, ObservationLayout
from pokerzoo.envs.core.options import check_choice

ROW = 5
TAKES = 2
_MAX_TOTAL = 2 * 12  # two aces
LAYOUT = ObservationLayout(
    [
        Field("ranks", ROW, 12, "rank of each card of the row (2 = 0 .. A = 12)"),
        Field("mine", ROW, 1, "the card is taken by me"),
        Field("theirs", ROW, 1, "the card is taken by the other player"),
    ],
    dtype=np.float32,
)
INFO_SCHEMA = InfoSchema(
    [
        InfoKey("totals", "int", (2,), "each seat's rank total at the end; zeros until then"),
        InfoKey(
            "winner", "int", (), "the seat with the higher total; -1 until the end and on a tie"
        ),
    ]
)
STATE_LAYOUT = ObservationLayout(
    [
        Field("ranks", ROW, 12, "rank of each card of the row"),
        Field("owner", 2 * ROW, 1, "seat `s` took card `i`: index `5 + 5 * s + i`"),
        Field("to_act", 2, 1, "the seat to act, one-hot; zeros once over"),
        Field("totals", 2, _MAX_TOTAL, "each seat's rank total of the cards it took so far"),
    ],
    dtype=np.float32,
)
_DECK = Deck()


@dataclass
class TakeTwoState:
    row: list[int]
    """The five cards, face up."""
    owner: list[int]
    """Who took each card (-1: still there)."""


class TakeTwoGame(Engine[TakeTwoState]):
    """Two players take two of five face-up cards; the higher rank total wins."""

    num_players = 2
    num_actions = ROW
    simultaneous = False
    layout = LAYOUT
    info_schema = INFO_SCHEMA
    info_shared = True  # every seat is told the same
    state_layout = STATE_LAYOUT
    action_noun = "card"

    def __init__(self, payoff: str = "win") -> None:
        self.payoff = check_choice("payoff", payoff, ("win", "margin"))

    def deal(self, rng: np.random.Generator) -> list[int]:
        return rng.permutation(_DECK.cards)[:ROW].tolist()

    def new_state(
        self, cards: CardsLike | None = None, *, rng: np.random.Generator | None = None
    ) -> TakeTwoState:
        if cards is None:
            if rng is None:
                raise ValueError("new_state needs the five cards or an rng")
            cards = self.deal(rng)
        return TakeTwoState(_DECK.parse(cards, count=ROW, what="row"), [-1] * ROW)

    def current_player(self, state: TakeTwoState) -> int:
        if self.is_terminal(state):
            return -1
        return (ROW - state.owner.count(-1)) % 2

    def legal_mask(self, state: TakeTwoState, player: int) -> np.ndarray:
        mask = np.zeros(ROW, dtype=np.int8)
        if player == self.current_player(state):
            mask[[i for i, o in enumerate(state.owner) if o < 0]] = 1
        return mask

    action_noun = "card"

    def transition(self, state: TakeTwoState, player: int, action: int) -> Payout | None:
        card = action
        state.owner[card] = player
        if not self.is_terminal(state):
            return None
        totals = _totals(state)
        margin = float(totals[0] - totals[1])
        first = margin if self.payoff == "margin" else float(np.sign(margin))
        return Payout((first, 0.0 - first))

    def is_terminal(self, state: TakeTwoState) -> bool:
        return state.owner.count(-1) == ROW - 2 * TAKES

    def observe(self, state: TakeTwoState, player: int) -> np.ndarray:
        obs = LAYOUT.zeros()
        obs[LAYOUT["ranks"]] = [c >> 2 for c in state.row]
        obs[LAYOUT["mine"]] = [o == player for o in state.owner]
        obs[LAYOUT["theirs"]] = [o == 1 - player for o in state.owner]
        return obs

    def info(self, state: TakeTwoState, player: int) -> dict:
        if not self.is_terminal(state):
            return {"totals": np.zeros(2, dtype=np.int64), "winner": -1}
        totals = _totals(state)
        winner = -1 if totals[0] == totals[1] else int(totals[1] > totals[0])
        return {"totals": np.array(totals, dtype=np.int64), "winner": winner}

    def encode_state(self, state: TakeTwoState) -> np.ndarray:
        out = STATE_LAYOUT.zeros()
        out[STATE_LAYOUT["ranks"]] = [c >> 2 for c in state.row]
        owner = STATE_LAYOUT.start("owner")
        for i, o in enumerate(state.owner):
            if o >= 0:
                out[owner + ROW * o + i] = 1
        if not self.is_terminal(state):
            out[STATE_LAYOUT.start("to_act") + self.current_player(state)] = 1
        out[STATE_LAYOUT["totals"]] = _totals(state)
        return out

    def describe_action(self, action: int) -> str:
        return f"card {action}"

    def render(self, state: TakeTwoState) -> str:
        taken = [
            f"{format_card(c)}:{'-' if o < 0 else o}"
            for c, o in zip(state.row, state.owner, strict=True)
        ]
        return f"row {format_cards(state.row)} | {' '.join(taken)}"


def _totals(state: TakeTwoState) -> list[int]:
    """Each seat's rank total of the cards it took."""
    return [
        sum(c >> 2 for c, o in zip(state.row, state.owner, strict=True) if o == p) for p in range(2)
    ]
