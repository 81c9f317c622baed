"""Draw poker, PettingZoo env v0: ``env()``, ``raw_env``."""

from .draw_poker import pettingzoo_env as _impl
from .draw_poker.pettingzoo_env import env, raw_env

__doc__ = _impl.__doc__
__all__ = ["env", "raw_env"]
