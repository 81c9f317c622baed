"""The Gymnasium env of a one-player game: one base, so that such a game writes only what its
own rules add (its observation, rewards and final info).

:class:`OnePlayerEnv` holds the game's rules object (``game_class``, built with the env's game
options), the render mode and ``masked_action``, the ``Discrete`` action space and the ``Box``
observation space of a layout, and it implements the Gymnasium API the same way for every
such game:

- ``reset(seed=s)`` seeds the env's generator and starts a game from it
  (``game.new_state(cards, rng=np_random)``); ``reset(options={"cards": ...})`` plays a fixed
  deal; an unknown reset option is ignored with a warning naming the accepted ones
  (Gymnasium's convention). A reset that raises changes nothing, the generator included.
- ``step`` raises :class:`~.errors.GameOverError` before the first reset and once the game is
  over; an illegal or out-of-space action raises :class:`~.errors.IllegalActionError` naming it
  and the legal ones, changing nothing, or with ``masked_action="random"`` an in-space masked
  action is replaced by a random legal one from the env's generator, reported in
  ``info["masked_action"]``. Episodes are never truncated.
- ``info`` holds ``action_mask`` (``int8``, the legal actions now) after every reset and step,
  ``masked_action`` on a step whose action was replaced, and the game's final keys on the last
  step; :meth:`~OnePlayerEnv.action_masks` is sb3-contrib's MaskablePPO hook.
- ``render_mode="ansi"`` returns the game's text, ``"human"`` prints it after every reset and
  step; ``render()`` without a render mode warns and returns ``None``.

:class:`EngineOnePlayerEnv` is that env over an engine of the contract of :mod:`.game` with one
seat (what :mod:`.build` makes for a one-player game's spec that names its engine): the
engine's observation, mask, transition (the reward: its :class:`~.game.Payout`) and render;
its ``info(state, 0)`` on the last step.

A game's env subclasses it, names ``game_class``, ``action_noun`` and the message of a step
after the end, and writes the hooks: :meth:`~OnePlayerEnv._legal`,
:meth:`~OnePlayerEnv.describe_action`, :meth:`~OnePlayerEnv._started`,
:meth:`~OnePlayerEnv._play`, :meth:`~OnePlayerEnv._final_info` and
:meth:`~OnePlayerEnv._text` (Poker Squares' :class:`~pokerzoo.envs.poker_squares.PokerSquaresEnv`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from .errors import (
    MASKED_ACTIONS,
    RENDER_FPS,
    RENDER_MODES,
    GameOverError,
    check_render_mode,
    resolve_action,
)
from .observation import ObservationLayout
from .options import build, check_choice, check_reset_options
from .seeding import kept_on_error

__all__ = ["EngineOnePlayerEnv", "OnePlayerEnv"]


class OnePlayerEnv(gym.Env[np.ndarray, np.int64]):
    """Base of a one-player game's Gymnasium env (see the module docstring).

    A subclass's ``__init__`` calls :meth:`_build_game` with the game options, checks its own
    options, then calls :meth:`_setup` with the render mode, ``masked_action``, the number of
    actions and the observation layout.
    """

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": list(RENDER_MODES),
        "render_fps": RENDER_FPS,
    }
    game_class: ClassVar[Callable[..., Any]]
    """The game's rules, built with the env's game options."""
    reset_options: ClassVar[tuple[str, ...]] = ("cards",)
    """The keys ``reset(options=...)`` accepts: ``"cards"`` goes to ``new_state`` as its first
    argument, every other key as a keyword."""
    action_noun: ClassVar[str] = "action"
    """What an action is called in messages (``"cell"``)."""
    over_message: ClassVar[str] = "the game is over: call reset() first"
    """The :class:`~.errors.GameOverError` of a step after the end."""

    # --- set-up, for the subclass's __init__ ---------------------------------------------------
    def _build_game(self, options: Mapping[str, Any], also: Sequence[str] = ()) -> None:
        """``self.game``: ``game_class(**options)``; an option neither it nor the env takes
        (``also``: the subclass's own, besides ``render_mode`` and ``masked_action``) raises
        :class:`~.errors.UnknownOptionError` naming it."""
        self.game = build(
            self.game_class,
            options,
            type(self).__name__,
            also=(*also, "render_mode", "masked_action"),
        )

    def _setup(
        self,
        render_mode: str | None,
        masked_action: str,
        num_actions: int,
        layout: ObservationLayout,
    ) -> None:
        """Check the render mode and ``masked_action``; the spaces (``Discrete(num_actions)``
        and ``layout``'s ``Box``)."""
        self.render_mode = check_render_mode(render_mode, self.metadata["render_modes"])
        self.masked_action = check_choice("masked_action", masked_action, MASKED_ACTIONS)
        self.action_space = spaces.Discrete(num_actions)
        self.observation_space = spaces.Box(
            low=layout.low.copy(), high=layout.high.copy(), dtype=layout.dtype
        )
        self._state: Any = None

    # --- the game's hooks ------------------------------------------------------------------------
    def _legal(self, state: Any) -> np.ndarray:
        """The legal actions now (``int8``; all zeros once over)."""
        raise NotImplementedError

    def describe_action(self, action: int) -> str:
        """An action's name in messages."""
        return str(action)

    def _started(self, state: Any) -> np.ndarray:
        """The observation of a new game (a new array)."""
        raise NotImplementedError

    def _play(self, state: Any, action: int) -> tuple[np.ndarray, float, bool]:
        """Play a legal ``action``: the observation (a new array), the reward, whether the game
        is over."""
        raise NotImplementedError

    def _final_info(self, state: Any) -> dict[str, Any]:
        """The info keys of the last step, after ``action_mask`` (none by default)."""
        return {}

    def _text(self, state: Any) -> str:
        """The text view (``render``)."""
        raise NotImplementedError

    # --- Gymnasium API ---------------------------------------------------------------------------
    @property
    def game_state(self) -> Any:
        """The engine state of the current episode (``None`` before the first reset)."""
        return self._state

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        chosen = check_reset_options(options, self.reset_options)
        cards = chosen.pop("cards", None)
        # A reset that raises (a malformed "cards") changes nothing, the generator included.
        kept = (self._np_random, self._np_random_seed)
        with kept_on_error(self._np_random):
            try:
                super().reset(seed=seed)
                state = self.game.new_state(cards, rng=self.np_random, **chosen)
            except BaseException:
                self._np_random, self._np_random_seed = kept
                raise
        self._state = state
        observation = self._started(state)
        if self.render_mode == "human":
            self.render()
        return observation, self._info(state)

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        state = self._state
        if state is None:
            raise GameOverError("no game in progress: call reset() first")
        if self.game.is_terminal(state):
            raise GameOverError(self.over_message)
        legal, asked = resolve_action(
            action,
            self._legal(state),
            self.masked_action,
            self.np_random,
            self.describe_action,
            self.action_noun,
        )
        observation, reward, terminated = self._play(state, legal)
        info = self._info(state, asked)
        if terminated:
            info.update(self._final_info(state))
        if self.render_mode == "human":
            self.render()
        return observation, float(reward), terminated, False, info

    def action_masks(self) -> np.ndarray:
        """The legal actions as a bool array (the sb3-contrib MaskablePPO hook)."""
        if self._state is None:
            return np.zeros(self.action_space.n, dtype=bool)
        return self._legal(self._state).astype(bool)

    def render(self) -> str | None:
        if self._state is None:
            raise GameOverError("nothing to render: call reset() first")
        text = self._text(self._state)
        if self.render_mode == "human":
            # "human" mode prints by definition: the text and one line end
            print(text, end="" if text.endswith("\n") else "\n")  # noqa: T201
            return None
        if self.render_mode == "ansi":
            return text
        gym.logger.warn(
            "render() called without a render_mode; create the env with render_mode='ansi' or "
            "'human'"
        )
        return None

    # --- internals -------------------------------------------------------------------------------
    def _info(self, state: Any, asked: object = None) -> dict[str, Any]:
        info: dict[str, Any] = {"action_mask": self._legal(state).copy()}
        if asked is not None:
            info["masked_action"] = asked
        return info


class EngineOnePlayerEnv(OnePlayerEnv):
    """A one-seat engine (:mod:`.game`) as a Gymnasium env; a subclass names ``game_class``
    (see the module docstring). Options: the engine's, ``render_mode``, ``masked_action``."""

    def __init__(
        self, render_mode: str | None = None, masked_action: str = "raise", **options: Any
    ) -> None:
        self._build_game(options)
        game = self.game
        if game.num_players != 1:
            raise ValueError(f"{type(game).__name__} has {game.num_players} seats, not one")
        self._setup(render_mode, masked_action, game.num_actions, game.layout)

    def _legal(self, state: Any) -> np.ndarray:
        return self.game.legal_mask(state, 0)

    def describe_action(self, action: int) -> str:
        return self.game.describe_action(action)

    def _started(self, state: Any) -> np.ndarray:
        return self.game.observe(state, 0)

    def _play(self, state: Any, action: int) -> tuple[np.ndarray, float, bool]:
        payout = self.game.transition(state, 0, action)  # legal: checked by step
        reward = 0.0 if payout is None else float(payout.rewards[0])
        return self.game.observe(state, 0), reward, self.game.is_terminal(state)

    def _final_info(self, state: Any) -> dict[str, Any]:
        return dict(self.game.info(state, 0)) if hasattr(self.game, "info") else {}

    def _text(self, state: Any) -> str:
        return self.game.render(state)
