"""Quintet (RULES §1) from one seat against a bot: the Gymnasium env ``pokerzoo/Quintet-v0``."""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from ..agents.base import Bot
from ..agents.quintet import BOTS
from . import quintet as game
from .errors import GameOverError, check_render_mode
from .quintet_v0 import terminal_info

__all__ = ["QuintetEnv"]

AGENT, OPPONENT = 0, 1


class QuintetEnv(gym.Env[np.ndarray, np.int64]):
    """Quintet for one learner (``player_0``) against a bot opponent (``player_1``).

    Both players arrange the same 25 piquet cards into five packs without seeing each other's;
    packs are compared position by position for 3, 4, 5, 6, 7 points. The cards are placed one
    per step in a fixed order (descending card id: aces first), the same card for both players;
    the bot places it too, without seeing the learner's move, so the game stays simultaneous.
    The game is symmetric, so one seat is enough.

    ## Action Space
    ``Discrete(5)``: the pack that receives the current card; pack ``p`` lies at position ``p + 1``
    and is worth ``3 + p`` points. Full packs are masked off: ``info["action_mask"]`` (int8) after
    every reset and step, and ``action_masks()`` (bool) for sb3-contrib's ``MaskablePPO``. A masked
    or out-of-range action raises :class:`~pokerzoo.envs.errors.IllegalActionError` naming it and
    leaves the game (and the bot) unchanged; a step after the end raises
    :class:`~pokerzoo.envs.errors.GameOverError`.

    ## Observation Space
    ``Box(0, high, (262,), uint8)``, the learner's view: the 25 cards, its own packs so far, the
    card to place, the cards still to come, pack sizes and the step. The index table is in
    :func:`pokerzoo.envs.quintet.encode_observation`. The bot's packs stay hidden.

    ## Rewards
    Zero until the 25th step, then ``reward="points"`` (default): own points minus the bot's
    (-25..25); ``reward="win"``: +1 / 0 / -1. At the end ``info`` also holds ``"arrangements"``,
    ``"results"`` (per position, +1 the learner's pack wins), ``"points"`` and ``"winner"``
    (``"player_0"`` is the learner). Episodes last exactly 25 steps and are never truncated.

    ## Options
    - ``opponent="greedy"``: a name from :data:`pokerzoo.agents.quintet.BOTS` (``"random"``,
      ``"greedy"``, ``"sacrifice"``, ``"mixed"``, ``"best_response"``), built with this env's
      options, or a :class:`~pokerzoo.agents.base.Bot` instance.
    - ``reward="points" | "win"``.
    - ``render_mode=None | "ansi"``: ``render()`` returns the text view of both rows.

    ## Seeding
    ``reset(seed=s)`` reseeds the deal and the bot (the bot's seed is drawn from the env's
    generator at every reset), so a seeded episode replays exactly, bot included.

    ## Version History
    - v0: initial.
    """

    metadata = {"render_modes": ["ansi"], "render_fps": 4}

    def __init__(
        self,
        opponent: str | Bot = "greedy",
        reward: str = "points",
        render_mode: str | None = None,
    ) -> None:
        if reward not in game.REWARDS:
            raise ValueError(f"bad reward {reward!r}: expected one of {', '.join(game.REWARDS)}")
        check_render_mode(render_mode, self.metadata["render_modes"])
        if isinstance(opponent, str):
            if opponent not in BOTS:
                raise ValueError(
                    f"bad opponent {opponent!r}: expected a Bot or one of {', '.join(BOTS)}"
                )
            self.opponent: Bot = BOTS[opponent](reward=reward)
        elif isinstance(opponent, Bot):
            self.opponent = opponent
        else:
            raise ValueError(
                f"bad opponent {opponent!r}: expected a Bot or one of {', '.join(BOTS)}"
            )
        self.reward_kind = reward
        self.render_mode = render_mode
        self.observation_space = spaces.Box(
            low=0, high=game.OBSERVATION_HIGH, shape=(game.OBSERVATION_SIZE,), dtype=np.uint8
        )
        self.action_space = spaces.Discrete(game.NUM_PACKS)
        self.state: game.QuintetState | None = None

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        self.state = game.deal(self.np_random)
        self.opponent.reset(seed=int(self.np_random.integers(2**63)))
        return game.encode_observation(self.state, AGENT), self._info()

    def _info(self) -> dict[str, Any]:
        assert self.state is not None
        return {"action_mask": game.legal_packs(self.state, AGENT)}

    def action_masks(self) -> np.ndarray:
        """Legal packs as a bool array (all False before reset and after the end)."""
        if self.state is None:
            return np.zeros(game.NUM_PACKS, dtype=bool)
        return game.legal_packs(self.state, AGENT).astype(bool)

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        if self.state is None:
            raise GameOverError("call reset() before step()")
        if game.is_terminal(self.state):
            raise GameOverError("the game is over: call reset()")
        # Check the learner's pack before the bot acts, so an illegal action changes nothing.
        pack = game.check_pack(self.state, AGENT, action)
        # The bot sees its own view only: the learner's packs are never in it.
        view = game.encode_observation(self.state, OPPONENT)
        bot_pack = self.opponent.act(view, game.legal_packs(self.state, OPPONENT))
        game.place_both(self.state, [pack, bot_pack])
        info = self._info()
        terminated = game.is_terminal(self.state)
        reward = 0.0
        if terminated:
            reward = game.returns(self.state, self.reward_kind)[AGENT]
            info.update(terminal_info(self.state))
        return game.encode_observation(self.state, AGENT), reward, terminated, False, info

    def render(self) -> str | None:
        if self.render_mode is None or self.state is None:
            return None
        return game.render_text(self.state)
