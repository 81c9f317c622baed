"""Where a Poker without a name player gains or loses points at a bot table, by kind of deal.

    python benchmarks/nameless_deals.py PLAYER [--against montecarlo] [--deals 50]
                                               [--processes 2] [--seed 1000000]

``PLAYER`` is a run folder or model ``.zip`` (the trained agent, with its run's features),
``rule:NAME`` (the hand-written rule ``NAME`` over its feature set, at its default thresholds)
or a bot's name. It takes one seat and bot ``--against`` the other three; each 30-deal game is
played once per seat of the player with the same cards and bot seeds, as ``pokerzoo evaluate``
plays it (the same deals for the same ``--seed``), so the margins below add up to the
evaluation's. Per kind of deal (regular 1-18, dark 19-22, minimum 23-26, maximum 27-30) the
table gives the player's margin over the bots' mean in points per game (95% intervals over
duplicate deals), the tricks a deal it and the bots take, and, where bids are made, the mean
bid and how often a bid is made exactly, overshot or missed. One torch thread per worker process.
"""

from __future__ import annotations

import argparse
import os
import platform
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
from pokerzoo.envs.core.registry import get_game
from pokerzoo.envs.nameless_poker.deals import DEAL_KINDS

GAME = "nameless_poker"
Policy = Callable[[np.ndarray, np.ndarray], int]


def make_player(player: str) -> Policy:
    """``player`` (module doc) as a function of one observation and mask."""
    spec = get_game(GAME)
    if player.startswith("rule:"):
        from pokerzoo.training.hooks import feature_set, hooks_for

        rules = hooks_for(spec).rules
        name = player.removeprefix("rule:")
        if name not in rules:
            raise SystemExit(f"unknown rule {name!r}: expected one of {sorted(rules)}")
        batched = rules[name].policy(feature_set(spec, rules[name].features))
    elif player in spec.bot_classes:
        bot = spec.make_bot(player, seed=0)
        return lambda observation, mask: int(bot.act(observation, mask))
    elif Path(player).exists():
        import torch
        from pokerzoo.training.hooks import agent_policy
        from pokerzoo.training.opponents import load_model
        from pokerzoo.training.runs import find_run

        torch.set_num_threads(1)
        run = find_run(player, None)
        batched = agent_policy(spec, load_model(run.model_path), run.features, run.actions)
    else:
        raise SystemExit(f"{player!r} is not a run, a model, rule:NAME or a bot")
    return lambda observation, mask: int(batched(observation[None], mask[None].astype(bool))[0])


def play(job: tuple[str, str, int, int]) -> list[dict[str, Any]]:
    """Deals ``seed .. seed + deals - 1``, the player in every seat: one row per deal played."""
    player, against, seed, deals = job
    spec = get_game(GAME)
    options = dict(spec.scoring.eval_options)
    act = make_player(player)
    rows = []
    for deal_seed in range(seed, seed + deals):
        env = spec.make_aec(**options)
        seats = list(env.possible_agents)
        for seat in seats:
            env.reset(seed=deal_seed)
            others = [agent for agent in seats if agent != seat]
            bots = {
                agent: spec.make_bot(against, seed=deal_seed + 7919 * k, **options)
                for k, agent in enumerate(others)
            }
            for agent in env.agent_iter():
                if env.terminations[agent] or env.truncations[agent]:
                    env.step(None)
                    continue
                seen = env.observe(agent)
                chooser = act if agent == seat else bots[agent].act
                env.step(chooser(seen["observation"], seen["action_mask"]))
            me = seats.index(seat)
            for result in env.unwrapped.game_state.results:
                rows.append({**result, "seed": deal_seed, "seat": me})
    return rows


def summary(rows: list[dict[str, Any]]) -> list[str]:
    """The table's lines (module doc)."""
    seeds = sorted({row["seed"] for row in rows})
    index = {seed: i for i, seed in enumerate(seeds)}
    lines = [
        "| deals | margin per game | its tricks a deal | theirs | its mean bid | theirs | "
        "its bids made / over / missed | theirs |",
        "|---|---:|---:|---:|---:|---:|---|---|",
    ]
    for kind in (*DEAL_KINDS, "all"):
        chosen = [r for r in rows if kind in ("all", r["deal_kind"])]
        if not chosen:
            continue
        margin = np.zeros(len(seeds))  # per duplicate deal: the seats' mean game margin
        own_tricks, their_tricks, own_bids, their_bids = [], [], [], []
        own_bid_sizes, their_bid_sizes = [], []
        for r in chosen:
            me, scores, tricks = r["seat"], r["deal_scores"], r["tricks"]
            others = [s for s in range(len(scores)) if s != me]
            margin[index[r["seed"]]] += (scores[me] - np.mean([scores[s] for s in others])) / 4
            own_tricks.append(tricks[me])
            their_tricks += [tricks[s] for s in others]
            if r["bids"] is not None:
                own_bids.append(np.sign(tricks[me] - r["bids"][me]))
                their_bids += [np.sign(tricks[s] - r["bids"][s]) for s in others]
                own_bid_sizes.append(r["bids"][me])
                their_bid_sizes += [r["bids"][s] for s in others]
        half = 1.96 * margin.std(ddof=1) / np.sqrt(len(margin)) if len(margin) > 1 else 0.0
        lines.append(
            f"| {kind} | {margin.mean():+.1f} ± {half:.1f} | {np.mean(own_tricks):.2f} | "
            f"{np.mean(their_tricks):.2f} | {_mean(own_bid_sizes)} | {_mean(their_bid_sizes)} | "
            f"{_bid_rates(own_bids)} | {_bid_rates(their_bids)} |"
        )
    return lines


def _mean(values: list[int]) -> str:
    return f"{np.mean(values):.2f}" if values else "-"


def _bid_rates(signs: list[int]) -> str:
    if not signs:
        return "-"
    values = np.array(signs)
    return " / ".join(f"{np.mean(values == s):.0%}" for s in (0, 1, -1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("player", help="a run folder or model .zip, rule:NAME or a bot's name")
    parser.add_argument("--against", default="montecarlo", help="the other seats' bot")
    parser.add_argument("--deals", type=int, default=50, help="duplicate deals (x 4 seats)")
    parser.add_argument("--processes", type=int, default=2, help="worker processes")
    parser.add_argument("--seed", type=int, default=1_000_000, help="first deal's seed")
    args = parser.parse_args()
    spec = get_game(GAME)
    if args.against not in spec.bot_classes:
        parser.error(f"unknown bot {args.against!r}: expected one of {list(spec.bot_classes)}")
    if args.deals < 1 or args.processes < 1:
        parser.error("--deals and --processes must be at least 1")
    chunk = -(-args.deals // args.processes)
    jobs = [
        (args.player, args.against, args.seed + start, min(chunk, args.deals - start))
        for start in range(0, args.deals, chunk)
    ]
    started = time.perf_counter()
    with ProcessPoolExecutor(args.processes) as pool:
        rows = [row for part in pool.map(play, jobs) for row in part]
    seconds = time.perf_counter() - started
    print(
        f"{args.player} against 3 {args.against}: {args.deals} duplicate deals x 4 seats "
        f"(seeds {args.seed}..); {seconds:.0f} s on {args.processes} processes, "
        f"{os.cpu_count()} cores, Python {platform.python_version()}\n"
    )
    print("\n".join(summary(rows)))


if __name__ == "__main__":
    main()
