"""The equity bot's shared simulations (:data:`pokerzoo.agents.draw_poker._SIMULATIONS`): a bot
whose generator state and view are those of a simulation already run reads it back instead of
running it again, and decides, draws and leaves its generator exactly as running it would have;
a bot of another seed, another state or other settings runs its own. (Every other test runs
with the sharing off: ``tests/conftest.py``.)"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest
from pokerzoo.agents import draw_poker
from pokerzoo.agents.draw_poker import EquityBot
from pokerzoo.envs.core.registry import get_game
from pokerzoo.envs.draw_poker import decode_observation
from pokerzoo.training.evaluate import Contender, evaluate_contenders

from tests.draw_poker.test_batches import OPTION_SETS, decisions, make_bots

KEPT = draw_poker._SIMULATIONS_KEPT
"""The shipped size (read before the test-wide fixture sets it to 0)."""


@pytest.fixture
def simulations(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Turns the sharing on (emptied) and counts the simulations the bots run."""
    monkeypatch.setattr(draw_poker, "_SIMULATIONS_KEPT", KEPT)
    draw_poker._SIMULATIONS.clear()
    count = [0]
    simulate = draw_poker._simulate

    def counted(jobs: list) -> list[np.ndarray]:
        count[0] += len(jobs)
        return simulate(jobs)

    monkeypatch.setattr(draw_poker, "_simulate", counted)
    return count


def play(bots: Sequence[EquityBot], observations: np.ndarray, masks: np.ndarray) -> tuple:
    """Each bot decides its own sequence of the decisions, in batches: the actions and where
    each bot's generator ends."""
    actions, n = [], len(observations)
    for step in range(n):
        rows = [(step + 7 * i) % n for i in range(len(bots))]
        actions.append(EquityBot.act_batch(list(bots), observations[rows], masks[rows]).tolist())
    return actions, [bot._rng.bit_generator.state for bot in bots]


@pytest.mark.parametrize("option_set", ["heads-up", "6 players, two decks, jokers, deuces wild"])
def test_twins_read_the_simulations_back_and_end_where_running_them_would(
    option_set: str, simulations: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    observations, masks = decisions(option_set)
    options = OPTION_SETS[option_set]
    monkeypatch.setattr(draw_poker, "_SIMULATIONS_KEPT", 0)
    want = play(make_bots(options), observations, masks)
    monkeypatch.setattr(draw_poker, "_SIMULATIONS_KEPT", KEPT)
    draw_poker._SIMULATIONS.clear()
    before = simulations[0]
    first = play(make_bots(options), observations, masks)
    ran = simulations[0] - before
    twins = play(make_bots(options), observations, masks)
    assert first == want
    assert twins == want
    assert ran > 0
    assert simulations[0] - before == ran  # the twins ran none
    assert len(draw_poker._SIMULATIONS) == ran


def test_another_seed_state_or_setting_runs_its_own(simulations: list[int]) -> None:
    observations, masks = decisions("heads-up")
    observation, mask = observations[0], masks[0]

    def runs(bot: EquityBot) -> int:
        before = simulations[0]
        bot.act(observation, mask)
        return simulations[0] - before

    assert runs(EquityBot(seed=1, samples=40)) == 1
    assert runs(EquityBot(seed=1, samples=40)) == 0
    assert runs(EquityBot(seed=2, samples=40)) == 1
    assert runs(EquityBot(seed=1, samples=41)) == 1
    assert runs(EquityBot(seed=1, samples=40, trust=0.9)) == 1
    assert runs(EquityBot(seed=1, samples=40, jokers=1)) == 1
    assert runs(EquityBot(seed=1, samples=40, deuces_wild=True)) == 1
    moved = EquityBot(seed=1, samples=40)
    moved._rng.random()
    assert runs(moved) == 1
    equity = EquityBot(seed=1, samples=40)._draw_equity(decode_observation(observation))
    assert not equity.flags.writeable  # shared between bots


def test_an_evaluation_shares_them_across_contenders_with_the_same_tables(
    simulations: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two contenders that often play alike (the caller and the rules bot in the agent's seat)
    against the equity bot: the tables of each are those without the sharing, for fewer
    simulations."""
    spec = get_game("draw_poker")
    contenders = {
        name: Contender(player=lambda seed, name=name: spec.make_bot(name, seed=seed))
        for name in ("caller", "rules")
    }

    def tables() -> dict:
        result = evaluate_contenders(spec, contenders, {}, 8, ["equity"], 41)
        return {k: vars(e.opponents["equity"]) | {"seconds": 0} for k, e in result.items()}

    monkeypatch.setattr(draw_poker, "_SIMULATIONS_KEPT", 0)
    alone = simulations[0]
    want = tables()
    alone = simulations[0] - alone
    monkeypatch.setattr(draw_poker, "_SIMULATIONS_KEPT", KEPT)
    shared = simulations[0]
    assert tables() == want
    shared = simulations[0] - shared
    assert 0 < shared < alone
