"""numba, where it is installed: the compiled loops of the hot paths (the hand evaluator's
``evaluate`` and ``evaluate_draws``, the bounded draws' arithmetic and the lowest of random keys,
poker without a name's play-outs, deal counts and sampler, five-card stud's Monte-Carlo
features, draw poker's equity-bot shuffles, caller's draw and features' futures and tables,
Quintet's scans for candidate packs), each beside the numpy or Python code it stands for and
equal to it (tests run both).

numba is optional (``pip install pokerzoo[fast]``; the ``train`` extra includes it): without it
:func:`available` is false and every caller takes its numpy path, with the same results.
``POKERZOO_NUMBA=0`` in the environment turns the compiled loops off where numba is installed
(read when :mod:`pokerzoo` is imported). numba itself is imported only when a caller first asks
:func:`available`: importing the envs, or training a game without compiled loops, does not
import it. A numba that is installed but fails to import (one built for another numpy) turns
the loops off with a warning; where numba finds no writable cache directory the loops are
compiled in each process instead of loaded from its cache.
"""

from __future__ import annotations

import importlib.util
import os
import warnings
from collections.abc import Callable
from typing import Any, TypeVar

__all__ = ["AVAILABLE", "INSTALLED", "available", "jit"]

F = TypeVar("F", bound=Callable[..., Any])

INSTALLED = (
    importlib.util.find_spec("numba") is not None and os.environ.get("POKERZOO_NUMBA", "1") != "0"
)
"""Whether numba is installed and not turned off (found without importing it): what a caller
may decide on at import time (a batch size); :func:`available` says whether the loops run."""
AVAILABLE: bool | None = None if INSTALLED else False
"""Whether the callers run the compiled loops: ``None`` until :func:`available` first imports
numba, ``False`` where it is not installed or turned off (a test sets it to compare both
ways)."""


def available() -> bool:
    """Whether the compiled loops run: numba installed, not turned off, and importable (the
    first call imports it; a failed import warns once and turns the loops off)."""
    global AVAILABLE
    if AVAILABLE is None:
        try:
            import numba  # noqa: F401
        except Exception as error:  # an ImportError, or a numba built for another numpy
            warnings.warn(
                f"numba is installed but cannot be imported ({error}); pokerzoo's compiled "
                "loops are off (the same results, slower)",
                RuntimeWarning,
                stacklevel=2,
            )
            AVAILABLE = False
        else:
            AVAILABLE = True
    return AVAILABLE


def jit(function: F) -> F:
    """``function`` compiled to machine code by numba (no Python objects inside, no GIL held):
    the first call in a process compiles it (a second or a few), or loads it from numba's cache
    (beside its module where that is writable, else numba's user cache directory; where
    neither is, it is compiled in each process). Used by the modules of compiled loops, which
    only callers that :func:`available` allows import."""
    import numba

    try:
        return numba.njit(cache=True, nogil=True)(function)  # type: ignore[no-any-return]
    except RuntimeError:  # "cannot cache function ...: no locator available"
        return numba.njit(nogil=True)(function)  # type: ignore[no-any-return]
