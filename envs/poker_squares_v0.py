"""Multi-player Poker Squares, PettingZoo env v0: ``env()``, ``raw_env``, ``parallel_env()``."""

from .poker_squares import pettingzoo_env as _impl
from .poker_squares.pettingzoo_env import PokerSquaresParallelEnv, env, parallel_env, raw_env

__doc__ = _impl.__doc__
__all__ = ["PokerSquaresParallelEnv", "env", "parallel_env", "raw_env"]
