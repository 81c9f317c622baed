"""Quintet's engine as every env drives it: the rules, the observation and the text view
(the contract of :mod:`pokerzoo.envs.core.game`)."""

from __future__ import annotations

import numpy as np

from .observation import LAYOUT, encode_observation
from .render import render_text
from .rules import QuintetRules, QuintetState

__all__ = ["QuintetGame"]


class QuintetGame(QuintetRules):
    """:class:`~.rules.QuintetRules` with each player's observation and the spectator's view."""

    layout = LAYOUT

    def observe(self, state: QuintetState, player: int) -> np.ndarray:
        return encode_observation(state, player)

    def render(self, state: QuintetState) -> str:
        return render_text(self, state)
