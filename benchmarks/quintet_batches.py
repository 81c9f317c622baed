"""Quintet's bots and pack features, one decision at a time against batches.

    python benchmarks/quintet_batches.py [--episodes 8] [--repeats 5] [--sizes 8,32]

The vector env (:mod:`pokerzoo.envs.core.seat_vector`) asks every bot that must act at the same
moment in one :func:`~pokerzoo.envs.core.bots.act_batch` call, and the learner's features are
worked out for the whole batch of observations at once. This prints what that is worth for the
planning bots of :mod:`pokerzoo.agents.quintet` and for the ``"packs"`` formulation's
observations (:mod:`pokerzoo.training.games.quintet.packs`):

- each bot's ms per decision, every bot deciding alone (``bot.act``) and ``B`` bots (each its
  own instance and seed, bot ``j`` on the games from game ``j`` on, wrapping round) deciding
  together (``act_batch``);
- ms per observation of the formulation's ``"candidates"`` feature set (the observation as it
  is) and of the draft encoding behind it
  (:func:`~pokerzoo.training.games.quintet.packs.encode_draft` one draft at a time,
  :func:`~pokerzoo.training.games.quintet.packs.encode_drafts` ``B`` at a time), and of the
  card-level ``"packs"`` and ``"plans"`` feature sets
  (:mod:`~pokerzoo.training.games.quintet.hooks`; the plans' searches cached per deal, as in
  training, so this is the rest of their work).

Every time is the best of ``--repeats`` runs. The decisions are those of real games (seeds
0..episodes-1, both seats played by the random bot), the drafts those of rows laid out with the
strongest candidate each time. Run it from the repository root: the decisions are the tests'
(:func:`tests.helpers.bot_decisions`).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
from pokerzoo.agents.quintet import BOTS
from pokerzoo.envs.core.bots import act_batch
from pokerzoo.training.games.quintet.hooks import HOOKS
from pokerzoo.training.games.quintet.packs import (
    PackFormulation,
    RowDraft,
    encode_draft,
    encode_drafts,
)

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the tests' decisions
from tests.helpers import bot_decisions  # noqa: E402

PLANNING = ("greedy", "sacrifice", "mixed", "best_response")
_DEALT = slice(0, 32)


def best_of(repeats: int, run: Callable[[], object]) -> float:
    """The fastest of ``repeats`` runs of ``run``, in seconds."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def bot_ms(name: str, obs: np.ndarray, masks: np.ndarray, size: int, repeats: int) -> float:
    """ms per decision of ``size`` bots ``name``, bot ``j`` on the games from game ``j`` on:
    each bot alone (``size`` 1) or all in one ``act_batch`` call per step."""
    count = len(obs)
    rows = (np.arange(count)[:, None] + 50 * np.arange(size)[None, :]) % count  # (steps, bots)

    def run() -> None:
        bots = [BOTS[name](seed=j) for j in range(size)]
        if size == 1:
            bot = bots[0]
            for o, m in zip(obs, masks, strict=True):
                bot.act(o, m)
            return
        for step in rows:
            act_batch(bots, obs[step], masks[step])

    return 1000 * best_of(repeats, run) / (count * size)


def drafts(obs: np.ndarray) -> list[RowDraft]:
    """The drafts of one row per deal of ``obs``, at every decision (strongest candidates)."""
    found = []
    for first in range(0, len(obs), 50):
        draft = RowDraft(np.flatnonzero(obs[first, _DEALT]) + 20, 16)
        while True:
            found.append(_copy(draft))
            if draft.complete:
                break
            draft.commit(0)
    return found


def _copy(draft: RowDraft) -> RowDraft:
    copy = object.__new__(RowDraft)
    copy.__dict__.update({k: list(v) if isinstance(v, list) else v for k, v in vars(draft).items()})
    return copy


def feature_ms(found: Sequence[RowDraft], size: int, repeats: int) -> tuple[float, float]:
    """ms per observation of the draft encoding and of the ``"candidates"`` features, one
    observation at a time (``size`` 1) or ``size`` at a time."""
    features = PackFormulation().features["candidates"]
    batches = [found[i : i + size] for i in range(0, len(found), size)]
    if size == 1:
        encode = best_of(repeats, lambda: [encode_draft(d) for d in found])
        encoded = [encode_draft(d) for d in found]
        feature = best_of(repeats, lambda: [features(o) for o in encoded])
    else:
        encode = best_of(repeats, lambda: [encode_drafts(b) for b in batches])
        encoded = [encode_drafts(b) for b in batches]
        feature = best_of(repeats, lambda: [features(o) for o in encoded])
    return 1000 * encode / len(found), 1000 * feature / len(found)


def card_feature_ms(name: str, obs: np.ndarray, size: int, repeats: int) -> float:
    """ms per observation of the card-level feature set ``name``, ``size`` rows a call."""
    features = HOOKS.features[name]
    if size == 1:
        return 1000 * best_of(repeats, lambda: [features(o) for o in obs]) / len(obs)
    batches = [obs[i : i + size] for i in range(0, len(obs), size)]
    return 1000 * best_of(repeats, lambda: [features(b) for b in batches]) / len(obs)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=8, help="games of decisions")
    parser.add_argument("--repeats", type=int, default=5, help="runs timed, the best kept")
    parser.add_argument("--sizes", default="8,32", help="batch sizes, comma-separated")
    ns = parser.parse_args(argv)
    sizes = [int(s) for s in ns.sizes.split(",") if s.strip()]
    obs, masks = bot_decisions("quintet", "random", ns.episodes)
    for name in PLANNING:  # warm the caches (order equilibria, pack tables)
        bot_ms(name, obs, masks, 1, 1)
    header = f"{'ms per decision':<28}{'single':>10}" + "".join(
        f"{'B=' + str(s):>10}" for s in sizes
    )
    print(header)
    print("-" * len(header))
    for name in PLANNING:
        times = [bot_ms(name, obs, masks, size, ns.repeats) for size in [1, *sizes]]
        print(f"{'bot ' + name:<28}" + "".join(f"{t:>10.4f}" for t in times))
    found = drafts(obs)
    feature_ms(found, 1, 1)
    columns = [feature_ms(found, size, ns.repeats) for size in [1, *sizes]]
    print(f"{'packs obs (encode_draft)':<28}" + "".join(f"{e:>10.4f}" for e, _ in columns))
    print(f"{'features candidates':<28}" + "".join(f"{f:>10.4f}" for _, f in columns))
    for name in ("packs", "plans"):
        card_feature_ms(name, obs, 1, 1)  # the plans' searches, once per deal
        times = [card_feature_ms(name, obs, size, ns.repeats) for size in [1, *sizes]]
        print(f"{'features ' + name:<28}" + "".join(f"{t:>10.4f}" for t in times))
    print(f"({len(obs)} decisions, {len(found)} drafts; best of {ns.repeats})")


if __name__ == "__main__":
    main()
