"""``benchmarks/evaluation_speed.py``: ``pokerzoo evaluate`` timed by an earlier commit's code and
by this one on the same run and deals, the tables compared."""

from __future__ import annotations

import re

import pytest

from tests.helpers import benchmark_script


def test_a_row_times_both_codes_on_the_same_run_and_compares_their_tables(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    script = benchmark_script("evaluation_speed")
    monkeypatch.setitem(script.TIMESTEPS, "five_card_stud", 64)  # one rollout of the config
    args = ["--baseline", "HEAD", "--games", "five_card_stud", "--repeats", "1"]
    script.main([*args, "--episodes", "five_card_stud=2"])
    out = capsys.readouterr().out
    assert "the code of HEAD and this code in turn (1 each)" in out
    row = re.search(
        r"\| five_card_stud \| 2 \| ([a-z ]+) \| ([\d.]+) \| ([\d.]+) \| ([\d.]+)x \| the same \|",
        out,
    )
    assert row is not None, out
    assert row.group(1).split() == ["random", "caller", "rules", "equity", "maniac"]
    assert float(row.group(2)) > 0 and float(row.group(3)) > 0


@pytest.mark.parametrize("bad", ["checkers=3", "quintet=0", "quintet"])
def test_a_bad_episodes_item_is_named(bad: str, capsys: pytest.CaptureFixture[str]) -> None:
    script = benchmark_script("evaluation_speed")
    with pytest.raises(SystemExit):
        script.main(["--baseline", "HEAD", "--episodes", bad])
    assert f"bad --episodes {bad!r}: expected GAME=N" in capsys.readouterr().err
