"""The Monte-Carlo sampler of poker without a name (``deal_unseen``, ``deals_unseen`` and the
features' ``sample_deals``): on small fixed positions its support is exactly the consistent deals,
enumerated by brute force, at uniform frequencies (a chi-square test); on positions from real
bot-played games every sample respects every void the seat has seen; an inconsistent
observation raises ``ValueError``.

"Uniform" counts the two jokers as two cards, as a shuffled pack does: a deal that splits them
between two holders is twice as likely as one that keeps them together.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections import Counter
from collections.abc import Callable
from dataclasses import replace

import numpy as np
import pytest
from pokerzoo.agents.nameless_poker import MonteCarloBot, RulesBot
from pokerzoo.envs import nameless_poker_v0
from pokerzoo.envs.core import jit
from pokerzoo.envs.core.cards import JOKER, NUM_CARD_IDS, parse_cards
from pokerzoo.envs.nameless_poker import (
    NUM_PLAYERS,
    NamelessPokerView,
    decode_observation,
    sampling,
)
from pokerzoo.envs.nameless_poker.sampling import deal_unseen, deals_unseen
from pokerzoo.training.games.nameless_poker.odds import sample_deals

from tests.helpers import aec_decisions

Deal = tuple[tuple[int, ...], ...]
Sampler = Callable[[NamelessPokerView, list[int], np.random.Generator, int], list[list[list[int]]]]
COLUMNS = "shdcj"  # the voids' columns: spades, hearts, diamonds, clubs, joker


def column(card: int) -> int:
    return 4 if card == JOKER else card & 3


def base_view() -> NamelessPokerView:
    env = nameless_poker_v0.env(deals=[8])
    env.reset(seed=0)
    return decode_observation(env.observe(env.agent_selection)["observation"])


BASE = base_view()


def position(unseen: str, voids: dict[int, str]) -> NamelessPokerView:
    """A view whose unseen cards are ``unseen`` (every other card played or turned) and whose
    relative seat ``r`` has shown voids in the columns ``voids[r]`` (letters of ``shdcj``)."""
    counts = np.zeros(NUM_CARD_IDS, dtype=np.int16)
    for card in parse_cards(unseen):
        counts[card] += 1
    copies = np.array([1] * JOKER + [2], dtype=np.int16)
    turned = int(np.flatnonzero(counts[:JOKER] == 0)[0])
    played = copies - counts
    played[turned] -= 1
    shown = np.zeros((NUM_PLAYERS, 5), dtype=bool)
    for r, columns in voids.items():
        for letter in columns:
            shown[r, COLUMNS.index(letter)] = True
    view = replace(BASE, hand=(), turned_card=turned, played=played, voids=shown)
    assert sorted(np.repeat(np.arange(NUM_CARD_IDS), view.unseen)) == sorted(parse_cards(unseen))
    return view


def consistent_deals(view: NamelessPokerView, sizes: list[int]) -> Counter[Deal]:
    """Every consistent deal by brute force, with its weight: the assignments of the unseen
    cards, the jokers told apart, to the hands (``sizes``) and the stock that give it and put
    no card in a hand whose seat is void in its column."""
    pool = np.repeat(np.arange(NUM_CARD_IDS), view.unseen).tolist()
    found: Counter[Deal] = Counter()

    def deal(r: int, left: tuple[int, ...], hands: list[tuple[int, ...]]) -> None:
        if r == NUM_PLAYERS:
            found[tuple(tuple(sorted(pool[i] for i in hand)) for hand in hands)] += 1
            return
        for hand in itertools.combinations(left, sizes[r]):
            if any(view.voids[r, column(pool[i])] for i in hand):
                continue
            rest = tuple(i for i in left if i not in hand)
            deal(r + 1, rest, [*hands, hand])

    deal(0, tuple(range(len(pool))), [])
    return found


def chi_square_limit(freedom: int, z: float = 3.09) -> float:
    """The chi-square distribution's upper quantile (z = 3.09: p = 0.001) by Wilson-Hilferty."""
    a = 2 / (9 * freedom)
    return freedom * (1 - a + z * math.sqrt(a)) ** 3


def one_at_a_time(tries: int | None) -> Sampler:
    """``deal_unseen`` called once per sample (``tries``: its shuffled tries; ``None``: the
    default)."""

    def sample(view: NamelessPokerView, sizes: list[int], rng: np.random.Generator, n: int):
        extra = {} if tries is None else {"tries": tries}
        return [deal_unseen(view, sizes, rng, **extra) for _ in range(n)]

    return sample


SAMPLERS: dict[str, Sampler] = {
    "deal_unseen": one_at_a_time(None),
    "deal_unseen exact": one_at_a_time(0),  # straight to the exact counts
    "deal_unseen shuffles": one_at_a_time(1000),  # shuffled tries only, in practice
    "deals_unseen": deals_unseen,
    "sample_deals": sample_deals,
}

# (case, unseen cards, voids per relative seat, hand sizes)
POSITIONS = [
    # One seat can hold only diamonds and exactly 3 diamonds are unseen: it holds them all.
    ("tight", "2d 3d 4d 5s 6s 7h 8h Jk Jk", {1: "shcj"}, [0, 3, 3, 3]),
    ("tight, the others void too", "2d 3d 4d 5s 6s 7h 8h Jk Jk", {1: "shcj", 2: "h"}, [0, 3, 3, 3]),
    # Every column is open to two of the three seats, but not the same two.
    ("equal counts, other seats", "As Kh Qd Jc Jk 2s", {1: "sh", 2: "dc", 3: "j"}, [0, 2, 2, 2]),
    ("equal counts, a stock", "As Kh Qd Jc Jk 2s 3d", {1: "sh", 2: "dc", 3: "j"}, [0, 2, 2, 2]),
    ("two hands and a stock", "As Ks 2h 3h Jk 5d 6c", {1: "hj", 2: "s"}, [0, 2, 2, 0]),
    ("every seat void", "As Ks 2h 3h 4d 5c Jk Jk", {1: "s", 2: "hj", 3: "dc"}, [0, 2, 2, 2]),
    ("a void in a column with no unseen card", "As Ks 2h 3h Jk", {1: "c", 2: "d"}, [0, 2, 2, 1]),
    ("only the observer void", "As Ks 2h Jk Jk 3d", {0: "shdcj"}, [0, 2, 2, 2]),
    ("hidden own hand", "As Ks 2h Jk 3d 4c", {2: "j"}, [1, 2, 1, 1]),
]


@pytest.mark.parametrize("sampler", list(SAMPLERS))
@pytest.mark.parametrize(
    ("unseen", "voids", "sizes"), [p[1:] for p in POSITIONS], ids=[p[0] for p in POSITIONS]
)
def test_samples_are_the_consistent_deals_uniformly(
    sampler: str, unseen: str, voids: dict[int, str], sizes: list[int], loops_by: str
) -> None:
    check_uniform(SAMPLERS[sampler], position(unseen, voids), sizes, 50)


def check_uniform(sampler: Sampler, view: NamelessPokerView, sizes: list[int], per: int) -> None:
    """``sampler``'s support on ``view`` is exactly the consistent deals, and ``per`` draws per
    consistent deal (2,000 at least) pass a chi-square test of their brute-force weights."""
    weights = consistent_deals(view, sizes)
    total = sum(weights.values())
    draws = max(2000, per * len(weights))
    rng = np.random.default_rng(28)
    seen = Counter(tuple(tuple(hand) for hand in deal) for deal in sampler(view, sizes, rng, draws))
    assert set(seen) == set(weights)  # never an inconsistent deal, and every consistent one
    expected = {deal: draws * w / total for deal, w in weights.items()}
    statistic = sum((seen[deal] - e) ** 2 / e for deal, e in expected.items())
    assert statistic < chi_square_limit(len(weights) - 1)


@pytest.mark.parametrize("sampler", ["deal_unseen exact", "sample_deals"])
def test_frequencies_where_placing_card_by_card_is_biased(sampler: str, loops_by: str) -> None:
    """Placing the shuffled cards one by one, each in an open hand or the stock in proportion
    to the places they have left (the old sampler, even when it met the voids), misses these
    weights by a few percent: 40,000 draws tell (chi-square about 50 to 90 for 13 degrees of
    freedom, limit 34.7)."""
    view = position("As Ks Qs Js 2h 2d", {1: "s", 2: "h"})
    check_uniform(SAMPLERS[sampler], view, [0, 1, 3, 0], 3000)


def test_the_tight_position_has_one_deal_for_the_void_seat(loops_by: str) -> None:
    view = position("2d 3d 4d 5s 6s 7h 8h Jk Jk", {1: "shcj"})
    rng = np.random.default_rng(0)
    for hands in deals_unseen(view, [0, 3, 3, 3], rng, 200):
        assert hands[1] == parse_cards("2d 3d 4d")


def test_without_a_void_in_the_way_the_shuffled_cards_are_dealt_in_turn(loops_by: str) -> None:
    """The draws of the sampler before the voids were met, where no void bars anything."""
    view = position("As Ks 2h Jk Jk 3d", {0: "shdcj", 1: "c", 3: "sh"})  # no club unseen
    sizes = [0, 2, 2, 0]
    pool = np.repeat(np.arange(NUM_CARD_IDS), view.unseen)
    expected = np.random.default_rng(5)
    got = deals_unseen(view, sizes, np.random.default_rng(5), 20)
    for hands in got:
        order = expected.permutation(pool).tolist()
        assert hands == [[], sorted(order[:2]), sorted(order[2:4]), []]


def test_many_draws_are_the_draws_one_at_a_time(loops_by: str) -> None:
    view = position("As Ks 2h 3h Jk 5d 6c", {1: "hj", 2: "s"})
    one = np.random.default_rng(3)
    many = deals_unseen(view, [0, 2, 2, 0], np.random.default_rng(3), 30)
    assert many == [deal_unseen(view, [0, 2, 2, 0], one) for _ in range(30)]


# --- positions of real games ---------------------------------------------------------------------
def game_positions(episodes: int) -> list[tuple[NamelessPokerView, list[int], list[int]]]:
    """Every play decision with a void shown, over ``episodes`` games of one deal of each kind
    (a Monte-Carlo bot and three rules bots): the view and the hand sizes the Monte-Carlo bot
    and the ``"odds"`` features deal."""
    env = nameless_poker_v0.env(deals=[8, 16, 19, 23, 27])
    found = []
    for episode in range(episodes):
        bots = [MonteCarloBot(seed=episode, samples=2)] + [RulesBot() for _ in range(3)]
        for agent, seen in aec_decisions(env, [episode]):
            view = decode_observation(seen["observation"])
            if not view.bidding and view.voids[1:].any():
                done_tricks = sum(view.tricks)
                after = [(r - view.leader) % NUM_PLAYERS for r in range(NUM_PLAYERS)]
                left = [view.hand_size - done_tricks - int(a < len(view.trick)) for a in after]
                bot_sizes = [0] + left[1:]
                odds_sizes = [0] + [
                    view.hand_size - done_tricks if after[r] > len(view.trick) else 0
                    for r in range(1, NUM_PLAYERS)
                ]
                found.append((view, bot_sizes, odds_sizes))
            seat = env.agents.index(agent)
            env.step(bots[seat].act(seen["observation"], seen["action_mask"]))
    return found


@functools.cache
def three_games() -> list[tuple[NamelessPokerView, list[int], list[int]]]:
    return game_positions(3)


def respects_voids(view: NamelessPokerView, sizes: list[int], hands: list[list[int]]) -> bool:
    pool = Counter(np.repeat(np.arange(NUM_CARD_IDS), view.unseen).tolist())
    dealt = Counter(card for hand in hands for card in hand)
    return (
        [len(hand) for hand in hands] == sizes
        and not dealt - pool
        and not any(view.voids[r, column(c)] for r, hand in enumerate(hands) for c in hand)
    )


@pytest.mark.parametrize("sampler", ["deal_unseen", "deals_unseen", "sample_deals"])
def test_every_sample_of_a_real_game_respects_every_void(sampler: str, loops_by: str) -> None:
    positions = three_games()
    assert len(positions) > 100
    rng = np.random.default_rng(4)
    for view, bot_sizes, odds_sizes in positions:
        for sizes in (bot_sizes, odds_sizes):
            for hands in SAMPLERS[sampler](view, sizes, rng, 8):
                assert respects_voids(view, sizes, hands), (sizes, hands, view.voids)


@pytest.mark.skipif(not jit.available(), reason="numba is not installed")
def test_the_compiled_deal_counts_are_the_same_doubles(monkeypatch: pytest.MonkeyPatch) -> None:
    """The deal counts of every void position of three real games (their ways, and each
    group's options and cumulative weights from every places a draw can reach), and the seat
    step on 2,000 random arrays (values over 25 orders of magnitude), are the same doubles by
    numba's loops and by numpy: the weights, hence the draws, do not depend on numba. So is
    a row's sum as numpy adds it, for 1 to 128 terms."""
    from pokerzoo.envs.core import compiled as core_compiled

    rng = np.random.default_rng(5)
    for n in range(1, 129):  # the stock's sum of a group's terms (up to 55 of them)
        terms = rng.random(n) * 10.0 ** rng.integers(-12, 12, n)
        assert core_compiled.pairwise_sum(terms) == terms.sum(), n
    for _ in range(2000):
        dims = int(rng.integers(1, 4))
        shape = (*(int(v) for v in rng.integers(1, 10, size=dims)), int(rng.integers(1, 15)))
        ways = rng.random(shape) * 10.0 ** rng.integers(-5, 20)
        axis = int(rng.integers(0, dims))
        most = int(rng.integers(0, min(shape[axis], shape[-1])))
        steps = []
        for on in (True, False):
            monkeypatch.setattr(jit, "AVAILABLE", on)
            steps.append(sampling._one_seat(ways, axis, most))
        assert np.array_equal(*steps)
    counted = options_counted = 0
    for view, bot_sizes, odds_sizes in three_games():
        for sizes in (bot_sizes, odds_sizes):
            pool = sampling.unseen_pool(view, sizes)
            position = sampling._groups(view, sizes, pool)
            if position is None:
                continue
            both = []
            for on in (True, False):
                monkeypatch.setattr(jit, "AVAILABLE", on)
                both.append(sampling.DealCounts(tuple(sizes), position[0]))
            assert both[0].total == both[1].total > 0
            assert all(map(np.array_equal, both[0].ways, both[1].ways))
            counted += 1
            # Every group's options from every places a draw can reach: the same lists.
            reach = [(0, tuple(sizes[r] for r in both[0].seats))]
            while reach:
                g, places = reach.pop()
                if g == len(position[0]) - 1:
                    continue
                options = []
                for on, counts in zip((True, False), both, strict=True):
                    monkeypatch.setattr(jit, "AVAILABLE", on)
                    options.append(counts._count_options(g, places))
                assert options[0] == options[1]
                for chosen in options[0][1]:
                    left = list(places)
                    for r, x in zip(position[0][g][1], chosen, strict=True):
                        left[both[0]._axis[r]] -= x
                    reach.append((g + 1, tuple(left)))
                options_counted += 1
    assert counted > 100 and options_counted > 500


@pytest.mark.skipif(not jit.available(), reason="numba is not installed")
def test_the_compiled_draws_are_the_python_draws(monkeypatch: pytest.MonkeyPatch) -> None:
    """numba's loop over the samples (:func:`pokerzoo.envs.nameless_poker.compiled.draw_deals`)
    and the Python one draw the same deals and leave the generator in the same state: on every
    void position of three real games (the bot's and the features' hand sizes) and on the fixed
    positions, with the default shuffled tries, none (exact draws only), one and a thousand,
    from three seeds each; and from another bit generator (MT19937) and a legacy RandomState
    on the fixed positions."""
    exact = 0
    for view, sizes in draw_cases():
        for tries in (4, 0, 1, 1000):
            for seed in range(3):
                drawn = []
                for on in (True, False):
                    monkeypatch.setattr(jit, "AVAILABLE", on)
                    rng = np.random.default_rng(seed)
                    deals = deals_unseen(view, sizes, rng, 12, tries)
                    drawn.append((deals, rng.bit_generator.state))
                assert drawn[0] == drawn[1], (sizes, tries, seed, view.voids)
                exact += tries == 0
    assert exact > 1500
    # Another bit generator draws the same way; a legacy RandomState goes the Python way.
    for view, sizes in [(position(unseen, voids), sizes) for _, unseen, voids, sizes in POSITIONS]:
        for make in (
            lambda: np.random.Generator(np.random.MT19937(7)),
            lambda: np.random.RandomState(7),
        ):
            drawn = []
            for on in (True, False):
                monkeypatch.setattr(jit, "AVAILABLE", on)
                rng = make()
                drawn.append((deals_unseen(view, sizes, rng, 12, 0), rng.random(3).tolist()))
            assert drawn[0] == drawn[1]


def draw_cases() -> list[tuple[NamelessPokerView, list[int]]]:
    """Every void position of three real games with the bot's and the features' hand sizes,
    and the fixed positions."""
    cases = [(view, sizes) for view, *both in three_games() for sizes in both]
    cases += [(position(unseen, voids), sizes) for _, unseen, voids, sizes in POSITIONS]
    assert len(cases) > 500
    return cases


# --- inconsistent observations -------------------------------------------------------------------
INCONSISTENT = [
    ("a void seat short of cards", "2d 3d 4s 5s 6h 7h 8c 9c Jk", {1: "shcj"}, [0, 3, 3, 3]),
    ("nobody may hold a card", "2d 3d As Ks Qs Js", {1: "d", 2: "d", 3: "d"}, [0, 2, 2, 2]),
    ("fewer unseen cards than places", "2d 3d 4d", {}, [0, 2, 2, 0]),
]


@pytest.mark.parametrize("sampler", ["deal_unseen", "deals_unseen", "sample_deals"])
@pytest.mark.parametrize(
    ("unseen", "voids", "sizes"), [p[1:] for p in INCONSISTENT], ids=[p[0] for p in INCONSISTENT]
)
def test_an_inconsistent_observation_raises(
    sampler: str, unseen: str, voids: dict[int, str], sizes: list[int], loops_by: str
) -> None:
    view = position(unseen, voids)
    assert not consistent_deals(view, sizes)
    with pytest.raises(ValueError, match="inconsistent"):
        SAMPLERS[sampler](view, sizes, np.random.default_rng(0), 4)


def test_a_card_seen_twice_raises() -> None:
    view = position("2d 3d 4d 5d", {})
    played = view.played.copy()
    played[int(np.flatnonzero(view.unseen == 0)[0])] += 1
    with pytest.raises(ValueError, match="inconsistent"):
        deal_unseen(replace(view, played=played), [0, 1, 1, 1], np.random.default_rng(0))
