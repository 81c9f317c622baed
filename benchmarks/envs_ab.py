"""Decisions per second of the PettingZoo envs at an earlier commit and now, alternating in one run.

    python benchmarks/envs_ab.py [--baseline REV] [--rounds 6] [--seconds 0.6]
                                 [--rows draw_poker:heads-up five_card_stud:heads-up ...]

``benchmarks/envs.py`` measures every env once against PettingZoo's Hold'em; on a shared machine
its rows drift by several per cent between runs, too much to see what one change costs. This
script answers "did this change slow the envs down?": it extracts ``REV`` (``git archive``) next
to the working tree, and for each row runs the same random masked play (the loop of
``benchmarks/envs.py``, its ``play``: ``agent_iter``, ``last``, a uniformly random legal action,
``step``) in fresh interpreters, baseline and current alternating ``--rounds`` times, each the
best of five ``--seconds`` slices of CPU time (``time.process_time``: what another process
takes from the machine does not count). The table gives each side's median and the ratio of
the medians.
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

PLAY = """
import importlib, importlib.util, sys, time
sys.path.insert(0, {path!r})
spec = importlib.util.spec_from_file_location("envs_benchmark", {script!r})
bench = sys.modules[spec.name] = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench)
module = importlib.import_module("pokerzoo.envs.{game}_v0")
runs = [
    bench.play(lambda: module.env(**{options!r}), {seconds}, 1000 * i, clock=time.process_time)
    for i in range(5)
]
print(max(decisions / took for decisions, took in runs))
"""
"""One side's measurement in a fresh interpreter: ``benchmarks/envs.py``'s ``play`` (its loop and
its untimed first game), five times, the best rate."""


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


def rate(path: Path, game: str, options: dict, seconds: float) -> float:
    script = str(ROOT / "benchmarks" / "envs.py")
    code = PLAY.format(path=str(path), script=script, game=game, options=options, seconds=seconds)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    out = subprocess.run(
        [sys.executable, "-I", "-c", code], capture_output=True, text=True, env=env
    )
    if out.returncode:
        raise RuntimeError(f"{game} under {path} failed:\n{out.stderr}")
    return float(out.stdout.split()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", default="f742956", help="the commit to compare with")
    parser.add_argument("--rounds", type=int, default=6, help="alternations per row")
    parser.add_argument("--seconds", type=float, default=0.6, help="CPU seconds per slice")
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
            f"random masked play, CPU time, median of {args.rounds} alternating runs (each the "
            f"best of 5 x {args.seconds:g} s); baseline {args.baseline}, now the working tree\n"
        )
        print("| env | options | baseline decisions/s | now decisions/s | now / baseline |")
        print("|---|---|---:|---:|---:|")
        for game, label, options in rows:
            before, after = [], []
            for _ in range(args.rounds):
                before.append(rate(base, game, options, args.seconds))
                after.append(rate(now, game, options, args.seconds))
            old, new = statistics.median(before), statistics.median(after)
            print(f"| `{game}_v0` | {label} | {old:,.0f} | {new:,.0f} | {new / old:.3f} |")


if __name__ == "__main__":
    main()
