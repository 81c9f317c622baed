"""Multi-player Poker Squares (RULES §3): every player places the same card on their own grid.

One shuffled deck announces the cards and each player fills their own 5x5 grid with them. A
round is 25 cards; after ``rounds`` rounds (each a fresh deal from the same generator) the
highest total wins. :class:`PokerSquaresTable` is the engine of the PettingZoo envs
(:mod:`.pettingzoo_env`), in the shape every game's engine has (:mod:`pokerzoo.envs.core.game`):
it is simultaneous, the seats place each card in seat order in the AEC env and all at once in
the parallel env, and nobody sees another's grid.

Rewards (``reward`` option): ``"final"`` (default), at each round's end, the player's own round
score; ``"incremental"``, each placement earns the points of the lines it completes (the same
totals); ``"margin"``, at each round's end, own round score minus the mean round score of the
other players (zero-sum). At a round's end every player's info holds ``"score"`` (its round
score) and ``"grid"`` (25 card strings, row-major); at the game's end also ``"total"`` (the
sum of its round scores) and ``"won"`` (its total is the highest, ties included).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..core.cards import CardsLike, format_card
from ..core.errors import GameOverError, IllegalActionError
from ..core.game import Payout
from ..core.options import build, check_choice, check_int
from .observation import LAYOUT, encode_observation, update_observation
from .render import render_grid
from .rules import GRID_CELLS, PokerSquaresGame, SquaresState, cell_name

__all__ = ["TABLE_REWARDS", "PokerSquaresTable", "TableState"]

TABLE_REWARDS = ("final", "incremental", "margin")


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


class PokerSquaresTable:
    """The rules of multi-player Poker Squares under one set of options.

    Options: ``num_players`` (2..8, default 2), ``rounds`` (>= 1, default 1), ``reward``
    (:data:`TABLE_REWARDS`), and the options of one grid (``scoring``, ``jokers``,
    ``placement``, ``variant``: :class:`~.rules.PokerSquaresGame`).
    """

    simultaneous = True
    action_noun = "cell"
    num_actions = GRID_CELLS
    layout = LAYOUT

    def __init__(
        self, num_players: int = 2, rounds: int = 1, reward: str = "final", **options: Any
    ) -> None:
        self.num_players = check_int("num_players", num_players, 2, 8)
        self.rounds = check_int("rounds", rounds, 1)
        self.reward = check_choice("reward", reward, TABLE_REWARDS)
        self.grid_rules = build(PokerSquaresGame, options, "Poker Squares")

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
        state = TableState([], [], 0, [0] * self.num_players, rng)
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

    def apply(self, state: TableState, player: int, action: object) -> Payout | None:
        if self.is_terminal(state):
            raise GameOverError("the game is over: call reset()")
        if not self._waiting(state, player):
            raise IllegalActionError(
                f"player_{player} has placed card {state.grids[player].placed} of the round "
                "already: the others place it first"
            )
        grid = state.grids[player]
        try:
            earned = self.grid_rules.place(grid, action)
        except IllegalActionError as error:
            raise IllegalActionError(f"player_{player}: {error}") from None
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
        infos: list[dict[str, Any]] = [
            {"score": scores[seat], "grid": [format_card(c) for c in g.grid]}
            for seat, g in enumerate(state.grids)
        ]
        if state.round == self.rounds:
            best = max(state.totals)
            for seat, info in enumerate(infos):
                info["total"] = state.totals[seat]
                info["won"] = state.totals[seat] == best
        else:
            self._deal(state, None)
        return Payout(tuple(rewards), tuple(infos))

    def is_terminal(self, state: TableState) -> bool:
        return state.round == self.rounds and all(g.placed == GRID_CELLS for g in state.grids)

    def observe(self, state: TableState, player: int) -> np.ndarray:
        return state.observations[player].copy()

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
