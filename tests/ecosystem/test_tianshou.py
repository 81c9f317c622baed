"""tianshou's multi-agent pattern (its tic-tac-toe tutorial, tianshou 2.x) on every game's AEC
env: ``PettingZooEnv`` over the raw env, masked random players
(``MARLRandomDiscreteMaskedOffPolicyAlgorithm``) under ``MultiAgentOffPolicyAlgorithm``, then a
DQN learner among them for 300 environment steps.

tianshou stores every info of every step in its replay buffer (a ``Batch``): each info value
must be a number or an array of one shape at every step, under the same keys (``None`` values,
dicts keyed by ints and tuples whose length changes break it)."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("tianshou", reason="needs tianshou: the ecosystem stage (.ci/ecosystem)")

import torch  # noqa: E402
from pokerzoo.envs.core.registry import GameSpec  # noqa: E402
from tianshou.algorithm import (  # noqa: E402
    DQN,
    MARLRandomDiscreteMaskedOffPolicyAlgorithm,
    MultiAgentOffPolicyAlgorithm,
)
from tianshou.algorithm.modelfree.dqn import DiscreteQLearningPolicy  # noqa: E402
from tianshou.algorithm.optim import AdamOptimizerFactory  # noqa: E402
from tianshou.data import Collector, CollectStats, VectorReplayBuffer  # noqa: E402
from tianshou.env import DummyVectorEnv, PettingZooEnv  # noqa: E402
from tianshou.trainer import OffPolicyTrainerParams  # noqa: E402
from tianshou.utils.net.common import Net  # noqa: E402

from tests.ecosystem.cases import AEC  # noqa: E402

pytestmark = pytest.mark.ecosystem


def _random_player(env: PettingZooEnv) -> MARLRandomDiscreteMaskedOffPolicyAlgorithm:
    return MARLRandomDiscreteMaskedOffPolicyAlgorithm(action_space=env.action_space)


def _assert_legal(buffer: VectorReplayBuffer) -> None:
    """Every action in the buffer was legal under the mask the acting agent saw."""
    data = buffer[buffer.sample_indices(0)]  # every stored transition
    masks, actions = np.asarray(data.obs.mask, dtype=bool), np.asarray(data.act, dtype=int)
    assert masks[np.arange(len(actions)), actions].all(), "a masked action was played"


@pytest.mark.parametrize("spec", AEC)
def test_random_masked_collection(spec: GameSpec) -> None:
    np.random.seed(0)
    make = lambda: PettingZooEnv(spec.make_aec())  # noqa: E731
    env = make()
    players = MultiAgentOffPolicyAlgorithm(
        algorithms=[_random_player(env) for _ in env.agents], env=env
    )
    envs = DummyVectorEnv([make, make])
    envs.seed(0)
    buffer = VectorReplayBuffer(20_000, len(envs))
    collector = Collector[CollectStats](players, envs, buffer)
    collector.reset()
    stats = collector.collect(n_episode=2)
    assert stats.n_collected_episodes == 2
    assert stats.n_collected_steps == len(buffer) > 0
    _assert_legal(buffer)


@pytest.mark.parametrize("spec", AEC)
def test_dqn_learner_among_masked_random_players(spec: GameSpec, one_torch_thread: None) -> None:
    np.random.seed(0)
    torch.manual_seed(0)
    make = lambda: PettingZooEnv(spec.make_aec())  # noqa: E731
    env = make()
    observation_space = env.observation_space["observation"]
    net = Net(
        state_shape=observation_space.shape,
        action_shape=int(env.action_space.n),
        hidden_sizes=[64, 64],
    )
    learner = DQN(
        policy=DiscreteQLearningPolicy(
            model=net, action_space=env.action_space, eps_training=0.1, eps_inference=0.05
        ),
        optim=AdamOptimizerFactory(lr=1e-3),
        gamma=0.9,
        n_step_return_horizon=1,
        target_update_freq=50,
    )
    before = [p.detach().clone() for p in net.parameters()]
    # the learner in the first seat, masked random players in every other
    algorithms = [learner] + [_random_player(env) for _ in env.agents[1:]]
    table = MultiAgentOffPolicyAlgorithm(algorithms=algorithms, env=env)
    training_envs, test_envs = DummyVectorEnv([make, make]), DummyVectorEnv([make])
    training_envs.seed(0)
    test_envs.seed(1)
    buffer = VectorReplayBuffer(5_000, len(training_envs))
    training = Collector[CollectStats](table, training_envs, buffer, exploration_noise=True)
    test = Collector[CollectStats](table, test_envs, exploration_noise=True)
    training.reset()
    training.collect(n_step=64)
    result = table.run_training(
        OffPolicyTrainerParams(
            training_collector=training,
            test_collector=test,
            max_epochs=1,
            epoch_num_steps=300,
            collection_step_num_env_steps=10,
            test_step_num_episodes=1,
            batch_size=32,
            update_step_num_gradient_steps_per_sample=0.1,
            multi_agent_return_reduction=lambda returns: returns[:, 0],
            verbose=False,
            show_progress=False,
        )
    )
    assert result.timing.total_time > 0
    assert len(buffer) >= 300
    assert any(not torch.equal(a, b) for a, b in zip(before, net.parameters(), strict=True)), (
        "the DQN learner was never updated"
    )
    _assert_legal(buffer)
