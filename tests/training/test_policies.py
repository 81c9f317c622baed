"""The per-action policy head: one shared scorer, and the gate over candidates' suggestions."""

from __future__ import annotations

import pytest
import torch
from pokerzoo.training.features import Gate, PerActionLayout
from pokerzoo.training.policies import PerActionHead
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
