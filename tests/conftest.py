"""Test-wide set-up: the toy game of ``tests/toy_game`` joins the game registry through the
public path a plugin uses (``pokerzoo.envs.register_game``), so every registry-wide test (the
conformance suite, the CLI) covers it like a shipped game.

The draw poker equity bot's shared simulations (:data:`pokerzoo.agents.draw_poker._SIMULATIONS`)
are off in every test but their own (``tests/draw_poker/test_shared_simulations.py``): a bot
seeded as its twin would read the twin's simulations back, and a test comparing a batched bot
with its twin asked alone would compare one computation with itself."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from pokerzoo.agents import draw_poker
from pokerzoo.envs import register_game

from tests.toy_game.spec import SPEC

register_game(SPEC)


@pytest.fixture(autouse=True)
def _no_shared_simulations(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    draw_poker._SIMULATIONS.clear()
    monkeypatch.setattr(draw_poker, "_SIMULATIONS_KEPT", 0)
    yield
    draw_poker._SIMULATIONS.clear()


@pytest.fixture(params=["compiled", "numpy"])
def loops_by(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """The compiled loops (:mod:`pokerzoo.envs.core.jit`: poker without a name's play-outs,
    deal counts and sampler, five-card stud's Monte-Carlo features, the bounded draws) on, and
    off for the numpy code they stand for: a test taking this fixture runs once with each (the
    compiled one skipped where numba is not installed)."""
    from pokerzoo.envs.core import jit

    if request.param == "compiled" and not jit.available():
        pytest.skip("numba is not installed")
    monkeypatch.setattr(jit, "AVAILABLE", request.param == "compiled")
    return str(request.param)
