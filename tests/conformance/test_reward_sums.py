"""The learner's rewards add up to its whole result, in every episode of every Gymnasium id.

A hand that ends before the learner's first turn, or on an opponent's move, still reaches the
learner: its summed rewards equal its chip result (draw poker, stud: final stack minus starting
stack) or its final total (poker without a name: the total, minus the table mean under
``reward="relative"``). Checked over 10,000 episodes per multi-hand option set (the games'
registry sets, and the short-stacked tables where the openers' folds end hands before the
learner acts), each id's other sets over fewer.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from pokerzoo.envs.core.registry import games

MULTI_HAND_EPISODES = 10_000
CHUNKS = 4
OTHER_EPISODES = 300


def _start_stack(options: Mapping[str, Any], seat: int) -> int:
    stack = options.get("stack", 100)
    return stack[seat] if isinstance(stack, (list, tuple)) else stack


def _chips(info: Mapping[str, Any], options: Mapping[str, Any], seat: int) -> float:
    return info["stacks"][seat] - _start_stack(options, seat)


def _nameless_total(info: Mapping[str, Any], options: Mapping[str, Any], seat: int) -> float:
    totals = np.asarray(info["totals"], dtype=float)
    if options.get("reward", "score") == "relative":
        return float(totals[seat] - totals.mean())
    return float(totals[seat])


def _hands(options: Mapping[str, Any]) -> bool:
    return options.get("hands", 1) > 1


def _deals(options: Mapping[str, Any]) -> bool:
    deals = options.get("deals")
    return deals is None or len(deals) > 1


RESULTS: dict[str, tuple[Callable[..., float], Callable[[Mapping[str, Any]], bool]]] = {
    "pokerzoo/DrawPoker-v0": (_chips, _hands),
    "pokerzoo/FiveCardStud-v0": (_chips, _hands),
    "pokerzoo/NamelessPoker-v0": (_nameless_total, _deals),
}
"""Per Gymnasium id of a game of several hands: the learner's result from the last info, and
which option sets play several hands."""

EXTRA_SETS: dict[str, dict[str, dict[str, Any]]] = {
    "pokerzoo/DrawPoker-v0": {
        "3 hands, a short stack": {"num_players": 3, "hands": 3, "stack": [100, 100, 1]},
    },
    "pokerzoo/FiveCardStud-v0": {
        "3 hands": {"num_players": 3, "hands": 3},
        "3 hands, a short stack": {"num_players": 3, "hands": 3, "stack": [100, 100, 1]},
    },
}
"""Tables where hands often end before the learner's first turn (the issue's measured cases)."""


def _cases() -> list[Any]:
    cases = []
    for spec in games().values():
        for gym_id in spec.gym_ids:
            if gym_id.id not in RESULTS:
                continue
            sets = {**spec.option_sets, **EXTRA_SETS.get(gym_id.id, {})}
            for name, options in sets.items():
                if not RESULTS[gym_id.id][1](options):
                    episodes = range(OTHER_EPISODES)
                    cases.append(
                        pytest.param(gym_id.id, dict(options), episodes, id=f"{gym_id.id}-{name}")
                    )
                    continue
                # 10,000 episodes in chunks, so that pytest -n spreads them over the cores
                size = MULTI_HAND_EPISODES // CHUNKS
                for start in range(0, MULTI_HAND_EPISODES, size):
                    cases.append(
                        pytest.param(
                            gym_id.id,
                            dict(options),
                            range(start, start + size),
                            id=f"{gym_id.id}-{name}-episodes-{start}..{start + size - 1}",
                            marks=[pytest.mark.slow],
                        )
                    )
    return cases


def test_every_game_of_several_hands_is_covered() -> None:
    several = {
        gym_id.id
        for spec in games().values()
        for gym_id in spec.gym_ids
        if spec.players > 1
        and any(o.get("hands") or o.get("deals") for o in spec.option_sets.values())
    }
    assert several <= set(RESULTS), several - set(RESULTS)


@pytest.mark.parametrize(("gym_id", "options", "episodes"), _cases())
def test_rewards_sum_to_the_learners_result(
    gym_id: str, options: dict[str, Any], episodes: range
) -> None:
    result = RESULTS[gym_id][0]
    env = gym.make(gym_id, opponent="random", **options).unwrapped
    rng = np.random.default_rng(episodes.start)
    wrong = 0
    for episode in episodes:
        _, info = env.reset(seed=episode)
        total = 0.0
        while True:
            legal = np.flatnonzero(info["action_mask"])
            _, reward, terminated, truncated, info = env.step(int(legal[rng.integers(legal.size)]))
            total += reward
            if terminated or truncated:
                break
        seat = int(info["seat"])
        assert env.seats[seat] == env.learner
        wrong += not np.isclose(total, result(info, options, seat))
    assert wrong == 0, f"{wrong} of {len(episodes)} episodes' rewards miss the learner's result"
