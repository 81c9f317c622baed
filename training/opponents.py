"""Opponents for multi-player training: baseline bots plus frozen snapshots of the learner.

:class:`OpponentPool` is the :data:`~pokerzoo.envs.core.single_seat.OpponentPicker` of a
training env: at each episode it draws each opponent seat's player, by weight, from the game's
bots and from the snapshots saved so far (self-play), with the single-seat view's generator, so
a seeded view replays the same opponents.

:class:`PolicyBot` makes a trained MaskablePPO model (or a saved ``.zip``) follow the
:class:`pokerzoo.agents.base.Bot` protocol, so a snapshot, a trained agent and a baseline bot
are interchangeable wherever the package plays a game; a model trained in an action formulation
(:mod:`pokerzoo.training.formulations`) plays the game's own actions through it. A snapshot's
model is loaded when it first acts (torch is imported then); the pool keeps one bot, so one
model, per snapshot. A policy bot takes the most probable action; :class:`SampledPolicyBot`
samples it from the policy's probabilities (``pokerzoo evaluate --sampled``).
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ..agents.base import Bot
from ..envs.core.single_seat import SingleSeatEnv
from ..envs.core.turns import Turns
from .evaluate import Policy, Probabilities, model_policy
from .formulations import Formulation
from .replay import DealReplay, KeptDeal

__all__ = [
    "OpponentPool",
    "PlayingOptimizer",
    "PolicyBot",
    "PoolSeatEnv",
    "SampledPolicyBot",
    "load_model",
    "sample_actions",
]


def load_model(path: str | Path) -> Any:
    """A MaskablePPO model from ``path`` (a ``.zip``), on the CPU, to play: its policy's weights
    are the saved ones, its optimizer a stand-in (:class:`PlayingOptimizer`; resuming a run
    loads the saved optimizer, ``pokerzoo.training.train``)."""
    import zipfile

    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.save_util import json_to_data

    with zipfile.ZipFile(Path(path)) as archive:
        saved = json_to_data(archive.read("data").decode())
    kwargs = {**saved.get("policy_kwargs", {}), "optimizer_class": PlayingOptimizer}
    return MaskablePPO.load(Path(path), device="cpu", custom_objects={"policy_kwargs": kwargs})


class PlayingOptimizer:
    """The optimizer of a policy loaded to play (:func:`load_model`): it keeps nothing and
    updates nothing. SB3's policy builds its optimizer with itself, and a torch optimizer's
    first construction imports ``torch._dynamo``, about a second of every evaluation's start."""

    def __init__(self, params: Any, **kwargs: Any) -> None:
        del params, kwargs

    def state_dict(self) -> dict[str, Any]:
        return {}

    def load_state_dict(self, state: Mapping[str, Any], strict: bool = True) -> None:
        """The saved optimizer's state is not needed to play: ignored (SB3 passes ``strict``
        to whatever is not a torch optimizer)."""
        del state, strict

    def zero_grad(self, set_to_none: bool = True) -> None:
        del set_to_none

    def step(self, closure: Any = None) -> None:
        raise RuntimeError("a model loaded to play (load_model) cannot be trained")


class PolicyBot:
    """A trained MaskablePPO policy as a :class:`Bot` (deterministic: the most likely action).

    ``model`` is a MaskablePPO instance or a path to a saved one (loaded on first use);
    ``transform`` is the run's feature function (None: raw observations); ``formulation`` the
    run's action formulation (None: the game's own actions).
    """

    def __init__(
        self,
        model: Any,
        name: str | None = None,
        transform: Callable[[np.ndarray], np.ndarray] | None = None,
        formulation: Formulation | None = None,
    ) -> None:
        self.transform = transform
        self.formulation = formulation
        self._policy: Policy | None = None
        self._decide: Policy | None = None
        self._model = model if not isinstance(model, (str, Path)) else None
        self._path = None if self._model is not None else str(model)
        self.name = name or (f"snapshot:{Path(self._path).stem}" if self._path else "agent")

    @classmethod
    def from_policy(cls, policy: Policy, name: str) -> PolicyBot:
        """A bot that plays a ready batched policy (an ``algorithm: td`` run's, for one)."""
        bot = cls(model=policy, name=name)
        bot._policy = policy
        return bot

    @property
    def model(self) -> Any:
        if self._model is None:
            self._model = load_model(self._path)  # type: ignore[arg-type]
        return self._model

    def reset(self, seed: int | None = None) -> None:
        """Nothing to re-seed: the policy acts deterministically."""

    @property
    def policy(self) -> Policy:
        """The batched policy it plays (built, and the model loaded, on first use)."""
        if self._policy is None:
            policy = model_policy(self.model, self.transform)
            formulation = self.formulation
            self._policy = policy if formulation is None else formulation.native_policy(policy)
        return self._policy

    @property
    def decide(self) -> Policy:
        """The policy over :attr:`transform`'s features instead of observations (for a bot
        with a transform and no formulation: :meth:`act_batch` works out the features of
        every snapshot of a run in one call)."""
        if self._decide is None:
            self._decide = model_policy(self.model)
        return self._decide

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        masks = np.asarray(action_mask, dtype=bool)[None]
        return int(self.policy(np.asarray(observation)[None], masks)[0])

    @classmethod
    def act_batch(
        cls, bots: Sequence[PolicyBot], observations: np.ndarray, action_masks: np.ndarray
    ) -> np.ndarray:
        """The bots' actions, one row each (:func:`~pokerzoo.envs.core.bots.act_batch`): the
        rows of each policy (a snapshot sits at many tables) in one forward pass, and the
        features of the policies that read the same feature function (a run's snapshots) in
        one call of it (a row's features are its observation's alone, whatever the batch)."""
        actions = np.empty(len(bots), dtype=np.int64)
        observations = np.asarray(observations)
        masks = np.asarray(action_masks, dtype=bool)
        shared: dict[int, tuple[Callable[[np.ndarray], np.ndarray], list[list[int]]]] = {}
        for rows in _rows_by_policy([bot.policy for bot in bots]):
            bot = bots[rows[0]]
            if bot.transform is not None and bot.formulation is None:
                shared.setdefault(id(bot.transform), (bot.transform, []))[1].append(rows)
            else:
                actions[rows] = bot.policy(observations[rows], masks[rows])
        for transform, groups in shared.values():
            features = transform(observations[[row for rows in groups for row in rows]])
            start = 0
            for rows in groups:
                stop = start + len(rows)
                actions[rows] = bots[rows[0]].decide(features[start:stop], masks[rows])
                start = stop
        return actions


def _rows_by_policy(policies: Sequence[Any]) -> list[list[int]]:
    """The rows of each distinct policy object (in order of first appearance): one forward
    pass each."""
    by_policy: dict[int, list[int]] = {}
    for row, policy in enumerate(policies):
        by_policy.setdefault(id(policy), []).append(row)
    return list(by_policy.values())


def sample_actions(
    rngs: Sequence[np.random.Generator], probabilities: np.ndarray, masks: np.ndarray
) -> np.ndarray:
    """Row ``i``'s action drawn from ``probabilities[i]`` over the actions ``masks[i]`` allows,
    with ``rngs[i]`` (one uniform draw a row, so a row's action depends on its own generator
    alone).

    >>> rngs = [np.random.default_rng(0), np.random.default_rng(1)]
    >>> chances = np.array([[0.5, 0.5, 0.0], [0.2, 0.3, 0.5]])
    >>> sample_actions(rngs, chances, np.array([[1, 1, 0], [0, 0, 1]], dtype=bool)).tolist()
    [1, 2]
    """
    chances = np.where(np.asarray(masks, dtype=bool), probabilities, 0.0)
    totals = np.cumsum(chances, axis=1)
    empty = np.flatnonzero(totals[:, -1] <= 0)
    if empty.size:
        row = int(empty[0])
        raise ValueError(
            f"bad probabilities {np.asarray(probabilities)[row].tolist()} for row {row}: "
            f"expected some on its legal actions {np.flatnonzero(masks[row]).tolist()}"
        )
    draws = np.array([rng.random() for rng in rngs]) * totals[:, -1]
    # the first action whose running total passes the draw: one of positive probability
    return (totals <= draws[:, None]).sum(axis=1).astype(np.int64)


class SampledPolicyBot:
    """A trained policy as a :class:`Bot` that samples each action from the policy's
    probabilities (:func:`~pokerzoo.training.evaluate.model_probabilities`) with its own
    generator, seeded per game (``seed``, :meth:`reset`): a game's actions depend on its seed
    alone, whichever games share a forward pass (:meth:`act_batch`)."""

    def __init__(
        self, probabilities: Probabilities, seed: int | None = None, name: str = "agent"
    ) -> None:
        self.probabilities = probabilities
        self.name = name
        self.reset(seed)

    def reset(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        masks = np.asarray(action_mask, dtype=bool)[None]
        return int(self.act_batch([self], np.asarray(observation)[None], masks)[0])

    @classmethod
    def act_batch(
        cls, bots: Sequence[SampledPolicyBot], observations: np.ndarray, action_masks: np.ndarray
    ) -> np.ndarray:
        """The bots' actions, one row each: the rows of each policy in one forward pass, each
        row's action drawn with its bot's generator."""
        actions = np.empty(len(bots), dtype=np.int64)
        masks = np.asarray(action_masks, dtype=bool)
        for rows in _rows_by_policy([bot.probabilities for bot in bots]):
            chances = bots[rows[0]].probabilities(np.asarray(observations)[rows], masks[rows])
            actions[rows] = sample_actions([bots[r].rng for r in rows], chances, masks[rows])
        return actions


def choice_cdf(weights: np.ndarray) -> list[float]:
    """The cumulative probabilities that ``Generator.choice(len(weights), p=weights /
    weights.sum())`` searches (``weights`` non-negative, their sum positive), for
    :func:`draw_index`."""
    cdf = np.cumsum(weights / weights.sum())
    cdf /= cdf[-1]
    return cdf.tolist()


def draw_index(rng: np.random.Generator, cdf: list[float]) -> int:
    """Index ``i`` with probability ``cdf[i] - cdf[i - 1]``: the index
    ``Generator.choice(len(weights), p=weights / weights.sum())`` draws for ``cdf =
    choice_cdf(weights)``, from the same one ``rng.random()`` (numpy's own steps: the
    cumulative sum, divided by its last entry, searched from the right), without checking and
    summing ``p`` again each call: 0.7 us a draw against 13 us (six weights, Python 3.11)."""
    return bisect.bisect_right(cdf, rng.random())


class OpponentPool:
    """Weighted draws of opponents: named bots plus recent snapshots of the learner.

    ``make_bot(name)`` builds a bot of the game. ``bots`` maps bot name to weight;
    ``snapshot_weight`` is the weight of "any snapshot" (a uniformly chosen one of the
    ``max_snapshots`` most recent), used once :meth:`add_snapshot` has given one. Each opponent
    position gets its own bot instances (a bot keeps state for the seat it plays). Pools of
    tables in one process pass one ``loaded`` dict (path -> :class:`PolicyBot`): a snapshot is
    loaded once and answers every table's seats in one forward pass (a policy bot is
    deterministic and keeps no state).
    """

    def __init__(
        self,
        make_bot: Callable[[str], Bot],
        bots: Mapping[str, float],
        snapshot_weight: float = 0.0,
        max_snapshots: int = 5,
        snapshots: list[str] | None = None,
        transform: Callable[[np.ndarray], np.ndarray] | None = None,
        formulation: Formulation | None = None,
        loaded: dict[str, PolicyBot] | None = None,
    ) -> None:
        if any(w < 0 for w in bots.values()) or snapshot_weight < 0:
            raise ValueError("opponent weights must be >= 0")
        if sum(bots.values()) <= 0:
            raise ValueError(
                "the opponent pool needs at least one bot with a positive weight "
                "(snapshots only exist once training has run a while)"
            )
        self.transform = transform
        self.formulation = formulation
        self._make_bot = make_bot
        self._names = list(bots)
        self._weights = np.array([bots[n] for n in self._names], dtype=np.float64)
        self._cdfs: dict[bytes, list[float]] = {}  # per weights (with or without snapshots)
        self._bots: dict[tuple[int, str], Bot] = {}
        self._names_of: dict[int, str] = {}  # id of a bot in _bots -> its name
        self.snapshot_weight = float(snapshot_weight)
        self.max_snapshots = int(max_snapshots)
        self.snapshots: list[str] = []
        self._snapshot_bots: dict[str, PolicyBot] = {}
        self._loaded = {} if loaded is None else loaded
        for path in snapshots or []:
            self.add_snapshot(path)

    def add_snapshot(self, path: str) -> None:
        """Make the model saved at ``path`` available as an opponent (the oldest beyond the
        limit is dropped)."""
        path = str(path)
        if path in self.snapshots:
            return
        self.snapshots.append(path)
        bot = self._loaded.get(path)
        if bot is None:
            bot = self._loaded[path] = PolicyBot(
                path, transform=self.transform, formulation=self.formulation
            )
        self._snapshot_bots[path] = bot
        while len(self.snapshots) > self.max_snapshots:
            dropped = self.snapshots.pop(0)
            del self._snapshot_bots[dropped]
            self._loaded.pop(dropped, None)  # every pool drops the same one

    def add_opponent(self, name: str, weight: float) -> None:
        """Draw ``name`` (a player ``make_bot`` builds, e.g. an exploiter trained during the
        run) at ``weight`` from now on; a name already in the pool keeps its weight."""
        if weight < 0:
            raise ValueError(f"opponent weight {weight!r}: expected >= 0")
        if name in self._names:
            return
        self._names.append(name)
        self._weights = np.append(self._weights, float(weight))

    def __call__(self, position: int, rng: np.random.Generator) -> Bot:
        """The opponent at ``position`` (seats after the learner) for one episode."""
        weights = self._weights
        if self.snapshots and self.snapshot_weight > 0:
            weights = np.append(weights, self.snapshot_weight)
        key = weights.tobytes()
        cdf = self._cdfs.get(key)
        if cdf is None:
            cdf = self._cdfs[key] = choice_cdf(weights)
        index = draw_index(rng, cdf)
        if index == len(self._names):  # "a snapshot": a deterministic policy, shared by seats
            return self._snapshot_bots[self.snapshots[int(rng.integers(len(self.snapshots)))]]
        return self.bot(position, self._names[index])

    def bot(self, position: int, name: str) -> Bot:
        """The pool's player ``name`` at ``position`` (one instance per position and name)."""
        key = (position, name)
        if key not in self._bots:
            self._bots[key] = self._make_bot(name)
            self._names_of[id(self._bots[key])] = name
        return self._bots[key]

    def name_of(self, bot: Bot) -> str | None:
        """The name a player of this pool was drawn by (``None``: a snapshot)."""
        return self._names_of.get(id(bot))


class PoolSeatEnv(SingleSeatEnv):
    """The single-seat view a training env plays: the opponents come from an
    :class:`OpponentPool`, which :meth:`add_snapshot` (called through the vector env's
    ``env_method``) feeds with the learner's snapshots. With a :class:`~.replay.DealReplay`
    it deals again some of the games its learner did not win (:mod:`.replay`)."""

    def __init__(
        self,
        aec_env: Any,
        pool: OpponentPool,
        seat: int | None = None,
        replay: DealReplay | None = None,
    ) -> None:
        super().__init__(aec_env, pool, seat=seat)
        self.pool = pool
        self.replay = replay
        self._kept: KeptDeal | None = None  # the deal being played, if it may be kept
        self._replayed = False  # the deal being played is a replay
        self._return = 0.0  # the learner's rewards so far in this deal

    def reset_turns(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> Turns[tuple[np.ndarray, dict[str, Any]]]:
        # a reset that raises changes nothing here either: the deal in progress stays the one
        # its result is recorded for
        kept = (self._kept, self._replayed, self._return)
        replays = None if self.replay is None else self.replay.replays
        try:
            return (yield from super().reset_turns(seed=seed, options=options))
        except BaseException:
            self._kept, self._replayed, self._return = kept
            if self.replay is not None and replays is not None:
                self.replay.replays = replays
            raise

    def _draw_deal(self, rng: np.random.Generator) -> tuple[int, int, dict[str, tuple[Bot, int]]]:
        replay = self.replay
        if replay is None:
            return super()._draw_deal(rng)
        n = len(self.seats)
        self._return = 0.0
        kept = replay.draw(rng)
        self._replayed = kept is not None
        if kept is None:
            deal_seed, seat, opponents = super()._draw_deal(rng)
            named = []
            for position in range(1, n):
                bot, seed = opponents[self.seats[(seat + position) % n]]
                named.append((self.pool.name_of(bot) or "", seed))
            replayable = replay.replayable(name for name, _ in named)
            self._kept = KeptDeal(deal_seed, seat, tuple(named)) if replayable else None
            return deal_seed, seat, opponents
        self._kept = kept
        opponents = {
            self.seats[(kept.seat + position) % n]: (self.pool.bot(position, name), seed)
            for position, (name, seed) in enumerate(kept.opponents, start=1)
        }
        return kept.deal_seed, kept.seat, opponents

    def act_turns(self, action: Any) -> Turns[tuple[float, bool, bool]]:
        reward, terminated, truncated = yield from super().act_turns(action)
        if self.replay is not None and self._kept is not None:
            self._return += reward
            if terminated or truncated:
                self.replay.settle(self._kept, self._replayed, self._return > 0)
                self._kept = None
        return reward, terminated, truncated

    def add_snapshot(self, path: str) -> None:
        """Hand a newly saved snapshot of the learner to the opponent pool (self-play)."""
        self.pool.add_snapshot(path)

    def add_opponent(self, name: str, weight: float) -> None:
        """Hand a new player to the opponent pool (:meth:`OpponentPool.add_opponent`)."""
        self.pool.add_opponent(name, weight)
