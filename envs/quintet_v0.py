"""Quintet, PettingZoo env v0: ``env()``, ``raw_env``, ``parallel_env()``."""

from .quintet import pettingzoo_env as _impl
from .quintet.pettingzoo_env import env, parallel_env, raw_env, raw_parallel_env

__doc__ = _impl.__doc__
__all__ = ["env", "parallel_env", "raw_env", "raw_parallel_env"]
