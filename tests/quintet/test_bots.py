"""Quintet bots on fixed deals, and the analysis they play (pokerzoo.envs.quintet.analysis):
their packs, their orders, legality and determinism."""

from __future__ import annotations

import numpy as np
import pytest
from pokerzoo.agents.base import Bot
from pokerzoo.agents.quintet import (
    BOTS,
    BestResponseBot,
    GreedyBot,
    MixedBot,
    SacrificeBot,
)
from pokerzoo.envs import quintet as game
from pokerzoo.envs.core.cards import format_cards, parse_cards
from pokerzoo.envs.core.errors import IllegalActionError
from pokerzoo.envs.core.hands import hand_key
from pokerzoo.envs.quintet import QuintetGame
from pokerzoo.envs.quintet.analysis import (
    ORDERS,
    greedy_packs,
    order_equilibrium,
    strength_levels,
    strongest_pack,
)

from tests.helpers import PolicyBot

RULES = QuintetGame()

# Greedy's packs here, strongest first, all of different strength:
# Ad Kd Qd Jd Td (straight flush A), Js Ts 9s 8s 7s (straight flush J),
# As Ah Ac 7d 7c (full house, aces over the lowest pair), 9h 9d 9c Qh Qc (full house, nines),
# Kh Kc Jh Tc 8d (the five left: a pair).
DISTINCT = "Ac Ad Ah As Kc Kd Kh Qc Qd Qh Jd Jh Js Tc Td Ts 9c 9d 9h 9s 8d 8s 7c 7d 7s"
GREEDY_PACKS = [
    "Ad Kd Qd Jd Td",
    "Js Ts 9s 8s 7s",
    "Ac Ah As 7c 7d",
    "9c 9d 9h Qc Qh",
    "Kc Kh Jh Tc 8d",
]
# Four straight flushes J-high of equal strength and four aces with the king of clubs.
TIED = "Jc Tc 9c 8c 7c Jd Td 9d 8d 7d Jh Th 9h 8h 7h Js Ts 9s 8s 7s Ac Ad Ah As Kc"


def _same(pack: np.ndarray | list[int], cards: str) -> bool:
    return sorted(int(c) for c in pack) == sorted(parse_cards(cards))


def _row(bot: Bot, cards: str) -> list[list[int]]:
    """The bot's row for the deal, played card by card through the engine's observations."""
    state = RULES.new_state(cards)
    for _ in range(25):
        mask = RULES.legal_mask(state, 0)
        RULES.apply(state, 0, bot.act(game.encode_observation(state, 0), mask))
    return RULES.pack_cards(state, 0)


def test_strongest_pack_prefers_low_odd_cards() -> None:
    pack, key = strongest_pack(np.array(parse_cards("As Ah Ad Ac Kd 8s 7h")))
    assert _same(pack, "As Ah Ad Ac 7h")
    assert key == hand_key("As Ah Ad Ac Kd", "quintet")  # the fifth card is ignored


def test_greedy_packs_strongest_first() -> None:
    packs, keys = greedy_packs(np.array(parse_cards(DISTINCT)))
    for pack, expected in zip(packs, GREEDY_PACKS, strict=True):
        assert _same(pack, expected), format_cards(pack)
    assert np.all(np.diff(keys) < 0)
    assert strength_levels(keys) == (0, 1, 2, 3, 4)


def test_strength_levels_of_equal_packs() -> None:
    _, keys = greedy_packs(np.array(parse_cards(TIED)))
    assert strength_levels(keys) == (0, 0, 0, 0, 1)


def test_greedy_puts_the_strongest_on_the_7_point_position() -> None:
    row = _row(GreedyBot(), DISTINCT)
    for pack, expected in zip(row, GREEDY_PACKS[::-1], strict=True):
        assert _same(pack, expected)


def test_sacrifice_gives_up_the_7_point_position_and_beats_greedy() -> None:
    row = _row(SacrificeBot(), DISTINCT)
    expected = [GREEDY_PACKS[r] for r in (3, 2, 1, 0, 4)]
    for pack, cards in zip(row, expected, strict=True):
        assert _same(pack, cards)
    greedy = _row(GreedyBot(), DISTINCT)
    assert game.score_rows(row, greedy) == (3 + 4 + 5 + 6, 7)


@pytest.mark.parametrize("objective", ["points", "win"])
@pytest.mark.parametrize("levels", [(0, 1, 2, 3, 4), (0, 0, 0, 0, 1), (0, 1, 1, 2, 2)])
def test_order_equilibrium_is_unexploitable(objective: str, levels: tuple[int, ...]) -> None:
    mix = order_equilibrium(objective, levels)
    assert mix.min() >= 0 and mix.sum() == pytest.approx(1)
    level = np.asarray(levels)[ORDERS]
    margin = (np.sign(level[None, :, :] - level[:, None, :]) * game.POSITION_POINTS).sum(-1)
    payoff = margin if objective == "points" else np.sign(margin)
    # A symmetric zero-sum game has value 0: no order gains more than a hair against the mix.
    assert (payoff @ mix).max() < 0.01


def test_mixed_plays_greedys_packs_in_some_order() -> None:
    for seed in range(5):
        row = _row(MixedBot(seed=seed), DISTINCT)
        assert sorted(sorted(p) for p in row) == sorted(
            sorted(parse_cards(p)) for p in GREEDY_PACKS
        )


@pytest.mark.parametrize("name", list(BOTS))
@pytest.mark.parametrize("cards", [DISTINCT, TIED])
def test_bots_are_deterministic_for_a_seed(name: str, cards: str) -> None:
    bot = BOTS[name](seed=3)
    first = [_row(bot, cards) for _ in range(3)]
    bot.reset(seed=3)
    assert [_row(bot, cards) for _ in range(3)] == first
    fresh = BOTS[name](seed=3)
    assert [_row(fresh, cards) for _ in range(3)] == first


@pytest.mark.parametrize("name", list(BOTS))
def test_bots_play_legal_moves_from_any_position(name: str) -> None:
    rng = np.random.default_rng(0)
    bot = BOTS[name](seed=0)
    for _ in range(10):
        state = RULES.new_state(rng=rng)
        # Someone else placed the first 8 cards: the bot must cope with packs it did not plan.
        for _ in range(8):
            RULES.apply(state, 0, 0 if state.pack_sizes[0, 0] < 5 else 1)
        while state.placed[0] < 25:
            mask = RULES.legal_mask(state, 0)
            RULES.apply(state, 0, bot.act(game.encode_observation(state, 0), mask))


def test_registry_builds_every_bot_from_env_options() -> None:
    assert set(BOTS) == {"random", "greedy", "sacrifice", "mixed", "best_response"}
    for name, cls in BOTS.items():
        bot = cls(seed=1, reward="win", render_mode="ansi", opponent="greedy")
        assert bot.name == name and isinstance(bot, Bot)


@pytest.mark.parametrize(
    ("cls", "options", "named"),
    [
        (GreedyBot, {"reward": "money"}, "bad reward 'money'"),
        (BestResponseBot, {"samples": 0}, "bad samples 0"),
        (BestResponseBot, {"max_swaps": -1}, "bad max_swaps -1"),
    ],
)
def test_bad_bot_options_are_named(cls: type, options: dict, named: str) -> None:
    with pytest.raises(ValueError, match=named):
        cls(**options)


def test_best_response_row_is_a_partition_of_the_deal() -> None:
    row = _row(BestResponseBot(seed=0), DISTINCT)
    assert sorted(c for pack in row for c in pack) == sorted(parse_cards(DISTINCT))


def test_bot_action_is_checked_by_the_engine() -> None:
    stubborn = PolicyBot("stubborn", lambda observation, action_mask: 0)
    state = RULES.new_state(DISTINCT)
    with pytest.raises(IllegalActionError, match="illegal pack 0"):
        for _ in range(6):
            RULES.apply(state, 0, stubborn.act(game.encode_observation(state, 0), np.ones(5)))
    assert state.placed[0] == 5
