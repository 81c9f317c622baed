"""The most probable legal action in numpy: the action torch's lean pass and ``predict`` take,
for flat and per-action policies, following their parameters as they train."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")

from pokerzoo.training.evaluate import model_policy  # noqa: E402
from pokerzoo.training.features import Gate, PerActionLayout  # noqa: E402
from pokerzoo.training.masked_sampling import MaskablePolicy  # noqa: E402
from pokerzoo.training.numpy_actor import NumpyActor  # noqa: E402
from pokerzoo.training.policies import PerActionPolicy  # noqa: E402
from torch import nn  # noqa: E402

OFFSET, ACTIONS, WIDTH = 7, 9, 4
WIDE = OFFSET + ACTIONS * WIDTH


def _masks(rng: np.random.Generator, rows: int, actions: int) -> np.ndarray:
    masks = rng.random((rows, actions)) < 0.4
    masks[np.arange(rows), rng.integers(actions, size=rows)] = True  # one legal action at least
    return masks


def _flat(
    activation: type[nn.Module] = nn.ReLU, pi: list[int] | None = None, shared: bool = True
) -> MaskablePolicy:
    torch.manual_seed(3)
    return MaskablePolicy(
        gym.spaces.Box(-1, 1, (11,), np.float32),
        gym.spaces.Discrete(6),
        lambda _: 1e-3,
        net_arch={"pi": [16, 8] if pi is None else pi, "vf": [16]},
        activation_fn=activation,
        share_features_extractor=shared,
    )


def _per_action(
    padding: bool = False, gate: Gate | None = None, activation: type[nn.Module] = nn.ReLU
) -> PerActionPolicy:
    torch.manual_seed(4)
    return PerActionPolicy(
        gym.spaces.Box(0.0, 1.0, (WIDE,), np.float32),
        gym.spaces.Discrete(ACTIONS),
        lambda _: 3e-4,
        per_action=PerActionLayout(OFFSET, ACTIONS, WIDTH, gate, padding=padding),
        net_arch=[8],
        head_arch=[16, 8],
        context=5,
        activation_fn=activation,
    )


def _agrees(policy: MaskablePolicy, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
    actor = NumpyActor.of(policy)
    assert actor is not None
    got = actor(observations, masks)
    assert got.dtype == np.int64 and got.shape == (len(observations),)
    assert np.array_equal(got, policy.most_probable(observations, masks))
    expected, _ = policy.predict(observations, action_masks=masks, deterministic=True)
    assert np.array_equal(got, expected)
    assert masks[np.arange(len(got)), got].all()
    return got


@pytest.mark.parametrize("activation", [nn.ReLU, nn.Tanh])
@pytest.mark.parametrize("shared", [True, False], ids=["shared", "separate"])
@pytest.mark.parametrize("pi", [[16, 8], []], ids=["hidden", "linear"])
def test_flat_policys_action_is_torchs(
    activation: type[nn.Module], shared: bool, pi: list[int]
) -> None:
    policy = _flat(activation, pi, shared)
    rng = np.random.default_rng(5)
    for rows in (1, 4, 33):
        for _ in range(20):
            observations = rng.uniform(-1, 1, (rows, 11)).astype(np.float32)
            _agrees(policy, observations, _masks(rng, rows, 6))


def test_no_observations_no_actions() -> None:
    for policy, width, actions in ((_flat(), 11, 6), (_per_action(), WIDE, ACTIONS)):
        actor = NumpyActor.of(policy)
        assert actor is not None
        got = actor(np.zeros((0, width), np.float32), np.zeros((0, actions), bool))
        assert got.dtype == np.int64 and got.shape == (0,)


@pytest.mark.parametrize("activation", [nn.ReLU, nn.Tanh])
def test_per_action_policys_action_is_torchs(activation: type[nn.Module]) -> None:
    policy = _per_action(activation=activation)
    rng = np.random.default_rng(6)
    for rows in (1, 5, 40):
        for _ in range(20):
            observations = rng.random((rows, WIDE)).astype(np.float32)
            _agrees(policy, observations, _masks(rng, rows, ACTIONS))


def test_padding_rows_score_zero_as_the_head_gives_them() -> None:
    """With ``padding``, a legal row of zeros is not scored: the head gives it the logit 0, so
    it is taken exactly where every scored legal row's logit is below 0."""
    policy = _per_action(padding=True)
    rng = np.random.default_rng(7)
    observations = rng.random((60, WIDE)).astype(np.float32)
    rows = observations[:, OFFSET:].reshape(60, ACTIONS, WIDTH)
    rows[:, 5:] = 0.0  # the last four rows are padding
    masks = _masks(rng, 60, ACTIONS)
    masks[:, 6] = True  # a padding row is legal in every observation
    got = _agrees(policy, observations, masks)
    assert (got == 6).any() and (got != 6).any()  # both ways occur on these observations


def test_it_follows_the_policys_parameters_as_they_train() -> None:
    """The layers are views of the policy's parameters: after optimizer steps the actor built
    before them takes the trained policy's actions."""
    policy = _per_action()
    actor = NumpyActor.of(policy)
    assert actor is not None
    rng = np.random.default_rng(8)
    observations = rng.random((64, WIDE)).astype(np.float32)
    masks = _masks(rng, 64, ACTIONS)
    before = actor(observations, masks)
    tensor = torch.as_tensor(observations)
    for _ in range(30):  # push every logit towards action 0 wherever it is legal
        logits = policy.action_net(tensor)
        policy.optimizer.zero_grad()
        (-logits[:, 0].sum() + logits[:, 1:].sum()).backward()
        policy.optimizer.step()
    after = actor(observations, masks)
    assert not np.array_equal(after, before)
    assert np.array_equal(after, policy.most_probable(observations, masks))


def test_parts_it_does_not_mirror_keep_torchs_pass() -> None:
    """A gate, another activation, a subclass of the policy or observations torch preprocesses:
    no numpy actor (``model_policy`` then plays through torch)."""
    gate = Gate(column=0, candidates=2, stats_column=2, stats=1, weight=1.0)
    assert NumpyActor.of(_per_action(gate=gate)) is None
    assert NumpyActor.of(_flat(nn.ELU)) is None

    class Scaled(MaskablePolicy):
        def _action_logits(self, latent_pi: torch.Tensor, action_masks: object) -> torch.Tensor:
            return 2 * self.action_net(latent_pi)

    torch.manual_seed(1)
    scaled = Scaled(
        gym.spaces.Box(-1, 1, (11,), np.float32), gym.spaces.Discrete(6), lambda _: 1e-3
    )
    assert NumpyActor.of(scaled) is None
    assert NumpyActor.of(object()) is None
    one_hot = MaskablePolicy(gym.spaces.Discrete(5), gym.spaces.Discrete(3), lambda _: 1e-3)
    assert NumpyActor.of(one_hot) is None  # torch one-hots a Discrete observation


def test_model_policy_plays_through_the_numpy_actor() -> None:
    """An evaluation's (and a snapshot opponent's) policy is the numpy actor where it mirrors
    the model's policy, and takes ``predict``'s actions."""

    class Model:
        def __init__(self, policy: MaskablePolicy) -> None:
            self.policy = policy

    policy = _flat()
    rng = np.random.default_rng(9)
    observations = rng.uniform(-1, 1, (16, 11)).astype(np.float32)
    masks = _masks(rng, 16, 6)
    calls: list[int] = []
    original = NumpyActor.__call__

    def spy(self: NumpyActor, obs: np.ndarray, legal: np.ndarray) -> np.ndarray:
        calls.append(len(obs))
        return original(self, obs, legal)

    play = model_policy(Model(policy))
    NumpyActor.__call__ = spy  # type: ignore[method-assign]
    try:
        got = play(observations, masks)
    finally:
        NumpyActor.__call__ = original  # type: ignore[method-assign]
    assert calls == [16]
    expected, _ = policy.predict(observations, action_masks=masks, deterministic=True)
    assert np.array_equal(got, expected)


def test_the_benchmark_times_both_on_the_training_envs_observations(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from tests.helpers import benchmark_script

    benchmark_script("snapshot_forward").main(
        ["--games", "five_card_stud", "--steps", "3", "--repeats", "1"]
    )
    lines = [line for line in capsys.readouterr().out.splitlines() if "five_card_stud" in line]
    assert len(lines) == 3
    for line, rows in zip(lines, ("1", "4", "16"), strict=True):
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        assert cells[:4] == ["five_card_stud", "MaskablePolicy", "59", rows]
        assert float(cells[4].replace(",", "")) > 0 and float(cells[5].replace(",", "")) > 0
        assert cells[7] == "yes"
