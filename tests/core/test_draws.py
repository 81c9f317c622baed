"""``bounded_draws``: numpy's ``integers`` calls of a partial shuffle, value for value, the
generator left where they leave it, and the calls themselves wherever the raw bits do not
decide; the draws' arithmetic by numpy and by the compiled loop alike (``loops_by``)."""

from __future__ import annotations

import numpy as np
import pytest
from pokerzoo.envs.core.draws import bounded_draws, bounded_draws_flat, bounded_draws_many

SWEEP = [
    (seed, count, high)
    for seed in range(20)
    for high in (1, 2, 5, 30, 53, 106)
    for count in sorted({1, min(high, 3), high - 1 or 1, high})  # a last swap draws nothing
]


def test_bounded_draws_are_numpy_s_integers(loops_by: str) -> None:
    for seed, count, high in [*SWEEP, (42496, 40, 53)]:  # 42496: numpy redraws the 88th
        mine, theirs = np.random.default_rng(seed), np.random.default_rng(seed)
        want = np.stack([theirs.integers(i, high, 512) for i in range(count)])
        got = bounded_draws(mine, count, high, 512)
        assert got.dtype == np.int64 and np.array_equal(got, want), (seed, count, high)
        assert mine.integers(0, 2**40) == theirs.integers(0, 2**40)  # left where numpy leaves it


def test_bounded_draws_fall_back_to_numpy_where_the_bits_do_not_say(loops_by: str) -> None:
    """A rejected draw, a half-used 64-bit output, an odd number of draws, another bit
    generator: each asks ``integers`` itself, with the same result."""
    cases = [(np.random.default_rng(42496), 40, 53, 512), (np.random.default_rng(1), 3, 9, 7)]
    half_used = np.random.default_rng(2)
    half_used.integers(0, 9, 1)  # leaves the high half of an output for the next draw
    cases += [(half_used, 3, 9, 512), (np.random.Generator(np.random.MT19937(3)), 3, 9, 512)]
    for rng, count, high, rows in cases:
        twin = np.random.Generator(type(rng.bit_generator)())
        twin.bit_generator.state = rng.bit_generator.state
        want = np.stack([twin.integers(i, high, rows) for i in range(count)])
        assert np.array_equal(bounded_draws(rng, count, high, rows), want)
        assert rng.integers(0, 2**40) == twin.integers(0, 2**40)


def test_bounded_draws_raise_numpy_s_errors_and_draw_nothing_for_nothing(loops_by: str) -> None:
    with pytest.raises(ValueError, match="low >= high"):
        bounded_draws(np.random.default_rng(0), 4, 3, 8)  # integers(3, 3, 8)
    rng = np.random.default_rng(0)
    assert bounded_draws(rng, 0, 5, 8).shape == (0, 8)
    assert bounded_draws(rng, 3, 5, 0).shape == (3, 0)
    assert rng.integers(0, 2**40) == np.random.default_rng(0).integers(0, 2**40)


def test_bounded_draws_many_give_each_generator_its_own_calls(loops_by: str) -> None:
    """Generators read off their bits and generators asked themselves (a rejection, a
    half-used output, another bit generator) in one call: each gets its own calls' values."""
    half_used = np.random.default_rng(2)
    half_used.integers(0, 9, 1)
    rngs = [
        np.random.default_rng(7),
        np.random.default_rng(42496),  # rejects its 88th draw below 53
        half_used,
        np.random.Generator(np.random.MT19937(3)),
        np.random.default_rng(8),
    ]
    counts, highs = [5, 40, 3, 4, 6], [44, 53, 9, 30, 6]  # the last deals a whole deck
    twins = []
    for rng in rngs:
        twin = np.random.Generator(type(rng.bit_generator)())
        twin.bit_generator.state = rng.bit_generator.state
        twins.append(twin)
    got = bounded_draws_many(rngs, counts, highs, 512)
    for k, twin in enumerate(twins):
        want = np.stack([twin.integers(i, highs[k], 512) for i in range(counts[k])])
        assert got[k].dtype == np.int64 and np.array_equal(got[k], want), k
        assert rngs[k].integers(0, 2**40) == twin.integers(0, 2**40)


def test_bounded_draws_flat_are_the_arrays_one_after_another(loops_by: str) -> None:
    rngs = [np.random.default_rng(seed) for seed in (1, 42496, 3)]
    twins = [np.random.default_rng(seed) for seed in (1, 42496, 3)]
    counts, highs = [3, 40, 0], [9, 53, 4]
    flat, starts = bounded_draws_flat(rngs, counts, highs, 64)
    want = bounded_draws_many(twins, counts, highs, 64)
    assert flat.dtype == starts.dtype == np.int64
    assert starts.tolist() == [0, 3 * 64, 43 * 64, 43 * 64]
    for d, draws in enumerate(want):
        assert np.array_equal(flat[starts[d] : starts[d + 1]], draws.reshape(-1))
    assert [rng.integers(0, 2**40) for rng in rngs] == [rng.integers(0, 2**40) for rng in twins]
