"""A table's move as a generator of bot decisions, so that many tables' bots can be batched.

A single-seat table (:class:`~.single_seat.SingleSeatEnv`) plays its bots inside ``reset`` and
``step``. Its ``reset_turns`` and ``step_turns`` do the same as generators: each yields every
bot decision it needs as a :data:`BotRequest` and is sent the action back; its return value is
``reset``'s or ``step``'s result. :func:`play_turns` answers one table's requests bot by bot
(``reset`` and ``step`` themselves); :func:`play_batched` runs many tables side by side and
answers the requests that wait at the same time in one :func:`~.bots.act_batch` call (the vector
env of :mod:`.seat_vector`). Each bot draws from its own generator, so a table plays the same
game either way.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from typing import Any, TypeVar

import numpy as np

from .bots import Bot, act_batch

__all__ = ["BotRequest", "Turns", "play_batched", "play_turns", "reset_turns", "step_turns"]

BotRequest = tuple[Bot, np.ndarray, np.ndarray]
"""What a table waits for: a bot, its observation and its action mask (answered with an action)."""
T = TypeVar("T")
Turns = Generator[BotRequest, int, T]
"""A table's move in progress: it yields each bot decision it needs and returns its result."""


def play_turns(turns: Turns[T]) -> T:
    """Run ``turns`` to its end, each bot answering its own request (:meth:`Bot.act`)."""
    try:
        bot, observation, mask = next(turns)
        while True:
            bot, observation, mask = turns.send(bot.act(observation, mask))
    except StopIteration as done:
        return done.value


def play_batched(tables: Sequence[Turns[T]]) -> list[T]:
    """Run every table's ``turns`` to its end, the bots that wait at the same time answering in
    one :func:`~.bots.act_batch` call; each table's result, in order."""
    results: list[Any] = [None] * len(tables)
    waiting: dict[int, BotRequest] = {}

    def advance(i: int, action: int | None) -> None:
        turns = tables[i]
        try:
            waiting[i] = next(turns) if action is None else turns.send(action)
        except StopIteration as done:
            waiting.pop(i, None)
            results[i] = done.value

    for i in range(len(tables)):
        advance(i, None)
    while waiting:
        rows = list(waiting)
        requests = [waiting[i] for i in rows]
        actions = act_batch(
            [bot for bot, _, _ in requests],
            np.stack([observation for _, observation, _ in requests]),
            np.stack([mask for _, _, mask in requests]),
        )
        for i, action in zip(rows, actions.tolist(), strict=True):
            advance(i, action)
    return results


def _finished(value: T) -> Turns[T]:
    """Turns that need no bot: ``value`` at once."""
    return value
    yield  # unreachable: it makes this function a generator


def reset_turns(
    table: Any, seed: int | None = None, options: dict[str, Any] | None = None
) -> Turns[Any]:
    """``table.reset_turns(...)``, or for an env without it (a wrapper such as an action
    formulation's) its plain ``reset``, its bots played inside it."""
    turns = getattr(table, "reset_turns", None)
    if turns is not None:
        return turns(seed=seed, options=options)
    return _finished(table.reset(seed=seed, options=options))


def step_turns(table: Any, action: int) -> Turns[Any]:
    """``table.step_turns(action)``, or for an env without it its plain ``step``."""
    turns = getattr(table, "step_turns", None)
    if turns is not None:
        return turns(action)
    return _finished(table.step(action))
