"""numba, where it is installed: the compiled loops of the hot paths (poker without a name's
play-outs and deal counts), each beside the numpy or Python code it stands for and equal to it
(tests run both).

numba is optional (``pip install pokerzoo[fast]``; the ``train`` extra includes it): without it
:data:`AVAILABLE` is false and every caller takes its numpy path, with the same results.
``POKERZOO_NUMBA=0`` in the environment turns the compiled loops off where numba is installed
(read when :mod:`pokerzoo` is imported). numba itself is imported only with the first module of
compiled loops, when a caller first needs one: importing the envs, or training a game without
them, does not import it.
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Callable
from typing import Any, TypeVar

__all__ = ["AVAILABLE", "jit"]

F = TypeVar("F", bound=Callable[..., Any])

AVAILABLE = (
    importlib.util.find_spec("numba") is not None and os.environ.get("POKERZOO_NUMBA", "1") != "0"
)
"""Whether the callers run the compiled loops (numba installed and not turned off; a test sets
it to compare both ways)."""


def jit(function: F) -> F:
    """``function`` compiled to machine code by numba (no Python objects inside, no GIL held,
    cached on disk beside its module where that is writable, else in numba's user cache): the
    first call in a process compiles it (about a second), or loads the cache. Used by the
    modules of compiled loops, which only :data:`AVAILABLE` callers import."""
    import numba

    return numba.njit(cache=True, nogil=True)(function)  # type: ignore[no-any-return]
