"""``benchmarks/envs_ab.py``: it builds both trees, plays both and prints their ratio."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys

import pytest

from tests.helpers import benchmark_script

ROOT = benchmark_script("envs_ab").ROOT


def _has_git_history() -> bool:
    if shutil.which("git") is None:
        return False
    probe = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True)
    return probe.returncode == 0


@pytest.mark.skipif(not _has_git_history(), reason="needs the repository's git history")
def test_the_ab_benchmark_prints_a_ratio_per_row(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    script = benchmark_script("envs_ab")
    argv = ["envs_ab", "--baseline", "HEAD", "--pairs", "2", "--seconds", "0.05"]
    monkeypatch.setattr(sys, "argv", [*argv, "--rows", "quintet:points"])
    script.main()
    out = capsys.readouterr().out
    rates = r"\| `quintet_v0` \| points \| ([\d,]+) \| ([\d,]+) "
    row = re.search(
        rates + r"\| ([\d.]+) \| ([\d.]+)\.\.([\d.]+) \| ([\d.]+), ([\d.]+) \| ([\d.]+) \|", out
    )
    assert row is not None, out
    assert float(row.group(1).replace(",", "")) > 0 and float(row.group(3)) > 0
    assert float(row.group(4)) <= float(row.group(3)) <= float(row.group(5))  # median in IQR
    # the same commit on both sides plays the same games: the same decisions a game
    assert float(row.group(6)) == float(row.group(7)) > 1
    assert float(row.group(8)) > 0


def test_a_bad_row_names_the_known_ones(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    script = benchmark_script("envs_ab")
    monkeypatch.setattr(sys, "argv", ["envs_ab", "--rows", "quintet:nope"])
    with pytest.raises(SystemExit):
        script.main()
    err = capsys.readouterr().err
    assert "bad row 'quintet:nope'" in err and "quintet:points" in err
