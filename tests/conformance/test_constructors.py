"""Constructors follow Python's and PettingZoo's conventions on every registered game.

- An unknown keyword raises ``TypeError`` naming it and the accepted ones, through every entry
  point a user has: the PettingZoo factories, ``gymnasium.make`` (and ``make_vec`` where a
  native vector env exists) and ``pettingzoo.make``. A bad value of a known keyword is a
  ``ValueError``.
- ``import pokerzoo.envs`` registers every game in PettingZoo's registry: ``pettingzoo.make``
  builds the same env as the game's factory.
- ``max_cycles`` (what PettingZoo's registry passes): every agent makes at most ``max_cycles``
  decisions, then the game is truncated for everyone; PettingZoo's own ``max_cycles_test``
  passes on the games with a parallel env.
"""

from __future__ import annotations

import types
import warnings
from typing import Any

import gymnasium as gym
import numpy as np
import pettingzoo
import pytest
from pettingzoo.test.max_cycles_test import max_cycles_test
from pokerzoo.envs.core.errors import UnknownOptionError
from pokerzoo.envs.core.registry import GameSpec, games, pettingzoo_id

TABLE = [pytest.param(s, id=s.name) for s in games().values() if s.aec is not None]
PARALLEL = [p for p in TABLE if p.values[0].parallel is not None]
GYM = [
    pytest.param(spec, gym_id, id=gym_id.id) for spec in games().values() for gym_id in spec.gym_ids
]


def _unknown(make: Any) -> str:
    with pytest.raises(TypeError) as error:
        make(frameskip=4)
    message = str(error.value)
    assert "unknown option 'frameskip'" in message and "render_mode" in message, message
    return message


@pytest.mark.parametrize("spec", TABLE)
def test_pettingzoo_factories_raise_type_error_for_an_unknown_keyword(spec: GameSpec) -> None:
    message = _unknown(spec.make_aec)
    for option in spec.options:
        assert option in message, (option, message)
    if spec.parallel:
        _unknown(spec.make_parallel)
    with pytest.raises(ValueError, match="bad masked_action 'bogus'") as error:
        spec.make_aec(masked_action="bogus")
    assert not isinstance(error.value, TypeError)


@pytest.mark.parametrize("spec", TABLE)
def test_pettingzoo_make_builds_every_game(spec: GameSpec) -> None:
    pz_id = pettingzoo_id(spec)
    assert pz_id is not None
    for options in spec.option_sets.values():
        made, own = pettingzoo.make("aec", pz_id, **options), spec.make_aec(**options)
        made.reset(seed=3)
        own.reset(seed=3)
        assert made.possible_agents == own.possible_agents
        for agent in own.possible_agents:
            assert np.array_equal(
                made.observe(agent)["observation"], own.observe(agent)["observation"]
            )
    _unknown(lambda **kw: pettingzoo.make("aec", pz_id, **kw))
    if spec.parallel:
        assert pettingzoo.make("parallel", pz_id).possible_agents == own.possible_agents
        _unknown(lambda **kw: pettingzoo.make("parallel", pz_id, **kw))


@pytest.mark.parametrize(("spec", "gym_id"), GYM)
def test_gymnasium_make_raises_type_error_for_an_unknown_keyword(spec: GameSpec, gym_id) -> None:
    message = _unknown(lambda **kw: gym.make(gym_id.id, **kw))
    assert "masked_action" in message
    if gym_id.vector_entry_point:
        _unknown(
            lambda **kw: gym.make_vec(gym_id.id, 2, vectorization_mode="vector_entry_point", **kw)
        )
    with pytest.raises(ValueError, match="bad masked_action 'bogus'"):
        gym.make(gym_id.id, masked_action="bogus")


def test_unknown_option_error_is_a_type_error_that_gymnasium_can_rebuild() -> None:
    error = UnknownOptionError.naming("frameskip", ["num_players"], "draw_poker_v0")
    assert isinstance(error, TypeError) and error.option == "frameskip"
    assert str(type(error)(str(error))) == str(error)  # gymnasium.make re-raises type(e)(msg)


@pytest.mark.parametrize("spec", TABLE)
def test_max_cycles_truncates_every_agent(spec: GameSpec) -> None:
    env = pettingzoo.make("aec", pettingzoo_id(spec), max_cycles=2)
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    decisions = dict.fromkeys(env.possible_agents, 0)
    for agent in env.agent_iter():
        observation, _, terminated, truncated, info = env.last()
        if terminated or truncated:
            assert not observation["action_mask"].any() and "action_mask" not in info
            env.step(None)
            continue
        decisions[agent] += 1
        env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    assert max(decisions.values()) <= 2
    with pytest.raises(ValueError, match="bad max_cycles 0"):
        spec.make_aec(max_cycles=0)


@pytest.mark.parametrize("spec", PARALLEL)
def test_pettingzoo_max_cycles_test(spec: GameSpec) -> None:
    # the stock test samples actions without masks: masked ones are replaced at random
    module = types.SimpleNamespace(
        env=lambda **kw: spec.make_aec(masked_action="random", **kw),
        parallel_env=lambda **kw: spec.make_parallel(masked_action="random", **kw),
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        max_cycles_test(module)
