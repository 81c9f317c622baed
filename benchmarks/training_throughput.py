"""Env steps per second during ``learn``, each game's default config beside Poker Squares'.

    python benchmarks/training_throughput.py [--games draw_poker ...] [--rollouts 2]
                                             [--collection config native] [--baseline REV]
                                             [--config FILE ...] [--repeat N]
                                             [--self-play] [--no-warmup]

Each row trains a game's shipped default config (``pokerzoo train GAME``'s) for ``--rollouts``
PPO rollouts (``n_steps x n_envs`` env steps each, updates included) with periodic and final
evaluation off, and reports the env steps per second of ``learn`` (:class:`TrainResult`'s
``throughput``). ``--collection`` picks how the training env collects: ``config``, the
config's ``vec_env`` and ``workers`` as shipped, and ``native``, every table in this process (a
game of several players: the vector env of bot tables, :mod:`pokerzoo.envs.core.seat_vector`,
its bots and features batched). Both for each game by default, so one run shows the before and
after; Poker Squares (a native vector env either way) is the yardstick every row is divided by.
Each row also splits ``learn`` (the ``collection_seconds`` and ``update_seconds`` of
``run.json``'s throughput): the share in PPO's updates, and the ceiling, the env steps/s the row
would reach if collecting its rollouts cost nothing (steps / update seconds).
``--baseline REV`` adds, per game, the config as shipped at commit ``REV`` trained by the code of
``REV`` (``git archive``, in a fresh interpreter): the before of a change, in the same run. Rows
run one after another: another job on the machine slows every row alike only if it runs
throughout, so read the ratios of one run, not the steps/s of two.
``--config FILE ...`` adds a row for each config file (of any game; its own ``vec_env`` and
``workers``), trained the same way after the shipped configs' rows: a change of tables or
rollouts measured beside the default it would replace (``--games`` picks the defaults shown;
``--games`` with no game, none of them).
Each row also says how far it stands from the training-throughput issue's target: its env
steps/s over the figure that issue started from (:data:`ISSUE_START`, the README's of the time;
the target is 10x), and whether it reached both 10x and half of Poker Squares' rate in the same
run. The machine's noise moves a row by a tenth between runs: ``--repeat N`` trains the whole
table ``N`` times, one repeat after another (Poker Squares first in each), and gives each row's
median with its range and how many of the repeats met the target.
``--self-play`` seats the learner's past snapshots from the first timed step: a row of a config
with self-play starts with its pool full (``opponents.max_snapshots`` snapshots, each a copy of
the config's model after one untimed rollout, handed to the timed run as the snapshots its
folder holds, as a run that had trained that far would seat them). A default run plays most of
its steps so (poker without a name fills its pool of 5 by 250k of its 500k steps, draw poker by
500k of 1.4M): the rows without it, whose few rollouts end before the first snapshot, leave out
the snapshots' features and forward passes at their tables.
Before the timed rows, each game's config trains one untimed rollout under each code (the
baseline's and this one; ``--no-warmup`` skips it): where numba is installed, a code's compiled
loops are compiled into numba's cache beside its package on their first use (seconds, once per
install, inside the first reset of ``learn``), which a fresh baseline tree would otherwise pay
in its first timed row. Every later process loads them from the cache.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

YARDSTICK = "poker_squares"
DEFAULT_GAMES = ("draw_poker", "five_card_stud", "nameless_poker", "quintet")


ISSUE_START = {"draw_poker": 172, "five_card_stud": 238, "nameless_poker": 183, "quintet": 120}
"""Env steps/s of each game's default training as the training-throughput issue found it (the
README of the time): its target is 10x these, and half of Poker Squares' rate in the same run."""
TARGET_FACTOR, TARGET_SHARE = 10, 0.5

Row = tuple[str, float, int, float | None]
"""The collection used, the env steps/s of ``learn``, the steps trained and the seconds of PPO's
updates among ``learn``'s (``None``: a baseline's code that does not time them)."""


def steps_per_second(
    game: str,
    collection: str,
    rollouts: int,
    config_path: str | None = None,
    self_play: bool = False,
) -> Row:
    """:data:`Row` of ``game``'s shipped config (or of the file ``config_path``, a config of
    ``game``) trained ``rollouts`` rollouts; ``self_play``: with its pool of snapshots full
    from the start (the module's ``--self-play``)."""
    from pokerzoo.training.runs import resolve_config
    from pokerzoo.training.train import train

    config = resolve_config(game, config_path)
    updates: dict[str, object] = {
        "timesteps": rollouts * config.ppo.n_steps * config.n_envs,
        "checkpoint_every": 10**9,
        "evaluation": config.evaluation.model_copy(update={"every": 0, "final_episodes": 0}),
    }
    if collection == "native":
        updates["vec_env"] = "native"
        updates["workers"] = 1
    config = config.model_copy(update=updates)
    with tempfile.TemporaryDirectory() as out:
        opponents = getattr(config, "opponents", None)
        if self_play and opponents is not None and opponents.snapshot_every:
            with _seated(_snapshots(config, Path(out))):
                result = train(config, Path(out, "run"), progress_bar=False, verbose=0)
        else:
            result = train(config, Path(out, "run"), progress_bar=False, verbose=0)
    throughput = result.throughput
    workers = getattr(config, "workers", 1)  # a baseline's code may not know the key
    return (
        config.vec_env + (f", {workers} workers" if workers > 1 else ""),
        throughput["steps_per_second"],
        result.timesteps,
        throughput.get("update_seconds"),
    )


def _snapshots(config: Any, out: Path) -> list[str]:
    """``opponents.max_snapshots`` snapshots for a run of ``config``: copies of its model
    trained one rollout in ``out/seed`` (untimed), in ``out/snapshots``."""
    from pokerzoo.training.train import train

    rollout = config.ppo.n_steps * config.n_envs
    seed = config.model_copy(update={"timesteps": rollout})
    train(seed, out / "seed", verbose=0, progress_bar=False)
    (out / "snapshots").mkdir()
    paths = []
    for index in range(config.opponents.max_snapshots):
        paths.append(str(out / "snapshots" / f"step_{(index + 1) * rollout}.zip"))
        shutil.copy(out / "seed" / "model.zip", paths[-1])
    return paths


@contextlib.contextmanager
def _seated(paths: list[str]) -> Iterator[None]:
    """While it lasts, a new run starts with ``paths`` as the snapshots of its folder (a run
    in a folder that held them would seat them; ``train`` wants a new run's folder empty)."""
    import pokerzoo.training.train as training

    found = training.snapshot_paths
    training.snapshot_paths = lambda run_dir: list(paths)
    try:
        yield
    finally:
        training.snapshot_paths = found


def tree_config(tree: str | Path, game: str) -> str | None:
    """The config ``tree`` (a folder holding ``pokerzoo/``) ships for ``game``, if any: a
    baseline row trains its own commit's config, not the ``configs/`` of the working directory
    that ``pokerzoo train``'s lookup would find first."""
    path = Path(tree, "pokerzoo", "configs", f"{game}.yaml")
    return str(path) if path.is_file() else None


def baseline_rate(tree: Path, game: str, rollouts: int, self_play: bool = False) -> Row:
    """:func:`steps_per_second` of ``game``'s shipped config under the code of ``tree`` (a
    folder holding ``pokerzoo/``), in a fresh interpreter."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    command = [sys.executable, __file__, "--tree", str(tree), "--one", game, str(rollouts)]
    command += ["--self-play"] if self_play else []
    out = subprocess.run(command, capture_output=True, text=True, env=env)
    if out.returncode:
        raise RuntimeError(f"{game} under {tree} failed:\n{out.stderr}")
    kind, rate, steps, *updates = json.loads(out.stdout.splitlines()[-1])
    return kind, rate, steps, updates[0] if updates else None


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", nargs="*", default=list(DEFAULT_GAMES))
    parser.add_argument("--rollouts", type=int, default=2, help="PPO rollouts per row")
    parser.add_argument(
        "--collection", nargs="+", choices=("config", "native"), default=["config", "native"]
    )
    parser.add_argument("--baseline", help="also train each config as shipped at this commit")
    parser.add_argument(
        "--config", nargs="+", default=[], metavar="FILE", help="also train these config files"
    )
    parser.add_argument(
        "--repeat", type=int, default=1, metavar="N", help="train the whole table N times"
    )
    parser.add_argument(
        "--self-play",
        action="store_true",
        help="seat each config's full pool of snapshots from the first timed step",
    )
    parser.add_argument(
        "--no-warmup",
        dest="warmup",
        action="store_false",
        help="skip the untimed rollout of each game's code before the timed rows",
    )
    parser.add_argument("--tree", help=argparse.SUPPRESS)  # a baseline row's own process
    parser.add_argument("--one", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error(f"bad --repeat {args.repeat}: expected 1 or more")
    if args.tree:
        sys.path.insert(0, args.tree)
        game, rollouts = args.one[0], int(args.one[1])
        config = tree_config(args.tree, game)
        print(json.dumps(steps_per_second(game, "config", rollouts, config, args.self_play)))
        return
    from pokerzoo.envs.core.registry import games
    from pokerzoo.training.config import ConfigError, load_config

    known = games()
    for game in [*args.games, YARDSTICK]:
        if game not in known:
            parser.error(f"unknown game {game!r}: expected one of {', '.join(known)}")
    files = []
    for path in args.config:
        try:
            files.append((load_config(path).game, path))
        except ConfigError as error:
            parser.error(str(error))
    start = time.perf_counter()
    yardsticks: list[Row] = []
    measured: list[tuple[str, list[Row]]] = []  # each row's game and its repeats, in order
    with tempfile.TemporaryDirectory() as tmp:
        before = None
        if args.baseline:
            here = Path(__file__).resolve().parent
            sys.path.insert(0, str(here))
            from envs_ab import extract, namespace  # the A/B of the envs: the same extraction

            before = namespace(extract(args.baseline, Path(tmp, "src")), Path(tmp, "base"))
        if args.warmup:  # compile each code's numba loops into its cache, untimed
            for game in args.games:
                if before is not None:
                    baseline_rate(before, game, 1)
                steps_per_second(game, "config", 1)
        for _ in range(args.repeat):
            yardsticks.append(steps_per_second(YARDSTICK, "config", args.rollouts))
            rows: list[tuple[str, Row]] = []
            for game in args.games:
                if before is not None:
                    kind, *rest = baseline_rate(before, game, args.rollouts, args.self_play)
                    rows.append((game, (f"{kind}, at {args.baseline}", *rest)))
                for collection in args.collection:
                    row = steps_per_second(game, collection, args.rollouts, None, args.self_play)
                    rows.append((game, row))
            for game, path in files:
                kind, *rest = steps_per_second(game, "config", args.rollouts, path, args.self_play)
                rows.append((game, (f"{kind}, `{Path(path).name}`", *rest)))
            if not measured:
                measured = [(game, []) for game, _ in rows]
            for (_, repeats), (_, row) in zip(measured, rows, strict=True):
                repeats.append(row)
    repeats = f", {args.repeat} repeats (median, range)" if args.repeat > 1 else ""
    pools = ", the pools full of snapshots" if args.self_play else ""
    print(
        f"Env steps/s during `learn` (default configs"
        f"{' and the given files' if files else ''}, {args.rollouts} rollouts a row, evaluation "
        f"off{pools}{repeats}); {os.cpu_count()} CPUs, "
        f"{platform.processor() or platform.machine()}, "
        f"{time.perf_counter() - start:.0f} s in all\n"
    )
    print(
        "Updates: the share of `learn` in PPO's updates (the rest collects the rollouts), and the"
        " env steps/s if collecting cost nothing (steps / update seconds): how far a faster env"
        " side alone can take the row. Issue's start: the row's env steps/s over the figure the"
        f" training-throughput issue started from; target: the repeats at {TARGET_FACTOR}x that"
        f" figure and at {TARGET_SHARE:g} of Poker Squares' rate or more.\n"
    )
    print(
        "| game | collection | steps | env steps/s | / Poker Squares | updates | ceiling "
        "| / issue's start | target |"
    )
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    for game, runs in [(YARDSTICK, yardsticks), *measured]:
        print(f"| {game} | {runs[0][0]} | " + " | ".join(_cells(game, runs, yardsticks)) + " |")


def _cells(game: str, runs: Sequence[Row], yardsticks: Sequence[Row]) -> list[str]:
    """A row's cells after its collection: steps, env steps/s, its share of Poker Squares' rate
    in the same repeat, the updates' share and the ceiling, its rate over the issue's start and
    the repeats at the target (each a median with its range over several repeats)."""
    rates = [rate for _, rate, _, _ in runs]
    shares = [rate / yard[1] for rate, yard in zip(rates, yardsticks, strict=True)]
    updates = [(seconds, rate, steps) for _, rate, steps, seconds in runs if seconds is not None]
    cells = [f"{runs[0][2]:,}", _spread(rates, "{:,.0f}"), _spread(shares, "{:.2f}")]
    if len(updates) == len(runs):
        cells.append(_spread([s * r / n for s, r, n in updates], "{:.0%}"))
        cells.append(_spread([n / s for s, _, n in updates], "{:,.0f}"))
    else:  # a baseline's code that does not time its updates
        cells += ["-", "-"]
    start = ISSUE_START.get(game)
    if start is None:
        return [*cells, "-", "-"]
    met = sum(
        rate >= TARGET_FACTOR * start and share >= TARGET_SHARE
        for rate, share in zip(rates, shares, strict=True)
    )
    return [*cells, _spread([rate / start for rate in rates], "{:.1f}x"), f"{met}/{len(runs)}"]


def _spread(values: Sequence[float], form: str) -> str:
    """One value as ``form`` has it; several, their median and range."""
    if len(values) == 1:
        return form.format(values[0])
    low, high = min(values), max(values)
    return f"{form.format(statistics.median(values))} ({form.format(low)}-{form.format(high)})"


if __name__ == "__main__":
    main()
