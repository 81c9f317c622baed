"""The learner's decisions per second on the RLlib backend with 1, 2 and 4 env runners (and
vectorised env runners), beside the SB3 backend's native vector env, for a game's default config.

    python benchmarks/rllib_scale.py [--games five_card_stud ...] [--runners 1 2 4]
                                     [--envs-per-runner 1 8]
                                     [--iterations 3] [--rollouts 2] [--train-batch-size N]
                                     [--cpus-per-env-runner X]

Run it in the RLlib virtualenv (docs/rllib.md), which has both backends. Each row trains the
game's shipped default config (``pokerzoo train GAME``'s) for a short while, with periodic
evaluation and checkpoints off, in a temporary folder, and reports the learner's decisions per
second of training, as each backend's result reports them (``throughput["steps_per_second"]``:
``timesteps`` counts the learner's decisions in both backends; start-up excluded):

- SB3, ``vec_env: native`` (every table in this process, the bots and features batched), for
  ``--rollouts`` PPO rollouts (``n_steps x n_envs`` decisions each, updates included), through
  :func:`pokerzoo.training.train.train`;
- RLlib (``--backend rllib``, the config's ``rllib`` section, its defaults where the config has
  none), for each ``--runners`` count and each ``--envs-per-runner`` count (the tables each env
  runner steps together, ``rllib.num_envs_per_env_runner``, 8 by default: one forward pass of
  each module for all of them), about ``--iterations`` RLlib iterations
  (``train_batch_size`` env steps of every seat each; ``timesteps`` is the learner's share of
  them), through :func:`pokerzoo.training.rllib.train.train`, on one local Ray instance started
  for the whole run with the machine's CPUs. A runner count whose CPUs (``num_cpus_per_env_runner``
  each, plus the learner actors') exceed ``os.cpu_count()`` is refused before anything trains;
  ``--cpus-per-env-runner 0.5`` lets four env runners share two cores (Ray reserves half a CPU
  for each; the processes still compete for the cores, which is what the row then measures).

The table gives, per row, the decisions trained, the decisions/s, RLlib's env steps/s (every
seat's actions; the learner's alone in an action formulation) and the ratio of the row's
decisions/s to SB3's. Rows run one after another: another job on the machine slows every row
alike only if it runs throughout, so read the ratios of one run, not the rates of two.
"""

from __future__ import annotations

import argparse
import csv
import logging
import math
import os
import platform
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple

DEFAULT_GAMES = ("five_card_stud",)
DEFAULT_RUNNERS = (1, 2, 4)


class Row(NamedTuple):
    """One short training: what trained it, how long, and how fast."""

    game: str
    backend: str
    runners: int | None
    envs: int | None
    """Tables per env runner (RLlib) or in the native vector env (SB3)."""
    rounds: int
    """RLlib iterations or SB3 rollouts."""
    decisions: int
    decisions_per_second: float
    env_steps_per_second: float | None


def default_config(game: str) -> Any:
    """The game's shipped config with evaluation and checkpoints off."""
    from pokerzoo.training.runs import resolve_config

    config = resolve_config(game)
    evaluation = config.evaluation.model_copy(update={"every": 0, "final_episodes": 0})
    return config.model_copy(update={"checkpoint_every": 0, "evaluation": evaluation})


def cpus_needed(config: Any, runners: int) -> float:
    """The CPUs Ray reserves for ``runners`` env runners and the config's learner actors (the
    driver reserves none), as :func:`pokerzoo.training.rllib.train.train` counts them."""
    settings = config.rllib
    return (
        runners * settings.num_cpus_per_env_runner
        + settings.num_learners * settings.num_cpus_per_learner
    )


def sb3_row(game: str, rollouts: int) -> Row:
    """SB3 with the config's native vector env in one process (``workers: 1``, as the
    documented comparison measured it), for ``rollouts`` PPO rollouts."""
    from pokerzoo.training.train import train

    config = default_config(game)
    timesteps = rollouts * config.ppo.n_steps * config.n_envs
    config = config.model_copy(update={"timesteps": timesteps, "vec_env": "native", "workers": 1})
    with tempfile.TemporaryDirectory() as out:
        result = train(config, out, progress_bar=False, verbose=0)
    return Row(
        game,
        "sb3 native",
        None,
        config.n_envs,
        rollouts,
        result.timesteps,
        result.throughput["steps_per_second"],
        None,
    )


def rllib_row(
    game: str,
    runners: int,
    iterations: int,
    batch: int | None,
    cpus: float | None = None,
    envs: int | None = None,
) -> Row:
    """RLlib with ``runners`` env runners of ``envs`` tables each (``cpus`` CPUs reserved for
    each runner; ``None``: the config's, for either), for about ``iterations`` iterations."""
    from pokerzoo.envs.core.registry import get_game
    from pokerzoo.training.formulations import NATIVE
    from pokerzoo.training.rllib.settings import with_overrides
    from pokerzoo.training.rllib.train import train

    config = with_overrides(
        default_config(game),
        num_env_runners=runners,
        num_envs_per_env_runner=envs,
        train_batch_size=batch,
        num_cpus_per_env_runner=cpus,
    )
    # The learner's share of an iteration's env steps: its seat's (about one in the number of
    # players), or all of them in an action formulation (the bots act inside the env).
    share = 1 if config.actions != NATIVE else 1 / get_game(game).players
    timesteps = max(1, math.floor(iterations * config.rllib.train_batch_size * share))
    config = config.model_copy(update={"timesteps": timesteps, "backend": "rllib"})
    with tempfile.TemporaryDirectory() as out:
        result = train(config, out, verbose=0)
        with (Path(out) / "progress.csv").open() as handle:
            done = len(list(csv.DictReader(handle)))
    throughput = result.throughput
    return Row(
        game,
        "rllib",
        runners,
        config.rllib.num_envs_per_env_runner,
        done,
        result.timesteps,
        throughput["steps_per_second"],
        throughput["env_steps_per_second"],
    )


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", nargs="+", default=list(DEFAULT_GAMES))
    parser.add_argument("--runners", nargs="+", type=int, default=list(DEFAULT_RUNNERS))
    parser.add_argument(
        "--envs-per-runner",
        nargs="+",
        type=int,
        help="tables each env runner steps together (default: the config's "
        "rllib.num_envs_per_env_runner, 8)",
    )
    parser.add_argument("--iterations", type=int, default=3, help="RLlib iterations per row")
    parser.add_argument("--rollouts", type=int, default=2, help="SB3 PPO rollouts per game")
    parser.add_argument(
        "--train-batch-size",
        type=int,
        help="RLlib env steps per iteration (default: the config's rllib.train_batch_size)",
    )
    parser.add_argument(
        "--cpus-per-env-runner",
        type=float,
        help="CPUs Ray reserves for each env runner (default: the config's "
        "rllib.num_cpus_per_env_runner, 1); below 1 lets more env runners than cores run",
    )
    args = parser.parse_args(argv)
    if args.cpus_per_env_runner is not None and args.cpus_per_env_runner <= 0:
        parser.error(f"--cpus-per-env-runner {args.cpus_per_env_runner:g}: must be above 0")
    if args.iterations < 1 or args.rollouts < 1:
        parser.error("--iterations and --rollouts must be at least 1")
    if any(n < 1 for n in args.runners):
        parser.error("--runners: each count must be at least 1")
    if any(n < 1 for n in args.envs_per_runner or ()):
        parser.error("--envs-per-runner: each count must be at least 1")
    from pokerzoo.envs.core.registry import games, get_game
    from pokerzoo.training.rllib.settings import with_overrides

    known = games()
    for game in args.games:
        if game not in known:
            parser.error(f"unknown game {game!r}: expected one of {', '.join(known)}")
        if get_game(game).players == 1:
            parser.error(f"{game}: the rllib backend trains games of several players")
    cpus = os.cpu_count() or 1
    for game in args.games:
        config = with_overrides(
            default_config(game), num_cpus_per_env_runner=args.cpus_per_env_runner
        )
        for runners in args.runners:
            needed = cpus_needed(config, runners)
            if needed > cpus:
                parser.error(
                    f"--runners {runners}: {game}'s config needs {needed:g} CPUs for "
                    f"{runners} env runners (rllib.num_cpus_per_env_runner "
                    f"{config.rllib.num_cpus_per_env_runner:g} each, plus "
                    f"{config.rllib.num_learners} learner actors); this machine has {cpus}"
                )

    import ray

    start = time.perf_counter()
    rows: list[Row] = []
    ray.init(num_cpus=cpus, include_dashboard=False, logging_level=logging.WARNING)
    try:
        for game in args.games:
            rows.append(sb3_row(game, args.rollouts))
            for envs in args.envs_per_runner or [None]:
                for runners in args.runners:
                    rows.append(
                        rllib_row(
                            game,
                            runners,
                            args.iterations,
                            args.train_batch_size,
                            args.cpus_per_env_runner,
                            envs,
                        )
                    )
    finally:
        ray.shutdown()
    reserved = (
        "the configs'" if args.cpus_per_env_runner is None else f"{args.cpus_per_env_runner:g}"
    )
    print(
        f"Learner decisions/s of training (default configs, evaluation and checkpoints off; "
        f"RLlib: {reserved} CPUs reserved for each env runner); {cpus} CPUs, "
        f"{platform.processor() or platform.machine()}, {time.perf_counter() - start:.0f} s "
        "in all\n"
    )
    print(
        "| game | backend | env runners | tables per runner (SB3: in all) "
        "| iterations / rollouts | decisions | decisions/s | env steps/s | / SB3 |"
    )
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    sb3 = {row.game: row.decisions_per_second for row in rows if row.runners is None}
    for row in rows:
        runners = "" if row.runners is None else str(row.runners)
        env_steps = "" if row.env_steps_per_second is None else f"{row.env_steps_per_second:,.0f}"
        print(
            f"| {row.game} | {row.backend} | {runners} | {row.envs} | {row.rounds} "
            f"| {row.decisions:,} "
            f"| {row.decisions_per_second:,.0f} | {env_steps} "
            f"| {row.decisions_per_second / sb3[row.game]:.2f} |"
        )


if __name__ == "__main__":
    main()
