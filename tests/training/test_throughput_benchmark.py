"""``benchmarks/training_throughput.py``: a row per game and collection beside Poker Squares'."""

from __future__ import annotations

import re
from pathlib import Path

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


def test_a_config_file_gets_a_row_of_its_own(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "stud_small.yaml"
    config.write_text(
        "game: five_card_stud\nn_envs: 4\nvec_env: native\nfeatures: equity\n"
        "ppo: {n_steps: 16, batch_size: 32}\nopponents: {bots: {random: 1, rules: 1}}\n"
    )
    script = benchmark_script("training_throughput")
    script.main(["--games", "--rollouts", "1", "--config", str(config)])
    out = capsys.readouterr().out
    assert "default configs and the given files" in out
    row = re.search(r"\| five_card_stud \| native, `stud_small.yaml` \| ([\d,]+) \|", out)
    assert row is not None, out
    assert int(row.group(1)) == 16 * 4  # one rollout of the file's n_steps x n_envs
    assert "| draw_poker |" not in out  # no shipped config asked for


def test_a_bad_config_file_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "bad.yaml"
    config.write_text("game: five_card_stud\nn_envs: many\n")
    script = benchmark_script("training_throughput")
    with pytest.raises(SystemExit):
        script.main(["--games", "--config", str(config)])
    err = capsys.readouterr().err
    assert "bad.yaml" in err and "n_envs" in err
