"""Wall time of ``pokerzoo evaluate`` by the code of an earlier commit and by this one, on the same
run and deals, in one run: the evaluation target of the training-throughput issue.

    python benchmarks/evaluation_speed.py --baseline REV [--games GAME ...] [--repeats 2]
                                          [--episodes GAME=N ...]

For each game a short run is trained by the code of ``REV`` (``git archive``, its default
config for :data:`TIMESTEPS` steps), then ``pokerzoo evaluate RUN --episodes N --opponents
BOTS`` runs in a fresh interpreter by each code in turn, ``--repeats`` times, and its wall time
is taken as a user waits for it (imports and the model's loading included): with the bots both
codes have (poker without a name: the montecarlo table alone), each code's default processes,
the rules' rows beside the agent's. Both reports' tables (the agent's rows and the rules') must
be the same to the digit, or the row says they differ. Where this code refuses the older run (a
feature set whose observation grew since), it trains a run of its own on the same budget and
times that: the row says so, the bots' and the rules' rows stay comparable, not the agent's.
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
TIMESTEPS = {"draw_poker": 8192, "five_card_stud": 8192, "nameless_poker": 4096, "quintet": 4096}
"""Steps of each game's short run (its default config otherwise)."""
EPISODES = {"draw_poker": 1000, "five_card_stud": 500, "nameless_poker": 10, "quintet": 500}
"""Duplicate deals per bot of each game's evaluation."""
ONLY = {"nameless_poker": ["montecarlo"]}
"""Games evaluated against one bot only (the slowest table), not every common one."""
RUNNER = """
import sys
tree = sys.argv[1]
if tree:
    sys.path.insert(0, tree)
from pokerzoo.training.cli import main
sys.exit(main(sys.argv[2:]))
"""
"""``python -c RUNNER TREE ARGS...``: ``pokerzoo ARGS`` by the code of ``TREE`` ('': this one)."""


def python(code: str, args: Sequence[str], cwd: Path) -> tuple[float, str]:
    """``python -c code args...`` in a fresh interpreter (no ``PYTHONPATH``): its wall time and
    output (a failure raises, with its errors)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    command = [sys.executable, "-c", code, *args]
    began = time.perf_counter()
    out = subprocess.run(command, capture_output=True, text=True, env=env, cwd=cwd)
    took = time.perf_counter() - began
    if out.returncode:
        raise RuntimeError(f"{' '.join(args)} failed:\n{out.stderr}")
    return took, out.stdout


def pokerzoo(tree: str, args: Sequence[str], cwd: Path) -> float:
    """``pokerzoo ARGS`` by the code of ``tree`` ('': this code): its wall time."""
    return python(RUNNER, [tree, *args], cwd)[0]


def bots(tree: str, game: str, cwd: Path) -> list[str]:
    """The bot names of ``game`` under the code of ``tree``."""
    code = (
        "import sys\n"
        "if sys.argv[1]: sys.path.insert(0, sys.argv[1])\n"
        "from pokerzoo.envs.core.registry import get_game\n"
        "print(' '.join(get_game(sys.argv[2]).bot_classes))\n"
    )
    return python(code, [tree, game], cwd)[1].split()


def tables(report: Path) -> list[str]:
    """The rows of a report's tables (the agent's and the rules'), without its timings."""
    return [line for line in report.read_text().splitlines() if line.startswith("| ")]


def measure(game: str, base: Path, source: Path, tmp: Path, repeats: int, episodes: int) -> dict:
    """One game's row (see the module docstring)."""
    ours = bots("", game, ROOT)
    opponents = ONLY.get(game) or [b for b in bots(str(base), game, source) if b in ours]
    run = tmp / f"{game}-base"
    train = ["train", game, "--timesteps", str(TIMESTEPS[game]), "--out", str(run), "--no-progress"]
    pokerzoo(str(base), train, source)
    own_run = None
    times: dict[str, list[float]] = {"base": [], "now": []}
    reports: dict[str, list[str]] = {}
    for r in range(repeats):
        for side, tree, cwd in (("base", str(base), source), ("now", "", ROOT)):
            target = run if side == "base" or own_run is None else own_run
            out = tmp / f"{game}-{side}-{r}"
            args = ["evaluate", str(target), "--episodes", str(episodes), "--opponents"]
            args += [*opponents, "--out", str(out)]
            try:
                took = pokerzoo(tree, args, cwd)
            except RuntimeError as refused:
                if side == "base" or own_run is not None or "trained with" not in str(refused):
                    raise
                own_run = tmp / f"{game}-now"
                pokerzoo("", [*train[:4], "--out", str(own_run), "--no-progress"], ROOT)
                args[1] = str(own_run)
                took = pokerzoo("", args, ROOT)
            times[side].append(took)
            reports.setdefault(side, tables(out / "report.md"))
    if own_run is not None:
        same = "this code's own run"
    else:
        same = "the same" if reports["base"] == reports["now"] else "DIFFERENT"
    return {"game": game, "episodes": episodes, "bots": opponents, "times": times, "tables": same}


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline", required=True, help="the earlier commit")
    parser.add_argument("--games", nargs="+", default=list(TIMESTEPS), choices=list(TIMESTEPS))
    parser.add_argument("--repeats", type=int, default=2, help="evaluations by each code")
    parser.add_argument(
        "--episodes", nargs="*", default=[], metavar="GAME=N", help="deals per bot of a game"
    )
    args = parser.parse_args(argv)
    episodes = dict(EPISODES)
    for item in args.episodes:
        game, _, count = item.partition("=")
        if game not in episodes or not count.isdigit() or int(count) < 1:
            parser.error(f"bad --episodes {item!r}: expected GAME=N, GAME one of {list(episodes)}")
        episodes[game] = int(count)
    sys.path.insert(0, str(HERE))
    from envs_ab import extract, namespace  # the A/B of the envs: the same extraction

    started = time.perf_counter()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        source = extract(args.baseline, Path(tmp, "src"))
        base = namespace(source, Path(tmp, "base"))
        for game in args.games:
            rows.append(measure(game, base, source, Path(tmp), args.repeats, episodes[game]))
    machine = f"{os.cpu_count()} CPUs, {platform.processor() or platform.machine()}"
    print(
        f"`pokerzoo evaluate` wall time, the code of {args.baseline} and this code in turn "
        f"({args.repeats} each); {machine}, {time.perf_counter() - started:.0f} s in all\n"
    )
    print(f"| game | deals per bot | bots | {args.baseline} (s) | now (s) | speed-up | tables |")
    print("|---|---:|---|---:|---:|---:|---|")
    for row in rows:
        base_s, now_s = row["times"]["base"], row["times"]["now"]
        ratio = (sum(base_s) / len(base_s)) / (sum(now_s) / len(now_s))
        print(
            f"| {row['game']} | {row['episodes']:,} | {' '.join(row['bots'])} | "
            f"{', '.join(f'{t:.1f}' for t in base_s)} | {', '.join(f'{t:.1f}' for t in now_s)} | "
            f"{ratio:.1f}x | {row['tables']} |"
        )


if __name__ == "__main__":
    main()
