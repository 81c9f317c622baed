"""Typed training configuration, read from ``configs/<game>.yaml`` and validated.

A config file holds one game's run: the budget, the PPO hyperparameters, the evaluation
schedule and (for games with opponents) the opponent pool. Every key is optional except
``game``; a missing key takes the default below. Loading goes through ``yaml.safe_load`` and then
:func:`from_dict`, which rejects an unknown key or a bad value with a :class:`ConfigError` naming
its dotted path (``ppo.learning_rate: expected a number > 0, got 'fast'``)::

    game: poker_squares
    seed: 0
    timesteps: 300000
    n_envs: 16
    vec_env: auto          # auto | native | subproc | dummy
    threads: 1
    env: {scoring: american}
    ppo: {learning_rate: 3.0e-4, n_steps: 128, net_arch: [256, 256]}
    evaluation: {every: 50000, episodes: 500, final_episodes: 2000}
    opponents: {bots: {random: 1, greedy: 1}, snapshot_weight: 0.5, snapshot_every: 50000}

Thread count
------------
``threads`` (default 1) is the torch intra-op thread count, applied in the training process and
in every ``SubprocVecEnv`` worker. On small machines the default (one thread per core) makes
the PPO update fight the env workers for the cores: on 2 cores MaskablePPO ran 11x slower with
torch's default than with one thread while the other core was busy.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, Union

__all__ = [
    "ConfigError",
    "EvaluationConfig",
    "OpponentsConfig",
    "PPOConfig",
    "TrainConfig",
    "from_dict",
    "load_config",
    "to_dict",
]


class ConfigError(ValueError):
    """A config key is unknown or its value is bad; the message names the key's dotted path."""


def _min(low: float, strict: bool = False) -> dict[str, Any]:
    return {"min": low, "strict": strict}


@dataclass
class PPOConfig:
    """MaskablePPO hyperparameters (names and meanings as in sb3-contrib)."""

    learning_rate: float = field(default=3e-4, metadata=_min(0, strict=True))
    """Adam step size."""
    n_steps: int = field(default=128, metadata=_min(1))
    """Steps collected per env between updates (rollout = n_steps * n_envs)."""
    batch_size: int = field(default=256, metadata=_min(2))
    """Minibatch size."""
    n_epochs: int = field(default=4, metadata=_min(1))
    """Passes over each rollout."""
    gamma: float = field(default=0.99, metadata={"min": 0, "max": 1})
    """Discount factor."""
    gae_lambda: float = field(default=0.95, metadata={"min": 0, "max": 1})
    """GAE lambda."""
    clip_range: float = field(default=0.2, metadata=_min(0, strict=True))
    """PPO clipping parameter."""
    ent_coef: float = field(default=0.01, metadata=_min(0))
    """Entropy bonus weight."""
    vf_coef: float = field(default=0.5, metadata=_min(0))
    """Value loss weight."""
    max_grad_norm: float = field(default=0.5, metadata=_min(0, strict=True))
    """Gradient clipping norm."""
    target_kl: float | None = field(default=None, metadata=_min(0, strict=True))
    """Stop an update early past this KL divergence (null: never)."""
    normalize_advantage: bool = True
    """Normalise advantages per minibatch."""
    net_arch: list[int] = field(default_factory=lambda: [256, 256])
    """Hidden layer sizes of the value network, and of the policy network for ``mlp``."""
    policy: Literal["mlp", "per_action"] = "mlp"
    """``mlp``: sb3's MlpPolicy. ``per_action``: one shared scorer per action
    (:mod:`pokerzoo.training.policies`); needs a feature set with per-action rows."""
    head_arch: list[int] = field(default_factory=lambda: [64, 64])
    """``per_action``: hidden sizes of the shared action scorer."""
    context: int = field(default=64, metadata=_min(1))
    """``per_action``: width of the learned summary of the whole observation."""
    activation: Literal["tanh", "relu"] = "relu"
    """Hidden-layer activation."""


@dataclass
class EvaluationConfig:
    """When and how the agent is evaluated against the game's bots."""

    every: int = field(default=50_000, metadata=_min(0))
    """Timesteps between periodic evaluations during training (0: none)."""
    episodes: int = field(default=200, metadata=_min(1))
    """Games (deals) per bot at each periodic evaluation."""
    final_episodes: int = field(default=1000, metadata=_min(0))
    """Games (deals) per bot in the evaluation after training (0: skip it)."""
    opponents: list[str] | None = None
    """Bots to evaluate against (null: every bot of the game)."""
    seed: int = field(default=1_000_000, metadata=_min(0))
    """First deal's seed; evaluation deals never overlap the training seeds."""


@dataclass
class OpponentsConfig:
    """Who the learner plays against in multi-player games (ignored by one-player games)."""

    bots: dict[str, float] = field(default_factory=dict)
    """Bot name -> sampling weight (weights need not sum to 1)."""
    snapshot_weight: float = field(default=0.0, metadata=_min(0))
    """Weight of "a frozen past snapshot of the learner" among the bots' weights."""
    snapshot_every: int = field(default=0, metadata=_min(0))
    """Timesteps between snapshots (0: no self-play)."""
    max_snapshots: int = field(default=5, metadata=_min(1))
    """Most recent snapshots kept in the pool."""


@dataclass
class TrainConfig:
    """One training run."""

    game: str
    """Game name, as ``pokerzoo list`` shows it."""
    seed: int = field(default=0, metadata=_min(0))
    """Seeds the model, the envs, the bots and the opponent pool."""
    timesteps: int = field(default=300_000, metadata=_min(1))
    """Total env steps of the learner."""
    n_envs: int = field(default=16, metadata=_min(1))
    """Parallel envs collecting experience."""
    vec_env: Literal["auto", "native", "subproc", "dummy"] = "auto"
    """Vectorisation: the game's native vector env, SubprocVecEnv, DummyVecEnv, or auto
    (native where the game has one, else subproc)."""
    threads: int = field(default=1, metadata=_min(1))
    """torch threads in the trainer and in every env worker (see the module docstring)."""
    reward_scale: float = field(default=1.0, metadata=_min(0, strict=True))
    """The learner's rewards are multiplied by this (logs and evaluations keep the game's
    points). Returns of order 1 keep PPO's joint gradient clipping from starving the policy."""
    features: str = "raw"
    """Observation features added for the policy (``"raw"``: none; the game's feature sets are
    listed in :mod:`pokerzoo.training.features`)."""
    checkpoint_every: int = field(default=100_000, metadata=_min(0))
    """Timesteps between checkpoints (0: none); a run resumes from its latest."""
    env: dict[str, Any] = field(default_factory=dict)
    """The game's env options (validated by the env itself)."""
    ppo: PPOConfig = field(default_factory=PPOConfig)
    evaluation: EvaluationConfig = field(default_factory=EvaluationConfig)
    opponents: OpponentsConfig = field(default_factory=OpponentsConfig)


def load_config(path: str | Path, overrides: Mapping[str, Any] | None = None) -> TrainConfig:
    """Read a YAML config (``yaml.safe_load``), apply top-level ``overrides``, validate."""
    import yaml

    path = Path(path)
    try:
        text = path.read_text()
    except OSError as error:
        raise ConfigError(f"cannot read config {path}: {error.strerror}") from error
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as error:
        raise ConfigError(f"{path}: not valid YAML: {error}") from error
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: expected a mapping of keys, got {type(data).__name__}")
    data = {**data, **{k: v for k, v in (overrides or {}).items() if v is not None}}
    try:
        return from_dict(data)
    except ConfigError as error:
        raise ConfigError(f"{path}: {error}") from None


def from_dict(data: Mapping[str, Any]) -> TrainConfig:
    """Build and validate a :class:`TrainConfig` from plain data."""
    return _build(TrainConfig, data, "")


def to_dict(config: Any) -> dict[str, Any]:
    """Plain data (for YAML/JSON) of a config dataclass."""
    return dataclasses.asdict(config)


def _build(cls: type, data: Any, prefix: str) -> Any:
    if not isinstance(data, Mapping):
        raise ConfigError(f"{prefix.rstrip('.') or 'config'}: expected a mapping, got {data!r}")
    hints = typing.get_type_hints(cls)
    fields = {f.name: f for f in dataclasses.fields(cls)}
    for key in data:
        if key not in fields:
            known = ", ".join(fields)
            raise ConfigError(f"{prefix}{key}: unknown key (expected one of: {known})")
    values: dict[str, Any] = {}
    for name, spec in fields.items():
        path = prefix + name
        if name not in data:
            if spec.default is dataclasses.MISSING and spec.default_factory is dataclasses.MISSING:
                raise ConfigError(f"{path}: missing (required)")
            continue
        values[name] = _check(hints[name], data[name], path, spec.metadata)
    return cls(**values)


def _describe(tp: Any) -> str:
    origin = typing.get_origin(tp)
    if tp is bool:
        return "true or false"
    if tp is int:
        return "an integer"
    if tp is float:
        return "a number"
    if tp is str:
        return "a string"
    if origin is Literal:
        return "one of " + ", ".join(repr(a) for a in typing.get_args(tp))
    if origin is list:
        return f"a list of {_describe(typing.get_args(tp)[0]).removeprefix('a ')}s"
    if origin is dict:
        return "a mapping"
    if _is_optional(tp):
        inner = [a for a in typing.get_args(tp) if a is not type(None)][0]
        return f"{_describe(inner)} or null"
    return str(tp)


def _is_optional(tp: Any) -> bool:
    origin = typing.get_origin(tp)
    return origin in (Union, types.UnionType) and type(None) in typing.get_args(tp)


def _check(tp: Any, value: Any, path: str, meta: Mapping[str, Any]) -> Any:
    def bad(extra: str = "") -> ConfigError:
        return ConfigError(f"{path}: expected {_describe(tp)}{extra}, got {value!r}")

    origin = typing.get_origin(tp)
    if dataclasses.is_dataclass(tp):
        return _build(tp, value if value is not None else {}, path + ".")
    if _is_optional(tp):
        if value is None:
            return None
        inner = [a for a in typing.get_args(tp) if a is not type(None)][0]
        return _check(inner, value, path, meta)
    if tp is bool:
        if not isinstance(value, bool):
            raise bad()
        return value
    if tp in (int, float):
        # YAML reads "3e-4" (no dot) as a string; accept it for floats.
        if tp is float and isinstance(value, str):
            try:
                value = float(value)
            except ValueError:
                raise bad() from None
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise bad()
        if tp is int and not float(value).is_integer():
            raise bad()
        value = tp(value)
        low, high = meta.get("min"), meta.get("max")
        if low is not None and (value < low or (meta.get("strict") and value == low)):
            raise bad(f" {'>' if meta.get('strict') else '>='} {low}")
        if high is not None and value > high:
            raise bad(f" <= {high}")
        return value
    if tp is str:
        if not isinstance(value, str):
            raise bad()
        return value
    if origin is Literal:
        if value not in typing.get_args(tp):
            raise bad()
        return value
    if origin is list:
        if not isinstance(value, list):
            raise bad()
        (item,) = typing.get_args(tp)
        items = [_check(item, v, f"{path}[{i}]", {}) for i, v in enumerate(value)]
        if item is int and any(v < 1 for v in items):
            raise bad(" (each >= 1)")
        return items
    if origin is dict:
        if not isinstance(value, dict):
            raise bad()
        _, item = typing.get_args(tp)
        out = {}
        for k, v in value.items():
            if not isinstance(k, str):
                raise ConfigError(f"{path}: keys must be strings, got {k!r}")
            out[k] = v if item is Any else _check(item, v, f"{path}.{k}", _min(0))
        return out
    raise TypeError(f"unsupported config type {tp} at {path}")  # a bug in this module
