"""The per-action policy head: one shared scorer, and the gate over candidates' suggestions."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
import torch
from pokerzoo.training.features import Gate, PerActionLayout
from pokerzoo.training.policies import PerActionHead, PerActionPolicy
from torch import nn

OFFSET, ACTIONS, K, PLANS, STATS = 6, 5, 3 + 2 + 2 * 4, 2, 4
# Row layout: 3 features, 2 suggestion columns, then 2 x 4 statistics.
GATE = Gate(column=3, candidates=PLANS, stats_column=5, stats=STATS, weight=2.5)


def head(gate: Gate | None = GATE) -> PerActionHead:
    torch.manual_seed(0)
    return PerActionHead(PerActionLayout(OFFSET, ACTIONS, K, gate), [8], 4, nn.ReLU)


def test_gate_starts_by_adding_every_suggestion_at_the_same_weight() -> None:
    observation = torch.rand(7, OFFSET + ACTIONS * K)
    with_gate, without = head(), head(None)
    without.load_state_dict(with_gate.state_dict(), strict=False)
    rows = observation[:, OFFSET:].reshape(7, ACTIONS, K)
    expected = without(observation) + 2.5 * rows[:, :, 3:5].sum(dim=2)
    assert torch.allclose(with_gate(observation), expected, atol=1e-6)


def test_gate_weighs_each_candidate_by_its_statistics() -> None:
    gated = head()
    last = gated.gate_net[-1]
    assert isinstance(last, nn.Linear)
    with torch.no_grad():
        first = gated.gate_net[0]
        assert isinstance(first, nn.Linear)
        first.weight.zero_()
        first.bias.zero_()
        first.weight[0, 0] = 1.0  # hidden unit 0 = relu(first statistic)
        last.weight.zero_()
        last.weight[0, 0] = 1.0
        last.bias.zero_()
    observation = torch.zeros(1, OFFSET + ACTIONS * K)
    rows = observation[:, OFFSET:].view(1, ACTIONS, K)
    rows[0, 1, 3] = 1.0  # candidate 0 suggests action 1
    rows[0, 2, 4] = 1.0  # candidate 1 suggests action 2
    rows[0, :, 5] = 3.0  # candidate 0's first statistic
    rows[0, :, 5 + STATS] = 0.5  # candidate 1's
    plain = head(None)
    plain.load_state_dict(gated.state_dict(), strict=False)
    logits = (gated(observation) - plain(observation)).detach()
    assert logits[0, 1] - logits[0, 0] == pytest.approx(3.0, abs=1e-5)
    assert logits[0, 2] - logits[0, 0] == pytest.approx(0.5, abs=1e-5)


def test_gateless_head_has_no_gate_parameters() -> None:
    assert not any(name.startswith("gate") for name, _ in head(None).named_parameters())


PADDED = PerActionLayout(OFFSET, ACTIONS, 3, padding=True)


def padded_observations() -> torch.Tensor:
    """Rows of observations laid out by :data:`PADDED`: some rows padding (zeros), whole
    observations with every row live, and one with none."""
    torch.manual_seed(1)
    observation = torch.rand(6, OFFSET + ACTIONS * 3)
    rows = observation[:, OFFSET:].view(6, ACTIONS, 3)
    rows[0, 2:] = 0  # two live rows
    rows[1, 1:] = 0
    rows[2, 1] = 0  # padding between live rows
    rows[2, 3:] = 0
    rows[4] = 0  # no live row
    rows[5, 0, 1] = 0  # a live row with a zero in it
    return observation


@pytest.mark.parametrize("with_masks", [False, True], ids=["no-masks", "masks"])
def test_padded_head_scores_live_rows_as_the_plain_head_and_padding_zero(
    with_masks: bool,
) -> None:
    """The padded head scores the live rows (with masks: the rows both legal and live, a legal
    row of zeros getting 0 as the padding does), the same logits as the head scoring every
    row there, and gives the others 0."""
    torch.manual_seed(0)
    padded = PerActionHead(PADDED, [8], 4, nn.ReLU)
    plain = PerActionHead(PerActionLayout(OFFSET, ACTIONS, 3), [8], 4, nn.ReLU)
    plain.load_state_dict(padded.state_dict())
    observation = padded_observations()
    live = observation[:, OFFSET:].view(6, ACTIONS, 3).abs().sum(dim=2) > 0
    assert int(live.sum()) == 2 + 1 + 2 + 5 + 0 + 5
    masks = torch.ones(6, ACTIONS, dtype=torch.bool)
    masks[0, 0] = masks[3, 1:3] = False
    scored = masks & live if with_masks else live
    got, expected = padded(observation, masks if with_masks else None), plain(observation)
    assert torch.allclose(got[scored], expected[scored], atol=1e-6)
    assert (got[~scored] == 0).all()
    if with_masks:
        assert (masks & ~live).any() and int(scored.sum()) == 1 + 1 + 2 + 3 + 0 + 5


@pytest.mark.parametrize("rows", [[0, 1], [3, 5], [0, 1, 2, 3, 4, 5], [4]])
def test_padded_linear_is_the_linear_it_replaces(rows: list[int]) -> None:
    """The same outputs and gradients (up to rounding) as the plain layer, whichever mix of
    short observations (live rows in the first half only), whole ones and empty ones."""
    from pokerzoo.training.policies import PaddedLinear

    torch.manual_seed(2)
    linear = nn.Linear(OFFSET + ACTIONS * 3, 7)
    padded = PaddedLinear(linear, PADDED)
    assert padded.weight is linear.weight and padded.bias is linear.bias
    assert list(padded.state_dict()) == ["weight", "bias"]
    observation = padded_observations()[rows]
    plain_out = linear(observation)
    plain_out.square().sum().backward()
    expected = linear.weight.grad.clone(), linear.bias.grad.clone()
    linear.zero_grad()
    out = padded(observation)
    out.square().sum().backward()
    assert torch.allclose(out, plain_out, atol=1e-6)
    assert torch.allclose(linear.weight.grad, expected[0], atol=1e-5)
    assert torch.allclose(linear.bias.grad, expected[1], atol=1e-5)


def test_layouts_saved_before_padding_read_as_unpadded() -> None:
    """A layout pickled before the field existed (no ``padding`` in its state) loads as
    ``padding=False``: models trained before it score every row, as they did."""
    import pickle

    layout = PerActionLayout(OFFSET, ACTIONS, 3, padding=True)
    del layout.__dict__["padding"]
    loaded = pickle.loads(pickle.dumps(layout))
    assert loaded.padding is False and loaded == PerActionLayout(OFFSET, ACTIONS, 3)


def test_empty_architectures_are_networks_without_hidden_layers() -> None:
    """``net_arch=[]`` is sb3's meaning, the value read linearly off the observation, and
    ``head_arch=[]`` a linear scorer of each row beside the context (both once fell back to
    their defaults)."""
    policy = PerActionPolicy(
        gym.spaces.Box(0.0, 1.0, (OFFSET + ACTIONS * 3,), np.float32),
        gym.spaces.Discrete(ACTIONS),
        lambda _: 3e-4,
        per_action=PADDED,
        net_arch=[],
        head_arch=[],
        context=4,
    )
    assert len(policy.mlp_extractor.value_net) == 0
    assert policy.value_net.in_features == OFFSET + ACTIONS * 3
    assert policy.head_arch == []
    (only,) = policy.action_net.score
    assert isinstance(only, nn.Linear) and only.in_features == 3 + 4
    with torch.no_grad():
        assert policy.action_net(padded_observations()).shape == (6, ACTIONS)


@pytest.mark.parametrize("head_arch", [[8], [8, 5], []])
@pytest.mark.parametrize("padding", [False, True])
def test_head_scores_each_row_beside_its_context(head_arch: list[int], padding: bool) -> None:
    """The head's logits and gradients are its scorer's on each row with the context's summary
    beside it (the concatenation the scorer's first layer is laid out for), though the context's
    share of that layer is computed once per observation; padding rows score 0."""
    torch.manual_seed(3)
    layout = PerActionLayout(OFFSET, ACTIONS, 3, padding=padding)
    scorer = PerActionHead(layout, head_arch, 4, nn.ReLU)
    observation = padded_observations()
    rows = observation[:, OFFSET:].view(6, ACTIONS, 3)
    context = scorer.context(observation[:, :OFFSET])
    beside = torch.cat([rows, context.unsqueeze(1).expand(6, ACTIONS, 4)], dim=2)
    expected = scorer.score(beside).squeeze(2)
    if padding:
        expected = expected * (rows.abs().sum(dim=2) > 0)
    expected.square().sum().backward()
    gradients = [p.grad.clone() for p in scorer.parameters()]
    scorer.zero_grad()
    got = scorer(observation)
    got.square().sum().backward()
    assert torch.allclose(got, expected, atol=1e-6)
    for parameter, gradient in zip(scorer.parameters(), gradients, strict=True):
        assert torch.allclose(parameter.grad, gradient, atol=1e-5)


@pytest.mark.parametrize("padding", [False, True])
def test_head_given_masks_scores_the_legal_rows_only(padding: bool) -> None:
    """With the masks, legal rows score as without them, the others 0, and what an illegal
    row holds changes nothing (it is not read); with padding, padding rows stay 0 too."""
    torch.manual_seed(4)
    scorer = PerActionHead(PerActionLayout(OFFSET, ACTIONS, 3, padding=padding), [8], 4, nn.ReLU)
    observation = padded_observations()
    masks = torch.rand(6, ACTIONS) < 0.5
    masks[:, 1] = True
    scored = masks
    if padding:
        scored = masks & (observation[:, OFFSET:].view(6, ACTIONS, 3).abs().sum(dim=2) > 0)
    got = scorer(observation, masks)
    assert torch.allclose(got[scored], scorer(observation)[scored], atol=1e-6)
    assert (got[~scored] == 0).all()
    changed = observation.clone()
    changed[:, OFFSET:].view(6, ACTIONS, 3)[~masks] = 7.0
    assert torch.equal(scorer(changed, masks), got)


def test_per_action_policys_most_probable_action_is_predicts() -> None:
    """A per-action policy's lean forward pass (a snapshot opponent's) takes ``predict``'s
    most probable action, to the bit, scoring the legal actions' rows only."""
    torch.manual_seed(9)
    policy = PerActionPolicy(
        gym.spaces.Box(0.0, 1.0, (OFFSET + ACTIONS * 3,), np.float32),
        gym.spaces.Discrete(ACTIONS),
        lambda _: 3e-4,
        per_action=PerActionLayout(OFFSET, ACTIONS, 3, padding=True),
        net_arch=[8],
        head_arch=[8],
        context=4,
    )
    rng = np.random.default_rng(10)
    observations = rng.random((33, OFFSET + ACTIONS * 3)).astype(np.float32)
    masks = rng.random((33, ACTIONS)) < 0.5
    masks[np.arange(33), rng.integers(ACTIONS, size=33)] = True
    expected, _ = policy.predict(observations, action_masks=masks, deterministic=True)
    assert np.array_equal(policy.most_probable(observations, masks), expected)


def test_per_action_policy_reads_only_the_legal_actions_rows() -> None:
    """Training's ``evaluate_actions``, ``predict``'s distribution and the rollouts' ``forward``
    give what sb3-contrib's code gives from every row's logit (up to rounding; the same actions
    from the same generator), and no action's probability reads an illegal action's row (the
    value network reads the whole observation)."""
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

    torch.manual_seed(5)
    policy = PerActionPolicy(
        gym.spaces.Box(0.0, 1.0, (OFFSET + ACTIONS * 3,), np.float32),
        gym.spaces.Discrete(ACTIONS),
        lambda _: 3e-4,
        per_action=PerActionLayout(OFFSET, ACTIONS, 3),
        net_arch=[8],
        head_arch=[8],
        context=4,
    )
    rng = np.random.default_rng(6)
    observation = torch.as_tensor(rng.random((9, OFFSET + ACTIONS * 3)), dtype=torch.float32)
    masks = rng.random((9, ACTIONS)) < 0.5
    masks[:, 2] = True
    actions = torch.tensor(2).repeat(9)
    changed = observation.clone()
    changed[:, OFFSET:].view(9, ACTIONS, 3)[torch.as_tensor(~masks)] = 5.0
    logits: list[torch.Tensor] = []
    policy.action_net.register_forward_hook(lambda _, __, out: logits.append(out))
    with torch.no_grad():
        value, log_prob, entropy = MaskableActorCriticPolicy.evaluate_actions(
            policy, observation, actions, action_masks=masks
        )
        probs = MaskableActorCriticPolicy.get_distribution(policy, observation, masks)
        torch.manual_seed(7)
        sampled, _, sampled_log_prob = MaskableActorCriticPolicy.forward(
            policy, observation, action_masks=masks
        )
        assert torch.equal(policy.evaluate_actions(observation, actions, masks)[0], value)
        for obs in (observation, changed):
            got = policy.evaluate_actions(obs, actions, action_masks=masks)
            assert torch.allclose(got[1], log_prob, atol=1e-6)
            assert torch.allclose(got[2], entropy, atol=1e-6)
            ours = policy.get_distribution(obs, action_masks=masks).distribution.probs
            assert torch.allclose(ours, probs.distribution.probs, atol=1e-6)
            torch.manual_seed(7)
            forward = policy(obs, action_masks=masks)
            assert torch.equal(forward[0], sampled)
            assert torch.allclose(forward[2], sampled_log_prob, atol=1e-6)
    # sb3-contrib's three calls scored every row, ours (three per observation) the legal ones
    assert len(logits) == 3 + 1 + 6
    assert all((out[torch.as_tensor(~masks)] != 0).all() for out in logits[:3])
    assert all((out[torch.as_tensor(~masks)] == 0).all() for out in logits[3:])


def _two_linears(linear: nn.Linear, observation: torch.Tensor) -> torch.Tensor:
    """What :class:`PaddedLinear` computed before its own backward: the short observations
    (live rows in the first half) through the weights' first columns, the others whole, by two
    ``linear`` calls whose gradients autograd adds."""
    rows = observation[:, OFFSET:].reshape(len(observation), ACTIONS, 3)
    live = rows.abs().sum(dim=2) > 0
    extent = torch.where(live.any(dim=1), ACTIONS - live.flip(1).int().argmax(1), 0)
    short = extent <= ACTIONS // 2
    columns = OFFSET + int(extent[short].max()) * 3
    first, rest = short.nonzero().squeeze(1), (~short).nonzero().squeeze(1)
    weight, bias = linear.weight, linear.bias
    out = nn.functional.linear(observation[first, :columns], weight[:, :columns], bias)
    whole = nn.functional.linear(observation[rest], weight, bias)
    return torch.cat([out, whole])[torch.argsort(torch.cat([first, rest]))]


@pytest.mark.parametrize("rows", [[0, 1], [3, 5, 0], [0, 1, 2, 3, 4, 5], [4, 1]])
def test_padded_linear_gradients_are_autograds_to_the_bit(rows: list[int]) -> None:
    """Its output and its gradients (weights, bias, observation) are, to the bit, what autograd
    gives the two ``linear`` calls it stands for: its backward only adds the short
    observations' weight gradient into the whole ones' rather than padding it to full size."""
    from pokerzoo.training.policies import PaddedLinear

    torch.manual_seed(3)
    linear = nn.Linear(OFFSET + ACTIONS * 3, 7)
    padded = PaddedLinear(linear, PADDED)
    grads = []
    for forward in (padded, lambda x: _two_linears(linear, x)):
        observation = padded_observations()[rows].requires_grad_(True)
        linear.zero_grad()
        out = forward(observation)
        (out.square() * torch.arange(7.0)).sum().backward()
        grads.append((out, linear.weight.grad.clone(), linear.bias.grad.clone(), observation.grad))
    for got, expected in zip(*grads, strict=True):
        assert torch.equal(got, expected)
