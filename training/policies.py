"""A MaskablePPO policy that scores every action with one shared network (config
``ppo.policy: per_action``).

Some games' actions are alike: in Poker Squares each action is a cell, and what makes a cell good
(the cards already in its row and column) has the same meaning for all 25. A flat MLP with 25
separate outputs must learn that 25 times; :class:`PerActionPolicy` instead reads a feature row
per action from the observation (the game's feature set lays them out and says where, with a
:class:`~pokerzoo.training.features.PerActionLayout`; e.g. Poker Squares' ``"lines"``), adds a
learned summary of the whole observation, and scores each row with one small MLP shared by all
actions. The value network is
an ordinary MLP over the whole observation (``net_arch``).

A feature set may also lay out *suggestions*: ``K`` candidates (e.g. plans for the deal, see
:mod:`pokerzoo.training.games.quintet`), each with a column saying how much it favours each
action and ``S`` statistics of its own. The head's *gate* then adds to each action's logit
``sum_k g(stats_k, k) * suggestion_k``, where ``g`` is a small network shared by the
candidates, starting at a constant weight for every candidate: the policy starts by following
what the candidates agree on and learns from the returns which candidates to trust.

Wherever the action masks are known (the rollouts, training's ``evaluate_actions``,
``predict``), the head scores the legal actions' rows only and gives the others logit 0, which a
masked distribution never reads: poker without a name has about 3 legal actions of its 66.

Where the layout says rows of zeros are padding (``PerActionLayout.padding``: Quintet's ``packs``
formulation, whose four pack decisions fill at most 16 of their 120 rows), neither network
multiplies them: the head scores the other rows only, and the value network's first layer
(:class:`PaddedLinear`) reads each observation only up to its last row that is not padding:
the same functions up to rounding, in less time.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch
from torch import nn

from .features import PerActionLayout
from .masked_sampling import MaskablePolicy

__all__ = ["PaddedLinear", "PerActionHead", "PerActionPolicy"]


def _live(rows: torch.Tensor) -> torch.Tensor:
    """``(N, A)``: which rows of ``(N, A, W)`` are not all zeros (a sum of absolute values:
    several times faster than ``ne(0).any``)."""
    return rows.abs().sum(dim=2) > 0


class PerActionHead(nn.Module):
    """Observation ``(N, D)`` -> one logit per action ``(N, A)``.

    ``layout`` says where the ``A`` rows of per-action features start in the observation;
    entries before them form the context, summarised by a linear layer of width ``context``.
    With ``layout.padding``, rows of zeros are not scored (logit 0: the mask drops them).
    With ``layout.gate``, columns ``gate.column ..`` of each row are the candidates'
    suggestions, and ``gate.stats`` statistics per candidate from ``gate.stats_column`` of the
    first row feed the gate, whose output starts at ``gate.weight`` for every candidate.
    """

    def __init__(
        self,
        layout: PerActionLayout,
        head_arch: list[int],
        context: int,
        activation: type[nn.Module],
    ) -> None:
        super().__init__()
        self.layout = layout
        gate = layout.gate
        if gate is not None:  # no parameters without a gate: models without one load unchanged
            self.gate_net = nn.Sequential(
                nn.Linear(gate.stats + gate.candidates, 16), activation(), nn.Linear(16, 1)
            )
            last = self.gate_net[-1]
            nn.init.zeros_(last.weight)  # every candidate starts with the same weight
            nn.init.constant_(last.bias, float(gate.weight))
        self.context = nn.Sequential(nn.Linear(layout.offset, context), activation())
        layers: list[nn.Module] = []
        width = layout.width + context
        for size in head_arch:
            layers += [nn.Linear(width, size), activation()]
            width = size
        layers.append(nn.Linear(width, 1))
        self.score = nn.Sequential(*layers)

    def forward(self, observation: torch.Tensor, masks: torch.Tensor | None = None) -> torch.Tensor:
        """The logits ``(N, A)`` of ``observation`` ``(N, D)``. With ``masks`` (``bool``
        ``(N, A)``, which actions are legal) only the legal actions' rows are scored and the
        others get 0 before the gate's suggestions: a masked distribution never reads them, and
        a game may have few legal actions of many (poker without a name about 3 of 66)."""
        layout = self.layout
        n = observation.shape[0]
        rows = observation[:, layout.offset : layout.offset + layout.actions * layout.width]
        rows = rows.reshape(n, layout.actions, layout.width)
        context = self.context(observation[:, : layout.offset])
        logits = self._scores(rows, context, masks)
        gate = layout.gate
        if gate is not None:
            k, s = gate.candidates, gate.stats
            plan_stats = rows[:, 0, gate.stats_column : gate.stats_column + k * s]
            identity = torch.eye(k, device=rows.device).expand(n, k, k)
            weights = self.gate_net(torch.cat([plan_stats.reshape(n, k, s), identity], 2))
            suggestions = rows[:, :, gate.column : gate.column + k]  # (N, A, K)
            logits = logits + (suggestions * weights.squeeze(2).unsqueeze(1)).sum(dim=2)
        return logits

    def _scores(
        self, rows: torch.Tensor, context: torch.Tensor, masks: torch.Tensor | None
    ) -> torch.Tensor:
        """The shared scorer's logit of every row ``(N, A)`` beside its observation's context
        ``(N, C)``. Only some rows are scored, the others get 0: with ``masks`` the legal
        actions' rows, and with ``layout.padding`` the rows that are not all zeros (a Quintet
        candidate decision has at most 16 of 120).

        The scorer reads each row beside the context (its first layer's weights: the row's
        columns, then the context's), but the context's share of the first layer is the same
        for every row of an observation: it is computed once per observation and added to
        each row's, rather than copied beside all ``A`` rows and multiplied ``A`` times. The
        same function up to rounding, the same parameters."""
        n, actions = rows.shape[:2]
        first, rest = self.score[0], self.score[1:]
        width = self.layout.width
        shared = nn.functional.linear(context, first.weight[:, width:], first.bias)  # (N, H)
        scored = masks
        if self.layout.padding and scored is None:
            scored = _live(rows)
        if scored is None:
            hidden = nn.functional.linear(rows, first.weight[:, :width]) + shared.unsqueeze(1)
            return rest(hidden).squeeze(2)
        at, action = scored.nonzero(as_tuple=True)
        picked = rows[at, action]
        if self.layout.padding and masks is not None:
            # Of the legal rows, the live ones: the rows that masks & _live(rows) would pick,
            # in the same order, without reading every row of the batch.
            live = picked.abs().sum(dim=1) > 0
            if not bool(live.all()):
                at, action, picked = at[live], action[live], picked[live]
        hidden = nn.functional.linear(picked, first.weight[:, :width]) + shared[at]
        scores = rest(hidden).squeeze(1)
        return rows.new_zeros(n, actions).index_put((at, action), scores)


class PaddedLinear(nn.Linear):
    """The value network's first layer over observations whose per-action rows end in padding
    (``layout.padding``): the same weights (and ``state_dict``) as the :class:`~torch.nn.Linear`
    it replaces, but observations whose rows past the first half are all padding are multiplied
    only up to the last row any of them fills (a Quintet pack decision: at most 16 rows of 120,
    2,043 of 14,419 values); the others as a whole. Padding adds nothing to the product, so the
    result is the same up to rounding."""

    def __init__(self, linear: nn.Linear, layout: PerActionLayout) -> None:
        nn.Module.__init__(self)
        self.in_features, self.out_features = linear.in_features, linear.out_features
        self.weight, self.bias = linear.weight, linear.bias
        self.layout = layout

    def forward(self, observation: torch.Tensor) -> torch.Tensor:
        layout = self.layout
        n = observation.shape[0]
        rows = observation[:, layout.offset : layout.offset + layout.actions * layout.width]
        live = _live(rows.reshape(n, layout.actions, layout.width))
        # Rows up to the last live one (0: none live).
        extent = torch.where(live.any(dim=1), layout.actions - live.flip(1).int().argmax(1), 0)
        short = extent <= layout.actions // 2
        if not short.any():
            return nn.functional.linear(observation, self.weight, self.bias)
        columns = layout.offset + int(extent[short].max()) * layout.width
        first, rest = short.nonzero().squeeze(1), (~short).nonzero().squeeze(1)
        return _PaddedProduct.apply(observation, self.weight, self.bias, first, rest, columns)


class _PaddedProduct(torch.autograd.Function):
    """:class:`PaddedLinear`'s product: observations ``first`` times the weights' first
    ``columns`` columns, observations ``rest`` times all of them, each plus the bias.

    Its gradients are the ones autograd gives the same two ``linear`` calls, the same products
    to the bit, but the weights' gradient is made once: the whole observations' product, with
    the short ones' added to its first ``columns`` columns. Autograd instead pads the short
    ones' gradient with zeros to the weights' size (a Quintet value network's first layer: 1.8M
    values) and adds the two, which was a tenth of Quintet's update."""

    @staticmethod
    def forward(  # type: ignore[override]
        ctx: Any,
        observation: torch.Tensor,
        weight: torch.Tensor,
        bias: torch.Tensor | None,
        first: torch.Tensor,
        rest: torch.Tensor,
        columns: int,
    ) -> torch.Tensor:
        short, whole = observation[first, :columns], observation[rest]
        out = observation.new_empty(observation.shape[0], weight.shape[0])
        out[first] = nn.functional.linear(short, weight[:, :columns], bias)
        if rest.numel():
            out[rest] = nn.functional.linear(whole, weight, bias)
        ctx.save_for_backward(short, whole, weight, first, rest)
        ctx.columns = columns
        return out

    @staticmethod
    def backward(  # type: ignore[override]
        ctx: Any, grad: torch.Tensor
    ) -> tuple[torch.Tensor | None, ...]:
        short, whole, weight, first, rest = ctx.saved_tensors
        columns = ctx.columns
        grad_short, grad_whole = grad[first], grad[rest]
        grad_observation = grad_weight = grad_bias = None
        if ctx.needs_input_grad[0]:
            grad_observation = grad.new_zeros(grad.shape[0], weight.shape[1])
            grad_observation[first, :columns] = grad_short.mm(weight[:, :columns])
            if rest.numel():
                grad_observation[rest] = grad_whole.mm(weight)
        if ctx.needs_input_grad[1]:
            # As autograd's addmm backward multiplies: the short weights' transpose is not
            # column-major (it skips columns), the whole weights' is.
            product = short.t().mm(grad_short).t()
            if rest.numel():
                grad_weight = grad_whole.t().mm(whole)
                grad_weight[:, :columns] += product
            else:
                grad_weight = weight.new_zeros(weight.shape)
                grad_weight[:, :columns] = product
        if ctx.needs_input_grad[2]:
            grad_bias = grad_short.sum(0)
            if rest.numel():
                grad_bias = grad_bias + grad_whole.sum(0)
        return grad_observation, grad_weight, grad_bias, None, None, None


class PerActionPolicy(MaskablePolicy):
    """:class:`~.masked_sampling.MaskablePolicy` whose action logits come from
    :class:`PerActionHead`.

    Extra keyword arguments (``policy_kwargs``): ``per_action`` (the feature set's
    :class:`~pokerzoo.training.features.PerActionLayout`), ``head_arch`` (hidden sizes of the
    shared scorer), ``context`` (context width).
    """

    def __init__(
        self,
        *args: Any,
        per_action: PerActionLayout,
        head_arch: list[int] | None = None,
        context: int = 64,
        **kwargs: Any,
    ) -> None:
        if not isinstance(per_action, PerActionLayout):
            raise TypeError(
                f"bad per_action {per_action!r}: expected a PerActionLayout of the feature set"
            )
        self.per_action = per_action
        self.head_arch = [64, 64] if head_arch is None else list(head_arch)
        self.context_width = context
        net_arch = kwargs.pop("net_arch", None)
        if net_arch is None:
            net_arch = [256, 256]
        vf = net_arch["vf"] if isinstance(net_arch, dict) else list(net_arch)
        # The policy side reads the raw observation; only the value side has hidden layers.
        kwargs["net_arch"] = {"pi": [], "vf": vf}
        super().__init__(*args, **kwargs)

    def _build(self, lr_schedule: Any) -> None:
        super()._build(lr_schedule)
        if self.per_action.actions != self.action_space.n:
            raise ValueError(
                f"per_action has {self.per_action.actions} actions, the env {self.action_space.n}"
            )
        self.action_net = PerActionHead(
            self.per_action, self.head_arch, self.context_width, self.activation_fn
        )
        value = self.mlp_extractor.value_net
        if self.per_action.padding and len(value) and isinstance(value[0], nn.Linear):
            value[0] = PaddedLinear(value[0], self.per_action)
        # Rebuild the optimizer so it holds the new head's parameters.
        self.optimizer = self.make_optimizer(lr_schedule(1))

    def _get_constructor_parameters(self) -> dict[str, Any]:
        data = super()._get_constructor_parameters()
        data.update(
            per_action=self.per_action, head_arch=self.head_arch, context=self.context_width
        )
        return data

    def _action_logits(
        self, latent_pi: torch.Tensor, action_masks: np.ndarray | torch.Tensor | None
    ) -> torch.Tensor:
        if action_masks is None:
            return self.action_net(latent_pi)
        masks = torch.as_tensor(action_masks, dtype=torch.bool, device=latent_pi.device)
        return self.action_net(latent_pi, masks.reshape(latent_pi.shape[0], -1))
