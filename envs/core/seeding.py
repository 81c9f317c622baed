"""Resets that change nothing when they fail.

A reset draws from the env's generators before the game can refuse a bad reset option (a
malformed ``cards``, a bad ``dealer``); :func:`kept_on_error` puts those generators back as they
were when the reset raises, so that a failed reset leaves the env exactly as it found it and the
next unseeded ``reset()`` deals what it would have dealt without the failed call.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np

__all__ = ["kept_on_error"]


@contextmanager
def kept_on_error(*generators: np.random.Generator | None) -> Iterator[None]:
    """Restore each generator's state (``None`` entries are skipped) if the block raises."""
    saved = [(g, g.bit_generator.state) for g in generators if g is not None]
    try:
        yield
    except BaseException:
        for generator, state in saved:
            generator.bit_generator.state = state
        raise
