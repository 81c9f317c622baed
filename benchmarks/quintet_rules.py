"""Hand-written rules on the Quintet ``"packs"`` formulation, evaluated as a trained agent is.

    python benchmarks/quintet_rules.py [--episodes 5000] [--seed 1000000] [--rules best,...]
        [--positions 3,1,0,4,2 ...] [--opponents BOT ...]

The learned default agent (``configs/quintet.yaml``, ``actions: packs``) takes four candidate
packs, then chooses one of the 120 orders of its five packs, from features that describe the
state (:mod:`pokerzoo.training.games.quintet.packs`). A rule making the same decisions is the
yardstick of what learning added: each rule below takes the strongest candidate every time,
which lays out exactly the greedy bot's five packs, and puts the ``t``-th strongest of them at a
fixed position. ``pokerzoo evaluate`` plays ``best`` (the formulation's rule ``"strongest"``)
beside the agent by itself; this script compares the orders.

- ``greedy``: strongest on the 7-point position, ..., weakest on 3 (the greedy bot's row).
- ``sacrifice``: weakest on 7, the others one position up (the sacrifice bot's row).
- ``best``: strongest on the 6-point position, second on 7, third on 4, fourth on 3, weakest
  on 5: of the 120 orders of greedy's packs, the one with the highest mean win rate against the
  greedy, sacrifice, mixed and best_response bots, chosen on 400 other deals (seeds of their
  own, scored with :func:`pokerzoo.envs.quintet.search.pool_model`'s model of the bots:
  98.7%, 100%, 50.9% and 95.4% there). A model of the bots, which the agent never sees, chose
  the order: the rule is the best a person could write over the same decisions, a yardstick.
- ``safe``: strongest on 7, weakest on 6, the others on 5, 4 and 3: the order with the highest
  smaller win rate against greedy and sacrifice (when the five packs differ in strength it beats
  greedy 12 to 6 and sacrifice 7 to 6), weaker against best_response.

``--positions`` adds rules of any order (the position, 0..4, of the strongest pack, then of the
second, ...), e.g. the order a trained agent settled on, to tell what its own choice of packs
adds. Each rule is played card by card through the formulation's adapter
(:class:`~pokerzoo.training.games.quintet.packs.PlannedRows`) and evaluated by
:func:`pokerzoo.training.evaluate.evaluate_agent` on the same duplicate deals as ``pokerzoo
evaluate RUN --episodes N`` (seeds ``seed .. seed + N - 1``, both seats), so its rows sit next
to the agent's report.
"""

from __future__ import annotations

import argparse

from pokerzoo.envs.core.registry import get_game
from pokerzoo.training.evaluate import evaluate_agent
from pokerzoo.training.games.quintet.packs import PackFormulation, ordered_strongest
from pokerzoo.training.report import format_table

RULES = {
    "greedy": (4, 3, 2, 1, 0),
    "sacrifice": (3, 2, 1, 0, 4),
    "best": (3, 4, 1, 0, 2),
    "safe": (4, 2, 1, 0, 3),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=5000, help="duplicate deals per bot")
    parser.add_argument("--seed", type=int, default=1_000_000, help="first deal's seed")
    parser.add_argument("--rules", default="best", help=f"comma-separated, from {list(RULES)}")
    parser.add_argument(
        "--positions", nargs="+", default=[], metavar="P,P,P,P,P", help="more orders to play"
    )
    parser.add_argument("--opponents", nargs="+", metavar="BOT", help="bots (default: all)")
    args = parser.parse_args()
    names = [name.strip() for name in args.rules.split(",") if name.strip()]
    unknown = [name for name in names if name not in RULES]
    if unknown or args.episodes < 1:
        parser.error(f"bad --rules {unknown} or --episodes {args.episodes}")
    rules = {name: RULES[name] for name in names}
    for text in args.positions:
        rules[text] = tuple(int(p) for p in text.split(","))
    spec = get_game("quintet")
    formulation = PackFormulation()
    for name, positions in rules.items():
        try:
            rule = ordered_strongest(positions)
        except ValueError as error:
            parser.error(str(error))
        policy = formulation.native_policy(rule)
        evaluation = evaluate_agent(spec, policy, {}, args.episodes, args.opponents, seed=args.seed)
        print(f"\nrule {name!r}, positions {positions} ({evaluation.seconds:.0f} s)\n")
        print(format_table(evaluation))


if __name__ == "__main__":
    main()
