"""The toy game's envs: PettingZoo AEC (``env()``) and the single-seat Gymnasium view."""

from __future__ import annotations

from typing import Any, ClassVar

from pokerzoo.envs.core.pettingzoo_env import CardGameAECEnv, order_enforcing, pettingzoo_metadata
from pokerzoo.envs.core.single_seat import BotTableEnv

from .bots import BOTS
from .game import TakeTwoGame


class raw_env(CardGameAECEnv):  # noqa: N801 - PettingZoo's conventional name
    """Take two, turn-based."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_fps": 4,
        **pettingzoo_metadata("take_two_v0", parallelizable=False),
    }
    game_class = TakeTwoGame


def env(**options: Any) -> Any:
    return order_enforcing(raw_env(**options))


class TakeTwoEnv(BotTableEnv):
    """Take two from one seat against a bot."""

    metadata: ClassVar[dict[str, Any]] = {**BotTableEnv.metadata, "render_fps": 4}
    aec_class: ClassVar[Any] = raw_env
    bots: ClassVar[Any] = BOTS
    default_opponent: ClassVar[str] = "greedy"
