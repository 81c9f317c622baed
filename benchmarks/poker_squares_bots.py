"""Mean score of each Poker Squares bot, American and English scoring, as a markdown table.

Each bot plays ``--games`` games (default 10,000; game ``i`` is ``reset(seed=seed + i)``, the
bot re-seeded with the same number) in the single env. The table gives the mean score with a
95% confidence interval (1.96 standard errors), the share of games reaching the RULES §3 win
threshold (100 American / 70 English) and the time per game.

The random bot doubles as a check on the env: every line of a random grid is a uniformly random
5-card hand, so its expected score is ten times the mean points of one hand, computed exactly
here from all C(52,5) = 2,598,960 hands with :func:`pokerzoo.envs.hands.categories`
(14.415 American, 7.676 English). The z-score of the measured mean against it should be small.

Run: ``python benchmarks/poker_squares_bots.py [--games N] [--bots random,greedy,search]``.
The default run takes about 15 minutes on one core, almost all of it the search bot
(30-45 ms per game, greedy ~6 ms, random ~0.3 ms); ``--games 1000`` takes about 1.5.
"""

from __future__ import annotations

import argparse
import math
import time
from itertools import combinations

import numpy as np
from pokerzoo.agents.poker_squares import BOTS
from pokerzoo.envs.core.hands import categories
from pokerzoo.envs.poker_squares import HAND_CATEGORIES, SCORING_TABLES, PokerSquaresEnv

WIN_THRESHOLD = {"american": 100, "english": 70}


def exact_random_expectation(scoring: str) -> float:
    """Ten times the mean points of one uniformly random 5-card hand, over all C(52,5) hands."""
    hands = np.fromiter(
        (c for hand in combinations(range(52), 5) for c in hand), dtype=np.int8
    ).reshape(-1, 5)
    cats = categories(hands)
    by_category = np.zeros(int(cats.max()) + 1, dtype=np.int64)
    for name, points in SCORING_TABLES[scoring].items():
        cat = int(HAND_CATEGORIES[name])
        if cat < len(by_category):
            by_category[cat] = points
    counts = np.bincount(cats, minlength=len(by_category))
    return 10 * float(counts @ by_category) / len(hands)


def play(bot_name: str, scoring: str, games: int, seed: int) -> tuple[np.ndarray, float]:
    """Scores of ``games`` games and the seconds they took."""
    env = PokerSquaresEnv(scoring=scoring)
    bot = BOTS[bot_name](seed=seed, scoring=scoring)
    scores = np.empty(games, dtype=np.int64)
    start = time.perf_counter()
    for i in range(games):
        obs, info = env.reset(seed=seed + i)
        bot.reset(seed + i)
        terminated = False
        while not terminated:
            obs, _, terminated, _, info = env.step(bot.act(obs, info["action_mask"]))
        scores[i] = info["score"]
    return scores, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000, help="games per bot and scoring")
    parser.add_argument("--bots", default=",".join(BOTS), help="comma-separated bot names")
    parser.add_argument("--scoring", default="american,english", help="comma-separated tables")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game")
    args = parser.parse_args()
    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    for name in bots:
        if name not in BOTS:
            parser.error(f"unknown bot {name!r}: expected some of {', '.join(BOTS)}")
    scorings = [s.strip() for s in args.scoring.split(",") if s.strip()]
    for scoring in scorings:
        if scoring not in SCORING_TABLES:
            parser.error(f"unknown scoring {scoring!r}: expected american or english")

    print(f"Poker Squares bots, deal variant, {args.games} games each (seeds {args.seed}..)\n")
    print("| bot | scoring | mean score | 95% CI | win rate | ms/game |")
    print("|---|---|---:|---:|---:|---:|")
    checks = []
    for scoring in scorings:
        for name in bots:
            scores, seconds = play(name, scoring, args.games, args.seed)
            mean = scores.mean()
            se = scores.std(ddof=1) / math.sqrt(len(scores)) if len(scores) > 1 else float("nan")
            wins = (scores >= WIN_THRESHOLD[scoring]).mean()
            print(
                f"| {name} | {scoring} | {mean:.2f} | ± {1.96 * se:.2f} | {100 * wins:.1f}% "
                f"| {1000 * seconds / args.games:.2f} |",
                flush=True,
            )
            if name == "random":
                checks.append((scoring, mean, se))
    if checks:
        print("\nRandom bot against the exact expectation (10 x mean points of a random hand):\n")
        print("| scoring | exact | measured | z |")
        print("|---|---:|---:|---:|")
        for scoring, mean, se in checks:
            exact = exact_random_expectation(scoring)
            print(f"| {scoring} | {exact:.3f} | {mean:.3f} | {(mean - exact) / se:+.2f} |")


if __name__ == "__main__":
    main()
