"""Quintet's ``"packs"`` action formulation (config ``actions: packs``): the learner lays out its
row a whole pack at a time instead of one card at a time.

All 25 cards are public from the first card on, so a row can be planned before any card is
placed. At the start of a deal the learner makes five decisions (``Discrete(120)``, masked):

1. four times **"take candidate pack k"** (action ``k < K``; ``K = candidates``, 16 by
   default). Candidate ``k`` is the ``k``-th strongest of
   :func:`~pokerzoo.envs.quintet.packs.candidate_packs` of the cards not yet packed: the
   strongest pack of each (category, lead rank) group, so a decision chooses *what kind* of
   pack to take (four aces, a king-high flush, three sevens, ...). The fifth pack is the five
   cards left.
2. once **"lay the five packs out in order i"** (action ``i < 120``): position ``j`` gets the
   pack of strength rank ``ORDERS[i][j]`` (0 = the strongest of the five; equal packs keep the
   order they were taken in). One decision for the whole order lets the learner compare all 120
   orders of its packs directly; laid out pack by pack, an order that wins needs several
   decisions to change at once, and PPO found such changes slowly.

Then the row is played card by card into the real game (:class:`PackRowEnv`): the opponent, a
bot or a snapshot of the learner, plays the game's own actions as always, and the episode pays
the game's reward.

:class:`PackFormulation` is the :class:`~pokerzoo.training.formulations.Formulation`:
:meth:`~PackFormulation.wrap` builds :class:`PackRowEnv`, and
:meth:`~PackFormulation.native_policy` turns a pack-level policy back into a card-level one
(:class:`PlannedRows`: the row is planned at the deal's first card, cached per deal, and each
card goes where the plan says), so evaluation, snapshots, ``pokerzoo evaluate`` and ``pokerzoo
play`` use the agent unchanged.

What the learner sees describes the state only: the cards, the packs it has taken, and for each
candidate its category, lead rank and strength, how it ranks among the packs the remaining cards
can form, and the strongest pack the cards left after it can still form; for each order, which
of its packs lies where, and whether the pack at each position is stronger than, equal to or
weaker than each of its own packs (what the order meets if the opponent holds the same packs,
ties included, without any guess at the opponent's order). No bot's row, no search and no model
of the opponents appears in it.

Observation (``float32``): the context, then one row per action (the row of action ``a``
starts at ``CONTEXT.size + ROW.size * a``): candidate rows while packs are taken (rows past the
candidates are zero), order rows for the last decision; the feature set ``"candidates"`` passes
it on as it is, laid out for ``ppo.policy: per_action``, its rows of zeros marked as padding
(never a legal action's: ``PerActionLayout.padding``), which that policy does not multiply.
"Group" is ``(category index * 8 + lead rank) / 71``, "level" the key's place among the
distinct ``"quintet"`` keys, 0 (weakest) to 1. Card index ``c`` (0..31) is card id ``c + 20``.

Context:

{context_table}

Each action's row:

{row_table}

The hand-written rules :func:`ordered_strongest` make the same decisions: the strongest
candidate each time (which takes greedy's packs), then a fixed order. One of them,
:data:`STRONGEST` (the formulation's rule ``"strongest"``), is played beside every agent of the
formulation by ``pokerzoo evaluate`` on the same deals: what learning added over it is what the
agent's own choices of packs and order are worth.

Version history (observation widths; a model trained on one width does not load into another,
and ``pokerzoo evaluate`` says so):

- d77106b: initial, 8,419 values (rows of 69 values).
- 064fded: order rows gain ``beats`` and ``ties`` (how the pack at each position compares with
  each of the learner's own packs): 14,419 values (rows of 119). Runs trained before it
  evaluate with the code of a commit before it (``bb6266a``, say).
"""

from __future__ import annotations

import itertools
import sys
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from ....envs.core.errors import GameOverError, IllegalActionError
from ....envs.core.observation import Field, ObservationLayout, document
from ....envs.core.single_seat import SingleSeatEnv
from ....envs.core.turns import Turns, play_turns
from ....envs.core.turns import reset_turns as _reset_turns
from ....envs.core.turns import step_turns as _step_turns
from ....envs.quintet import DECK, LAYOUT, NUM_PACKS, PACK_SIZE
from ....envs.quintet.packs import (
    CATEGORIES,
    NUM_GROUPS,
    NUM_LEAD_RANKS,
    candidate_packs,
    pack_table,
)
from ...evaluate import Policy
from ...features import FeatureSet, PerActionLayout, batched
from ...rules import FeatureRule

__all__ = [
    "CONTEXT",
    "NUM_ACTIONS",
    "ORDERS",
    "ROW",
    "PackFormulation",
    "PackRowEnv",
    "PlannedRows",
    "STRONGEST",
    "RowDraft",
    "encode_draft",
    "encode_drafts",
    "ordered_strongest",
]

ORDERS = np.array(list(itertools.permutations(range(NUM_PACKS))), dtype=np.int64)
"""``ORDERS[i][j]``: strength rank (0 = strongest) of the pack at position ``j`` in order ``i``."""
NUM_ACTIONS = len(ORDERS)  # 120: the orders; the candidates use the first K
_PICKS = NUM_PACKS - 1  # packs taken by decision; the last is what is left
_DECK = len(DECK)
_LOWEST_ID = int(DECK[0])
_CATS = len(CATEGORIES)
_PLACES = np.zeros((NUM_ACTIONS, NUM_PACKS * NUM_PACKS), dtype=np.float32)
_PLACES[np.arange(NUM_ACTIONS)[:, None], NUM_PACKS * np.arange(NUM_PACKS) + ORDERS] = 1
"""The ``places`` features: ``_PLACES[i, 5 * p + r]`` is 1 where order ``i`` puts own pack of
rank ``r`` at position ``p``."""
CONTEXT = ObservationLayout(
    [
        Field("dealt", _DECK, 1, "card `c` is one of the 25 cards in play"),
        Field("remaining", _DECK, 1, "card `c` is in no pack yet"),
        Field("step", NUM_PACKS, 1, "the decision, one-hot: packs taken (0..3), then 4: the order"),
        Field("deal_group", 1, 1, "group of the strongest pack of the 25 cards"),
        Field("deal_category", _CATS, 1, "its category, one-hot (high card first)"),
        Field("held", NUM_PACKS, 1, "own pack of strength rank `r` exists (0 = strongest)"),
        Field("held_group", NUM_PACKS, 1, "group of own pack of rank `r` (0 if none)"),
        Field("held_level", NUM_PACKS, 1, "level of own pack of rank `r` (0 if none)"),
        Field("held_category", NUM_PACKS * _CATS, 1, "its category: index `r * 9 + category`"),
    ],
    dtype=np.float32,
)
ROW = ObservationLayout(
    [
        Field("valid", 1, 1, "the action is a candidate pack (decisions 0..3)"),
        Field("category", _CATS, 1, "the candidate's category, one-hot (high card first)"),
        Field("lead", NUM_LEAD_RANKS, 1, "its lead rank, one-hot (7 first)"),
        Field("group", 1, 1, "its group"),
        Field("level", 1, 1, "its level"),
        Field(
            "stronger", 1, 1, "packs of the remaining cards in stronger groups, log scale (0: none)"
        ),
        Field("order", 1, 1, "`k / (K - 1)`: its place among the candidates"),
        Field("rest_group", 1, 1, "group of the strongest pack of the cards left after it"),
        Field("rest_level", 1, 1, "its level (both 0 when no five cards are left)"),
        Field("rest_category", _CATS, 1, "its category, one-hot"),
        Field("arranged", 1, 1, "the action is an order of the five packs (decision 4)"),
        Field(
            "places",
            _PLACES.shape[1],
            1,
            "the order puts own pack of rank `r` at position `p`: index `5 * p + r` (position "
            "0 is worth 3 points, 4 is worth 7)",
        ),
        Field("place_group", NUM_PACKS, 1, "group of the pack the order puts at position `p`"),
        Field("place_level", NUM_PACKS, 1, "level of the pack the order puts at position `p`"),
        Field(
            "beats",
            NUM_PACKS * NUM_PACKS,
            1,
            "the pack the order puts at position `p` is stronger than own pack of rank `r`: "
            "index `5 * p + r`",
        ),
        Field(
            "ties",
            NUM_PACKS * NUM_PACKS,
            1,
            "the pack the order puts at position `p` is equal to own pack of rank `r`: "
            "index `5 * p + r`",
        ),
    ],
    dtype=np.float32,
)
document(sys.modules[__name__], context_table=CONTEXT.table(), row_table=ROW.table())

_DEALT = LAYOUT["dealt"]
_CURRENT = LAYOUT["current"]
_NO_PLAN = -1


@cache
def _distinct_keys() -> np.ndarray:
    """The distinct ``"quintet"`` keys, ascending (built on first use, not at import)."""
    return np.unique(pack_table().keys)


def _level(keys: np.ndarray) -> np.ndarray:
    """A key's place among the distinct keys: 0 (the weakest pack) to 1 (the strongest)."""
    distinct = _distinct_keys()
    return np.searchsorted(distinct, keys) / (len(distinct) - 1)


def _one_hot(index: np.ndarray, size: int) -> np.ndarray:
    out = np.zeros((len(index), size), dtype=np.float32)
    out[np.arange(len(index)), index] = 1
    return out


class RowDraft:
    """One player's row being laid out (the formulation's state): four packs taken, the fifth
    left over, then the order.

    ``cards``: the 25 cards of the deal. ``limit``: candidates per decision (``K``, at most 120).
    """

    def __init__(self, cards: np.ndarray | Sequence[int], limit: int) -> None:
        self.cards = np.sort(np.asarray(cards, dtype=np.int64))
        if len(self.cards) != NUM_PACKS * PACK_SIZE:
            raise ValueError(f"a row is laid from 25 cards, got {len(self.cards)}")
        if not 1 <= limit <= NUM_ACTIONS:
            raise ValueError(f"bad limit {limit!r}: expected 1..{NUM_ACTIONS} candidates")
        self.limit = limit
        self.packs: list[np.ndarray] = []
        """Packs taken, in the order taken."""
        self.keys: list[int] = []
        self.groups: list[int] = []
        self.row: np.ndarray | None = None
        """``int64 (5, 5)``: the packs by position once the order is chosen."""
        self.rest = self.cards
        self.candidates = candidate_packs(self.rest, limit)
        self.deal_group = int(self.candidates.groups[0])

    @property
    def step(self) -> int:
        """The decision to make: 0..3 take a pack, 4 choose the order, 5 done."""
        if self.row is not None:
            return NUM_PACKS
        return min(len(self.packs), _PICKS)

    @property
    def complete(self) -> bool:
        return self.row is not None

    def ranking(self) -> np.ndarray:
        """Indices of the packs taken, strongest first (equal packs in the order taken)."""
        return np.argsort(-np.asarray(self.keys, dtype=np.int64), kind="stable")

    def mask(self) -> np.ndarray:
        """``int8 (120,)``: the candidates while packs are taken, every order after."""
        mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
        if self.row is None and len(self.packs) < NUM_PACKS:
            mask[: len(self.candidates.keys)] = 1
        elif self.row is None:
            mask[:] = 1
        return mask

    def commit(self, action: object) -> None:
        """Take candidate ``action`` (decisions 0..3; after the fourth the last five cards make
        the fifth pack) or lay the packs out in order ``action`` (decision 4).

        Raises:
            IllegalActionError: ``action`` is not an int of the mask's range or is masked; the
                draft is unchanged.
        """
        mask = self.mask()
        is_int = isinstance(action, (int, np.integer)) and not isinstance(action, bool)
        if not is_int or not 0 <= int(action) < NUM_ACTIONS or not mask[int(action)]:
            legal = np.flatnonzero(mask)
            what = "an order" if len(self.packs) == NUM_PACKS else "a candidate"
            raise IllegalActionError(
                f"bad pack decision {action!r}: expected {what}, 0..{legal.max()}"
                if legal.size
                else f"bad pack decision {action!r}: the row is laid out"
            )
        if len(self.packs) == NUM_PACKS:
            ranked = np.stack(self.packs)[self.ranking()]
            self.row = ranked[ORDERS[int(action)]]
            return
        k = int(action)
        found = self.candidates
        self._take(found.packs[k], int(found.keys[k]), int(found.groups[k]))
        if len(self.packs) == _PICKS:
            last = candidate_packs(self.rest, 1)
            self._take(last.packs[0], int(last.keys[0]), int(last.groups[0]))
        else:
            self.candidates = candidate_packs(self.rest, self.limit)

    def _take(self, pack: np.ndarray, key: int, group: int) -> None:
        self.packs.append(pack)
        self.keys.append(key)
        self.groups.append(int(group))
        # The pack's cards are among the rest (sorted, distinct): drop them where they stand.
        keep = np.ones(len(self.rest), dtype=bool)
        keep[np.searchsorted(self.rest, pack)] = False
        self.rest = self.rest[keep]

    def pack_of(self) -> np.ndarray:
        """``int64 (52,)``: the position of each card id's pack (-1 before the order is chosen
        and for cards not in play)."""
        where = np.full(52, _NO_PLAN, dtype=np.int64)
        if self.row is not None:
            where[self.row.ravel()] = np.repeat(np.arange(NUM_PACKS), PACK_SIZE)
        return where


def _versus(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The ``beats`` and ``ties`` rows of every order, ``float32 (N, 120, 25)`` each, for
    ``keys``, ``int64 (N, 5)``: own packs' keys by strength rank, strongest first. Entry
    ``5 * p + r`` compares the pack an order puts at position ``p`` with own pack of rank ``r``."""
    placed = keys[:, ORDERS]  # (N, 120, 5): the key at each position
    placed, own = placed[:, :, :, None], keys[:, None, None, :]
    shape = (len(keys), NUM_ACTIONS, NUM_PACKS * NUM_PACKS)
    beats = (placed > own).reshape(shape).astype(np.float32)
    ties = (placed == own).reshape(shape).astype(np.float32)
    return beats, ties


def encode_draft(draft: RowDraft) -> np.ndarray:
    """The formulation's observation of ``draft`` (see the module docstring); many drafts at
    once: :func:`encode_drafts`, the same bits."""
    out = np.zeros(CONTEXT.size + NUM_ACTIONS * ROW.size, dtype=np.float32)
    context = out[: CONTEXT.size]  # views of out: the fields are written in place
    rows = out[CONTEXT.size :].reshape(NUM_ACTIONS, ROW.size)
    context[CONTEXT.start("dealt") + draft.cards - _LOWEST_ID] = 1
    context[CONTEXT.start("remaining") + draft.rest - _LOWEST_ID] = 1
    step = draft.step
    if step < NUM_PACKS:
        context[CONTEXT.start("step") + step] = 1
    context[CONTEXT["deal_group"]] = draft.deal_group / (NUM_GROUPS - 1)
    context[CONTEXT.start("deal_category") + draft.deal_group // NUM_LEAD_RANKS] = 1
    held = len(draft.packs)
    ranking = draft.ranking()
    groups = np.asarray(draft.groups, dtype=np.int64)[ranking]
    levels = _level(np.asarray(draft.keys, dtype=np.int64)[ranking])
    context[CONTEXT.start("held") : CONTEXT.start("held") + held] = 1
    context[CONTEXT.start("held_group") : CONTEXT.start("held_group") + held] = groups / (
        NUM_GROUPS - 1
    )
    context[CONTEXT.start("held_level") : CONTEXT.start("held_level") + held] = levels
    context[CONTEXT.start("held_category") + np.arange(held) * _CATS + groups // NUM_LEAD_RANKS] = 1

    if step < _PICKS:
        found = draft.candidates
        n = len(found.keys)
        rows[:n, ROW["valid"]] = 1
        rows[:n, ROW["category"]] = _one_hot(found.groups // NUM_LEAD_RANKS, _CATS)
        rows[:n, ROW["lead"]] = _one_hot(found.groups % NUM_LEAD_RANKS, NUM_LEAD_RANKS)
        rows[:n, ROW.start("group")] = found.groups / (NUM_GROUPS - 1)
        rows[:n, ROW.start("level")] = _level(found.keys)
        rows[:n, ROW.start("stronger")] = np.log1p(found.stronger) / np.log1p(found.total)
        rows[:n, ROW.start("order")] = np.arange(n) / max(draft.limit - 1, 1)
        has_rest = np.flatnonzero(found.rest_keys >= 0)
        rest_groups = found.rest_groups[has_rest]
        rows[has_rest, ROW.start("rest_group")] = rest_groups / (NUM_GROUPS - 1)
        rows[has_rest, ROW.start("rest_level")] = _level(found.rest_keys[has_rest])
        rows[has_rest, ROW.start("rest_category") + rest_groups // NUM_LEAD_RANKS] = 1
    elif step == _PICKS:
        rows[:, ROW.start("arranged")] = 1
        rows[:, ROW["places"]] = _PLACES
        rows[:, ROW["place_group"]] = groups[ORDERS] / (NUM_GROUPS - 1)
        rows[:, ROW["place_level"]] = levels[ORDERS]
        keys = np.asarray(draft.keys, dtype=np.int64)[ranking]
        beats, ties = _versus(keys[None])
        rows[:, ROW["beats"]], rows[:, ROW["ties"]] = beats[0], ties[0]
    return out


def encode_drafts(drafts: Sequence[RowDraft]) -> np.ndarray:
    """The observations of many drafts, ``float32 (N, CONTEXT.size + 120 * ROW.size)``: row
    ``i`` is :func:`encode_draft` of ``drafts[i]``, bit for bit.

    The drafts' cards, packs and candidates are gathered end to end and each field is written
    with one scatter, so a batch (a pack-level policy laying out many deals,
    :class:`PlannedRows`) costs little more than one draft. Every value comes from the same
    numbers by the same operations as for a draft alone (the candidates' log scale per draft,
    on its own array), so a row is the same bit for bit whatever the batch.
    """
    count = len(drafts)
    if count == 1:
        return encode_draft(drafts[0])[None]  # quicker for one
    out = np.zeros((count, CONTEXT.size + NUM_ACTIONS * ROW.size), dtype=np.float32)
    if not count:
        return out
    context = out[:, : CONTEXT.size]
    rows = out[:, CONTEXT.size :].reshape(count, NUM_ACTIONS, ROW.size)  # a view of out
    every = np.arange(count)

    def end_to_end(arrays: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The arrays end to end, the array of each entry and its index in its array."""
        sizes = [len(array) for array in arrays]
        index = np.concatenate([np.arange(size) for size in sizes]).astype(np.int64)
        return (
            np.concatenate(arrays).astype(np.int64),
            np.repeat(np.arange(len(sizes)), sizes),
            index,
        )

    cards, owner, _ = end_to_end([d.cards for d in drafts])
    context[owner, CONTEXT.start("dealt") + cards - _LOWEST_ID] = 1
    rest, owner, _ = end_to_end([d.rest for d in drafts])
    context[owner, CONTEXT.start("remaining") + rest - _LOWEST_ID] = 1
    steps = np.array([d.step for d in drafts], dtype=np.int64)
    open_ = steps < NUM_PACKS
    context[every[open_], CONTEXT.start("step") + steps[open_]] = 1
    deal_groups = np.array([d.deal_group for d in drafts], dtype=np.int64)
    context[:, CONTEXT.start("deal_group")] = deal_groups / (NUM_GROUPS - 1)
    context[every, CONTEXT.start("deal_category") + deal_groups // NUM_LEAD_RANKS] = 1

    # Own packs strongest first: rank r of draft i.
    ranked = [d.ranking() for d in drafts]
    groups, owner, rank = end_to_end(
        [np.asarray(d.groups, dtype=np.int64)[r] for d, r in zip(drafts, ranked, strict=True)]
    )
    keys, _, _ = end_to_end(
        [np.asarray(d.keys, dtype=np.int64)[r] for d, r in zip(drafts, ranked, strict=True)]
    )
    levels = _level(keys)
    context[owner, CONTEXT.start("held") + rank] = 1
    context[owner, CONTEXT.start("held_group") + rank] = groups / (NUM_GROUPS - 1)
    context[owner, CONTEXT.start("held_level") + rank] = levels
    context[owner, CONTEXT.start("held_category") + rank * _CATS + groups // NUM_LEAD_RANKS] = 1

    picking = np.flatnonzero(steps < _PICKS)
    if picking.size:
        found = [drafts[i].candidates for i in picking.tolist()]
        cand_groups, slot, k = end_to_end([f.groups for f in found])
        owner = picking[slot]
        rows[owner, k, ROW.start("valid")] = 1
        rows[owner, k, ROW.start("category") + cand_groups // NUM_LEAD_RANKS] = 1
        rows[owner, k, ROW.start("lead") + cand_groups % NUM_LEAD_RANKS] = 1
        rows[owner, k, ROW.start("group")] = cand_groups / (NUM_GROUPS - 1)
        rows[owner, k, ROW.start("level")] = _level(np.concatenate([f.keys for f in found]))
        rows[owner, k, ROW.start("stronger")] = np.concatenate(
            [np.log1p(f.stronger) / np.log1p(f.total) for f in found]
        )
        limits = np.array([max(drafts[i].limit - 1, 1) for i in picking.tolist()])
        rows[owner, k, ROW.start("order")] = k / limits[slot]
        rest_keys = np.concatenate([f.rest_keys for f in found])
        has = rest_keys >= 0
        rest_groups = np.concatenate([f.rest_groups for f in found])[has]
        owner, k = owner[has], k[has]
        rows[owner, k, ROW.start("rest_group")] = rest_groups / (NUM_GROUPS - 1)
        rows[owner, k, ROW.start("rest_level")] = _level(rest_keys[has])
        rows[owner, k, ROW.start("rest_category") + rest_groups // NUM_LEAD_RANKS] = 1

    arranging = np.flatnonzero(steps == _PICKS)
    if arranging.size:
        # An arranging draft holds five packs: its groups and levels by rank, (A, 5).
        at = np.flatnonzero(np.isin(np.repeat(every, [len(r) for r in ranked]), arranging))
        held_groups = groups[at].reshape(-1, NUM_PACKS)
        held_levels = levels[at].reshape(-1, NUM_PACKS)
        chosen = rows[arranging]
        chosen[:, :, ROW.start("arranged")] = 1
        chosen[:, :, ROW["places"]] = _PLACES
        chosen[:, :, ROW["place_group"]] = held_groups[:, ORDERS] / (NUM_GROUPS - 1)
        chosen[:, :, ROW["place_level"]] = held_levels[:, ORDERS]
        beats, ties = _versus(keys[at].reshape(-1, NUM_PACKS))
        chosen[:, :, ROW["beats"]] = beats
        chosen[:, :, ROW["ties"]] = ties
        rows[arranging] = chosen
    return out


def _deal_cards(observation: np.ndarray) -> np.ndarray:
    """The 25 cards in play, read from a Quintet observation (card-level)."""
    return np.flatnonzero(np.asarray(observation)[_DEALT]) + _LOWEST_ID


def _play_row(
    env: SingleSeatEnv, pack_of: np.ndarray
) -> Turns[tuple[np.ndarray, float, bool, bool, dict[str, Any]]]:
    """The row (``pack_of[card]``: the pack of each card id) played card by card into ``env``,
    as its ``step_turns`` would play it, the bots' replies yielded, without reading the
    learner's observation between cards: each card is the one the observation would show
    (``cards[placed]`` of the game's state), and the observation and info are read once, after
    the last. The sum of the cards' rewards, added in the same order."""
    seat = env.seats.index(env.learner)
    reward = 0.0
    while True:
        state = env.game_state
        card = int(state.cards[state.placed[seat]])
        step_reward, terminated, truncated = yield from env.act_turns(int(pack_of[card]))
        reward += float(step_reward)
        if terminated or truncated:
            break
    observation, info = env.observe()
    return observation, reward, terminated, truncated, info


class PackRowEnv(gym.Wrapper):
    """A Quintet single-seat env (card-level, e.g. ``pokerzoo/Quintet-v0`` or the training
    pool's view) played a whole pack at a time: five decisions lay the row out (see the module
    docstring), then the row is played card by card into ``env``.

    ## Action Space
    ``Discrete(120)``: a candidate pack (decisions 0..3, actions ``0..K-1``), then an order of
    the five packs (decision 4, every action). The mask is in ``info["action_mask"]`` and
    ``action_masks()``; a masked action raises
    :class:`~pokerzoo.envs.core.errors.IllegalActionError` and changes nothing.

    ## Rewards
    0 for the first four decisions; the fifth plays the whole row and returns the sum of
    ``env``'s rewards over the 25 cards, and ``env``'s final ``info`` (arrangements, points).
    Episodes last exactly five steps.
    """

    def __init__(self, env: gym.Env, candidates: int = 16) -> None:
        super().__init__(env)
        self.limit = candidates
        self.observation_space = spaces.Box(
            0.0, 1.0, (CONTEXT.size + NUM_ACTIONS * ROW.size,), np.float32
        )
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        self._draft: RowDraft | None = None
        self._card_observation: np.ndarray | None = None
        self._info: dict[str, Any] = {}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        return play_turns(self.reset_turns(seed=seed, options=options))

    def reset_turns(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> Turns[tuple[np.ndarray, dict[str, Any]]]:
        """:meth:`reset` as a generator of the wrapped env's bot decisions
        (:data:`~pokerzoo.envs.core.turns.BotRequest`, answered with the action), so that a
        vector env asks the bots of many tables in one batch; returns ``reset``'s result."""
        observation, info = yield from _reset_turns(self.env, seed=seed, options=options)
        self._card_observation = observation
        self._draft = RowDraft(_deal_cards(observation), self.limit)
        self._info = {k: v for k, v in info.items() if k != "action_mask"}
        return encode_draft(self._draft), self._with_mask(self._info)

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        return play_turns(self.step_turns(action))

    def step_turns(
        self, action: Any
    ) -> Turns[tuple[np.ndarray, float, bool, bool, dict[str, Any]]]:
        """:meth:`step` as a generator of the wrapped env's bot decisions (see
        :meth:`reset_turns`): the fifth decision plays the row's 25 cards, each card's
        :func:`~pokerzoo.envs.core.turns.step_turns` yielding the bots' replies."""
        draft = self._draft
        if draft is None or draft.complete:
            raise GameOverError("the episode is over: call reset() first")
        draft.commit(action)
        if not draft.complete:
            return encode_draft(draft), 0.0, False, False, self._with_mask(self._info)
        pack_of = draft.pack_of()
        if isinstance(self.env, SingleSeatEnv):
            played = yield from _play_row(self.env, pack_of)
            observation, reward, terminated, truncated, info = played
        else:  # a wrapper between: every card through its step
            observation = self._card_observation
            reward = 0.0
            while True:
                card = int(np.argmax(observation[_CURRENT])) + _LOWEST_ID
                observation, step_reward, terminated, truncated, info = yield from _step_turns(
                    self.env, int(pack_of[card])
                )
                reward += float(step_reward)
                if terminated or truncated:
                    break
        self._card_observation = observation
        self._info = {k: v for k, v in info.items() if k != "action_mask"}
        return encode_draft(draft), reward, terminated, truncated, self._with_mask(self._info)

    def action_masks(self) -> np.ndarray:
        """The legal decisions (bool), for sb3-contrib's MaskablePPO."""
        if self._draft is None:
            return np.zeros(self.action_space.n, dtype=bool)
        return self._draft.mask().astype(bool)

    def _with_mask(self, info: dict[str, Any]) -> dict[str, Any]:
        return {**info, "action_mask": self.action_masks().astype(np.int8)}


class PlannedRows:
    """A pack-level policy as a card-level one (a batched
    :data:`~pokerzoo.training.evaluate.Policy` over Quintet's own observations).

    At the first card of a deal it lays the row with ``policy`` (five decisions, batched over
    every new deal of the call) and keeps the row per deal (the ``cache`` most recent deals; the
    policy is deterministic, so a deal's row never changes); each card then goes to its pack's
    position. A card whose planned pack is full (a game it joined half-way) goes to the open
    pack worth the most points.
    """

    def __init__(self, policy: Policy, candidates: int = 16, cache: int = 20_000) -> None:
        self.policy = policy
        self.limit = candidates
        self.cache = cache
        self._rows: OrderedDict[bytes, np.ndarray] = OrderedDict()

    def __call__(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        observations = np.asarray(observations)
        masks = np.asarray(masks, dtype=bool)
        deals = [np.packbits(obs[_DEALT] > 0).tobytes() for obs in observations]
        new = {deal: i for i, deal in enumerate(deals) if deal not in self._rows}
        if new:
            self._plan(new, observations)
        actions = np.empty(len(observations), dtype=np.int64)
        for i, (observation, deal) in enumerate(zip(observations, deals, strict=True)):
            self._rows.move_to_end(deal)
            current = np.flatnonzero(observation[_CURRENT])
            pack = int(self._rows[deal][current[0] + _LOWEST_ID]) if current.size else -1
            if pack < 0 or not masks[i, pack]:
                legal = np.flatnonzero(masks[i])
                if legal.size == 0:
                    raise ValueError("no legal action: the action mask is all zeros")
                pack = int(legal[-1])
            actions[i] = pack
        return actions

    def _plan(self, new: dict[bytes, int], observations: np.ndarray) -> None:
        drafts = {
            deal: RowDraft(_deal_cards(observations[i]), self.limit) for deal, i in new.items()
        }
        while True:
            live = [d for d in drafts.values() if not d.complete]
            if not live:
                break
            batch = encode_drafts(live)
            masks = np.stack([d.mask() for d in live]).astype(bool)
            for draft, action in zip(live, self.policy(batch, masks), strict=True):
                draft.commit(int(action))
        for deal, draft in drafts.items():
            self._rows[deal] = draft.pack_of()
        while len(self._rows) > self.cache:
            self._rows.popitem(last=False)


def ordered_strongest(positions: Sequence[int]) -> Policy:
    """A hand-written rule over the ``"packs"`` formulation's observations: always the strongest
    candidate (so the packs are greedy's), then the pack of strength rank ``r`` at position
    ``positions[r]`` (0 = the 3-point position). ``(4, 3, 2, 1, 0)`` lays out the greedy bot's
    row, ``(3, 2, 1, 0, 4)`` the sacrifice bot's."""
    where = [int(p) for p in positions]
    if sorted(where) != list(range(NUM_PACKS)):
        raise ValueError(f"bad positions {positions!r}: expected an order of 0..4")
    ranks = np.argsort(where)  # rank of the pack at each position
    order = int(np.flatnonzero((ranks == ORDERS).all(axis=1))[0])
    last = CONTEXT.start("step") + _PICKS

    def policy(observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        arranging = np.asarray(observations)[:, last] > 0
        actions = np.where(arranging, order, 0)
        legal = np.asarray(masks, dtype=bool)[np.arange(len(actions)), actions]
        if not legal.all():
            raise ValueError(f"ordered_strongest: decisions {actions[~legal].tolist()} masked")
        return actions

    return policy


_POINTS = ("strongest", "second", "third", "fourth", "weakest")
_LOWEST_POINTS = 3  # position p is worth p + 3 points


def _strongest_at(features: np.ndarray, masks: np.ndarray, **points: float) -> np.ndarray:
    """:func:`ordered_strongest` with each pack's position given by its points (3..7)."""
    positions = [int(points[name]) - _LOWEST_POINTS for name in _POINTS]
    return ordered_strongest(positions)(features, masks)


STRONGEST = FeatureRule(
    features="candidates",
    decide=_strongest_at,
    # Of the 120 orders of greedy's packs, the one with the highest mean win rate against the
    # greedy, sacrifice, mixed and best_response bots on deals of their own
    # (benchmarks/quintet_rules.py compares it with the others).
    params={"strongest": 6, "second": 7, "third": 4, "fourth": 3, "weakest": 5},
    summary="the strongest candidate four times (greedy's packs), each at fixed points",
)
"""The formulation's hand-written rule: the strongest candidate each time, then the pack of
each strength rank on a fixed position (its params: the points of each rank's position)."""


@batched
def _as_is(observations: np.ndarray) -> np.ndarray:
    return observations


@dataclass(frozen=True)
class PackFormulation:
    """Quintet's ``"packs"`` :class:`~pokerzoo.training.formulations.Formulation` (see the
    module docstring); ``candidates`` is ``K``, the candidate packs per decision."""

    candidates: int = 16
    summary: str = "four whole packs (a candidate of each kind), then their order: 5 decisions"
    features: dict[str, FeatureSet] = field(init=False)
    rules: dict[str, FeatureRule] = field(init=False)

    def __post_init__(self) -> None:
        layout = PerActionLayout(
            offset=CONTEXT.size, actions=NUM_ACTIONS, width=ROW.size, padding=True
        )
        sets = {
            "candidates": FeatureSet(
                _as_is, layout, "the context, then one row per action (candidate pack or order)"
            )
        }
        object.__setattr__(self, "features", sets)
        object.__setattr__(self, "rules", {"strongest": STRONGEST})

    def wrap(self, env: gym.Env) -> PackRowEnv:
        return PackRowEnv(env, self.candidates)

    def native_policy(self, policy: Policy) -> PlannedRows:
        return PlannedRows(policy, self.candidates)
