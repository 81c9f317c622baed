"""``benchmarks/training_throughput.py``: a row per game and collection beside Poker Squares'."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

from tests.helpers import benchmark_script


def _small_stud_config(folder: Path) -> Path:
    """A stud config of 4 tables and 16-step rollouts: a row that trains in a second."""
    config = folder / "stud_small.yaml"
    config.write_text(
        "game: five_card_stud\nn_envs: 4\nvec_env: native\nfeatures: equity\n"
        "ppo: {n_steps: 16, batch_size: 32}\nopponents: {bots: {random: 1, rules: 1}}\n"
    )
    return config


def test_the_benchmark_trains_each_row_and_prints_its_rate(
    capsys: pytest.CaptureFixture[str],
) -> None:
    script = benchmark_script("training_throughput")
    script.main(["--games", "quintet", "--rollouts", "1", "--collection", "native", "--no-warmup"])
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
    config = _small_stud_config(tmp_path)
    script = benchmark_script("training_throughput")
    script.main(["--games", "--rollouts", "1", "--config", str(config), "--no-warmup"])
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


def test_a_row_says_how_far_it_stands_from_the_issue_s_target() -> None:
    script = benchmark_script("training_throughput")
    start = script.ISSUE_START["five_card_stud"]
    yardsticks = [("native", 4000.0, 8192, 3.0), ("native", 5000.0, 8192, 3.0)]
    # Repeat 1: 10x the start and above half of Poker Squares; repeat 2: 10x but below half.
    runs = [
        ("native, 2 workers", 10.0 * start, 16384, 0.5),
        ("native, 2 workers", 2400.0, 16384, 1.0),
    ]
    steps, rate, share, updates, ceiling, factor, target = script._cells(
        "five_card_stud", runs, yardsticks
    )
    assert steps == "16,384"
    assert rate == f"{(10 * start + 2400) / 2:,.0f} (2,380-2,400)"
    assert share == "0.54 (0.48-0.59)"
    assert ceiling == "24,576 (16,384-32,768)"
    assert factor == "10.0x (10.0x-10.1x)"
    assert target == "1/2"
    assert updates == "11% (7%-15%)"


def test_the_yardstick_has_no_issue_start_or_target() -> None:
    script = benchmark_script("training_throughput")
    yardsticks = [("native", 4000.0, 8192, 3.0)]
    cells = script._cells("poker_squares", yardsticks, yardsticks)
    assert cells[2] == "1.00" and cells[-2:] == ["-", "-"]


def test_repeats_train_every_row_again_and_give_its_median(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = _small_stud_config(tmp_path)
    script = benchmark_script("training_throughput")
    script.main(["--games", "--rollouts", "1", "--config", str(config), "--repeat", "2"])
    out = capsys.readouterr().out
    assert "2 repeats (median, range)" in out
    row = re.search(
        r"\| five_card_stud \| native, `stud_small.yaml` \| 64 \| [\d,]+ \([\d,]+-[\d,]+\) "
        r"\|.*\| [\d.]+x \([\d.]+x-[\d.]+x\) \| [0-2]/2 \|",
        out,
    )
    assert row is not None, out


def test_a_bad_repeat_is_named(capsys: pytest.CaptureFixture[str]) -> None:
    script = benchmark_script("training_throughput")
    with pytest.raises(SystemExit):
        script.main(["--games", "--repeat", "0"])
    assert "bad --repeat 0: expected 1 or more" in capsys.readouterr().err


def test_rows_of_the_same_game_and_collection_stay_apart_across_repeats(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Poker Squares' config collects natively: its config row and its native row read alike.
    script = benchmark_script("training_throughput")
    script.main(["--games", "poker_squares", "--rollouts", "1", "--repeat", "2"])
    out = capsys.readouterr().out
    rows = re.findall(r"^\| poker_squares \| native \| .*\| - \| - \|$", out, re.M)
    assert len(rows) == 3, out  # the yardstick, then the game's config and native rows


def test_each_game_trains_an_untimed_rollout_first(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before the timed rows, each game's config trains one rollout (numba's loops compile into
    their cache then, not inside a timed row); ``--no-warmup`` skips it."""
    script = benchmark_script("training_throughput")
    calls: list[tuple[str, str, int]] = []

    def fake(
        game: str,
        collection: str,
        rollouts: int,
        config_path: str | None = None,
        self_play: bool = False,
    ):
        calls.append((game, collection, rollouts))
        return (collection, 1000.0, 4096 * rollouts, 1.0)

    monkeypatch.setattr(script, "steps_per_second", fake)
    script.main(
        ["--games", "five_card_stud", "quintet", "--rollouts", "3", "--collection", "native"]
    )
    assert calls[:2] == [("five_card_stud", "config", 1), ("quintet", "config", 1)]
    assert all(rollouts == 3 for _, _, rollouts in calls[2:]) and len(calls) == 5
    calls.clear()
    script.main(["--games", "quintet", "--rollouts", "3", "--collection", "native", "--no-warmup"])
    assert calls == [("poker_squares", "config", 3), ("quintet", "native", 3)]
    capsys.readouterr()


def test_a_baseline_row_trains_its_own_commit_s_config(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A baseline row (``--tree``: the code of ``--baseline REV``) trains the config that tree
    ships, not the working directory's ``configs/`` (here the repository's, whose stud config
    has 32 tables): a config change is measured against the config it replaces."""
    tree = tmp_path / "base"
    (tree / "pokerzoo" / "configs").mkdir(parents=True)
    _small_stud_config(tmp_path).rename(tree / "pokerzoo" / "configs" / "five_card_stud.yaml")
    monkeypatch.chdir(Path(__file__).resolve().parents[2])
    monkeypatch.setattr(sys, "path", list(sys.path))  # the row puts the tree on it
    script = benchmark_script("training_throughput")
    script.main(["--tree", str(tree), "--one", "five_card_stud", "1"])
    kind, rate, steps, _ = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert kind == "native" and rate > 0
    assert steps == 16 * 4  # the tree's config: one rollout of 16 steps on 4 tables
    assert script.tree_config(tmp_path, "five_card_stud") is None  # no pokerzoo/ there


def test_self_play_rows_start_with_the_pool_full_of_snapshots(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--self-play``: the timed run seats ``max_snapshots`` snapshots from its first step
    (copies of a model trained one untimed rollout); without it the pool starts empty. A game
    without opponents trains as it would."""
    import pokerzoo.training.train as training

    config = _small_stud_config(tmp_path)
    text = config.read_text().replace(
        "opponents: {bots: {random: 1, rules: 1}}",
        "opponents: {bots: {random: 1}, snapshot_weight: 1, snapshot_every: 64, max_snapshots: 3}",
    )
    config.write_text(text)
    seated: list[list[str]] = []
    make = training.make_training_env

    def recorded(config: object, snapshots: list[str] | None = None, **kwargs: object) -> object:
        seated.append(list(snapshots or []))
        return make(config, snapshots=snapshots, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(training, "make_training_env", recorded)
    script = benchmark_script("training_throughput")
    _, rate, steps, _ = script.steps_per_second("five_card_stud", "config", 1, str(config), True)
    assert rate > 0 and steps == 64
    untimed, timed = seated
    assert untimed == [] and len(timed) == 3
    assert [Path(path).name for path in timed] == ["step_64.zip", "step_128.zip", "step_192.zip"]
    assert training.snapshot_paths(tmp_path) == []  # the run folders' own lookup is back
    seated.clear()
    script.steps_per_second("five_card_stud", "config", 1, str(config))
    assert seated == [[]]
    seated.clear()
    script.steps_per_second("poker_squares", "config", 1, None, True)  # no opponents
    assert seated == [[]]
