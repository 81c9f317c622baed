"""Decisions per second of the PettingZoo envs at an earlier commit and now, alternating in one run.

    python benchmarks/envs_ab.py [--baseline REV] [--pairs 40] [--seconds 0.25]
                                 [--rows draw_poker:heads-up five_card_stud:heads-up ...]

``benchmarks/envs.py`` measures every env once against PettingZoo's Hold'em; on a shared machine
its rows drift by several per cent between runs, too much to see what one change costs. This
script answers "did this change slow the envs down?": it extracts ``REV`` (``git archive``) next
to the working tree and, for each row, starts one interpreter per side that plays the same
random masked games (the loop of ``benchmarks/envs.py``, its ``play``: ``agent_iter``, ``last``,
a uniformly random legal action, ``step``). The two then play ``--pairs`` slices of
``--seconds`` CPU time (``time.process_time``: what another process takes from the machine does
not count) one right after the other, baseline and current in turn, the same seeds on both
sides. A machine whose speed drifts by a third over seconds (this one's does: a VM's
neighbours) moves both slices of a pair alike, so the table gives the median of the pairs'
ratios with the interquartile range of those ratios, beside each side's median rate.
Two more columns separate the cost of a game from its length: the decisions a game takes on
each side (random play's games get shorter or longer when a rule changes what is legal, which
moves decisions/s with no change in speed: the reset is spread over fewer decisions) and the
median of the pairs' ratios of games per second.
Rows are ``game:option set`` of the registry (``pokerzoo list``); both sides get the option set's
keywords as the registry holds them now.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
from io import BytesIO
from pathlib import Path
from typing import NamedTuple

from pokerzoo.envs.core.registry import games

ROOT = Path(__file__).resolve().parent.parent
PARTS = ("envs", "agents", "training", "configs")
"""The top-level folders that make up the ``pokerzoo`` namespace (pyproject's package-dir)."""
DEFAULT_ROWS = (
    "draw_poker:heads-up",
    "five_card_stud:heads-up",
    "nameless_poker:30 deals",
    "quintet:points",
)

WORKER = """
import importlib, importlib.util, sys, time
sys.path.insert(0, {path!r})
spec = importlib.util.spec_from_file_location("envs_benchmark", {script!r})
bench = sys.modules[spec.name] = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench)
module = importlib.import_module("pokerzoo.envs.{game}_v0")
bench.play(lambda: module.env(**{options!r}), {seconds}, 0, clock=time.process_time)  # warm-up
print("ready", flush=True)
for line in sys.stdin:
    decisions, took, played = bench.play(
        lambda: module.env(**{options!r}), {seconds}, int(line), clock=time.process_time
    )
    print(decisions / took, played / took, flush=True)
"""
"""One side in its own interpreter: ``benchmarks/envs.py``'s ``play`` (its loop and its untimed
first game) for one slice per seed read from stdin, its rate written back."""


def namespace(source: Path, into: Path) -> Path:
    """A folder holding ``pokerzoo/`` made of ``source``'s top-level parts (symlinks)."""
    package = into / "pokerzoo"
    package.mkdir(parents=True)
    for part in PARTS:
        if (source / part).is_dir():
            (package / part).symlink_to(source / part)
    return into


def extract(rev: str, into: Path) -> Path:
    """The tree of commit ``rev`` under ``into`` (``git archive``)."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", rev], check=True, capture_output=True
    ).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return into


class Side:
    """One side's worker interpreter (:data:`WORKER`) for one row."""

    def __init__(self, path: Path, game: str, options: dict, seconds: float) -> None:
        script = str(ROOT / "benchmarks" / "envs.py")
        code = WORKER.format(
            path=str(path), script=script, game=game, options=options, seconds=seconds
        )
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        self.name = f"{game} under {path}"
        self.process = subprocess.Popen(
            [sys.executable, "-I", "-c", code],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        self._read()  # "ready": imported and warmed up

    def _read(self) -> str:
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        if not line:
            assert self.process.stderr is not None
            raise RuntimeError(f"{self.name} failed:\n{self.process.stderr.read()}")
        return line

    def rate(self, seed: int) -> tuple[float, float]:
        """Decisions and games per CPU second of one slice of play from ``seed``."""
        assert self.process.stdin is not None
        self.process.stdin.write(f"{seed}\n")
        self.process.stdin.flush()
        decisions, played = self._read().split()
        return float(decisions), float(played)

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait()


class Comparison(NamedTuple):
    """One row: each side's median rate, the pairs' ratios, and the same per game."""

    before: float
    after: float
    ratio: float
    """Median of the pairs' ratios of decisions/s (now / baseline)."""
    low: float
    high: float
    """Quartiles of those ratios."""
    decisions_per_game: tuple[float, float]
    """Baseline's and now's (median over the slices)."""
    game_ratio: float
    """Median of the pairs' ratios of games/s: the cost of a game, whatever its length."""


def compare(
    base: Path, now: Path, game: str, options: dict, pairs: int, seconds: float
) -> Comparison:
    """Both sides' rates over ``pairs`` alternated slices of play (the same seeds)."""
    sides = Side(base, game, options, seconds), Side(now, game, options, seconds)
    before, after, ratios, game_ratios = [], [], [], []
    per_game: tuple[list[float], list[float]] = ([], [])
    try:
        for pair in range(pairs):
            seed = 1000 * pair
            order = sides if pair % 2 == 0 else sides[::-1]  # neither side always goes first
            rates = {id(side): side.rate(seed) for side in order}
            (old, old_games), (new, new_games) = rates[id(sides[0])], rates[id(sides[1])]
            before.append(old)
            after.append(new)
            ratios.append(new / old)
            game_ratios.append(new_games / old_games)
            per_game[0].append(old / old_games)
            per_game[1].append(new / new_games)
    finally:
        for side in sides:
            side.close()
    low, mid, high = statistics.quantiles(ratios, n=4)
    return Comparison(
        statistics.median(before),
        statistics.median(after),
        mid,
        low,
        high,
        (statistics.median(per_game[0]), statistics.median(per_game[1])),
        statistics.median(game_ratios),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", default="f742956", help="the commit to compare with")
    parser.add_argument("--pairs", type=int, default=40, help="alternated slices per row")
    parser.add_argument("--seconds", type=float, default=0.25, help="CPU seconds per slice")
    parser.add_argument("--rows", nargs="+", default=DEFAULT_ROWS, help="game:option set")
    args = parser.parse_args()
    registry = games()
    rows = []
    for row in args.rows:
        game, _, label = row.partition(":")
        if game not in registry or label not in registry[game].option_sets:
            known = [f"{g}:{o}" for g, s in registry.items() for o in s.option_sets]
            parser.error(f"bad row {row!r}: expected game:option set, one of {known}")
        rows.append((game, label, dict(registry[game].option_sets[label])))
    with tempfile.TemporaryDirectory() as tmp:
        base = namespace(extract(args.baseline, Path(tmp, "src")), Path(tmp, "base"))
        now = namespace(ROOT, Path(tmp, "now"))
        print(
            f"random masked play, CPU time, {args.pairs} pairs of {args.seconds:g} s slices "
            f"alternating in two interpreters; baseline {args.baseline}, now the working tree\n"
        )
        print(
            "| env | options | baseline decisions/s | now decisions/s "
            "| now / baseline (median of pairs) | interquartile range "
            "| decisions a game (baseline, now) | games/s now / baseline |"
        )
        print("|---|---|---:|---:|---:|---|---:|---:|")
        for game, label, options in rows:
            row = compare(base, now, game, options, args.pairs, args.seconds)
            old_length, new_length = row.decisions_per_game
            print(
                f"| `{game}_v0` | {label} | {row.before:,.0f} | {row.after:,.0f} "
                f"| {row.ratio:.3f} | {row.low:.3f}..{row.high:.3f} "
                f"| {old_length:.2f}, {new_length:.2f} | {row.game_ratio:.3f} |"
            )


if __name__ == "__main__":
    main()
