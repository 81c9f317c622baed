"""The conformance suite: every registered game, under every option set its registry entry lists,
against the standard checkers and the package's own contract. A game's own folder then tests only
its rules.

Per game and option set: PettingZoo's ``api_test``, ``seed_test`` and ``render_test`` (AEC),
``parallel_api_test`` and ``parallel_seed_test`` where a parallel env exists; Gymnasium's
``check_env`` and Stable-Baselines3's on every Gymnasium id; random masked play to the end; a
masked action and out-of-space actions (the action space's size, -1, ``None``, a float) raise
``IllegalActionError`` naming the action and the legal ones and change nothing (also under ``python
-O``); stepping a finished game raises; a seed replays an episode, bots included;
``reset(options={"cards": ...})`` deals a fixed pack; an unknown reset option is ignored with a
warning naming it and a bad seed is an error naming it; every documented render mode renders.

The stock checkers run on the raw envs, exactly as a user calls them (PettingZoo's ``api_test``
probes ``reset`` with ``options={"options": 1}``: an unknown reset option is ignored with a
warning, Gymnasium's convention). The seed tests sample actions without masks, so they get envs
made with ``masked_action="random"`` (an in-space masked action is replaced by a random legal
one).
"""

from __future__ import annotations

import contextlib
import io
import subprocess
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import (
    api_test,
    parallel_api_test,
    parallel_seed_test,
    render_test,
    seed_test,
)
from pokerzoo.envs.core.errors import GameOverError, IllegalActionError
from pokerzoo.envs.core.registry import GameSpec, games


def _cases(kind: str) -> list[Any]:
    """``(game, options)`` parameters: every game's option sets (``kind="table"`` adds the
    sets only the PettingZoo envs take)."""
    cases = []
    for spec in games().values():
        sets = dict(spec.option_sets)
        if kind == "table":
            sets.update(spec.table_option_sets)
        for name, options in sets.items():
            cases.append(pytest.param(spec, dict(options), id=f"{spec.name}-{name}"))
    return cases


ALL = _cases("all")
TABLE = [c for c in _cases("table") if c.values[0].aec is not None]
PARALLEL = [c for c in TABLE if c.values[0].parallel is not None]
GYM = [
    pytest.param(spec, gym_id.id, options, id=f"{gym_id.id}-{param.id.split('-', 1)[1]}")
    for param in ALL
    for spec, options in [param.values]
    for gym_id in spec.gym_ids
]


@pytest.fixture(autouse=True)
def _quiet() -> Iterator[None]:
    # dict observations and other deliberate choices make the checkers warn
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


def _random_play(env: Any, rng: np.random.Generator, limit: int = 100_000) -> int:
    """Random masked AEC play to the end; returns the number of decisions."""
    decisions = 0
    for agent in env.agent_iter(limit):
        observation, reward, terminated, truncated, _ = env.last()
        assert np.isfinite(reward)
        if terminated or truncated:
            env.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        assert legal.size, f"{agent} is to act with no legal action"
        env.step(int(rng.choice(legal)))
        decisions += 1
    assert not env.agents, "the game did not end"
    return decisions


def _snapshot(env: Any) -> tuple:
    """Everything an agent can see of the game, to compare before and after a refused step."""
    views = tuple(
        (env.observe(a)["observation"].tobytes(), env.observe(a)["action_mask"].tobytes())
        for a in env.possible_agents
    )
    return (env.agent_selection, views, str(env.unwrapped.game.render(env.unwrapped.game_state)))


# --- PettingZoo -------------------------------------------------------------------------------
@pytest.mark.parametrize(("spec", "options"), TABLE)
def test_pettingzoo_api_and_seed(spec: GameSpec, options: dict) -> None:
    api_test(spec.make_aec(**options), num_cycles=100)
    seed_test(lambda: spec.make_aec(**options), num_cycles=100)
    with contextlib.redirect_stdout(io.StringIO()):  # "human" prints the table
        render_test(lambda render_mode=None: spec.make_aec(render_mode=render_mode, **options))


@pytest.mark.parametrize(("spec", "options"), PARALLEL)
def test_pettingzoo_parallel_api_and_seed(spec: GameSpec, options: dict) -> None:
    parallel_api_test(spec.make_parallel(**options), num_cycles=100)
    parallel_seed_test(lambda: spec.make_parallel(**options, masked_action="random"), 100)


@pytest.mark.parametrize(("spec", "options"), TABLE)
def test_random_masked_play_reaches_the_end(spec: GameSpec, options: dict) -> None:
    env = spec.make_aec(**options)
    rng = np.random.default_rng(0)
    for seed in range(3):
        env.reset(seed=seed)
        assert _random_play(env, rng) > 0


@pytest.mark.parametrize(("spec", "options"), ALL)
def test_illegal_and_out_of_space_actions_raise_and_change_nothing(
    spec: GameSpec, options: dict
) -> None:
    env = spec.make_aec(**options)
    env.reset(seed=1)
    mask = env.observe(env.agent_selection)["action_mask"]
    size = int(env.action_space(env.agent_selection).n)
    before = _snapshot(env)
    masked = np.flatnonzero(mask == 0)
    bad: list[object] = [size, -1, None, 1.5, 0.0]
    if masked.size:
        bad.insert(0, int(masked[0]))
    describe = env.unwrapped.game.describe_action
    for k, action in enumerate(bad):
        with pytest.raises(IllegalActionError) as error:
            env.step(action)
        message = str(error.value)
        named = describe(action) if k == 0 and masked.size else repr(action)
        assert named in message, message
        assert "legal are" in message, message
        assert _snapshot(env) == before
    legal = int(np.flatnonzero(mask)[0])
    env.step(legal)  # the refused steps left a game that plays on


@pytest.mark.parametrize(("spec", "options"), PARALLEL)
def test_parallel_step_errors(spec: GameSpec, options: dict) -> None:
    env = spec.make_parallel(**options)
    with pytest.raises(GameOverError, match="reset"):
        env.step({})
    observations, _ = env.reset(seed=2)
    actions = {a: int(np.flatnonzero(o["action_mask"])[0]) for a, o in observations.items()}
    with pytest.raises(IllegalActionError, match="unknown agents \\['nobody'\\]"):
        env.step({**actions, "nobody": 0})
    with pytest.raises(IllegalActionError, match="no action for"):
        env.step(dict(list(actions.items())[1:]))
    env.step(actions)


@pytest.mark.parametrize(("spec", "options"), ALL)
def test_stepping_a_finished_game_raises(spec: GameSpec, options: dict) -> None:
    env = spec.make_aec(**options)
    with pytest.raises(GameOverError, match="reset"):
        env.step(0)
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    while not any(env.terminations.values()):
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(int(rng.choice(np.flatnonzero(mask))))
    with pytest.raises(GameOverError):
        env.step(0)  # a finished agent may only step(None)
    _random_play(env, rng)
    with pytest.raises(GameOverError, match="reset"):
        env.step(0)


@pytest.mark.parametrize(("spec", "options"), TABLE)
def test_turn_attributes_are_refused_before_reset_and_are_the_envs_after(
    spec: GameSpec, options: dict
) -> None:
    """The order-enforcing wrapper answers the attributes a turn reads itself (not through
    PettingZoo's ``__getattr__``), with PettingZoo's error before the first reset and the
    wrapped env's own objects after it."""
    env = spec.make_aec(**options)
    turn = ("agents", "agent_selection", "rewards", "terminations", "truncations", "infos")
    for name in turn:
        with pytest.raises(AttributeError, match=f"{name} cannot be accessed before reset"):
            getattr(env, name)
        assert not hasattr(env, name)
    env.reset(seed=1)
    for name in (*turn, "game_state"):
        assert getattr(env, name) is getattr(env.unwrapped, name)


@pytest.mark.parametrize(("spec", "options"), ALL)
def test_seeds_and_reset_options_are_checked(spec: GameSpec, options: dict) -> None:
    env = spec.make_aec(**options)
    for seed in (-1, 1.5, "7"):
        with pytest.raises(ValueError, match=f"bad seed {seed!r}"):
            env.reset(seed=seed)
    with pytest.warns(
        UserWarning, match="options \\['shuffle'\\] ignored: accepted keys are 'cards'"
    ):
        env.reset(seed=0, options={"shuffle": True})
    assert env.agents  # Gymnasium's convention: ignored with a warning, and the game is dealt


@pytest.mark.parametrize(("spec", "options"), ALL)
def test_cards_option_deals_a_fixed_pack(spec: GameSpec, options: dict) -> None:
    env = spec.make_aec(**options)
    cards = env.unwrapped.game.deal(np.random.default_rng(5))
    views = []
    for seed in (11, 12):
        env.reset(seed=seed, options={"cards": cards})
        views.append([env.observe(a)["observation"].tobytes() for a in env.possible_agents])
    assert views[0] == views[1]
    env.reset(seed=11)
    assert [env.observe(a)["observation"].tobytes() for a in env.possible_agents] != views[0]


@pytest.mark.parametrize(("spec", "options"), TABLE)
def test_every_render_mode_renders(spec: GameSpec, options: dict) -> None:
    for mode in spec.make_aec(**options).metadata["render_modes"]:
        env = spec.make_aec(**options, render_mode=mode)
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            env.reset(seed=4)
            mask = env.observe(env.agent_selection)["action_mask"]
            env.step(int(np.flatnonzero(mask)[0]))
            text = env.render()
        if mode == "ansi":
            assert isinstance(text, str) and text.strip()
        else:
            assert text is None and printed.getvalue().strip()


# --- Gymnasium --------------------------------------------------------------------------------
@pytest.mark.parametrize(("spec", "gym_id", "options"), GYM)
def test_gymnasium_check_env(spec: GameSpec, gym_id: str, options: dict) -> None:
    check_env(gym.make(gym_id, **options, masked_action="random").unwrapped)


@pytest.mark.parametrize(("spec", "gym_id", "options"), GYM)
def test_stable_baselines3_check_env(spec: GameSpec, gym_id: str, options: dict) -> None:
    # SB3's checker is mask-unaware too: the option the README names lets it run
    sb3_checker = pytest.importorskip("stable_baselines3.common.env_checker")
    sb3_checker.check_env(gym.make(gym_id, **options, masked_action="random"), warn=True)


def _episode(env: gym.Env, seed: int | None) -> list:
    observation, info = env.reset(seed=seed)
    rng = np.random.default_rng(0)
    trace: list = [observation.tobytes()]
    while True:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        observation, reward, terminated, truncated, info = env.step(action)
        trace.append((observation.tobytes(), reward))
        if terminated or truncated:
            return trace


@pytest.mark.parametrize(("spec", "gym_id", "options"), GYM)
def test_gymnasium_seed_replays_the_episode_bots_included(
    spec: GameSpec, gym_id: str, options: dict
) -> None:
    first, second = gym.make(gym_id, **options), gym.make(gym_id, **options)
    assert _episode(first, 21) == _episode(second, 21)
    assert _episode(first, None) == _episode(second, None)  # later episodes follow the seed
    assert _episode(first, 21) != _episode(first, 22)


@pytest.mark.parametrize(("spec", "gym_id", "options"), GYM)
def test_gymnasium_errors(spec: GameSpec, gym_id: str, options: dict) -> None:
    env = gym.make(gym_id, **options).unwrapped
    with pytest.raises(GameOverError, match="reset"):
        env.step(0)
    with pytest.warns(UserWarning, match="unknown reset options"):
        env.reset(seed=0, options={"shuffle": True})
    _, info = env.reset(seed=0)
    size = env.action_space.n
    for action in (size, -1, None, 1.5):
        with pytest.raises(IllegalActionError, match="legal are"):
            env.step(action)
    _episode(env, 0)
    with pytest.raises(GameOverError):
        env.step(int(np.flatnonzero(info["action_mask"])[0]))


def test_illegal_actions_raise_the_same_error_under_python_O() -> None:
    # The envs check actions themselves: no assert that -O would strip.
    code = (
        "import sys\n"
        "sys.path.insert(0, '.')\n"
        "import tests.conftest\n"
        "from pokerzoo.envs.core.errors import IllegalActionError\n"
        "from pokerzoo.envs.core.registry import games\n"
        "for spec in games().values():\n"
        "    env = spec.make_aec()\n"
        "    env.reset(seed=0)\n"
        "    for action in (None, -1, env.action_space(env.agent_selection).n):\n"
        "        try:\n"
        "            env.step(action)\n"
        "        except IllegalActionError:\n"
        "            continue\n"
        "        raise SystemExit(f'{spec.name}: {action!r} was accepted')\n"
        "print('ok')\n"
    )
    root = Path(__file__).resolve().parents[2]
    result = subprocess.run(
        [sys.executable, "-O", "-c", code], capture_output=True, text=True, check=False, cwd=root
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"
