"""The PettingZoo envs of every pokerzoo game: one AEC base and one parallel base over the
engine contract of :mod:`pokerzoo.envs.core.game`.

A game's PettingZoo module subclasses :class:`CardGameAECEnv` (and, for a simultaneous game,
:class:`CardGameParallelEnv`), naming its ``metadata`` and its engine class (``game_class``,
built with the env's game options); everything below is shared, so every game behaves the same
way:

- Agents ``player_0 .. player_{n-1}``; one ``Discrete(num_actions)`` action space and a
  ``Dict({"observation": Box(layout), "action_mask": Box(0, 1, (num_actions,), int8)})``
  observation space per agent, the same objects on every call.
- The mask holds the legal actions of the agent to act and zeros for every other agent (AEC);
  every live agent's own mask in the parallel env. It lives in the observation only, as
  PettingZoo's convention has it (torchrl's ``PettingZooWrapper`` fails on an env whose info
  repeats it beside other keys); the Gymnasium views add ``info["action_mask"]``.
- Infos follow one schema per env (``env.info_schema``, :mod:`.info`): the game's keys, the
  same types and shapes at every step, scalars as numpy scalars, neutral values until a
  result is known; ``masked_action`` joins them with ``masked_action="random"``.
- ``reset(seed=s)`` seeds the deal (an int >= 0, or ``None`` for fresh entropy; a later
  ``reset()`` without a seed continues the same generator); ``reset(options={"cards": ...})``
  deals a fixed pack (the game's docstring says in which order). An unknown reset option is
  ignored with a warning naming the accepted ones (Gymnasium's convention); a bad value of a
  known one (a malformed ``cards``) raises ``ValueError`` naming it. A reset that raises changes
  nothing: the game in progress and the generator are as they were.
- An illegal or out-of-space action (a masked action, ``-1``, ``None``, a float) raises
  :class:`~.errors.IllegalActionError` naming the agent, the action and the legal ones, and
  changes nothing. Stepping before ``reset`` or after the game is over raises
  :class:`~.errors.GameOverError`. In the AEC env a finished agent may only ``step(None)``.
- ``masked_action="random"`` (a constructor option) plays a uniformly random legal action instead
  of raising when an in-space action is masked, drawn from the env's generator (so seeded
  episodes replay) and reported in the acting agent's ``info["masked_action"]``. It exists for
  tools that sample actions without masks (Gymnasium's and PettingZoo's checkers, plain RL
  algorithms); out-of-space actions always raise.
- Rewards come from the engine's :class:`~.game.Payout`; infos from its ``info(state, seat)``,
  read again after every payout. Rewards accumulate in ``_cumulative_rewards`` as PettingZoo
  specifies.
- ``render_mode="ansi"`` returns the engine's text view; ``"human"`` prints it after every
  reset and step.

:func:`play_game` plays one game of an AEC env to its end, a function choosing each action (the
play loop of the tests and the benchmarks).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils import wrappers

from .errors import (
    MASKED_ACTIONS,
    RENDER_FPS,
    RENDER_MODES,
    GameOverError,
    IllegalActionError,
    check_render_mode,
    resolve_action,
)
from .game import Game, Payout
from .info import InfoKey, InfoSchema, settled
from .observation import document
from .options import build, check_choice, check_int, check_reset_options, check_seed
from .seeding import kept_on_error

__all__ = [
    "INFOS_CHANGE",
    "MASKED_ACTIONS",
    "env_info_schema",
    "pettingzoo_metadata",
    "RENDER_MODES",
    "CardGameAECEnv",
    "CardGameParallelEnv",
    "agent_names",
    "document_module",
    "observation_space",
    "order_enforcing",
    "play_game",
]

INFOS_CHANGE = """\
- v0, infos: infos no longer repeat the action mask, which stays in the observation
  (``observe(agent)["action_mask"]``); scalars are numpy scalars (``np.int64``, ``np.bool_``;
  ``masked_action`` too)."""
"""The changelog entry of the betting games' AEC envs for their infos without the action mask
(``{infos_change}`` in their module docstrings, filled by
:func:`~pokerzoo.envs.core.observation.document`)."""


def document_module(module_name: str, game: Game, **tables: str) -> None:
    """Fill the placeholders of a game's PettingZoo module docstring from its engine ``game``
    (default options): ``{observation_table}``, ``{info_table}`` (the env's keys with
    ``masked_action="random"``), ``{state_table}`` and ``{infos_change}`` where the docstring
    has them, then ``tables`` (the game's own, such as its action table)."""
    module = sys.modules[module_name]
    shared = {
        "observation_table": game.layout.table(),
        "info_table": env_info_schema(game, "random").table(),
        "infos_change": INFOS_CHANGE,
    }
    if hasattr(game, "state_layout"):
        shared["state_table"] = game.state_layout.table()
    text = module.__doc__ or ""
    document(module, **{k: v for k, v in shared.items() if "{" + k + "}" in text}, **tables)


def pettingzoo_metadata(name: str, *, parallelizable: bool) -> dict[str, Any]:
    """A game's PettingZoo ``metadata``: its versioned name, the render modes every pokerzoo env
    offers (with ``render_fps``, which Gymnasium's and PettingZoo's tools read), and whether a
    parallel env exists."""
    return {
        "name": name,
        "render_modes": list(RENDER_MODES),
        "is_parallelizable": parallelizable,
        "render_fps": RENDER_FPS,
    }


def env_info_schema(game: Game, masked_action: str = "raise") -> InfoSchema:
    """The info of every agent at every step: the game's own keys (its ``info_schema``) and,
    with ``masked_action="random"``, ``masked_action``."""
    keys = list(getattr(game, "info_schema", ()))
    if masked_action == "random":
        keys.append(
            InfoKey(
                "masked_action",
                "int",
                (),
                "the masked action the agent asked for at its last step, replaced by a random "
                "legal one; -1 when it asked for a legal one",
            )
        )
    return InfoSchema(keys)


def agent_names(num_players: int) -> list[str]:
    """``["player_0", ..., "player_{n-1}"]``."""
    return [f"player_{i}" for i in range(num_players)]


def observation_space(game: Game) -> spaces.Dict:
    """One agent's observation space: the layout's vector and the action mask."""
    layout = game.layout
    return spaces.Dict(
        {
            "observation": spaces.Box(
                low=layout.low.copy(), high=layout.high.copy(), dtype=layout.dtype
            ),
            "action_mask": spaces.Box(0, 1, (game.num_actions,), np.int8),
        }
    )


class _CardGameBase:
    """What both bases share: options, agents, spaces, seeding, action checks, rendering."""

    metadata: ClassVar[dict[str, Any]] = {"name": "card_game", "render_modes": list(RENDER_MODES)}
    game_class: ClassVar[Callable[..., Game]]
    """The game's engine, built with the env's game options (every option but ``render_mode``
    and ``masked_action``)."""
    reset_options: ClassVar[tuple[str, ...]] = ("cards",)
    """The keys ``reset(options=...)`` accepts: ``"cards"`` goes to the engine's ``new_state``
    as its first argument, every other key as a keyword of the same name (a game that takes
    more, such as ``"dealer"``, names them here). Other keys are ignored with a warning."""

    def __init__(
        self,
        *,
        render_mode: str | None = None,
        masked_action: str = "raise",
        max_cycles: int | None = None,
        **options: Any,
    ) -> None:
        super().__init__()  # the PettingZoo base's (AECEnv's; nothing for ParallelEnv)
        self._setup(options, render_mode, masked_action, max_cycles)
        self._init_api()

    def _init_api(self) -> None:
        """What the API's own constructor adds once the game is built (and may refuse)."""

    def _setup(
        self,
        options: Mapping[str, Any],
        render_mode: str | None,
        masked_action: str,
        max_cycles: int | None,
    ) -> None:
        game = build(
            self.game_class,
            options,
            self.metadata["name"],
            also=("render_mode", "masked_action", "max_cycles"),
        )
        if not callable(getattr(game, "transition", None)):  # the envs step through it
            raise TypeError(
                f"{type(game).__name__} has no transition(state, player, action): an engine "
                "derives from pokerzoo.envs.core.game.Engine and writes its transition there"
            )
        self.game = game
        self.render_mode = check_render_mode(render_mode, self.metadata["render_modes"])
        self.masked_action = check_choice("masked_action", masked_action, MASKED_ACTIONS)
        self.max_cycles = None if max_cycles is None else check_int("max_cycles", max_cycles, 1)
        self.info_schema = env_info_schema(game, self.masked_action)
        if hasattr(game, "state_layout"):
            layout = game.state_layout
            self.state_space = spaces.Box(
                low=layout.low.copy(), high=layout.high.copy(), dtype=layout.dtype
            )
        self.possible_agents = agent_names(game.num_players)
        self._seat = {agent: i for i, agent in enumerate(self.possible_agents)}
        # One space object per agent, returned on every call, so seeding a space sticks.
        self.observation_spaces = {a: observation_space(game) for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(game.num_actions) for a in self.possible_agents}
        self.agents: list[str] = []
        self.game_state: Any = None
        self._rng: np.random.Generator | None = None
        self._zero_mask = np.zeros(game.num_actions, dtype=np.int8)
        self._game_infos = hasattr(game, "info")
        self._settled: list[Mapping[str, Any]] = []
        self._settled_from: object = None  # the engine info _settled was built from
        self._decisions: dict[str, int] = {}

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def state(self) -> np.ndarray:
        """The whole game as one vector (``state_space``), for centralised critics: every card
        wherever it lies, hidden ones included (the game's docstring has its index table).
        Observations never hold what their agent may not see; this does."""
        if not hasattr(self.game, "encode_state"):
            raise NotImplementedError(f"{type(self.game).__name__} has no state encoding")
        if self.game_state is None:
            raise GameOverError("no game in progress: call reset() before state()")
        return self.game.encode_state(self.game_state)

    def _settle(self) -> None:
        """Read every seat's game info from the engine (after a reset or a payout: an engine's
        ``info`` changes only on a transition that returns a :class:`~.game.Payout`)."""
        if self._game_infos:
            game, state = self.game, self.game_state
            if getattr(game, "info_shared", False):  # one info for every seat: read it once
                raw = game.info(state, 0)
                if raw is not self._settled_from:  # an engine may hand out the same info again
                    shared = settled(raw)
                    self._settled, self._settled_from = [shared] * len(self._seat), raw
            else:
                self._settled = [settled(game.info(state, seat)) for seat in self._seat.values()]
        else:
            self._settled = [{} for _ in self._seat]

    def _info(self, seat: int, asked: object = None) -> dict[str, Any]:
        """One agent's info: the game's keys (and ``masked_action``). A new dict at every step;
        its arrays are read-only and shared until the next payout (the Gymnasium views copy
        them: Gymnasium requires new data at every call)."""
        info = dict(self._settled[seat])
        if self.masked_action == "random":
            info["masked_action"] = np.int64(-1 if asked is None else asked)  # type: ignore[call-overload]
        return info

    def _new_game(self, seed: object, options: object) -> None:
        """Start a game: check the seed and the reset options, then deal. Nothing changes when
        any of it raises (the generator included): a failed reset leaves the env as it was."""
        seed = check_seed(seed)
        chosen = check_reset_options(options, self.reset_options)
        cards = chosen.pop("cards", None)
        if seed is not None or self._rng is None:
            rng = np.random.default_rng(seed)  # a new generator: nothing to restore
            state = self.game.new_state(cards, rng=rng, **chosen)
        else:
            rng = self._rng
            with kept_on_error(rng):
                state = self.game.new_state(cards, rng=rng, **chosen)
        self._rng = rng
        self.game_state = state

    def _checked(self, agent: str, action: object, mask: np.ndarray) -> tuple[int, object]:
        """``action`` as a legal int for ``agent`` (or its random replacement under
        ``masked_action="random"``), and the action asked for when it was replaced."""
        return resolve_action(
            action,
            mask,
            self.masked_action,
            self._rng,
            self.game.describe_action,
            f"{getattr(self.game, 'action_noun', 'action')} for {agent}",
        )

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        if self.game_state is None:
            raise GameOverError("nothing to render: call reset() first")
        text = self.game.render(self.game_state)
        if self.render_mode == "human":
            print(text)  # noqa: T201 - "human" mode prints by definition
            return None
        return text

    def close(self) -> None:
        pass


class CardGameAECEnv(_CardGameBase, AECEnv):
    """Turn-based PettingZoo env of a pokerzoo game (see the module docstring).

    The agent to act is the engine's ``current_player``; in a simultaneous game the seats act
    in seat order and none sees the others' moves of the round.
    """

    def _init_api(self) -> None:
        self._mask = self._zero_mask

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self._new_game(seed, options)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self._decisions = dict.fromkeys(self.agents, 0)
        self.agent_selection = self.possible_agents[self.game.current_player(self.game_state)]
        self._mask = self.game.legal_mask(self.game_state, self._seat[self.agent_selection])
        self._settle()
        self.infos = {agent: self._info(seat) for agent, seat in self._seat.items()}
        if self.render_mode == "human":
            self.render()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self._seat[agent]
        mask = self._mask if agent == self.agent_selection else self._zero_mask
        return {
            "observation": self.game.observe(self.game_state, seat),
            "action_mask": mask.copy(),
        }

    def step(self, action: Any) -> None:
        state = self.game_state
        if state is None:
            raise GameOverError("no game in progress: call reset() before step()")
        if not self.agents:
            raise GameOverError("the game is over: call reset()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                raise GameOverError(f"the game is over: {agent} may only step(None), or reset()")
            self._was_dead_step(action)
            return
        mask = self._mask
        if type(action) is int and 0 <= action < mask.shape[0] and mask[action]:
            legal, asked = action, None  # the common case, checked without a call
        else:
            legal, asked = self._checked(agent, action, mask)
        game = self.game
        payout = game.transition(state, self._seat[agent], legal)  # legal: checked above
        self._cumulative_rewards[agent] = 0.0
        if payout is None:
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self.infos[agent] = self._info(self._seat[agent], asked)
        else:
            self.rewards = self._payout(payout)
            if self._game_infos:  # something was settled: every agent's info is new
                self._settle()
                seats = self._seat
                self.infos = {
                    a: self._info(seats[a], asked if a == agent else None) for a in self.agents
                }
            else:
                self.infos[agent] = self._info(self._seat[agent], asked)
        self._decisions[agent] += 1
        if game.is_terminal(state):
            self.terminations = dict.fromkeys(self.agents, True)
            self._mask = self._zero_mask
        else:
            seat = game.current_player(state)
            selected = self.agent_selection = self.possible_agents[seat]
            if self.max_cycles is not None and self._decisions[selected] >= self.max_cycles:
                # max_cycles decisions of the seat to act: the game is cut short for everyone
                self.truncations = dict.fromkeys(self.agents, True)
                self._mask = self._zero_mask
            else:
                self._mask = game.legal_mask(state, seat)
        if payout is not None:  # else every reward is 0: nothing to add
            self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _payout(self, payout: Payout) -> dict[str, float]:
        return {
            agent: float(reward)
            for agent, reward in zip(self.possible_agents, payout.rewards, strict=True)
            if agent in self.rewards
        }


class CardGameParallelEnv(_CardGameBase, ParallelEnv):
    """Parallel PettingZoo env of a simultaneous pokerzoo game: every live agent acts every
    step; all actions are checked before any is played (see the module docstring)."""

    def _init_api(self) -> None:
        if not self.game.simultaneous:
            raise ValueError(f"{type(self.game).__name__} is turn-based: it has no parallel env")

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, dict[str, np.ndarray]], dict[str, dict[str, Any]]]:
        self._new_game(seed, options)
        self.agents = list(self.possible_agents)
        self._steps = 0
        self._settle()
        observations = self._observations()
        infos = {a: self._info(self._seat[a]) for a in observations}
        if self.render_mode == "human":
            self.render()
        return observations, infos

    def step(self, actions: Mapping[str, Any]) -> tuple[dict, dict, dict, dict, dict]:
        if self.game_state is None:
            raise GameOverError("no game in progress: call reset() before step()")
        if not self.agents:
            raise GameOverError("the game is over: call reset()")
        if not isinstance(actions, Mapping):
            raise IllegalActionError(f"bad actions {actions!r}: expected a dict agent -> action")
        unknown = sorted(str(a) for a in actions if a not in self.agents)
        if unknown:
            raise IllegalActionError(
                f"actions for unknown agents {unknown}: the agents are {self.agents}"
            )
        missing = [agent for agent in self.agents if agent not in actions]
        if missing:
            raise IllegalActionError(
                f"no action for {', '.join(missing)}: every agent acts every step"
            )
        state = self.game_state
        checked = {
            agent: self._checked(
                agent, actions[agent], self.game.legal_mask(state, self._seat[agent])
            )
            for agent in self.agents
        }
        rewards = dict.fromkeys(self.agents, 0.0)
        paid = False
        for agent, (action, _) in checked.items():
            payout = self.game.transition(state, self._seat[agent], action)  # checked above
            if payout is None:
                continue
            paid = True
            for other, reward in zip(self.possible_agents, payout.rewards, strict=True):
                if other in rewards:
                    rewards[other] += float(reward)
        if paid:
            self._settle()
        self._steps += 1
        done = self.game.is_terminal(state)
        cut = not done and self.max_cycles is not None and self._steps >= self.max_cycles
        observations = self._observations(ended=cut)
        infos = {agent: self._info(self._seat[agent], checked[agent][1]) for agent in observations}
        terminations = dict.fromkeys(self.agents, done)
        truncations = dict.fromkeys(self.agents, cut)
        if done or cut:
            self.agents = []
        if self.render_mode == "human":
            self.render()
        return observations, rewards, terminations, truncations, infos

    def _observations(self, ended: bool = False) -> dict[str, dict[str, np.ndarray]]:
        """Every live agent's observation and mask (all zeros once the game is cut short)."""
        state = self.game_state
        return {
            agent: {
                "observation": self.game.observe(state, self._seat[agent]),
                "action_mask": self._zero_mask.copy()
                if ended
                else self.game.legal_mask(state, self._seat[agent]),
            }
            for agent in self.agents
        }


class _OrderEnforcing(wrappers.OrderEnforcingWrapper):
    """PettingZoo's order checks, with pokerzoo's errors: stepping before ``reset`` or after the
    game is over raises :class:`~.errors.GameOverError` instead of warning."""

    # The attributes a turn reads (``agent_iter``'s ``agents`` and ``agent_selection``, the
    # training tables' ``rewards``, ``terminations``, ``truncations``, ``infos`` and
    # ``game_state``, a few hundred reads a step of 16 tables) are answered here rather than
    # through the wrapper's two levels of ``__getattr__``, about 2 us a read (same errors).
    @property
    def agents(self) -> list[str]:
        return self._after_reset("agents").agents

    @property
    def agent_selection(self) -> str:
        return self._after_reset("agent_selection").agent_selection

    @property
    def rewards(self) -> dict[str, float]:
        return self._after_reset("rewards").rewards

    @property
    def terminations(self) -> dict[str, bool]:
        return self._after_reset("terminations").terminations

    @property
    def truncations(self) -> dict[str, bool]:
        return self._after_reset("truncations").truncations

    @property
    def infos(self) -> dict[str, dict[str, Any]]:
        return self._after_reset("infos").infos

    @property
    def game_state(self) -> Any:
        return self.env.game_state

    def _after_reset(self, name: str) -> Any:
        """The wrapped env, once reset: PettingZoo's error for ``name`` before."""
        if not self._has_reset:
            raise AttributeError(f"{name} cannot be accessed before reset")
        return self.env

    def step(self, action: Any) -> None:
        if not self._has_reset:
            raise GameOverError("no game in progress: call reset() before step()")
        if not self.env.agents:
            raise GameOverError("the game is over: call reset()")
        self._has_updated = True  # what the wrapper's step does before the env's
        self.env.step(action)

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        # The env's own last(): the wrapper's would fetch each of its five attributes through
        # __getattr__, the costliest part of a random-play step.
        if not self._has_reset:
            raise GameOverError("no game in progress: call reset() before last()")
        return self.env.last(observe)


def order_enforcing(env: AECEnv) -> AECEnv:
    """``env`` in PettingZoo's order-enforcing wrapper (what every game's ``env()`` returns).

    PettingZoo's ``AssertOutOfBoundsWrapper`` is deliberately left out: the envs check every
    action themselves and raise :class:`~.errors.IllegalActionError`, which an ``assert`` would
    not do under ``python -O``.
    """
    return _OrderEnforcing(env)


def play_game(
    env: AECEnv, act: Callable[[str, dict[str, Any]], Any], seed: int | None = None
) -> None:
    """Play one game of an AEC env to its end: ``env.reset(seed=seed)``, then at each turn of a
    live agent ``act(agent, observation)`` chooses its action; a finished agent steps ``None``."""
    env.reset(seed=seed)
    for agent in env.agent_iter():
        observation, _, terminated, truncated, _ = env.last()
        env.step(None if terminated or truncated else act(agent, observation))
