"""Quintet comparison rules (RULES §1) and the scripted API (RULES §6), on hand-made packs."""

from __future__ import annotations

import pytest
from pokerzoo.envs.core.cards import parse_cards
from pokerzoo.envs.quintet import compare_packs, score_rows

from tests.helpers import cases

FILE = "quintet_rules.yaml"  # the case tables, in tests/data

COMPARISONS = cases(FILE, "comparisons")


@pytest.mark.parametrize(("first", "second", "expected"), COMPARISONS)
def test_compare_packs(first: str, second: str, expected: int) -> None:
    assert compare_packs(first, second) == expected
    assert compare_packs(second, first) == -expected


def test_compare_packs_accepts_every_card_form() -> None:
    a, b = "As Ah 9s 9h Kd", "Ac Ad 9c 9d Qd"
    assert compare_packs(a.split(), parse_cards(b)) == 1
    assert compare_packs(parse_cards(a), "ac AD 9C 9d qd") == 1
    assert compare_packs("10s 10h 10d 9s 9h", "Ts Th Td 9c 9d") == 0


@pytest.mark.parametrize(
    ("first", "second", "named"),
    [
        ("As Ks Qs Js", "As Ks Qs Js Ts", "expected 5 cards"),
        ("As Ks Qs Js Ts 9s", "As Ks Qs Js Ts", "expected 5 cards"),
        ("As Ks Qs Js Ts", "As Ks Qs Js Xs", "'Xs'"),
        ("As Ks Qs Js 6s", "As Ks Qs Js Ts", "6s"),
        ("As Ks Qs Js Jk", "As Ks Qs Js Ts", "Jk"),
        ("As As Qs Js Ts", "As Ks Qs Js Ts", "duplicate card As"),
        ("As Ks Qs Js Ts", 7, "bad cards 7"),
    ],
)
def test_compare_packs_rejects_bad_packs(first: object, second: object, named: str) -> None:
    with pytest.raises(ValueError, match=named):
        compare_packs(first, second)  # type: ignore[arg-type]


# 25 cards in five packs: a flush, a pair, two pairs and a pair. Swapping 9s (the flush) with 9h
# (the pair of nines) breaks the flush and leaves the pair exactly as strong.
FLUSH = "As Ks Qs Js 9s"
NINES = "9h 9d Ac Kd Qh"
BROKEN_FLUSH = "As Ks Qs Js 9h"
SAME_NINES = "9s 9d Ac Kd Qh"
OTHERS = ["Ah Ad Ts Th 8s", "Kh Kc Jh Jd 7s", "Qc Qd Jc Tc 7h"]


def _rows(flush_at: int, nines_at: int) -> tuple[list[str], list[str]]:
    rest = iter(OTHERS)
    a, b = [], []
    for position in range(5):
        if position == flush_at:
            a.append(FLUSH)
            b.append(BROKEN_FLUSH)
        elif position == nines_at:
            a.append(NINES)
            b.append(SAME_NINES)
        else:
            pack = next(rest)
            a.append(pack)
            b.append(pack)
    return a, b


@pytest.mark.parametrize(("position", "points"), [(0, 3), (1, 4), (2, 5), (3, 6), (4, 7)])
def test_score_rows_each_position_is_worth_its_points(position: int, points: int) -> None:
    a, b = _rows(position, (position + 2) % 5)
    assert score_rows(a, b) == (points, 0)
    assert score_rows(b, a) == (0, points)


def test_score_rows_equal_packs_score_nothing() -> None:
    a, _ = _rows(0, 1)
    assert score_rows(a, a) == (0, 0)


# Every pack of row A is a full house or four of a kind; row B lays the same packs in reverse.
ROW_A = "Ac Ad Ah As Kc  Kd Kh Ks Qc Qd  Qh Qs Jc Jd Jh  Js Tc Td Th Ts  9c 9d 9h 9s 8c"
ROW_B = "9c 9d 9h 9s 8c  Js Tc Td Th Ts  Qh Qs Jc Jd Jh  Kd Kh Ks Qc Qd  Ac Ad Ah As Kc"


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        # A: quads A, FH K, FH J, quads T, quads 9 vs B: quads 9, quads T, FH J, FH K, quads A
        (ROW_A, ROW_B, (3 + 6, 4 + 7)),
        (ROW_B, ROW_A, (4 + 7, 3 + 6)),
        # a row of straight flushes against the same cards in junk packs: 25 to 0
        (
            "Jc Tc 9c 8c 7c  Jd Td 9d 8d 7d  Jh Th 9h 8h 7h  Js Ts 9s 8s 7s  Ac Ad Ah As Kc",
            "Jc Td 9h 8s Ac  Jd Th 9s 8c Ad  Js Tc 9d 8h Ah  Jh Ts 9c 8d 7c  As Kc 7d 7h 7s",
            (25, 0),
        ),
    ],
)
def test_score_rows_whole_rows(a: str, b: str, expected: tuple[int, int]) -> None:
    assert score_rows(a, b) == expected


def test_score_rows_accepts_every_row_form() -> None:
    packs_a = [ROW_A.split()[i : i + 5] for i in range(0, 25, 5)]
    packs_b = [" ".join(ROW_B.split()[i : i + 5]) for i in range(0, 25, 5)]
    expected = (9, 11)
    assert score_rows(packs_a, packs_b) == expected
    assert score_rows([parse_cards(p) for p in packs_b], ROW_A) == expected[::-1]
    assert score_rows(parse_cards(ROW_A), ROW_B.split()) == expected


@pytest.mark.parametrize(
    ("a", "b", "named"),
    [
        (ROW_A, ROW_B.rsplit(" ", 1)[0], "got 24 cards"),
        (ROW_A, ROW_B.replace("8c", "8x"), "'8x'"),
        (ROW_A, ROW_B.replace("8c", "6c"), "6c"),
        (ROW_A, ROW_B.replace("8c", "9c"), "duplicate card 9c"),
        (ROW_A, ROW_B.replace("8c", "8d"), "only in the first: 8c; only in the second: 8d"),
        (ROW_A, ["Ac Ad Ah As"] * 5, "expected 5 cards, got 4"),
        (ROW_A, ROW_B.split("  ")[:4], "expected 5 packs, got 4 packs"),
        (ROW_A, [*ROW_B.split("  "), "7c 7d 7h 7s 8c"], "expected 5 packs, got 6 packs"),
        (ROW_A, ["As", "Ks", "Qs", "Js", "Ts"], "expected 5 packs of 5 cards or 25 cards"),
        (ROW_A, 42, "expected 5 packs or 25 cards"),
    ],
)
def test_score_rows_rejects_bad_rows(a: object, b: object, named: str) -> None:
    with pytest.raises(ValueError, match=named):
        score_rows(a, b)  # type: ignore[arg-type]
