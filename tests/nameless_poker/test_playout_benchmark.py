"""benchmarks/nameless_playout.py: both rows play its positions to the same tricks, and a row
that does not is refused rather than timed."""

from __future__ import annotations

import pytest
from pokerzoo.envs.core import jit
from pokerzoo.envs.nameless_poker.analysis import reference_play_out
from pokerzoo.envs.nameless_poker.playout import World, play_out

from tests.helpers import benchmark_script


def test_the_benchmark_prints_every_row(capsys: pytest.CaptureFixture[str]) -> None:
    benchmark_script("nameless_playout").main(["--positions", "40", "--repeats", "1"])
    table = [line for line in capsys.readouterr().out.splitlines() if line.startswith("| `")]
    names = ["reference_play_out", "play_out"] + ["play_outs"] * (4 if jit.available() else 2)
    assert [line.split("`")[1] for line in table] == names
    assert sum("numba" in line for line in table) == (2 if jit.available() else 0)


def test_a_row_that_ends_with_other_tricks_is_refused() -> None:
    script = benchmark_script("nameless_playout")
    worlds = script.positions(20, seed=1)

    def shed_everything(world: World, trump: int, kind: int, turned: int) -> None:
        play_out(world, trump, kind, turned, observer_wants=False)

    with pytest.raises(SystemExit, match="other tricks"):
        script.time_rows(
            {"reference": reference_play_out, "shedding": shed_everything}, worlds, repeats=1
        )
