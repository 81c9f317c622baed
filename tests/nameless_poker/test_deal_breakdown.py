"""benchmarks/nameless_deals.py: its per-kind breakdown plays the evaluation's duplicate deals,
so the kinds add up to the evaluation's margin."""

from __future__ import annotations

import numpy as np
from pokerzoo.envs.core.registry import get_game
from pokerzoo.training.evaluate import play_duplicate

from tests.helpers import benchmark_script


def test_the_kinds_add_up_to_the_evaluations_margin() -> None:
    script = benchmark_script("nameless_deals")
    rows = script.play(("rules", "random", 1_000_000, 2))
    assert len(rows) == 2 * 4 * 30  # deals x the player's seats x a game's deals
    game = get_game("nameless_poker")
    bot = game.make_bot("rules", seed=0)

    def policy(observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        return np.array([bot.act(o, m) for o, m in zip(observations, masks, strict=True)])

    options = dict(game.scoring.eval_options)
    deals = play_duplicate(game, policy, options, 2, "random", 1_000_000, batch=1)
    expected = (deals.own - deals.theirs).mean(axis=1)  # per duplicate deal
    per_seed = {}
    for row in rows:
        me, scores = row["seat"], row["deal_scores"]
        others = np.mean([s for k, s in enumerate(scores) if k != me])
        per_seed[row["seed"]] = per_seed.get(row["seed"], 0.0) + (scores[me] - others) / 4
    assert np.allclose([per_seed[1_000_000], per_seed[1_000_001]], expected)
    lines = script.summary(rows)
    kinds = [line.split(" | ")[0].strip("| ") for line in lines[2:]]
    assert kinds == ["regular", "dark", "minimum", "maximum", "all"]
    total = lines[-1].split(" | ")[1].split(" ± ")[0]
    assert float(total) == round(expected.mean(), 1)
