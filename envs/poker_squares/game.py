"""Multi-player Poker Squares (RULES §3): every player places the same card on their own grid.

One shuffled deck announces the cards and each player fills their own 5x5 grid with them. A
round is 25 cards; after ``rounds`` rounds (each a fresh deal from the same generator) the
highest total wins. :class:`PokerSquaresGame` is the engine of the PettingZoo envs
(:mod:`.pettingzoo_env`), in the shape every game's engine has (:mod:`pokerzoo.envs.core.game`):
it is simultaneous, the seats place each card in seat order in the AEC env and all at once in
the parallel env, and nobody sees another's grid.

Rewards (``reward`` option): ``"final"`` (default), at each round's end, the player's own round
score; ``"incremental"``, each placement earns the points of the lines it completes (the same
totals); ``"margin"``, at each round's end, own round score minus the mean round score of the
other players (zero-sum).

Info
----
Every player's info holds the same keys at every step (:data:`INFO_SCHEMA`; the envs add
``masked_action`` with ``masked_action="random"``; the action mask is in the observation only),
numpy scalars and arrays from the envs: its own results of the last finished round and of the
game so far, neutral until a round ends. Nobody is told another player's grid or score.

{info_table}

State
-----
:meth:`PokerSquaresGame.encode_state` (``env.state()``): the whole table as one ``float32``
vector (:attr:`PokerSquaresGame.state_layout`), for a centralised critic: every grid, and the
round's 25 cards in placement order (the cards still to come included, which no player sees in
the ``"deal"`` variant). Each card is the observation's 18 features (rank one-hot 2..A, suit
one-hot s h d c, joker; zeros for no card). The per-seat fields hold one entry (or block) per
seat, seat ``s`` (``player_s``) ``s``-th; the table is the one of the default options (2
players, American scoring, one round):

{state_table}
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..core.cards import CardsLike
from ..core.errors import IllegalActionError
from ..core.game import Engine, Payout
from ..core.info import InfoKey, InfoSchema
from ..core.observation import Field, ObservationLayout, document
from ..core.options import build, check_choice, check_int
from .observation import CARD_FEATURES, LAYOUT, encode_observation, update_observation
from .render import render_grid
from .rules import EMPTY, GRID_CELLS, SCORING_TABLES, PokerSquaresRules, SquaresState, cell_name

__all__ = ["INFO_SCHEMA", "TABLE_REWARDS", "PokerSquaresGame", "TableState"]

TABLE_REWARDS = ("final", "incremental", "margin")
_CARD = CARD_FEATURES.shape[1]  # 18 features a card
_LINES = 10

INFO_SCHEMA = InfoSchema(
    [
        InfoKey(
            "score",
            "int",
            (),
            "the agent's score of the last finished round; 0 until the first round ends",
        ),
        InfoKey(
            "grid",
            "int",
            (GRID_CELLS,),
            "card ids of the agent's grid of the last finished round, row-major (jokers 52); "
            "all -1 until the first round ends",
        ),
        InfoKey(
            "total",
            "int",
            (),
            "the agent's total of the finished rounds (its score so far); 0 until a round ends",
        ),
        InfoKey("rounds_done", "int", (), "rounds finished (0 .. `rounds`)"),
        InfoKey(
            "won",
            "bool",
            (),
            "the game is over and the agent's total is the highest (ties included); False "
            "until the end",
        ),
    ]
)


@dataclass
class TableState:
    """A multi-player game in progress: one grid per player, the same cards."""

    grids: list[SquaresState]
    observations: list[np.ndarray]
    """Each player's observation, kept up to date placement by placement."""
    round: int
    """The round in progress, from 1."""
    totals: list[int]
    """Each player's score of the finished rounds."""
    rng: np.random.Generator | None
    """Deals the later rounds."""
    rounds_done: int = 0
    """Rounds finished."""
    round_scores: list[int] = field(default_factory=list)
    """Each player's score of the last finished round (0 before the first ends)."""
    round_grids: np.ndarray = field(default_factory=lambda: np.zeros((0, GRID_CELLS), np.int64))
    """``int64 (players, 25)``: each player's grid of the last finished round (-1 before)."""


class PokerSquaresGame(Engine[TableState]):
    """The rules of multi-player Poker Squares under one set of options.

    Options: ``num_players`` (2..8, default 2), ``rounds`` (>= 1, default 1), ``reward``
    (:data:`TABLE_REWARDS`), and the options of one grid (``scoring``, ``jokers``,
    ``placement``, ``variant``: :class:`~.rules.PokerSquaresRules`). ``state_layout`` is the
    layout of :meth:`encode_state` under these options (its size grows with ``num_players``,
    its score bounds follow ``scoring`` and ``rounds``).
    """

    simultaneous = True
    action_noun = "cell"
    num_actions = GRID_CELLS
    layout = LAYOUT
    info_schema = INFO_SCHEMA

    def __init__(
        self, num_players: int = 2, rounds: int = 1, reward: str = "final", **options: Any
    ) -> None:
        self.num_players = check_int("num_players", num_players, 2, 8)
        self.rounds = check_int("rounds", rounds, 1)
        self.reward = check_choice("reward", reward, TABLE_REWARDS)
        self.grid_rules = build(PokerSquaresRules, options, "Poker Squares")
        self.state_layout = table_state_layout(
            self.num_players, self.rounds, self.grid_rules.points
        )
        self._s = self.state_layout.starts()

    # --- the contract ---------------------------------------------------------------------
    def deal(self, rng: np.random.Generator) -> list[int]:
        """The first round's 25 cards, in dealing order."""
        return self.grid_rules.deal(rng)

    def new_state(
        self, cards: CardsLike | None = None, *, rng: np.random.Generator | None = None
    ) -> TableState:
        """A new game; ``cards`` (25, in dealing order) fix the first round's deal."""
        if cards is None and rng is None:
            raise ValueError("new_state needs the first round's 25 cards or an rng")
        if rng is None and self.rounds > 1:
            raise ValueError(f"rounds={self.rounds} deals again later: pass rng too")
        n = self.num_players
        state = TableState([], [], 0, [0] * n, rng, 0, [0] * n, np.full((n, GRID_CELLS), EMPTY))
        self._deal(state, cards)
        return state

    def current_player(self, state: TableState) -> int:
        if self.is_terminal(state):
            return -1
        placed = [grid.placed for grid in state.grids]
        return placed.index(min(placed))

    def legal_mask(self, state: TableState, player: int) -> np.ndarray:
        if self._waiting(state, player):
            return state.grids[player].mask.copy()
        return np.zeros(GRID_CELLS, dtype=np.int8)

    def illegal(self, state: TableState, player: int, error: IllegalActionError) -> str:
        if not self._waiting(state, player):
            return (
                f"player_{player} has placed card {state.grids[player].placed} of the round "
                "already: the others place it first"
            )
        return f"player_{player}: {error}"

    def transition(self, state: TableState, player: int, action: int) -> Payout | None:
        """Place ``player``'s card on the legal cell ``action`` (through :meth:`apply`, which
        checks it); the :class:`Payout` of what it scores (``incremental``) or of the round it
        ends."""
        grid = state.grids[player]
        earned = self.grid_rules.put(grid, action)
        update_observation(state.observations[player], grid, int(action))  # type: ignore[call-overload]
        round_over = all(g.placed == GRID_CELLS for g in state.grids)
        rewards = [0.0] * self.num_players
        if self.reward == "incremental":
            rewards[player] = float(earned)
        if not round_over:
            return Payout(tuple(rewards)) if earned and self.reward == "incremental" else None
        scores = [g.score for g in state.grids]
        for seat, score in enumerate(scores):
            state.totals[seat] += score
        if self.reward == "final":
            rewards = [float(s) for s in scores]
        elif self.reward == "margin":
            total, n = sum(scores), self.num_players
            rewards = [s - (total - s) / (n - 1) for s in scores]
        state.rounds_done += 1
        state.round_scores = scores
        state.round_grids = np.array([g.grid for g in state.grids], dtype=np.int64)
        if state.round < self.rounds:
            self._deal(state, None)
        return Payout(tuple(rewards))

    def is_terminal(self, state: TableState) -> bool:
        return state.round == self.rounds and all(g.placed == GRID_CELLS for g in state.grids)

    def observe(self, state: TableState, player: int) -> np.ndarray:
        return state.observations[player].copy()

    def info(self, state: TableState, player: int) -> dict[str, Any]:
        """``player``'s info (:data:`INFO_SCHEMA`): its own results only."""
        total = state.totals[player]
        over = state.rounds_done == self.rounds
        return {
            "score": state.round_scores[player],
            "grid": state.round_grids[player].copy(),
            "total": total,
            "rounds_done": state.rounds_done,
            "won": over and total == max(state.totals),
        }

    def encode_state(self, state: TableState) -> np.ndarray:
        """The whole table as ``float32`` (:attr:`state_layout`; see the module docstring)."""
        s, n = self._s, self.num_players
        out = self.state_layout.zeros()
        block = GRID_CELLS * _CARD
        grids = out[s.grids : s.grids + n * block].reshape(n, GRID_CELLS, _CARD)  # a view
        for seat, grid in enumerate(state.grids):
            grids[seat] = CARD_FEATURES[grid.grid]
            out[s.placed + seat] = grid.placed
            out[s.scores + seat] = grid.score
        out[s.deal : s.deal + block] = CARD_FEATURES[state.grids[0].cards].reshape(-1)
        out[s.totals : s.totals + n] = state.totals
        if not self.is_terminal(state):
            out[s.to_act + self.current_player(state)] = 1
        out[s.rounds_done] = state.rounds_done
        return out

    def describe_action(self, action: int) -> str:
        return cell_name(action)

    def render(self, state: TableState) -> str:
        """Every grid, with each player's total so far."""
        parts = [f"round {state.round}/{self.rounds}"]
        round_over = all(g.placed == GRID_CELLS for g in state.grids)
        for seat, grid in enumerate(state.grids):
            total = state.totals[seat] + (0 if round_over else grid.score)
            parts.append(f"player_{seat} (total so far {total})")
            parts.append(render_grid(self.grid_rules, grid))
        return "\n".join(parts)

    # --- internals ------------------------------------------------------------------------
    def _waiting(self, state: TableState, player: int) -> bool:
        """``player`` has still to place the card the table is placing now."""
        placed = state.grids[player].placed
        return placed < GRID_CELLS and placed == min(g.placed for g in state.grids)

    def _deal(self, state: TableState, cards: CardsLike | None) -> None:
        """Start the next round: every player gets an empty grid and the same cards."""
        rules = self.grid_rules
        if cards is None:
            cards = rules.deal(state.rng)  # type: ignore[arg-type]
        first = rules.new_state(cards)
        state.round += 1
        state.grids = [first] + [first.copy() for _ in range(self.num_players - 1)]
        state.observations = [encode_observation(grid) for grid in state.grids]


def table_state_layout(num_players: int, rounds: int, points: tuple[int, ...]) -> ObservationLayout:
    """The :meth:`PokerSquaresGame.encode_state` layout for these options (``points``: the
    scoring table's points by hand class, which bound the scores)."""
    n = num_players
    # a grid scores 10 lines; 1 for the top of a table that pays nothing, so that low < high
    low, high = _LINES * min(0, *points), _LINES * max(1, *points)
    return ObservationLayout(
        [
            Field(
                "grids",
                n * GRID_CELLS * _CARD,
                1,
                "seat `s`'s cell `k` (row-major): the card's 18 features at `450 * s + 18 * k`",
            ),
            Field(
                "deal",
                GRID_CELLS * _CARD,
                1,
                "the round's 25 cards in placement order, card `i`'s 18 features at "
                "`450 * n + 18 * i` (`n` players): the ones still to come included",
            ),
            Field("placed", n, GRID_CELLS, "cards each seat has placed this round (0..25)"),
            Field(
                "to_act",
                n,
                1,
                "the seat to place the card now in the AEC order, one-hot; zeros once over",
            ),
            Field(
                "scores",
                n,
                high,
                "each seat's points of its completed lines this round (10 lines x the table's "
                "lowest .. highest points)",
                low=low,
            ),
            Field(
                "totals",
                n,
                rounds * high,
                "each seat's total of the finished rounds (`rounds` x the bounds of `scores`)",
                low=rounds * low,
            ),
            Field("rounds_done", 1, rounds, "rounds finished (0 .. `rounds`)"),
        ],
        dtype=np.float32,
    )


# The docstring's state table is the default game's (2 players, 1 round, American scoring).
# Its bounds need only that scoring's extremes, which its hand classes share (without jokers a
# class scores its own category's points), so importing the module does not build the hand
# tables that scoring a game needs (about 0.3 s; a test checks the table against the game's).
DEFAULT_STATE_TABLE = table_state_layout(2, 1, tuple(SCORING_TABLES["american"].values())).table()
document(sys.modules[__name__], info_table=INFO_SCHEMA.table(), state_table=DEFAULT_STATE_TABLE)
