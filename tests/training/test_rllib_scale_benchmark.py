"""``benchmarks/rllib_scale.py`` refuses, before anything trains (and without Ray), what it
cannot measure: runner counts whose CPUs exceed the machine's, bad counts, unknown and
one-player games."""

from __future__ import annotations

import pytest

from tests.helpers import benchmark_script


def refusal(argv: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture) -> str:
    """What the script prints to stderr as it refuses ``argv`` on a machine of 2 CPUs."""
    script = benchmark_script("rllib_scale")
    monkeypatch.setattr(script.os, "cpu_count", lambda: 2)
    with pytest.raises(SystemExit):
        script.main(argv)
    return capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "expected", "absent"),
    [
        (
            ["--runners", "1", "2", "4"],
            ["--runners 4: five_card_stud's config needs 4 CPUs", "this machine has 2"],
            "--runners 2",
        ),
        # half a CPU reserved per runner: four fit two cores, five do not
        (
            ["--runners", "4", "5", "--cpus-per-env-runner", "0.5"],
            [
                "--runners 5: five_card_stud's config needs 2.5 CPUs",
                "rllib.num_cpus_per_env_runner 0.5 each",
            ],
            "--runners 4",
        ),
        (
            ["--runners", "1", "--cpus-per-env-runner", "0"],
            ["--cpus-per-env-runner 0: must be"],
            "",
        ),
        (
            ["--runners", "1", "--envs-per-runner", "8", "0"],
            ["--envs-per-runner: each count must be at least 1"],
            "",
        ),
        (["--games", "checkers", "--runners", "1"], ["unknown game 'checkers'"], ""),
        (
            ["--games", "poker_squares", "--runners", "1"],
            ["the rllib backend trains games of several players"],
            "",
        ),
    ],
)
def test_what_it_cannot_measure_is_refused_by_name(
    argv: list[str],
    expected: list[str],
    absent: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    err = refusal(argv, monkeypatch, capsys)
    for text in expected:
        assert text in err
    if absent:
        assert absent not in err
