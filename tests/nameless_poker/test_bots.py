"""Bots of poker without a name: the rules policy on hand-made tricks, legal play under every
option set, determinism under a seed, and strength against random play."""

from __future__ import annotations

import numpy as np
import pytest
from pokerzoo.agents.base import Bot
from pokerzoo.agents.nameless_poker import (
    BOTS,
    DARK_BID,
    MonteCarloBot,
    RulesBot,
    World,
    expected_tricks,
    play_out,
    reference_play_out,
    rules_bid,
    rules_play,
)
from pokerzoo.envs import nameless_poker_v0
from pokerzoo.envs.core.cards import JOKER, parse_card, parse_cards
from pokerzoo.envs.nameless_poker import (
    BID,
    LEAD_JOKER,
    PLAY,
    NamelessPokerGame,
    decode_observation,
    pack_order,
)
from pokerzoo.envs.nameless_poker.deals import (
    DEAL_KINDS,
    NO_TRUMP,
    follow_options,
)

from tests.helpers import benchmark_script
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


# --- the rules policy ----------------------------------------------------------------------------
# (case, hand, trick, trump, wants the trick, the card it plays)
PLAYS = [
    ("last, wanting: the cheapest winner", "Ah Qh 3h", "9h Jh Th", 0, True, "Qh"),
    ("last, shedding: the highest loser", "Ah Qh 3h", "9h Jh Th", 0, False, "3h"),
    ("shedding: the highest card that still loses", "Ah Th 3h", "9h Jh", 0, False, "Th"),
    ("wanting, no winner: the cheapest card", "Qh 3h", "9h Kh", 0, True, "3h"),
    ("void, wanting, not last: the highest trump", "2s Ks 9d", "9h Kh", 0, True, "Ks"),
    ("void, wanting, last: the lowest trump", "2s Ks 9d", "9h Kh 3h", 0, True, "2s"),
    ("no trump, void, wanting, no winner: the cheapest", "2s 9d", "9h Kh", -1, True, "2s"),
    ("no trump, void, shedding: the highest loser", "2s 9d", "9h Kh", -1, False, "9d"),
    ("not last, wanting: a natural winner before the joker", "Ks Jk 2d", "9h", 0, True, "Ks"),
    ("everything wins, not last: the weakest", "As Jk", "9h", 0, False, "As"),
    ("leading, shedding: the weakest natural", "Ah 2c 3s", "", 0, False, "2c"),
    ("leading, wanting: an ace", "Ah 2c 3s", "", 0, True, "Ah"),
]


@pytest.mark.parametrize(
    ("case", "hand", "trick", "trump", "want", "card"), PLAYS, ids=[p[0] for p in PLAYS]
)
def test_rules_play(case: str, hand: str, trick: str, trump: int, want: bool, card: str) -> None:
    cards, played = sorted(parse_cards(hand)), parse_cards(trick)
    options = follow_options(cards, played, trump, -1)
    assert rules_play(cards, options, played, trump, want, trumps_out=5) == (parse_card(card), -1)


def test_a_joker_lead_pulls_trumps_when_it_holds_trumps() -> None:
    hand = sorted(parse_cards("Jk Ks 4s 9d"))
    assert rules_play(hand, hand, [], 0, True, trumps_out=6) == (JOKER, 0)
    assert rules_play(hand, hand, [], 0, True, trumps_out=0)[0] != JOKER  # nothing to pull
    assert rules_play(hand, hand, [], 0, False, trumps_out=6)[0] != JOKER  # not when shedding


@pytest.mark.parametrize(
    ("hand", "trump", "low", "high"),
    [
        ("2c", 0, 0.0, 0.2),
        ("Jk", 0, 0.9, 1.0),
        ("As Ks Qs Jk", 0, 3.0, 4.0),  # trump honours and a joker
        ("Ah Kh 2d 3d", 0, 1.2, 1.4),  # a side ace and its guarded king
        ("As Ks 3s 2s 9h 8h 7h 6h", 0, 2.5, 3.5),  # two voids to ruff with spare trumps
    ],
)
def test_expected_tricks(hand: str, trump: int, low: float, high: float) -> None:
    assert low <= expected_tricks(parse_cards(hand), trump) <= high


def test_rules_bid_takes_the_nearest_legal_bid() -> None:
    assert rules_bid(2.4, [0, 1, 2, 3]) == 2
    assert rules_bid(2.4, [0, 1, 3]) == 3  # the dealer restriction took 2
    assert rules_bid(2.0, [0, 1, 3]) == 1  # a tie goes to the lower bid


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
    assert set(BOTS) == {"random", "rules", "montecarlo"}
    for name, cls in BOTS.items():
        bot = cls(seed=1, deals=[1], dealer_restriction=True, reward="relative", unused=3)
        assert isinstance(bot, Bot) and bot.name == name


def test_monte_carlo_options_are_checked() -> None:
    with pytest.raises(ValueError, match="bad samples 0"):
        MonteCarloBot(samples=0)
    with pytest.raises(ValueError, match="bad reward 'win'"):
        MonteCarloBot(reward="win")


@pytest.mark.parametrize("options", OPTION_SETS, ids=[repr(o) for o in OPTION_SETS])
def test_bots_play_legal_moves_and_replay_under_a_seed(options: dict[str, object]) -> None:
    game = NamelessPokerGame(**options)  # type: ignore[arg-type]
    names = ["montecarlo", "rules", "random", "rules"]
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


@pytest.mark.parametrize("deal", [9, 19, 23, 27])  # nine cards a seat; dark; minimum; maximum
def test_play_out_plays_the_rules_policy_card_for_card(deal: int) -> None:
    """From every decision of a deal that four rules bots play, the Monte-Carlo play-out with
    every hand known ends with the tricks the bots' own game ends with (its shortcuts for forced
    cards and leads play what rules_play would)."""
    for seed in range(10):
        env = nameless_poker_v0.env(deals=[deal])
        env.reset(seed=seed)
        bot = RulesBot()
        seats = env.possible_agents
        starts = []
        while env.agents:
            agent = env.agent_selection
            seen, _, done, cut, info = env.last()
            if done or cut:
                final = info["tricks"]
                env.step(None)
                continue
            view = decode_observation(seen["observation"])
            if not view.bidding:
                me = seats.index(agent)
                views = [
                    decode_observation(env.observe(seats[(me + r) % 4])["observation"])
                    for r in range(4)
                ]
                hands = [list(v.hand) for v in views]
                turned = int(view.turned_card != JOKER and view.turned_card & 3 == view.trump)
                kind = DEAL_KINDS.index(view.kind)
                starts.append((me, World.of_view(view, hands), view.trump, kind, turned))
            env.step(bot.act(seen["observation"], seen["action_mask"]))
        assert len(starts) >= 4
        for me, world, trump, kind, turned in starts:
            play_out(world, trump, kind, turned)
            assert world.tricks == [final[(me + r) % 4] for r in range(4)]


def _state(world: World) -> tuple[object, ...]:
    return (
        world.hands,
        world.trick,
        world.leader,
        world.called,
        world.tricks,
        world.bids,
        world.trumps_played,
    )


def test_play_out_matches_the_policy_played_card_by_card() -> None:
    """From 2,000 positions (benchmarks/nameless_playout.py's: hands of 1-8 cards from the
    54-card pack, with jokers, every trump and kind of deal, part-played at random) and with
    every intent of seat 0, the bit-mask play_out ends in exactly the state the policy's own
    functions reach."""
    positions = benchmark_script("nameless_playout").positions(2000, seed=0)
    assert {trump for _, trump, _, _ in positions} == {0, 1, 2, 3, NO_TRUMP}
    for world, trump, kind, turned in positions:
        for wants in (None, True, False):
            fast, plain = world.copy(), world.copy()
            play_out(fast, trump, kind, turned, observer_wants=wants)
            reference_play_out(plain, trump, kind, turned, observer_wants=wants)
            assert _state(fast) == _state(plain)
            assert not any(fast.hands) and not fast.trick


def test_play_out_leads_a_joker_to_pull_trumps_as_the_rules_policy_does() -> None:
    # Hearts trump (a heart turned). Seat 0 wants all three tricks, holding a joker, the spade
    # ace and a low trump, and trumps are still out: it leads the joker calling hearts, which
    # draws seat 1's only trump (the ace), then takes the spade and the heart tricks. Leading
    # the spade ace first would let seat 1, void in spades, ruff it.
    hearts = parse_card("2h") & 3
    hands = [sorted(parse_cards(h)) for h in ("Jk As 2h", "Ah 4d 5d", "3s 4s 6d", "5s 7c 8c")]
    assert rules_play(hands[0], hands[0], [], hearts, True, 11) == (JOKER, hearts)
    world = World([list(h) for h in hands], [], 0, NO_TRUMP, [0] * 4, [3, 0, 0, 0], 0)
    play_out(world, hearts, DEAL_KINDS.index("regular"), 1)
    assert world.tricks == [3, 0, 0, 0]
