"""Where a Quintet ``actions: packs`` agent wins and loses: its deals split by whether it took
greedy's five packs, against each planning bot, beside the rule ``strongest`` on the same deals.

    python benchmarks/quintet_packs_split.py RUN [--deals 3000] [--seed 7] [--mixed-draws 8]
                                             [--best-response-deals 600]

The rule ``strongest`` always takes greedy's packs (:mod:`pokerzoo.training.games.quintet.packs`),
so on the deals where the agent takes other packs the two differ in packs and order, elsewhere in
order only. Each deal's 25 cards are drawn from ``--seed``'s generator; the agent and the rule lay
out their rows through the formulation (:class:`~pokerzoo.training.games.quintet.packs.RowDraft`),
and each row meets the bot's row for the same cards (the bots plan the whole row from the cards,
:meth:`pokerzoo.agents.quintet.GreedyBot.plan`): greedy and sacrifice once, mixed
``--mixed-draws`` times (its orders are drawn), best_response once on the first
``--best-response-deals`` deals (it searches). A row wins when its points (3..7 per position won)
exceed the bot's.

After the table, the deals on which the agent took other packs and did not beat greedy or
sacrifice, and how many of them some order of its own five packs would have won against both:
what its packs lost there, and what only its order did. Then the deals it lost or drew against
sacrifice: how many of them it held greedy's three strongest packs (their strengths) and other
fourth and fifth ones, and how many followed a dominated fourth pick: a candidate whose two packs,
it and the five cards it leaves, another candidate betters pack for pack (so it never scores more
against any row); and on how many of all the deals its fourth pick was dominated so, and
greedy's (the rule's).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence

import numpy as np
from pokerzoo.agents.quintet import BestResponseBot, GreedyBot, MixedBot, SacrificeBot
from pokerzoo.envs.core.registry import get_game
from pokerzoo.envs.quintet.analysis import ORDERS, greedy_packs
from pokerzoo.envs.quintet.packs import candidate_packs, strongest_pack
from pokerzoo.training.evaluate import Policy, model_policy
from pokerzoo.training.games.quintet.packs import RowDraft, encode_drafts
from pokerzoo.training.hooks import feature_set, rules_for
from pokerzoo.training.opponents import load_model
from pokerzoo.training.runs import find_run

POINTS = np.arange(3, 8)
BOTS: dict[str, type] = {
    "greedy": GreedyBot,
    "sacrifice": SacrificeBot,
    "mixed": MixedBot,
    "best_response": BestResponseBot,
}


def rows(policy: Policy, deals: Sequence[np.ndarray], candidates: int) -> list[RowDraft]:
    """Each deal's row laid out by the pack-level ``policy``, all deals decided in batches."""
    drafts = [RowDraft(cards, candidates) for cards in deals]
    while live := [d for d in drafts if not d.complete]:
        masks = np.stack([d.mask() for d in live]).astype(bool)
        for draft, action in zip(live, policy(encode_drafts(live), masks), strict=True):
            draft.commit(int(action))
    return drafts


def strengths(row: np.ndarray) -> np.ndarray:
    """The ``"quintet"`` key of each position's pack."""
    return np.array([strongest_pack(np.asarray(pack))[1] for pack in row])


def outcome(mine: np.ndarray, theirs: np.ndarray) -> int:
    """1 win, 0 draw, -1 loss."""
    return int(np.sign((POINTS * np.sign(mine - theirs)).sum()))


def split(
    agent: list[RowDraft],
    rule: list[RowDraft],
    deals: Sequence[np.ndarray],
    bot: str,
    draws: int,
    limit: int,
) -> dict[tuple[bool, str], np.ndarray]:
    """Per (agent took greedy's packs, player): counts of losses, draws and wins against
    ``bot``."""
    counts: dict[tuple[bool, str], np.ndarray] = {}
    for i, cards in enumerate(deals[:limit]):
        _, keys = greedy_packs(cards)
        same = sorted(agent[i].keys) == sorted(np.asarray(keys).tolist())
        mine = {"agent": strengths(agent[i].row), "rule": strengths(rule[i].row)}
        for draw in range(draws):
            theirs = strengths(BOTS[bot](seed=1000 * i + draw).plan(cards))
            for player, keys_at in mine.items():
                tally = counts.setdefault((same, player), np.zeros(3, dtype=np.int64))
                tally[outcome(keys_at, theirs) + 1] += 1
    return counts


def reorderable(agent: list[RowDraft], deals: Sequence[np.ndarray]) -> tuple[int, int]:
    """Deals on which the agent took other packs than greedy's and lost or drew against greedy
    or sacrifice, and how many of them some order of its own packs wins against both."""
    missed = reordered = 0
    for draft, cards in zip(agent, deals, strict=True):
        _, keys = greedy_packs(cards)
        if sorted(draft.keys) == sorted(np.asarray(keys).tolist()):
            continue
        theirs = [strengths(bot(seed=0).plan(cards)) for bot in (GreedyBot, SacrificeBot)]
        mine = strengths(draft.row)
        if all(outcome(mine, row) == 1 for row in theirs):
            continue
        missed += 1
        own = np.sort(mine)[::-1]
        reordered += any(
            all(outcome(own[list(order)], row) == 1 for row in theirs) for order in ORDERS
        )
    return missed, reordered


def dominated_fourth_pick(draft: RowDraft) -> bool:
    """Whether the fourth pack the agent took is bettered, pack for pack, by another candidate of
    that pick: strongest against strongest of the two packs it fixes (the candidate and the five
    cards it leaves), at least as strong both times and stronger once."""
    rest = np.setdiff1d(draft.cards, np.concatenate(draft.packs[:3]))
    found = candidate_packs(rest, draft.limit)
    pairs = np.sort(np.stack([found.keys, found.rest_keys], axis=1), axis=1)
    taken = sorted(int(key) for key in (draft.keys[3], draft.keys[4]))
    better = (pairs >= taken).all(axis=1) & (pairs > taken).any(axis=1)
    return bool(better.any())


def sacrifice_losses(agent: list[RowDraft], deals: Sequence[np.ndarray]) -> dict[str, int]:
    """Of the deals the agent lost or drew against sacrifice: ``"lost"`` all of them,
    ``"greedy_top"`` those where its three strongest packs are as strong as greedy's and its
    other two are not, ``"dominated"`` those after a dominated fourth pick
    (:func:`dominated_fourth_pick`); and ``"dominated_all"``, the deals of every result with a
    dominated fourth pick."""
    counts = {"lost": 0, "greedy_top": 0, "dominated": 0, "dominated_all": 0}
    for draft, cards in zip(agent, deals, strict=True):
        dominated = dominated_fourth_pick(draft)
        counts["dominated_all"] += dominated
        theirs = strengths(SacrificeBot(seed=0).plan(cards))
        if outcome(strengths(draft.row), theirs) == 1:
            continue
        counts["lost"] += 1
        counts["dominated"] += dominated
        mine = sorted(draft.keys, reverse=True)
        greedy = sorted(np.asarray(greedy_packs(cards)[1]).tolist(), reverse=True)
        counts["greedy_top"] += mine[:3] == greedy[:3] and mine != greedy
    return counts


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("run", help="a Quintet run folder trained with actions: packs")
    parser.add_argument("--deals", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--mixed-draws", type=int, default=8)
    parser.add_argument("--best-response-deals", type=int, default=600)
    args = parser.parse_args(argv)
    target = find_run(args.run, None)
    if target.game != "quintet" or target.actions != "packs":
        raise SystemExit(f"{args.run}: expected a Quintet run with actions: packs")
    spec = get_game("quintet")
    features = feature_set(spec, target.features, "packs")
    rule: Callable[..., Policy] = rules_for(spec, target.features, "packs")["strongest"].policy
    rng = np.random.default_rng(args.seed)
    deals = [np.sort(rng.choice(32, 25, replace=False) + 20) for _ in range(args.deals)]
    candidates = 16
    agent_rows = rows(model_policy(load_model(target.model_path), features), deals, candidates)
    rule_rows = rows(rule(features), deals, candidates)
    plans = {
        "greedy": (1, args.deals),
        "sacrifice": (1, args.deals),
        "mixed": (args.mixed_draws, args.deals),
        "best_response": (1, args.best_response_deals),
    }
    print(f"{args.run}: {args.deals} deals (seed {args.seed})")
    print("| bot | agent's packs | games | agent win / draw / loss | rule win / draw / loss |")
    print("|---|---|---:|---|---|")
    for bot, (draws, limit) in plans.items():
        counts = split(agent_rows, rule_rows, deals, bot, draws, limit)
        for same in (True, False):
            if (same, "agent") not in counts:
                continue
            cells = []
            for player in ("agent", "rule"):
                loss, draw, win = 100 * counts[(same, player)] / counts[(same, player)].sum()
                cells.append(f"{win:.1f}% / {draw:.1f}% / {loss:.1f}%")
            games = int(counts[(same, "agent")].sum())
            packs = "greedy's" if same else "others"
            print(f"| {bot} | {packs} | {games:,} | {cells[0]} | {cells[1]} |")
    missed, reordered = reorderable(agent_rows, deals)
    print(
        f"\nOn its other packs the agent lost or drew against greedy or sacrifice on {missed} "
        f"deals; on {reordered} of them an order of its own packs beats both."
    )
    lost = sacrifice_losses(agent_rows, deals)
    greedy_dominated = sum(dominated_fourth_pick(draft) for draft in rule_rows)
    print(
        f"Against sacrifice it lost or drew {lost['lost']} deals: on {lost['greedy_top']} it held "
        "greedy's three strongest packs and other last two, and "
        f"{lost['dominated']} followed a dominated fourth pick (one on {lost['dominated_all']} "
        f"of the {len(deals)} deals; greedy's own fourth pick, the rule's, on {greedy_dominated})."
    )


if __name__ == "__main__":
    main()
