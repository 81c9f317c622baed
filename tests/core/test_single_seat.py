"""The single-seat Gymnasium view of an AEC env, on a toy game with exact payoffs.

The toy is misère Nim: a pile of tokens, each player in turn takes 1 or 2, and whoever takes
the last token loses (-1; the other +1). With ``bonus`` the player *not* moving earns ``bonus``
on every move, so rewards also arrive on the other player's moves mid-game.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.test import api_test
from pettingzoo.utils import AgentSelector
from pokerzoo.envs.core.errors import GameOverError, IllegalActionError
from pokerzoo.envs.core.single_seat import SingleSeatEnv, named_opponents

MAX_PILE = 8


class MisereNim(AECEnv):
    metadata = {"name": "misere_nim_v0", "render_modes": [], "is_parallelizable": False}

    def __init__(self, pile: int = 5, bonus: float = 0.0) -> None:
        super().__init__()
        self.start_pile = pile
        self.bonus = bonus
        self.possible_agents = ["player_0", "player_1"]
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(0, 1, (MAX_PILE + 1,), np.int8),
                    "action_mask": spaces.Box(0, 1, (2,), np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(2) for a in self.possible_agents}

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        self.pile = self.start_pile
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self._selector = AgentSelector(self.agents)
        self.agent_selection = self._selector.reset()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        observation = np.zeros(MAX_PILE + 1, dtype=np.int8)
        observation[self.pile] = 1
        mask = np.array([self.pile >= 1, self.pile >= 2], dtype=np.int8)
        if agent != self.agent_selection or self.terminations[agent]:
            mask[:] = 0
        return {"observation": observation, "action_mask": mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if not self.observe(agent)["action_mask"][action]:
            raise IllegalActionError(f"illegal take {action + 1} from {self.pile}")
        self._cumulative_rewards[agent] = 0.0
        other = [a for a in self.agents if a != agent][0]
        self.pile -= action + 1
        self.rewards = {agent: 0.0, other: self.bonus}
        if self.pile == 0:
            self.rewards[agent] -= 1.0
            self.rewards[other] += 1.0
            self.terminations = dict.fromkeys(self.agents, True)
        self.agent_selection = self._selector.next()
        self._accumulate_rewards()


class Scripted:
    """A bot that plays a fixed list of actions."""

    def __init__(self, actions: list[int], name: str = "scripted") -> None:
        self.actions = list(actions)
        self.name = name
        self._next = 0

    def reset(self, seed: int | None = None) -> None:
        self._next = 0

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        action = self.actions[self._next]
        self._next += 1
        return action


def view(pile: int, seat: int, opponent_actions: list[int], bonus: float = 0.0) -> SingleSeatEnv:
    bot = Scripted(opponent_actions)
    return SingleSeatEnv(MisereNim(pile=pile, bonus=bonus), lambda position, rng: bot, seat=seat)


def test_toy_env_follows_the_pettingzoo_api() -> None:
    api_test(MisereNim(pile=5), num_cycles=20)


@pytest.mark.parametrize(
    ("pile", "seat", "learner", "opponent", "rewards"),
    [
        # The opponent takes the last token: the learner's +1 arrives on the opponent's move.
        (2, 0, [0], [0], [1.0]),
        (5, 0, [1, 0], [0, 0], [0.0, 1.0]),
        # The learner takes the last token itself: -1 on its own move.
        (1, 0, [0], [], [-1.0]),
        (3, 0, [0, 0], [0], [0.0, -1.0]),
        # Seat 1: the opponent moves first (inside reset), then ends the game after the learner.
        (3, 1, [0], [0, 0], [1.0]),
        (4, 1, [1], [0, 0], [1.0]),
        (2, 1, [0], [0], [-1.0]),
    ],
)
def test_terminal_reward_reaches_the_learner(
    pile: int, seat: int, learner: list[int], opponent: list[int], rewards: list[float]
) -> None:
    env = view(pile, seat, opponent)
    _, info = env.reset(seed=0)
    env.info_schema.check(info)  # the toy's AEC info is empty: the mask and the seat
    assert env.info_schema.names == ("action_mask", "seat")
    assert info["seat"] == seat and isinstance(info["seat"], np.integer)
    assert env.learner == f"player_{seat}" and list(env.opponents) == [f"player_{1 - seat}"]
    assert env.opponents[f"player_{1 - seat}"].name == "scripted"
    got = []
    for k, action in enumerate(learner):
        _, reward, terminated, truncated, _ = env.step(action)
        got.append(reward)
        assert terminated == (k == len(learner) - 1)
        assert not truncated
    assert got == rewards
    with pytest.raises(GameOverError):
        env.step(0)


def test_rewards_on_opponent_moves_are_summed_into_the_learners_step() -> None:
    # pile 5, bonus 0.5: learner takes 1 (opponent +0.5), opponent takes 1 (learner +0.5),
    # learner takes 2 (opponent +0.5), opponent takes the last (learner +0.5 +1).
    env = view(5, 0, [0, 0], bonus=0.5)
    env.reset(seed=0)
    assert env.step(0)[1] == 0.5
    assert env.step(1)[1] == 1.5


def test_acting_unobserved_then_observing_is_stepping() -> None:
    """``act_turns`` plays the learner's action and the bots' replies as ``step`` does and
    returns its reward and flags; ``observe`` then gives ``step``'s observation and info, and
    the mask is the last observed one until then."""
    from pokerzoo.envs.core.turns import play_turns

    stepped, acted = view(5, 0, [0, 0], bonus=0.5), view(5, 0, [0, 0], bonus=0.5)
    stepped.reset(seed=0)
    acted.reset(seed=0)
    for action in (0, 1):
        observation, reward, terminated, truncated, info = stepped.step(action)
        assert play_turns(acted.act_turns(action)) == (reward, terminated, truncated)
        got, got_info = acted.observe()
        assert np.array_equal(got, observation) and got_info.keys() == info.keys()
        assert all(np.array_equal(got_info[k], info[k]) for k in info)
        assert np.array_equal(acted.action_masks(), stepped.action_masks())
    with pytest.raises(GameOverError):
        play_turns(acted.act_turns(0))
    fresh = view(5, 0, [0, 0])
    fresh.reset(seed=0)
    before = fresh.action_masks()
    play_turns(fresh.act_turns(1))  # pile 5 -> 3 -> 2: unobserved, the mask is reset's
    assert np.array_equal(fresh.action_masks(), before)


def test_mask_and_observation_are_the_learners() -> None:
    env = view(2, 0, [0])
    observation, info = env.reset(seed=0)
    assert observation.tolist() == [0, 0, 1, 0, 0, 0, 0, 0, 0]
    assert env.action_masks().tolist() == [True, True]
    assert info["action_mask"].tolist() == [1, 1]
    assert env.observation_space.shape == (MAX_PILE + 1,)
    assert env.action_space.n == 2


def test_illegal_action_raises_and_changes_nothing() -> None:
    env = view(1, 0, [])
    observation, _ = env.reset(seed=0)
    with pytest.raises(IllegalActionError):
        env.step(1)
    assert env.aec.pile == 1
    assert env.step(0)[1] == -1.0


def test_random_seat_and_seeded_replay() -> None:
    def seats(seed: int) -> list[int]:
        bot = Scripted([0, 0, 0])
        env = SingleSeatEnv(MisereNim(pile=3), lambda position, rng: bot)
        out = []
        for k in range(31):
            seat = env.reset(seed=seed if k == 0 else None)[1]["seat"]
            assert env.learner == f"player_{seat}" and env.learner not in env.opponents
            out.append(int(seat))
        return out

    assert seats(3) == seats(3)
    assert set(seats(3)) == {0, 1}


def test_named_opponents_build_one_bot_per_seat() -> None:
    bots = {"scripted": lambda **options: Scripted([0] * 8, name="scripted")}
    pick = named_opponents(bots, "scripted", num_players=3)
    rng = np.random.default_rng(0)
    first, second = pick(1, rng), pick(2, rng)
    assert first is not second and first is pick(1, rng)
    one = Scripted([0])
    assert named_opponents(bots, one, num_players=2)(1, rng) is one
    with pytest.raises(ValueError, match="one Bot instance cannot play 2 seats"):
        named_opponents(bots, one, num_players=3)
    with pytest.raises(ValueError, match="bad opponent 'grumpy'"):
        named_opponents(bots, "grumpy", num_players=2)
    with pytest.raises(ValueError, match="one bot per opponent seat"):
        named_opponents(bots, ["scripted"], num_players=3)
