"""What the rllib backend checks and takes from the command line before Ray is imported."""

from __future__ import annotations

import logging
from typing import Any

from ...envs.core.registry import GameSpec
from ..config import ConfigError, PPOConfig, TrainConfig, from_dict, to_dict
from ..formulations import NATIVE

__all__ = ["league_slots", "validate_for_rllib", "with_overrides"]

log = logging.getLogger(__name__)


def league_slots(config: TrainConfig) -> int:
    """How many snapshot modules ``config``'s run keeps for its self-play league:
    ``opponents.max_snapshots`` when it asks for snapshots (``snapshot_weight`` and
    ``snapshot_every`` > 0) in the game's own actions, else 0 (no league; an action
    formulation's run has none, see :func:`validate_for_rllib`)."""
    opponents = config.opponents
    asked = opponents.snapshot_weight > 0 and opponents.snapshot_every > 0
    return opponents.max_snapshots if asked and config.actions == NATIVE else 0


def validate_for_rllib(config: TrainConfig, spec: GameSpec) -> None:
    """The game's checks (env options, bot names, the opponent pool, the action formulation,
    features), then the backend's own: a game of several players (the learner against the
    pool's bots). The learner's snapshots (self-play league) are kept in the game's own
    actions only: a run in an action formulation that asks for them trains against its bots
    alone, and says so."""
    from ..train import validate_for_game

    if config.opponents.runs:
        raise ConfigError(
            "opponents.runs: the rllib backend plays the bots and the learner's snapshots, not "
            f"trained runs ({sorted(config.opponents.runs)}); train against runs with backend sb3"
        )
    # The keys only SB3 reads (ppo, vec_env, workers) are left out: a shipped config's SB3
    # policy (e.g. ppo.policy: per_action over a formulation's features) and how SB3 collects
    # are no concern of this run (RLlib collects with the `rllib` section's env runners).
    validate_for_game(
        config.model_copy(update={"ppo": PPOConfig(), "vec_env": "auto", "workers": 1}), spec
    )
    if spec.players == 1:
        raise ConfigError(
            f"backend: rllib trains games of several players; {spec.title} is a one-player "
            "game (use backend sb3)"
        )
    opponents = config.opponents
    if opponents.exploiter_at:
        # stud's shipped config trains one; its rllib runs train as the docs show, without it
        log.warning(
            "opponents.exploiter_at %s: the rllib backend trains no exploiters of its learner "
            "(backend sb3 does); it trains against the bots and snapshots only",
            opponents.exploiter_at,
        )
    if opponents.replay_share > 0:
        log.warning(
            "opponents.replay_share %s: the rllib backend replays no deals (backend sb3 does); "
            "every deal is a fresh one",
            opponents.replay_share,
        )
    asked = opponents.snapshot_weight > 0 and opponents.snapshot_every > 0
    if asked and not league_slots(config):
        log.warning(
            "opponents.snapshot_weight: the rllib backend keeps no snapshots of the learner in "
            "an action formulation (actions: %s); it trains against the bots %s only",
            config.actions,
            sorted(name for name, weight in opponents.bots.items() if weight > 0),
        )


def with_overrides(config: TrainConfig, **overrides: Any) -> TrainConfig:
    """``config`` with keys of its ``rllib`` section replaced (``None`` keeps the config's),
    validated again."""
    updates = {key: value for key, value in overrides.items() if value is not None}
    if not updates:
        return config
    return from_dict({**to_dict(config), "rllib": {**to_dict(config.rllib), **updates}})
