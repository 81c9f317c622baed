"""A single-agent Gymnasium view of any of the package's PettingZoo AEC envs.

The learner holds one seat (drawn per episode, or fixed); every other seat is played by an
opponent drawn per episode (a baseline bot or a frozen snapshot, see
:class:`pokerzoo.training.opponents.OpponentPool`) *inside* ``step``. The learner sees only its
own turns.

Rewards
-------
The reward returned by ``step`` is everything the learner earned from its own move up to its
next turn (or the end of the game): after the learner's move and after every opponent move the
view adds ``env.rewards[learner]``, the learner's share of that step. So a terminal reward that
arrives on an *opponent's* final move reaches the learner on its last ``step``. (PettingZoo's
SB3 tutorial returns ``_cumulative_rewards`` of whoever acts next, which hands the learner the
opponent's reward and drops the learner's own terminal reward when an opponent ends the game.)

Observation and mask
--------------------
The observation is the learner's ``observe(seat)["observation"]``; the mask
(``observe(seat)["action_mask"]``) is returned by :meth:`SingleAgentView.action_masks` and in
``info["action_mask"]``. ``info`` also carries the env's info for the learner's seat, and
``"seat"`` and ``"opponents"`` (names by seat).

Seeding
-------
``reset(seed=s)`` seeds the view's Generator; each episode's deal seed, the learner's seat,
the opponent pool and the opponents' reset seeds are all drawn from it, so a seeded first reset
replays every later episode.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import gymnasium as gym
import numpy as np

from ..agents.base import Bot
from ..envs.errors import GameOverError

__all__ = ["SingleAgentView"]


class SingleAgentView(gym.Env):
    """One seat of an AEC env as a Gymnasium env; the other seats act inside ``step``.

    Args:
        aec_env: the PettingZoo AEC env (built once; reset per episode).
        sample_opponent: called once per opponent seat per episode, returns a :class:`Bot`
            (e.g. ``OpponentPool.sample``). Its randomness is the caller's; the view re-seeds a
            pool with a ``reset(seed)`` method when it is itself reset with a seed.
        learner_seat: index into ``possible_agents`` for a fixed seat; ``None`` draws one per
            episode.
        pool: optional object with ``reset(seed)``, re-seeded from the view's own seed.
    """

    metadata = {"render_modes": []}

    def __init__(
        self,
        aec_env: Any,
        sample_opponent: Callable[[], Bot],
        learner_seat: int | None = None,
        pool: Any = None,
    ) -> None:
        self.aec = aec_env
        self.seats = list(aec_env.possible_agents)
        if learner_seat is not None and not 0 <= learner_seat < len(self.seats):
            raise ValueError(f"learner_seat {learner_seat} outside 0..{len(self.seats) - 1}")
        self.sample_opponent = sample_opponent
        self.fixed_seat = learner_seat
        self.pool = pool
        first = self.seats[0]
        self.observation_space = aec_env.observation_space(first)["observation"]
        self.action_space = aec_env.action_space(first)
        self.learner = first
        self.opponents: dict[str, Bot] = {}
        self._mask = np.zeros(self.action_space.n, dtype=np.int8)
        self._done = True

    # --- Gymnasium API -----------------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None and self.pool is not None and hasattr(self.pool, "reset"):
            self.pool.reset(int(self.np_random.integers(2**31)))
        # A game that ends before the learner's first turn has no step to report: deal again.
        for _ in range(100):
            deal_seed = int(self.np_random.integers(2**31))
            if self.fixed_seat is None:
                seat = int(self.np_random.integers(len(self.seats)))
            else:
                seat = self.fixed_seat
            self.learner = self.seats[seat]
            self.opponents = {a: self.sample_opponent() for a in self.seats if a != self.learner}
            self.aec.reset(seed=deal_seed, options=options)
            self._done = False
            self._play_opponents()
            if not self._learner_finished():
                break
        else:
            raise RuntimeError("the game kept ending before the learner's first turn")
        observation, info = self._observe()
        return observation, info

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        if self._done:
            raise GameOverError("the episode is over; call reset() first")
        self.aec.step(action)  # raises on an illegal action, leaving the game unchanged
        reward = self._learner_reward()
        reward += self._play_opponents()
        terminated = bool(self.aec.terminations.get(self.learner, False))
        truncated = bool(self.aec.truncations.get(self.learner, False)) and not terminated
        self._done = terminated or truncated
        observation, info = self._observe()
        return observation, float(reward), terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions (bool), for sb3-contrib's MaskablePPO."""
        return self._mask.astype(bool)

    def add_snapshot(self, path: str) -> None:
        """Hand a newly saved snapshot of the learner to the opponent pool (self-play)."""
        if self.pool is None or not hasattr(self.pool, "add_snapshot"):
            raise ValueError("this view has no opponent pool that takes snapshots")
        self.pool.add_snapshot(path)

    def render(self) -> Any:
        return self.aec.render()

    def close(self) -> None:
        self.aec.close()

    # --- internals ---------------------------------------------------------------------------

    def _learner_reward(self) -> float:
        return float(self.aec.rewards.get(self.learner, 0.0))

    def _learner_finished(self) -> bool:
        return bool(
            self.aec.terminations.get(self.learner, True)
            or self.aec.truncations.get(self.learner, False)
        )

    def _play_opponents(self) -> float:
        """Let the other seats act until the learner is to move or is finished."""
        reward = 0.0
        while not self._learner_finished() and self.aec.agent_selection != self.learner:
            agent = self.aec.agent_selection
            if self.aec.terminations.get(agent, False) or self.aec.truncations.get(agent, False):
                self.aec.step(None)  # PettingZoo's "dead step" removes a finished seat
            else:
                seen = self.aec.observe(agent)
                self.aec.step(self.opponents[agent].act(seen["observation"], seen["action_mask"]))
            reward += self._learner_reward()
        return reward

    def _observe(self) -> tuple[np.ndarray, dict[str, Any]]:
        seen = self.aec.observe(self.learner)
        self._mask = np.asarray(seen["action_mask"], dtype=np.int8)
        info = dict(self.aec.infos.get(self.learner, {}))
        info["action_mask"] = self._mask.copy()
        info["seat"] = self.learner
        info["opponents"] = {agent: bot.name for agent, bot in self.opponents.items()}
        return seen["observation"], info
