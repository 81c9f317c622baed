"""Every feature set of every registered game, on real observations: for each game of the
registry (its training hooks' feature sets, and those of each of its action formulations over
the formulation's own observations), on a few dozen observations from random masked play, the
output is as wide as the set declares (:attr:`FeatureSet.output_width`), two calls give the same
figures (the sampled features are seeded by the observation), and a batch gives the rows that
one call per observation gives."""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pytest
from pokerzoo.envs.core.registry import GameSpec, games
from pokerzoo.training.features import FeatureSet
from pokerzoo.training.hooks import hooks_for

from tests.helpers import aec_decisions

OBSERVATIONS = 24
"""Observations a set is checked on, spread over the first decisions of random play."""
DECISIONS = 96
"""Decisions of random play the observations are drawn from (seeds 0.. until there are as
many)."""


def _spread(seen: list[np.ndarray]) -> np.ndarray:
    picks = np.linspace(0, len(seen) - 1, num=min(OBSERVATIONS, len(seen))).round().astype(int)
    return np.stack([seen[i] for i in picks])


def _game_observations(spec: GameSpec) -> np.ndarray:
    """Observations of the seat to act, from the game's AEC env under random masked play."""
    rng = np.random.default_rng(0)
    env = spec.make_aec()
    seen: list[np.ndarray] = []
    for agent, observation in aec_decisions(env, itertools.count()):  # seeds 0.. until enough
        if len(seen) >= DECISIONS:
            break
        seen.append(np.array(observation["observation"], dtype=np.float32))
        mask = np.asarray(observation["action_mask"]).astype(bool)
        env.step(int(rng.choice(np.flatnonzero(mask))))
        assert agent in env.possible_agents
    env.close()
    return _spread(seen)


def _formulation_observations(spec: GameSpec, formulation: Any) -> np.ndarray:
    """Observations of the formulation's env (the game's single-seat env, wrapped) under random
    masked play of the formulation's decisions."""
    rng = np.random.default_rng(0)
    env = formulation.wrap(spec.make_single())
    seen: list[np.ndarray] = []
    seed = 0
    while len(seen) < DECISIONS:
        observation, info = env.reset(seed=seed)
        done = False
        while not done and len(seen) < DECISIONS:
            seen.append(np.array(observation, dtype=np.float32))
            mask = np.asarray(info["action_mask"]).astype(bool)
            observation, _, terminated, truncated, info = env.step(
                int(rng.choice(np.flatnonzero(mask)))
            )
            done = terminated or truncated
        seed += 1
    env.close()
    return _spread(seen)


def _cases() -> list[Any]:
    cases = []
    for name, spec in games().items():
        hooks = hooks_for(spec)
        for features in hooks.features:
            cases.append(pytest.param(name, None, features, id=f"{name}-{features}"))
        for actions, formulation in hooks.formulations.items():
            for features in formulation.features:
                ident = f"{name}-{actions}-{features}"
                cases.append(pytest.param(name, actions, features, id=ident))
    return cases


CASES = _cases()


def test_every_game_with_hooks_declares_a_feature_set() -> None:
    # The shipped games each train on features of their own: the cases are not vacuous.
    names = {case.values[0] for case in CASES}
    assert {"draw_poker", "five_card_stud", "nameless_poker", "poker_squares", "quintet"} <= names


@pytest.mark.parametrize(("game", "actions", "features"), CASES)
def test_feature_set_width_determinism_and_batching(
    game: str, actions: str | None, features: str
) -> None:
    spec = games()[game]
    hooks = hooks_for(spec)
    if actions is None:
        feature_set: FeatureSet = hooks.features[features]
        observations = _game_observations(spec)
    else:
        formulation = hooks.formulations[actions]
        feature_set = formulation.features[features]
        observations = _formulation_observations(spec, formulation)
    assert len(observations) == OBSERVATIONS

    width = feature_set.output_width
    assert width is not None, f"{game} {features!r} declares no width"
    batch = feature_set(observations)
    assert batch.shape == (len(observations), width)
    assert batch.dtype == np.float32 and np.isfinite(batch).all()

    again = feature_set(observations.copy())
    assert np.array_equal(again, batch), "two calls on the same observations differ"

    for k, observation in enumerate(observations):
        row = feature_set(observation)
        assert row.shape == (width,)
        assert np.array_equal(row, batch[k]), f"observation {k}: its own call differs from its row"
