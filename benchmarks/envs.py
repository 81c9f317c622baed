"""Decisions per second of every registered game's PettingZoo env beside PettingZoo's Hold'em.

    python benchmarks/envs.py [--seconds 3] [--seed 0] [--games draw_poker quintet ...]

Every row plays the same loop: PettingZoo's ``agent_iter`` over the AEC env made by ``env()``
(the order-enforcing wrapper included), ``last()``, a uniformly random legal action from the
observation's mask (``None`` for a finished agent), ``step``; games are reset with consecutive
seeds until ``--seconds`` have passed. A decision is one ``step`` with an action. The
reference is ``texas_holdem_v4`` (PettingZoo classic, on RLCard: the ``bench`` extra) at the
same number of players as the row, measured in the same run; the table gives each row's
decisions per second and its ratio to Hold'em. Rows come from the game registry: each game's
option sets (and its PettingZoo-only sets). The target (issues 9-12): every pokerzoo env at
least 3x Hold'em.
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
from typing import Any, NamedTuple

import numpy as np
from pokerzoo.envs.core.registry import games


@dataclass(frozen=True)
class Row:
    name: str
    options: str
    players: int
    decisions: int
    seconds: float

    @property
    def rate(self) -> float:
        return self.decisions / self.seconds


class Played(NamedTuple):
    """What one stretch of random play did."""

    decisions: int
    seconds: float
    games: int
    """Games played (each to its end: the clock is read between games)."""


def play(
    make: Callable[[], Any],
    seconds: float,
    seed: int,
    clock: Callable[[], float] = time.perf_counter,
) -> Played:
    """Random masked play for about ``seconds`` of ``clock``: decisions made, the time they
    took and the games played (``benchmarks/envs_ab.py`` passes ``time.process_time``).

    A first, untimed game builds what an env builds once (the evaluator's tables)."""
    env = make()
    rng = np.random.default_rng(seed)
    env.reset(seed=seed + 10**6)
    for _ in env.agent_iter():
        observation, _, terminated, truncated, _ = env.last()
        legal = np.flatnonzero(observation["action_mask"])
        env.step(None if terminated or truncated else int(legal[0]))
    decisions = 0
    start = clock()
    game = 0
    while clock() - start < seconds:
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
    return Played(decisions, clock() - start, game)


def rows(seconds: float, seed: int, names: Sequence[str] | None) -> list[Row]:
    out = []
    for spec in games().values():
        if spec.aec is None or (names and spec.name not in names):
            continue
        for label, options in {**spec.option_sets, **spec.table_option_sets}.items():
            make = partial(spec.make_aec, **options)
            decisions, took, _ = play(make, seconds, seed)
            name = spec.aec.split(":")[0].rsplit(".", 1)[-1]
            out.append(Row(name, label, len(make().possible_agents), decisions, took))
    return out


def holdem(players: int, seconds: float, seed: int) -> Row:
    from pettingzoo.classic import texas_holdem_v4  # checked at start (main)

    decisions, took, _ = play(partial(texas_holdem_v4.env, num_players=players), seconds, seed)
    return Row("texas_holdem_v4 (PettingZoo)", f"{players} players", players, decisions, took)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds of play per row")
    parser.add_argument("--seed", type=int, default=0, help="first game's seed")
    parser.add_argument("--games", nargs="+", help="only these games (default: all)")
    args = parser.parse_args()
    warnings.simplefilter("ignore")
    try:  # the reference comes last: fail before minutes of measuring, not after
        from pettingzoo.classic import texas_holdem_v4  # noqa: F401
    except ImportError as err:
        raise SystemExit(f"texas_holdem_v4 needs the bench extra (rlcard, pygame): {err}") from None
    measured = rows(args.seconds, args.seed, args.games)
    reference = {
        n: holdem(n, args.seconds, args.seed) for n in sorted({r.players for r in measured})
    }
    print(
        f"random masked play, {args.seconds:g} s per row; {platform.python_version()}, "
        f"{os.cpu_count()} cores; ratios to texas_holdem_v4 at the same number of players\n"
    )
    print("| env | options | players | decisions/s | x texas_holdem_v4 |")
    print("|---|---|---:|---:|---:|")
    for row in [*reference.values(), *measured]:
        ratio = row.rate / reference[row.players].rate
        print(f"| `{row.name}` | {row.options} | {row.players} | {row.rate:,.0f} | {ratio:.1f} |")
    slow = [r for r in measured if r.rate < 3 * reference[r.players].rate]
    print(
        "\nevery env at least 3x texas_holdem_v4"
        if not slow
        else "\nbelow 3x texas_holdem_v4: " + ", ".join(f"{r.name} ({r.options})" for r in slow)
    )


if __name__ == "__main__":
    main()
