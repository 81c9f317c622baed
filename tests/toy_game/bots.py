"""The toy game's bots: random, and greedy (the highest card left)."""

from __future__ import annotations

import numpy as np
from pokerzoo.agents.base import RandomBot

from .game import LAYOUT


class GreedyBot(RandomBot):
    """The highest card left."""

    name = "greedy"

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        ranks = np.where(action_mask > 0, observation[LAYOUT["ranks"]].astype(int), -1)
        return int(np.argmax(ranks))


BOTS = {"random": RandomBot, "greedy": GreedyBot}
