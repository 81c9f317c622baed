"""The per-action policy head: one shared scorer, and the gate over candidates' suggestions."""

from __future__ import annotations

from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest
import torch
from pokerzoo.training.features import Gate, PerActionLayout
from pokerzoo.training.policies import ContextLinear, PerActionHead, PerActionPolicy
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


def test_padded_head_scores_live_rows_as_the_plain_head_and_padding_zero() -> None:
    torch.manual_seed(0)
    padded = PerActionHead(PADDED, [8], 4, nn.ReLU)
    plain = PerActionHead(PerActionLayout(OFFSET, ACTIONS, 3), [8], 4, nn.ReLU)
    plain.load_state_dict(padded.state_dict())
    observation = padded_observations()
    live = observation[:, OFFSET:].view(6, ACTIONS, 3).abs().sum(dim=2) > 0
    got, expected = padded(observation), plain(observation)
    assert torch.allclose(got[live], expected[live], atol=1e-6)
    assert (got[~live] == 0).all()
    assert int(live.sum()) == 2 + 1 + 2 + 5 + 0 + 5


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


def _policy(value_input: str, padding: bool = False) -> PerActionPolicy:
    torch.manual_seed(0)
    width = OFFSET + ACTIONS * 3
    return PerActionPolicy(
        gym.spaces.Box(0.0, 1.0, (width,), np.float32),
        gym.spaces.Discrete(ACTIONS),
        lambda _: 3e-4,
        per_action=PerActionLayout(OFFSET, ACTIONS, 3, padding=padding),
        net_arch=[16, 16],
        head_arch=[8],
        context=4,
        value_input=value_input,
    )


@pytest.mark.parametrize("padding", [False, True])
def test_a_context_value_network_reads_the_context_only(padding: bool) -> None:
    """``value_input="context"``: the value network's first layer has the context's inputs,
    the values move with the context and not with the rows, and the optimizer holds it."""
    policy = _policy("context", padding)
    first = policy.mlp_extractor.value_net[0]
    assert isinstance(first, ContextLinear)
    assert (first.in_features, first.out_features) == (OFFSET, 16)
    held = {id(p) for group in policy.optimizer.param_groups for p in group["params"]}
    assert id(first.weight) in held and id(first.bias) in held
    observation = padded_observations()
    other_rows = observation.clone()
    other_rows[:, OFFSET:] = torch.rand_like(other_rows[:, OFFSET:])
    other_context = observation.clone()
    other_context[:, :OFFSET] = torch.rand_like(other_context[:, :OFFSET])
    with torch.no_grad():
        values = policy.predict_values(observation)
        assert torch.equal(policy.predict_values(other_rows), values)
        assert not torch.allclose(policy.predict_values(other_context), values)
        # the whole observation's value network does read the rows
        whole = _policy("observation", padding)
        assert not torch.allclose(
            whole.predict_values(other_rows), whole.predict_values(observation)
        )


def test_a_context_value_network_is_saved_with_the_policy(tmp_path: Path) -> None:
    """A saved policy rebuilds with the value input it was trained with."""
    policy = _policy("context")
    path = f"{tmp_path}/policy.pt"
    policy.save(path)
    loaded = PerActionPolicy.load(path)
    assert loaded.value_input == "context"
    assert isinstance(loaded.mlp_extractor.value_net[0], ContextLinear)
    observation = padded_observations()
    with torch.no_grad():
        assert torch.equal(loaded.predict_values(observation), policy.predict_values(observation))


def test_an_unknown_value_input_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match=r"bad value_input 'rows': expected one of"):
        _policy("rows")


@pytest.mark.parametrize("padding", [False, True])
def test_pooled_rows_are_the_context_beside_the_rows_max_and_mean(padding: bool) -> None:
    """``value_input="pooled"``: the first layer's output is its linear layer over the context,
    the maximum and the mean of the rows' embeddings (the live rows only with padding, zeros
    where none are live), computed here row by row."""
    from pokerzoo.training.policies import PooledRows

    policy = _policy("pooled", padding)
    first = policy.mlp_extractor.value_net[0]
    assert isinstance(first, PooledRows)
    observation = padded_observations()
    rows = observation[:, OFFSET:].reshape(len(observation), ACTIONS, 3)
    expected = []
    with torch.no_grad():
        for context, its_rows in zip(observation[:, :OFFSET], rows, strict=True):
            live = [r for r in its_rows if not padding or r.abs().sum() > 0]
            embedded = torch.stack([first.embed(r) for r in live]) if live else torch.zeros(1, 16)
            pooled = torch.cat([context, embedded.max(dim=0).values, embedded.mean(dim=0)])
            expected.append(first.linear(pooled))
        assert torch.allclose(first(observation), torch.stack(expected), atol=1e-6)
        # a set of rows: their order does not matter
        flipped = torch.cat([observation[:, :OFFSET], rows.flip(1).reshape(len(rows), -1)], 1)
        assert torch.allclose(policy.predict_values(flipped), policy.predict_values(observation))
