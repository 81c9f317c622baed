"""Train a MaskablePPO agent on one game, read top to bottom.

1. Resolve the config (``configs/<game>.yaml`` + command-line overrides), validate it against
   the game (env options, bot names), set the torch thread count and every seed.
2. Make the run folder: ``config.yaml`` (resolved), ``run.json`` (seed, package versions,
   training segments, each with its start, command and timings, and throughput), later
   ``model.zip``, ``checkpoints/``, ``snapshots/`` (self-play), ``tb/`` (TensorBoard),
   ``monitor.csv``, ``evaluations.csv``.
3. Build the vectorised training env: the game's native vector env (games of several players:
   the vector env of bot tables, :mod:`pokerzoo.envs.core.seat_vector`, every table's bots
   asked in one batch; ``workers`` > 1 splits the tables across worker processes,
   :mod:`.sharded_vec_env`), or ``SubprocVecEnv`` / ``DummyVecEnv`` of single envs; a table of a
   game of several players is the learner's seat of the PettingZoo env, opponents drawn per
   episode from the bots and the learner's past snapshots, in the config's action formulation
   (``actions``) when it is not the game's own.
4. ``learn`` with a progress bar, periodic masked evaluation against the bots, checkpoints and
   snapshots, each rollout kept in :class:`~.buffers.EnvMajorRolloutBuffer` (sb3-contrib's
   buffer without its large copies); a run folder that already has checkpoints resumes from
   the latest (``resume``).
5. Save ``model.zip``, then (``final_episodes`` > 0) evaluate against every bot and write
   ``report.md``, ``report.json`` and ``learning_curve.png``.
"""

from __future__ import annotations

import json
import logging
import shutil
import sys
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime, timezone
from functools import partial
from pathlib import Path
from typing import Any

from ..envs.core.registry import GameSpec, get_game
from ..envs.core.seat_vector import SeatVectorEnv
from .config import ConfigError, TrainConfig, to_dict
from .evaluate import evaluate_agent
from .exploiters import (
    exploiter_config,
    exploiter_folder,
    kept_random_state,
    learner_path,
    trained_exploiters,
)
from .forking import blas_threads
from .hooks import agent_policy, feature_set, formulation
from .opponents import OpponentPool, PolicyBot, PoolSeatEnv
from .replay import DealReplay
from .report import run_policy
from .runs import (
    append_csv,
    checkpoint_steps,
    evaluation_row,
    find_run,
    latest_checkpoint,
    saved_run_config,
    snapshot_paths,
    write_run_info,
)
from .sharded_vec_env import ShardedVecEnv, shard_sizes, worker_cpus
from .vec_wrappers import FeatureEnv, FeatureVecEnv, InfoMaskVecEnv, RewardScaleVecEnv

__all__ = [
    "TrainResult",
    "env_options",
    "make_training_env",
    "set_threads",
    "train",
    "validate_for_game",
    "with_exploiters",
]

log = logging.getLogger(__name__)


# --- configuration ----------------------------------------------------------------------------


def validate_for_game(config: TrainConfig, spec: GameSpec) -> None:
    """Checks that need the game: env options, bot names, the opponent pool, the action
    formulation, features."""
    try:
        spec.check_options(config.env)
    except (ValueError, TypeError) as error:
        raise ConfigError(f"env: {error}") from None
    _validate_variants(config, spec)
    bots = set(spec.bot_classes)
    for name in config.evaluation.opponents or []:
        if name not in bots:
            raise ConfigError(
                f"evaluation.opponents: unknown bot {name!r} (expected one of {sorted(bots)})"
            )
    opponents = config.opponents
    if spec.players == 1:
        if opponents.bots or opponents.runs or opponents.snapshot_every or opponents.exploiter_at:
            raise ConfigError(
                f"opponents: {spec.title} is a one-player game; leave `opponents` out"
            )
    else:
        for name in opponents.bots:
            if name not in bots:
                raise ConfigError(
                    f"opponents.bots: unknown bot {name!r} (expected one of {sorted(bots)})"
                )
        for path in opponents.runs:
            try:
                find_run(path, game=config.game)
            except (FileNotFoundError, ValueError) as error:
                raise ConfigError(f"opponents.runs: {error}") from None
        if sum(opponents.bots.values()) + sum(opponents.runs.values()) <= 0:
            raise ConfigError(
                "opponents.bots: needs at least one bot with a weight > 0 "
                "(or opponents.runs: one run)"
            )
        for name in opponents.replay_bots:
            if name not in opponents.bots:
                raise ConfigError(
                    f"opponents.replay_bots: {name!r} is not in opponents.bots "
                    f"(expected some of {sorted(opponents.bots)})"
                )
        if opponents.replay_share > 0 and not opponents.replay_bots:
            raise ConfigError(
                f"opponents.replay_share: {opponents.replay_share} replays the deals lost to "
                "opponents.replay_bots, which names none (expected some of "
                f"{sorted(opponents.bots)})"
            )
        at = opponents.exploiter_at
        if at != sorted(set(at)):
            raise ConfigError(f"opponents.exploiter_at: {at} (expected increasing timesteps)")
    try:
        formulated = formulation(spec, config.actions) is not None
    except ValueError as error:
        raise ConfigError(f"actions: {error}") from None
    if formulated and config.vec_env == "native" and spec.players == 1:
        raise ConfigError(
            f"vec_env: native plays the game's own actions, not actions {config.actions!r} "
            "(use subproc or dummy)"
        )
    try:
        features = feature_set(spec, config.features, config.actions)
    except ValueError as error:
        raise ConfigError(f"features: {error}") from None
    if config.ppo.policy == "per_action" and (features is None or features.per_action is None):
        raise ConfigError(
            f"ppo.policy: per_action needs a feature set with per-action rows; "
            f"features {config.features!r} has none"
        )
    if config.vec_env == "native" and spec.vector is None and spec.players == 1:
        raise ConfigError(f"vec_env: {spec.name} has no native vector env (use subproc or dummy)")
    _validate_workers(config, spec)


def _validate_workers(config: TrainConfig, spec: GameSpec) -> None:
    """``workers`` > 1 splits the native tables of a game of several players."""
    if config.workers == 1:
        return
    if spec.players == 1 or _collection(config, spec) != "native":
        raise ConfigError(
            f"workers: {config.workers} splits the native tables of a game of several players "
            f"across processes; {spec.name} with vec_env: {config.vec_env} collects "
            f"{'with its own vector env' if spec.players == 1 else 'with one process per env'} "
            "(expected workers: 1)"
        )
    if config.workers > config.n_envs:
        raise ConfigError(
            f"workers: {config.workers} is more than n_envs ({config.n_envs}): expected at most "
            "one worker per table"
        )


def _validate_variants(config: TrainConfig, spec: GameSpec) -> None:
    """``env_variants``: valid options, no more envs than ``n_envs``, a trainer that builds
    its envs one by one (SB3 PPO with subproc or dummy envs)."""
    variants = config.env_variants
    if not variants:
        return
    if config.algorithm != "ppo" or config.backend != "sb3":
        trainer = "algorithm: td" if config.algorithm != "ppo" else f"backend: {config.backend}"
        raise ConfigError(f"env_variants: only SB3 PPO runs take them, not {trainer}")
    if _collection(config, spec) == "native" and spec.players == 1:
        raise ConfigError(
            f"env_variants: the native vector env plays one set of options; "
            f"set vec_env to subproc or dummy (got vec_env: {config.vec_env})"
        )
    total = sum(variant.envs for variant in variants)
    if total > config.n_envs:
        raise ConfigError(
            f"env_variants: {total} envs in all, expected at most n_envs ({config.n_envs})"
        )
    for i, variant in enumerate(variants):
        try:
            spec.check_options({**config.env, **variant.options})
        except (ValueError, TypeError) as error:
            raise ConfigError(f"env_variants.{i}.options: {error}") from None


def env_options(config: TrainConfig) -> list[dict[str, Any]]:
    """Each training env's options, in vector order: the ``env_variants``' first, then ``env``."""
    options = [
        {**config.env, **variant.options}
        for variant in config.env_variants
        for _ in range(variant.envs)
    ]
    return options + [dict(config.env)] * (config.n_envs - len(options))


# --- environment ------------------------------------------------------------------------------


def _collection(config: TrainConfig, spec: GameSpec) -> str:
    """How the run collects experience: ``"native"`` (a one-player game's own vector env, or
    the vector env of bot tables for a game of several players), ``"subproc"`` or ``"dummy"``;
    ``vec_env: auto`` is native where the game has one or several players."""
    kind = config.vec_env
    if kind == "auto":
        kind = "native" if spec.vector is not None or spec.players > 1 else "subproc"
    if kind == "subproc" and config.n_envs == 1:
        kind = "dummy"  # one worker process would only add IPC
    return kind


def set_threads(threads: int) -> None:
    """torch's intra-op thread count, in this process (see ``config`` on why it matters), and
    numpy's BLAS threads (:func:`~pokerzoo.training.forking.blas_threads`)."""
    import torch

    torch.set_num_threads(threads)
    blas_threads(threads)


def _make_single_env(
    game: str, options: Mapping[str, Any], threads: int, actions: str, features: str | None
) -> Callable[[], Any]:
    def build() -> Any:
        set_threads(threads)  # runs inside each SubprocVecEnv worker
        spec = get_game(game)
        return _formulated(spec.make_single(**options), spec, actions, features)

    return build


def _formulated(env: Any, spec: GameSpec, actions: str, features: str | None) -> Any:
    """``env`` in the action formulation ``actions``, with the feature set applied inside it
    (``None``: no features here)."""
    chosen = formulation(spec, actions)
    if chosen is not None:
        env = chosen.wrap(env)
    transform = None if features is None else feature_set(spec, features, actions)
    return env if transform is None else FeatureEnv(env, transform)


def _make_view(
    game: str,
    options: Mapping[str, Any],
    opponents: Mapping[str, Any],
    snapshots: list[str],
    threads: int,
    actions: str,
    features: str,
    worker_features: bool,
    loaded: dict[str, Any] | None = None,
) -> Callable[[], Any]:
    def build() -> Any:
        set_threads(threads)  # runs inside each SubprocVecEnv worker
        spec = get_game(game)
        # The bots are built as evaluation builds them (with its forced options, e.g. Quintet's
        # reward="points", which the bots also optimise), whatever reward the learner is paid:
        # the learner trains against the opponents it is measured against.
        bot_options = {**options, **spec.scoring.eval_options}
        runs = {f"{RUN}{path}": weight for path, weight in opponents["runs"].items()}
        pool = OpponentPool(
            make_bot=partial(_make_opponent, spec, bot_options, {} if loaded is None else loaded),
            bots={**opponents["bots"], **runs},
            snapshot_weight=opponents["snapshot_weight"],
            max_snapshots=opponents["max_snapshots"],
            snapshots=snapshots,
            transform=feature_set(spec, features, actions),
            formulation=formulation(spec, actions),
            loaded=loaded,
        )
        replay = None
        if opponents["replay_share"] > 0:
            replay = DealReplay(
                opponents["replay_share"],
                opponents["replay_bots"],
                opponents["replay_capacity"],
                opponents["replay_wins"],
            )
        view = PoolSeatEnv(spec.make_aec(**options), pool, replay=replay)
        return _formulated(view, spec, actions, features if worker_features else None)

    return build


def _replayed_deals(venv: Any) -> int | None:
    """The deals the training tables replayed (:mod:`.replay`), or ``None`` where none
    replays."""
    replays = [replay for replay in venv.get_attr("replay") if replay is not None]
    return sum(replay.replays for replay in replays) if replays else None


RUN = "run:"
"""The prefix of a trained run's entry (``run:PATH``) among the pool's names: bot names hold no
colon."""


def _make_opponent(
    spec: GameSpec, bot_options: Mapping[str, Any], loaded: dict[str, Any], name: str
) -> Any:
    """The pool's player ``name``: a bot built as evaluation builds it, or the trained run
    ``run:PATH`` (``opponents.runs``) playing its policy, loaded once per process (``loaded``,
    the snapshots' cache: the tables of one process share its forward passes)."""
    if not name.startswith(RUN):
        return spec.make_bot(name, seed=None, **bot_options)
    if name not in loaded:
        policy, _ = run_policy(find_run(name[len(RUN) :], game=spec.name))
        loaded[name] = PolicyBot.from_policy(policy, name)
    return loaded[name]


def _table_factories(
    config: TrainConfig, snapshots: list[str] | None, worker_features: bool
) -> list[Callable[[], Any]]:
    """One factory of a training env per ``env_options`` entry: the game's single env (one
    player) or the learner's seat against the opponent pool (several players); the features are
    applied inside where ``worker_features``."""
    if get_game(config.game).players == 1:
        features = config.features if worker_features else None
        return [
            _make_single_env(config.game, options, config.threads, config.actions, features)
            for options in env_options(config)
        ]
    opponents = to_dict(config.opponents)
    loaded: dict[str, Any] = {}  # tables built in one process load each snapshot once
    return [
        _make_view(
            config.game,
            options,
            opponents,
            list(snapshots or []),
            config.threads,
            config.actions,
            config.features,
            worker_features,
            loaded,
        )
        for options in env_options(config)
    ]


TRAINING_INFO_KEYS: tuple[str, ...] = ()
"""The games' info entries the native training envs pass on: none. ``learn`` reads only what
:class:`~.sb3_vec_env.SB3VecEnv` adds where a game ended (and VecMonitor's ``"episode"``);
the games' per-table entries cost time to split and to carry from the workers (the module
docstring there)."""


def _shard_factories(config: TrainConfig, snapshots: list[str] | None) -> list[Callable[[], Any]]:
    """One factory per worker of :class:`~.sharded_vec_env.ShardedVecEnv`: consecutive tables
    of the ``n_envs`` (each built as the single-process vector env builds it) in a vector env
    of bot tables, the features computed there."""
    tables = _table_factories(config, snapshots, worker_features=False)
    shards, start = [], 0
    for size in shard_sizes(config.n_envs, config.workers):
        shards.append(
            partial(
                _build_shard,
                tables[start : start + size],
                config.game,
                config.features,
                config.actions,
                config.threads,
            )
        )
        start += size
    return shards


def _build_shard(
    tables: list[Callable[[], Any]], game: str, features: str, actions: str, threads: int
) -> Any:
    from gymnasium.vector import AutoresetMode

    from .sb3_vec_env import SB3VecEnv

    set_threads(threads)  # runs inside the worker
    venv = SB3VecEnv(
        SeatVectorEnv([make() for make in tables], autoreset_mode=AutoresetMode.SAME_STEP),
        info_keys=TRAINING_INFO_KEYS,
    )
    transform = feature_set(get_game(game), features, actions)
    return venv if transform is None else FeatureVecEnv(venv, transform)


def make_training_env(
    config: TrainConfig, snapshots: list[str] | None = None, monitor: str | None = None
) -> Any:
    """The vectorised training env of ``config``: an SB3 VecEnv, features applied, in a
    VecMonitor (returns in game points), rewards scaled for the learner."""
    from gymnasium.vector import AutoresetMode
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv, VecMonitor

    from .sb3_vec_env import SB3VecEnv

    spec = get_game(config.game)
    kind = _collection(config, spec)
    # In worker processes the features are computed there, each worker for its own envs;
    # otherwise once per step for the whole batch.
    worker_features = kind == "subproc"
    if kind == "native" and spec.players == 1:
        venv = SB3VecEnv(
            spec.make_vector(config.n_envs, autoreset_mode=AutoresetMode.SAME_STEP, **config.env),
            info_keys=TRAINING_INFO_KEYS,
        )
    elif kind == "native":
        # The tables' bots batched (envs.core.seat_vector) in one vector env with its features,
        # or split into ``workers`` such shards, each in a worker process.
        worker_features = True
        shards = _shard_factories(config, snapshots)
        if len(shards) == 1:
            venv = shards[0]()
        else:
            venv = ShardedVecEnv(shards, cpus=worker_cpus(len(shards), config.pin_workers))
    else:
        factories = _table_factories(config, snapshots, worker_features)
        if kind == "subproc":
            # Forked workers start in well under a second; forkserver workers each import torch
            # again (seconds apiece on a busy 2-core machine). torch has run one thread so far.
            method = "fork" if sys.platform == "linux" else None
            venv = SubprocVecEnv(factories, start_method=method)
        else:
            venv = DummyVecEnv(factories)
        venv = InfoMaskVecEnv(venv)
    transform = feature_set(spec, config.features, config.actions)
    if transform is not None and not worker_features:
        venv = FeatureVecEnv(venv, transform)
    venv = VecMonitor(venv, filename=monitor)
    if config.reward_scale != 1.0:
        venv = RewardScaleVecEnv(venv, config.reward_scale)
    return venv


def with_exploiters(config: TrainConfig, run_dir: Path, steps: int) -> TrainConfig:
    """``config`` with the exploiters the run trained up to ``steps`` among its pool's runs at
    ``opponents.exploiter_weight`` (a resumed run's; a fresh run has none)."""
    trained = trained_exploiters(run_dir, steps) if config.opponents.exploiter_at else []
    if not trained:
        return config
    runs = {**config.opponents.runs}
    runs.update({str(folder): config.opponents.exploiter_weight for folder in trained})
    opponents = config.opponents.model_copy(update={"runs": runs})
    return config.model_copy(update={"opponents": opponents})


# --- callbacks --------------------------------------------------------------------------------


def _callbacks(
    config: TrainConfig, spec: GameSpec, run_dir: Path, venv: Any, verbose: int
) -> tuple[list[Any], Any, Any, Any]:
    """The run's callbacks, and among them its periodic evaluation, its rollout timing and its
    exploiters' training (each keeps the seconds it took)."""
    from stable_baselines3.common.callbacks import BaseCallback, CheckpointCallback

    class PeriodicEvaluation(BaseCallback):
        """Masked evaluation against the bots at the start of a fresh run and every
        ``evaluation.every`` steps."""

        def __init__(self) -> None:
            super().__init__()
            self.every = config.evaluation.every
            self.next = 0
            self.seconds = 0.0
            self.cache: dict[Any, Any] = {}
            self.path = run_dir / "evaluations.csv"
            self.last = -1

        def _on_training_start(self) -> None:
            self.next = (self.num_timesteps // self.every + 1) * self.every if self.every else 0
            if self.every and self.num_timesteps == 0:
                self.run()  # the untrained policy: where the learning curve starts

        def _on_step(self) -> bool:
            if self.every and self.num_timesteps >= self.next:
                self.run()
                self.next += self.every * max(1, (self.num_timesteps - self.next) // self.every + 1)
            return True

        def _on_training_end(self) -> None:
            if self.every and self.last != self.num_timesteps:
                self.run()

        def run(self) -> None:
            started = time.perf_counter()
            ev = evaluate_agent(
                spec,
                agent_policy(spec, self.model, config.features, config.actions),
                config.env,
                config.evaluation.episodes,
                config.evaluation.opponents,
                config.evaluation.seed,
                bot_cache=self.cache,
            )
            row = evaluation_row(ev, self.num_timesteps)
            for key, value in row.items():
                if key != "timesteps":
                    self.logger.record(f"eval/{key}", value)
            append_csv(self.path, row)
            self.last = self.num_timesteps
            self.seconds += time.perf_counter() - started
            if verbose:
                shown = ", ".join(f"{k}={v:.3f}" for k, v in row.items() if k != "timesteps")
                log.info("eval @ %d: %s", self.num_timesteps, shown)

    class Snapshots(BaseCallback):
        """Save the learner every ``snapshot_every`` steps and add it to every env's pool."""

        def __init__(self) -> None:
            super().__init__()
            self.every = config.opponents.snapshot_every
            self.next = 0
            self.folder = run_dir / "snapshots"

        def _on_training_start(self) -> None:
            self.next = (self.num_timesteps // self.every + 1) * self.every

        def _on_step(self) -> bool:
            if self.num_timesteps >= self.next:
                self.folder.mkdir(exist_ok=True)
                path = self.folder / f"step_{self.num_timesteps}.zip"
                self.model.save(path)
                venv.env_method("add_snapshot", str(path))
                self.next += self.every
            return True

    class Exploiters(BaseCallback):
        """At each of ``opponents.exploiter_at``'s timesteps, freeze the learner, train an
        exploiter of it (:mod:`.exploiters`) and add it to every table's pool."""

        def __init__(self) -> None:
            super().__init__()
            self.pending = list(config.opponents.exploiter_at)
            self.seconds = 0.0

        def _on_training_start(self) -> None:
            # A resumed run trains those still ahead, and at once any it passed without
            # finishing (stopped while an exploiter trained).
            self.pending = [
                at
                for at in self.pending
                if at > self.num_timesteps
                or not (exploiter_folder(run_dir, at) / "model.zip").exists()
            ]
            beyond = [at for at in self.pending if at >= config.timesteps]
            self.pending = [at for at in self.pending if at < config.timesteps]
            if beyond:
                # A shorter budget than the config's (--timesteps) trains no exploiter there.
                log.warning(
                    "opponents.exploiter_at %s: at or beyond the run's %d timesteps, no "
                    "exploiter trained there",
                    beyond,
                    config.timesteps,
                )

        def _on_step(self) -> bool:
            if self.pending and self.num_timesteps >= self.pending[0]:
                started = time.perf_counter()
                at = self.pending.pop(0)
                learner = learner_path(run_dir, at)
                learner.parent.mkdir(exist_ok=True)
                self.model.save(learner)
                if verbose:
                    log.info("training an exploiter of the learner at %d", self.num_timesteps)
                folder = exploiter_folder(run_dir, at)
                if folder.exists():  # a stopped run's, or one trained from a later learner
                    shutil.rmtree(folder)
                with kept_random_state():
                    exploiter = train(
                        exploiter_config(config, learner),
                        folder,
                        progress_bar=False,
                        verbose=verbose,
                    )
                set_threads(config.threads)
                venv.env_method("add_opponent", f"{RUN}{folder}", config.opponents.exploiter_weight)
                self.seconds += time.perf_counter() - started
                if verbose:
                    log.info(
                        "exploiter %s: %d steps in %.0f s; in the pool at weight %g",
                        folder,
                        exploiter.timesteps,
                        time.perf_counter() - started,
                        config.opponents.exploiter_weight,
                    )
            return True

    class RolloutTiming(BaseCallback):
        """Seconds spent collecting rollouts (env steps, the policy's forward passes, snapshots),
        periodic evaluations and exploiters left out: the rest of ``learn`` is PPO's updates."""

        def __init__(self) -> None:
            super().__init__()
            self.seconds = 0.0
            self._started = 0.0
            self._elsewhere = 0.0

        def _on_rollout_start(self) -> None:
            self._started = time.perf_counter()
            self._elsewhere = evaluation.seconds + exploiters.seconds

        def _on_rollout_end(self) -> None:
            spent = time.perf_counter() - self._started
            elsewhere = evaluation.seconds + exploiters.seconds - self._elsewhere
            self.seconds += spent - elsewhere

        def _on_step(self) -> bool:
            return True

    class UpdateThreads(BaseCallback):
        """torch's threads: ``update_threads`` during PPO's updates, ``threads`` while the
        rollouts are collected (the policy's forward passes, periodic evaluations)."""

        def _on_rollout_start(self) -> None:
            set_threads(config.threads)

        def _on_rollout_end(self) -> None:
            set_threads(config.update_threads or config.threads)

        def _on_step(self) -> bool:
            return True

    evaluation = PeriodicEvaluation()
    exploiters = Exploiters()
    timing = RolloutTiming()
    callbacks: list[Any] = [evaluation, timing]
    if config.update_threads not in (None, config.threads):
        callbacks.append(UpdateThreads())
    if config.checkpoint_every:
        callbacks.append(
            CheckpointCallback(
                save_freq=max(1, config.checkpoint_every // config.n_envs),
                save_path=str(run_dir / "checkpoints"),
                name_prefix="model",
            )
        )
    if spec.players > 1 and config.opponents.snapshot_every:
        callbacks.append(Snapshots())
    if spec.players > 1 and config.opponents.exploiter_at:
        callbacks.append(exploiters)
    return callbacks, evaluation, timing, exploiters


# --- training ---------------------------------------------------------------------------------


@dataclass
class TrainResult:
    run_dir: Path
    model: Any
    timesteps: int
    throughput: dict[str, float]


def _policy(config: TrainConfig, spec: GameSpec) -> tuple[Any, dict[str, Any]]:
    """The policy class (or sb3 name) and its keyword arguments."""
    import torch

    arch = list(config.ppo.net_arch)
    activation = {"tanh": torch.nn.Tanh, "relu": torch.nn.ReLU}[config.ppo.activation]
    kwargs: dict[str, Any] = {"net_arch": {"pi": arch, "vf": arch}, "activation_fn": activation}
    if config.ppo.policy == "mlp":
        from .masked_sampling import MaskablePolicy

        return MaskablePolicy, kwargs
    from .policies import PerActionPolicy

    features = feature_set(spec, config.features, config.actions)
    if features is None or features.per_action is None:  # validate_for_game said so already
        raise ConfigError(f"ppo.policy: per_action needs per-action features ({config.features})")
    kwargs.update(
        per_action=features.per_action,
        head_arch=list(config.ppo.head_arch),
        context=config.ppo.context,
    )
    return PerActionPolicy, kwargs


def _learning_rate(config: TrainConfig) -> float | Callable[[float], float]:
    """PPO's step size: ``ppo.learning_rate``, or sb3's linear schedule from it to
    ``ppo.learning_rate_end`` over the run (sb3 saves it with the model, and a resumed run
    reads its progress from the steps done and the run's total)."""
    start, end = config.ppo.learning_rate, config.ppo.learning_rate_end
    if end is None:
        return float(start)
    from stable_baselines3.common.utils import LinearSchedule

    return LinearSchedule(float(start), float(end), end_fraction=1.0)


def train(
    config: TrainConfig,
    out: str | Path,
    resume: bool = False,
    progress_bar: bool = True,
    verbose: int = 1,
) -> TrainResult:
    """Train (or resume) a run in folder ``out``; see the module docstring."""
    spec = get_game(config.game)
    validate_for_game(config, spec)
    run_dir = Path(out)
    checkpoint = latest_checkpoint(run_dir)
    saved = saved_run_config(run_dir, resume)
    if saved is not None:
        # A resumed run keeps its config; only the budget may grow.
        config = saved.model_copy(update={"timesteps": config.timesteps})
    rollout = config.ppo.n_steps * config.n_envs
    if config.timesteps % rollout:
        # PPO collects whole rollouts: say what the budget becomes instead of overshooting it.
        rounded = -(-config.timesteps // rollout) * rollout
        log.info(
            "timesteps %d rounds up to %d: whole rollouts of n_steps %d x n_envs %d",
            config.timesteps,
            rounded,
            config.ppo.n_steps,
            config.n_envs,
        )
        config = config.model_copy(update={"timesteps": rounded})
    run_dir.mkdir(parents=True, exist_ok=True)

    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.utils import set_random_seed

    from .buffers import EnvMajorRolloutBuffer

    began = datetime.now(timezone.utc)  # the segment's start, recorded in run.json at its end
    set_threads(config.threads)
    set_random_seed(config.seed)
    info = write_run_info(run_dir, config)

    # Each segment of a resumed run writes its own monitor file (SB3 would overwrite one).
    monitor = run_dir / "monitor.csv"
    segment = 0
    while monitor.exists():
        segment += 1
        monitor = run_dir / f"resume{segment}.monitor.csv"
    start_from = checkpoint
    finished = info["segments"][-1]["to_timesteps"] if info["segments"] else -1
    if (run_dir / "model.zip").exists() and finished > checkpoint_steps(checkpoint):
        start_from = run_dir / "model.zip"
    resumed_at = 0  # a resumed run's pool seats the exploiters trained before this step
    if resume and start_from is not None:
        resumed_at = finished if start_from.name == "model.zip" else checkpoint_steps(start_from)
    venv = make_training_env(
        with_exploiters(config, run_dir, resumed_at),
        snapshots=snapshot_paths(run_dir),
        monitor=str(monitor),
    )
    try:
        if resume and start_from is not None:
            model = MaskablePPO.load(
                start_from,
                env=venv,
                device="cpu",
                tensorboard_log=str(run_dir / "tb"),
                custom_objects={"rollout_buffer_class": EnvMajorRolloutBuffer},
            )
            model.set_random_seed(config.seed + model.num_timesteps)
        else:
            ppo = to_dict(config.ppo)
            for key in ("net_arch", "activation", "policy", "head_arch", "context"):
                del ppo[key]
            del ppo["learning_rate_end"]
            ppo["learning_rate"] = _learning_rate(config)
            policy, policy_kwargs = _policy(config, spec)
            model = MaskablePPO(
                policy,
                venv,
                policy_kwargs=policy_kwargs,
                rollout_buffer_class=EnvMajorRolloutBuffer,
                tensorboard_log=str(run_dir / "tb"),
                seed=config.seed,
                device="cpu",
                verbose=0,
                **ppo,
            )
        start_steps = model.num_timesteps
        remaining = config.timesteps - start_steps
        callbacks, evaluation, timing, exploiters = _callbacks(config, spec, run_dir, venv, verbose)
        started = time.perf_counter()
        if remaining > 0:
            model.learn(
                total_timesteps=remaining,
                callback=callbacks,
                progress_bar=progress_bar,
                reset_num_timesteps=start_steps == 0,
                tb_log_name="ppo",
            )
        seconds = time.perf_counter() - started
        replayed = _replayed_deals(venv) if spec.players > 1 else None
    finally:
        venv.close()
        set_threads(config.threads)  # learn ends after an update (update_threads)
    model.save(run_dir / "model.zip")

    steps = model.num_timesteps - start_steps
    learn_seconds = max(seconds - evaluation.seconds - exploiters.seconds, 1e-9)
    info["segments"].append(
        {
            "started": began.isoformat(timespec="seconds"),
            "command": sys.argv,
            "monitor": monitor.name,
            "from_timesteps": start_steps,
            "to_timesteps": model.num_timesteps,
            # milliseconds: the split below subtracts these, and a short run's updates
            # would vanish into the rounding of whole hundredths
            "seconds": round(seconds, 3),
            "evaluation_seconds": round(evaluation.seconds, 3),
            "exploiter_seconds": round(exploiters.seconds, 3),
            "collection_seconds": round(timing.seconds, 3),
        }
    )
    if replayed is not None:
        info["segments"][-1]["replayed_deals"] = replayed
    total_steps = sum(s["to_timesteps"] - s["from_timesteps"] for s in info["segments"])
    total_seconds = sum(
        s["seconds"] - s["evaluation_seconds"] - s.get("exploiter_seconds", 0.0)
        for s in info["segments"]
    )
    info["throughput"] = {
        "timesteps": total_steps,
        "seconds": round(total_seconds, 3),
        "steps_per_second": round(total_steps / max(total_seconds, 1e-9), 1),
        "n_envs": config.n_envs,
        "vec_env": config.vec_env,
        "workers": config.workers,
        "threads": config.threads,
        "update_threads": config.update_threads or config.threads,
        "note": "env steps per second of `learn` (rollouts + updates), periodic evaluation "
        "and exploiters' training excluded",
    }
    collected = [segment.get("collection_seconds") for segment in info["segments"]]
    if None not in collected:  # segments trained before the timing was recorded have none
        collection = sum(collected)
        info["throughput"].update(
            collection_seconds=round(collection, 3),
            update_seconds=round(total_seconds - collection, 3),
        )
    (run_dir / "run.json").write_text(json.dumps(info, indent=2) + "\n")
    throughput = {
        "timesteps": steps,
        "seconds": learn_seconds,
        "steps_per_second": steps / learn_seconds,
        "collection_seconds": timing.seconds,
        "update_seconds": learn_seconds - timing.seconds,
        "exploiter_seconds": exploiters.seconds,
    }
    return TrainResult(run_dir, model, model.num_timesteps, throughput)
