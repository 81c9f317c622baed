"""Multi-player Poker Squares (RULES §3): every player places the same card on their own grid.

One shuffled deck announces the cards; each player fills their own 5x5 grid with them. A round
is 25 cards; after ``rounds`` rounds (each a fresh deal from the same generator) the highest
total wins. ``parallel_env()`` is the native :class:`pettingzoo.ParallelEnv` (everyone places
the announced card in the same step); ``env()`` / :class:`raw_env` is the AEC form (players
take turns placing each card, ``player_0`` first).

==================  ==========================================================================
Agents              ``player_0`` .. ``player_{n-1}``, ``num_players`` = 2..8 (default 2)
Action space        ``Discrete(25)``: the cell on the agent's own grid, row-major
Observation space   ``Dict({"observation": Box(0, high, (522,), uint8), "action_mask":
                    Box(0, 1, (25,), int8)})``; ``"observation"`` is exactly the single env's
                    522-entry vector for the agent's own grid (index table in
                    :mod:`pokerzoo.envs.poker_squares` and :class:`PokerSquaresEnv`)
Action mask         the legal cells of the agent's grid (AEC: zeros for agents not on turn)
Rewards             ``reward="final"`` (default): at each round's end, the agent's own round
                    score; ``"incremental"``: each placement earns the points of the lines it
                    completes (same totals); ``"margin"``: at each round's end, own round score
                    minus the mean round score of the other players (zero-sum)
Episode             ``rounds * 25`` placements per agent; all agents terminate together
Infos               at a round's end: ``"score"`` (round score), ``"grid"`` (25 card strings);
                    at the game's end also ``"total"`` (sum of round scores) and ``"won"`` (the
                    agent's total is the highest, ties included)
==================  ==========================================================================

Options: ``num_players`` (2..8), ``rounds`` (1.., default 1), and the single env's
``scoring``, ``jokers``, ``placement``, ``variant``, ``render_mode`` (``"ansi"``/``"human"``:
every grid). ``reset(seed=s)`` seeds the deals (round 1 deals exactly what the single env deals
for the same seed). An illegal cell raises :class:`~pokerzoo.envs.errors.IllegalActionError`
naming the agent and the cell and changes nothing; stepping a finished game raises
:class:`~pokerzoo.envs.errors.GameOverError`.

Version history: v0: initial version.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils import wrappers

from .cards import format_card
from .errors import GameOverError, IllegalActionError, check_action, check_render_mode
from .poker_squares import (
    GRID_CELLS,
    OBS_HIGH,
    OBS_SIZE,
    PokerSquaresGame,
    Scoring,
    SquaresState,
    cell_name,
    encode_observation,
    render_grid,
    update_observation,
)

__all__ = ["PokerSquaresParallelEnv", "env", "parallel_env", "raw_env"]

_REWARDS = ("final", "incremental", "margin")
_METADATA = {
    "name": "poker_squares_v0",
    "render_modes": ["ansi", "human"],
    "is_parallelizable": True,
    "render_fps": 4,
}


class _Table:
    """The shared mechanics of both APIs: deals, one engine state per player, round scores."""

    def __init__(
        self,
        num_players: int,
        rounds: int,
        scoring: Scoring,
        jokers: int,
        placement: str,
        variant: str,
        reward: str,
        render_mode: str | None,
    ) -> None:
        for name, value, low, high in (
            ("num_players", num_players, 2, 8),
            ("rounds", rounds, 1, None),
        ):
            if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
                raise ValueError(f"bad {name} {value!r}: expected an int")
            if value < low or (high is not None and value > high):
                expected = f"{low}..{high}" if high is not None else f">= {low}"
                raise ValueError(f"bad {name} {value!r}: expected an int {expected}")
        if reward not in _REWARDS:
            raise ValueError(f"bad reward {reward!r}: expected 'final', 'incremental' or 'margin'")
        check_render_mode(render_mode, _METADATA["render_modes"])
        self.game = PokerSquaresGame(
            scoring=scoring, jokers=jokers, placement=placement, variant=variant
        )
        self.num_players = int(num_players)
        self.rounds = int(rounds)
        self.reward_mode = reward
        self.render_mode = render_mode
        self.agents_all = [f"player_{i}" for i in range(self.num_players)]
        # one space object per agent, returned every time (PettingZoo's seeding contract)
        self.observation_spaces = {a: _observation_space() for a in self.agents_all}
        self.action_spaces = {a: spaces.Discrete(GRID_CELLS) for a in self.agents_all}
        self.rng = np.random.default_rng()
        self.round = 0
        self.states: dict[str, SquaresState] = {}
        self.obs: dict[str, np.ndarray] = {}
        self.totals: dict[str, int] = {}

    def reset(self, seed: int | None) -> None:
        if seed is not None:
            self.rng = np.random.default_rng(seed)
        self.round = 0
        self.totals = dict.fromkeys(self.agents_all, 0)
        self.deal()

    def deal(self, cards: list[int] | None = None) -> None:
        """Start the next round: every player gets an empty grid and the same cards."""
        self.round += 1
        cards = self.game.deal(self.rng) if cards is None else cards
        self.states = {a: self.game.new_state(cards) for a in self.agents_all}
        self.obs = {a: encode_observation(s) for a, s in self.states.items()}

    def check(self, agent: str, action: object) -> int:
        return check_action(action, self.states[agent].mask, cell_name, f"cell for {agent}")

    def place(self, agent: str, cell: int) -> int:
        state = self.states[agent]
        earned = self.game.place(state, cell)
        update_observation(self.obs[agent], state, cell)
        return earned

    @property
    def round_over(self) -> bool:
        return all(s.over for s in self.states.values())

    def end_round(self) -> tuple[dict[str, float], dict[str, dict[str, Any]], bool]:
        """Round-end rewards (final/margin; incremental already paid), infos, game over."""
        scores = {a: s.score for a, s in self.states.items()}
        for a, score in scores.items():
            self.totals[a] += score
        rewards = dict.fromkeys(self.agents_all, 0.0)
        if self.reward_mode == "final":
            rewards = {a: float(s) for a, s in scores.items()}
        elif self.reward_mode == "margin":
            total = sum(scores.values())
            n = self.num_players
            rewards = {a: s - (total - s) / (n - 1) for a, s in scores.items()}
        infos: dict[str, dict[str, Any]] = {
            a: {"score": scores[a], "grid": [format_card(c) for c in self.states[a].grid]}
            for a in self.agents_all
        }
        game_over = self.round == self.rounds
        if game_over:
            best = max(self.totals.values())
            for a in self.agents_all:
                infos[a]["total"] = self.totals[a]
                infos[a]["won"] = self.totals[a] == best
        return rewards, infos, game_over

    def render(self) -> str | None:
        if not self.states:
            raise GameOverError("nothing to render: call reset() first")
        parts = [f"round {self.round}/{self.rounds}"]
        for a in self.agents_all:
            total = self.totals[a] + (self.states[a].score if not self.round_over else 0)
            parts.append(f"{a} (total so far {total})")
            parts.append(render_grid(self.game, self.states[a]))
        text = "\n".join(parts)
        if self.render_mode == "human":
            print(text, end="")
            return None
        return text


def _observation_space() -> spaces.Dict:
    return spaces.Dict(
        {
            "observation": spaces.Box(0, OBS_HIGH.copy(), (OBS_SIZE,), np.uint8),
            "action_mask": spaces.Box(0, 1, (GRID_CELLS,), np.int8),
        }
    )


def _reset_options(options: dict[str, Any] | None) -> list[int] | None:
    """``options={"cards": ...}`` fixes the first round's deal; other keys are ignored."""
    if options and options.get("cards") is not None:
        from .cards import parse_cards

        return parse_cards(options["cards"])
    return None


class PokerSquaresParallelEnv(ParallelEnv):
    """Parallel API: every live agent places the announced card in the same step.

    See the module docstring for spaces, rewards and options.
    """

    metadata = _METADATA

    def __init__(
        self,
        num_players: int = 2,
        rounds: int = 1,
        scoring: Scoring = "american",
        jokers: int = 0,
        placement: str = "free",
        variant: str = "deal",
        reward: str = "final",
        render_mode: str | None = None,
    ) -> None:
        self._table = _Table(
            num_players, rounds, scoring, jokers, placement, variant, reward, render_mode
        )
        self.render_mode = render_mode
        self.possible_agents = list(self._table.agents_all)
        self.agents: list[str] = []
        self.observation_spaces = self._table.observation_spaces
        self.action_spaces = self._table.action_spaces

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def _observations(self) -> dict[str, dict[str, np.ndarray]]:
        t = self._table
        return {
            a: {"observation": t.obs[a].copy(), "action_mask": t.states[a].mask.copy()}
            for a in self.possible_agents
        }

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, dict[str, np.ndarray]], dict[str, dict[str, Any]]]:
        cards = _reset_options(options)
        self._table.reset(seed)
        if cards is not None:
            self._table.round = 0
            self._table.deal(cards)
        self.agents = list(self.possible_agents)
        if self.render_mode == "human":
            self.render()
        return self._observations(), {a: {} for a in self.agents}

    def step(self, actions: dict[str, object]) -> tuple[dict, dict, dict, dict, dict]:
        t = self._table
        if not self.agents:
            raise GameOverError("the game is over: call reset() first")
        missing = [a for a in self.agents if a not in actions]
        if missing:
            raise IllegalActionError(f"missing actions for {', '.join(missing)}")
        cells = {a: t.check(a, actions[a]) for a in self.agents}  # all checked before any move
        rewards = dict.fromkeys(self.agents, 0.0)
        for a, cell in cells.items():
            earned = t.place(a, cell)
            if t.reward_mode == "incremental":
                rewards[a] = float(earned)
        infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        game_over = False
        if t.round_over:
            round_rewards, infos, game_over = t.end_round()
            if t.reward_mode != "incremental":
                rewards = round_rewards
            if not game_over:
                t.deal()
        observations = self._observations()
        terminations = dict.fromkeys(self.agents, game_over)
        truncations = dict.fromkeys(self.agents, False)
        if game_over:
            self.agents = []
        if self.render_mode == "human":
            self.render()
        return observations, rewards, terminations, truncations, infos

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        return self._table.render()

    def close(self) -> None:
        pass


class raw_env(AECEnv):  # noqa: N801 - PettingZoo's conventional name
    """AEC API: for each card, ``player_0`` .. ``player_{n-1}`` place it in turn.

    Rewards of a round's end arrive on the last player's placement (see the module docstring).
    """

    metadata = _METADATA

    def __init__(
        self,
        num_players: int = 2,
        rounds: int = 1,
        scoring: Scoring = "american",
        jokers: int = 0,
        placement: str = "free",
        variant: str = "deal",
        reward: str = "final",
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self._table = _Table(
            num_players, rounds, scoring, jokers, placement, variant, reward, render_mode
        )
        self.render_mode = render_mode
        self.possible_agents = list(self._table.agents_all)
        self.agents = []
        self.observation_spaces = self._table.observation_spaces
        self.action_spaces = self._table.action_spaces
        self._zero_mask = np.zeros(GRID_CELLS, dtype=np.int8)

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        t = self._table
        on_turn = agent == self.agent_selection and not self.terminations.get(agent, True)
        mask = t.states[agent].mask.copy() if on_turn else self._zero_mask.copy()
        return {"observation": t.obs[agent].copy(), "action_mask": mask}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        cards = _reset_options(options)
        self._table.reset(seed)
        if cards is not None:
            self._table.round = 0
            self._table.deal(cards)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.agents[0]
        if self.render_mode == "human":
            self.render()

    def step(self, action: object) -> None:
        if not self.agents:
            raise GameOverError("the game is over: call reset() first")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        t = self._table
        cell = t.check(agent, action)
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self.infos[agent] = {}  # the others keep their round-end info until they act
        earned = t.place(agent, cell)
        if t.reward_mode == "incremental":
            self.rewards[agent] = float(earned)
        index = self.agents.index(agent)
        if index == len(self.agents) - 1:
            if t.round_over:
                round_rewards, self.infos, game_over = t.end_round()
                if t.reward_mode != "incremental":
                    self.rewards = round_rewards
                if game_over:
                    self.terminations = dict.fromkeys(self.agents, True)
                else:
                    t.deal()
            self.agent_selection = self.agents[0]
        else:
            self.agent_selection = self.agents[index + 1]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        return self._table.render()

    def close(self) -> None:
        pass


def env(**options: Any) -> AECEnv:
    """The AEC env with PettingZoo's usual safety wrappers (bounds check, call order)."""
    aec = raw_env(**options)
    aec = wrappers.AssertOutOfBoundsWrapper(aec)
    return wrappers.OrderEnforcingWrapper(aec)


def parallel_env(**options: Any) -> PokerSquaresParallelEnv:
    """The native parallel env: ``parallel_env(num_players=2..8, rounds=1.., **options)``."""
    return PokerSquaresParallelEnv(**options)
