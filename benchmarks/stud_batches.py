"""Five-card stud's equity bot and ``"equity"`` features, one decision at a time against batches.

    python benchmarks/stud_batches.py [--option-set high-low] [--episodes 6] [--repeats 5]
                                      [--sizes 8,32]

The vector env (:mod:`pokerzoo.envs.core.seat_vector`) asks every bot that must act at the same
moment in one :func:`~pokerzoo.envs.core.bots.act_batch` call, and the learner's features are
worked out for the whole batch of observations at once. This prints what that is worth for
:class:`~pokerzoo.agents.five_card_stud.EquityBot` and for the ``"equity"`` feature set
(:mod:`pokerzoo.training.games.five_card_stud.hooks`):

- the bot's ms per decision: the code before batching (the reference copy the tests keep),
  every bot deciding alone (``bot.act``) and ``B`` bots (each its own instance and seed, each on
  its own game) deciding together (``EquityBot.act_batch``);
- the features' ms per observation, cold (every set of visible cards new to the cache: the
  Monte-Carlo runs) and warm (all cached): the code before batching one observation at a time,
  and the feature set on one observation and on batches of ``B``.

Every time is the best of ``--repeats`` runs. The decisions are those of real games under one
of the game's option sets (seeds 0..episodes-1, every seat played by the caller bot, so every
street is reached). Run it from the repository root: the old code is imported from the tests.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
from pokerzoo.agents.five_card_stud import EquityBot
from pokerzoo.envs.five_card_stud.spec import SPEC
from pokerzoo.training.games.five_card_stud import hooks
from pokerzoo.training.poker.features import FeatureCache

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the tests' reference copies
from tests.five_card_stud.test_batches import ReferenceEquityBot  # noqa: E402
from tests.helpers import bot_decisions  # noqa: E402
from tests.training.games.five_card_stud.test_batches import reference_features  # noqa: E402


def best_of(repeats: int, run: Callable[[], object], setup: Callable[[], object] = int) -> float:
    """The fastest of ``repeats`` runs of ``run`` (each after an untimed ``setup()``), seconds."""
    times = []
    for _ in range(repeats):
        setup()
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def bot_ms(kind: type, obs: np.ndarray, masks: np.ndarray, size: int, repeats: int) -> float:
    """ms per decision of ``size`` bots of class ``kind``, bot ``j`` on the decisions from
    ``j * len(obs) // size`` on: each bot alone (``size`` 1) or all in one ``act_batch`` call per
    step."""
    count = len(obs)
    rows = (np.arange(count)[:, None] + (count // size) * np.arange(size)[None, :]) % count
    steps = max(1, 64 // size)  # about 64 decisions a run

    def run() -> None:
        bots = [kind(seed=j) for j in range(size)]
        for step in rows[:steps]:
            if size == 1:
                bots[0].act(obs[step[0]], masks[step[0]])
            else:
                kind.act_batch(bots, obs[step], masks[step])

    return best_of(repeats, run) / (steps * size) * 1e3


def feature_ms(
    features: Callable[[np.ndarray], object],
    obs: np.ndarray,
    size: int,
    repeats: int,
    empty: Callable[[], None] | None,
) -> float:
    """ms per observation of ``features`` on batches of ``size`` rows (``size`` 1: one ``(D,)``
    observation a call): cold, ``empty()`` emptying the caches before each run, or (``None``)
    warm, every observation cached by a first, untimed run."""

    def run() -> None:
        for start in range(0, len(obs), size):
            features(obs[start] if size == 1 else obs[start : start + size])

    if empty is None:
        run()
    return best_of(repeats, run, empty or int) / len(obs) * 1e3


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--option-set", default="high-low", choices=sorted(SPEC.option_sets))
    parser.add_argument("--episodes", type=int, default=6)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--sizes", default="8,32")
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",")]
    options = SPEC.option_sets[args.option_set]
    obs, masks = bot_decisions("five_card_stud", "caller", args.episodes, **options)
    print(f"five-card stud, {args.option_set!r} {options}: {len(obs)} decisions")
    print()
    print("| equity bot (300 samples) | ms / decision |")
    print("|---|---|")
    old = bot_ms(ReferenceEquityBot, obs, masks, 1, args.repeats)
    print(f"| before batching, alone | {old:.3f} |")
    print(f"| act, alone | {bot_ms(EquityBot, obs, masks, 1, args.repeats):.3f} |")
    for size in sizes:
        ms = bot_ms(EquityBot, obs, masks, size, args.repeats)
        print(f"| act_batch, {size} bots | {ms:.3f} |")
    print()
    print("| equity features | ms / obs, cold | ms / obs, warm |")
    print("|---|---|---|")
    old_cache = [FeatureCache()]  # the cache the code before batching kept

    def old_features(observation: np.ndarray) -> np.ndarray:
        return reference_features(observation, old_cache[0])

    def empty() -> None:
        old_cache[0] = FeatureCache()
        hooks._CACHE = FeatureCache()

    rows = [("before batching, one at a time", old_features, 1)]
    rows += [("feature set, one observation", hooks.EQUITY, 1)]
    rows += [(f"feature set, batches of {size}", hooks.EQUITY, size) for size in sizes]
    for label, features, size in rows:
        cold = feature_ms(features, obs, size, args.repeats, empty)
        warm = feature_ms(features, obs, size, args.repeats, None)
        print(f"| {label} | {cold:.3f} | {warm:.3f} |")


if __name__ == "__main__":
    main()
