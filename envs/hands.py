"""Public alias of :mod:`pokerzoo.envs.core.hands`: the module path RULES §6 and the README
document."""

from .core.hands import *  # noqa: F403 - the alias re-exports the module's public names
from .core.hands import __all__  # noqa: F401
