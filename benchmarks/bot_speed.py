"""Time per decision of every bot of every game of several players, per option set.

    python benchmarks/bot_speed.py [--seconds 2] [--games draw_poker ...] [--bots equity ...]

Each row seats the same bot in every seat of the game's PettingZoo env under one of the game's
option sets (the registry's), plays whole games with consecutive seeds for about ``--seconds``,
and times the bots' ``act`` calls only (the env's own work is left out). A first, untimed game
builds what a bot or the env builds once. The README quotes the equity bots' rows.
"""

from __future__ import annotations

import argparse
import os
import platform
import time
import warnings
from collections.abc import Mapping, Sequence
from typing import Any

from pokerzoo.envs.core.pettingzoo_env import play_game
from pokerzoo.envs.core.registry import GameSpec, games


def time_bot(
    spec: GameSpec, bot: str, options: Mapping[str, Any], seconds: float
) -> tuple[int, float]:
    """Decisions made by ``bot`` in every seat and the seconds its ``act`` calls took."""
    env = spec.make_aec(**options)
    seats = {
        agent: spec.make_bot(bot, seed=i, **options) for i, agent in enumerate(env.possible_agents)
    }
    decisions, spent, game = 0, 0.0, 0

    def act(agent: str, observation: dict[str, Any]) -> int:
        nonlocal decisions, spent
        start = time.perf_counter()
        action = seats[agent].act(observation["observation"], observation["action_mask"])
        if game > 0:
            spent += time.perf_counter() - start
            decisions += 1
        return action

    wall = time.perf_counter()
    while game == 0 or time.perf_counter() - wall < seconds:
        play_game(env, act, seed=game)
        if game == 0:
            wall = time.perf_counter()
        game += 1
    return decisions, spent


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="seconds of play per row")
    parser.add_argument("--games", nargs="+", help="only these games (default: all)")
    parser.add_argument("--bots", nargs="+", help="only these bots (default: all)")
    args = parser.parse_args(argv)
    warnings.simplefilter("ignore")
    print(
        f"bots in every seat, about {args.seconds:g} s per row; Python "
        f"{platform.python_version()}, {os.cpu_count()} cores\n"
    )
    print("| game | options | bot | decisions | ms per decision |")
    print("|---|---|---|---:|---:|")
    for spec in games().values():
        if spec.aec is None or (args.games and spec.name not in args.games):
            continue
        for bot in spec.bot_classes:
            if args.bots and bot not in args.bots:
                continue
            for label, options in spec.option_sets.items():
                decisions, spent = time_bot(spec, bot, dict(options), args.seconds)
                ms = 1000 * spent / max(decisions, 1)
                print(f"| {spec.name} | {label} | {bot} | {decisions:,} | {ms:.3f} |")


if __name__ == "__main__":
    main()
