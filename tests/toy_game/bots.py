"""The toy game's bots: random, and greedy (the highest card left)."""

from __future__ import annotations

from typing import Any

import numpy as np
from pokerzoo.agents.base import masked_random_choice

from .game import LAYOUT


class RandomBot:
    name = "random"

    def __init__(self, *, seed: int | None = None, **options: Any) -> None:
        self.reset(seed)

    def reset(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        return masked_random_choice(self.rng, action_mask)


class GreedyBot(RandomBot):
    name = "greedy"

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        ranks = np.where(action_mask > 0, observation[LAYOUT["ranks"]].astype(int), -1)
        return int(np.argmax(ranks))


BOTS = {"random": RandomBot, "greedy": GreedyBot}
