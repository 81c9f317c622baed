"""The rollout step without torch.distributions: sb3-contrib's actions, values and
log-probabilities to the bit, and the same draws from torch's generator."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")

from pokerzoo.training.masked_sampling import MaskablePolicy, masked_sample  # noqa: E402
from sb3_contrib.common.maskable.distributions import (  # noqa: E402
    MaskableCategoricalDistribution,
)
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy  # noqa: E402


def _masks(rng: np.random.Generator, rows: int, actions: int) -> np.ndarray:
    masks = rng.random((rows, actions)) < 0.5
    masks[np.arange(rows), rng.integers(actions, size=rows)] = True  # one legal action at least
    return masks


@pytest.mark.parametrize(("rows", "actions"), [(1, 2), (7, 3), (32, 25), (64, 120)])
@pytest.mark.parametrize("deterministic", [False, True])
def test_masked_sample_is_sb3_contribs_distribution(
    rows: int, actions: int, deterministic: bool
) -> None:
    rng = np.random.default_rng(rows * actions)
    for trial in range(20):
        logits = torch.as_tensor(rng.normal(0, 3, (rows, actions)), dtype=torch.float32)
        masks = _masks(rng, rows, actions)
        torch.manual_seed(trial)
        dist = MaskableCategoricalDistribution(actions).proba_distribution(logits)
        dist.apply_masking(masks)
        expected = dist.get_actions(deterministic=deterministic)
        expected_log_prob = dist.log_prob(expected)
        after = torch.rand(1)  # where the generator stands after sb3-contrib's draw
        torch.manual_seed(trial)
        got, log_prob = masked_sample(logits, masks, deterministic)
        assert torch.equal(got, expected)
        assert torch.equal(log_prob, expected_log_prob)
        assert torch.equal(torch.rand(1), after)
        assert masks[np.arange(rows), got.numpy()].all()


def _policies(
    net_arch: dict[str, list[int]], shared: bool = True
) -> tuple[MaskablePolicy, MaskableActorCriticPolicy]:
    spaces = (gym.spaces.Box(-1, 1, (11,), np.float32), gym.spaces.Discrete(6))
    kwargs = {
        "net_arch": net_arch,
        "activation_fn": torch.nn.ReLU,
        "share_features_extractor": shared,
    }
    ours = MaskablePolicy(*spaces, lambda _: 1e-3, **kwargs)
    theirs = MaskableActorCriticPolicy(*spaces, lambda _: 1e-3, **kwargs)
    theirs.load_state_dict(ours.state_dict())
    return ours, theirs


@pytest.mark.parametrize(
    "net_arch", [{"pi": [16, 16], "vf": [16, 16]}, {"pi": [], "vf": [8]}], ids=["mlp", "no-pi"]
)
def test_policy_forward_is_sb3_contribs(net_arch: dict[str, list[int]]) -> None:
    ours, theirs = _policies(net_arch)
    rng = np.random.default_rng(3)
    with torch.no_grad():
        for step in range(10):
            obs = torch.as_tensor(rng.uniform(-1, 1, (9, 11)), dtype=torch.float32)
            masks = _masks(rng, 9, 6)
            for deterministic in (False, True):
                torch.manual_seed(step)
                expected = theirs(obs, deterministic=deterministic, action_masks=masks)
                torch.manual_seed(step)
                got = ours(obs, deterministic=deterministic, action_masks=masks)
                for a, b in zip(got, expected, strict=True):
                    assert torch.equal(a, b)
            # without masks: sb3-contrib's own path
            torch.manual_seed(step)
            expected = theirs(obs)
            torch.manual_seed(step)
            for a, b in zip(ours(obs), expected, strict=True):
                assert torch.equal(a, b)


def test_the_mlp_configs_train_with_it() -> None:
    from pokerzoo.envs.core.registry import get_game
    from pokerzoo.training.runs import resolve_config
    from pokerzoo.training.train import _policy

    config = resolve_config("five_card_stud", None)
    assert config.ppo.policy == "mlp"
    assert _policy(config, get_game("five_card_stud"))[0] is MaskablePolicy


@pytest.mark.parametrize("shared", [True, False], ids=["shared", "separate"])
def test_evaluate_actions_and_distributions_are_sb3_contribs(shared: bool) -> None:
    """Training's ``evaluate_actions`` and ``predict``'s ``get_distribution`` hand the masks to
    the logits (:meth:`MaskablePolicy._action_logits`) but are sb3-contrib's to the bit, with
    the features extractor shared or not, with masks and without."""
    ours, theirs = _policies({"pi": [16], "vf": [16]}, shared)
    rng = np.random.default_rng(5)
    obs = torch.as_tensor(rng.uniform(-1, 1, (4, 11)), dtype=torch.float32)
    actions = torch.tensor([0, 1, 2, 5])
    masks = _masks(rng, 4, 6)
    masks[np.arange(4), actions.numpy()] = True
    for given in (masks, torch.as_tensor(masks, dtype=torch.float32), None):
        for a, b in zip(
            ours.evaluate_actions(obs, actions, action_masks=given),
            theirs.evaluate_actions(obs, actions, action_masks=given),
            strict=True,
        ):
            assert torch.equal(a, b)
    for given in (masks, None):
        got = ours.get_distribution(obs, action_masks=given).distribution.probs
        expected = theirs.get_distribution(obs, action_masks=given).distribution.probs
        assert torch.equal(got, expected)


@pytest.mark.parametrize("shared", [True, False], ids=["shared", "separate"])
def test_most_probable_is_predicts_deterministic_action(shared: bool) -> None:
    """The lean forward pass a snapshot opponent plays by gives ``predict``'s most probable
    action to the bit (sb3-contrib's own policy with the same weights, and ours), and puts
    the policy in evaluation mode as ``predict`` does."""
    ours, theirs = _policies({"pi": [16], "vf": [16]}, shared)
    rng = np.random.default_rng(11)
    for rows in (1, 9, 40):
        observations = rng.uniform(-1, 1, (rows, 11)).astype(np.float32)
        masks = _masks(rng, rows, 6)
        ours.set_training_mode(True)
        got = ours.most_probable(observations, masks)
        assert not ours.training
        expected, _ = theirs.predict(observations, action_masks=masks, deterministic=True)
        own, _ = ours.predict(observations, action_masks=masks, deterministic=True)
        assert got.dtype == np.int64 and got.shape == (rows,)
        assert np.array_equal(got, expected) and np.array_equal(got, own)
        assert masks[np.arange(rows), got].all()


def test_the_benchmark_times_both_on_the_training_envs_batches(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from tests.helpers import benchmark_script

    benchmark_script("rollout_step").main(
        ["--games", "five_card_stud", "--steps", "3", "--repeats", "1"]
    )
    row = [line for line in capsys.readouterr().out.splitlines() if "five_card_stud" in line]
    cells = [cell.strip() for cell in row[0].strip("|").split("|")]
    assert cells[:4] == ["five_card_stud", "MaskablePolicy", "32", "59"]
    assert float(cells[4].replace(",", "")) > 0 and float(cells[5].replace(",", "")) > 0
    assert cells[7] == "yes"


def test_adam_steps_every_parameter_at_once_to_the_bit() -> None:
    """The policy's Adam runs torch's ``foreach`` path (sb3-contrib's steps one parameter at a
    time on the CPU): the same parameters after every step, to the bit. A user's own
    ``foreach`` stands."""
    ours, theirs = _policies({"pi": [16, 16], "vf": [16]})
    assert ours.optimizer.defaults["foreach"] is True
    assert ours.optimizer_kwargs == {"eps": 1e-5, "foreach": True}
    assert theirs.optimizer.defaults["foreach"] is None
    rng = np.random.default_rng(7)
    for _ in range(5):
        obs = torch.as_tensor(rng.uniform(-1, 1, (16, 11)), dtype=torch.float32)
        actions = torch.as_tensor(rng.integers(6, size=16))
        for policy in (ours, theirs):
            values, log_prob, entropy = policy.evaluate_actions(obs, actions)
            loss = values.square().mean() - log_prob.mean() - 0.01 * entropy.mean()
            policy.optimizer.zero_grad()
            loss.backward()
            policy.optimizer.step()
        for a, b in zip(ours.parameters(), theirs.parameters(), strict=True):
            assert torch.equal(a, b)
    spaces = (gym.spaces.Box(-1, 1, (11,), np.float32), gym.spaces.Discrete(6))
    given = {"foreach": False}
    single = MaskablePolicy(*spaces, lambda _: 1e-3, optimizer_kwargs=given)
    assert single.optimizer.defaults["foreach"] is False and given == {"foreach": False}
