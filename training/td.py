"""Runs of a game's own value learner (``algorithm: td``): the run folder, the periodic
evaluation and the learning curve, the same files as a PPO run's.

A run folder holds ``config.yaml`` and ``run.json`` (:func:`~.runs.write_run_info`), the model
(``values.npz`` for Poker Squares), ``monitor.csv`` (each training batch's mean score, in
env steps like PPO's) and ``evaluations.csv`` (the agent without look-ahead on
``evaluation.episodes`` deals every ``td.eval_every`` games, with the published results the
learner measures itself against as reference lines). ``pokerzoo evaluate RUN`` then plays the
saved model with and without look-ahead against the bots.
"""

from __future__ import annotations

import json
import logging
import math
import sys
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from ..envs.core.registry import GameSpec, get_game
from .config import ConfigError, TrainConfig
from .evaluate import evaluate_agent
from .hooks import hooks_for
from .learners import ValueLearner, ValueModel
from .runs import TD_MODEL, append_csv, evaluation_row, write_run_info

__all__ = ["TDResult", "kept_info", "learner_for", "train_td"]

logger = logging.getLogger(__name__)


@dataclass
class TDResult:
    """What a ``td`` run did."""

    run_dir: Path
    games: int
    """Games the model has been trained on (a resumed run counts the earlier ones)."""
    seconds: float
    """Seconds of training in this segment."""


def kept_info(model: ValueModel) -> dict[str, Any]:
    """Which table a run kept, for ``run.json`` and the report: the games it had learned from
    and its validation mean (``None`` where the run made no check)."""
    validation = float(model.validation)
    return {"games": model.kept_games, "validation": None if math.isnan(validation) else validation}


def learner_for(spec: GameSpec) -> ValueLearner:
    """The game's own learner; ``ConfigError`` where it has none."""
    learner = hooks_for(spec).td
    if learner is None:
        raise ConfigError(f"algorithm: td: {spec.title} has no value learner (use algorithm: ppo)")
    return learner


def train_td(config: TrainConfig, run_dir: str | Path, resume: bool = False) -> TDResult:
    """Train the game's learner per ``config.td`` into ``run_dir``; ``resume`` continues the
    model saved there (an error if there is none) up to ``td.games`` games in all."""
    spec = get_game(config.game)
    learner = learner_for(spec)
    run_dir = Path(run_dir)
    path = run_dir / TD_MODEL
    if resume and not path.exists():
        raise FileNotFoundError(f"--resume: no {TD_MODEL} in {run_dir} to resume")
    try:
        model = learner.load(path) if resume else learner.new(config.td, config.env)
    except ValueError as error:
        raise ConfigError(f"env: {error}") from None
    run_dir.mkdir(parents=True, exist_ok=True)
    if not resume:
        for stale in ("monitor.csv", "evaluations.csv"):
            (run_dir / stale).unlink(missing_ok=True)
    began = datetime.now(timezone.utc)  # the segment's start, recorded in run.json at its end
    write_run_info(run_dir, config, backend="td")
    start_games = model.games
    steps = learner.decisions_per_game
    references = learner.references(config.env)
    every = config.td.eval_every
    evaluation = config.evaluation
    last, seconds = start_games, 0.0
    next_eval = (start_games // every + 1) * every if every else None

    def evaluate(games: int) -> None:
        result = evaluate_agent(
            spec,
            learner.policy(model, False),
            config.env,
            evaluation.episodes,
            [],
            evaluation.seed,
        )
        row = evaluation_row(result, games * steps)
        row["agent_mean/no look-ahead"] = row.pop("agent_mean")
        row.update({f"reference/{label}": value for label, value in references.items()})
        append_csv(run_dir / "evaluations.csv", row)
        logger.info(
            "%s games: %s without look-ahead on %d deals",
            f"{games:,}",
            result.agent_mean.format() if result.agent_mean else "-",
            evaluation.episodes,
        )

    def progress(games: int, mean: float, elapsed: float) -> None:
        nonlocal last, seconds, next_eval
        append_csv(run_dir / "monitor.csv", {"r": mean, "l": (games - last) * steps, "t": elapsed})
        last, seconds = games, elapsed
        if next_eval is not None and games >= next_eval:
            model.save(path)  # a checkpoint with each evaluation
            evaluate(games)
            next_eval += every

    learner.train(model, config.td, config.seed, progress, start_games)
    model.save(path)
    if every and (not (run_dir / "evaluations.csv").exists() or model.games % every):
        evaluate(model.games)
    info_path = run_dir / "run.json"
    info = json.loads(info_path.read_text())
    played = model.games - start_games
    info["segments"].append(
        {
            "started": began.isoformat(timespec="seconds"),
            "command": sys.argv,
            "from_games": start_games,
            "games": played,
            "seconds": seconds,
        }
    )
    total_seconds = sum(s["seconds"] for s in info["segments"])
    info["throughput"] = {
        "timesteps": model.games * steps,
        "games": model.games,
        "seconds": total_seconds,
        "steps_per_second": model.games * steps / max(total_seconds, 1e-9),
    }
    info["kept"] = kept_info(model)
    if info["kept"]["validation"] is not None:
        logger.info(
            "kept the table of %s games (validation mean %.2f)",
            f"{model.kept_games:,}",
            model.validation,
        )
    info_path.write_text(json.dumps(info, indent=2) + "\n")
    return TDResult(run_dir, model.games, seconds)
