"""numba, where it is installed: the compiled loops of the hot paths (poker without a name's
play-outs, numpy's row shuffles read off a generator's raw bits), each beside the pure numpy or
Python code it stands for and equal to it (tests run both).

numba is optional (``pip install pokerzoo[fast]``; the ``train`` extra includes it): without it
:data:`AVAILABLE` is false, :func:`jit` leaves a function as it is, and every caller takes its
numpy path, with the same results. ``POKERZOO_NUMBA=0`` in the environment turns the compiled
loops off where numba is installed (set before :mod:`pokerzoo` is imported).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any, TypeVar

__all__ = ["AVAILABLE", "jit"]

F = TypeVar("F", bound=Callable[..., Any])

try:
    import numba
except ImportError:  # pragma: no cover - exercised where numba is absent
    numba = None

AVAILABLE = numba is not None and os.environ.get("POKERZOO_NUMBA", "1") != "0"
"""Whether the compiled loops run (numba installed and not turned off)."""


def jit(function: F) -> F:
    """``function`` compiled to machine code with numba (no Python objects inside, no GIL held,
    cached on disk beside its module where that is writable) when numba is installed; the
    function itself otherwise. The first call in a process compiles it, or loads the cache."""
    if numba is None:
        return function
    return numba.njit(cache=True, nogil=True)(function)  # type: ignore[no-any-return]
