"""Train the Poker Squares line-pattern value agent, then evaluate it greedy and with look-ahead.

A stand-in for ``pokerzoo train poker_squares --config configs/poker_squares_td.yaml`` until the
learner is wired into the CLI: trains :mod:`pokerzoo.training.games.poker_squares_td` for
``--minutes`` (the table saved to ``--out``, the learning curve next to it as ``.csv``: games
played, mean score of that batch's training games), then plays the evaluation deals (seeds
1,000,000 onwards, as ``pokerzoo evaluate``) without and with the one-card look-ahead and prints
mean, 95% CI and time per game.

Run: ``python benchmarks/poker_squares_td.py --minutes 15 --games 2000 --out runs/ps_td.npz``;
``--load PATH`` skips training and evaluates a saved table.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
from pokerzoo.envs.core.registry import get_game
from pokerzoo.training.evaluate import play_policy_single
from pokerzoo.training.games import poker_squares_td as td

EVAL_SEED = 1_000_000


def evaluate(values: td.LineValues, games: int, lookahead: bool) -> tuple[np.ndarray, float]:
    """Scores on the first ``games`` evaluation deals and the seconds they took."""
    spec = get_game("poker_squares")
    seeds = list(range(EVAL_SEED, EVAL_SEED + games))
    start = time.perf_counter()
    scores = play_policy_single(
        spec, td.make_policy(values, lookahead), {"scoring": values.scoring}, seeds, 256
    )
    return scores, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=15.0, help="training time")
    parser.add_argument("--games", type=int, default=2000, help="evaluation deals (greedy)")
    parser.add_argument("--lookahead-games", type=int, default=None, help="default: --games")
    parser.add_argument("--scoring", default="american", help="american or english")
    parser.add_argument("--seed", type=int, default=0, help="training seed")
    parser.add_argument("--batch", type=int, default=2048, help="games played per update")
    parser.add_argument("--epsilon", type=float, default=0.0, help="random-cell rate in training")
    parser.add_argument("--decay", type=float, default=0.9, help="forgetting per batch")
    parser.add_argument("--out", type=Path, default=Path("runs/poker_squares_td.npz"))
    parser.add_argument("--load", type=Path, default=None, help="evaluate a saved table")
    args = parser.parse_args()

    if args.load is not None:
        values = td.LineValues.load(args.load)
    else:
        values = td.LineValues(scoring=args.scoring, decay=args.decay)
        stats = td.train(
            values, 60 * args.minutes, seed=args.seed, batch=args.batch, epsilon=args.epsilon
        )
        args.out.parent.mkdir(parents=True, exist_ok=True)
        values.save(args.out)
        curve = args.out.with_suffix(".csv")
        curve.write_text(
            "games,mean\n" + "".join(f"{g},{m:.3f}\n" for g, m in stats.curve), encoding="utf-8"
        )
        print(f"trained {stats.games:,} games in {stats.seconds / 60:.1f} min -> {args.out}")
    for lookahead, games in ((False, args.games), (True, args.lookahead_games or args.games)):
        scores, seconds = evaluate(values, games, lookahead)
        half = 1.96 * scores.std(ddof=1) / np.sqrt(len(scores))
        name = "look-ahead" if lookahead else "greedy"
        print(
            f"{name:>10}: {scores.mean():.2f} ± {half:.2f} on {games} deals, "
            f"{1000 * seconds / games:.1f} ms/game"
        )


if __name__ == "__main__":
    main()
