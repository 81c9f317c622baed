"""PettingZoo's own checkers on every game's raw PettingZoo envs, made as a user makes them,
through PettingZoo's registry (``pettingzoo.make("aec", "pokerzoo/DrawPoker-v0")``): ``api_test``,
``seed_test``, ``render_test`` and the state checks of ``state_test`` on the AEC env;
``parallel_api_test``, ``parallel_seed_test`` and ``state_test`` where a parallel env exists.
The checkers that sample actions without masks (the seed and state tests) get envs made with
``masked_action="random"``. The conformance suite runs the same checkers over every option set;
this runs them on each game's defaults through the registry, plus the state checks."""

from __future__ import annotations

import contextlib
import importlib
import io
import warnings
from collections.abc import Iterator

import pytest

pytest.importorskip("pettingzoo.env_registry", reason="needs PettingZoo 1.27 (its registry)")

import pettingzoo  # noqa: E402
from pettingzoo.test import (  # noqa: E402
    api_test,
    parallel_api_test,
    parallel_seed_test,
    render_test,
    seed_test,
    state_test,
)
from pokerzoo.envs.core.registry import GameSpec  # noqa: E402

from tests.ecosystem.cases import AEC, PARALLEL, pz_id  # noqa: E402

pytestmark = pytest.mark.ecosystem

# the module, whose name the package's ``state_test`` function shadows: its AEC checks run on
# their own where a game has no parallel env
state_checks = importlib.import_module("pettingzoo.test.state_test")

CYCLES = 100


@pytest.fixture(autouse=True)
def _quiet() -> Iterator[None]:
    # the checkers warn about deliberate choices (dict observations); "human" renders print
    with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
        warnings.simplefilter("ignore")
        yield


@pytest.mark.parametrize("spec", AEC)
def test_api_test(spec: GameSpec) -> None:
    api_test(pettingzoo.make("aec", pz_id(spec)), num_cycles=CYCLES)


@pytest.mark.parametrize("spec", AEC)
def test_seed_test(spec: GameSpec) -> None:
    seed_test(lambda: pettingzoo.make("aec", pz_id(spec), masked_action="random"), CYCLES)


@pytest.mark.parametrize("spec", AEC)
def test_render_test(spec: GameSpec) -> None:
    render_test(
        lambda render_mode=None: pettingzoo.make("aec", pz_id(spec), render_mode=render_mode)
    )


@pytest.mark.parametrize("spec", AEC)
def test_state_checks(spec: GameSpec) -> None:
    # state_test's AEC half (the whole of it needs a parallel env too)
    state_checks.test_state_space(pettingzoo.make("aec", pz_id(spec)))
    state_checks.test_state(pettingzoo.make("aec", pz_id(spec), masked_action="random"), CYCLES)


@pytest.mark.parametrize("spec", PARALLEL)
def test_parallel_api_test(spec: GameSpec) -> None:
    parallel_api_test(pettingzoo.make("parallel", pz_id(spec)), num_cycles=CYCLES)


@pytest.mark.parametrize("spec", PARALLEL)
def test_parallel_seed_test(spec: GameSpec) -> None:
    parallel_seed_test(
        lambda: pettingzoo.make("parallel", pz_id(spec), masked_action="random"), CYCLES
    )


@pytest.mark.parametrize("spec", PARALLEL)
def test_state_test(spec: GameSpec) -> None:
    state_test(
        pettingzoo.make("aec", pz_id(spec), masked_action="random"),
        pettingzoo.make("parallel", pz_id(spec)),
        CYCLES,
    )
