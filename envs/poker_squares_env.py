"""Gymnasium env of Poker Squares (RULES §3): ``gymnasium.make("pokerzoo/PokerSquares-v0")``."""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from .cards import format_card
from .errors import GameOverError, check_render_mode
from .poker_squares import (
    GRID_CELLS,
    OBS_HIGH,
    OBS_SIZE,
    RENDER_MODES,
    PokerSquaresGame,
    Scoring,
    SquaresState,
    check_reward,
    encode_observation,
    render_grid,
    update_observation,
)

__all__ = ["PokerSquaresEnv"]


class PokerSquaresEnv(gym.Env[np.ndarray, np.int64]):
    """Poker Squares: place 25 cards one at a time on a 5x5 grid; rows and columns score as
    poker hands.

    ## Description
    Each step shows the next card of a shuffled 52-card deck (plus 0..2 wild jokers) and the
    agent puts it on an empty cell; placed cards never move. After 25 cards each of the 5 rows
    and 5 columns scores as a poker hand under the scoring table (RULES §3). A line holding
    jokers scores its best-scoring reading.

    ## Action Space
    ``Discrete(25)``: the cell, row-major (``cell = 5 * row + col``). Legal cells are in
    ``info["action_mask"]`` (``np.int8``, 25) after every reset and step, and in
    :meth:`action_masks` (for sb3-contrib's MaskablePPO): the empty cells; with
    ``placement="adjacent"`` only the centre (cell 12) for the first card, later the empty cells
    touching a placed card by side or corner. An occupied or masked cell raises
    :class:`~pokerzoo.envs.errors.IllegalActionError` naming the cell (``"r2c3 (7)"``) and the
    legal ones, leaving the state unchanged; a step after the last card raises
    :class:`~pokerzoo.envs.errors.GameOverError`.

    ## Observation Space
    ``Box(low=0, high=OBS_HIGH, shape=(522,), dtype=np.uint8)``, flat so an MLP policy reads it
    directly. Each card is 18 features: ``[0:13]`` rank one-hot (2..A), ``[13:17]`` suit one-hot
    (s, h, d, c), ``[17]`` joker; an empty slot is all zeros.

    | index | content |
    |---|---|
    | 0..449 | the grid: cell c at [18c, 18c+18) |
    | 450..467 | the card to place now (all zeros once the game is over) |
    | 468..520 | per card id 0..52, copies still to come after the current card (see below) |
    | 521 | cards placed so far (0..25) |

    Copies still to come: with ``variant="deal"`` every card of the deck not yet shown (the
    unknown rest of the deck, 0..1, jokers 0..2); with ``"shuffle"`` exactly the cards still to
    place after the current one. ``high`` is 1 everywhere except the jokers' count (index 520:
    2) and index 521 (25).
    :func:`pokerzoo.envs.poker_squares.decode_observation` turns it back into card ids.

    ## Rewards
    - ``reward="final"`` (default): 0 until the last placement, then the grid's score.
    - ``reward="incremental"``: each placement earns the points of every row and column it
      completes. Both give the same episode total.

    Episodes last exactly 25 steps and are never truncated. At termination ``info["score"]``
    (int) is the grid's score and ``info["grid"]`` its 25 cards as strings, row-major.

    ## Options
    - ``scoring``: ``"american"`` (default), ``"english"`` or a mapping hand name -> points
      (names as in RULES §3: ``"royal flush"``, ``"straight flush"``, ``"four of a kind"``,
      ``"full house"``, ``"flush"``, ``"straight"``, ``"three of a kind"``, ``"two pair"``,
      ``"pair"``, ``"five of a kind"``; missing names score 0, a missing ``"royal flush"``
      scores as a straight flush).
    - ``jokers``: 0..2 jokers in the deck (default 0).
    - ``placement``: ``"free"`` (default) or ``"adjacent"``.
    - ``variant``: ``"deal"`` (default) or ``"shuffle"`` (Poker Shuffle: the same 25 cards are
      placed in descending card-id order, jokers first, and all are known from the start).
    - ``reward``: ``"final"`` (default) or ``"incremental"``.
    - ``render_mode``: ``None``, ``"ansi"`` or ``"human"``.

    ``reset(seed=s)`` deals ``np.random.default_rng(s).permutation(deck)[:25]``;
    ``reset(options={"cards": "As Kd ..."})`` plays a fixed 25-card deal instead (tests, replays).

    ## Render
    ``"ansi"`` returns the grid in card notation with each row's and column's hand name and
    points (incomplete lines show the hand made so far and their card count), the card to place
    and the score so far; ``"human"`` prints the same text.

    ## Version History
    - v0: initial version.
    """

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 4}

    def __init__(
        self,
        scoring: Scoring = "american",
        jokers: int = 0,
        placement: str = "free",
        variant: str = "deal",
        reward: str = "final",
        render_mode: str | None = None,
    ) -> None:
        self.game = PokerSquaresGame(
            scoring=scoring, jokers=jokers, placement=placement, variant=variant
        )
        check_reward(reward)
        check_render_mode(render_mode, self.metadata["render_modes"])
        self.reward_mode = reward
        self.render_mode = render_mode
        self.action_space = spaces.Discrete(GRID_CELLS)
        self.observation_space = spaces.Box(
            low=0, high=OBS_HIGH.copy(), shape=(OBS_SIZE,), dtype=np.uint8
        )
        self._state: SquaresState | None = None
        self._obs = np.zeros(OBS_SIZE, dtype=np.uint8)

    @property
    def state(self) -> SquaresState | None:
        """The engine state of the current episode (``None`` before the first reset)."""
        return self._state

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        options = dict(options or {})
        cards = options.pop("cards", None)
        if options:
            raise ValueError(f"bad reset options {sorted(options)}: only 'cards' is accepted")
        if cards is None:
            self._state = self.game.reset(self.np_random)
        else:
            self._state = self.game.new_state(cards)
        encode_observation(self._state, out=self._obs)
        if self.render_mode == "human":
            self.render()
        return self._obs.copy(), {"action_mask": self._state.mask.copy()}

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        state = self._state
        if state is None:
            raise GameOverError("no game in progress: call reset() first")
        earned = self.game.place(state, action)  # raises before changing anything
        update_observation(self._obs, state, int(action))  # place() validated it
        terminated = state.over
        # "final" pays the whole score on the last placement
        final = state.score if terminated else 0
        reward = earned if self.reward_mode == "incremental" else final
        info: dict[str, Any] = {"action_mask": state.mask.copy()}
        if terminated:
            info["score"] = state.score
            info["grid"] = [format_card(card) for card in state.grid]
        if self.render_mode == "human":
            self.render()
        return self._obs.copy(), float(reward), terminated, False, info

    def action_masks(self) -> np.ndarray:
        """Legal cells as a bool array (the sb3-contrib MaskablePPO hook)."""
        if self._state is None:
            return np.zeros(GRID_CELLS, dtype=bool)
        return self._state.mask.astype(bool)

    def render(self) -> str | None:
        if self._state is None:
            raise GameOverError("nothing to render: call reset() first")
        text = render_grid(self.game, self._state)
        if self.render_mode == "human":
            print(text, end="")
            return None
        if self.render_mode == "ansi":
            return text
        gym.logger.warn(
            "render() called without a render_mode; create the env with render_mode='ansi' or "
            "'human'"
        )
        return None
