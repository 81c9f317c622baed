"""Public alias of :mod:`pokerzoo.envs.core.errors`: the module path RULES §6 and the docs
document."""

from .core.errors import *  # noqa: F403 - the alias re-exports the module's public names
from .core.errors import __all__  # noqa: F401
