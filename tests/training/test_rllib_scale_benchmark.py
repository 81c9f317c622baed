"""``benchmarks/rllib_scale.py`` refuses, before anything trains (and without Ray), what it
cannot measure: runner counts whose CPUs exceed the machine's, unknown and one-player games."""

from __future__ import annotations

import pytest

from tests.helpers import benchmark_script


def test_runner_counts_beyond_the_machines_cpus_are_refused(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    script = benchmark_script("rllib_scale")
    monkeypatch.setattr(script.os, "cpu_count", lambda: 2)
    with pytest.raises(SystemExit):
        script.main(["--runners", "1", "2", "4"])
    err = capsys.readouterr().err
    assert "--runners 4: five_card_stud's config needs 4 CPUs" in err
    assert "this machine has 2" in err


@pytest.mark.parametrize(
    ("game", "message"),
    [
        ("checkers", "unknown game 'checkers'"),
        ("poker_squares", "the rllib backend trains games of several players"),
    ],
)
def test_games_it_cannot_train_are_named(
    game: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    script = benchmark_script("rllib_scale")
    with pytest.raises(SystemExit):
        script.main(["--games", game, "--runners", "1"])
    assert message in capsys.readouterr().err


def test_cpus_per_env_runner_sets_how_many_runners_fit(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    script = benchmark_script("rllib_scale")
    monkeypatch.setattr(script.os, "cpu_count", lambda: 2)
    with pytest.raises(SystemExit):
        script.main(["--runners", "4", "5", "--cpus-per-env-runner", "0.5"])
    err = capsys.readouterr().err
    assert "--runners 4" not in err  # four half-CPU runners fit two cores
    assert "--runners 5: five_card_stud's config needs 2.5 CPUs" in err
    assert "rllib.num_cpus_per_env_runner 0.5 each" in err
    with pytest.raises(SystemExit):
        script.main(["--runners", "1", "--cpus-per-env-runner", "0"])
    assert "--cpus-per-env-runner 0: must be above 0" in capsys.readouterr().err


def test_envs_per_runner_counts_must_be_positive(capsys: pytest.CaptureFixture[str]) -> None:
    script = benchmark_script("rllib_scale")
    with pytest.raises(SystemExit):
        script.main(["--runners", "1", "--envs-per-runner", "8", "0"])
    assert "--envs-per-runner: each count must be at least 1" in capsys.readouterr().err
