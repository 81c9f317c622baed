"""Baseline Quintet bots (RULES §1), all following :class:`pokerzoo.agents.base.Bot`.

A bot reads the 25 cards from its first observation (the placement order is fixed and known),
plans its whole row of five packs at once, then places each card where the plan says. Only the
public engine API is used: the observation layout of :mod:`pokerzoo.envs.quintet` and the
``"quintet"`` hand keys of :mod:`pokerzoo.envs.hands`.

=================  ==============================================================================
``"random"``       a uniformly random legal pack for every card.
``"greedy"``       forms the strongest pack of the 25 cards, then the strongest of the remaining
                   20, and so on; the strongest goes to the 7-point position, the next to 6, ...,
                   the leftover five to 3.
``"sacrifice"``    greedy's packs, placed to beat greedy: the weakest pack gives up the 7-point
                   slot and every other pack moves one slot up (strongest on 6, ..., fourth on 3),
                   winning 3 + 4 + 5 + 6 = 18 points against 7 when the packs are all distinct.
``"mixed"``        greedy's packs in a random order drawn from the equilibrium of the "order"
                   game (both players hold the same five packs ranked 1..5 and choose which
                   position each goes to): no order of those packs beats it on average.
``"best_response"``  the best reply to a sampled mix of opponents (greedy, sacrifice and samples
                   of mixed, one third each): picks the best order of greedy's packs against the
                   mix, then improves the packs themselves by swapping cards between them while
                   the expected result against the mix improves.
=================  ==============================================================================

The packs, the order game and the best reply are worked out by
:mod:`pokerzoo.envs.quintet.analysis`, beside the rules; the bots lay out what it finds.

The planning bots answer a batch of rows (their own instances, each with its own generator) in
one classmethod call, ``act_batch`` (:func:`pokerzoo.envs.core.bots.act_batch`, the vector envs):
the same decisions as each bot's ``act``; best-response bots that start a deal together search
their rows together (:func:`~pokerzoo.envs.quintet.analysis.best_response_plans`).

Bots that optimise take the env's ``reward`` option: ``"points"`` maximises the expected point
margin, ``"win"`` the expected win - loss rate. Every bot takes keyword-only ``seed`` and ignores
other env options, so ``BOTS[name](seed=s, **env_options)`` builds any of them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..envs.core.options import check_choice
from ..envs.quintet import DECK, LAYOUT, NUM_PACKS, PACK_SIZE, REWARDS
from ..envs.quintet.analysis import (
    BEST_RESPONSE_SAMPLES,
    BEST_RESPONSE_SWAPS,
    GREEDY_ORDER,
    ORDERS,
    SACRIFICE_ORDER,
    best_response_plan,
    best_response_plans,
    greedy_packs,
    order_equilibrium,
    ordered,
    strength_levels,
)
from .base import RandomBot

__all__ = [
    "BOTS",
    "BestResponseBot",
    "GreedyBot",
    "MixedBot",
    "RandomBot",
    "SacrificeBot",
]

_LOWEST_ID = int(DECK[0])
_CARD_IDS = _LOWEST_ID + len(DECK)
"""Card ids below the piquet deck's end: the size of a bot's card -> pack table."""


# --- bots ----------------------------------------------------------------------------------------
def _check_reward(reward: str) -> str:
    return check_choice("reward", reward, REWARDS)


_DEALT = LAYOUT["dealt"]
_CURRENT = LAYOUT["current"]
_PLACED = LAYOUT.start("placed")
_POSITIONS = np.repeat(np.arange(NUM_PACKS), PACK_SIZE)


class _PlanningBot:
    """Plans the whole row at the first card of a deal, then follows the plan.

    A plan is a row: ``row[j]`` the five card ids of the pack at position ``j``. If the plan's
    pack is ever masked (the bot was dropped into a deal it did not start), the bot falls back to
    the legal pack worth the most points.

    :meth:`act_batch` decides for many bots at once exactly as each one's :meth:`act` would
    (the observations read in one go, each bot planning with its own generator).
    """

    name = "planning"

    def __init__(self, *, seed: int | None = None, reward: str = "points", **env_options: Any):
        self.objective = _check_reward(reward)
        self.reset(seed)

    def reset(self, seed: int | None = None) -> None:
        self._rng = np.random.default_rng(seed)
        self._deal: bytes | None = None  # the dealt-card flags of the planned deal
        self._pack_of = np.full(_CARD_IDS, -1, dtype=np.int64)

    def plan(self, cards: np.ndarray) -> np.ndarray:
        """The row to play with these 25 cards: ``int64 (5, 5)``, position 1 first."""
        raise NotImplementedError

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        observation = np.asarray(observation)
        if observation.shape != (LAYOUT.size,):
            raise ValueError(
                f"expected a Quintet observation of shape ({LAYOUT.size},), got {observation.shape}"
            )
        dealt = observation[_DEALT] != 0
        deal = dealt.tobytes()
        if int(observation[_PLACED]) == 0 or deal != self._deal:
            self._follow(self.plan(np.flatnonzero(dealt) + _LOWEST_ID), deal)
        current = np.flatnonzero(observation[_CURRENT])
        return self._choose(int(current[0]) + _LOWEST_ID if current.size else -1, action_mask)

    @classmethod
    def act_batch(
        cls, bots: Sequence[_PlanningBot], observations: np.ndarray, action_masks: np.ndarray
    ) -> np.ndarray:
        """``bots[i].act(observations[i], action_masks[i])`` for every row, in one call: the
        observations are read as one array and the bots that start a deal are handed to
        :meth:`_plan_rows` together (best-response bots search together); each bot draws from
        its own generator as it would alone. A bot named in two rows is asked row by row (its
        second row sees its first row's plan)."""
        observations = np.asarray(observations)
        if len({id(bot) for bot in bots}) < len(bots):
            return np.array(
                [b.act(o, m) for b, o, m in zip(bots, observations, action_masks, strict=True)],
                dtype=np.int64,
            )
        if observations.ndim != 2 or observations.shape[1] != LAYOUT.size:
            raise ValueError(
                f"expected Quintet observations of shape (N, {LAYOUT.size}), got "
                f"{observations.shape}"
            )
        dealt = observations[:, _DEALT] != 0
        deals = [row.tobytes() for row in dealt]
        fresh = [
            i
            for i, (bot, deal) in enumerate(zip(bots, deals, strict=True))
            if int(observations[i, _PLACED]) == 0 or deal != bot._deal
        ]
        if fresh:
            cards = [np.flatnonzero(dealt[i]) + _LOWEST_ID for i in fresh]
            rows = cls._plan_rows([bots[i] for i in fresh], cards)
            for i, row in zip(fresh, rows, strict=True):
                bots[i]._follow(row, deals[i])
        current = observations[:, _CURRENT]
        has_card = current.any(axis=1)
        cards_now = np.where(has_card, np.argmax(current != 0, axis=1) + _LOWEST_ID, -1)
        return np.array(
            [
                bot._choose(int(card), mask)
                for bot, card, mask in zip(bots, cards_now.tolist(), action_masks, strict=True)
            ],
            dtype=np.int64,
        )

    @classmethod
    def _plan_rows(cls, bots: Sequence[_PlanningBot], cards: Sequence[np.ndarray]) -> list:
        """Each bot's :meth:`plan` of its 25 cards (ascending ids), in row order."""
        return [bot.plan(c) for bot, c in zip(bots, cards, strict=True)]

    def _follow(self, row: np.ndarray, deal: bytes) -> None:
        """Play ``row`` on the deal whose dealt-card flags are ``deal``."""
        self._pack_of[row.ravel()] = _POSITIONS
        self._deal = deal

    def _choose(self, card: int, action_mask: np.ndarray) -> int:
        """The planned pack of ``card`` (-1: no card to place), else the legal pack worth
        the most points."""
        pack = int(self._pack_of[card]) if card >= 0 else -1
        if pack >= 0 and action_mask[pack]:
            return pack
        legal = np.flatnonzero(action_mask)
        if legal.size == 0:
            raise ValueError("no legal action: the action mask is all zeros")
        return int(legal[-1])


class GreedyBot(_PlanningBot):
    """Strongest packs first; the strongest on the 7-point position."""

    name = "greedy"

    def plan(self, cards: np.ndarray) -> np.ndarray:
        packs, _ = greedy_packs(cards)
        return ordered(packs, GREEDY_ORDER)


class SacrificeBot(_PlanningBot):
    """Greedy's packs; the weakest gives up the 7-point slot, the others move one slot up."""

    name = "sacrifice"

    def plan(self, cards: np.ndarray) -> np.ndarray:
        packs, _ = greedy_packs(cards)
        return ordered(packs, SACRIFICE_ORDER)


class MixedBot(_PlanningBot):
    """Greedy's packs in an order drawn from the order game's equilibrium."""

    name = "mixed"

    def plan(self, cards: np.ndarray) -> np.ndarray:
        packs, keys = greedy_packs(cards)
        mix = order_equilibrium(self.objective, strength_levels(keys))
        return ordered(packs, ORDERS[self._rng.choice(len(ORDERS), p=mix)])


class BestResponseBot(_PlanningBot):
    """Best reply to a sampled mix of greedy, sacrifice and mixed (one third each):
    :func:`~pokerzoo.envs.quintet.analysis.best_response_plan`.

    Args:
        seed: seeds the samples of the mixed bot's orders.
        reward: ``"points"`` maximise the expected margin, ``"win"`` the expected win - loss.
        samples: orders drawn from the equilibrium to stand for the mixed bot.
        max_swaps: card swaps tried at most while improving the packs.
    """

    name = "best_response"

    def __init__(
        self,
        *,
        seed: int | None = None,
        reward: str = "points",
        samples: int = BEST_RESPONSE_SAMPLES,
        max_swaps: int = BEST_RESPONSE_SWAPS,
        **env_options: Any,
    ) -> None:
        if isinstance(samples, bool) or not isinstance(samples, int) or samples < 1:
            raise ValueError(f"bad samples {samples!r}: expected a positive int")
        if isinstance(max_swaps, bool) or not isinstance(max_swaps, int) or max_swaps < 0:
            raise ValueError(f"bad max_swaps {max_swaps!r}: expected an int >= 0")
        self.samples = samples
        self.max_swaps = max_swaps
        super().__init__(seed=seed, reward=reward)

    def plan(self, cards: np.ndarray) -> np.ndarray:
        return self.plan_from(*greedy_packs(cards))

    @classmethod
    def _plan_rows(cls, bots: Sequence[_PlanningBot], cards: Sequence[np.ndarray]) -> list:
        """Each bot's :meth:`plan`, the bots with the same options searching together
        (:func:`~pokerzoo.envs.quintet.analysis.best_response_plans`: the same rows, each bot
        drawing from its own generator)."""
        planners = [bot for bot in bots if isinstance(bot, BestResponseBot)]
        if len(planners) < len(bots) or any(
            type(bot).plan is not BestResponseBot.plan
            or type(bot).plan_from is not BestResponseBot.plan_from
            for bot in planners
        ):
            return super()._plan_rows(bots, cards)
        rows: list = [None] * len(bots)
        greedy = [greedy_packs(c) for c in cards]
        alike: dict[tuple[str, int, int], list[int]] = {}
        for i, bot in enumerate(planners):
            alike.setdefault((bot.objective, bot.samples, bot.max_swaps), []).append(i)
        for (objective, samples, max_swaps), members in alike.items():
            found = best_response_plans(
                np.stack([greedy[i][0] for i in members]),
                np.stack([greedy[i][1] for i in members]),
                [planners[i]._rng for i in members],
                objective=objective,
                samples=samples,
                max_swaps=max_swaps,
            )
            for i, row in zip(members, found, strict=True):
                rows[i] = row
        return rows

    def plan_from(self, packs: np.ndarray, keys: np.ndarray) -> np.ndarray:
        """:meth:`plan` from greedy's ``packs`` and ``keys`` of the deal (computed once by
        callers that need them too)."""
        return best_response_plan(
            packs,
            keys,
            self._rng,
            objective=self.objective,
            samples=self.samples,
            max_swaps=self.max_swaps,
        )


BOTS: dict[str, type] = {
    bot.name: bot for bot in (RandomBot, GreedyBot, SacrificeBot, MixedBot, BestResponseBot)
}
