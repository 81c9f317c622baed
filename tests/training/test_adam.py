"""FloorSqrtAdam: torch's Adam to the bit, its square roots above a floor that changes nothing."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from pokerzoo.training.adam import FloorSqrtAdam, sqrt_floor


def _parameters() -> list[torch.nn.Parameter]:
    torch.manual_seed(1)
    return [
        torch.nn.Parameter(torch.randn(60, 40) * 0.1),  # columns filled over time: floored
        torch.nn.Parameter(torch.randn(40) * 0.1),  # dense: rooted as torch roots it
        torch.nn.Parameter(torch.zeros(30)),  # never a gradient but zeros and tiny ones
        torch.nn.Parameter(torch.randn(5, 7)),  # a gradient only now and then
    ]


def _gradients(params: list[torch.Tensor], step: int, g: torch.Generator) -> list[torch.Tensor]:
    out = []
    for k, p in enumerate(params):
        grad = torch.randn(p.shape, generator=g) * torch.exp(torch.randn(p.shape, generator=g) * 6)
        grad[torch.rand(p.shape, generator=g) < 0.5] = 0
        grad[torch.rand(p.shape, generator=g) < 0.1] *= 1e-20  # subnormal second moments
        if k == 0:
            grad[:, : max(30 - step // 5, 0)] = 0
        if k == 2:
            grad = torch.where(torch.rand(p.shape, generator=g) < 0.9, 0.0, grad * 1e-21)
        out.append(grad)
    return out


@pytest.mark.parametrize("eps", [1e-5, 1e-8])
def test_the_parameters_are_torchs_adam_to_the_bit(eps: float) -> None:
    """Hundreds of steps of sparse gradients spanning many magnitudes (zero, subnormal and
    huge second moments; a parameter left without a gradient on some steps; two parameter
    groups, their step sizes changed on the way): the parameters and every moment are torch's
    ``foreach`` Adam's, bit for bit."""
    ours, theirs = _parameters(), _parameters()

    def groups(params: list[torch.nn.Parameter]) -> list[dict]:
        return [{"params": params[:2]}, {"params": params[2:], "lr": 3e-3}]

    mine = FloorSqrtAdam(groups(ours), lr=6e-4, eps=eps, foreach=True)
    torchs = torch.optim.Adam(groups(theirs), lr=6e-4, eps=eps, foreach=True)
    g = torch.Generator().manual_seed(0)
    rooted = set()  # (parameter, floored) pairs seen
    for step in range(300):
        grads = _gradients(ours, step, g)
        for k, (a, b, grad) in enumerate(zip(ours, theirs, grads, strict=True)):
            none = k == 3 and step % 3 == 0
            a.grad = None if none else grad.clone()
            b.grad = None if none else grad.clone()
        mine.step()
        torchs.step()
        rooted |= {(k, mine._floored[p]) for k, p in enumerate(ours) if p in mine._floored}
        if step % 40 == 0:
            for opt in (mine, torchs):
                for group in opt.param_groups:
                    group["lr"] *= 0.7
    assert {(0, True), (2, True), (1, False)} <= rooted  # both ways of rooting were taken
    for a, b in zip(ours, theirs, strict=True):
        assert torch.equal(a, b)
        for key in ("step", "exp_avg", "exp_avg_sq"):
            assert torch.equal(mine.state[a][key], torchs.state[b][key])
    tiny = torch.finfo(torch.float32).tiny
    moments = mine.state[ours[2]]["exp_avg_sq"]
    assert ((moments > 0) & (moments < tiny)).any()  # (zeros: the first columns, early on)


@pytest.mark.parametrize(("eps", "beta2"), [(1e-5, 0.999), (1e-8, 0.999), (1e-3, 0.9), (1.0, 0.5)])
def test_below_the_floor_the_divisor_is_eps_at_every_step(eps: float, beta2: float) -> None:
    """For every second moment up to the floor (the floor, subnormals, zero) the divisor rounds
    to ``eps`` already at the first step, where the bias correction divides the most."""
    floor = sqrt_floor(eps, beta2)
    assert floor > 0
    v = torch.tensor([floor, floor / 3, 1e-40, 1e-45, 0.0], dtype=torch.float32)
    for t in (1, 2, 10, 10_000):
        divisor = torch.sqrt(v) / (1 - beta2**t) ** 0.5 + eps
        assert torch.equal(divisor, torch.full_like(v, eps))
    # twice the floor's square root would not: the floor is not far from the bound
    above = torch.tensor([64 * floor], dtype=torch.float32)
    assert not torch.equal(torch.sqrt(above) / (1 - beta2) ** 0.5 + eps, torch.tensor([eps]))


def test_a_copy_steps_as_the_original() -> None:
    import copy
    import pickle

    params = _parameters()
    mine = FloorSqrtAdam(params, lr=1e-3, foreach=True)
    g = torch.Generator().manual_seed(3)
    for p, grad in zip(params, _gradients(params, 0, g), strict=True):
        p.grad = grad
    mine.step()
    for twin in (copy.deepcopy(mine), pickle.loads(pickle.dumps(mine))):
        copies = [p for group in twin.param_groups for p in group["params"]]
        for p, grad in zip(copies, _gradients(copies, 1, g), strict=True):
            p.grad = grad
        twin.step()  # its own copies of the parameters and their state
        assert twin._floored
        assert not any(torch.equal(p, q) for p, q in zip(params, copies, strict=True))


def test_no_floor_where_none_is_a_normal_float() -> None:
    assert sqrt_floor(1e-30, 0.999) == 0.0  # eps so small its spacing squares to nothing
    assert sqrt_floor(1e-5, 1.0) == 0.0
    assert sqrt_floor(0.0, 0.999) == 0.0
    assert np.float32(sqrt_floor(1e-5, 0.999)) == sqrt_floor(1e-5, 0.999)


@pytest.mark.parametrize(
    "options",
    [
        {"amsgrad": True},
        {"weight_decay": 0.01},
        {"maximize": True},
        {"foreach": False},
        {"eps": 1e-30},
    ],
)
def test_other_configurations_step_as_torchs_adam(options: dict) -> None:
    ours, theirs = _parameters(), _parameters()
    mine = FloorSqrtAdam(ours, lr=1e-3, **{"foreach": True, **options})
    torchs = torch.optim.Adam(theirs, lr=1e-3, **{"foreach": True, **options})
    g = torch.Generator().manual_seed(2)
    for step in range(30):
        for a, b, grad in zip(ours, theirs, _gradients(ours, step, g), strict=True):
            a.grad, b.grad = grad.clone(), grad.clone()
        mine.step()
        torchs.step()
    assert all(torch.equal(a, b) for a, b in zip(ours, theirs, strict=True))
    assert not mine._floored  # torch's own step every time


def test_policies_step_with_it_and_save_torchs_adam() -> None:
    """A policy built with torch's Adam steps with FloorSqrtAdam; what it saves names Adam and
    holds Adam's state, so a saved run loads anywhere torch's Adam does."""
    import gymnasium
    from pokerzoo.training.masked_sampling import MaskablePolicy

    policy = MaskablePolicy(
        gymnasium.spaces.Box(0, 1, (6,)), gymnasium.spaces.Discrete(3), lambda _: 1e-3
    )
    assert type(policy.optimizer) is FloorSqrtAdam
    assert policy._get_constructor_parameters()["optimizer_class"] is torch.optim.Adam
    loss = policy.evaluate_actions(torch.rand(4, 6), torch.tensor([0, 1, 2, 0]))[1].sum()
    loss.backward()
    policy.optimizer.step()
    plain = torch.optim.Adam(policy.parameters(), lr=1e-3)
    plain.load_state_dict(policy.optimizer.state_dict())
    assert set(plain.state_dict()["state"][0]) == {"step", "exp_avg", "exp_avg_sq"}
