"""Gymnasium env of Poker Squares (RULES §3): ``gymnasium.make("pokerzoo/PokerSquares-v0")``."""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from ..core.cards import format_card
from ..core.observation import document, markdown_table
from ..core.one_player import OnePlayerEnv
from .observation import LAYOUT, encode_observation, update_observation
from .render import render_grid
from .rules import GRID_CELLS, PokerSquaresRules, SquaresState, cell_name, check_reward

__all__ = ["PokerSquaresEnv"]


class PokerSquaresEnv(OnePlayerEnv):
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
    The options of one grid (:class:`~pokerzoo.envs.poker_squares.PokerSquaresRules`), then the
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
    Any other reset option is ignored with a warning naming the accepted ones (Gymnasium's
    convention).

    ## Render
    ``"ansi"`` returns the grid in card notation with each row's and column's hand name and
    points (incomplete lines show the hand made so far and their card count), the card to place
    and the score so far; ``"human"`` prints the same text.

    ## Version History
    - v0: initial version.
    - v0, observations: ``float32`` (was ``uint8``), the same values.
    """

    metadata: ClassVar[dict[str, Any]] = {**OnePlayerEnv.metadata, "render_fps": 4}
    game_class = PokerSquaresRules
    action_noun = "cell"
    over_message = "the grid is full: the game is over, call reset() first"

    def __init__(
        self,
        reward: str = "final",
        render_mode: str | None = None,
        masked_action: str = "raise",
        **options: Any,
    ) -> None:
        self._build_game(options, also=("reward",))
        self.reward_mode = check_reward(reward)
        self._setup(render_mode, masked_action, GRID_CELLS, LAYOUT)
        self._obs = LAYOUT.zeros()

    def _legal(self, state: SquaresState) -> np.ndarray:
        return state.mask

    def describe_action(self, action: int) -> str:
        return cell_name(action)

    def _started(self, state: SquaresState) -> np.ndarray:
        encode_observation(state, out=self._obs)
        return self._obs.copy()

    def _play(self, state: SquaresState, action: int) -> tuple[np.ndarray, float, bool]:
        earned = self.game.place(state, action)
        update_observation(self._obs, state, action)
        terminated = self.game.is_terminal(state)
        # "final" pays the whole score on the last placement
        final = state.score if terminated else 0
        reward = earned if self.reward_mode == "incremental" else final
        return self._obs.copy(), reward, terminated

    def _final_info(self, state: SquaresState) -> dict[str, Any]:
        return {"score": state.score, "grid": [format_card(card) for card in state.grid]}

    def _text(self, state: SquaresState) -> str:
        return render_grid(self.game, state)


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
