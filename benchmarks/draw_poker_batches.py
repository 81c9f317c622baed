"""Draw poker's equity bot and ``"equity"`` features, one decision at a time against batches.

    python benchmarks/draw_poker_batches.py [--players 2] [--episodes 6] [--repeats 5]
                                            [--sizes 8,32] [--samples 600]

The vector env (:mod:`pokerzoo.envs.core.seat_vector`) asks every bot that must act at the same
moment in one :func:`~pokerzoo.envs.core.bots.act_batch` call, and the learner's features are
worked out for the whole batch of observations at once. This prints what that is worth for
:class:`~pokerzoo.agents.draw_poker.EquityBot` and for the ``"equity"`` feature set
(:mod:`pokerzoo.training.games.draw_poker.hooks`):

- the bot's ms per decision, the same decisions of the same bots (as many as the largest
  batch, each its own instance and seed, each on its own decisions from the games, in order) in
  every row: the code before batching (the reference copy the tests keep), every bot deciding
  alone (``bot.act``) and ``B`` bots deciding together (``EquityBot.act_batch``);
- the features' ms per observation, cold (every hand new to the cache: the Monte-Carlo runs)
  and warm (all cached): the code before batching one observation at a time, and the feature
  set on one observation and on batches of ``B``.

The decisions are those of real games of ``--players`` players (seeds 0..episodes-1, every seat
played by the rules bot, then by the caller, which never folds, so the draw and the betting
after it are reached). Every time is the best of ``--repeats`` runs, the rows of a table taking
turns (the machine is shared and noisy: a slow spell hits them alike). Run it from the
repository root: the old code is imported from the tests.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
from pokerzoo.agents import draw_poker as draw_poker_bots
from pokerzoo.agents.draw_poker import EquityBot
from pokerzoo.training.games.draw_poker import hooks
from pokerzoo.training.poker.features import FeatureCache

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the tests' reference copies
from tests.draw_poker.test_batches import ReferenceEquityBot  # noqa: E402
from tests.helpers import bot_decisions  # noqa: E402
from tests.training.games.draw_poker import test_batches as feature_tests  # noqa: E402

Timed = tuple[str, Callable[[], object], Callable[[], object], int]
"""A row: its name, the run timed, an untimed setup before each run, and how many decisions
(observations) a run makes."""


def best_ms(rows: Sequence[Timed], repeats: int) -> list[float]:
    """Per row, milliseconds per decision (observation), the best of ``repeats`` runs; the rows
    take turns, round after round."""
    best = [float("inf")] * len(rows)
    for _ in range(repeats):
        for i, (_, run, setup, _) in enumerate(rows):
            setup()
            start = time.perf_counter()
            run()
            best[i] = min(best[i], time.perf_counter() - start)
    return [seconds * 1e3 / count for (_, _, _, count), seconds in zip(rows, best, strict=True)]


def bot_row(
    label: str, kind: type, obs: np.ndarray, masks: np.ndarray, bots: int, size: int, samples: int
) -> Timed:
    """``bots`` fresh bots of class ``kind``, bot ``j`` on the decisions from
    ``j * len(obs) // bots`` on, a few steps: asked one by one (``size`` 1) or ``size`` at a
    time, one ``act_batch`` call each. Every row makes the same decisions with the same bots,
    the simulations each run: the bots' shared memo of simulations
    (:data:`pokerzoo.agents.draw_poker._SIMULATIONS`, which a duplicate evaluation reads back)
    is emptied before each run, or every run after the first would read its equities there."""
    count = len(obs)
    rows = (np.arange(count)[:, None] + (count // bots) * np.arange(bots)[None, :]) % count
    steps = max(1, min(count, 128 // bots))

    def run() -> None:
        players = [kind(seed=j, samples=samples) for j in range(bots)]
        for step in rows[:steps]:
            for start in range(0, bots, size):
                if size == 1:
                    players[start].act(obs[step[start]], masks[step[start]])
                else:
                    group = step[start : start + size]
                    kind.act_batch(players[start : start + size], obs[group], masks[group])

    return label, run, draw_poker_bots._SIMULATIONS.clear, steps * bots


def feature_row(
    label: str,
    features: Callable[[np.ndarray], object],
    obs: np.ndarray,
    size: int,
    empty: Callable[[], None] | None,
) -> Timed:
    """``features`` on batches of ``size`` rows (``size`` 1: one ``(D,)`` observation a call):
    cold, ``empty()`` emptying the caches before each run, or (``None``) warm."""

    def run() -> None:
        for start in range(0, len(obs), size):
            features(obs[start] if size == 1 else obs[start : start + size])

    return label, run, empty or int, len(obs)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--episodes", type=int, default=6)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--sizes", default="8,32")
    parser.add_argument("--samples", type=int, default=600)
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",")]
    games = [
        bot_decisions("draw_poker", bot, args.episodes, num_players=args.players)
        for bot in ("rules", "caller")
    ]
    obs = np.concatenate([g[0] for g in games])
    masks = np.concatenate([g[1] for g in games])
    print(f"draw poker, {args.players} players: {len(obs)} decisions; best of {args.repeats}")
    print()
    print(f"| equity bot ({args.samples} samples) | ms / decision |")
    print("|---|---|")
    many = max(sizes)
    bots = [
        bot_row("before batching, alone", ReferenceEquityBot, obs, masks, many, 1, args.samples)
    ]
    bots.append(bot_row("act, alone", EquityBot, obs, masks, many, 1, args.samples))
    for size in sizes:
        label = f"act_batch, {size} bots"
        bots.append(bot_row(label, EquityBot, obs, masks, many, size, args.samples))
    for (label, *_), ms in zip(bots, best_ms(bots, args.repeats), strict=True):
        print(f"| {label} | {ms:.3f} |")
    print()

    def empty() -> None:
        feature_tests._REFERENCE_CACHE = FeatureCache()
        hooks._CACHE = FeatureCache()

    rows = [("before batching, one at a time", feature_tests.reference_features, 1)]
    rows += [("feature set, one observation", hooks.EQUITY, 1)]
    rows += [(f"feature set, batches of {size}", hooks.EQUITY, size) for size in sizes]
    cold = best_ms(
        [feature_row(label, f, obs, size, empty) for label, f, size in rows], args.repeats
    )
    for _, features, size in rows:  # fill the caches for the warm runs
        feature_row("", features, obs, size, None)[1]()
    warm = best_ms(
        [feature_row(label, f, obs, size, None) for label, f, size in rows], args.repeats
    )
    print("| equity features | ms / obs, cold | ms / obs, warm |")
    print("|---|---|---|")
    for (label, _, _), c, w in zip(rows, cold, warm, strict=True):
        print(f"| {label} | {c:.3f} | {w:.3f} |")


if __name__ == "__main__":
    main()
