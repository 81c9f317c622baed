"""Five-card stud bots: legal moves under every option set, seeded determinism, what each bot
is documented to do, and the stronger bots beating random by a clear margin."""

from __future__ import annotations

import numpy as np
import pytest
from pokerzoo.agents.base import Bot
from pokerzoo.agents.five_card_stud import BOTS, CallerBot, EquityBot, ManiacBot, RulesBot
from pokerzoo.envs.five_card_stud import (
    CALL,
    FOLD,
    RAISE,
    FiveCardStudGame,
    decode_observation,
    pack_order,
)
from pokerzoo.envs.five_card_stud.spec import SPEC

OPTION_SETS = {**SPEC.option_sets, "heads-up, 20 hands": {"hands": 20}}  # the registry's variants


def play(game: FiveCardStudGame, bots: list, seed: int) -> tuple[list[int], np.ndarray]:
    """One game, seat ``s`` played by ``bots[s]``: the actions and each seat's chip result."""
    state = game.new_state(rng=np.random.default_rng(seed))
    actions = []
    totals = np.zeros(game.num_players)
    while not game.is_terminal(state):
        seat = game.current_player(state)
        mask = game.legal_mask(state, seat)
        action = bots[seat].act(game.observe(state, seat), mask)
        assert mask[action], f"{bots[seat].name} played a masked action {action}"
        actions.append(action)
        payout = game.apply(state, seat, action)
        if payout is not None:
            totals += payout.rewards
    return actions, totals


def test_registry_and_protocol() -> None:
    assert list(BOTS) == ["random", "caller", "rules", "equity", "maniac"]
    for name, cls in BOTS.items():
        bot = cls(seed=0, num_players=7, hi_lo=True, low_qualifier=8, render_mode=None)
        assert isinstance(bot, Bot) and bot.name == name


@pytest.mark.parametrize("options", OPTION_SETS.values(), ids=OPTION_SETS.keys())
def test_every_bot_plays_only_legal_moves(options: dict) -> None:
    game = FiveCardStudGame(**options)
    names = list(BOTS)
    for seed in range(3):
        bots = [
            BOTS[names[(seat + seed) % len(names)]](seed=seed, **options)
            for seat in range(game.num_players)
        ]
        play(game, bots, seed)


@pytest.mark.parametrize("name", list(BOTS))
def test_a_seed_replays_the_same_moves(name: str) -> None:
    game = FiveCardStudGame(num_players=3, hands=4, hi_lo=True)
    bots = [BOTS[name](seed=seat) for seat in range(3)]
    first = play(game, bots, 5)[0]
    for seat, bot in enumerate(bots):
        bot.reset(seat)
    assert play(game, bots, 5)[0] == first
    assert play(game, [BOTS[name](seed=seat) for seat in range(3)], 5)[0] == first


def test_caller_never_folds_nor_raises_except_to_open() -> None:
    game = FiveCardStudGame(num_players=4)
    bots = [CallerBot(seed=s) for s in range(4)]
    state = game.new_state(rng=np.random.default_rng(0))
    while not game.is_terminal(state):
        seat = game.current_player(state)
        mask = game.legal_mask(state, seat)
        action = bots[seat].act(game.observe(state, seat), mask)
        assert action == CALL or (action == RAISE and not mask[CALL])
        game.apply(state, seat, action)
    assert state.results[0]["showdown"]


def test_maniac_never_folds_and_raises_whenever_it_may() -> None:
    game = FiveCardStudGame(num_players=3)
    bots = [ManiacBot(seed=s) for s in range(3)]
    state = game.new_state(rng=np.random.default_rng(1))
    raises = 0
    while not game.is_terminal(state):
        seat = game.current_player(state)
        mask = game.legal_mask(state, seat)
        action = bots[seat].act(game.observe(state, seat), mask)
        assert action == (RAISE if mask[RAISE] else CALL)
        raises += action == RAISE
        game.apply(state, seat, action)
    assert state.results[0]["showdown"] and raises > 3  # every round bet up to the cap


def view_of(hands: list[str], seat: int, rounds: int, **options: object):
    """The observation of ``seat`` after ``rounds`` betting rounds of bet-and-call."""
    game = FiveCardStudGame(num_players=len(hands), **options)
    state = game.new_state(pack_order(hands), rng=np.random.default_rng(0))
    while state.round < rounds:
        actor = game.current_player(state)
        game.apply(state, actor, CALL if game.legal_mask(state, actor)[CALL] else RAISE)
    while game.current_player(state) != seat:  # everyone before the seat checks
        game.apply(state, game.current_player(state), CALL)
    return game.observe(state, seat), game.legal_mask(state, seat)


READS_THE_BOARD = [
    (["9c 4d 5h", "Ks Kd 2c"], 0, 1, CALL, "beaten on board: checks"),
    (["Ac Ad 5h", "Ks Kd 2c"], 0, 1, RAISE, "a hidden pair of aces beats the kings: bets"),
    (["3c 7d 7h", "Ks 8d 2c"], 0, 1, RAISE, "a pair showing: bets"),
    (["3c As 4h", "9s 8d 2c"], 0, 1, RAISE, "an ace up that no card tops: bets"),
]


@pytest.mark.parametrize(
    ("hands", "seat", "rounds", "expected", "rule"),
    READS_THE_BOARD,
    ids=[case[-1] for case in READS_THE_BOARD],
)
def test_rules_bot_reads_the_board(
    hands: list[str], seat: int, rounds: int, expected: int, rule: str
) -> None:
    observation, mask = view_of(hands, seat, rounds)
    assert RulesBot(seed=0).act(observation, mask) == expected


def test_rules_bot_folds_to_a_bet_when_beaten_on_board() -> None:
    game = FiveCardStudGame()
    state = game.new_state(pack_order(["9c 4d 5h", "Ks Kd 2c"]), rng=np.random.default_rng(0))
    game.apply(state, 1, RAISE)  # the king opens
    game.apply(state, 0, CALL)
    game.apply(state, 1, RAISE)  # the pair of kings showing bets
    mask = game.legal_mask(state, 0)
    assert RulesBot(seed=0).act(game.observe(state, 0), mask) == FOLD


@pytest.mark.parametrize(("hi_lo", "expected"), [(False, FOLD), (True, CALL)])
def test_rules_bot_plays_a_low_draw_on_in_high_low(hi_lo: bool, expected: int) -> None:
    options = {"hi_lo": True, "low_qualifier": 8} if hi_lo else {}
    game = FiveCardStudGame(**options)
    state = game.new_state(pack_order(["Ac 2d 3h", "Ks Kd Kc"]), rng=np.random.default_rng(0))
    game.apply(state, 1, RAISE)
    game.apply(state, 0, CALL)
    game.apply(state, 1, RAISE)  # the pair of kings showing bets into seat 0's wheel draw
    assert RulesBot(seed=0).act(game.observe(state, 0), game.legal_mask(state, 0)) == expected


def test_equity_bot_values_the_low_half_in_high_low() -> None:
    # seat 0 holds a wheel draw (ace, two, three, four) against a pair of kings showing
    observation, _ = view_of(["Ac 2d 3h 4s", "9s Kd Kc 8h"], 0, 2, hi_lo=True, low_qualifier=8)
    view = decode_observation(observation)
    aware = EquityBot(seed=0, samples=2000).equity(view)
    high_only = EquityBot(seed=0, samples=2000, hi_lo_aware=False).equity(view)
    # one card to come: about 16 of the 44 unseen make an eight low that wins half the pot
    assert aware > high_only + 0.08


def test_equity_bot_knows_a_made_hand_wins() -> None:
    # the last round: four aces against a board that cannot beat them
    observation, mask = view_of(["Ac Ad Ah As 2c", "9s 8d 7c 3h 4h"], 0, 3)
    view = decode_observation(observation)
    assert EquityBot(seed=0).equity(view) == 1.0
    assert EquityBot(seed=0).act(observation, mask) == RAISE


def test_equity_bot_rejects_bad_samples() -> None:
    with pytest.raises(ValueError, match="bad samples 0"):
        EquityBot(samples=0)


def duplicate_result(name: str, opponent: str, deals: int, **options: object) -> float:
    """Mean chips per hand of ``name`` against ``opponent`` heads-up, each deal played twice
    with the seats swapped."""
    game = FiveCardStudGame(**options)
    total = 0.0
    for deal in range(deals):
        for seat in (0, 1):
            bots = [BOTS[opponent](seed=deal), BOTS[opponent](seed=deal)]
            bots[seat] = BOTS[name](seed=deal)
            total += play(game, bots, deal)[1][seat]
    return total / (2 * deals)


@pytest.mark.parametrize(
    ("name", "opponent", "options", "margin"),
    [
        ("equity", "random", {}, 0.8),
        ("rules", "random", {}, 0.3),
        ("equity", "random", {"hi_lo": True, "low_qualifier": 8}, 0.8),
        ("rules", "random", {"hi_lo": True}, 0.5),
        ("equity", "caller", {}, 0.8),
    ],
)
def test_stronger_bots_beat_weaker_ones(name: str, opponent: str, options: dict, margin: float):
    # measured over 200 duplicate deals: about 4 standard errors above each margin
    assert duplicate_result(name, opponent, 200, **options) > margin
