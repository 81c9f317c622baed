"""Typed training configuration, read from ``configs/<game>.yaml`` and validated (pydantic).

A config file holds one game's run: the budget, the PPO hyperparameters, the evaluation
schedule and (for games with opponents) the opponent pool. Every key is optional except
``game``; a missing key takes the default below. Loading goes through ``yaml.safe_load`` and then
:func:`from_dict`; an unknown key or a bad value raises a :class:`ConfigError` naming the file
and the key's dotted path (``ppo.learning_rate: expected a number > 0, got 'fast'``)::

    game: poker_squares
    seed: 0
    timesteps: 300000
    n_envs: 16
    vec_env: auto          # auto | native | subproc | dummy
    workers: 1             # processes stepping the native tables (games of several players)
    pin_workers: auto      # bind each worker to a CPU: auto (when they fill them) | true | false
    threads: 1
    update_threads: 2      # torch threads during PPO's updates only (default: threads)
    actions: native        # or one of the game's action formulations
    env: {scoring: american}
    env_variants: []       # e.g. [{envs: 4, options: {scoring: english}}] (subproc/dummy envs)
    ppo: {learning_rate: 3.0e-4, n_steps: 128, net_arch: [256, 256]}
    evaluation: {every: 50000, episodes: 500, final_episodes: 2000}
    opponents: {bots: {random: 1, greedy: 1}, snapshot_weight: 0.5, snapshot_every: 50000,
                exploiter_at: [1000000]}
    backend: sb3           # or rllib: Ray RLlib, with the settings of the `rllib` section
    rllib: {num_env_runners: 2, train_batch_size: 4000, lr: 3.0e-4, fcnet_hiddens: [256, 256]}
    algorithm: ppo         # or td: the game's own value learner, with the `td` section
    td: {games: 6000000, minutes: 60, epsilon: 0.25, lam: 0.5, lookahead: true}

Thread count
------------
``threads`` (default 1) is the torch intra-op thread count, applied in the training process and
in every env worker (``SubprocVecEnv``'s, or the native tables' shards of ``workers``), and
numpy's BLAS thread count there too (through threadpoolctl). On small machines the default (one
thread per core) makes the PPO update fight the env workers for the cores: on 2 cores
MaskablePPO ran 11x slower with torch's default than with one thread while the other core was
busy, and the snapshots' numpy products (:mod:`~pokerzoo.training.numpy_actor`) slowed forked
workers on numpy's default BLAS threads.
"""

from __future__ import annotations

import typing
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    Field,
    SerializeAsAny,
    ValidationError,
    ValidationInfo,
    ValidatorFunctionWrapHandler,
    WrapValidator,
)

from .hooks import td_schema
from .schema import ConfigError, Number, Section

__all__ = [
    "ConfigError",
    "EnvVariant",
    "EvaluationConfig",
    "OpponentsConfig",
    "PPOConfig",
    "RLlibConfig",
    "TrainConfig",
    "from_dict",
    "load_config",
    "to_dict",
]


class PPOConfig(Section):
    """MaskablePPO hyperparameters (names and meanings as in sb3-contrib)."""

    learning_rate: Number = Field(3e-4, gt=0)
    """Adam step size (at the start of the run, where ``learning_rate_end`` is set)."""
    learning_rate_end: Number | None = Field(None, ge=0)
    """The step size at the run's last step, reached linearly from ``learning_rate`` over the
    run's ``timesteps`` (an exploiter's: over its own); null: ``learning_rate`` throughout."""
    n_steps: int = Field(128, ge=1)
    """Steps collected per env between updates (rollout = n_steps * n_envs)."""
    batch_size: int = Field(256, ge=2)
    """Minibatch size."""
    n_epochs: int = Field(4, ge=1)
    """Passes over each rollout."""
    gamma: Number = Field(0.99, ge=0, le=1)
    """Discount factor."""
    gae_lambda: Number = Field(0.95, ge=0, le=1)
    """GAE lambda."""
    clip_range: Number = Field(0.2, gt=0)
    """PPO clipping parameter."""
    ent_coef: Number = Field(0.01, ge=0)
    """Entropy bonus weight."""
    vf_coef: Number = Field(0.5, ge=0)
    """Value loss weight."""
    max_grad_norm: Number = Field(0.5, gt=0)
    """Gradient clipping norm."""
    target_kl: Number | None = Field(None, gt=0)
    """Stop an update early past this KL divergence (null: never)."""
    normalize_advantage: bool = True
    """Normalise advantages per minibatch."""
    net_arch: list[Annotated[int, Field(ge=1)]] = [256, 256]
    """Hidden layer sizes of the value network, and of the policy network for ``mlp``."""
    policy: Literal["mlp", "per_action"] = "mlp"
    """``mlp``: sb3-contrib's MlpPolicy (its rollouts sampled by
    :class:`pokerzoo.training.masked_sampling.MaskablePolicy`, to the bit as sb3-contrib
    samples them). ``per_action``: one shared scorer per action
    (:mod:`pokerzoo.training.policies`); needs a feature set with per-action rows."""
    head_arch: list[Annotated[int, Field(ge=1)]] = [64, 64]
    """``per_action``: hidden sizes of the shared action scorer."""
    context: int = Field(64, ge=1)
    """``per_action``: width of the learned summary of the whole observation."""
    activation: Literal["tanh", "relu"] = "relu"
    """Hidden-layer activation."""


class EvaluationConfig(Section):
    """When and how the agent is evaluated against the game's bots."""

    every: int = Field(50_000, ge=0)
    """Timesteps between periodic evaluations during training (0: none)."""
    episodes: int = Field(200, ge=1)
    """Games (deals) per bot at each periodic evaluation."""
    final_episodes: int = Field(1000, ge=0)
    """Games (deals) per bot in the evaluation after training (0: skip it)."""
    opponents: list[str] | None = None
    """Bots to evaluate against (null: every bot of the game)."""
    seed: int = Field(1_000_000, ge=0)
    """First deal's seed; evaluation deals never overlap the training seeds."""


class OpponentsConfig(Section):
    """Who the learner plays against in multi-player games (one-player games leave it out)."""

    bots: dict[str, Annotated[Number, Field(ge=0)]] = {}
    """Bot name -> sampling weight (weights need not sum to 1)."""
    runs: dict[str, Annotated[Number, Field(ge=0)]] = {}
    """Trained runs of the same game -> sampling weight, drawn like the bots: a run folder (its
    final model, else its latest checkpoint) or a saved model, relative to the working folder.
    A run plays its trained policy, deterministic, through its own features and action
    formulation: train an exploiter of a fixed agent (``bots: {}``, ``runs: {runs/agent: 1}``),
    then train the next agent against it (``backend: sb3`` only)."""
    snapshot_weight: Number = Field(0.0, ge=0)
    """Weight of "a frozen past snapshot of the learner" among the bots' weights."""
    snapshot_every: int = Field(0, ge=0)
    """Timesteps between snapshots (0: no self-play)."""
    max_snapshots: int = Field(5, ge=1)
    """Most recent snapshots kept in the pool."""
    replay_share: Number = Field(0.0, ge=0, le=1)
    """Hard-deal replay (:mod:`pokerzoo.training.replay`): while a table keeps deals its learner
    did not win against ``replay_bots``, the share of its deals that replay one of them (the
    same cards, seat and bots); 0: none."""
    replay_bots: list[str] = []
    """The bots whose deals the learner did not win are kept for replay (each must be in
    ``bots``; a deal is kept only when every opponent at its table is one of them)."""
    replay_capacity: int = Field(32, ge=1)
    """Most deals each table keeps for replay (the oldest goes first)."""
    replay_wins: int = Field(1, ge=1)
    """The replays in a row a kept deal must win to leave the table's buffer."""
    exploiter_at: list[Annotated[int, Field(ge=1)]] = []
    """Learner timesteps at which the run trains an exploiter of its learner (empty: none).
    There the learner is frozen (``exploiters/learner_N.zip``) and a fresh PPO run of this
    config whose only opponent is that frozen learner trains for ``exploiter_timesteps``
    (``exploiters/step_N``, a run folder of its own); it then joins the pool at
    ``exploiter_weight`` for the rest of the run, so the learner meets a best response to
    itself (one step of a policy-space response oracle per entry). The exploiters' time is
    reported apart from ``learn``'s; a timestep at or beyond the run's budget (a shorter
    ``--timesteps``) trains none, with a warning (``backend: sb3`` only)."""
    exploiter_timesteps: int = Field(500_000, ge=1)
    """Env steps each exploiter trains for."""
    exploiter_weight: Number = Field(0.5, ge=0)
    """Weight of each trained exploiter among the bots' weights."""


_SB3_PPO = PPOConfig()
"""The ``ppo`` section's defaults, which the ``rllib`` section's PPO settings share: either
backend trains with the same PPO unless the config says otherwise."""


class RLlibConfig(Section):
    """Ray RLlib's PPO and resources (``backend: rllib``; keys named as RLlib's ``PPOConfig``
    names them, the PPO settings defaulting to the ``ppo`` section's). How the resources map
    onto a cluster: docs/rllib.md."""

    address: str | None = None
    """Ray cluster to join (``HOST:6379`` as ``ray start --head`` prints it, or ``auto``);
    null: start Ray on this machine for the run."""
    num_env_runners: int = Field(2, ge=0)
    """Sampling actors (0: sample in the driver)."""
    num_envs_per_env_runner: int = Field(8, ge=1)
    """Tables each env runner steps together (RLlib's vector env: one forward pass of each
    module for all of them at each step; each table's bots are its own). 8 sampled 1.25-1.7x
    faster than 1 and about as fast as 32 (docs/rllib.md, Scale)."""
    num_cpus_per_env_runner: Number = Field(1, gt=0)
    """CPUs Ray reserves for each env runner."""
    num_learners: int = Field(0, ge=0)
    """Learner actors sharing the update (0: the update runs in the driver)."""
    num_cpus_per_learner: Number = Field(1, gt=0)
    """CPUs Ray reserves for each learner actor (num_learners > 0)."""
    train_batch_size: int = Field(4000, ge=1)
    """Env steps (every seat's decisions) sampled per iteration, per learner; the learner's
    own decisions are its share of them (about half at two seats)."""
    minibatch_size: int = Field(256, ge=1)
    """The learner's decisions per SGD minibatch."""
    num_epochs: int = Field(4, ge=1)
    """Passes over each iteration's batch."""
    lr: Number = Field(_SB3_PPO.learning_rate, gt=0)
    """Adam step size."""
    gamma: Number = Field(_SB3_PPO.gamma, ge=0, le=1)
    """Discount factor."""
    lambda_: Number = Field(_SB3_PPO.gae_lambda, ge=0, le=1)
    """GAE lambda (RLlib's keyword ``lambda_``)."""
    clip_param: Number = Field(_SB3_PPO.clip_range, gt=0)
    """PPO clipping parameter."""
    entropy_coeff: Number = Field(_SB3_PPO.ent_coef, ge=0)
    """Entropy bonus weight."""
    vf_loss_coeff: Number = Field(_SB3_PPO.vf_coef, ge=0)
    """Value loss weight."""
    vf_clip_param: Number = Field(10.0, gt=0)
    """Clip the value loss at this (in the learner's reward units)."""
    kl_coeff: Number = Field(0.0, ge=0)
    """Initial weight of the KL penalty (0: no KL term; PPO's clipping alone, as sb3)."""
    grad_clip: Number | None = Field(0.5, gt=0)
    """Gradient clipping norm (null: none)."""
    fcnet_hiddens: list[Annotated[int, Field(ge=1)]] = [256, 256]
    """Hidden layer sizes of the policy and of the value network."""
    fcnet_activation: Literal["tanh", "relu"] = "relu"
    """Hidden-layer activation."""
    vf_share_layers: bool = False
    """One network for the policy and the value (false: two)."""
    restart_failed_env_runners: bool = False
    """Replace an env runner that fails and go on (a cluster that may lose nodes). Off by
    default: a failure here is a bug (a masked action, a bot's error) and ends the run."""


_LEARNER_SECTIONS: dict[str, Callable[[], type[Section]]] = {"td": td_schema}
"""Each learner's section of the run config -> where its schema is found (beside the learner,
named by the games' training hooks)."""


def _learner_section(
    value: Any, handler: ValidatorFunctionWrapHandler, info: ValidationInfo
) -> Section:
    """A learner's section validated by its learner's own schema: its errors keep their place
    (``td.<key>``)."""
    schema = _LEARNER_SECTIONS[str(info.field_name)]()
    return value if isinstance(value, schema) else schema.model_validate(value)


LearnerSection = Annotated[SerializeAsAny[Section], WrapValidator(_learner_section)]
"""A learner's section (a key of :data:`_LEARNER_SECTIONS`): its learner's schema validates
it and dumps it."""


class EnvVariant(Section):
    """Some of the training envs on other env options (evaluation keeps ``env``'s)."""

    envs: int = Field(ge=1)
    """How many of the ``n_envs`` training envs play these options."""
    options: dict[str, Any]
    """Env options merged over ``env`` for those envs (validated by the env itself), e.g.
    nameless poker's ``{deals: [19, 20, 21, 22]}``: more of the deals the agent plays worst."""


class TrainConfig(Section):
    """One training run."""

    game: str
    """Game name, as ``pokerzoo list`` shows it."""
    seed: int = Field(0, ge=0)
    """Seeds the model, the envs, the bots and the opponent pool."""
    timesteps: int = Field(300_000, ge=1)
    """Total env steps of the learner."""
    n_envs: int = Field(16, ge=1)
    """Parallel envs collecting experience."""
    vec_env: Literal["auto", "native", "subproc", "dummy"] = "auto"
    """Vectorisation: native (a one-player game's own vector env; for a game of several
    players, its tables in one process, their bots asked in one batch:
    :mod:`pokerzoo.envs.core.seat_vector`), SubprocVecEnv, DummyVecEnv, or auto (native where
    the game has a native vector env or several players, else subproc)."""
    workers: int = Field(1, ge=1)
    """Processes stepping the native tables of a game of several players: the ``n_envs`` tables
    split into this many consecutive shards, each a vector env of bot tables with its features
    in a forked worker (:mod:`pokerzoo.training.sharded_vec_env`), so the shards collect on
    several cores at once; 1: every table in the training process. At most ``n_envs``. (SB3
    PPO's collection: RLlib's is ``rllib.num_env_runners``.)"""
    pin_workers: Literal["auto", True, False] = "auto"
    """Bind worker ``k`` of ``workers`` to the ``k``-th CPU the run may use (Linux only; see
    :func:`~pokerzoo.training.sharded_vec_env.worker_cpus`): ``"auto"`` binds them only when
    they fill every CPU evenly (on 2 cores, two workers: stud's default collected up to 1.2x as
    fast bound, draw poker's 1.1x), ``true`` always, ``false`` never (the OS places them). Where the
    work runs, not what it computes: a run trains the same weights either way."""
    threads: int = Field(1, ge=1)
    """torch's and numpy's BLAS threads in the trainer and in every env worker (see the
    module docstring)."""
    update_threads: int | None = Field(None, ge=1)
    """torch threads in the trainer during PPO's updates (``None``: ``threads``); collecting
    keeps ``threads``. While the updates run nothing else does (the env workers of
    ``workers``/``subproc`` wait), so the cores the collection shares can serve them. (SB3
    PPO's updates: ``backend: rllib`` runs ignore it, as they ignore ``workers``.)"""
    reward_scale: Number = Field(1.0, gt=0)
    """The learner's rewards are multiplied by this (logs and evaluations keep the game's
    points). Returns of order 1 keep PPO's joint gradient clipping from starving the policy."""
    actions: str = "native"
    """What the learner decides: ``"native"``, the game's own actions, or one of the game's
    action formulations (:mod:`pokerzoo.training.formulations`, e.g. Quintet's ``"packs"``:
    a whole pack and its position)."""
    features: str = "raw"
    """Observation features added for the policy (``"raw"``: none; each game's feature sets are
    in :mod:`pokerzoo.training.games`, a formulation's in the formulation)."""
    checkpoint_every: int = Field(100_000, ge=0)
    """Timesteps between checkpoints (0: none); a run resumes from its latest."""
    env: dict[str, Any] = {}
    """The game's env options (validated by the env itself)."""
    env_variants: list[EnvVariant] = []
    """Training envs on other options: the first ``envs`` of the ``n_envs`` play the first
    variant's options, the next the second's, and so on; the rest play ``env``. Evaluation and
    the learning curve play ``env``; the training episodes' returns (``monitor.csv``, the logs'
    ``ep_rew_mean``) mix all of them. (SB3 PPO with subproc or dummy envs only.)"""
    ppo: PPOConfig = PPOConfig()
    evaluation: EvaluationConfig = EvaluationConfig()
    opponents: OpponentsConfig = OpponentsConfig()
    backend: Literal["sb3", "rllib"] = "sb3"
    """What trains: ``sb3`` (MaskablePPO on this machine, the ``ppo`` section) or ``rllib``
    (Ray RLlib's PPO, local or on a cluster, the ``rllib`` section; games of several players)."""
    rllib: RLlibConfig = RLlibConfig()
    algorithm: Literal["ppo", "td"] = "ppo"
    """How the agent learns: ``ppo`` (a policy network, with the ``backend``'s trainer) or
    ``td`` (the game's own value learner, where its training hooks declare one, the ``td``
    section)."""
    td: LearnerSection = {}
    """The ``td`` learner's settings (its schema beside the learner, named by the games'
    training hooks: :func:`~pokerzoo.training.hooks.td_schema`)."""


def load_config(path: str | Path, overrides: Mapping[str, Any] | None = None) -> TrainConfig:
    """Read a YAML config (``yaml.safe_load``), apply top-level ``overrides`` (``None`` values
    keep the file's), validate; errors name the file and the key."""
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
    if not isinstance(data, Mapping):
        raise ConfigError(f"config: expected a mapping, got {data!r}")
    try:
        return TrainConfig.model_validate(dict(data))
    except ValidationError as error:
        raise ConfigError(_describe(error)) from None


def to_dict(config: BaseModel) -> dict[str, Any]:
    """Plain data (for YAML/JSON) of a config or one of its sections."""
    return config.model_dump()


# --- error messages ---------------------------------------------------------------------------
_LIMITS = {"greater_than": ">", "greater_than_equal": ">=", "less_than_equal": "<="}


def _annotation(loc: tuple[Any, ...]) -> Any:
    """The type (without its constraints) of the value at ``loc``: a field, a list item or a
    mapping value; ``None`` where the path leaves the declared types."""
    current: Any = TrainConfig
    for part in loc:
        if current is TrainConfig and part in _LEARNER_SECTIONS:  # the field says only Section
            current = _LEARNER_SECTIONS[part]()
            continue
        fields = getattr(current, "model_fields", None)
        if fields is not None:
            if part not in fields:
                return None
            current = fields[part].annotation
            continue
        origin, args = typing.get_origin(current), typing.get_args(current)
        if origin is list and args:
            current = args[0]
        elif origin is dict and len(args) == 2:
            current = args[1]
        else:
            return None
        if typing.get_origin(current) is Annotated:
            current = typing.get_args(current)[0]
    return current


def _expected(error: Mapping[str, Any]) -> str:
    kind = error["type"]
    loc = error["loc"]
    annotation = _annotation(loc)
    if kind == "missing":
        return "missing (required)"
    if kind == "extra_forbidden":
        parent = _annotation(loc[:-1]) if len(loc) > 1 else TrainConfig
        known = ", ".join(getattr(parent, "model_fields", {}))
        return f"unknown key (expected one of: {known})"
    integer = annotation is int or annotation == int | None or kind.startswith("int_")
    noun = "an integer" if integer else "a number"
    if kind in _LIMITS:
        limit = format(next(iter(error["ctx"].values())), "g")
        each = " (each" if isinstance(loc[-1], int) else ""
        close = ")" if each else ""
        return f"expected {noun}{each} {_LIMITS[kind]} {limit}{close}"
    if kind.startswith(("int_", "float_")):
        return f"expected {noun}"
    if kind == "bool_type":
        return "expected true or false"
    if kind == "string_type":
        return "expected a string"
    if kind == "literal_error":
        return f"expected one of {error['ctx']['expected']}"
    if kind == "list_type":
        return "expected a list"
    if kind in ("dict_type", "model_type", "model_attributes_type"):
        return "expected a mapping"
    return error["msg"]


def _describe(error: ValidationError) -> str:
    """The first error of a validation, as ``dotted.path: expected ..., got value``.

    A list item's index names the list itself (``ppo.net_arch``), so every message starts with
    a key of the file; an index into a list of sections stays (``env_variants.0.envs``).
    """
    first = error.errors()[0]
    loc = list(first["loc"])
    kept = [p for i, p in enumerate(loc) if not isinstance(p, int) or i + 1 < len(loc)]
    path = ".".join(str(p) for p in kept) or "config"
    expected = _expected(first)
    if first["type"] in ("missing", "extra_forbidden"):
        return f"{path}: {expected}"
    return f"{path}: {expected}, got {first['input']!r}"
