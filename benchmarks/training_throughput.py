"""Env steps per second during ``learn``, each game's default config beside Poker Squares'.

    python benchmarks/training_throughput.py [--games draw_poker ...] [--rollouts 2]
                                             [--collection config native] [--baseline REV]

Each row trains a game's shipped default config (``pokerzoo train GAME``'s) for ``--rollouts``
PPO rollouts (``n_steps x n_envs`` env steps each, updates included) with periodic and final
evaluation off, and reports the env steps per second of ``learn`` (:class:`TrainResult`'s
``throughput``). ``--collection`` picks how the training env collects: ``config``, the
config's ``vec_env`` as shipped, and ``native``, every table in this process (a game of several
players: the vector env of bot tables, :mod:`pokerzoo.envs.core.seat_vector`, its bots and
features batched). Both for each game by default, so one run shows the before and after; Poker
Squares (a native vector env either way) is the yardstick every row is divided by.
``--baseline REV`` adds, per game, the config as shipped at commit ``REV`` trained by the code of
``REV`` (``git archive``, in a fresh interpreter): the before of a change, in the same run. Rows
run one after another: another job on the machine slows every row alike only if it runs
throughout, so read the ratios of one run, not the steps/s of two.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

YARDSTICK = "poker_squares"
DEFAULT_GAMES = ("draw_poker", "five_card_stud", "nameless_poker", "quintet")


def steps_per_second(game: str, collection: str, rollouts: int) -> tuple[str, float, int]:
    """The collection actually used, the env steps/s of ``learn`` and the steps trained."""
    from pokerzoo.training.runs import resolve_config
    from pokerzoo.training.train import train

    config = resolve_config(game)
    updates: dict[str, object] = {
        "timesteps": rollouts * config.ppo.n_steps * config.n_envs,
        "checkpoint_every": 10**9,
        "evaluation": config.evaluation.model_copy(update={"every": 0, "final_episodes": 0}),
    }
    if collection == "native":
        updates["vec_env"] = "native"
    config = config.model_copy(update=updates)
    with tempfile.TemporaryDirectory() as out:
        result = train(config, out, progress_bar=False, verbose=0)
    return config.vec_env, result.throughput["steps_per_second"], result.timesteps


def baseline_rate(tree: Path, game: str, rollouts: int) -> tuple[str, float, int]:
    """:func:`steps_per_second` of ``game``'s shipped config under the code of ``tree`` (a
    folder holding ``pokerzoo/``), in a fresh interpreter."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    command = [sys.executable, __file__, "--tree", str(tree), "--one", game, str(rollouts)]
    out = subprocess.run(command, capture_output=True, text=True, env=env)
    if out.returncode:
        raise RuntimeError(f"{game} under {tree} failed:\n{out.stderr}")
    kind, rate, steps = json.loads(out.stdout.splitlines()[-1])
    return kind, rate, steps


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", nargs="+", default=list(DEFAULT_GAMES))
    parser.add_argument("--rollouts", type=int, default=2, help="PPO rollouts per row")
    parser.add_argument(
        "--collection", nargs="+", choices=("config", "native"), default=["config", "native"]
    )
    parser.add_argument("--baseline", help="also train each config as shipped at this commit")
    parser.add_argument("--tree", help=argparse.SUPPRESS)  # a baseline row's own process
    parser.add_argument("--one", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.tree:
        sys.path.insert(0, args.tree)
        print(json.dumps(steps_per_second(args.one[0], "config", int(args.one[1]))))
        return
    from pokerzoo.envs.core.registry import games

    known = games()
    for game in [*args.games, YARDSTICK]:
        if game not in known:
            parser.error(f"unknown game {game!r}: expected one of {', '.join(known)}")
    start = time.perf_counter()
    yard_kind, yard_rate, yard_steps = steps_per_second(YARDSTICK, "config", args.rollouts)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        before = None
        if args.baseline:
            here = Path(__file__).resolve().parent
            sys.path.insert(0, str(here))
            from envs_ab import extract, namespace  # the A/B of the envs: the same extraction

            before = namespace(extract(args.baseline, Path(tmp, "src")), Path(tmp, "base"))
        for game in args.games:
            if before is not None:
                kind, rate, steps = baseline_rate(before, game, args.rollouts)
                rows.append((game, f"{kind}, at {args.baseline}", rate, steps))
            for collection in args.collection:
                rows.append((game, *steps_per_second(game, collection, args.rollouts)))
    print(
        f"Env steps/s during `learn` (default configs, {args.rollouts} rollouts a row, evaluation "
        f"off); {os.cpu_count()} CPUs, {platform.processor() or platform.machine()}, "
        f"{time.perf_counter() - start:.0f} s in all\n"
    )
    print("| game | collection | steps | env steps/s | / Poker Squares |")
    print("|---|---|---:|---:|---:|")
    print(f"| {YARDSTICK} | {yard_kind} | {yard_steps:,} | {yard_rate:,.0f} | 1.00 |")
    for game, kind, rate, steps in rows:
        print(f"| {game} | {kind} | {steps:,} | {rate:,.0f} | {rate / yard_rate:.2f} |")


if __name__ == "__main__":
    main()
