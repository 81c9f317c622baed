"""Hand-written rules over feature sets: the generic machinery (grid, policy, which rules a run
gets) and the betting games' equity rules on feature rows built by hand."""

from __future__ import annotations

import numpy as np
import pytest
from pokerzoo.envs.core.betting import CALL, FOLD, RAISE
from pokerzoo.envs.core.registry import get_game
from pokerzoo.envs.draw_poker import NUM_ACTIONS, STAND_PAT
from pokerzoo.training.games.draw_poker import hooks as draw_poker
from pokerzoo.training.games.five_card_stud import hooks as five_card_stud
from pokerzoo.training.hooks import rules_for
from pokerzoo.training.rules import FeatureRule, tune_rule


def first_above(features: np.ndarray, masks: np.ndarray, at: float) -> np.ndarray:
    """Toy rule: the first legal action whose feature is at least ``at``, else the last legal."""
    legal = np.where(masks, features, -np.inf)
    above = legal >= at
    last = masks.shape[1] - 1 - np.argmax(masks[:, ::-1], axis=1)
    return np.where(above.any(axis=1), np.argmax(above, axis=1), last)


TOY = FeatureRule("toy", first_above, {"at": 0.5}, {"at": (0.25, 0.5, 0.75)})


def test_rule_grid_and_policy_apply_the_feature_set() -> None:
    assert TOY.candidates() == [{"at": 0.25}, {"at": 0.5}, {"at": 0.75}]
    assert FeatureRule("toy", first_above, {"at": 0.5}).candidates() == [{"at": 0.5}]
    observations = np.array([[0.2, 0.6, 0.9], [0.1, 0.2, 0.3]])
    masks = np.array([[True, True, True], [True, True, False]])
    assert TOY.policy(None)(observations, masks).tolist() == [1, 1]
    assert TOY.policy(None, at=0.8)(observations, masks).tolist() == [2, 1]
    assert TOY.policy(lambda obs: 1 - obs)(observations, masks).tolist() == [0, 0]


def test_rules_for_a_run_are_those_over_its_features() -> None:
    spec = get_game("draw_poker")
    assert list(rules_for(spec, "equity")) == ["equity"]
    assert rules_for(spec, "raw") == {}
    assert rules_for(get_game("poker_squares"), "lines") == {}


def test_tuning_orders_the_grid_by_the_result() -> None:
    spec = get_game("five_card_stud")
    rule = FeatureRule(
        "equity",
        five_card_stud.equity_rule,
        {"raise_by": 0.1, "call_by": 0.0},
        {"raise_by": (0.1,), "call_by": (-1.0, 2.0)},  # call everything / fold everything
    )
    results = tune_rule(spec, rule, five_card_stud.EQUITY, {}, 2, ["caller"])
    scores = [ev.opponents["caller"].agent_mean.value for _, ev in results]
    assert scores == sorted(scores, reverse=True) and len(results) == 2


def draw_rows(
    equity: float, odds: float, fair: float = 0.5, draws: dict[int, float] | None = None
) -> np.ndarray:
    features = np.zeros(draw_poker.CONTEXT.size + NUM_ACTIONS * draw_poker.ROW_WIDTH)
    layout = draw_poker.CONTEXT
    features[layout["equity"]] = equity
    features[layout["fair_share"]] = fair
    features[layout["pot_odds"]] = odds
    rows = features[layout.size :].reshape(NUM_ACTIONS, draw_poker.ROW_WIDTH)
    for action, value in (draws or {}).items():
        rows[action, 4] = value
    return features


BETTING = np.array([True, True, True] + [False] * 32)
NO_FOLD = np.array([False, True, True] + [False] * 32)
NO_RAISE = np.array([True, True, False] + [False] * 32)


@pytest.mark.parametrize(
    ("equity", "odds", "mask", "action", "why"),
    [
        (0.65, 0.25, BETTING, RAISE, "0.65 >= fair 0.5 + 0.1"),
        (0.55, 0.25, BETTING, CALL, "below the raise, above the odds"),
        (0.65, 0.25, NO_RAISE, CALL, "the raise is capped"),
        (0.2, 0.25, BETTING, FOLD, "below the odds"),
        (0.2, 0.0, NO_FOLD, CALL, "nothing to call: check"),
    ],
)
def test_draw_poker_rule_bets_by_equity(
    equity: float, odds: float, mask: np.ndarray, action: int, why: str
) -> None:
    features = draw_rows(equity, odds)[None]
    chosen = draw_poker.equity_rule(features, mask[None], raise_by=0.1, call_by=0.0)
    assert chosen.tolist() == [action], why


def test_draw_poker_rule_draws_to_the_best_legal_equity() -> None:
    features = draw_rows(0.5, 0.0, draws={STAND_PAT: 0.4, STAND_PAT + 7: 0.6, STAND_PAT + 31: 0.7})
    masks = np.array([False] * 3 + [True] * 32)
    assert draw_poker.equity_rule(features[None], masks[None], 0.1, 0.0).tolist() == [34]
    masks[34] = False  # the stock cannot supply five
    assert draw_poker.equity_rule(features[None], masks[None], 0.1, 0.0).tolist() == [10]


def stud_rows(equity: float, odds: float, bet_odds: float) -> np.ndarray:
    layout = five_card_stud.FEATURES
    features = np.zeros(layout.size)
    features[layout["equity"]] = equity
    features[layout["fair_share"]] = 0.5
    features[layout["pot_odds"]] = odds
    features[layout["bet_odds"]] = bet_odds
    return features


OPENING = np.array([True, False, True])  # first round, nobody has bet: fold or bet


@pytest.mark.parametrize(
    ("equity", "odds", "mask", "action"),
    [
        (0.7, 0.25, np.array([True, True, True]), RAISE),
        (0.3, 0.25, np.array([True, True, True]), CALL),
        (0.2, 0.25, np.array([True, True, True]), FOLD),
        (0.2, 0.0, np.array([False, True, True]), CALL),  # a free check
        (0.4, 0.0, OPENING, RAISE),  # bet the minimum: 0.4 covers the bet's odds 1/3
        (0.3, 0.0, OPENING, FOLD),
    ],
)
def test_stud_rule_prices_the_opening_bet(
    equity: float, odds: float, mask: np.ndarray, action: int
) -> None:
    features = stud_rows(equity, odds, 1 / 3)[None]
    chosen = five_card_stud.equity_rule(features, mask[None], raise_by=0.1, call_by=0.0)
    assert chosen.tolist() == [action]
