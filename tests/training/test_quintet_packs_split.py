"""``benchmarks/quintet_packs_split.py``: the bookkeeping of its split, checked with the rule
``strongest`` in the agent's place (it always takes greedy's packs, and its order beats the
sacrifice order whenever the second strongest pack beats the weakest)."""

from __future__ import annotations

import numpy as np
from pokerzoo.envs.core.cards import format_cards, parse_cards
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


def test_reorderable_counts_the_deals_another_order_of_the_same_packs_wins() -> None:
    """Other packs than greedy's (the second candidate once), laid out in every order: a deal
    counts as missed exactly when its order loses or draws against greedy or sacrifice, and as
    reorderable exactly when some order of the same packs is not missed."""
    script = benchmark_script("quintet_packs_split")
    rng = np.random.default_rng(5)
    deals = [np.sort(rng.choice(32, 25, replace=False) + 20) for _ in range(3)]
    seen: set[bool] = set()
    for cards in deals:
        drafts = []
        for order in range(len(script.ORDERS)):
            draft = script.RowDraft(cards, 16)
            for action in (0, 1, 0, 0, order):
                draft.commit(action)
            drafts.append(draft)
        if sorted(drafts[0].keys) == sorted(greedy_packs(cards)[1].tolist()):
            continue  # the second candidate led back to greedy's packs
        results = [script.reorderable([draft], [cards]) for draft in drafts]
        missed = [m for m, _ in results]
        assert set(missed) <= {0, 1}
        some_order_wins = 0 in missed
        assert all(r == (m and some_order_wins) for m, r in results)
        seen.add(some_order_wins)
    assert seen == {True, False}  # these deals hold both kinds
    # Greedy's packs are never counted.
    spec = get_game("quintet")
    rule = rules_for(spec, "candidates", "packs")["strongest"].policy(
        feature_set(spec, "candidates", "packs")
    )
    assert script.reorderable(script.rows(rule, deals, 16), deals) == (0, 0)


# Two royal flushes and four nines are greedy's first three packs; the ten cards left are
# Ac Kh Jc Th 8c 8d 8h 8s 7d 7h.
KICKER_DEAL = "7s 7h 7d 8s 8h 8d 8c 9s 9h 9d 9c Ts Th Td Js Jd Jc Qs Qd Ks Kh Kd As Ad Ac"


def _laid(script: object, fourth: int) -> object:
    """Greedy's first three packs, candidate ``fourth`` at the fourth pick, then the rule
    ``strongest``'s order."""
    spec = get_game("quintet")
    features = feature_set(spec, "candidates", "packs")
    rule = rules_for(spec, "candidates", "packs")["strongest"].policy(features)
    draft = script.RowDraft(np.array(sorted(parse_cards(KICKER_DEAL))), 16)
    for action in (0, 0, 0, fourth):
        draft.commit(action)
    observation = script.encode_drafts([draft])
    draft.commit(int(rule(observation, draft.mask()[None].astype(bool))[0]))
    return draft


def test_dominated_fourth_picks_and_the_losses_to_sacrifice_they_lead_to() -> None:
    script = benchmark_script("quintet_packs_split")
    cards = np.array(sorted(parse_cards(KICKER_DEAL)))
    greedy, pair_of_sevens, full_house = (_laid(script, k) for k in (0, 5, 6))
    assert format_cards(pair_of_sevens.packs[3][::-1]) == "Ac Kh Jc 7d 7h"  # leaves four eights
    assert format_cards(full_house.packs[3][::-1]) == "Ac Kh Jc Th 8s"  # leaves 8-8-8-7-7
    # Four eights with the seven leave high card; with the ten they leave a pair of sevens.
    assert script.dominated_fourth_pick(greedy)
    assert not script.dominated_fourth_pick(pair_of_sevens)
    assert script.dominated_fourth_pick(full_house)
    assert script.sacrifice_losses([greedy, pair_of_sevens], [cards, cards]) == {
        "lost": 0,
        "greedy_top": 0,
        "dominated": 0,
        "dominated_all": 1,
    }
    # A full house of eights where sacrifice holds four: the 3-point position is lost too.
    assert script.sacrifice_losses([full_house], [cards]) == {
        "lost": 1,
        "greedy_top": 1,
        "dominated": 1,
        "dominated_all": 1,
    }
