"""Five-card stud, PettingZoo env v0: ``env()``, ``raw_env``."""

from .five_card_stud import pettingzoo_env as _impl
from .five_card_stud.pettingzoo_env import env, raw_env

__doc__ = _impl.__doc__
__all__ = ["env", "raw_env"]
