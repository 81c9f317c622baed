"""A MaskablePPO policy that scores every action with one shared network (config
``ppo.policy: per_action``).

Some games' actions are alike: in Poker Squares each action is a cell, and what makes a cell good
(the cards already in its row and column) has the same meaning for all 25. A flat MLP with 25
separate outputs must learn that 25 times; :class:`PerActionPolicy` instead reads a feature row
per action from the observation (the game's feature set lays them out, e.g.
:func:`pokerzoo.training.features.poker_squares_lines`), adds a learned summary of the whole
observation, and scores each row with one small MLP shared by all actions. The value network is
an ordinary MLP over the whole observation (``net_arch``).
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
    """

    def __init__(
        self,
        offset: int,
        actions: int,
        k: int,
        head_arch: list[int],
        context: int,
        activation: type[nn.Module],
        prior: tuple[int, float] | None = None,
    ) -> None:
        super().__init__()
        self.offset, self.actions, self.k = offset, actions, k
        # A prior: one column of the rows added to the logits with a learned weight that starts
        # at the given value, so the policy starts out following that feature (e.g. a plan).
        self.prior_column = None if prior is None else int(prior[0])
        if prior is not None:  # no parameter without a prior: older models load unchanged
            self.prior_weight = nn.Parameter(torch.tensor(float(prior[1])))
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
        if self.prior_column is not None:
            logits = logits + self.prior_weight * rows[:, :, self.prior_column]
        return logits


class PerActionPolicy(MaskableActorCriticPolicy):
    """MaskableActorCriticPolicy whose action logits come from :class:`PerActionHead`.

    Extra keyword arguments (``policy_kwargs``): ``per_action=(offset, actions, k)`` or
    ``(offset, actions, k, column, weight)`` (a prior: row column ``column`` times a learned
    weight starting at ``weight`` is added to each action's logit),
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
        prior = tuple(self.per_action[3:5]) if len(self.per_action) >= 5 else None
        if actions != self.action_space.n:
            raise ValueError(f"per_action has {actions} actions, the env {self.action_space.n}")
        self.action_net = PerActionHead(
            offset, actions, k, self.head_arch, self.context_width, self.activation_fn, prior
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
