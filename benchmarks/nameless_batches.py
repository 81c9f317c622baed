"""Poker without a name's batched Monte-Carlo work: the montecarlo bot's decisions and the
``"reach"`` features, one at a time against batches (the vector envs ask every bot that must act
at one moment in one call, and the learner's features come a batch at a time).

    python benchmarks/nameless_batches.py [--games 1] [--repeats 5] [--seed 0]

The positions are every decision with a choice (two legal actions or more) of ``--games``
30-deal games of four rules bots. Rows:

- ``montecarlo, one by one``: ``MonteCarloBot.act`` per decision;
- ``montecarlo, batch of B``: B bots (seeded apart) through ``act_batch``, B decisions a call;
- ``reach, one by one``: ``reach_features`` of one observation at a time;
- ``reach, batch of B``: ``reach_features`` of B observations at a time.

Milliseconds per decision (per observation), the best of ``--repeats`` runs, the rows taking
turns (the machine is shared and noisy). A batch decides and measures exactly as one by one
(tests/nameless_poker/test_batches.py, tests/training/games/nameless_poker/test_batches.py):
the same deals drawn, the play-outs played together on arrays (by numba's compiled loop, any
batch, where numba is installed; by numpy's steps once they are many enough to pay without it:
``POKERZOO_NUMBA=0`` times that path).

Measured without numba (``--repeats 7``, 528 decisions, 2-core machine shared with other
work), ms each: montecarlo 1.082 one by one, 1.026 in batches of 8, 0.847 of 32 (the bot
before batches: 1.03 one by one); reach 1.918 one by one, 1.648 in batches of 8, 1.323 of 32.
With numba's
compiled loops (``--repeats 3`` at ``454f944``, beside ``POKERZOO_NUMBA=0``'s run): montecarlo
0.487 one by one and 0.352 in batches of 32 (1.161 and 0.817 without); reach 1.253 and 0.752
(2.209 and 1.308). With the sampler's draws and the deal counts compiled too, and a view's
sampled deals made arrays without a World object each (at ``48ad3a5``): montecarlo 0.393 and
0.256 (1.182 and 0.832 without); reach 1.183 and 0.599 (2.227 and 1.310).
"""

from __future__ import annotations

import argparse
import os
import platform
import time
from collections.abc import Callable

import numpy as np
from pokerzoo.agents.nameless_poker import MonteCarloBot, RulesBot
from pokerzoo.envs import nameless_poker_v0
from pokerzoo.envs.core.bots import act_batch
from pokerzoo.training.games.nameless_poker.reach import reach_features

BATCHES = (8, 32)
"""The batch sizes timed."""


def decisions(games: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """The observations and masks of every decision with a choice of ``games`` games of four
    rules bots (seeds ``seed``, ``seed + 1``, ...)."""
    seen, masks = [], []
    bot = RulesBot()
    for game in range(games):
        env = nameless_poker_v0.env()
        env.reset(seed=seed + game)
        while env.agents:
            observation, _, done, cut, _ = env.last()
            if done or cut:
                env.step(None)
                continue
            if observation["action_mask"].sum() > 1:
                seen.append(observation["observation"])
                masks.append(observation["action_mask"])
            env.step(bot.act(observation["observation"], observation["action_mask"]))
    return np.stack(seen), np.stack(masks)


Timed = tuple[str, Callable[[], None], int]
"""A row: its name, the run timed and how many decisions (observations) a run makes."""


def best_ms(rows: list[Timed], repeats: int) -> list[tuple[str, float]]:
    """Per row, milliseconds per item, the best of ``repeats`` runs; the rows take turns
    (round after round) so that a slow spell of the shared machine hits them alike."""
    best = [float("inf")] * len(rows)
    for _ in range(repeats):
        for i, (_, run, _) in enumerate(rows):
            start = time.perf_counter()
            run()
            best[i] = min(best[i], time.perf_counter() - start)
    timed = zip(rows, best, strict=True)
    return [(name, seconds * 1e3 / count) for (name, _, count), seconds in timed]


def bot_rows(observations: np.ndarray, masks: np.ndarray) -> list[Timed]:
    """The montecarlo bot, one by one and in batches."""

    def alone() -> None:
        bot = MonteCarloBot(seed=0)
        for observation, mask in zip(observations, masks, strict=True):
            bot.act(observation, mask)

    rows: list[Timed] = [("montecarlo, one by one", alone, len(observations))]
    for size in BATCHES:
        count = len(observations) // size * size

        def batched(size: int = size, count: int = count) -> None:
            bots = [MonteCarloBot(seed=s) for s in range(size)]
            for start in range(0, count, size):
                act_batch(bots, observations[start : start + size], masks[start : start + size])

        rows.append((f"montecarlo, batch of {size}", batched, count))
    return rows


def feature_rows(observations: np.ndarray) -> list[Timed]:
    """The ``"reach"`` features, one by one and in batches."""

    def alone() -> None:
        for observation in observations:
            reach_features(observation)

    rows: list[Timed] = [("reach, one by one", alone, len(observations))]
    for size in BATCHES:
        count = len(observations) // size * size

        def batched(size: int = size, count: int = count) -> None:
            for start in range(0, count, size):
                reach_features(observations[start : start + size])

        rows.append((f"reach, batch of {size}", batched, count))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    observations, masks = decisions(args.games, args.seed)
    print(
        f"{len(observations)} decisions with a choice, {args.games} game(s); best of "
        f"{args.repeats}; {platform.processor() or platform.machine()}, {os.cpu_count()} cores"
    )
    rows = best_ms(bot_rows(observations, masks) + feature_rows(observations), args.repeats)
    single = {name.split(",")[0]: ms for name, ms in rows if name.endswith("one by one")}
    print(f"{'':28} {'ms each':>8} {'speed-up':>9}")
    for name, ms in rows:
        print(f"{name:28} {ms:8.3f} {single[name.split(',')[0]] / ms:8.2f}x")


if __name__ == "__main__":
    main()
