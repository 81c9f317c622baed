"""A MaskablePPO policy that scores every action with one shared network (config
``ppo.policy: per_action``).

Some games' actions are alike: in Poker Squares each action is a cell, and what makes a cell good
(the cards already in its row and column) has the same meaning for all 25. A flat MLP with 25
separate outputs must learn that 25 times; :class:`PerActionPolicy` instead reads a feature row
per action from the observation (the game's feature set lays them out, e.g.
:func:`pokerzoo.training.features.poker_squares_lines`), adds a learned summary of the whole
observation, and scores each row with one small MLP shared by all actions. The value network is
an ordinary MLP over the whole observation (``net_arch``).

A feature set may also lay out *suggestions*: ``K`` candidates (e.g. plans for the deal, see
:mod:`pokerzoo.training.quintet_plans`), each with a column saying how much it favours each
action and ``S`` statistics of its own. The head's *gate* then adds to each action's logit
``sum_k g(stats_k, k) * suggestion_k``, where ``g`` is a small network shared by the
candidates, starting at a constant weight for every candidate: the policy starts by following
what the candidates agree on and learns from the returns which candidates to trust.
"""

from __future__ import annotations

from typing import Any

import torch
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from torch import nn

__all__ = ["PerActionHead", "PerActionPolicy"]


class PerActionHead(nn.Module):
    """Observation ``(N, D)`` -> one logit per action ``(N, A)``.

    ``offset``: where the ``A`` rows of ``k`` per-action features start in the observation;
    entries before it form the context, summarised by a linear layer of width ``context``.
    ``gate``: ``(column, K, stats_column, S, weight)``: columns ``column .. column + K - 1`` of
    each row are the ``K`` candidates' suggestions; ``K * S`` entries from ``stats_column`` of
    the first row are their statistics (``S`` per candidate); ``weight`` is the gate's start.
    """

    def __init__(
        self,
        offset: int,
        actions: int,
        k: int,
        head_arch: list[int],
        context: int,
        activation: type[nn.Module],
        gate: tuple[int, int, int, int, float] | None = None,
    ) -> None:
        super().__init__()
        self.offset, self.actions, self.k = offset, actions, k
        self.gate = None if gate is None else tuple(gate)
        if gate is not None:  # no parameters without a gate: models without one load unchanged
            _, plans, _, stats, weight = gate
            self.gate_net = nn.Sequential(
                nn.Linear(stats + plans, 16), activation(), nn.Linear(16, 1)
            )
            last = self.gate_net[-1]
            assert isinstance(last, nn.Linear)
            nn.init.zeros_(last.weight)  # every candidate starts with the same weight
            nn.init.constant_(last.bias, float(weight))
        self.context = nn.Sequential(nn.Linear(offset, context), activation())
        layers: list[nn.Module] = []
        width = k + context
        for size in head_arch:
            layers += [nn.Linear(width, size), activation()]
            width = size
        layers.append(nn.Linear(width, 1))
        self.score = nn.Sequential(*layers)

    def forward(self, observation: torch.Tensor) -> torch.Tensor:
        n = observation.shape[0]
        rows = observation[:, self.offset : self.offset + self.actions * self.k]
        rows = rows.reshape(n, self.actions, self.k)
        context = self.context(observation[:, : self.offset])
        context = context.unsqueeze(1).expand(n, self.actions, context.shape[-1])
        logits = self.score(torch.cat([rows, context], dim=2)).squeeze(2)
        if self.gate is not None:
            column, plans, stats_column, stats, _ = self.gate
            plan_stats = rows[:, 0, stats_column : stats_column + plans * stats]
            identity = torch.eye(plans, device=rows.device).expand(n, plans, plans)
            weights = self.gate_net(torch.cat([plan_stats.reshape(n, plans, stats), identity], 2))
            suggestions = rows[:, :, column : column + plans]  # (N, A, K)
            logits = logits + (suggestions * weights.squeeze(2).unsqueeze(1)).sum(dim=2)
        return logits


class PerActionPolicy(MaskableActorCriticPolicy):
    """MaskableActorCriticPolicy whose action logits come from :class:`PerActionHead`.

    Extra keyword arguments (``policy_kwargs``): ``per_action=(offset, actions, k)`` or
    ``(offset, actions, k, column, K, stats_column, S, weight)`` (with a gate over ``K``
    candidates' suggestions, see :class:`PerActionHead`),
    ``head_arch`` (hidden sizes of the shared scorer), ``context`` (context width).
    """

    def __init__(
        self,
        *args: Any,
        per_action: tuple[int, ...],
        head_arch: list[int] | None = None,
        context: int = 64,
        **kwargs: Any,
    ) -> None:
        self.per_action = tuple(per_action)
        self.head_arch = list(head_arch or [64, 64])
        self.context_width = context
        net_arch = kwargs.pop("net_arch", None) or [256, 256]
        vf = net_arch["vf"] if isinstance(net_arch, dict) else list(net_arch)
        # The policy side reads the raw observation; only the value side has hidden layers.
        kwargs["net_arch"] = {"pi": [], "vf": vf}
        super().__init__(*args, **kwargs)

    def _build(self, lr_schedule: Any) -> None:
        super()._build(lr_schedule)
        offset, actions, k = self.per_action[:3]
        if len(self.per_action) not in (3, 8):
            raise ValueError(
                f"bad per_action {self.per_action!r}: expected (offset, actions, k) or "
                "(offset, actions, k, column, K, stats_column, S, weight)"
            )
        gate = self.per_action[3:8] if len(self.per_action) == 8 else None
        if actions != self.action_space.n:
            raise ValueError(f"per_action has {actions} actions, the env {self.action_space.n}")
        self.action_net = PerActionHead(
            offset,
            actions,
            k,
            self.head_arch,
            self.context_width,
            self.activation_fn,
            gate,  # type: ignore[arg-type]
        )
        # Rebuild the optimizer so it holds the new head's parameters.
        self.optimizer = self.optimizer_class(
            self.parameters(), lr=lr_schedule(1), **self.optimizer_kwargs
        )

    def _get_constructor_parameters(self) -> dict[str, Any]:
        data = super()._get_constructor_parameters()
        data.update(
            per_action=self.per_action, head_arch=self.head_arch, context=self.context_width
        )
        return data
