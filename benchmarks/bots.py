"""Bot against bot by duplicate deals, for any game of several players in the registry.

    python benchmarks/bots.py GAME [--deals 10000] [--options '{"hi_lo": true}']
                                   [--bots a b ...] [--against b ...] [--processes 2]
                                   [--seed 1000000]

For every pair of the game's bots (``a``, ``b``), bot ``a`` takes one seat and ``b`` every other
seat; each deal is played once per seat of ``a`` with the same cards and the same bot seeds
(the evaluation of trained agents, :func:`pokerzoo.training.evaluate.play_duplicate`, with bot
``a`` as the agent), so card luck cancels. Two-player games are symmetric, so each unordered
pair is played once; with more players every ordered pair is. The table gives ``a``'s result per
game (chips per hand, points, a game's score: the game's unit), the ``b`` bots' mean result at
the same table and the margin between them, with 95% intervals over deals, and ``a``'s win rate
against the best of them. ``--against`` keeps only the pairs whose ``b`` is one of the bots
named (in games of many seats a slow bot in every other seat costs most of the time). Deals are
split across ``--processes`` worker processes.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import platform
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import numpy as np
from pokerzoo.envs.core.registry import get_game
from pokerzoo.training.evaluate import DuplicateDeals, play_duplicate


def bot_policy(game: str, name: str, options: dict[str, Any], seed: int) -> Any:
    """Bot ``name`` as a batched policy (one game at a time: bots keep per-game state)."""
    bot = get_game(game).make_bot(name, seed=seed, **options)

    def policy(observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        return np.array([bot.act(o, m) for o, m in zip(observations, masks, strict=True)])

    return policy


def run(job: tuple[str, str, str, dict[str, Any], int, int]) -> tuple[str, str, DuplicateDeals]:
    game, agent, opponent, options, seed, deals = job
    policy = bot_policy(game, agent, options, seed)
    results = play_duplicate(get_game(game), policy, options, deals, opponent, seed, batch=1)
    return agent, opponent, results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", help="a game of several players (see `pokerzoo list`)")
    parser.add_argument("--deals", type=int, default=10_000, help="duplicate deals per pair")
    parser.add_argument("--options", default="{}", help="env options, as JSON")
    parser.add_argument("--bots", nargs="+", help="bots to pair (default: all)")
    parser.add_argument("--against", nargs="+", help="the other seats' bots (default: all)")
    parser.add_argument("--processes", type=int, default=2, help="worker processes")
    parser.add_argument("--seed", type=int, default=1_000_000, help="first deal's seed")
    args = parser.parse_args()
    spec = get_game(args.game)
    if spec.players < 2:
        parser.error(f"{spec.name} is a one-player game")
    options = json.loads(args.options)
    names = args.bots or list(spec.bot_classes)
    seats = len(spec.make_aec(**options).possible_agents)
    pairs = (
        list(itertools.combinations(names, 2))
        if seats == 2
        else list(itertools.permutations(names, 2))
    )
    for name in [*names, *(args.against or [])]:
        if name not in spec.bot_classes:
            parser.error(
                f"unknown bot {name!r} for {spec.name}: expected one of {list(spec.bot_classes)}"
            )
    if args.against:
        pairs = [(a, b) for a, b in pairs if b in args.against]
    chunk = -(-args.deals // max(1, args.processes))
    jobs = [
        (spec.name, a, b, options, args.seed + start, min(chunk, args.deals - start))
        for a, b in pairs
        for start in range(0, args.deals, chunk)
    ]
    started = time.perf_counter()
    parts: dict[tuple[str, str], list[DuplicateDeals]] = {pair: [] for pair in pairs}
    with ProcessPoolExecutor(args.processes) as pool:
        for agent, opponent, deals in pool.map(run, jobs):
            parts[agent, opponent].append(deals)
    seconds = time.perf_counter() - started
    unit = spec.scoring.unit
    print(
        f"{spec.title}, options {json.dumps(options)}: {args.deals} duplicate deals per pair "
        f"(seeds {args.seed}..), {seats} seats; {seconds:.0f} s on {args.processes} processes, "
        f"{os.cpu_count()} cores, Python {platform.python_version()}\n"
    )
    print(
        f"| bot | against | games | its {unit}s per game | theirs | margin | "
        "its win rate |\n|---|---|---:|---:|---:|---:|---:|"
    )
    for (agent, opponent), chunks in parts.items():
        result = DuplicateDeals.concatenate(chunks).summary(opponent)
        print(
            f"| {agent} | {opponent} | {result.games} | {result.agent_mean.format(3)} | "
            f"{result.bot_mean.format(3)} | {result.margin.format(3)} | "
            f"{result.win.format(percent=True)} |"
        )


if __name__ == "__main__":
    main()
