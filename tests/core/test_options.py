"""The option checks shared by the games (:mod:`pokerzoo.envs.core.options`)."""

from __future__ import annotations

import numpy as np
import pytest
from pokerzoo.envs.core.options import check_int


@pytest.mark.parametrize(
    ("value", "low", "high", "expected"),
    [
        (1, 0, 1, 1),
        (0, 0, 1, 0),
        (-5, None, 3, -5),
        (10**20, 1, None, 10**20),
        (7, None, None, 7),
        (np.int64(3), 0, 9, 3),
        (np.uint8(2), 2, 2, 2),
    ],
)
def test_check_int_takes_whole_numbers_in_range(
    value: object, low: int | None, high: int | None, expected: int
) -> None:
    got = check_int("x", value, low, high)
    assert got == expected and type(got) is int


@pytest.mark.parametrize(
    ("value", "low", "high", "message"),
    [
        (2, 0, 1, "bad player 2: expected an int in 0..1"),
        (-1, 0, 1, "bad player -1: expected an int in 0..1"),
        (True, 0, 1, "bad player True: expected an int in 0..1"),
        (np.bool_(False), 0, 1, "bad player np.False_: expected an int in 0..1"),
        (1.0, 0, 1, "bad player 1.0: expected an int in 0..1"),
        ("1", None, None, "bad player '1': expected an int"),
        (0, 1, None, "bad player 0: expected an int >= 1"),
        (np.int64(5), None, 4, "bad player np.int64(5): expected an int <= 4"),
        (None, 0, 1, "bad player None: expected an int in 0..1"),
    ],
)
def test_check_int_names_the_bad_value_and_what_was_expected(
    value: object, low: int | None, high: int | None, message: str
) -> None:
    with pytest.raises(ValueError) as raised:
        check_int("player", value, low, high)
    assert str(raised.value) == message
