"""A snapshot opponent's decision, torch's lean pass against :mod:`pokerzoo.training.numpy_actor`.

    python benchmarks/snapshot_forward.py [--games quintet ...] [--steps 64] [--repeats 5]

A past snapshot of the learner seated at the training tables, and a trained agent in
``pokerzoo evaluate``, plays its policy's most probable legal action, a few rows at a time: a
snapshot decides for the tables where it sits and it is its turn. For each game's shipped
default config this gathers the training env's observations and masks as
``benchmarks/rollout_step.py`` does (random legal actions, one process, the policy untrained),
then times the most probable action of the first ``rows`` tables of every gathered step through
torch (:meth:`~pokerzoo.training.masked_sampling.MaskablePolicy.most_probable`) and through
:class:`~pokerzoo.training.numpy_actor.NumpyActor`, on the same weights: the best of
``--repeats`` passes, microseconds a call. ``same`` says whether every action came out equal.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from pokerzoo.training.numpy_actor import NumpyActor

sys.path.insert(0, str(Path(__file__).resolve().parent))
from rollout_step import arguments, batches, best_us  # noqa: E402  (the same batches, timing)

ROWS = (1, 4, 16)


def rows_of(game: str, steps: int, repeats: int) -> list[str]:
    """The table rows of ``game``: one per batch size of :data:`ROWS`."""
    model, gathered = batches(game, steps)
    policy = model.policy
    actor = NumpyActor.of(policy)
    if actor is None:
        return [f"| {game} | {type(policy).__name__} | | | | | not mirrored | |"]
    lines = []
    for rows in ROWS:
        cut = [(o[:rows].numpy(), m[:rows]) for o, m in gathered]

        def torchs(cut: list = cut) -> list[np.ndarray]:
            return [policy.most_probable(o, m) for o, m in cut]

        def numpys(cut: list = cut) -> list[np.ndarray]:
            return [actor(o, m) for o, m in cut]

        same = all(np.array_equal(a, b) for a, b in zip(torchs(), numpys(), strict=True))
        slow = best_us(repeats, torchs, len(cut))
        fast = best_us(repeats, numpys, len(cut))
        lines.append(
            f"| {game} | {type(policy).__name__} | {cut[0][0].shape[1]} | {rows} | {slow:,.0f} "
            f"| {fast:,.0f} | {slow / fast:.1f} | {'yes' if same else 'NO'} |"
        )
    return lines


def main(argv: Sequence[str] | None = None) -> None:
    args = arguments(argv, __doc__.split("\n")[0])
    print("| game | policy | observation | rows | torch µs | numpy µs | ratio | same |")
    print("|---|---|---:|---:|---:|---:|---:|---|")
    for game in args.games:
        for line in rows_of(game, args.steps, args.repeats):
            print(line)


if __name__ == "__main__":
    main()
