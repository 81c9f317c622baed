"""Envs built from a spec that names its engine (``pokerzoo.envs.core.build``): a one-player
game's Gymnasium env, a simultaneous game's parallel env, and the plugin entry points that
fail (skipped with a warning, never breaking the registry)."""

from __future__ import annotations

import importlib.metadata
from dataclasses import dataclass, field
from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import parallel_api_test
from pokerzoo.agents.base import RandomBot
from pokerzoo.envs import GameSpec, register_game, unregister_game
from pokerzoo.envs.core import registry
from pokerzoo.envs.core.build import parallel_env_class, single_env_class
from pokerzoo.envs.core.errors import GameOverError, IllegalActionError
from pokerzoo.envs.core.game import Engine, Payout
from pokerzoo.envs.core.observation import Field, ObservationLayout
from pokerzoo.envs.core.one_player import EngineOnePlayerEnv

LAYOUT = ObservationLayout([Field("taken", 3, 1, "the slot is taken")], dtype=np.float32)
BOTS = {"random": RandomBot}
NOT_A_SPEC = "a string"


class SoloGame(Engine[list]):
    """One player takes two of three slots; slot ``i`` is worth ``i + 1`` points."""

    num_players = 1
    num_actions = 3
    simultaneous = False
    layout = LAYOUT
    action_noun = "slot"

    def __init__(self, bonus: int = 0) -> None:
        self.bonus = bonus

    def deal(self, rng: np.random.Generator) -> list[int]:
        return []

    def new_state(self, cards: Any = None, *, rng: np.random.Generator | None = None) -> list:
        return [0, 0, 0]

    def current_player(self, state: list) -> int:
        return -1 if self.is_terminal(state) else 0

    def legal_mask(self, state: list, player: int) -> np.ndarray:
        return np.array([0 if t or self.is_terminal(state) else 1 for t in state], dtype=np.int8)

    def transition(self, state: list, player: int, action: int) -> Payout | None:
        state[action] = 1
        if not self.is_terminal(state):
            return None
        return Payout((float(self.score(state)),))

    def score(self, state: list) -> int:
        return sum(i + 1 for i, t in enumerate(state) if t) + self.bonus

    def is_terminal(self, state: list) -> bool:
        return sum(state) == 2

    def observe(self, state: list, player: int) -> np.ndarray:
        return np.array(state, dtype=np.float32)

    def info(self, state: list, player: int) -> dict[str, Any]:
        return {"score": np.int64(self.score(state) if self.is_terminal(state) else 0)}

    def describe_action(self, action: int) -> str:
        return f"slot {action}"

    def render(self, state: list) -> str:
        return " ".join("x" if t else "." for t in state)


@dataclass
class Picks:
    picked: list[int] = field(default_factory=lambda: [-1, -1])


class MatchGame(Engine[Picks]):
    """Two players pick 0 or 1 at once; the same pick pays player_0 +1, else player_1."""

    num_players = 2
    num_actions = 2
    simultaneous = True
    layout = ObservationLayout([Field("picked", 1, 1, "I picked")], dtype=np.float32)

    def deal(self, rng: np.random.Generator) -> list[int]:
        return []

    def new_state(self, cards: Any = None, *, rng: np.random.Generator | None = None) -> Picks:
        return Picks()

    def current_player(self, state: Picks) -> int:
        return -1 if self.is_terminal(state) else state.picked.index(-1)

    def legal_mask(self, state: Picks, player: int) -> np.ndarray:
        return np.full(2, int(state.picked[player] < 0), dtype=np.int8)

    def transition(self, state: Picks, player: int, action: int) -> Payout | None:
        state.picked[player] = action
        if not self.is_terminal(state):
            return None
        first = 1.0 if state.picked[0] == state.picked[1] else -1.0
        return Payout((first, -first))

    def is_terminal(self, state: Picks) -> bool:
        return -1 not in state.picked

    def observe(self, state: Picks, player: int) -> np.ndarray:
        return np.array([state.picked[player] >= 0], dtype=np.float32)

    def render(self, state: Picks) -> str:
        return f"picked {state.picked}"


def _spec(name: str, engine: str, players: int, **fields: Any) -> GameSpec:
    return GameSpec(
        name=name,
        title=name.title(),
        summary="a test game",
        players=players,
        options={},
        option_sets={"default": {}},
        bots=f"{__name__}:BOTS",
        engine=f"{__name__}:{engine}",
        default_opponent="random",
        **fields,
    )


def test_a_one_player_engine_gets_a_gymnasium_env(capsys: pytest.CaptureFixture[str]) -> None:
    spec = _spec("build_solo", "SoloGame", 1)  # not registered: the spec builds its envs
    assert spec.parallel is None and spec.gym_ids[0].id == "pokerzoo/BuildSolo-v0"
    env = spec.make_single(bonus=10)
    assert isinstance(env, EngineOnePlayerEnv) and type(env) is single_env_class(spec)
    assert env.action_space.n == 3 and env.observation_space.shape == (3,)
    observation, info = env.reset(seed=0)
    assert observation.tolist() == [0, 0, 0] and info["action_mask"].tolist() == [1, 1, 1]
    with pytest.raises(IllegalActionError, match="slot"):
        env.step(3)
    _, reward, terminated, _, info = env.step(0)
    assert (reward, terminated, list(info)) == (0.0, False, ["action_mask"])
    with pytest.raises(IllegalActionError, match="slot 0"):
        env.step(0)
    _, reward, terminated, truncated, info = env.step(2)
    assert (reward, terminated, truncated) == (14.0, True, False)
    assert info["score"] == 14 and not info["action_mask"].any()
    with pytest.raises(GameOverError):
        env.step(1)
    human = spec.make_single(render_mode="human")
    human.reset(seed=1)
    assert capsys.readouterr().out == ". . .\n"
    check_env(spec.make_single(masked_action="random"), skip_render_check=True)
    spec.check_options({"bonus": 1})
    with pytest.raises(TypeError, match="'bogus'"):
        spec.check_options({"bogus": 1})


def test_a_simultaneous_engine_gets_a_parallel_env() -> None:
    spec = _spec("build_match", "MatchGame", 2)
    assert spec.parallel is not None
    parallel = spec.make_parallel()
    assert type(parallel) is parallel_env_class(spec)
    assert parallel.metadata["name"] == "build_match_v0" and parallel.metadata["is_parallelizable"]
    parallel_api_test(parallel, num_cycles=10)
    parallel.reset(seed=0)
    _, rewards, terms, _, _ = parallel.step({"player_0": 1, "player_1": 1})
    assert rewards == {"player_0": 1.0, "player_1": -1.0} and all(terms.values())
    single = spec.make_single(seat=1)  # the other seat: the game's random bot
    single.reset(seed=0)
    _, reward, terminated, _, _ = single.step(0)
    assert terminated and reward in (-1.0, 1.0)


def test_a_registered_spec_is_made_by_its_ids_and_unregistered() -> None:
    spec = register_game(_spec("build_solo_two", "SoloGame", 1, gym_id="pokerzoo/SoloTwo-v0"))
    try:
        env = gym.make("pokerzoo/SoloTwo-v0")
        assert type(env.unwrapped) is single_env_class(spec)
        with pytest.raises(ValueError, match="'pokerzoo/SoloTwo-v0' is registered already"):
            register_game(_spec("build_solo_three", "SoloGame", 1, gym_id="pokerzoo/SoloTwo-v0"))
    finally:
        unregister_game("build_solo_two")
    assert "pokerzoo/SoloTwo-v0" not in gym.registry


def test_a_failing_plugin_is_skipped_with_a_warning(monkeypatch: pytest.MonkeyPatch) -> None:
    group = registry.ENTRY_POINT_GROUP
    entries = [
        importlib.metadata.EntryPoint("broken", "no_such_module:SPEC", group),
        importlib.metadata.EntryPoint("not_a_spec", f"{__name__}:NOT_A_SPEC", group),
        importlib.metadata.EntryPoint("clash", "pokerzoo.envs.quintet.spec:CLASH", group),
    ]
    clash = _spec("quintet", "SoloGame", 1)  # the name of a shipped game
    monkeypatch.setattr("pokerzoo.envs.quintet.spec.CLASH", clash, raising=False)
    monkeypatch.setattr(
        importlib.metadata, "entry_points", lambda **select: importlib.metadata.EntryPoints(entries)
    )
    with pytest.warns(RuntimeWarning) as caught:
        assert registry.discover_plugins() == []
    messages = [str(w.message) for w in caught]
    assert len(messages) == 3
    assert "game plugin broken = 'no_such_module:SPEC' skipped: No module named" in messages[0]
    assert "expected a GameSpec, got str" in messages[1]
    assert "game 'quintet' is registered already" in messages[2]
    assert registry.get_game("quintet") is not clash


def test_an_engine_without_a_transition_is_refused_by_name() -> None:
    from pokerzoo.envs.core.pettingzoo_env import CardGameAECEnv, pettingzoo_metadata

    from tests.toy_game.game import TakeTwoGame

    class OldContractGame(TakeTwoGame):
        transition = None  # an engine of the old contract: apply only

    class OldEnv(CardGameAECEnv):
        metadata = pettingzoo_metadata("old_contract_v0", parallelizable=False)
        game_class = OldContractGame

    with pytest.raises(TypeError, match="OldContractGame has no transition"):
        OldEnv()
