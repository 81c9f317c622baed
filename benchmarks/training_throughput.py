"""Env steps per second during ``learn``, each game's default config beside Poker Squares'.

    python benchmarks/training_throughput.py [--games draw_poker ...] [--rollouts 2]
                                             [--collection config native]

Each row trains a game's shipped default config (``pokerzoo train GAME``'s) for ``--rollouts``
PPO rollouts (``n_steps x n_envs`` env steps each, updates included) with periodic and final
evaluation off, and reports the env steps per second of ``learn`` (:class:`TrainResult`'s
``throughput``). ``--collection`` picks how the training env collects: ``config``, the
config's ``vec_env`` as shipped, and ``native``, every table in this process (a game of several
players: the vector env of bot tables, :mod:`pokerzoo.envs.core.seat_vector`, its bots and
features batched). Both for each game by default, so one run shows the before and after; Poker
Squares (a native vector env either way) is the yardstick every row is divided by. Rows run one
after another in this process: another job on the machine slows every row alike only if it
runs throughout, so read the ratios of one run, not the steps/s of two.
"""

from __future__ import annotations

import argparse
import os
import platform
import tempfile
import time
from collections.abc import Sequence

from pokerzoo.envs.core.registry import games
from pokerzoo.training.runs import resolve_config
from pokerzoo.training.train import train

YARDSTICK = "poker_squares"
DEFAULT_GAMES = ("draw_poker", "five_card_stud", "nameless_poker", "quintet")


def steps_per_second(game: str, collection: str, rollouts: int) -> tuple[str, float, int]:
    """The collection actually used, the env steps/s of ``learn`` and the steps trained."""
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


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", nargs="+", default=list(DEFAULT_GAMES))
    parser.add_argument("--rollouts", type=int, default=2, help="PPO rollouts per row")
    parser.add_argument(
        "--collection", nargs="+", choices=("config", "native"), default=["config", "native"]
    )
    args = parser.parse_args(argv)
    known = games()
    for game in [*args.games, YARDSTICK]:
        if game not in known:
            parser.error(f"unknown game {game!r}: expected one of {', '.join(known)}")
    start = time.perf_counter()
    yard_kind, yard_rate, yard_steps = steps_per_second(YARDSTICK, "config", args.rollouts)
    rows = []
    for game in args.games:
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
