"""``benchmarks/training_throughput.py``: a row per game and collection beside Poker Squares'."""

from __future__ import annotations

import re

import pytest

from tests.helpers import benchmark_script


def test_the_benchmark_trains_each_row_and_prints_its_rate(
    capsys: pytest.CaptureFixture[str],
) -> None:
    script = benchmark_script("training_throughput")
    script.main(["--games", "quintet", "--rollouts", "1", "--collection", "native"])
    out = capsys.readouterr().out
    assert re.search(r"\| poker_squares \| native \| [\d,]+ \| [\d,]+ \| 1\.00 \|", out), out
    row = re.search(
        r"\| quintet \| native \| ([\d,]+) \| ([\d,]+) \| ([\d.]+) \| (\d+)% \| ([\d,]+) \|", out
    )
    assert row is not None, out
    assert int(row.group(1).replace(",", "")) > 0 and float(row.group(3)) > 0
    # The updates take part of learn, so the ceiling lies above the measured rate.
    assert 0 < int(row.group(4)) < 100
    assert int(row.group(5).replace(",", "")) > int(row.group(2).replace(",", ""))


def test_an_unknown_game_is_named(capsys: pytest.CaptureFixture[str]) -> None:
    script = benchmark_script("training_throughput")
    with pytest.raises(SystemExit):
        script.main(["--games", "checkers"])
    assert "unknown game 'checkers'" in capsys.readouterr().err
