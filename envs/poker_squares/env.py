"""Gymnasium env of Poker Squares (RULES §3): ``gymnasium.make("pokerzoo/PokerSquares-v0")``."""

from __future__ import annotations

from typing import Any, ClassVar

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from ..core.cards import format_card
from ..core.errors import (
    MASKED_ACTIONS,
    RENDER_MODES,
    GameOverError,
    check_render_mode,
    resolve_action,
)
from ..core.observation import document, markdown_table
from ..core.options import build, check_choice, check_reset_options
from ..core.seeding import kept_on_error
from .observation import LAYOUT, encode_observation, update_observation
from .render import render_grid
from .rules import GRID_CELLS, PokerSquaresGame, SquaresState, cell_name, check_reward

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
    :class:`~pokerzoo.envs.core.errors.IllegalActionError` naming the cell (``"r2c3 (7)"``) and
    the legal ones, leaving the state unchanged (with ``masked_action="random"`` a random legal
    cell is played instead); a step after the last card raises
    :class:`~pokerzoo.envs.core.errors.GameOverError`.

    ## Observation Space
    ``Box(low=0, high, shape=(522,), dtype=np.float32)``, flat so an MLP policy reads it
    directly; every entry is a small whole number.
    Each card is 18 features: ``[0:13]`` rank one-hot (2..A), ``[13:17]`` suit one-hot
    (s, h, d, c), ``[17]`` joker; an empty slot is all zeros.

    {observation_table}

    ``high`` is 1 everywhere except the jokers' count (index 520: 2) and index 521 (25).
    :func:`pokerzoo.envs.poker_squares.decode_observation` turns it back into card ids.

    ## Rewards
    - ``reward="final"`` (default): 0 until the last placement, then the grid's score.
    - ``reward="incremental"``: each placement earns the points of every row and column it
      completes. Both give the same episode total.

    Episodes last exactly 25 steps and are never truncated.

    ## Info
    String keys only, never ``None``. ``action_mask`` after every reset and step;
    ``masked_action`` on a step whose masked cell was replaced (``masked_action="random"``);
    ``score`` and ``grid`` on the last step only (as Gymnasium's wrappers add ``episode``
    there):

    {info_table}

    ## Options
    The options of one grid (:class:`~pokerzoo.envs.poker_squares.PokerSquaresGame`), then the
    env's own:

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
    - ``masked_action``: ``"raise"`` (default) or ``"random"`` (a masked cell is replaced by a
      random legal one from the env's generator, reported in ``info["masked_action"]``; for
      tools that sample without masks, such as ``check_env`` with ``placement="adjacent"``).

    ``reset(seed=s)`` deals ``np.random.default_rng(s).permutation(deck)[:25]``;
    ``reset(options={"cards": "As Kd ..."})`` plays a fixed 25-card deal instead (tests, replays).
    Any other reset option is an error.

    ## Render
    ``"ansi"`` returns the grid in card notation with each row's and column's hand name and
    points (incomplete lines show the hand made so far and their card count), the card to place
    and the score so far; ``"human"`` prints the same text.

    ## Version History
    - v0: initial version.
    - v0, observations: ``float32`` (was ``uint8``), the same values.
    """

    metadata: ClassVar[dict[str, Any]] = {"render_modes": list(RENDER_MODES), "render_fps": 4}

    def __init__(
        self,
        reward: str = "final",
        render_mode: str | None = None,
        masked_action: str = "raise",
        **options: Any,
    ) -> None:
        self.game = build(
            PokerSquaresGame,
            options,
            "PokerSquaresEnv",
            also=("reward", "render_mode", "masked_action"),
        )
        self.reward_mode = check_reward(reward)
        self.render_mode = check_render_mode(render_mode, self.metadata["render_modes"])
        self.masked_action = check_choice("masked_action", masked_action, MASKED_ACTIONS)
        self.action_space = spaces.Discrete(GRID_CELLS)
        self.observation_space = spaces.Box(
            low=LAYOUT.low.copy(), high=LAYOUT.high.copy(), dtype=LAYOUT.dtype
        )
        self._state: SquaresState | None = None
        self._obs = LAYOUT.zeros()

    @property
    def game_state(self) -> SquaresState | None:
        """The engine state of the current episode (``None`` before the first reset)."""
        return self._state

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        chosen = check_reset_options(options, ("cards",))
        # A reset that raises (a malformed "cards") changes nothing, the generator included.
        kept = (self._np_random, self._np_random_seed)
        with kept_on_error(self._np_random):
            try:
                super().reset(seed=seed)
                state = self.game.new_state(chosen.get("cards"), rng=self.np_random)
            except BaseException:
                self._np_random, self._np_random_seed = kept
                raise
        self._state = state
        encode_observation(self._state, out=self._obs)
        if self.render_mode == "human":
            self.render()
        return self._obs.copy(), {"action_mask": self._state.mask.copy()}

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        state = self._state
        if state is None:
            raise GameOverError("no game in progress: call reset() first")
        if self.game.is_terminal(state):
            raise GameOverError("the grid is full: the game is over, call reset() first")
        cell, asked = resolve_action(
            action, state.mask, self.masked_action, self.np_random, cell_name, "cell"
        )
        earned = self.game.place(state, cell)
        update_observation(self._obs, state, cell)
        terminated = self.game.is_terminal(state)
        # "final" pays the whole score on the last placement
        final = state.score if terminated else 0
        reward = earned if self.reward_mode == "incremental" else final
        info: dict[str, Any] = {"action_mask": state.mask.copy()}
        if asked is not None:
            info["masked_action"] = asked
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
            print(text, end="")  # noqa: T201 - "human" mode prints by definition
            return None
        if self.render_mode == "ansi":
            return text
        gym.logger.warn(
            "render() called without a render_mode; create the env with render_mode='ansi' or "
            "'human'"
        )
        return None


_INFO_TABLE = markdown_table(
    ("key", "type", "content"),
    [
        ("`action_mask`", "int array (25)", "`int8`: the legal cells now (zeros once over)"),
        (
            "`masked_action`",
            "int",
            "the masked cell asked for, replaced by a random legal one; only on such a step",
        ),
        ("`score`", "int", "the grid's score; on the last step only"),
        ("`grid`", "list of 25 str", 'the grid\'s cards row-major (`"As"`); on the last step only'),
    ],
)
document(PokerSquaresEnv, observation_table=LAYOUT.table(), info_table=_INFO_TABLE)
