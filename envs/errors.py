"""Public alias of :mod:`pokerzoo.envs.core.errors` (the errors every env raises):
the module path RULES §6 and the README document."""

from .core.errors import (
    GameOverError,
    IllegalActionError,
    UnsupportedRenderModeError,
    check_action,
    check_render_mode,
)

__all__ = [
    "GameOverError",
    "IllegalActionError",
    "UnsupportedRenderModeError",
    "check_action",
    "check_render_mode",
]
