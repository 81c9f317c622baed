"""Env steps per second during ``learn``, each game's default config beside Poker Squares'.

    python benchmarks/training_throughput.py [--games draw_poker ...] [--rollouts 2]
                                             [--collection config native] [--baseline REV]
                                             [--config FILE ...]

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


Row = tuple[str, float, int, float | None]
"""The collection used, the env steps/s of ``learn``, the steps trained and the seconds of PPO's
updates among ``learn``'s (``None``: a baseline's code that does not time them)."""


def steps_per_second(
    game: str, collection: str, rollouts: int, config_path: str | None = None
) -> Row:
    """:data:`Row` of ``game``'s shipped config (or of the file ``config_path``, a config of
    ``game``) trained ``rollouts`` rollouts."""
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
        result = train(config, out, progress_bar=False, verbose=0)
    throughput = result.throughput
    workers = getattr(config, "workers", 1)  # a baseline's code may not know the key
    return (
        config.vec_env + (f", {workers} workers" if workers > 1 else ""),
        throughput["steps_per_second"],
        result.timesteps,
        throughput.get("update_seconds"),
    )


def baseline_rate(tree: Path, game: str, rollouts: int) -> Row:
    """:func:`steps_per_second` of ``game``'s shipped config under the code of ``tree`` (a
    folder holding ``pokerzoo/``), in a fresh interpreter."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    command = [sys.executable, __file__, "--tree", str(tree), "--one", game, str(rollouts)]
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
    parser.add_argument("--tree", help=argparse.SUPPRESS)  # a baseline row's own process
    parser.add_argument("--one", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.tree:
        sys.path.insert(0, args.tree)
        print(json.dumps(steps_per_second(args.one[0], "config", int(args.one[1]))))
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
    yardstick = steps_per_second(YARDSTICK, "config", args.rollouts)
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
                kind, *measured = baseline_rate(before, game, args.rollouts)
                rows.append((game, (f"{kind}, at {args.baseline}", *measured)))
            for collection in args.collection:
                rows.append((game, steps_per_second(game, collection, args.rollouts)))
        for game, path in files:
            kind, *measured = steps_per_second(game, "config", args.rollouts, path)
            rows.append((game, (f"{kind}, `{Path(path).name}`", *measured)))
    print(
        f"Env steps/s during `learn` (default configs"
        f"{' and the given files' if files else ''}, {args.rollouts} rollouts a row, evaluation "
        f"off); {os.cpu_count()} CPUs, {platform.processor() or platform.machine()}, "
        f"{time.perf_counter() - start:.0f} s in all\n"
    )
    print(
        "Updates: the share of `learn` in PPO's updates (the rest collects the rollouts), and the"
        " env steps/s if collecting cost nothing (steps / update seconds): how far a faster env"
        " side alone can take the row.\n"
    )
    print("| game | collection | steps | env steps/s | / Poker Squares | updates | ceiling |")
    print("|---|---|---:|---:|---:|---:|---:|")
    yard_rate = yardstick[1]
    for game, (kind, rate, steps, updates) in [(YARDSTICK, yardstick), *rows]:
        if updates is None:
            share = ceiling = "-"
        else:
            share = f"{updates * rate / steps:.0%}"
            ceiling = f"{steps / updates:,.0f}"
        print(
            f"| {game} | {kind} | {steps:,} | {rate:,.0f} | {rate / yard_rate:.2f} | {share} "
            f"| {ceiling} |"
        )


if __name__ == "__main__":
    main()
