"""Observation feature sets, on fixed deals with hand-checked values."""

from __future__ import annotations

import numpy as np
import pytest
from pokerzoo.agents.quintet import BestResponseBot, greedy_packs
from pokerzoo.envs import quintet
from pokerzoo.envs.cards import format_card, parse_cards
from pokerzoo.envs.poker_squares_env import PokerSquaresEnv
from pokerzoo.training.features import poker_squares_lines, quintet_packs, quintet_plans


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
    assert poker_squares_lines.per_action == (522, 25, 15)


def test_quintet_packs() -> None:
    # Placement order is descending: Ac Ad Ah As Kc Kd ...; packs get A A | K K | ... below.
    cards = "Ac Ad Ah As Kc Kd Kh Ks Qc Qd Qh Qs Jc Jd Jh Js Tc Td Th Ts 9c 9d 9h 9s 8c"
    state = quintet.new_game(cards)
    for pack in [0, 0, 1, 1, 2, 2]:  # Ac Ad -> 0, Ah As -> 1, Kc Kd -> 2
        quintet.place(state, 0, pack)
    obs = quintet.encode_observation(state, 0)  # current card: Kh
    features = quintet_packs(obs)[262:].reshape(5, 9)
    # Columns: size, same rank, same suit, flush, straight, group, complete, points, open.
    assert features[0] == pytest.approx([0.6, 0.25, 0.2, 0, 0, 0.5, 0, 3 / 7, 1])
    assert features[2] == pytest.approx([0.6, 0.75, 0.2, 0, 0, 0.75, 0, 5 / 7, 1])
    assert features[4] == pytest.approx([0.2, 0.25, 0.2, 1, 1, 0.25, 0, 1, 1])
    assert quintet_packs.per_action == (262, 5, 9)


def test_quintet_plans() -> None:
    # Greedy packs, strongest first: Ac-Tc straight flush; four nines + 7s (lowest kicker);
    # aces full of sevens; kings full of eights; queens and jacks with Td.
    cards = "Ac Kc Qc Jc Tc 9s 9h 9d 9c As Ah Ad Ks Kh Kd Qs Qh Js Jh 8s 8h 7s 7h 7d Td"
    rank_of = {
        **dict.fromkeys(["Ac", "Kc", "Qc", "Jc", "Tc"], 0),
        **dict.fromkeys(["9s", "9h", "9d", "9c", "7s"], 1),
        **dict.fromkeys(["As", "Ah", "Ad", "7h", "7d"], 2),
        **dict.fromkeys(["Ks", "Kh", "Kd", "8s", "8h"], 3),
        **dict.fromkeys(["Qs", "Qh", "Js", "Jh", "Td"], 4),
    }
    state = quintet.new_game(cards)
    for pack in [4, 3, 3, 4]:  # Ac -> 4, Ad Ah -> 3, As -> 4
        quintet.place(state, 0, pack)
    obs = quintet.encode_observation(state, 0)  # current card: Kc
    features = quintet_plans(obs)
    assert features.shape == (262 + 5 * 21,)
    rows = features[262:].reshape(5, 21)
    assert np.array_equal(rows[:, :9], quintet_packs(obs)[262:].reshape(5, 9))
    # Columns 11..15: the pack's cards by greedy rank / 5; 16..20: the current card's rank.
    packs, _ = greedy_packs(np.array(parse_cards(cards)))
    assert {format_card(c): r for r in range(5) for c in packs[r].tolist()} == rank_of
    assert rows[4, 11:16] == pytest.approx([0.2, 0, 0.2, 0, 0])  # Ac, As
    assert rows[3, 11:16] == pytest.approx([0, 0, 0.4, 0, 0])  # Ad, Ah
    assert rows[0, 11:16] == pytest.approx([0, 0, 0, 0, 0])
    assert rows[:, 16:21] == pytest.approx(np.tile([1, 0, 0, 0, 0], (5, 1)))  # Kc
    # Columns 9, 10: the best-response bot's plan (seed 0): where it puts Kc, and minus the
    # pack's cards it puts elsewhere.
    plan = BestResponseBot(seed=0).plan(np.array(parse_cards(cards)))
    where = {card: p for p in range(5) for card in plan[p].tolist()}
    assert rows[:, 9].tolist() == [float(p == where[parse_cards("Kc")[0]]) for p in range(5)]
    placed = {4: ["Ac", "As"], 3: ["Ad", "Ah"]}
    for p in range(5):
        off = sum(where[parse_cards(c)[0]] != p for c in placed.get(p, []))
        assert rows[p, 10] == pytest.approx(-off / 5)
    assert quintet_plans.per_action == (262, 5, 21, 9, 3.0)
