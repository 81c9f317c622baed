"""The packs a set of Quintet cards can form (pokerzoo.envs.quintet.packs), on fixed cards and
against brute force."""

from __future__ import annotations

import doctest
import itertools
from math import comb

import numpy as np
import pytest
from pokerzoo.envs.core import jit
from pokerzoo.envs.core.cards import parse_cards
from pokerzoo.envs.core.hands import evaluate, hand_key
from pokerzoo.envs.quintet import packs
from pokerzoo.envs.quintet.analysis import greedy_packs
from pokerzoo.envs.quintet.packs import (
    NUM_GROUPS,
    candidate_packs,
    group_of,
    pack_table,
    strength_share,
    strongest_pack,
)

# Greedy's packs all differ in strength here (see test_bots.py).
DISTINCT = "Ac Ad Ah As Kc Kd Kh Qc Qd Qh Jd Jh Js Tc Td Ts 9c 9d 9h 9s 8d 8s 7c 7d 7s"
# Four straight flushes J-high of equal strength and four aces with the king of clubs.
TIED = "Jc Tc 9c 8c 7c Jd Td 9d 8d 7d Jh Th 9h 8h 7h Js Ts 9s 8s 7s Ac Ad Ah As Kc"
MIXED_DEAL = "Ac Kc Qc Jc Tc 9s 9h 9d 9c As Ah Ad Ks Kh Kd Qs Qh Js Jh 8s 8h 7s 7h 7d Td"
SMALL = "Ah Kh Qh Jh 9h Ks Kd 8c 7c 7d 7s Tc"  # 12 cards: brute force is instant


def _ids(cards: str) -> np.ndarray:
    return np.array(sorted(parse_cards(cards)), dtype=np.int64)


def _brute(cards: str | np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every pack of the cards (ascending ids, lexicographic order), its key and its group."""
    ids = _ids(cards) if isinstance(cards, str) else np.sort(cards)
    combos = np.array(list(itertools.combinations(ids.tolist(), 5)), dtype=np.int64)
    return combos, evaluate(combos, "quintet"), group_of(combos)


def _best(combos: np.ndarray, keys: np.ndarray) -> tuple[np.ndarray, int]:
    """The strongest pack, among equal keys the lowest rank sum, then the first."""
    score = keys * 64 + (63 - (combos >> 2).sum(axis=1))
    best = int(np.argmax(score))
    return combos[best], int(keys[best])


@pytest.mark.parametrize(
    ("pack", "category", "lead"),
    [
        ("As Ks Qs Js Ts", 8, "A"),  # straight flush: the top card
        ("7s 7h 7d 7c As", 7, "7"),  # four of a kind: the four
        ("9s 9h 9d Kc Ks", 6, "9"),  # full house: the three
        ("Ah Jh 9h 8h 7h", 5, "A"),  # flush: the top card
        ("Jd Ts 9h 8c 7c", 4, "J"),  # the lowest straight: its top card
        ("Ts Th Td As Kd", 3, "T"),  # three of a kind: the three
        ("8h 8d Ac As 7d", 2, "A"),  # two pair: the higher pair
        ("8s 8h As Kd Qc", 1, "8"),  # pair: the pair
        ("Ac Kd 9h 8s 7c", 0, "A"),  # high card: the top card
    ],
)
def test_group_is_category_and_lead_rank(pack: str, category: int, lead: str) -> None:
    rank = "789TJQKA".index(lead)
    assert group_of(np.array([parse_cards(pack)]))[0] == category * 8 + rank


def test_table_scores_every_pack_and_groups_never_contradict_keys() -> None:
    table = pack_table()
    assert len(table.keys) == comb(32, 5)
    order = np.argsort(table.keys, kind="stable")
    assert (np.diff(table.groups[order]) >= 0).all()
    assert set(np.unique(table.groups).tolist()) <= set(range(NUM_GROUPS))
    assert (np.bitwise_count(table.masks.astype(np.uint64)) == 5).all()


def test_strength_share_is_an_absolute_scale() -> None:
    n = comb(32, 5)
    # The weakest pack: Q-T-9-8-7 of mixed suits (J-T-9-8-7 would be a straight).
    weakest = hand_key("Qs Th 9d 8c 7s", "quintet")
    assert weakest == pack_table().sorted_keys[0]
    top = hand_key("As Ks Qs Js Ts", "quintet")  # four suits make it: 4 packs share the top
    assert strength_share(weakest) == 0.0
    assert strength_share(top) == pytest.approx((n - 4) / n)
    shares = strength_share(np.array([weakest, hand_key("As Ah 9d 8c 7s", "quintet"), top]))
    assert (np.diff(shares) > 0).all()


@pytest.mark.parametrize("cards", [DISTINCT, TIED, MIXED_DEAL, SMALL])
def test_strongest_pack_matches_brute_force(cards: str) -> None:
    pack, key = strongest_pack(_ids(cards))
    best, best_key = _best(*_brute(cards)[:2])
    assert key == best_key and pack.tolist() == best.tolist()


@pytest.mark.parametrize("cards", [DISTINCT, TIED, MIXED_DEAL, SMALL])
def test_candidates_are_the_best_pack_of_each_group_strongest_first(cards: str) -> None:
    combos, keys, groups = _brute(cards)
    found = candidate_packs(_ids(cards), limit=NUM_GROUPS)
    assert sorted(found.groups.tolist()) == sorted(set(groups.tolist()))  # every group once
    assert (np.diff(found.keys) < 0).all()  # strongest group first: keys strictly fall
    assert found.total == len(combos)
    for k, group in enumerate(found.groups):
        inside = groups == group
        best, best_key = _best(combos[inside], keys[inside])
        assert found.packs[k].tolist() == best.tolist() and found.keys[k] == best_key
        assert found.stronger[k] == (groups > group).sum()
        rest = np.setdiff1d(_ids(cards), found.packs[k])
        rest_pack, rest_key = _best(*_brute(rest)[:2])
        assert found.rest_packs[k].tolist() == rest_pack.tolist()
        assert found.rest_keys[k] == rest_key
        assert found.rest_groups[k] == group_of(rest_pack[None])[0]


def test_limit_keeps_the_strongest_groups() -> None:
    every = candidate_packs(_ids(MIXED_DEAL), limit=NUM_GROUPS)
    some = candidate_packs(_ids(MIXED_DEAL), limit=4)
    assert some.packs.tolist() == every.packs[:4].tolist()
    assert some.rest_keys.tolist() == every.rest_keys[:4].tolist()


def test_five_cards_make_one_candidate_and_leave_nothing() -> None:
    found = candidate_packs(parse_cards("As Ks Qs Js 9d"))
    assert found.packs.tolist() == [sorted(parse_cards("As Ks Qs Js 9d"))]
    assert found.total == 1 and found.stronger.tolist() == [0]
    assert found.rest_keys.tolist() == [-1] and found.rest_groups.tolist() == [-1]
    assert found.rest_packs.tolist() == [[-1] * 5]


@pytest.mark.parametrize("cards", [DISTINCT, TIED, MIXED_DEAL])
def test_first_candidates_lay_out_the_greedy_bots_packs(cards: str) -> None:
    rest = _ids(cards)
    expected, _ = greedy_packs(rest)
    for pack in expected:
        first = candidate_packs(rest).packs[0]
        assert first.tolist() == sorted(pack.tolist())
        rest = np.setdiff1d(rest, first)


@pytest.mark.parametrize(
    ("cards", "limit", "message"),
    [
        ("As Ks Qs Js", 16, "at least 5 cards"),
        ("As Ks Qs Js 2s", 16, "card 2s"),
        ("As Ks Qs Js As", 16, "duplicate card As"),
        ("As Ks Qs Js Ts", 0, "bad limit 0"),
        ("As Ks Qs Js Ts", True, "bad limit True"),
    ],
)
def test_bad_input_names_what_is_wrong(cards: str, limit: int, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        candidate_packs(cards, limit=limit)


def test_card_arrays_are_checked_too() -> None:
    with pytest.raises(ValueError, match="card 2s"):
        strongest_pack(np.array(parse_cards("As Ks Qs Js 2s")))


def test_docstring_examples() -> None:
    result = doctest.testmod(packs)
    assert result.attempted > 0 and result.failed == 0


@pytest.mark.skipif(not jit.available(), reason="numba is not installed")
def test_the_compiled_scans_are_numpys() -> None:
    """numba's scans over the ranked packs give numpy's arrays, on card sets of every size the
    ranked path takes with numba (8 to 32 cards), for packs of the cards (what a candidate
    leaves: nothing once fewer than five cards are left) and for all the cards (nothing)."""
    from pokerzoo.envs.quintet import compiled

    ranked = packs._ranked_packs()
    rng = np.random.default_rng(5)
    for size in [8, 9, 10, 12, 15, 16, 20, 25, 31, 32] * 10:
        positions = rng.choice(32, size, replace=False)
        held = np.uint32(int((np.int64(1) << positions).sum()))
        within = compiled.packs_within(ranked.masks, held)
        assert np.array_equal(within, np.flatnonzero((ranked.masks & ~held) == 0))
        taken = ranked.masks[rng.choice(within, 8)]
        taken = np.append(taken, np.uint32(held))  # every card: nothing avoids it
        expected = packs._first_free(ranked.masks, within, taken)
        assert np.array_equal(compiled.first_free(ranked.masks, within, taken), expected)
        assert expected[-1] == -1 and (expected[:-1] >= 0).all() == (size >= 10)
