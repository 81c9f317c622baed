"""Train a pokerzoo agent with Ray RLlib's PPO (``pokerzoo train GAME --backend rllib``), read
top to bottom.

1. The backend's checks (:func:`~.settings.validate_for_rllib`; ``pokerzoo train`` runs the
   game's own first), torch's thread count in this process (the env runners and learners set
   theirs: :mod:`.env`, :mod:`.modules`).
2. The run folder gets what an SB3 run's gets: ``config.yaml`` (resolved, ``backend: rllib``),
   ``run.json`` (seed, package versions with Ray's, segments, each with the Ray nodes its env
   runners ran on, ``env_runner_nodes``, throughput), ``evaluations.csv``
   (the periodic evaluations, same columns), ``checkpoints/model_N_steps/`` (RLlib checkpoint
   folders every ``checkpoint_every`` learner decisions), ``model/`` (the final checkpoint), and
   ``progress.csv`` (one row per RLlib iteration: decisions, seconds, the learner's mean return
   in the game's unit, and ``actions_checked``, the actions checked against their masks so far).
3. Ray: the cluster at ``rllib.address``, else a new local instance for the run (a Ray session
   already open in this process is used as it is), before the run folder is written. The
   resources the config asks for must fit the cluster's CPUs.
4. ``algo.train()`` until the learner has made ``timesteps`` decisions (``timesteps`` counts the
   learner's decisions, as an SB3 run's single-seat env steps do; RLlib's env steps count every
   seat's, or only the learner's in an action formulation, where the bots act inside the env),
   evaluating the learner's module (in the game's own actions) against the bots on the same
   duplicate deals as SB3 runs (:func:`~pokerzoo.training.evaluate.evaluate_agent`),
   checkpointing, and resuming from the latest checkpoint (``resume``).
5. The self-play league (config ``opponents.snapshot_weight`` and ``snapshot_every``, in the
   game's own actions): after each iteration that reaches ``snapshot_every`` more decisions,
   the learner's weights are frozen into a snapshot slot and saved to ``snapshots/step_N/``;
   ``run.json`` lists the kept ones (``league``), ``progress.csv`` counts the seats snapshots
   took (``snapshot_seats``), and a resumed run restores them (:mod:`.league`).
"""

from __future__ import annotations

import json
import logging
import sys
import time
from collections import Counter
from dataclasses import dataclass
from datetime import datetime, timezone
from math import nan
from pathlib import Path
from typing import Any

from ...envs.core.registry import get_game
from ..config import ConfigError, TrainConfig
from ..evaluate import evaluate_agent
from ..runs import (
    append_csv,
    checkpoint_steps,
    evaluation_row,
    latest_checkpoint,
    saved_run_config,
    write_run_info,
)
from .algorithm import ACTIONS_CHECKED, SNAPSHOT_SEATS, algorithm_config
from .league import League
from .policy import agent_policy
from .settings import league_slots, validate_for_rllib
from .table import LEARNER

__all__ = ["RLlibResult", "env_runner_nodes", "train"]

log = logging.getLogger(__name__)


@dataclass
class RLlibResult:
    """What :func:`train` did: the run folder, the learner's decisions and the throughput."""

    run_dir: Path
    timesteps: int
    throughput: dict[str, Any]


def _connect(config: TrainConfig) -> bool:
    """Join ``rllib.address`` or start Ray locally (unless a session is open); check that the
    env runners and learners fit the CPUs. Returns whether this call opened the session."""
    import ray

    settings = config.rllib
    opened = not ray.is_initialized()
    if opened:
        try:
            # "local": a new instance for the run, even where a cluster runs on this machine.
            address = settings.address or "local"
            ray.init(address=address, include_dashboard=False, logging_level=logging.WARNING)
        except ConnectionError as error:
            # Ray 2.60 clusters authenticate by token; `auto` finds this machine's token
            # itself, an explicit HOST:PORT only with RAY_AUTH_MODE=token (docs/rllib.md).
            raise ConfigError(
                f"rllib.address: no Ray cluster let this run join at {settings.address} ({error}); "
                "start one with `ray start --head`, and to join by HOST:PORT copy the head's "
                "~/.ray/auth_token here and set RAY_AUTH_MODE=token"
            ) from None
    cpus = ray.cluster_resources().get("CPU", 0)
    needed = (
        settings.num_env_runners * settings.num_cpus_per_env_runner
        + settings.num_learners * settings.num_cpus_per_learner
    )
    if needed > cpus:
        if opened:
            ray.shutdown()
        raise ConfigError(
            f"rllib: {settings.num_env_runners} env runners x {settings.num_cpus_per_env_runner:g} "
            f"CPU + {settings.num_learners} learners x {settings.num_cpus_per_learner:g} CPU need "
            f"{needed:g} CPUs; the Ray cluster has {cpus:g} (lower rllib.num_env_runners or "
            "the CPUs per actor, or join a larger cluster with --address)"
        )
    return opened


def _start(run_dir: Path, info: dict[str, Any]) -> tuple[Path | None, int]:
    """Where a resumed run continues from (the final model or the latest checkpoint, whichever
    is further on) and its learner decisions so far."""
    checkpoint = latest_checkpoint(run_dir)
    steps = checkpoint_steps(checkpoint)
    finished = info["segments"][-1]["to_timesteps"] if info.get("segments") else -1
    if (run_dir / "model").is_dir() and finished > steps:
        return run_dir / "model", finished
    return checkpoint, max(steps, 0)


def train(
    config: TrainConfig, out: str | Path, resume: bool = False, verbose: int = 1
) -> RLlibResult:
    """Train (or resume) a ``backend: rllib`` run in folder ``out``; see the module docstring."""
    spec = get_game(config.game)
    validate_for_rllib(config, spec)
    run_dir = Path(out)
    saved = saved_run_config(run_dir, resume)
    if saved is not None:
        # A resumed run keeps its config; the budget may grow and the cluster may change.
        rllib = saved.rllib.model_copy(
            update={k: getattr(config.rllib, k) for k in ("address", "num_env_runners")}
        )
        config = saved.model_copy(update={"timesteps": config.timesteps, "rllib": rllib})
    began = datetime.now(timezone.utc)  # the segment's start, recorded in run.json at its end
    # Ray first: a cluster that cannot be joined, or is too small, leaves no run folder behind.
    opened = _connect(config)
    run_dir.mkdir(parents=True, exist_ok=True)

    import torch

    torch.set_num_threads(config.threads)
    info = write_run_info(run_dir, config, backend="rllib", packages=("ray",))
    start_from, start_steps = _start(run_dir, info) if resume else (None, 0)
    try:
        started = time.perf_counter()
        ppo = algorithm_config(config)
        algo = ppo.build_algo()
        if start_from is not None:
            algo.restore_from_path(str(start_from.resolve()))
        league = None
        if league_slots(config):
            learner_spec = ppo.rl_module_spec.rl_module_specs[LEARNER]
            every = config.opponents.snapshot_every
            league = League(run_dir, every, league_slots(config), learner_spec)
            league.start(algo, start_steps)
        setup_seconds = time.perf_counter() - started
        try:
            nodes = env_runner_nodes(algo)
            segment = _learn(config, spec, run_dir, algo, start_steps, verbose, league)
            algo.save_to_path(str((run_dir / "model").resolve()))
        finally:
            algo.stop()
    finally:
        if opened:
            import ray

            ray.shutdown()
    segment.update(
        started=began.isoformat(timespec="seconds"),
        command=sys.argv,
        setup_seconds=round(setup_seconds, 2),
        num_env_runners=config.rllib.num_env_runners,
        env_runner_nodes=nodes,
        address=config.rllib.address,
    )
    info["segments"].append(segment)
    if league is not None:
        info["league"] = league.record()
    segments = info["segments"]
    decisions = sum(s["to_timesteps"] - s["from_timesteps"] for s in segments)
    env_steps = sum(s["env_steps"] for s in segments)
    seconds = sum(s["learn_seconds"] for s in segments)
    info["throughput"] = {
        "timesteps": decisions,
        "env_steps": env_steps,
        "seconds": round(seconds, 2),
        "steps_per_second": round(decisions / max(seconds, 1e-9), 1),
        "env_steps_per_second": round(env_steps / max(seconds, 1e-9), 1),
        "num_env_runners": config.rllib.num_env_runners,
        "threads": config.threads,
        "note": "the learner's decisions (timesteps) and RLlib's env steps (every seat's; the "
        "learner's alone in an action formulation) per second of `algo.train()` (sampling + "
        "updates); Ray's start-up, periodic evaluation and checkpoints excluded",
    }
    (run_dir / "run.json").write_text(json.dumps(info, indent=2) + "\n")
    return RLlibResult(run_dir, segment["to_timesteps"], info["throughput"])


def env_runner_nodes(algo: Any) -> dict[str, int]:
    """Ray node id -> how many of ``algo``'s env runners run there (the sampling actors; none
    with ``num_env_runners: 0``, where the driver samples), as each env runner reports it."""
    import ray

    nodes = algo.env_runner_group.foreach_env_runner(
        lambda runner: ray.get_runtime_context().get_node_id(), local_env_runner=False
    )
    return dict(Counter(nodes))


def _after(steps: int, every: int) -> int | None:
    """The first multiple of ``every`` after ``steps`` (None when ``every`` is 0: never)."""
    return (steps // every + 1) * every if every else None


def _learn(
    config: TrainConfig,
    spec: Any,
    run_dir: Path,
    algo: Any,
    steps: int,
    verbose: int,
    league: League | None = None,
) -> dict[str, Any]:
    """``algo.train()`` until the learner's budget is spent, with periodic evaluations,
    checkpoints and the league's snapshots; the segment's record for ``run.json``."""
    every, checkpoint_every = config.evaluation.every, config.checkpoint_every

    def evaluate(timesteps: int) -> float:
        started = time.perf_counter()
        policy = agent_policy(spec, algo.get_module(LEARNER), config.features, config.actions)
        evaluation = evaluate_agent(
            spec,
            policy,
            config.env,
            config.evaluation.episodes,
            config.evaluation.opponents,
            config.evaluation.seed,
        )
        row = evaluation_row(evaluation, timesteps)
        append_csv(run_dir / "evaluations.csv", row)
        if verbose:
            shown = ", ".join(f"{k}={v:.3f}" for k, v in row.items() if k != "timesteps")
            log.info("eval @ %d: %s", timesteps, shown)
        return time.perf_counter() - started

    first = steps
    loop_started = time.perf_counter()
    evaluation_seconds = evaluate(steps) if every and steps == 0 else 0.0
    next_eval = _after(steps, every)
    next_checkpoint = _after(steps, checkpoint_every)
    env_steps = 0
    learn_seconds = 0.0
    snapshots = 0
    while steps < config.timesteps:
        started = time.perf_counter()
        result = algo.train()
        seconds = time.perf_counter() - started
        learn_seconds += seconds
        runners = result["env_runners"]
        decisions = int(runners["num_module_steps_sampled"].get(LEARNER, 0))
        sampled = int(runners["num_env_steps_sampled"])
        steps += decisions
        env_steps += sampled
        # RLlib's returns are the learner's scaled rewards: back to the game's unit.
        returns = runners.get("module_episode_returns_mean", {}).get(LEARNER, nan)
        returns = float(returns) / config.reward_scale
        row = {
            "iteration": result["training_iteration"],
            "timesteps": steps,
            "env_steps": sampled,
            "decisions": decisions,
            "seconds": round(seconds, 3),
            "learner_return_mean": round(returns, 4),
            ACTIONS_CHECKED: int(runners.get(ACTIONS_CHECKED, 0)),
        }
        if league is not None:
            # Before the checkpoint below, so that it holds the snapshot too.
            snapshots += league.step(algo, steps)
            row[SNAPSHOT_SEATS] = int(runners.get(SNAPSHOT_SEATS, 0))
        append_csv(run_dir / "progress.csv", row)
        if verbose:
            log.info(
                "iteration %d: %d/%d decisions, %.0f decisions/s, learner return %.3f",
                result["training_iteration"],
                steps,
                config.timesteps,
                decisions / max(seconds, 1e-9),
                returns,
            )
        if next_eval is not None and (steps >= next_eval or steps >= config.timesteps):
            evaluation_seconds += evaluate(steps)
            next_eval = _after(steps, every)
        if next_checkpoint is not None and steps >= next_checkpoint:
            path = run_dir / "checkpoints" / f"model_{steps}_steps"
            algo.save_to_path(str(path.resolve()))
            next_checkpoint = _after(steps, checkpoint_every)
    return {
        "from_timesteps": first,
        "to_timesteps": steps,
        "env_steps": env_steps,
        "seconds": round(time.perf_counter() - loop_started, 2),
        "learn_seconds": round(learn_seconds, 2),
        "evaluation_seconds": round(evaluation_seconds, 2),
        "snapshots_taken": snapshots,
    }
