"""Decisions per second of every registered game's PettingZoo env beside PettingZoo's Hold'em.

    python benchmarks/envs.py [--seconds 3] [--seed 0] [--games draw_poker quintet ...]

Every row plays the same loop: PettingZoo's ``agent_iter`` over the AEC env made by ``env()``
(the order-enforcing wrapper included), ``last()``, a uniformly random legal action from the
observation's mask (``None`` for a finished agent), ``step``; games are reset with consecutive
seeds until ``--seconds`` have passed. A decision is one ``step`` with an action. The reference
row is ``texas_holdem_v4`` (PettingZoo classic, on RLCard: the ``bench`` extra), measured in the
same run; the table gives each row's decisions per second and its ratio to Hold'em. Rows come
from the game registry: each game's option sets (and its PettingZoo-only sets). The target
(issues 9-12): every pokerzoo env at least 3x Hold'em.
"""

from __future__ import annotations

import argparse
import os
import platform
import time
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

import numpy as np
from pokerzoo.envs.core.registry import games


@dataclass(frozen=True)
class Row:
    name: str
    options: str
    decisions: int
    seconds: float

    @property
    def rate(self) -> float:
        return self.decisions / self.seconds


def play(make: Callable[[], Any], seconds: float, seed: int) -> tuple[int, float]:
    """Random masked play for about ``seconds``: decisions made and the time they took."""
    env = make()
    rng = np.random.default_rng(seed)
    decisions = 0
    start = time.perf_counter()
    game = 0
    while time.perf_counter() - start < seconds:
        env.reset(seed=seed + game)
        game += 1
        for _ in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = np.flatnonzero(observation["action_mask"])
            env.step(int(legal[rng.integers(legal.size)]))
            decisions += 1
    return decisions, time.perf_counter() - start


def rows(seconds: float, seed: int, names: Sequence[str] | None) -> list[Row]:
    out = []
    for spec in games().values():
        if spec.aec is None or (names and spec.name not in names):
            continue
        for label, options in {**spec.option_sets, **spec.table_option_sets}.items():
            decisions, took = play(partial(spec.make_aec, **options), seconds, seed)
            out.append(Row(spec.aec.split(":")[0].rsplit(".", 1)[-1], label, decisions, took))
    return out


def holdem(seconds: float, seed: int) -> Row:
    from pettingzoo.classic import texas_holdem_v4

    decisions, took = play(texas_holdem_v4.env, seconds, seed)
    return Row("texas_holdem_v4 (PettingZoo)", "2 players", decisions, took)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds of play per row")
    parser.add_argument("--seed", type=int, default=0, help="first game's seed")
    parser.add_argument("--games", nargs="+", help="only these games (default: all)")
    args = parser.parse_args()
    warnings.simplefilter("ignore")
    reference = holdem(args.seconds, args.seed)
    measured = rows(args.seconds, args.seed, args.games)
    print(
        f"random masked play, {args.seconds:g} s per row; {platform.python_version()}, "
        f"{os.cpu_count()} cores\n"
    )
    print("| env | options | decisions/s | x texas_holdem_v4 |")
    print("|---|---|---:|---:|")
    for row in [reference, *measured]:
        print(
            f"| `{row.name}` | {row.options} | {row.rate:,.0f} | {row.rate / reference.rate:.1f} |"
        )
    slow = [r for r in measured if r.rate < 3 * reference.rate]
    print(
        "\nevery env at least 3x texas_holdem_v4"
        if not slow
        else "\nbelow 3x texas_holdem_v4: " + ", ".join(f"{r.name} ({r.options})" for r in slow)
    )


if __name__ == "__main__":
    main()
