"""Poker Squares as a native vectorised Gymnasium env: many games held in numpy arrays.

``PokerSquaresVectorEnv`` plays ``num_envs`` independent games of Poker Squares (RULES §3) with
the same options, spaces, dealing and rewards as
:class:`pokerzoo.envs.poker_squares.PokerSquaresEnv`; sub-env ``i`` replays exactly the
single env seeded with ``seed + i``. It is the ``vector_entry_point`` of
``pokerzoo/PokerSquares-v0``, so ``gymnasium.make_vec("pokerzoo/PokerSquares-v0", num_envs=N,
**options)`` builds it.

## Action Space
``MultiDiscrete([25] * num_envs)``: one cell per game, row-major (``cell = 5 * row + col``).
An action the mask forbids raises :class:`~pokerzoo.envs.core.errors.IllegalActionError` naming the
env index, the cell and the legal cells; nothing changes. The action of a game being
auto-reset (next-step mode) is ignored.

## Observation Space
``Box(0, high, (num_envs, 522), float32)``; row ``i`` is the single env's observation:

{observation_table}

Copies still to come: "deal", the unseen rest of the deck; "shuffle", the cards still to place.

## Rewards
``reward="final"``: 0 until the 25th card, then the grid's score; ``"incremental"``: each
placement earns the points of every row and column it completes. ``float64``, shape
``(num_envs,)``. Games last exactly 25 steps; ``truncations`` are always False.

## Info
Gymnasium's vector convention: each key ``k`` holds one entry per game, valid where
``info["_k"]`` (bool, ``(num_envs,)``) is True; string keys only, never ``None``.
:meth:`action_masks` gives the masks as ``bool``. ``score`` and ``grid`` appear only in a step
where games end (``"NextStep"``, ``"Disabled"``; ``"SameStep"`` puts them in ``final_info``):

{info_table}

## Autoreset
``autoreset_mode`` (``metadata["autoreset_mode"]``), as in Gymnasium 1.x:

- ``"NextStep"`` (default): a game that ended is dealt again by the next ``step``, whose action
  for it is ignored and which returns its new first observation, reward 0, not terminated.
- ``"SameStep"``: a game that ends is dealt again in the same step; the returned observation is
  the new game's, and ``info["final_obs"]`` (``(num_envs, 522)``, valid where
  ``info["_final_obs"]``) and ``info["final_info"]`` (``score``, ``grid``, ``action_mask`` with
  their ``_`` masks) hold the ended game's.
- ``"Disabled"``: stepping an ended game raises :class:`~pokerzoo.envs.core.errors.GameOverError`;
  deal again with ``reset(options={"reset_mask": mask})``.

## Seeding
``reset(seed=s)`` gives sub-env ``i`` the generator ``np.random.default_rng(s + i)`` (a list
of seeds gives one each; ``None`` draws fresh entropy); every later deal of that game, auto-reset
or ``reset()`` without a seed, continues its own generator, exactly as the single env does.
``reset(options={"cards": deal})`` deals fixed cards instead, for tests and replays: one deal
for every game (25 cards in dealing order, as the single env's ``"cards"`` option takes them:
one string, a list of strings or of ids) or a list of ``num_envs`` deals.

## Options
``scoring``, ``jokers``, ``placement``, ``variant``, ``reward``, ``render_mode`` as in the
single env, plus ``autoreset_mode``. ``render()`` returns one text grid per game (the single
env's picture) with ``"ansi"`` and prints them with ``"human"``.

## Version History
- v0: initial.
- v0, observations: ``float32`` (was ``uint8``), the same values.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from ..core.cards import NUM_CARD_IDS, parse_cards
from ..core.errors import GameOverError, IllegalActionError, check_action, check_render_mode
from ..core.hands import hand_classes
from ..core.observation import document, markdown_table
from ..core.options import build, check_int, check_reset_options
from ..core.vector import VECTOR_METADATA, check_autoreset_mode, reset_rows, vector_seeds
from .observation import CARD_FEATURES, LAYOUT
from .render import render_grid
from .rules import (
    CELL_LINES,
    EMPTY,
    GRID_CELLS,
    LINES,
    NEIGHBOURS,
    PokerSquaresRules,
    SquaresState,
    cell_name,
    check_reward,
)

__all__ = ["PokerSquaresVectorEnv"]

OBS_SIZE = LAYOUT.size
CURRENT_OFFSET = LAYOUT.start("card")
COUNTS_OFFSET = LAYOUT.start("to_come")
PLACED_INDEX = LAYOUT.start("placed")
NO_CARD = NUM_CARD_IDS  # sentinel "card" after the 25th: nothing left to show
DEALS_AHEAD = 8  # deals each game's generator makes in one call (see _next_deals)


# --- index tables: where a step writes, as flat offsets -----------------------------------------
def _feature_pair(card: int) -> tuple[int, int]:
    """Offsets of the set features of a card, two (a joker sets one, named twice)."""
    first, *rest = np.flatnonzero(CARD_FEATURES[card]).tolist()
    return first, (rest or [first])[0]


def _build_tables() -> dict[str, np.ndarray]:
    cards = range(NUM_CARD_IDS)
    cell_features = np.zeros((GRID_CELLS * NUM_CARD_IDS, 2), dtype=np.intp)
    for cell in range(GRID_CELLS):
        for card in cards:
            cell_features[cell * NUM_CARD_IDS + card] = [
                CARD_FEATURES.shape[1] * cell + f for f in _feature_pair(card)
            ]
    # The card to place now; after the 25th there is none, and the writes land harmlessly on
    # the placed-count entry, which every step then overwrites.
    current = np.full((NO_CARD + 1, 2), PLACED_INDEX, dtype=np.intp)
    count = np.full(NO_CARD + 1, PLACED_INDEX, dtype=np.intp)
    for card in cards:
        current[card] = [CURRENT_OFFSET + f for f in _feature_pair(card)]
        count[card] = COUNTS_OFFSET + card
    touching = np.zeros((GRID_CELLS, GRID_CELLS), dtype=np.int8)
    for cell, near in enumerate(NEIGHBOURS):
        touching[cell, list(near)] = 1
    return {
        "cell_features": cell_features,
        "current": current,
        "count": count,
        "lines_of_cell": np.array(CELL_LINES, dtype=np.intp),
        "line_cells": np.array(LINES, dtype=np.intp),
        "touching": touching,
    }


_TABLES = _build_tables()


class PokerSquaresVectorEnv(VectorEnv):
    """``num_envs`` games of Poker Squares stepped together with array operations.

    See the module docstring for spaces, rewards, info, autoreset and seeding.
    """

    metadata: dict[str, Any] = dict(VECTOR_METADATA)

    def __init__(
        self,
        num_envs: int = 1,
        *,
        reward: str = "final",
        render_mode: str | None = None,
        autoreset_mode: str | AutoresetMode = AutoresetMode.NEXT_STEP,
        **options: Any,
    ) -> None:
        check_int("num_envs", num_envs, 1)
        # The engine validates the game options exactly as the single env does.
        self.game = build(
            PokerSquaresRules,
            options,
            "PokerSquaresVectorEnv",
            also=("num_envs", "reward", "autoreset_mode", "render_mode"),
        )
        check_reward(reward)
        check_render_mode(render_mode, self.metadata["render_modes"])
        mode = check_autoreset_mode(autoreset_mode)

        n = int(num_envs)
        self.num_envs = n
        self.reward_mode = reward
        self.render_mode = render_mode
        self.autoreset_mode = mode
        self.metadata = {**type(self).metadata, "autoreset_mode": mode}
        self.single_observation_space = spaces.Box(
            low=LAYOUT.low.copy(), high=LAYOUT.high.copy(), dtype=LAYOUT.dtype
        )
        self.single_action_space = spaces.Discrete(GRID_CELLS)
        self.observation_space = batch_space(self.single_observation_space, n)
        self.action_space = batch_space(self.single_action_space, n)

        self._points = np.array(self.game.points, dtype=np.int64)
        self._deck = self.game.deck.cards
        self._deck_counts = self.game.deck.counts
        self._initial_mask = self.game.initial_mask
        self._adjacent = self.game.placement == "adjacent"
        self._incremental = reward == "incremental"
        self._single_copies = self.game.jokers == 0  # every count entry is 0 or 1

        # Game state, one row per game; flat views let one fancy index address (game, slot).
        self._deal = np.full((n, GRID_CELLS + 1), NO_CARD, dtype=np.int8)
        self._placed = np.zeros(n, dtype=np.intp)
        self._grid = np.full((n, GRID_CELLS), EMPTY, dtype=np.int8)
        self._line_counts = np.zeros((n, 10), dtype=np.int8)  # cards per line ("incremental")
        self._common_placed: int | None = None  # cards placed in every game, when all agree
        self._score = np.zeros(n, dtype=np.int64)
        self._mask = np.zeros((n, GRID_CELLS), dtype=np.int8)
        self._empty = np.ones((n, GRID_CELLS), dtype=np.int8)
        self._obs = np.zeros((n, OBS_SIZE), dtype=LAYOUT.dtype)
        self._ended = np.zeros(n, dtype=bool)
        self._any_ended = False
        self._rngs: list[np.random.Generator | None] = [None] * n
        self._ahead = np.zeros((n, DEALS_AHEAD, GRID_CELLS), dtype=np.int8)  # deals to come
        self._ahead_next = np.full(n, DEALS_AHEAD, dtype=np.intp)  # next unused one per game
        self._all = np.arange(n, dtype=np.intp)
        self._bases = self._row_bases(self._all)
        self._dealt = False

    # --- Gymnasium API ---------------------------------------------------------------------------
    def reset(
        self,
        *,
        seed: int | Sequence[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Deal new games: every game, or those in ``options["reset_mask"]``.

        ``options`` may hold ``"reset_mask"`` (bool array ``(num_envs,)``) and ``"cards"``
        (fixed deals, see the module docstring); any other key is ignored with a warning. A
        reset that raises (a bad ``cards`` or ``reset_mask``) changes nothing.
        """
        n = self.num_envs
        options = check_reset_options(options, ("reset_mask", "cards"))
        cards = options.get("cards")
        rows = reset_rows(options.get("reset_mask"), n, self._dealt, "game")
        seeds = vector_seeds(seed, n)
        if cards is not None:
            cards = self._fixed_cards(cards)
        if seed is not None and not isinstance(seed, (list, tuple, np.ndarray)):
            super().reset(seed=int(seed))
        for i in rows.tolist():
            if seeds[i] is not None or self._rngs[i] is None:
                self._rngs[i], _ = seeding.np_random(seeds[i])
                self._ahead_next[i] = DEALS_AHEAD  # deals of the old generator are void
        self._deal_rows(rows, None if cards is None else cards[rows])
        self._dealt = True
        info = {"action_mask": self._mask.copy(), "_action_mask": np.ones(n, dtype=bool)}
        return self._obs.copy(), info

    def step(
        self, actions: np.ndarray | Sequence[int]
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Place one card in every game (see the module docstring for autoreset)."""
        if not self._dealt:
            raise GameOverError("call reset() before step()")
        n = self.num_envs
        a = self._check_shape(actions)
        rewards = np.zeros(n, dtype=np.float64)
        if not self._any_ended:
            self._check_legal(a, None)
            terminated = self._place(a, None, rewards)
        elif self.autoreset_mode == AutoresetMode.NEXT_STEP:
            restart = self._ended.copy()
            playing = np.flatnonzero(~restart)
            self._check_legal(a, playing)
            terminated = np.zeros(n, dtype=bool)
            if len(playing):
                terminated[playing] = self._place(a[playing], playing, rewards)
            self._deal_rows(np.flatnonzero(restart), None)
        else:
            first = int(np.flatnonzero(self._ended)[0])
            raise GameOverError(
                f"game {first} is over: reset it with reset(options={{'reset_mask': ...}})"
            )
        self._ended = terminated.copy()
        self._any_ended = bool(terminated.any())
        info: dict[str, Any] = {}
        if self._any_ended:
            ended_info = {
                "score": np.where(terminated, self._score, 0),
                "_score": terminated.copy(),
                "grid": self._grid.copy(),
                "_grid": terminated.copy(),
            }
            if self.autoreset_mode == AutoresetMode.SAME_STEP:
                ended_info["action_mask"] = self._mask.copy()
                ended_info["_action_mask"] = terminated.copy()
                info["final_obs"] = self._obs.copy()
                info["_final_obs"] = terminated.copy()
                info["final_info"] = ended_info
                info["_final_info"] = terminated.copy()
                self._deal_rows(np.flatnonzero(terminated), None)
                self._ended = np.zeros(n, dtype=bool)
                self._any_ended = False
            else:
                info.update(ended_info)
        info["action_mask"] = self._mask.copy()
        info["_action_mask"] = np.ones(n, dtype=bool)
        return (
            self._obs.copy(),
            rewards,
            terminated,
            np.zeros(n, dtype=bool),
            info,
        )

    def action_masks(self) -> np.ndarray:
        """Legal cells of every game, ``bool`` ``(num_envs, 25)`` (what sb3-contrib reads)."""
        return self._mask.astype(bool)

    def render(self) -> tuple[str, ...] | None:
        """One text grid per game (``"ansi"``), or print them (``"human"``)."""
        if self.render_mode is None:
            return None
        frames = tuple(self._render_game(i) for i in range(self.num_envs))
        if self.render_mode == "human":
            print("\n\n".join(frames))  # noqa: T201 - "human" mode prints by definition
            return None
        return frames

    # --- the step, as array operations -------------------------------------------------------
    @staticmethod
    def _row_bases(rows: np.ndarray) -> dict[str, np.ndarray]:
        return {
            "deal": rows * (GRID_CELLS + 1),
            "grid": rows * GRID_CELLS,
            "lines": (rows * 10)[:, None],
            "obs": rows * OBS_SIZE,
            "obs2": (rows * OBS_SIZE)[:, None],
        }

    def _place(self, a: np.ndarray, rows: np.ndarray | None, rewards: np.ndarray) -> np.ndarray:
        """Place each game's current card on cell ``a``; ``rows=None`` means every game.

        Fills ``rewards`` for those games and returns which of them ended.
        """
        tables = _TABLES
        obs = self._obs.reshape(-1)
        grid = self._grid.reshape(-1)
        deal = self._deal.reshape(-1)
        common = self._common_placed
        if rows is None and common is not None:
            # Every game has placed as many cards: columns of the deal, no per-game offsets.
            sel: slice | np.ndarray = slice(None)
            bases = self._bases
            card = self._deal[:, common]
            upcoming = self._deal[:, common + 1]
            self._common_placed = common + 1
            self._placed += 1
            placed: np.ndarray | int = common + 1
            ended = np.full(self.num_envs, common + 1 == GRID_CELLS)
        else:
            sel = slice(None) if rows is None else rows
            bases = self._bases if rows is None else self._row_bases(rows)
            placed = self._placed[sel] + 1
            card = deal[bases["deal"] + placed - 1]
            upcoming = deal[bases["deal"] + placed]
            self._placed[sel] = placed
            self._common_placed = None
            ended = placed == GRID_CELLS

        cells = bases["grid"] + a
        grid[cells] = card
        if self._adjacent:
            self._empty.reshape(-1)[cells] = 0
            self._mask[sel] = (self._mask[sel] | tables["touching"][a]) & self._empty[sel]
        else:
            self._mask.reshape(-1)[cells] = 0
        key = a * NUM_CARD_IDS
        key += card
        obs[bases["obs2"] + tables["cell_features"][key]] = 1
        self._obs[sel, CURRENT_OFFSET:COUNTS_OFFSET] = 0
        obs[bases["obs2"] + tables["current"][upcoming]] = 1
        if self._single_copies:
            obs[bases["obs"] + tables["count"][upcoming]] = 0  # its only copy is shown now
        else:
            obs[bases["obs"] + tables["count"][upcoming]] -= 1
        self._obs[sel, PLACED_INDEX] = placed

        if self._incremental:
            earned = self._completed_lines(a, bases, grid)
            self._score[sel] += earned
            rewards[sel] = earned
        elif ended.any():
            # "final" pays only at the end, so lines are scored once, all ten together.
            done = np.flatnonzero(ended) if rows is None else rows[ended]
            totals = self._grid_scores(done)
            self._score[done] = totals
            rewards[done] = totals
        return ended

    def _completed_lines(self, a: np.ndarray, bases: dict[str, np.ndarray], grid: np.ndarray):
        """Points of the rows and columns the cards just placed on ``a`` complete, per game."""
        tables = _TABLES
        line_counts = self._line_counts.reshape(-1)
        lines = bases["lines"] + tables["lines_of_cell"][a]
        line_counts[lines] += 1
        game, which = np.nonzero(line_counts[lines] == 5)
        earned = np.zeros(len(a), dtype=np.int64)
        if len(game):
            line = tables["lines_of_cell"][a[game], which]
            line_cards = grid[bases["grid"][game, None] + tables["line_cells"][line]]
            np.add.at(earned, game, self._points[hand_classes(line_cards)])
        return earned

    def _grid_scores(self, rows: np.ndarray) -> np.ndarray:
        """Total points of the full grids of games ``rows``."""
        line_cards = self._grid[rows][:, _TABLES["line_cells"]].reshape(-1, 5)
        return self._points[hand_classes(line_cards)].reshape(len(rows), 10).sum(axis=1)

    # --- dealing ------------------------------------------------------------------------------
    def _deal_rows(self, rows: np.ndarray, cards: np.ndarray | None) -> None:
        """Start new games in ``rows``: shuffle each game's deck with its own generator."""
        m = len(rows)
        if m == 0:
            return
        order = self._next_deals(rows) if cards is None else cards
        if self.game.variant == "shuffle":
            order = np.sort(order, axis=1)[:, ::-1]
            slots = (np.arange(m) * NUM_CARD_IDS)[:, None] + order
            to_come = np.bincount(slots.ravel(), minlength=m * NUM_CARD_IDS)
            to_come = to_come.reshape(m, NUM_CARD_IDS)
        else:
            to_come = np.broadcast_to(self._deck_counts, (m, NUM_CARD_IDS))
        first = order[:, 0]

        everyone = m == self.num_envs
        sel: slice | np.ndarray = slice(None) if everyone else rows
        self._common_placed = 0 if everyone else None
        self._deal[sel, :GRID_CELLS] = order
        self._placed[sel] = 0
        self._grid[sel] = EMPTY
        self._line_counts[sel] = 0
        self._score[sel] = 0
        self._mask[sel] = self._initial_mask
        self._empty[sel] = 1
        self._ended[sel] = False
        self._any_ended = not everyone and bool(self._ended.any())
        self._obs[sel] = 0
        self._obs[sel, COUNTS_OFFSET:PLACED_INDEX] = to_come
        obs = self._obs.reshape(-1)
        obs[rows * OBS_SIZE + COUNTS_OFFSET + first] -= 1  # the card shown is no longer to come
        obs[(rows * OBS_SIZE)[:, None] + _TABLES["current"][first]] = 1

    def _next_deals(self, rows: np.ndarray) -> np.ndarray:
        """The next deal (25 cards) of each game in ``rows``, from its generator.

        ``rng.permuted(packs, axis=1)`` over ``DEALS_AHEAD`` copies of the deck makes the same
        draws as that many ``rng.permutation(deck)`` calls in a row (the single env's dealing,
        one reset after another) at a fraction of the per-call cost, so each game's generator
        deals ahead and the deals wait in ``_ahead``.
        """
        ahead = self._ahead_next[rows]
        empty = rows[ahead >= DEALS_AHEAD]
        if len(empty):
            packs = np.empty((len(empty), DEALS_AHEAD, len(self._deck)), dtype=np.int8)
            packs[:] = self._deck
            for pack, i in zip(packs, empty.tolist(), strict=True):
                self._rngs[i].permuted(pack, axis=1, out=pack)  # type: ignore[union-attr]
            self._ahead[empty] = packs[:, :, :GRID_CELLS]
            self._ahead_next[empty] = 0
            ahead = self._ahead_next[rows]
        self._ahead_next[rows] = ahead + 1
        return self._ahead[rows, ahead]

    def _fixed_cards(self, cards: object) -> np.ndarray:
        """Fixed deals as ``(num_envs, 25)`` ids: one deal for every game, or one per game."""
        if isinstance(cards, np.ndarray) and cards.ndim == 2:
            deals = list(cards)
        elif not isinstance(cards, str) and all(
            not isinstance(d, (str, int, np.integer))
            or (isinstance(d, str) and len(d.replace(",", " ").split()) > 1)
            for d in cards  # type: ignore[union-attr]
        ):
            deals = list(cards)  # type: ignore[call-overload]
        else:
            deals = [cards]
        if len(deals) not in (1, self.num_envs):
            raise ValueError(
                f"bad cards: {len(deals)} deals for {self.num_envs} games: expected one deal "
                f"of 25 cards, or one per game"
            )
        # new_state checks the deal (25 cards the deck holds), as the single env's reset does.
        ids = [parse_cards(deal) for deal in deals]
        for deal in ids:
            self.game.new_state(deal)
        return np.broadcast_to(np.array(ids, dtype=np.int8), (self.num_envs, GRID_CELLS))

    # --- checks ----------------------------------------------------------------------------------
    def _check_shape(self, actions: np.ndarray | Sequence[int]) -> np.ndarray:
        a = np.asarray(actions)
        if a.shape != (self.num_envs,) or a.dtype.kind not in "iu":
            raise IllegalActionError(
                f"bad actions {actions!r}: expected {self.num_envs} int cells in 0..24"
            )
        return a.astype(np.intp)

    def _check_legal(self, a: np.ndarray, rows: np.ndarray | None) -> None:
        """Raise, naming the first offending game, unless every action is a legal cell."""
        acts = a if rows is None else a[rows]
        bad = acts.view(np.uintp) >= GRID_CELLS  # negatives wrap to huge
        if not bad.any():
            base = self._bases["grid"] if rows is None else rows * GRID_CELLS
            bad = self._mask.reshape(-1)[base + acts] == 0
            if not bad.any():
                return
        game = int(np.flatnonzero(bad)[0])
        if rows is not None:
            game = int(rows[game])
        try:
            check_action(a[game], self._mask[game], cell_name, what="cell")
        except IllegalActionError as err:
            raise IllegalActionError(f"env {game}: {err}") from None
        raise RuntimeError(f"env {game}: the mask refused cell {a[game]} but check_action took it")

    def _render_game(self, i: int) -> str:
        grid = self._grid[i].tolist()
        full = [line for line in LINES if all(grid[c] != EMPTY for c in line)]
        state = SquaresState(
            cards=self._deal[i, :GRID_CELLS].tolist(),
            grid=grid,
            placed=int(self._placed[i]),
            mask=self._mask[i].copy(),
            line_fill=[sum(grid[c] != EMPTY for c in line) for line in LINES],
            line_points=[0] * 10,  # rendering scores full lines itself
            to_come=self._obs[i, COUNTS_OFFSET:PLACED_INDEX].astype(np.int16),
            score=sum(self.game.line_points([grid[c] for c in line]) for line in full),
        )
        return f"game {i}\n" + render_grid(self.game, state)


_INFO_TABLE = markdown_table(
    ("key", "type", "content"),
    [
        (
            "`action_mask`",
            "int array (num_envs, 25)",
            "`int8`: each game's legal cells; after every reset and step",
        ),
        ("`score`", "int array (num_envs)", "`int64`: the score of each game that ended"),
        (
            "`grid`",
            "int array (num_envs, 25)",
            "`int8`: the card ids of each game that ended, row-major (the single env gives "
            "strings)",
        ),
        (
            "`final_obs`, `final_info`",
            "array, dict",
            '`"SameStep"` only: the ended games\' last observation and info',
        ),
    ],
)
document(sys.modules[__name__], observation_table=LAYOUT.table(), info_table=_INFO_TABLE)
