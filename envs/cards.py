"""Public alias of :mod:`pokerzoo.envs.core.cards`: the module path RULES §6 and the docs
document."""

from .core.cards import *  # noqa: F403 - the alias re-exports the module's public names
from .core.cards import __all__  # noqa: F401
