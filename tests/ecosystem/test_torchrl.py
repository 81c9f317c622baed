"""torchrl on every game: ``PettingZooWrapper(env, use_mask=True)`` rollouts of every PettingZoo
env (AEC and parallel), and ``GymEnv(id)`` rollouts of every Gymnasium id with the mask read
from the info (``auto_register_info_dict``) and applied by ``ActionMask``. torchrl's random
actions honour the mask it tracks, so every action of a rollout must be legal.

torchrl builds fixed specs from the first reset's info: every info value must be a number or an
array of one shape at every step, under the same keys; its Gymnasium info reader also needs
numpy values (``val.dtype``), not Python numbers. ``GymEnv`` passes ``frameskip`` to
``gymnasium.make`` and drops it only on a ``TypeError`` whose message holds Python's
"unexpected keyword argument 'frameskip'". The PettingZoo envs give the mask in the
observation only: torchrl 0.14.1's wrapper fails on an env whose info repeats it beside other
keys (its reset writes ``info["action_mask"]`` into a spec it removed it from).
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("torchrl", reason="needs torchrl: the ecosystem stage (.ci/ecosystem)")

import torch  # noqa: E402
from pokerzoo.envs.core.registry import GameSpec  # noqa: E402
from torchrl.envs import ActionMask, GymEnv, PettingZooWrapper, TransformedEnv  # noqa: E402

from tests.ecosystem.cases import AEC, GYM_IDS, PARALLEL  # noqa: E402

pytestmark = pytest.mark.ecosystem

PETTINGZOO = [pytest.param(p.values[0], "aec", id=f"{p.id}-aec") for p in AEC] + [
    pytest.param(p.values[0], "parallel", id=f"{p.id}-parallel") for p in PARALLEL
]


@pytest.mark.parametrize(("spec", "kind"), PETTINGZOO)
def test_pettingzoo_wrapper_rollout(spec: GameSpec, kind: str) -> None:
    make = spec.make_aec if kind == "aec" else spec.make_parallel
    torch.manual_seed(0)
    env = PettingZooWrapper(make(), use_mask=True, seed=0)
    rollout = env.rollout(1_000, break_when_any_done=False)
    assert rollout["next", "done"].any(), "no episode ended in 1000 steps"
    for group in env.group_map:
        actions = rollout[group, "action"]  # (steps, agents)
        masks = rollout[group, "action_mask"]  # (steps, agents, actions)
        acting = rollout[group, "mask"]  # (steps, agents): the agents that act
        legal = masks.gather(-1, actions.unsqueeze(-1)).squeeze(-1)
        assert legal[acting].all(), f"{group} played a masked action"


@pytest.mark.parametrize(("spec", "gym_id"), GYM_IDS)
def test_gymenv_rollout_with_the_mask(spec: GameSpec, gym_id: str) -> None:
    torch.manual_seed(0)
    # auto_register_info_dict() takes one random step without the mask to learn the info's
    # specs: masked_action="random" lets that probe through (a legal action is played instead)
    env = GymEnv(gym_id, categorical_action_encoding=True, masked_action="random")
    env.auto_register_info_dict()  # the info's keys, action_mask among them, join the outputs
    env = TransformedEnv(env, ActionMask())
    env.set_seed(0)
    rollout = env.rollout(500, break_when_any_done=False)
    assert rollout["next", "done"].any(), "no episode ended in 500 steps"
    masks = rollout["action_mask"].bool()
    actions = rollout["action"].long()
    legal = masks.gather(-1, actions.unsqueeze(-1)).squeeze(-1)
    assert legal.all(), "a masked action was chosen"
    if "masked_action" in rollout["next"].keys():  # noqa: SIM118 - a TensorDict, not a dict
        assert (rollout["next", "masked_action"] == -1).all(), "the env replaced a masked action"
    assert np.isfinite(rollout["next", "reward"].numpy()).all()
