"""Quintet (RULES §1) for PettingZoo: ``env()`` / ``raw_env`` (AEC) and ``parallel_env()``.

Two players arrange the same 25 piquet cards into five ordered packs without seeing each other's;
packs are compared position by position for 3, 4, 5, 6, 7 points. The rules engine is
:mod:`pokerzoo.envs.quintet`; these classes only wrap it.

=====================  =========================================================================
Agents                 ``"player_0"``, ``"player_1"`` (the game is symmetric)
Action space           ``Discrete(5)``: the pack that receives the current card; pack ``p`` lies
                       at position ``p + 1`` and is worth ``3 + p`` points. A full pack is masked
                       off; playing it raises :class:`~pokerzoo.envs.errors.IllegalActionError`
                       and leaves the game unchanged.
Observation space      ``Dict("observation": Box(0, high, (262,), uint8),
                       "action_mask": Box(0, 1, (5,), int8))``; the index table is in
                       :func:`pokerzoo.envs.quintet.encode_observation`. A player sees the 25
                       cards, its own packs so far and the card to place; never the other's packs.
Placement order        fixed: descending card id (aces first; within a rank c, d, h, s), one card
                       per round, the same card for both players.
Rewards                at the end only. ``reward="points"`` (default): own points minus the
                       other's (zero-sum, -25..25); ``reward="win"``: +1 / 0 / -1.
Terminal info          ``"arrangements"`` (per agent, five pack strings, position 1 first),
                       ``"results"`` (per position: +1 player_0's pack wins, -1 player_1's, 0
                       equal), ``"points"`` (per agent), ``"winner"`` (agent or ``None``).
Options                ``reward="points" | "win"``, ``render_mode=None | "ansi"``.
Render                 ``"ansi"``: a spectator's text view of both rows (and the score at the end).
Version history        v0: initial.
=====================  =========================================================================

AEC: in each round ``player_0`` places the card, then ``player_1`` places the same card without
seeing where ``player_0`` put it (the observation holds only one's own packs), so the turn order
carries no information: the game stays simultaneous. The agent not on turn gets an all-zero mask.
Every step's ``infos[agent]["action_mask"]`` repeats the observation's mask.

Parallel: both agents act every step (25 steps). Both actions are checked before either is applied;
an illegal or missing action raises and changes nothing. Stepping a finished game raises
:class:`~pokerzoo.envs.errors.GameOverError`.

>>> env = parallel_env()
>>> obs, infos = env.reset(seed=1)
>>> while env.agents:
...     actions = {a: int(obs[a]["action_mask"].argmax()) for a in env.agents}
...     obs, rewards, terms, truncs, infos = env.step(actions)
>>> rewards
{'player_0': 0.0, 'player_1': 0.0}
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils import AgentSelector, wrappers

from . import quintet as game
from .cards import format_cards
from .errors import GameOverError, IllegalActionError, check_render_mode

__all__ = ["env", "parallel_env", "raw_env", "raw_parallel_env"]

AGENTS = ("player_0", "player_1")
RENDER_MODES = ("ansi",)


def _check_options(reward: str, render_mode: str | None) -> None:
    if reward not in game.REWARDS:
        raise ValueError(f"bad reward {reward!r}: expected one of {', '.join(game.REWARDS)}")
    check_render_mode(render_mode, RENDER_MODES)


def _spaces() -> tuple[spaces.Dict, spaces.Discrete]:
    observation = spaces.Dict(
        {
            "observation": spaces.Box(
                low=0, high=game.OBSERVATION_HIGH, shape=(game.OBSERVATION_SIZE,), dtype=np.uint8
            ),
            "action_mask": spaces.Box(low=0, high=1, shape=(game.NUM_PACKS,), dtype=np.int8),
        }
    )
    return observation, spaces.Discrete(game.NUM_PACKS)


def terminal_info(state: game.QuintetState) -> dict[str, Any]:
    """Both arrangements, each position's result and the points of a finished deal."""
    result = game.outcome(state)
    return {
        "arrangements": {
            agent: [format_cards(pack) for pack in result.packs[i]]
            for i, agent in enumerate(AGENTS)
        },
        "results": list(result.results),
        "points": {agent: result.points[i] for i, agent in enumerate(AGENTS)},
        "winner": None if result.winner is None else AGENTS[result.winner],
    }


class _QuintetBase:
    """Options, spaces, seeding and rendering shared by the AEC and the parallel env."""

    metadata: dict[str, Any] = {
        "name": "quintet_v0",
        "render_modes": list(RENDER_MODES),
        "is_parallelizable": True,
    }

    def __init__(self, reward: str = "points", render_mode: str | None = None) -> None:
        _check_options(reward, render_mode)
        self.reward_kind = reward
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        observation_space, action_space = _spaces()
        # One object per agent, returned on every call, so seeding a space sticks.
        self.observation_spaces = {agent: observation_space for agent in AGENTS}
        self.action_spaces = {agent: action_space for agent in AGENTS}
        self._rng: np.random.Generator | None = None
        self.state: game.QuintetState | None = None

    def observation_space(self, agent: str) -> spaces.Dict:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        return self.action_spaces[agent]

    def _new_deal(self, seed: int | None) -> game.QuintetState:
        if seed is not None or self._rng is None:
            self._rng = np.random.default_rng(seed)
        self.state = game.deal(self._rng)
        return self.state

    def _observe(self, player: int, on_turn: bool = True) -> dict[str, np.ndarray]:
        assert self.state is not None
        mask = game.legal_packs(self.state, player)
        if not on_turn:
            mask = np.zeros_like(mask)
        return {"observation": game.encode_observation(self.state, player), "action_mask": mask}

    def _final_rewards(self) -> dict[str, float]:
        assert self.state is not None
        r0, r1 = game.returns(self.state, self.reward_kind)
        return {AGENTS[0]: r0, AGENTS[1]: r1}

    def render(self) -> str | None:
        if self.render_mode is None or self.state is None:
            return None
        return game.render_text(self.state)

    def close(self) -> None:
        pass


class raw_env(_QuintetBase, AECEnv):
    """Quintet, turn-based: player_0 then player_1 place each card (see the module docstring)."""

    def __init__(self, reward: str = "points", render_mode: str | None = None) -> None:
        AECEnv.__init__(self)
        _QuintetBase.__init__(self, reward=reward, render_mode=render_mode)
        self.agents: list[str] = []

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        self._new_deal(seed)
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self._agent_selector = AgentSelector(self.agents)
        self.agent_selection = self._agent_selector.reset()
        self._update_infos()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        return self._observe(AGENTS.index(agent), on_turn=agent == self.agent_selection)

    def _update_infos(self) -> None:
        self.infos = {
            agent: {"action_mask": self.observe(agent)["action_mask"]} for agent in self.agents
        }

    def step(self, action: Any) -> None:
        if not self.agents or self.state is None:
            raise GameOverError("the game is over: call reset()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                raise GameOverError(f"the game is over: {agent} may only step(None), or reset()")
            self._was_dead_step(action)
            return
        game.place(self.state, AGENTS.index(agent), action)
        self._cumulative_rewards[agent] = 0.0
        if game.is_terminal(self.state):
            self.rewards = self._final_rewards()
            self.terminations = dict.fromkeys(self.agents, True)
        self.agent_selection = self._agent_selector.next()
        self._update_infos()
        if all(self.terminations.values()):
            info = terminal_info(self.state)
            for a in self.agents:
                self.infos[a].update(info)
        self._accumulate_rewards()


class raw_parallel_env(_QuintetBase, ParallelEnv):
    """Quintet, simultaneous: both players place the current card every step."""

    def __init__(self, reward: str = "points", render_mode: str | None = None) -> None:
        _QuintetBase.__init__(self, reward=reward, render_mode=render_mode)
        self.agents = []

    def reset(
        self, seed: int | None = None, options: dict | None = None
    ) -> tuple[dict[str, dict[str, np.ndarray]], dict[str, dict[str, Any]]]:
        self._new_deal(seed)
        self.agents = list(AGENTS)
        observations = {agent: self._observe(i) for i, agent in enumerate(AGENTS)}
        return observations, self._infos(observations)

    @staticmethod
    def _infos(observations: dict[str, dict[str, np.ndarray]]) -> dict[str, dict[str, Any]]:
        return {agent: {"action_mask": obs["action_mask"]} for agent, obs in observations.items()}

    def step(self, actions: dict[str, Any]) -> tuple[dict, dict, dict, dict, dict]:
        if not self.agents or self.state is None:
            raise GameOverError("the game is over: call reset()")
        missing = [agent for agent in AGENTS if agent not in actions]
        if missing:
            raise IllegalActionError(f"no action for {', '.join(missing)}: both players act")
        game.place_both(self.state, [actions[agent] for agent in AGENTS])
        observations = {agent: self._observe(i) for i, agent in enumerate(AGENTS)}
        infos = self._infos(observations)
        done = game.is_terminal(self.state)
        if done:
            rewards = self._final_rewards()
            info = terminal_info(self.state)
            for agent in AGENTS:
                infos[agent].update(info)
            self.agents = []
        else:
            rewards = dict.fromkeys(AGENTS, 0.0)
        terminations = dict.fromkeys(AGENTS, done)
        truncations = dict.fromkeys(AGENTS, False)
        return observations, rewards, terminations, truncations, infos


class _OrderEnforcing(wrappers.OrderEnforcingWrapper):
    """PettingZoo's order checks, but stepping a finished game raises instead of warning."""

    def step(self, action: Any) -> None:
        if self._has_reset and not self.agents:
            raise GameOverError("the game is over: call reset()")
        super().step(action)


def env(**options: Any) -> wrappers.OrderEnforcingWrapper:
    """The AEC env with PettingZoo's order-enforcing wrapper.

    Illegal actions raise (they are not turned into a penalty), so PettingZoo's
    ``TerminateIllegalWrapper`` is deliberately not applied.
    """
    return _OrderEnforcing(raw_env(**options))


def parallel_env(**options: Any) -> raw_parallel_env:
    """The parallel env (both players act every step)."""
    return raw_parallel_env(**options)
