"""Env steps per second of Poker Squares, single and vectorised, beside PettingZoo's Hold'em.

    python benchmarks/poker_squares_env.py [--seconds 12] [--num-envs 1024] [--seed 0]

Rows, each under random play over legal actions only:

1. ``PokerSquaresEnv``, the single Gymnasium env (one step = one card placed);
2. PettingZoo's classic ``texas_holdem_v4`` AEC env (one step = one player's action; needs the
   ``bench`` extra: ``rlcard`` and ``pygame``), a familiar reference point;
3. ``PokerSquaresVectorEnv`` with ``--num-envs`` games (one call steps them all; steps/s counts
   every game's step);
4. Gymnasium's ``SyncVectorEnv`` over ``--num-envs`` single envs (the generic way to batch).

Only the env's own calls are timed (``step``, plus ``last``/``reset`` where the API needs them);
choosing the random legal actions is not: rows 3 and 4 draw them for all games at once with array
operations, rows 1 and 2 with ``masked_random_choice``. Both vector envs auto-reset on the next
step, the Gymnasium default, and those steps count. Each row runs for about ``--seconds``
(row 4 for a third of it: it is slow); the default run takes about a minute.
"""

from __future__ import annotations

import argparse
import os
import platform
import time
from collections.abc import Callable
from dataclasses import dataclass

import gymnasium as gym
import numpy as np
from pokerzoo.envs.core.bots import masked_random_choice
from pokerzoo.envs.poker_squares import PokerSquaresEnv, PokerSquaresVectorEnv


@dataclass(frozen=True)
class Args:
    """Command-line options."""

    seconds: float = 12.0  # timed env time per row (the Sync row gets a third)
    num_envs: int = 1024  # games per vector env
    seed: int = 0  # seeds the envs and the random play


@dataclass(frozen=True)
class Result:
    name: str
    steps: int
    seconds: float
    note: str = ""

    @property
    def rate(self) -> float:
        return self.steps / self.seconds if self.seconds else 0.0


def parse_args() -> Args:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=Args.seconds, help="timed seconds per row")
    parser.add_argument("--num-envs", type=int, default=Args.num_envs, help="games per vector env")
    parser.add_argument("--seed", type=int, default=Args.seed, help="seed of envs and play")
    ns = parser.parse_args()
    if ns.seconds <= 0 or ns.num_envs < 1:
        parser.error("--seconds and --num-envs must be positive")
    return Args(ns.seconds, ns.num_envs, ns.seed)


def bench_single(args: Args) -> Result:
    env = PokerSquaresEnv()
    rng = np.random.default_rng(args.seed)
    clock = time.perf_counter
    start = clock()
    _, info = env.reset(seed=args.seed)
    timed = clock() - start
    steps = 0
    while timed < args.seconds:
        for _ in range(1000):
            action = masked_random_choice(rng, info["action_mask"])
            start = clock()
            _, _, terminated, _, info = env.step(action)
            if terminated:
                _, info = env.reset()
            timed += clock() - start
        steps += 1000
    return Result("PokerSquaresEnv (single)", steps, timed)


def bench_holdem(args: Args) -> Result:
    try:
        from pettingzoo.classic import texas_holdem_v4
    except ImportError as err:  # rlcard or pygame missing
        return Result("PettingZoo texas_holdem_v4", 0, 0.0, f"not run: {err}")
    env = texas_holdem_v4.env()
    rng = np.random.default_rng(args.seed)
    clock = time.perf_counter
    start = clock()
    env.reset(seed=args.seed)
    timed = clock() - start
    steps = 0
    while timed < args.seconds:
        for _ in range(1000):
            start = clock()
            observation, _, terminated, truncated, _ = env.last()
            timed += clock() - start
            done = terminated or truncated
            action = None if done else masked_random_choice(rng, observation["action_mask"])
            start = clock()
            env.step(action)
            if not env.agents:
                env.reset()
            timed += clock() - start
        steps += 1000
    return Result("PettingZoo texas_holdem_v4", steps, timed)


def bench_vector(
    name: str, make: Callable[[], gym.vector.VectorEnv], seconds: float, seed: int
) -> Result:
    env = make()
    rng = np.random.default_rng(seed)
    clock = time.perf_counter
    start = clock()
    _, info = env.reset(seed=seed)
    timed = clock() - start
    steps = 0
    while timed < seconds:
        for _ in range(10):
            # a uniformly random legal cell per game; any cell where none is legal (a game the
            # next step deals again ignores its action)
            keys = rng.random(info["action_mask"].shape)
            keys *= info["action_mask"]
            actions = keys.argmax(axis=1)
            start = clock()
            _, _, _, _, info = env.step(actions)
            timed += clock() - start
        steps += 10 * env.num_envs
    env.close()
    return Result(f"{name}, {env.num_envs} games", steps, timed)


def table(results: list[Result], args: Args) -> str:
    single = results[0].rate
    lines = [
        "| env | steps | seconds | steps/s | vs single env |",
        "|---|---:|---:|---:|---:|",
    ]
    for r in results:
        if not r.steps:
            lines.append(f"| {r.name} | - | - | {r.note} | - |")
            continue
        lines.append(
            f"| {r.name} | {r.steps:,} | {r.seconds:.1f} | {r.rate:,.0f} | "
            f"{r.rate / single:,.1f}x |"
        )
    return "\n".join(lines)


def main() -> None:
    args = parse_args()
    n, seed = args.num_envs, args.seed
    print(
        f"# Poker Squares env speed ({platform.processor() or platform.machine()}, "
        f"{os.cpu_count()} CPUs, numpy {np.__version__}, gymnasium {gym.__version__})\n"
    )
    results = [bench_single(args), bench_holdem(args)]
    native = bench_vector(
        "PokerSquaresVectorEnv", lambda: PokerSquaresVectorEnv(n), args.seconds, seed
    )
    sync = bench_vector(
        "SyncVectorEnv of PokerSquaresEnv",
        lambda: gym.vector.SyncVectorEnv([PokerSquaresEnv for _ in range(n)]),
        args.seconds / 3,
        seed,
    )
    results += [native, sync]
    print(table(results, args))
    print(
        f"\nPokerSquaresVectorEnv / SyncVectorEnv: {native.rate / sync.rate:,.1f}x "
        f"(target >= 20x); PokerSquaresVectorEnv: {native.rate:,.0f} steps/s "
        f"(target >= 1,000,000)"
    )


if __name__ == "__main__":
    main()
