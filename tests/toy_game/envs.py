"""The toy game's envs: PettingZoo AEC (``env()``) and the single-seat Gymnasium view."""

from __future__ import annotations

from typing import Any, ClassVar

from pokerzoo.envs.core.errors import RENDER_MODES
from pokerzoo.envs.core.pettingzoo_env import CardGameAECEnv, order_enforcing
from pokerzoo.envs.core.single_seat import SingleSeatEnv, named_opponents

from .bots import BOTS
from .game import TakeTwoGame


class raw_env(CardGameAECEnv):  # noqa: N801 - PettingZoo's conventional name
    """Take two, turn-based."""

    metadata: ClassVar[dict[str, Any]] = {"name": "take_two_v0", "render_modes": list(RENDER_MODES)}

    def __init__(
        self, payoff: str = "win", render_mode: str | None = None, masked_action: str = "raise"
    ) -> None:
        super().__init__(TakeTwoGame(payoff), render_mode=render_mode, masked_action=masked_action)


def env(**options: Any) -> Any:
    return order_enforcing(raw_env(**options))


class TakeTwoEnv(SingleSeatEnv):
    """Take two from one seat against a bot."""

    def __init__(
        self,
        opponent: str = "greedy",
        payoff: str = "win",
        seat: int | None = None,
        render_mode: str | None = None,
        masked_action: str = "raise",
    ) -> None:
        aec = raw_env(payoff=payoff, render_mode=render_mode, masked_action=masked_action)
        super().__init__(aec, named_opponents(BOTS, opponent, 2), seat=seat)
