"""Tune a game's hand-written rules over its features on a small grid, on deals of their own.

    python benchmarks/feature_rules.py GAME [--episodes 500] [--rules NAME ...] [--seed 2000000]
                                            [--opponents BOT ...]

Every combination of a rule's grid (``TrainingHooks.rules``, :mod:`pokerzoo.training.rules`)
plays the same duplicate deals against every bot (seeds from 2,000,000 by default: apart from
the evaluation deals, 1,000,000 onwards, and from training). The table gives each combination's
result per game against each bot and their mean, the best first; the game's hooks then carry the
best as the rule's ``params``, and ``pokerzoo evaluate`` reports the rule beside the agent.
"""

from __future__ import annotations

import argparse
import time

from pokerzoo.envs.core.observation import markdown_table
from pokerzoo.envs.core.registry import get_game
from pokerzoo.training.hooks import feature_set, hooks_for
from pokerzoo.training.rules import TUNING_SEED, rule_score, tune_rule


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", help="a game whose training hooks name rules")
    parser.add_argument("--episodes", type=int, default=500, help="duplicate deals per bot")
    parser.add_argument("--rules", nargs="+", help="rules to tune (default: all)")
    parser.add_argument("--opponents", nargs="+", metavar="BOT", help="bots (default: all)")
    parser.add_argument("--seed", type=int, default=TUNING_SEED, help="first deal's seed")
    args = parser.parse_args()
    spec = get_game(args.game)
    rules = hooks_for(spec).rules
    names = args.rules or list(rules)
    unknown = [name for name in names if name not in rules]
    if unknown or not names:
        parser.error(f"unknown rules {unknown}: {spec.name} has {list(rules)}")
    for name in names:
        rule = rules[name]
        started = time.perf_counter()
        results = tune_rule(
            spec,
            rule,
            feature_set(spec, rule.features),
            {},
            args.episodes,
            args.opponents,
            args.seed,
        )
        bots = list(results[0][1].opponents)
        rows = []
        for params, evaluation in results:
            cells = [evaluation.opponents[bot].agent_mean.format() for bot in bots]
            thresholds = ", ".join(f"{k}={v:g}" for k, v in params.items())
            rows.append([thresholds, *cells, f"{rule_score(evaluation):+.3f}"])
        unit = f"{spec.scoring.unit}s per game"
        print(
            f"\nrule {name!r} of {spec.name} over features {rule.features!r}: {len(results)} "
            f"combinations x {args.episodes} duplicate deals (seeds {args.seed}..), "
            f"{time.perf_counter() - started:.0f} s; {unit} vs each bot, best mean first\n"
        )
        print(markdown_table(["thresholds", *[f"vs {bot}" for bot in bots], "mean"], rows))


if __name__ == "__main__":
    main()
