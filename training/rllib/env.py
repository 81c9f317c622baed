"""The RLlib env of a training run: :class:`~.table.BotTable` under RLlib's ``MultiAgentEnv``
(:class:`TableEnv`), or :class:`~.table.SeatTable` for a run in an action formulation
(:class:`SeatEnv`; :func:`env_class` picks it).

RLlib builds it in every env runner from the run's ``env_config`` (:func:`env_config`), so
everything it needs is plain data: the game, its options, the pool's bots, the action
formulation's and the feature set's names, the learner's reward scale, torch's thread count
for the env runner's process, and the self-play league's ``snapshot_weight`` and
``snapshot_slots`` (:func:`~.settings.league_slots`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ray.rllib.env.multi_agent_env import MultiAgentEnv

from ...envs.core.registry import get_game
from ..config import TrainConfig
from ..formulations import NATIVE
from ..hooks import feature_set
from .settings import league_slots
from .table import BotTable, SeatTable, seat_env

__all__ = ["SeatEnv", "TableEnv", "env_class", "env_config"]


def env_config(config: TrainConfig) -> dict[str, Any]:
    """The plain data :func:`env_class`'s env is built from, for ``config``."""
    return {
        "game": config.game,
        "options": dict(config.env),
        "bots": {name: float(w) for name, w in config.opponents.bots.items() if w > 0},
        "actions": config.actions,
        "features": config.features,
        "reward_scale": float(config.reward_scale),
        "threads": config.threads,
        "snapshot_weight": float(config.opponents.snapshot_weight),
        "snapshot_slots": league_slots(config),
    }


def env_class(config: TrainConfig) -> type[TableEnv] | type[SeatEnv]:
    """The env of ``config``'s run: the bots as RLlib agents in the game's own actions, else
    the learner's seat of its action formulation, the bots inside."""
    return TableEnv if config.actions == NATIVE else SeatEnv


def _set_threads(config: Mapping[str, Any]) -> None:
    import torch

    # The env runner's process runs the learner's module for inference: one thread each
    # (``threads``), not one per core, so env runners and the update share the cores.
    torch.set_num_threads(int(config["threads"]))


class TableEnv(BotTable, MultiAgentEnv):
    """The learner against the pool's bots, as RLlib's multi-agent env (see :mod:`.table`)."""

    def __init__(self, config: Mapping[str, Any]) -> None:
        _set_threads(config)
        MultiAgentEnv.__init__(self)
        spec = get_game(config["game"])
        BotTable.__init__(
            self,
            spec.make_aec(**config["options"]),
            config["bots"],
            feature_set(spec, config["features"]),
            config["reward_scale"],
            config["snapshot_weight"],
            config["snapshot_slots"],
        )


class SeatEnv(SeatTable, MultiAgentEnv):
    """The learner's seat in an action formulation, the bots inside, as RLlib's multi-agent env
    of one agent (see :mod:`.table`)."""

    def __init__(self, config: Mapping[str, Any]) -> None:
        _set_threads(config)
        MultiAgentEnv.__init__(self)
        spec = get_game(config["game"])
        env = seat_env(config["game"], config["options"], config["bots"], config["actions"])
        SeatTable.__init__(
            self,
            env,
            feature_set(spec, config["features"], config["actions"]),
            config["reward_scale"],
        )
