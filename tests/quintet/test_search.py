"""The search for a Quintet row against the modelled bots, on fixed deals."""

from __future__ import annotations

import doctest
import itertools

import numpy as np
import pytest
from pokerzoo.agents import quintet as bots
from pokerzoo.envs.core.cards import parse_cards
from pokerzoo.envs.hands import evaluate
from pokerzoo.envs.quintet import analysis, search
from pokerzoo.envs.quintet.search import (
    _margins,
    _Objective,
    expected_results,
    pool_model,
    reply,
)

# Greedy's packs all differ in strength here (see test_quintet_bots.py).
DISTINCT = "Ac Ad Ah As Kc Kd Kh Qc Qd Qh Jd Jh Js Tc Td Ts 9c 9d 9h 9s 8d 8s 7c 7d 7s"
# Greedy's first four packs are equal straight flushes.
TIED = "Jc Tc 9c 8c 7c Jd Td 9d 8d 7d Jh Th 9h 8h 7h Js Ts 9s 8s 7s Ac Ad Ah As Kc"
MIXED_DEAL = "Ac Kc Qc Jc Tc 9s 9h 9d 9c As Ah Ad Ks Kh Kd Qs Qh Js Jh 8s 8h 7s 7h 7d Td"
DEALS = [DISTINCT, TIED, MIXED_DEAL]


def _cards(deal: str) -> np.ndarray:
    return np.array(sorted(parse_cards(deal)), dtype=np.int64)


def _keys(row: np.ndarray) -> np.ndarray:
    return evaluate(np.asarray(row), "quintet")


def _margin(mine: np.ndarray, theirs: np.ndarray) -> int:
    """Points of row keys ``mine`` minus ``theirs``, straight from RULES §1."""
    points = 0
    for j in range(5):
        if mine[j] != theirs[j]:
            points += (3 + j) * (1 if mine[j] > theirs[j] else -1)
    return points


@pytest.mark.parametrize("deal", DEALS)
def test_pool_model_holds_what_the_bots_lay_out(deal: str) -> None:
    cards = _cards(deal)
    model = pool_model(cards, best_response_seeds=3)
    assert list(model.bots) == ["greedy", "sacrifice", "mixed", "best_response"]
    assert np.array_equal(model.bots["greedy"].rows[0], _keys(bots.GreedyBot().plan(cards)))
    assert np.array_equal(model.bots["sacrifice"].rows[0], _keys(bots.SacrificeBot().plan(cards)))
    for seed in range(3):
        plan = bots.BestResponseBot(seed=seed).plan(cards)
        assert np.array_equal(model.bots["best_response"].rows[seed], _keys(plan))
        assert any(np.array_equal(plan, p) for p in model.plans)
    # Mixed: orders of greedy's packs with the equilibrium's probabilities.
    _, keys = analysis.greedy_packs(cards)
    mix = analysis.order_equilibrium("points", analysis.strength_levels(keys))
    mixed = model.bots["mixed"]
    assert mixed.weights.sum() == pytest.approx(1.0)
    assert mix[mix >= 0.002].sum() > 0.99  # the model leaves out under 1% of the mix
    for row in mixed.rows:
        assert sorted(row.tolist()) == sorted(keys.tolist())
    assert {tuple(r) for r in mixed.rows} >= {
        tuple(keys[list(o)]) for o in analysis.ORDERS[mix >= 0.01]
    }
    for seed in range(20):  # the mixed bot lays out rows of these packs
        assert sorted(_keys(bots.MixedBot(seed=seed).plan(cards)).tolist()) == sorted(keys.tolist())


@pytest.mark.parametrize(
    ("cards", "named"),
    [
        (DISTINCT.replace("7s", "6s"), "card 6s in cards in play is not in the pack"),
        (DISTINCT.replace("7s", "7d"), "duplicate card 7d"),
        (DISTINCT[:-3], "cards in play: expected 25 cards, got 24"),
        (DISTINCT.replace("7s", "7x"), "7x"),
    ],
)
def test_pool_model_names_bad_cards(cards: str, named: str) -> None:
    with pytest.raises(ValueError, match=named):
        pool_model(cards)


def test_pool_model_takes_notation_or_ids_in_any_order() -> None:
    by_ids = pool_model(_cards(DISTINCT)[::-1])
    by_notation = pool_model(DISTINCT)
    assert np.array_equal(by_ids.greedy_packs, by_notation.greedy_packs)
    for name, bot in by_ids.bots.items():
        assert np.array_equal(bot.rows, by_notation.bots[name].rows)


def test_pool_model_rejects_bad_options() -> None:
    with pytest.raises(ValueError, match="'score'.*'points', 'win'"):
        pool_model(_cards(DISTINCT), objective="score")
    with pytest.raises(ValueError, match="best_response_seeds 0"):
        pool_model(_cards(DISTINCT), best_response_seeds=0)


def test_margins_match_the_rules_for_every_pair() -> None:
    rng = np.random.default_rng(0)
    rows = rng.integers(0, 4, size=(40, 5)).astype(np.int16)  # small keys: many equal packs
    opponents = rng.integers(0, 4, size=(30, 5)).astype(np.int16)
    margins = _margins(rows, opponents)
    for c, m in itertools.product(range(40), range(30)):
        assert margins[c, m] == _margin(rows[c], opponents[m])


def test_objective_ranks_keys_without_changing_any_comparison() -> None:
    model = pool_model(_cards(MIXED_DEAL))
    value = _Objective(model.bots, dict.fromkeys(model.bots, 1.0), "points")
    rng = np.random.default_rng(1)
    # Candidate keys equal to, between, above and below the opponents' keys.
    levels = np.unique(np.vstack([bot.rows for bot in model.bots.values()]))
    pool = np.concatenate([levels, levels + 1, [levels.min() - 1, levels.max() + 1]])
    rows = rng.choice(pool, size=(200, 5))
    expected = np.zeros(200)
    for bot in model.bots.values():
        for row, weight in zip(bot.rows, bot.weights, strict=True):
            margin = [_margin(r, row) for r in rows]
            expected += np.array(margin) * weight / len(model.bots)
    assert value(rows) == pytest.approx(expected)
    # Every order's expected margin, the cheap linear way, equals the direct one.
    ranked = value.rank(rows[:20])
    direct = np.array([value(r[analysis.ORDERS]) for r in rows[:20]])
    assert value.expected_margins(ranked) == pytest.approx(direct)


def test_expected_results_against_each_bot() -> None:
    cards = _cards(DISTINCT)
    model = pool_model(cards)
    sacrifice = bots.SacrificeBot().plan(cards)
    results = expected_results(sacrifice, model)
    # Sacrifice beats greedy 18 - 7 and ties itself.
    assert results["greedy"] == {"win": 1.0, "draw": 0.0, "loss": 0.0, "margin": 11.0}
    assert results["sacrifice"] == {"win": 0.0, "draw": 1.0, "loss": 0.0, "margin": 0.0}
    for bot in results.values():
        assert bot["win"] + bot["draw"] + bot["loss"] == pytest.approx(1.0)
    assert expected_results(_keys(sacrifice), model) == results  # keys or cards


@pytest.mark.parametrize("deal", DEALS)
@pytest.mark.parametrize("objective", ["win", "points"])
def test_reply_is_an_arrangement_no_worse_than_its_starts(deal: str, objective: str) -> None:
    cards = _cards(deal)
    model = pool_model(cards)
    row = reply(model, objective=objective)
    assert row.shape == (5, 5)
    assert sorted(row.ravel().tolist()) == cards.tolist()
    value = _Objective(model.bots, dict.fromkeys(model.bots, 1.0), objective)
    mine = value(_keys(row)[None])[0]
    # At least as good as every start laid out in its best order.
    for start in (model.greedy_packs, *model.plans):
        assert mine >= value(_keys(start)[analysis.ORDERS]).max() - 1e-9


def test_reply_to_one_bot_beats_it() -> None:
    cards = _cards(DISTINCT)
    model = pool_model(cards)
    for name in ("greedy", "sacrifice", "best_response"):
        row = reply(model, {name: 1.0})
        assert expected_results(row, model)[name]["win"] == 1.0, name


def test_reply_beats_the_modelled_pool_on_a_fixed_deal() -> None:
    model = pool_model(_cards(MIXED_DEAL))
    results = expected_results(reply(model), model)
    assert results["greedy"]["win"] == 1.0
    assert results["sacrifice"]["win"] == 1.0
    assert results["best_response"]["win"] == 1.0
    assert results["mixed"]["win"] > 0.5 > results["mixed"]["loss"]


def test_reply_rejects_bad_weights_and_objectives() -> None:
    model = pool_model(_cards(DISTINCT))
    with pytest.raises(ValueError, match=r"no model of \['random'\]"):
        reply(model, {"random": 1.0})
    with pytest.raises(ValueError, match="expected a positive weight"):
        reply(model, {"greedy": 0.0})
    with pytest.raises(ValueError, match="'margin'.*'points', 'win'"):
        reply(model, objective="margin")


def test_docstring_example() -> None:
    result = doctest.testmod(search)
    assert result.attempted > 0 and result.failed == 0
