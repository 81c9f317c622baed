"""The RLModules of the rllib backend: the learner's PPO module with the action mask applied to
its logits, frozen snapshots of it (the self-play league), and the pool's bots as fixed
modules.

:class:`MaskedPPOModule` is RLlib's default PPO actor-critic built over the ``observations``
entry of :func:`~.table.observation_dict`; every forward pass adds ``FLOAT_MIN`` to the logits
of the actions the ``action_mask`` entry forbids, so sampling, the deterministic choice and the
PPO loss never give them probability. Its ``model_config`` carries ``threads``: the module is
built in every process that runs it (the driver, each learner, each env runner), which is where
torch's thread count is set.

:class:`SnapshotModule` is the learner's module frozen: the run copies the learner's weights
into it (:mod:`.league`) and leaves it out of ``policies_to_train``; it plays its most likely
legal action, as an SB3 snapshot (:class:`~pokerzoo.training.opponents.PolicyBot`) does. It
keeps no state, so one module answers any number of seats and observations.

:class:`BotModule` wraps one :class:`~pokerzoo.agents.base.Bot`: never trained (``forward_train``
raises, and the algorithm config leaves bots out of ``policies_to_train``), it acts through the
bot's ``act``. A bot keeps state within a game, so each module plays one position (the table
names a module per bot and position, :func:`~.table.bot_id`) with one bot per table: a bot
role's observation carries its table's id (:data:`~.table.TABLE`), and a forward pass over the
observations of several tables (an env runner's vector env, ``num_envs_per_env_runner``) asks
each table's bot for its own row.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch
from ray.rllib.algorithms.ppo.torch.default_ppo_torch_rl_module import DefaultPPOTorchRLModule
from ray.rllib.core.columns import Columns
from ray.rllib.core.rl_module.rl_module import RLModule
from ray.rllib.utils.torch_utils import FLOAT_MIN

from ...envs.core.registry import get_game
from .table import ACTION_MASK, OBSERVATIONS, TABLE

__all__ = ["BotModule", "MaskedPPOModule", "SnapshotModule"]


class MaskedPPOModule(DefaultPPOTorchRLModule):
    """PPO's default actor-critic over ``observations``, its logits masked by ``action_mask``."""

    def __init__(self, *, observation_space: Any, action_space: Any, **kwargs: Any) -> None:
        # The networks are built for the observation alone; the module keeps the dict space,
        # which RLlib reads back to rebuild it from a checkpoint.
        self._dict_space = observation_space
        super().__init__(
            observation_space=observation_space[OBSERVATIONS], action_space=action_space, **kwargs
        )

    def setup(self) -> None:
        threads = (self.model_config or {}).get("threads")
        if threads:
            torch.set_num_threads(int(threads))
        super().setup()
        self.observation_space = self._dict_space

    def _forward_inference(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        mask, inputs = _split(batch)
        return _masked(super()._forward_inference(inputs, **kwargs), mask)

    def _forward_exploration(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        mask, inputs = _split(batch)
        return _masked(super()._forward_exploration(inputs, **kwargs), mask)

    def _forward_train(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        mask, inputs = _split(batch)
        return _masked(super()._forward_train(inputs, **kwargs), mask)

    def compute_values(self, batch: dict[str, Any], embeddings: Any = None) -> Any:
        if embeddings is None:
            _, batch = _split(batch)
        return super().compute_values(batch, embeddings)


class SnapshotModule(MaskedPPOModule):
    """A frozen copy of the learner's module: its deterministic masked choice, never trained
    (see the module docstring)."""

    def _forward_exploration(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        outputs = self._forward_inference(batch, **kwargs)
        # Actions in the output: RLlib's connector samples none from the logits.
        outputs[Columns.ACTIONS] = outputs[Columns.ACTION_DIST_INPUTS].argmax(dim=-1)
        return outputs

    def _forward_train(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        raise NotImplementedError("a snapshot of the learner is frozen: it is not trained")


def _split(batch: dict[str, Any]) -> tuple[torch.Tensor, dict[str, Any]]:
    """The mask and a shallow copy of ``batch`` whose observation is the float observation
    alone (the caller's batch is left as it was: RLlib passes one batch to several calls)."""
    seen = batch[Columns.OBS]
    inputs = dict(batch)
    inputs[Columns.OBS] = torch.as_tensor(seen[OBSERVATIONS]).float()
    return torch.as_tensor(seen[ACTION_MASK]), inputs


def _masked(outputs: dict[str, Any], mask: torch.Tensor) -> dict[str, Any]:
    logits = outputs[Columns.ACTION_DIST_INPUTS]
    outputs[Columns.ACTION_DIST_INPUTS] = logits.masked_fill(mask == 0, FLOAT_MIN)
    return outputs


def _numpy(value: Any) -> np.ndarray:
    return value.numpy() if isinstance(value, torch.Tensor) else np.asarray(value)


class BotModule(RLModule):
    """One pokerzoo bot as a fixed RLModule (see the module docstring).

    ``model_config``: ``game`` (registry name), ``bot`` (the bot's name), ``options`` (what the
    bot is built with: the env's options and the game's evaluation options, as the SB3 pool
    builds its bots).
    """

    def setup(self) -> None:
        self._bots: dict[int, Any] = {}

    def bot(self, table: int) -> Any:
        """Table ``table``'s bot, built on first use (learners build every module but never
        run a bot)."""
        bot = self._bots.get(table)
        if bot is None:
            config = self.model_config
            bot = self._bots[table] = get_game(config["game"]).make_bot(
                config["bot"], seed=None, **config["options"]
            )
        return bot

    def reset(self, seed: int | None, table: int) -> None:
        """Start a game at ``table``: re-seed its bot (the training callback calls it at each
        of the table's episodes)."""
        self.bot(table).reset(seed)

    def _forward_inference(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        seen = batch[Columns.OBS]
        observations, masks = _numpy(seen[OBSERVATIONS]), _numpy(seen[ACTION_MASK])
        tables = _numpy(seen[TABLE]).tolist()
        actions = [
            self.bot(table).act(observation, mask)
            for table, observation, mask in zip(tables, observations, masks, strict=True)
        ]
        return {Columns.ACTIONS: np.array(actions)}

    def _forward_exploration(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        return self._forward_inference(batch, **kwargs)

    def _forward_train(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        raise NotImplementedError(f"bot {self.model_config['bot']!r} is fixed: it is not trained")
