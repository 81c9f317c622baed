"""RLlib's PPO ``AlgorithmConfig`` of a training run, built from the run's :class:`TrainConfig`.

- The env: :class:`~.env.TableEnv` (:class:`~.env.SeatEnv` in an action formulation),
  ``num_envs_per_env_runner`` tables per env runner (RLlib's vector env; a bot module keeps one
  bot per table, see :mod:`.modules`).
- Modules: :data:`~.table.LEARNER`, a :class:`~.modules.MaskedPPOModule`, the only one trained;
  one :class:`~.modules.BotModule` per bot of the pool and position at the table (none in an
  action formulation: the bots play inside the env); with a self-play league,
  ``opponents.max_snapshots`` :class:`~.modules.SnapshotModule` slots built as the learner's
  (:func:`~.table.snapshot_module`; :mod:`.league` fills them). Agent ids are module ids
  (:mod:`.table`), but for a snapshot's, which maps to its slot (:func:`~.table.module_of`).
- :class:`TableCallbacks`: at each episode's start, re-seed the table's seated bots with the
  seeds the table drew; at its end, count the actions that
  were checked against their masks (the metric ``actions_checked``) and the seats snapshots
  took (``snapshot_seats``).
- Training settings, resources and the seed from the config's ``rllib`` section and top-level
  keys; the learner's rewards are scaled by ``reward_scale``.
"""

from __future__ import annotations

from typing import Any

from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.callbacks.callbacks import RLlibCallback
from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
from ray.rllib.core.rl_module.rl_module import RLModuleSpec

from ...envs.core.registry import get_game
from ..config import TrainConfig
from .env import env_class, env_config
from .modules import BotModule, MaskedPPOModule, SnapshotModule
from .table import LEARNER, module_of, snapshot_module

__all__ = ["ACTIONS_CHECKED", "SNAPSHOT_SEATS", "TableCallbacks", "algorithm_config"]

ACTIONS_CHECKED = "actions_checked"
"""Env-runner metric: actions checked against the acting seat's mask (all legal: a masked
one raises in the env)."""
SNAPSHOT_SEATS = "snapshot_seats"
"""Env-runner metric: seats of finished episodes taken by snapshots of the learner."""


class TableCallbacks(RLlibCallback):
    """Bot re-seeding and the masked-action count (see the module docstring)."""

    def on_episode_start(self, *, env: Any, env_index: int, rl_module: Any, **kwargs: Any) -> None:
        table = env.envs[env_index].unwrapped
        for role, seed in table.bot_seeds.items():
            rl_module[role].reset(seed, table.table_id)

    def on_episode_end(
        self, *, env: Any, env_index: int, metrics_logger: Any, **kwargs: Any
    ) -> None:
        table = env.envs[env_index].unwrapped
        metrics_logger.log_value(ACTIONS_CHECKED, table.actions_checked, reduce="lifetime_sum")
        metrics_logger.log_value(SNAPSHOT_SEATS, table.snapshot_seats, reduce="lifetime_sum")


def _module_of(agent_id: str, episode: Any = None, **kwargs: Any) -> str:
    """Agent ids name their modules, a snapshot's its slot (:mod:`.table`)."""
    return module_of(agent_id)


def algorithm_config(config: TrainConfig) -> PPOConfig:
    """RLlib's PPO config for ``config`` (validated already; see the module docstring)."""
    settings = config.rllib
    spec = get_game(config.game)
    data = env_config(config)
    env = env_class(config)
    table = env(data)
    bot_options = {**config.env, **spec.scoring.eval_options}
    learner = RLModuleSpec(
        module_class=MaskedPPOModule,
        observation_space=table.observation_spaces[LEARNER],
        action_space=table.action_spaces[LEARNER],
        model_config={
            "fcnet_hiddens": list(settings.fcnet_hiddens),
            "fcnet_activation": settings.fcnet_activation,
            "vf_share_layers": settings.vf_share_layers,
            "threads": config.threads,
        },
    )
    modules = {LEARNER: learner}
    for slot in range(data["snapshot_slots"]):
        modules[snapshot_module(slot)] = RLModuleSpec(
            module_class=SnapshotModule,
            observation_space=learner.observation_space,
            action_space=learner.action_space,
            model_config=learner.model_config,
        )
    for role, name in table.bot_of.items():
        modules[role] = RLModuleSpec(
            module_class=BotModule,
            observation_space=table.observation_spaces[role],
            action_space=table.action_spaces[role],
            model_config={"game": spec.name, "bot": name, "options": bot_options},
        )
    return (
        PPOConfig()
        # RLlib's env checker steps with unmasked random actions, which the table rejects.
        .environment(env, env_config=data, disable_env_checking=True)
        .env_runners(
            num_env_runners=settings.num_env_runners,
            num_envs_per_env_runner=settings.num_envs_per_env_runner,
            num_cpus_per_env_runner=settings.num_cpus_per_env_runner,
            # RLlib 2.60's multi-agent env runner converts every finished episode of a sample
            # call again after each env step when this is on: quadratic in the episodes per
            # call, which dominated sampling (8 of 14 ms per step at ~4 steps per hand).
            episodes_to_numpy=False,
        )
        .learners(
            num_learners=settings.num_learners,
            num_cpus_per_learner=settings.num_cpus_per_learner,
        )
        .multi_agent(
            policies=set(modules), policy_mapping_fn=_module_of, policies_to_train=[LEARNER]
        )
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs=modules))
        .training(
            train_batch_size_per_learner=settings.train_batch_size,
            minibatch_size=settings.minibatch_size,
            num_epochs=settings.num_epochs,
            lr=settings.lr,
            gamma=settings.gamma,
            lambda_=settings.lambda_,
            clip_param=settings.clip_param,
            entropy_coeff=settings.entropy_coeff,
            vf_loss_coeff=settings.vf_loss_coeff,
            vf_clip_param=settings.vf_clip_param,
            use_kl_loss=settings.kl_coeff > 0,
            kl_coeff=settings.kl_coeff,
            grad_clip=settings.grad_clip,
        )
        .callbacks(TableCallbacks)
        .fault_tolerance(restart_failed_env_runners=settings.restart_failed_env_runners)
        .debugging(seed=config.seed, log_level="WARN")
    )
