"""An RLlib checkpoint of the rllib backend as the batched
:data:`~pokerzoo.training.evaluate.Policy` that evaluation plays, so ``pokerzoo evaluate`` runs
an RLlib run through the same tables and duplicate deals as an SB3 one.

The learner's module is read from the checkpoint alone (no Ray instance is started): RLlib
stores each module under ``learner_group/learner/rl_module/<module id>``. The policy is the
module's deterministic choice, the most likely legal action (its masked logits' argmax), as an
SB3 agent is evaluated with ``deterministic=True``. A run in an action formulation decides in
the formulation's terms: :func:`agent_policy` turns its decisions into the game's own actions
(the formulation's ``native_policy``), as :func:`~pokerzoo.training.hooks.agent_policy` does
for an SB3 model.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import torch
from ray.rllib.core.columns import Columns
from ray.rllib.core.rl_module.rl_module import RLModule

from ...envs.core.registry import GameSpec
from ..evaluate import Policy
from ..formulations import NATIVE
from ..hooks import feature_set, formulation
from .table import LEARNER, observation_dict

__all__ = ["agent_policy", "checkpoint_policy", "learner_module", "module_policy"]

_MODULES = Path("learner_group", "learner", "rl_module")


def learner_module(checkpoint: str | Path) -> Any:
    """The learner's RLModule of an RLlib checkpoint folder (an ``Algorithm.save_to_path``)."""
    path = (Path(checkpoint) / _MODULES / LEARNER).resolve()  # RLlib reads URIs: absolute
    if not path.is_dir():
        raise FileNotFoundError(f"{checkpoint} is not an RLlib checkpoint of a pokerzoo run")
    module = RLModule.from_checkpoint(path)
    module.eval()
    return module


def module_policy(
    module: Any, transform: Callable[[np.ndarray], np.ndarray] | None = None
) -> Policy:
    """The deterministic masked policy of the learner's ``module``, batched; ``transform`` is
    the run's feature set (None: raw observations)."""

    def policy(observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        if transform is not None:
            observations = transform(observations)
        seen = observation_dict(np.asarray(observations, dtype=np.float32), masks)
        batch = {Columns.OBS: {key: torch.from_numpy(value) for key, value in seen.items()}}
        with torch.no_grad():
            logits = module.forward_inference(batch)[Columns.ACTION_DIST_INPUTS]
        return logits.argmax(dim=-1).numpy()

    return policy


def checkpoint_policy(
    checkpoint: str | Path, transform: Callable[[np.ndarray], np.ndarray] | None = None
) -> Policy:
    """The deterministic masked policy of an RLlib checkpoint's learner (see the module
    docstring); ``transform`` is the run's feature set."""
    return module_policy(learner_module(checkpoint), transform)


def agent_policy(
    spec: GameSpec, module: Any, features: str = "raw", actions: str = NATIVE
) -> Policy:
    """The learner's ``module`` (or an RLlib checkpoint folder, a ``str`` or ``Path``) as a
    deterministic batched policy over the game's own observations and actions: the run's
    feature set ``features`` of its action formulation ``actions`` applied, the formulation's
    decisions turned into the game's actions."""
    transform = feature_set(spec, features, actions)
    if isinstance(module, (str, Path)):
        module = learner_module(module)
    policy = module_policy(module, transform)
    chosen = formulation(spec, actions)
    return policy if chosen is None else chosen.native_policy(policy)
