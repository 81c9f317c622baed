"""Many tables' bot turns answered together (``envs/core/turns.py``): every table gets the
result it gets alone, and a bot shared by tables answers each table's request in turn."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest
from pokerzoo.envs.core.turns import Turns, play_batched, play_turns


class _Batched:
    """A bot with ``act_batch``: answers ``observation[0] + its offset``; records each call's
    rows on its class."""

    calls: list[list[str]] = []

    def __init__(self, name: str, offset: int = 0) -> None:
        self.name = name
        self.offset = offset

    def reset(self, seed: int | None = None) -> None:
        pass

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        type(self).calls.append([self.name])
        return int(observation[0]) + self.offset

    @classmethod
    def act_batch(
        cls, bots: Sequence[_Batched], observations: np.ndarray, action_masks: np.ndarray
    ) -> np.ndarray:
        cls.calls.append([bot.name for bot in bots])
        return np.array(
            [int(o[0]) + bot.offset for bot, o in zip(bots, observations, strict=True)],
            dtype=np.int64,
        )


class _Equity(_Batched):
    calls: list[list[str]] = []


class _Policy(_Batched):
    calls: list[list[str]] = []


class _Rules:
    """A bot asked row by row (no ``act_batch``)."""

    name = "rules"
    asked = 0

    def reset(self, seed: int | None = None) -> None:
        pass

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        type(self).asked += 1
        return 100 + int(observation[0])


def _table(bots: Sequence[object], start: int) -> Turns[list[int]]:
    """A table that asks its bots in turn, each seeing the last action (+1), and returns every
    action it was sent."""
    seen: list[int] = []
    value = start
    for bot in bots:
        value = yield bot, np.array([value + 1]), np.ones(2, dtype=np.int8)  # type: ignore[misc]
        seen.append(value)
    return seen


@pytest.fixture(autouse=True)
def _fresh_calls() -> None:
    _Equity.calls, _Policy.calls, _Rules.asked = [], [], 0


def _sequences() -> list[list[object]]:
    equity = [_Equity(f"e{i}", offset=i) for i in range(4)]
    policy = [_Policy(f"p{i}", offset=10 * i) for i in range(4)]
    return [
        [policy[0], equity[0]],
        [equity[1], _Rules(), policy[1]],
        [_Rules(), equity[2], policy[2]],
        [equity[3], policy[3], _Rules()],
        [],
    ]


def test_every_table_gets_what_it_gets_alone() -> None:
    """Each answer goes back to the table that asked (each bot answers with its own offset),
    and every bot is asked exactly once per request, the rules bots row by row."""
    alone = [play_turns(_table(bots, start)) for start, bots in enumerate(_sequences())]
    _Equity.calls, _Policy.calls, _Rules.asked = [], [], 0
    together = play_batched([_table(bots, start) for start, bots in enumerate(_sequences())])
    assert together == alone
    assert together[-1] == []
    assert sorted(name for call in _Equity.calls for name in call) == ["e0", "e1", "e2", "e3"]
    assert sorted(name for call in _Policy.calls for name in call) == ["p0", "p1", "p2", "p3"]
    assert _Rules.asked == 3


def test_one_request_a_table_at_a_time() -> None:
    """A bot shared by several tables (a snapshot) gets a row for each table waiting on it, and
    each table's next request only once its last is answered."""
    shared = _Equity("shared")
    results = play_batched([_table([shared, shared], start) for start in range(3)])
    assert results == [[start + 1, start + 2] for start in range(3)]
    assert _Equity.calls == [["shared"] * 3, ["shared"] * 3]
