"""A multi-player game's PettingZoo AEC env as an RLlib multi-agent env: the learner at one
seat, bots from the opponent pool at the others (no Ray import here, so it is tested without
Ray; :mod:`.env` adds RLlib's base class).

Agent ids name roles, not seats
-------------------------------
RLlib maps each agent id to the RLModule that acts for it. Here an id says who plays: the
learner is :data:`LEARNER` whatever seat it takes, and a bot is ``bot_<name>_<position>``
(:func:`bot_id`), ``position`` counting seats clockwise from the learner (1 .. players - 1),
so the mapping from agent to module is the identity and every bot module follows one seat of
each table (a bot keeps state within a game: a bot role's observation names its table,
:data:`TABLE`, and the module keeps one bot per table, so an env runner may step several
tables at once). At each reset the table draws, from its
own generator, the deal's seed, the learner's seat, each other position's bot (by the pool's
weights) and each bot's reset seed (:attr:`BotTable.bot_seeds`, which the training callback
hands to the bot modules before they act), so a seeded first reset replays every episode.

Self-play league
----------------
With ``snapshot_slots`` > 0 the table also seats frozen snapshots of the learner: RLlib
modules ``snapshot_<k>`` (:func:`snapshot_module`, k < ``snapshot_slots``), whose weights the
training run overwrites round-robin with the learner's (:mod:`.league`), and which it names to
the table as they fill (:meth:`BotTable.set_snapshots`). A position's opponent is drawn as
:class:`~pokerzoo.training.opponents.OpponentPool` draws it (:func:`draw_opponent`): the
bots by their weights and, once a snapshot exists, "a snapshot" with ``snapshot_weight``,
then one of the filled slots uniformly. A snapshot at position p is the agent
``snapshot_<k>_<p>`` (:func:`snapshot_id`), mapped to its slot's module (:func:`module_of`:
a snapshot keeps no state, so one module answers every position); it sees the learner's
observation (the run's feature set applied). :attr:`BotTable.snapshot_seats` counts the
episode's seats taken by snapshots.

Observations, rewards, terminations
-----------------------------------
The agent to act, and only it, gets an observation: the dict :func:`observation_dict` builds
(the one place it is written), ``{"observations": ..., "action_mask": ...}``, the learner's
``observations`` passed through the run's feature set. Every seated role gets a reward after
every step (0 when the step paid it nothing), its share of that step in the AEC env, the
learner's times ``reward_scale``; RLlib adds the rewards that arrive between two of an agent's
turns to its previous action. When the game ends, every seated role gets its final observation
and ``terminated`` (or ``truncated``), and ``__all__`` ends the episode.

Masked actions
--------------
Every action is checked against the acting seat's mask before it reaches the AEC env: a masked
or out-of-space action raises :class:`~pokerzoo.envs.core.errors.IllegalActionError` naming the
role, the seat and the legal actions (training stops there; nothing replaces the action).
:attr:`BotTable.actions_checked` counts the episode's actions that passed, for the run's
metrics.

Action formulations
-------------------
A run in an action formulation (config ``actions``, e.g. Quintet's ``packs``) decides in the
formulation's terms while the bots play the game's own actions, so they cannot sit at the
table as RLlib agents. :class:`SeatTable` holds the env an SB3 run trains on instead
(:func:`seat_env`: the learner's seat against the pool's bots, drawn per episode as
:class:`~pokerzoo.training.opponents.OpponentPool` draws them, in the formulation), with
:data:`LEARNER` its only agent: each RLlib step is one of the formulation's decisions, the bots
act inside it, and the learner's observation, mask check, rewards and counts are as above.
No snapshot of the learner sits at this table (no self-play league in an action formulation:
the bots inside the env are the SB3 pool's, which holds none).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
from gymnasium import spaces

from ...envs.core.errors import GameOverError, check_action
from ...envs.core.registry import get_game
from ..hooks import formulation
from ..opponents import OpponentPool, PoolSeatEnv, choice_cdf, draw_index

__all__ = [
    "ACTION_MASK",
    "LEARNER",
    "OBSERVATIONS",
    "TABLE",
    "BotTable",
    "SeatTable",
    "bot_id",
    "draw_opponent",
    "module_of",
    "observation_dict",
    "observation_dict_space",
    "seat_env",
    "snapshot_id",
    "snapshot_module",
]

LEARNER = "learner"
"""The agent id (and RLModule id) of the policy being trained."""
SNAPSHOT = "snapshot"
"""The prefix of the snapshots' module and agent ids."""
OBSERVATIONS = "observations"
ACTION_MASK = "action_mask"
TABLE = "table"
"""The key of a bot role's observation that names its table (:attr:`BotTable.table_id`)."""
_TABLE_IDS = itertools.count()
"""Table ids, unique within a process (an env runner's tables and bot modules share one)."""

Transform = Callable[[np.ndarray], np.ndarray]
StepResult = tuple[
    dict[str, dict[str, np.ndarray]],
    dict[str, float],
    dict[str, bool],
    dict[str, bool],
    dict[str, dict[str, Any]],
]
"""RLlib's five dicts of a step: observations, rewards, terminateds, truncateds, infos."""


def bot_id(name: str, position: int) -> str:
    """The agent id (and RLModule id) of bot ``name`` at ``position`` seats after the learner."""
    return f"bot_{name}_{position}"


def snapshot_module(slot: int) -> str:
    """The RLModule id of snapshot slot ``slot`` (see the module docstring)."""
    return f"{SNAPSHOT}_{slot}"


def snapshot_id(slot: int, position: int) -> str:
    """The agent id of slot ``slot``'s snapshot at ``position`` seats after the learner."""
    return f"{snapshot_module(slot)}_{position}"


def module_of(agent_id: str) -> str:
    """The RLModule id that acts for ``agent_id``: a snapshot's slot; every other id names its
    module itself."""
    if agent_id.startswith(f"{SNAPSHOT}_"):
        return agent_id.rsplit("_", 1)[0]
    return agent_id


def draw_opponent(
    rng: np.random.Generator,
    weights: np.ndarray,
    snapshot_weight: float = 0.0,
    snapshots: Sequence[int] = (),
) -> tuple[bool, int]:
    """One position's opponent, as :class:`~pokerzoo.training.opponents.OpponentPool` draws
    it: bot ``i`` by ``weights`` (> 0 somewhere) or, once ``snapshots`` (the filled slots) is
    not empty, "a snapshot" with ``snapshot_weight``, then one of them uniformly. Returns
    ``(False, bot index)`` or ``(True, slot)``."""
    league = len(snapshots) > 0 and snapshot_weight > 0
    if league:
        weights = np.append(weights, snapshot_weight)
    index = draw_index(rng, choice_cdf(weights))
    if league and index == len(weights) - 1:
        return True, int(snapshots[int(rng.integers(len(snapshots)))])
    return False, index


def observation_dict(observation: np.ndarray, mask: np.ndarray) -> dict[str, np.ndarray]:
    """What an RLlib agent observes: the observation and the int8 mask of its legal actions,
    under the keys RLlib's action-masking modules read."""
    return {OBSERVATIONS: observation, ACTION_MASK: np.asarray(mask, dtype=np.int8)}


def observation_dict_space(
    observation: spaces.Space, num_actions: int, table: bool = False
) -> spaces.Dict:
    """The space of :func:`observation_dict` for one role (``table``: a bot's, with the
    :data:`TABLE` entry)."""
    entries = {OBSERVATIONS: observation, ACTION_MASK: spaces.Box(0, 1, (num_actions,), np.int8)}
    if table:
        entries[TABLE] = spaces.Box(0, 2**31 - 1, (), np.int64)
    return spaces.Dict(entries)


def _feature_space(space: spaces.Space, transform: Transform) -> spaces.Box:
    """The learner's observation space after the feature set: float32 of the features' shape."""
    if space.shape is None:
        raise TypeError(f"features need an observation space with a shape, got {space}")
    sample = transform(np.zeros((1, *space.shape), dtype=np.float32))
    return spaces.Box(-np.inf, np.inf, sample.shape[1:], np.float32)


class BotTable:
    """The learner against the pool's bots on one AEC env, in RLlib's multi-agent protocol
    (see the module docstring).

    Args:
        aec_env: the game's PettingZoo AEC env (built once, reset per episode).
        bots: bot name -> sampling weight (weights > 0 only; they need not sum to 1).
        transform: the run's feature set for the learner's (and snapshots') observations
            (None: raw).
        reward_scale: the learner's rewards are multiplied by this.
        snapshot_weight: the weight of "a snapshot of the learner" among the bots' weights.
        snapshot_slots: how many snapshot modules the run keeps (0: no self-play).
    """

    def __init__(
        self,
        aec_env: Any,
        bots: Mapping[str, float],
        transform: Transform | None = None,
        reward_scale: float = 1.0,
        snapshot_weight: float = 0.0,
        snapshot_slots: int = 0,
    ) -> None:
        self.aec = aec_env
        self.seats: list[str] = list(aec_env.possible_agents)
        if len(self.seats) < 2:
            raise ValueError("a bot table needs a game of two or more players")
        names = [name for name, weight in bots.items() if weight > 0]
        if not names or any(weight < 0 for weight in bots.values()):
            raise ValueError(f"bad bots {dict(bots)!r}: expected weights >= 0, one of them > 0")
        self.bot_names = names
        # Not normalised: snapshot_weight weighs against the bots' weights as they are given.
        self._weights = np.array([bots[n] for n in names], dtype=np.float64)
        if snapshot_weight < 0 or snapshot_slots < 0:
            raise ValueError(
                f"bad league: snapshot_weight {snapshot_weight} and snapshot_slots "
                f"{snapshot_slots} must be >= 0"
            )
        self.snapshot_weight = float(snapshot_weight)
        self.snapshot_slots = int(snapshot_slots)
        self.transform = transform
        self.reward_scale = float(reward_scale)
        first = self.seats[0]
        raw = aec_env.observation_space(first)["observation"]
        self.num_actions = int(aec_env.action_space(first).n)
        learner = raw if transform is None else _feature_space(raw, transform)
        self.bot_of = {
            bot_id(name, position): name for position in range(1, len(self.seats)) for name in names
        }
        """Bot agent id -> bot name: every bot role a table of this game and pool may seat."""
        self.snapshot_of = {
            snapshot_id(slot, position): slot
            for position in range(1, len(self.seats))
            for slot in range(self.snapshot_slots)
        }
        """Snapshot agent id -> its slot: every snapshot role this table may seat."""
        self.possible_agents: list[str] = [LEARNER, *self.bot_of, *self.snapshot_of]
        self.observation_spaces = {
            agent: observation_dict_space(raw, self.num_actions, table=True)
            if agent in self.bot_of
            else observation_dict_space(learner, self.num_actions)
            for agent in self.possible_agents
        }
        self.table_id = next(_TABLE_IDS)
        """This table's id in its process: a bot role's observation carries it, so a bot
        module stepping several tables at once (an env runner's vector env) plays each with
        its own bot."""
        self._table = np.int64(self.table_id)
        self.action_spaces = {
            agent: spaces.Discrete(self.num_actions) for agent in self.possible_agents
        }
        self.agents: list[str] = []
        """The roles seated in the current episode (RLlib's and PettingZoo's ``agents``)."""
        self.roles: dict[str, str] = {}
        """Seat (AEC agent) -> role (agent id) in the current episode."""
        self.bot_seeds: dict[str, int] = {}
        """Bot agent id -> the seed its bot is reset with for the current episode."""
        self.actions_checked = 0
        """Actions of the current episode checked against their masks."""
        self.snapshots: list[int] = []
        """The filled snapshot slots, which a position may draw (:meth:`set_snapshots`)."""
        self.snapshot_seats = 0
        """Seats of the current episode taken by snapshots."""
        self._rng: np.random.Generator | None = None
        self._mask = np.zeros(self.num_actions, dtype=np.int8)
        """The acting seat's mask, as its observation showed it."""
        self._done = True

    def set_snapshots(self, slots: Sequence[int]) -> None:
        """The slots that hold a snapshot of the learner from the next episode on (the
        training run calls it as it fills them)."""
        bad = [slot for slot in slots if not 0 <= slot < self.snapshot_slots]
        if bad:
            raise ValueError(f"snapshot slots {bad}: the table has {self.snapshot_slots}")
        self.snapshots = sorted(set(int(slot) for slot in slots))

    # --- the episode ------------------------------------------------------------------------
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, dict[str, np.ndarray]], dict[str, dict[str, Any]]]:
        """Seat the learner and the bots, deal, and return the first observation (the agent to
        act's). ``options`` go to the AEC env (``"cards"`` deals a fixed pack)."""
        if seed is not None or self._rng is None:
            self._rng = np.random.default_rng(seed)
        rng = self._rng
        n = len(self.seats)
        deal_seed = int(rng.integers(2**31))
        learner = int(rng.integers(n))
        self.roles = {self.seats[learner]: LEARNER}
        self.bot_seeds = {}
        self.snapshot_seats = 0
        for position in range(1, n):
            snapshot, index = draw_opponent(
                rng, self._weights, self.snapshot_weight, self.snapshots
            )
            seat = self.seats[(learner + position) % n]
            if snapshot:
                self.roles[seat] = snapshot_id(index, position)
                self.snapshot_seats += 1
                continue
            role = bot_id(self.bot_names[index], position)
            self.roles[seat] = role
            self.bot_seeds[role] = int(rng.integers(2**31))
        self.aec.reset(seed=deal_seed, options=options)
        self.agents = list(self.roles.values())
        self.actions_checked = 0
        if self._game_over():
            raise RuntimeError("the game ended at the deal, before anyone acted")
        self._done = False
        return self._observe_acting(), {}

    def step(self, actions: Mapping[str, Any]) -> StepResult:
        """Play the acting role's action; return RLlib's five dicts (see the module docstring)."""
        if self._done:
            raise GameOverError("the episode is over: call reset() first")
        seat = self.aec.agent_selection
        role = self.roles[seat]
        if set(actions) != {role}:
            raise ValueError(f"expected an action for {role} (at {seat}) only, got {dict(actions)}")
        action = check_action(actions[role], self._mask, what=f"action of {role} at {seat}")
        self.actions_checked += 1
        self.aec.step(action)
        rewards = self._rewards()
        if not self._game_over():
            return self._observe_acting(), rewards, {"__all__": False}, {"__all__": False}, {}
        self._done = True
        terminations, truncations = self.aec.terminations, self.aec.truncations
        terminated = {r: bool(terminations.get(s, False)) for s, r in self.roles.items()}
        truncated = {
            r: bool(truncations.get(s, False)) and not terminated[r] for s, r in self.roles.items()
        }
        terminated["__all__"] = all(terminated.values())
        truncated["__all__"] = not terminated["__all__"]
        observations = {role: self._observe(seat) for seat, role in self.roles.items()}
        return observations, rewards, terminated, truncated, {}

    # --- internals --------------------------------------------------------------------------
    def _rewards(self) -> dict[str, float]:
        """Every seated role's share of the AEC env's last step (the learner's scaled)."""
        paid = self.aec.rewards
        rewards = {role: float(paid.get(seat, 0.0)) for seat, role in self.roles.items()}
        rewards[LEARNER] *= self.reward_scale
        return rewards

    def _game_over(self) -> bool:
        """pokerzoo's AEC envs end every seat at once (no seat finishes mid-game), so the game
        is over when the seats are."""
        aec = self.aec
        return all(aec.terminations[a] or aec.truncations[a] for a in aec.agents)

    def _observe(self, seat: str) -> dict[str, np.ndarray]:
        seen = self.aec.observe(seat)
        observation = seen["observation"]
        if self.roles[seat] in self.bot_of:
            observed = observation_dict(observation, seen["action_mask"])
            observed[TABLE] = np.array(self._table)
            return observed
        if self.transform is not None:
            observation = self.transform(np.asarray(observation, dtype=np.float32)[None])[0]
        return observation_dict(observation, seen["action_mask"])

    def _observe_acting(self) -> dict[str, dict[str, np.ndarray]]:
        seat = self.aec.agent_selection
        seen = self._observe(seat)
        self._mask = seen[ACTION_MASK]
        return {self.roles[seat]: seen}


def seat_env(game: str, options: Mapping[str, Any], bots: Mapping[str, float], actions: str) -> Any:
    """The env an SB3 run of a game of several players trains on, without snapshots: the
    learner's seat (drawn per episode) against the pool's ``bots``, built as evaluation builds
    them (with the game's evaluation options), in the action formulation ``actions``."""
    spec = get_game(game)
    bot_options = {**options, **spec.scoring.eval_options}
    pool = OpponentPool(lambda name: spec.make_bot(name, seed=None, **bot_options), bots)
    view = PoolSeatEnv(spec.make_aec(**options), pool)
    chosen = formulation(spec, actions)
    return view if chosen is None else chosen.wrap(view)


class SeatTable:
    """The learner's single-seat env (the bots inside it), in RLlib's multi-agent protocol with
    one agent, :data:`LEARNER` (see the module docstring).

    Args:
        env: a Gymnasium env of one seat, e.g. :func:`seat_env`, with a ``Discrete`` action
            space and the mask in ``info["action_mask"]``.
        transform: the run's feature set for its observations (None: raw).
        reward_scale: the learner's rewards are multiplied by this.
    """

    def __init__(
        self, env: Any, transform: Transform | None = None, reward_scale: float = 1.0
    ) -> None:
        self.env = env
        self.transform = transform
        self.reward_scale = float(reward_scale)
        self.num_actions = int(env.action_space.n)
        raw = env.observation_space
        learner = raw if transform is None else _feature_space(raw, transform)
        self.bot_of: dict[str, str] = {}
        """No bot is an RLlib agent: they act inside :attr:`env`."""
        self.possible_agents: list[str] = [LEARNER]
        self.observation_spaces = {LEARNER: observation_dict_space(learner, self.num_actions)}
        self.action_spaces = {LEARNER: spaces.Discrete(self.num_actions)}
        self.agents: list[str] = []
        self.bot_seeds: dict[str, int] = {}
        """Empty: :attr:`env` seeds its bots itself."""
        self.snapshot_seats = 0
        """No snapshot sits at this table (the league is not part of an action formulation's
        run)."""
        self.actions_checked = 0
        """The learner's actions of the current episode checked against their masks."""
        self._mask = np.zeros(self.num_actions, dtype=np.int8)
        self._done = True

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, dict[str, np.ndarray]], dict[str, dict[str, Any]]]:
        """Start an episode of :attr:`env` (``seed`` seeds its generator, which draws every
        later episode's seat, bots and deal; ``options`` go to it) and return the learner's
        first observation."""
        observation, info = self.env.reset(seed=seed, options=options)
        self.agents = [LEARNER]
        self.actions_checked = 0
        self._done = False
        return {LEARNER: self._observe(observation, info)}, {}

    def step(self, actions: Mapping[str, Any]) -> StepResult:
        """Play the learner's action (its bots' replies inside :attr:`env`); RLlib's five
        dicts."""
        if self._done:
            raise GameOverError("the episode is over: call reset() first")
        if set(actions) != {LEARNER}:
            raise ValueError(f"expected an action for {LEARNER} only, got {dict(actions)}")
        action = check_action(actions[LEARNER], self._mask, what=f"action of {LEARNER}")
        self.actions_checked += 1
        observation, reward, terminated, truncated, info = self.env.step(action)
        observations = {LEARNER: self._observe(observation, info)}
        rewards = {LEARNER: float(reward) * self.reward_scale}
        if not (terminated or truncated):
            return observations, rewards, {"__all__": False}, {"__all__": False}, {}
        self._done = True
        ended = bool(terminated)
        return (
            observations,
            rewards,
            {LEARNER: ended, "__all__": ended},
            {LEARNER: not ended, "__all__": not ended},
            {},
        )

    def _observe(self, observation: np.ndarray, info: Mapping[str, Any]) -> dict[str, np.ndarray]:
        if self.transform is not None:
            observation = self.transform(np.asarray(observation, dtype=np.float32)[None])[0]
        seen = observation_dict(observation, info["action_mask"])
        self._mask = seen[ACTION_MASK]
        return seen
