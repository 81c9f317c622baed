"""Observation feature sets, on fixed deals with hand-checked values."""

from __future__ import annotations

import numpy as np
import pytest
from pokerzoo.agents.quintet import BestResponseBot, GreedyBot, SacrificeBot
from pokerzoo.envs import quintet
from pokerzoo.envs.core.cards import parse_cards
from pokerzoo.envs.poker_squares import PokerSquaresEnv
from pokerzoo.envs.quintet import QuintetGame
from pokerzoo.envs.quintet.analysis import greedy_packs
from pokerzoo.envs.quintet.search import expected_results, pool_model, reply
from pokerzoo.training.features import Gate, PerActionLayout
from pokerzoo.training.games.poker_squares import HOOKS as SQUARES
from pokerzoo.training.games.poker_squares.hooks import lines as poker_squares_lines
from pokerzoo.training.games.quintet import HOOKS as QUINTET
from pokerzoo.training.games.quintet.hooks import deal_plans
from pokerzoo.training.games.quintet.hooks import packs as quintet_packs
from pokerzoo.training.games.quintet.hooks import plans as quintet_plans

RULES = QuintetGame()


def poker_squares_after(cards: str, cells: list[int]) -> np.ndarray:
    """Features once the first cards of ``cards`` went to ``cells``; the next card is current."""
    deal = parse_cards(cards)
    rest = [c for c in range(52) if c not in deal]  # the rest of the deal, never reached
    env = PokerSquaresEnv()
    obs, _ = env.reset(options={"cards": (deal + rest)[:25]})
    for cell in cells:
        obs, *_ = env.step(cell)
    features = poker_squares_lines(obs)
    assert features.shape == (897,)
    assert np.array_equal(features[:522], obs)
    return features[522:].reshape(25, 15)


# Columns: size, same rank, same suit, flush live, straight live, largest group, complete.
@pytest.mark.parametrize(
    ("cards", "cells", "cell", "row", "col"),
    [
        # Row 1 "Jh 7d 2d Tc" + 8h completes it; column 5 is empty.
        (
            "Jh 7d 2d Tc 9d Qc 8h",
            [0, 1, 2, 3, 5, 10],
            4,
            [1, 0.25, 0.4, 0, 0, 0.25, 1],
            [0.2, 0.25, 0.2, 1, 1, 0.25, 0],
        ),
        # Column 1 "Jh 9d Qc" + 8h: four cards, a straight still possible (8-Q).
        (
            "Jh 7d 2d Tc 9d Qc 8h",
            [0, 1, 2, 3, 5, 10],
            15,
            [0.2, 0.25, 0.2, 1, 1, 0.25, 0],
            [0.8, 0.25, 0.4, 0, 1, 0.25, 0],
        ),
        # Flush draw: "2h 5h 9h" + Kh.
        (
            "2h 5h 9h Kh",
            [0, 1, 2],
            3,
            [0.8, 0.25, 0.8, 1, 0, 0.25, 0],
            [0.2, 0.25, 0.2, 1, 1, 0.25, 0],
        ),
        # Wheel: "As 2d 3c" + 4h keeps A-2-3-4-5 alive.
        (
            "As 2d 3c 4h",
            [0, 1, 2],
            3,
            [0.8, 0.25, 0.2, 0, 1, 0.25, 0],
            [0.2, 0.25, 0.2, 1, 1, 0.25, 0],
        ),
        # No wrap: "As Kd" + 2c is no straight; pairs: "7s 7d" + 7h is three of a kind.
        ("As Kd 2c", [0, 1], 2, [0.6, 0.25, 0.2, 0, 0, 0.25, 0], [0.2, 0.25, 0.2, 1, 1, 0.25, 0]),
        ("7s 7d 7h", [0, 1], 2, [0.6, 0.75, 0.2, 0, 0, 0.75, 0], [0.2, 0.25, 0.2, 1, 1, 0.25, 0]),
    ],
)
def test_poker_squares_lines(
    cards: str, cells: list[int], cell: int, row: list[float], col: list[float]
) -> None:
    features = poker_squares_after(cards, cells)
    assert features[cell, :7] == pytest.approx(row)
    assert features[cell, 7:14] == pytest.approx(col)
    assert features[cell, 14] == 1
    assert features[cells, 14].tolist() == [0] * len(cells)


def test_poker_squares_lines_batch_equals_rows() -> None:
    env = PokerSquaresEnv()
    rows = []
    for seed in range(4):
        obs, info = env.reset(seed=seed)
        for _ in range(seed * 5):
            obs, _, _, _, info = env.step(int(info["action_mask"].argmax()))
        rows.append(obs)
    batch = np.stack(rows)
    assert np.array_equal(
        poker_squares_lines(batch), np.stack([poker_squares_lines(r) for r in rows])
    )


def test_quintet_packs() -> None:
    # Placement order is descending: Ac Ad Ah As Kc Kd ...; packs get A A | K K | ... below.
    cards = "Ac Ad Ah As Kc Kd Kh Ks Qc Qd Qh Qs Jc Jd Jh Js Tc Td Th Ts 9c 9d 9h 9s 8c"
    state = RULES.new_state(cards)
    for pack in [0, 0, 1, 1, 2, 2]:  # Ac Ad -> 0, Ah As -> 1, Kc Kd -> 2
        RULES.apply(state, 0, pack)
    obs = quintet.encode_observation(state, 0)  # current card: Kh
    features = quintet_packs(obs)[262:].reshape(5, 9)
    # Columns: size, same rank, same suit, flush, straight, group, complete, points, open.
    assert features[0] == pytest.approx([0.6, 0.25, 0.2, 0, 0, 0.5, 0, 3 / 7, 1])
    assert features[2] == pytest.approx([0.6, 0.75, 0.2, 0, 0, 0.75, 0, 5 / 7, 1])
    assert features[4] == pytest.approx([0.2, 0.25, 0.2, 1, 1, 0.25, 0, 1, 1])


def test_quintet_plans() -> None:
    cards = "Ac Kc Qc Jc Tc 9s 9h 9d 9c As Ah Ad Ks Kh Kd Qs Qh Js Jh 8s 8h 7s 7h 7d Td"
    ids = np.array(sorted(parse_cards(cards)))
    model = pool_model(ids)
    packs, _ = greedy_packs(ids)
    candidates = [
        reply(model),
        reply(model, {"greedy": 1, "sacrifice": 1, "mixed": 2, "best_response": 1}),
        BestResponseBot(seed=0).plan(ids),
        GreedyBot().plan(ids),
        SacrificeBot().plan(ids),
    ]
    where = [{int(c): p for p in range(5) for c in row[p]} for row in candidates]
    pack_of, stats = deal_plans(np.isin(np.arange(20, 52), ids))
    for k, row in enumerate(candidates):
        assert [pack_of[k, c - 20] for c in ids] == [where[k][int(c)] for c in ids]
        results = expected_results(row, model)
        bots = ["greedy", "sacrifice", "mixed", "best_response"]
        assert stats[k, :4] == pytest.approx([results[b]["win"] - results[b]["loss"] for b in bots])
        assert stats[k, 4] == pytest.approx(np.mean([results[b]["margin"] for b in bots]) / 25)
    # Place the first four cards (Ac Ad Ah As) where candidate 3 (greedy) does, except As,
    # which goes where candidate 0 puts it.
    state = RULES.new_state(cards)
    order = quintet.placement_order(ids)
    chosen = [where[3][int(order[0])], where[3][int(order[1])], where[3][int(order[2])]]
    chosen.append(where[0][int(order[3])])
    for pack in chosen:
        RULES.apply(state, 0, pack)
    obs = quintet.encode_observation(state, 0)
    features = quintet_plans(obs)
    assert features.shape == (262 + 5 * 44,)
    rows = features[262:].reshape(5, 44)
    assert np.array_equal(rows[:, :9], quintet_packs(obs)[262:].reshape(5, 9))
    placed = list(zip(order[:4], chosen, strict=True))
    agreement = [np.mean([where[k][int(c)] == p for c, p in placed]) for k in range(5)]
    current = int(order[4])  # Kc
    for k in range(5):
        suggestion = [agreement[k] * (where[k][current] == p) for p in range(5)]
        assert rows[:, 9 + k] == pytest.approx(suggestion)
        per_plan = rows[:, 14 + 6 * k : 20 + 6 * k]
        assert per_plan == pytest.approx(np.tile([*stats[k], agreement[k]], (5, 1)))
    as_ = int(order[3])
    assert agreement[3] == (1.0 if where[0][as_] == where[3][as_] else 0.75)
    # Done: nothing to place, no suggestions.
    for pack in range(5):
        while RULES.legal_mask(state, 0)[pack]:
            RULES.apply(state, 0, pack)
    assert not quintet_plans(quintet.encode_observation(state, 0))[262:].reshape(5, 44)[:, 9:].any()
    assert QUINTET.features["plans"].per_action == PerActionLayout(
        offset=262, actions=5, width=44, gate=Gate(9, 5, 14, 6, 2.0)
    )
    assert QUINTET.features["packs"].per_action == PerActionLayout(262, 5, 9)
    assert SQUARES.features["lines"].per_action == PerActionLayout(522, 25, 15)
