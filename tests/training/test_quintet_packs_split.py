"""``benchmarks/quintet_packs_split.py``: the bookkeeping of its split, checked with the rule
``strongest`` in the agent's place (it always takes greedy's packs, and its order beats the
sacrifice order whenever the second strongest pack beats the weakest)."""

from __future__ import annotations

import numpy as np
from pokerzoo.envs.core.registry import get_game
from pokerzoo.envs.quintet.analysis import greedy_packs
from pokerzoo.training.hooks import feature_set, rules_for

from tests.helpers import benchmark_script


def test_the_rule_takes_greedys_packs_and_never_loses_to_sacrifice() -> None:
    script = benchmark_script("quintet_packs_split")
    spec = get_game("quintet")
    features = feature_set(spec, "candidates", "packs")
    rule = rules_for(spec, "candidates", "packs")["strongest"].policy(features)
    rng = np.random.default_rng(3)
    deals = [np.sort(rng.choice(32, 25, replace=False) + 20) for _ in range(40)]
    rows = script.rows(rule, deals, 16)
    counts = script.split(rows, rows, deals, "sacrifice", 1, len(deals))
    assert set(counts) == {(True, "agent"), (True, "rule")}  # greedy's packs on every deal
    loss, draw, win = counts[(True, "rule")]
    assert loss == 0 and win + draw == len(deals)
    # Draws only where the second strongest of greedy's packs ties the weakest.
    ties = sum(
        sorted(greedy_packs(cards)[1].tolist(), reverse=True)[1]
        == min(greedy_packs(cards)[1].tolist())
        for cards in deals
    )
    assert draw == ties
    mixed = script.split(rows, rows, deals, "mixed", 3, 10)
    assert mixed[(True, "agent")].sum() == 30  # three drawn orders on each of ten deals
    assert np.array_equal(mixed[(True, "agent")], mixed[(True, "rule")])


def test_outcome_weighs_positions_by_their_points() -> None:
    script = benchmark_script("quintet_packs_split")
    # The 7-point position alone against the 3- and 4-point ones: 7 = 3 + 4, a draw.
    assert script.outcome(np.array([0, 0, 5, 5, 9]), np.array([1, 1, 5, 5, 1])) == 0
    assert script.outcome(np.array([1, 1, 5, 9, 1]), np.array([1, 1, 9, 1, 1])) == 1  # 6 > 5
    assert script.outcome(np.array([2, 0, 0, 0, 0]), np.array([0, 2, 0, 0, 0])) == -1
    assert script.outcome(np.array([1, 2, 3, 4, 5]), np.array([1, 2, 3, 4, 5])) == 0
