"""The protocol every baseline bot follows, so one bot serves every API of its game.

The protocol lives with the envs (:mod:`pokerzoo.envs.core.bots`), which play bots without
importing this package; its names are re-exported here, so ``from pokerzoo.agents.base import
Bot`` keeps working.
"""

from __future__ import annotations

from ..envs.core.bots import Bot, RandomBot, masked_random_choice

__all__ = ["Bot", "RandomBot", "masked_random_choice"]
