"""The policy's rollout step, sb3-contrib's against :mod:`pokerzoo.training.masked_sampling`.

    python benchmarks/rollout_step.py [--games quintet ...] [--steps 64] [--repeats 5]

While MaskablePPO collects a rollout, the main process runs the policy's ``forward`` on every
table's observation once a step, and the worker processes wait for its actions. For each
game's shipped default config this builds the training env in one process, plays ``--steps``
steps of random legal actions to gather real observations and masks, and times one
``forward`` of the whole batch (``n_envs`` rows) through sb3-contrib's
``MaskableActorCriticPolicy.forward`` and through the policy training uses
(:class:`~pokerzoo.training.masked_sampling.MaskablePolicy`, or Quintet's per-action policy
built on it), on the same weights, with the same generator state. ``same`` says whether every
action and value came out equal to the bit, and ``log-prob`` is the largest difference of a
log-probability: 0 for the MLP policy, whose arithmetic is sb3-contrib's; rounding for the
per-action policy, which scores the legal actions only where sb3-contrib's code scores every
action and masks them afterwards. Times are the best of ``--repeats`` passes over the gathered
batches, microseconds a step.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Sequence

import numpy as np
import torch
from pokerzoo.envs.core.registry import get_game
from pokerzoo.training.runs import resolve_config
from pokerzoo.training.train import _policy, make_training_env
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

DEFAULT_GAMES = ("draw_poker", "five_card_stud", "nameless_poker", "quintet", "poker_squares")


def batches(game: str, steps: int) -> tuple[MaskablePPO, list[tuple[torch.Tensor, np.ndarray]]]:
    """The model of ``game``'s default config (its policy untrained) and ``steps`` batches of
    the training env's observations (features applied) with their masks."""
    config = resolve_config(game, None).model_copy(update={"workers": 1})
    venv = make_training_env(config)
    policy, kwargs = _policy(config, get_game(game))
    model = MaskablePPO(policy, venv, policy_kwargs=kwargs, device="cpu", seed=0, n_steps=8)
    rng = np.random.default_rng(0)
    gathered = []
    obs = venv.reset()
    try:
        for _ in range(steps):
            masks = np.stack(venv.env_method("action_masks"))
            gathered.append((torch.as_tensor(obs), masks))
            obs = venv.step(np.array([rng.choice(np.flatnonzero(row)) for row in masks]))[0]
    finally:
        venv.close()
    return model, gathered


def best_us(repeats: int, run: Callable[[], object], calls: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times) / calls * 1e6


def row(game: str, steps: int, repeats: int) -> str:
    """The table row of ``game``: both forward passes timed on ``steps`` batches."""
    model, gathered = batches(game, steps)
    policy = model.policy

    def theirs() -> list[tuple[torch.Tensor, ...]]:
        return [MaskableActorCriticPolicy.forward(policy, o, action_masks=m) for o, m in gathered]

    def ours() -> list[tuple[torch.Tensor, ...]]:
        return [policy(o, action_masks=m) for o, m in gathered]

    with torch.no_grad():
        torch.manual_seed(0)
        expected = theirs()
        torch.manual_seed(0)
        got = ours()
        same = all(
            torch.equal(x[0], y[0]) and torch.equal(x[1], y[1])
            for x, y in zip(got, expected, strict=True)
        )
        log_prob = max(float((x[2] - y[2]).abs().max()) for x, y in zip(got, expected, strict=True))
        slow = best_us(repeats, theirs, len(gathered))
        fast = best_us(repeats, ours, len(gathered))
    obs = gathered[0][0]
    return (
        f"| {game} | {type(policy).__name__} | {obs.shape[0]} | {obs.shape[1]} | {slow:,.0f} "
        f"| {fast:,.0f} | {slow / fast:.2f} | {'yes' if same else 'NO'} | {log_prob:.1e} |"
    )


def arguments(argv: Sequence[str] | None, description: str) -> argparse.Namespace:
    """``--games``, ``--steps`` and ``--repeats`` of a benchmark of the training batches
    (this one's and ``benchmarks/snapshot_forward.py``'s); torch set to one thread."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--games", nargs="+", default=list(DEFAULT_GAMES))
    parser.add_argument("--steps", type=int, default=64)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args(argv)
    torch.set_num_threads(1)
    return args


def main(argv: Sequence[str] | None = None) -> None:
    args = arguments(argv, __doc__.split("\n")[0])
    print(
        "| game | policy | tables | observation | sb3-contrib µs | ours µs | ratio | same "
        "| log-prob |"
    )
    print("|---|---|---:|---:|---:|---:|---:|---|---:|")
    for game in args.games:
        print(row(game, args.steps, args.repeats))


if __name__ == "__main__":
    main()
