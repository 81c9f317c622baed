"""The core's compiled helpers that stand for numpy arithmetic: :func:`pairwise_sum` adds a row
of doubles as numpy's ``sum`` does, to the bit."""

from __future__ import annotations

import numpy as np
import pytest


def test_pairwise_sums_add_as_numpy_adds() -> None:
    """In order under 8 terms, eight running sums up to 128, halves above: the same double as
    numpy's ``sum`` of the row, at every length up to 300 and at longer ones (five-card stud's
    512 futures among them), over values of many magnitudes."""
    from pokerzoo.envs.core import jit

    if not jit.available():
        pytest.skip("numba is not installed")
    from pokerzoo.envs.core import compiled

    rng = np.random.default_rng(0)
    for n in [*range(300), 511, 512, 513, 1000, 1031, 4096, 5000]:
        terms = rng.random(n) * rng.choice([1.0, 1e-9, 1e9], n)
        assert compiled.pairwise_sum(terms) == terms.sum(), n
    rows = rng.random((5, 512)) / 3
    assert [compiled.pairwise_sum(row) for row in rows] == rows.sum(axis=1).tolist()
    in_order = -0.0
    for term in rows[0]:
        in_order += term
    assert in_order != rows[0].sum()  # the order matters: a plain loop would not do
