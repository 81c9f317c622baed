"""Bots of poker without a name: the rules bot on hand-made deals, legal play under every option
set, determinism under a seed, and strength against random play. (The rules policy itself:
``test_analysis.py``; the play-outs: ``test_playout.py``.)"""

from __future__ import annotations

import numpy as np
import pytest
from pokerzoo.agents.base import Bot
from pokerzoo.agents.nameless_poker import BOTS, MonteCarloBot, RulesBot, SearchBot, _batch_worlds
from pokerzoo.envs.core.cards import JOKER, parse_card
from pokerzoo.envs.nameless_poker import BID, LEAD_JOKER, PLAY, NamelessPokerGame, pack_order
from pokerzoo.envs.nameless_poker.analysis import DARK_BID

from tests.helpers import bot_decisions
from tests.nameless_poker.option_sets import OPTION_SETS


def play(game: NamelessPokerGame, bots: list[Bot], seed: int) -> tuple[list[int], list[int]]:
    """One episode; the totals and every action taken. Each action is checked against the mask
    before the engine plays it."""
    state = game.new_state(rng=np.random.default_rng(seed))
    for i, bot in enumerate(bots):
        bot.reset(seed * 4 + i)
    actions = []
    while not game.is_terminal(state):
        seat = game.current_player(state)
        mask = game.legal_mask(state, seat)
        action = bots[seat].act(game.observe(state, seat), mask)
        assert isinstance(action, int) and mask[action]
        actions.append(action)
        game.apply(state, seat, action)
    return state.totals, actions


# --- the rules bot -------------------------------------------------------------------------------
def test_the_rules_bot_bids_its_estimate_and_a_fixed_bid_in_the_dark() -> None:
    hands = ["2c 3c 4c", "As Ks Jk", "2d 3d 4d", "2h 3h 4h"]
    game = NamelessPokerGame(deals=[3])
    state = game.new_state(pack_order(hands, "5s"), rng=np.random.default_rng(0))
    bot = RulesBot(seed=0)
    assert bot.act(game.observe(state, 1), game.legal_mask(state, 1)) == BID + 3
    game = NamelessPokerGame(deals=[19])
    state = game.new_state(rng=np.random.default_rng(0))
    assert bot.act(game.observe(state, 1), game.legal_mask(state, 1)) == BID + DARK_BID


@pytest.mark.parametrize(("deal", "expected"), [(23, "2h"), (27, "Ah")])
def test_the_rules_bot_ducks_in_minimum_and_grabs_in_maximum(deal: int, expected: str) -> None:
    hands = [
        "2c 3c 4c 5c 6c 7c 8c 9c",
        "Ah 2h 3d 4d 5d 6d 7d 8d",
        "Kh 9d Td Jd Qd Kd Ad 2s",
        "Qh 3s 4s 5s 6s 7s 8s 9s",
    ]
    game = NamelessPokerGame(deals=[deal])
    state = game.new_state(pack_order(hands, "Tc"), rng=np.random.default_rng(0))
    action = RulesBot(seed=0).act(game.observe(state, 1), game.legal_mask(state, 1))
    assert action == PLAY + parse_card(expected)


# --- every bot -----------------------------------------------------------------------------------
def test_the_registry_and_the_protocol() -> None:
    assert set(BOTS) == {"random", "rules", "montecarlo", "search"}
    for name, cls in BOTS.items():
        bot = cls(seed=1, deals=[1], dealer_restriction=True, reward="relative", unused=3)
        assert isinstance(bot, Bot) and bot.name == name


def test_monte_carlo_options_are_checked() -> None:
    with pytest.raises(ValueError, match="bad samples 0"):
        MonteCarloBot(samples=0)
    with pytest.raises(ValueError, match="bad reward 'win'"):
        MonteCarloBot(reward="win")


def test_the_search_bot_is_the_monte_carlo_search_with_more_deals_and_bids() -> None:
    bot = SearchBot(seed=0)
    assert (bot.samples, bot.bid_window) == (48, 2)
    assert isinstance(bot, MonteCarloBot)
    with pytest.raises(ValueError, match="bad samples 0"):
        SearchBot(samples=0)


def test_a_large_decision_plays_out_on_arrays_to_the_same_action(loops_by: str) -> None:
    """A decision of at least _batch_worlds() worlds (any, with numba) is played out on arrays in
    :meth:`act`; the action is the one the one-by-one play-outs give on the same sampled
    deals."""
    observations, masks = bot_decisions("nameless_poker", "rules", 1)
    bot, twin = SearchBot(seed=3), SearchBot(seed=3)
    large = 0
    for observation, mask in zip(observations[:120], masks[:120], strict=True):
        plan = twin._plan(observation, mask)
        expected = plan if isinstance(plan, int) else plan.choose(plan.play_out_alone(), False)
        large += not isinstance(plan, int) and plan.size >= _batch_worlds()
        assert bot.act(observation, mask) == expected
    assert large > 0  # the arrays' path was taken


@pytest.mark.parametrize("options", OPTION_SETS, ids=[repr(o) for o in OPTION_SETS])
def test_bots_play_legal_moves_and_replay_under_a_seed(options: dict[str, object]) -> None:
    game = NamelessPokerGame(**options)  # type: ignore[arg-type]
    names = ["montecarlo", "rules", "random", "search"]
    runs = []
    for _ in range(2):
        bots = [BOTS[name](seed=0, **options) for name in names]
        runs.append(play(game, bots, seed=7))
    assert runs[0] == runs[1]
    if len(game.deals) < 30:  # more short episodes, every bot in every seat
        for seed in range(4):
            seats = names[seed:] + names[:seed]
            play(game, [BOTS[name](seed=seed, **options) for name in seats], seed)


def test_a_joker_lead_names_a_suit() -> None:
    hands = ["2c 3c", "Jk 4s", "2d 3d", "2h 3h"]
    game = NamelessPokerGame(deals=[2])
    state = game.new_state(pack_order(hands, "5s"), rng=np.random.default_rng(0))
    for seat in (1, 2, 3, 0):
        game.apply(state, seat, BID)
    mask = game.legal_mask(state, 1)
    for name, cls in BOTS.items():
        action = cls(seed=0).act(game.observe(state, 1), mask)
        assert mask[action], name
        assert action != PLAY + JOKER
    assert not mask[PLAY + JOKER] and mask[LEAD_JOKER:].all()


@pytest.mark.parametrize(("name", "games", "margin"), [("rules", 16, 250), ("montecarlo", 4, 250)])
def test_the_bots_beat_random_play(name: str, games: int, margin: float) -> None:
    """One bot against three random players over full games, seats rotated: its mean total
    beats the random players' mean by a clear margin (measured: about 470 points)."""
    game = NamelessPokerGame()
    own, others = [], []
    for seed in range(games):
        seat = seed % 4
        bots = [BOTS[name if s == seat else "random"](seed=seed) for s in range(4)]
        totals, _ = play(game, bots, seed)
        own.append(totals[seat])
        others.extend(t for s, t in enumerate(totals) if s != seat)
    assert np.mean(own) > np.mean(others) + margin
