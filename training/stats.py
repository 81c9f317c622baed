"""Means and rates with 95% confidence intervals, as the evaluation tables report them.

Means use the normal approximation (the evaluations hold thousands of games); rates use the
Wilson score interval, which stays inside [0, 1] and behaves near 0% and 100%. Paired results
(the agent and a bot on the same deal) are summarised through their per-deal differences, so the
deal-to-deal luck cancels out of the interval.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass

import numpy as np

__all__ = ["Estimate", "Z95", "mean_ci", "rate_ci"]

Z95 = 1.959963984540054


@dataclass(frozen=True)
class Estimate:
    """A point estimate with its 95% confidence interval over ``n`` samples."""

    value: float
    low: float
    high: float
    n: int

    def as_dict(self) -> dict[str, float | int]:
        return asdict(self)

    def format(self, digits: int = 2, percent: bool = False) -> str:
        """``12.34 ± 0.56`` (or ``55.1% [54.1, 56.1]`` for rates)."""
        if percent:
            return f"{100 * self.value:.1f}% [{100 * self.low:.1f}, {100 * self.high:.1f}]"
        half = (self.high - self.low) / 2
        return f"{self.value:.{digits}f} ± {half:.{digits}f}"


def mean_ci(
    values: Sequence[float] | np.ndarray,
    low: float = -math.inf,
    high: float = math.inf,
) -> Estimate:
    """Sample mean with a normal-approximation 95% interval (zero width for one sample),
    clipped to ``[low, high]`` (e.g. 0..1 for per-deal win shares)."""
    data = np.asarray(values, dtype=np.float64)
    if data.size == 0:
        raise ValueError("mean_ci needs at least one value")
    mean = float(data.mean())
    if data.size == 1:
        return Estimate(mean, mean, mean, 1)
    half = Z95 * float(data.std(ddof=1)) / math.sqrt(data.size)
    return Estimate(mean, max(low, mean - half), min(high, mean + half), int(data.size))


def rate_ci(successes: float, n: int) -> Estimate:
    """Share ``successes / n`` with the Wilson score 95% interval.

    ``successes`` may be fractional (a draw counted as half a win).
    """
    if n <= 0:
        raise ValueError(f"rate_ci needs n >= 1, got {n}")
    if not 0 <= successes <= n:
        raise ValueError(f"successes {successes} outside 0..{n}")
    p = successes / n
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    low = 0.0 if successes == 0 else max(0.0, centre - half)  # exact at the ends, no rounding
    high = 1.0 if successes == n else min(1.0, centre + half)
    return Estimate(p, low, high, n)
