"""``bounded_draws``: numpy's ``integers`` calls of a partial shuffle, value for value, the
generator left where they leave it, and the calls themselves wherever the raw bits do not
decide; the draws' arithmetic by numpy and by the compiled loop alike (``loops_by``). ``lowest``:
a stable ``argsort``'s first entries, by numpy and by the compiled loop."""

from __future__ import annotations

import numpy as np
import pytest
from pokerzoo.envs.core.draws import bounded_draws, bounded_draws_flat, bounded_draws_many, lowest

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


def _stable_first(keys: np.ndarray, count: int) -> np.ndarray:
    """What :func:`lowest` means: a stable ``argsort``'s first ``count`` positions."""
    return np.argsort(keys, axis=-1, kind="stable")[..., :count]


@pytest.mark.parametrize("width", [1, 2, 5, 6, 37, 53, 106, 300])
def test_lowest_is_a_stable_argsort_s_first_entries(width: int, loops_by: str) -> None:
    """Random keys, keys out of reach (2.0) making ties across the cut and inside it, keys of
    few values (ties everywhere), infinities and negatives; every count from 0 to the width;
    rows of 2-D and 3-D arrays."""
    rng = np.random.default_rng(width)
    cases = []
    for rows in ((40,), (3, 7)):
        keys = rng.random((*rows, width))
        cases.append(keys)
        reach = keys.copy()
        reach[rng.random(reach.shape) < 0.85] = 2.0
        cases.append(reach)
        cases.append(np.round(keys * 3) / 3)
        cases.append(np.where(rng.random(keys.shape) < 0.3, np.inf, -keys))
    for keys in cases:
        for count in range(min(width, 12) + 1):
            got = lowest(keys, count)
            assert got.dtype == np.int64 and got.shape == (*keys.shape[:-1], count)
            assert np.array_equal(got, _stable_first(keys, count))
        assert np.array_equal(lowest(keys, width), _stable_first(keys, width))


def test_lowest_reads_other_dtypes_and_strided_keys(loops_by: str) -> None:
    """Integer keys (numpy's way, whatever the loops) and a transposed view of doubles."""
    rng = np.random.default_rng(3)
    ints = rng.integers(0, 4, (50, 20))
    assert np.array_equal(lowest(ints, 5), _stable_first(ints, 5))
    strided = rng.random((30, 60)).T
    assert np.array_equal(lowest(strided, 4), _stable_first(strided, 4))


def test_lowest_rejects_a_count_past_the_row() -> None:
    with pytest.raises(ValueError, match=r"bad count 7: expected 0 <= count <= 6"):
        lowest(np.zeros((2, 6)), 7)
    with pytest.raises(ValueError, match=r"bad count -1"):
        lowest(np.zeros((2, 6)), -1)
