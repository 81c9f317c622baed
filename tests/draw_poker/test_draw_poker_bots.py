"""Draw poker bots: legal under every option set, deterministic under a seed, the draws each
one makes, and the stronger bots beating random heads-up by a clear margin."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from pokerzoo.agents.base import Bot
from pokerzoo.agents.draw_poker import (
    BOTS,
    BluffBot,
    EquityBot,
    ManiacBot,
    RulesBot,
    caller_keep,
    fit_discard,
    rules_discard,
)
from pokerzoo.envs.core.cards import JOKER, Deck, parse_cards
from pokerzoo.envs.draw_poker import (
    CALL,
    FOLD,
    NUM_ACTIONS,
    PHASE_BET_AFTER,
    PHASE_DRAW,
    RAISE,
    STAND_PAT,
    DrawPokerGame,
    decode_observation,
    discard_action,
)
from pokerzoo.envs.draw_poker.analysis import caller_draw_many, caller_keep_many

from tests.draw_poker.option_sets import OPTION_SETS

FAST = {"samples": 64}  # the equity bot's futures, few for speed in these tests


def make_bots(names: list[str], options: dict[str, Any], seed: int) -> list[Bot]:
    return [BOTS[name](seed=seed + i, **options, **FAST) for i, name in enumerate(names)]


def play(game: DrawPokerGame, bots: list[Bot], rng: np.random.Generator) -> list[tuple]:
    """One game; the (seat, phase, action) of every decision."""
    state = game.new_state(rng=rng)
    record = []
    while not game.is_terminal(state):
        seat = game.current_player(state)
        mask = game.legal_mask(state, seat)
        action = bots[seat].act(game.observe(state, seat), mask)
        assert isinstance(action, int) and 0 <= action < NUM_ACTIONS and mask[action] == 1
        record.append((seat, state.phase, action))
        game.apply(state, seat, action)
    return record


def test_the_bots_and_their_names() -> None:
    assert list(BOTS) == ["random", "caller", "rules", "equity", "maniac", "bluffer"]
    for name, cls in BOTS.items():
        bot = cls(seed=0, num_players=4, deuces_wild=True, decks=2, jokers=1, hands=3)
        assert bot.name == name and isinstance(bot, Bot)


@pytest.mark.parametrize("options", OPTION_SETS.values(), ids=OPTION_SETS.keys())
def test_every_bot_plays_legal_moves(options: dict[str, Any]) -> None:
    game = DrawPokerGame(**options)
    names = [list(BOTS)[i % len(BOTS)] for i in range(game.num_players)]
    rng = np.random.default_rng(1)
    for game_index in range(3 if game.hands == 1 else 1):
        bots = make_bots(names[game_index:] + names[:game_index], options, seed=game_index)
        record = play(game, bots, rng)
        for seat, phase, action in record:
            if bots[seat].name == "caller" and phase != PHASE_DRAW:
                assert action == CALL  # never folds, never raises
            if bots[seat].name == "maniac" and phase != PHASE_DRAW:
                assert action in (RAISE, CALL)  # never folds


@pytest.mark.parametrize("name", sorted(BOTS))
def test_a_seed_replays_the_same_moves(name: str) -> None:
    game = DrawPokerGame(num_players=3, jokers=1)

    def moves(seed: int) -> list[tuple]:
        bots = [BOTS[name](seed=seed + seat, jokers=1, **FAST) for seat in range(3)]
        return play(game, bots, np.random.default_rng(3))

    assert moves(5) == moves(5)
    bots = [BOTS[name](seed=99, jokers=1, **FAST) for _ in range(3)]
    play(game, bots, np.random.default_rng(3))
    for seat, bot in enumerate(bots):
        bot.reset(5 + seat)
    assert play(game, bots, np.random.default_rng(3)) == moves(5)


# (hand, deuces_wild, cards the caller keeps)
CALLER_KEEPS = [
    ("As Ks Qs Js 9s", False, "As Ks Qs Js 9s"),  # a flush: stand pat
    ("9s 9h 5d 4c 2s", False, "9s 9h"),
    ("9s 9h 5d 5c 2s", False, "9s 9h 5d 5c"),
    ("Kd Jc 9s 5h 3d", False, "Kd"),
    ("Jk Jc 9s 5h 3d", False, "Jk Jc"),  # with no natural pair, also the highest natural card
    ("2h Jc 9s 5h 3d", True, "2h Jc"),
    ("2h Jc 9s 5h 3d", False, "Jc"),
]


@pytest.mark.parametrize(("hand", "wild", "kept"), CALLER_KEEPS)
def test_the_callers_draw(hand: str, wild: bool, kept: str) -> None:
    cards = sorted(parse_cards(hand), reverse=True)
    keep = caller_keep(cards, wild)
    assert sorted(cards[i] for i in keep) == sorted(parse_cards(kept))


@pytest.mark.parametrize("deuces_wild", [False, True])
def test_the_callers_draw_on_many_hands_at_once_is_the_same_rule(
    deuces_wild: bool, loops_by: str
) -> None:
    """The vectorised rule the equity bot imagines its opponents by keeps what the caller
    keeps, and draws the replacements in order into the thrown cards' places (numpy's way and
    the compiled loops')."""
    rng = np.random.default_rng(3)
    pack = Deck("standard", jokers=2, decks=2).pack()
    hands = np.stack([rng.choice(pack, 5, replace=False) for _ in range(400)])
    keep, _ = caller_keep_many(hands, deuces_wild)
    for row, kept in zip(hands.tolist(), keep, strict=True):
        assert tuple(np.flatnonzero(kept).tolist()) == caller_keep(row, deuces_wild)
    replacements = np.full_like(hands, JOKER)
    final = caller_draw_many(hands, replacements, keep)
    assert np.array_equal(final, np.where(keep, hands, JOKER))
    # the k-th card thrown takes the k-th replacement, from a strided view too
    wide = rng.integers(0, 52, (len(hands), 10))
    final = caller_draw_many(hands, wide[:, ::2], keep)
    for row, kept, drawn, out in zip(hands, keep, wide[:, ::2], final, strict=True):
        thrown = np.flatnonzero(~kept)
        expected = row.copy()
        expected[thrown] = drawn[: thrown.size]
        assert np.array_equal(out, expected)


def test_the_callers_draw_needs_a_replacement_for_every_card_thrown(loops_by: str) -> None:
    hands = np.array([parse_cards("2h 5c 9s Jd Kc")])
    keep = np.array([[False, False, False, True, True]])
    assert caller_draw_many(hands, np.array([[0, 1, 2]]), keep).tolist() == [
        [0, 1, 2, *hands[0, 3:]]
    ]
    with pytest.raises(ValueError, match="a hand throws 3 cards but has 2 replacements"):
        caller_draw_many(hands, np.array([[0, 1]]), keep)
    none_thrown = np.ones((1, 5), dtype=bool)
    assert np.array_equal(caller_draw_many(hands, np.empty((1, 0), dtype=int), none_thrown), hands)


# (hand, deuces_wild, cards the rules bot discards, the draw)
RULES_DRAWS = [
    ("Ks Qs Js Ts 9h", False, "", "a straight stands pat"),
    ("Kh Th 7h 4h 2h", False, "", "a flush stands pat"),
    ("8s 8h 8d 8c 2s", False, "", "four of a kind stands pat"),
    ("Qs Qh Qd 7c 2s", False, "7c 2s", "three of a kind draws two"),
    ("Jk Qh Qd 7c 4s", False, "7c 4s", "a joker makes three of a kind"),
    ("Qs Qh 7d 7c 2s", False, "2s", "two pair draws one"),
    ("Ks 9s 6s 3s Qd", False, "Qd", "four to a flush draws one"),
    ("Ks 9s 6s 3s 3d", False, "3d", "four to a flush beats a small pair"),
    ("Js Jd 6s 3s 8s", False, "6s 3s 8s", "a pair of jacks beats four to a flush"),
    ("9c 8d 7h 6s 2c", False, "2c", "an open-ended straight draws one"),
    ("Ac Kd Qh Js 3c", False, "Qh Js 3c", "A-K-Q-J is not open-ended: keep ace-king"),
    ("Ac Kd 8h 6s 3c", False, "8h 6s 3c", "ace-king keeps both"),
    ("5s 5h Ad 9c 3s", False, "9c 3s", "a small pair keeps an ace kicker"),
    ("As Ah Kd 9c 3s", False, "Kd 9c 3s", "a pair of aces draws three"),
    ("5s 5h Kd 9c 3s", False, "Kd 9c 3s", "a pair draws three"),
    ("2s Kh 9d 6c 4s", True, "9d 6c 4s", "a wild deuce pairs the king"),
    ("Qs Jh 8d 6c 3s", False, "Jh 8d 6c 3s", "queen high keeps the queen"),
    ("Js 9h 7d 5c 3s", False, "Js 9h 7d 5c 3s", "jack high draws five"),
]


@pytest.mark.parametrize(
    ("hand", "wild", "discarded", "rule"), RULES_DRAWS, ids=[r[3] for r in RULES_DRAWS]
)
def test_the_rules_bots_draws(hand: str, wild: bool, discarded: str, rule: str) -> None:
    cards = sorted(parse_cards(hand), reverse=True)
    positions = rules_discard(cards, wild)
    assert sorted(cards[i] for i in positions) == sorted(parse_cards(discarded))


def test_a_short_stock_shrinks_a_discard_keeping_the_best_cards() -> None:
    mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
    mask[[discard_action(d) for d in ([], [3], [4], [3, 4], [2, 4], [2, 3])]] = 1
    assert fit_discard([2, 3, 4], mask) == discard_action([3, 4])
    assert fit_discard([4], mask) == discard_action([4])
    assert fit_discard([0, 1, 2, 3, 4], mask) == discard_action([3, 4])
    assert fit_discard([], mask) == STAND_PAT


def bot_view(hands: list[str], steps: list[tuple[int, int]]) -> tuple:
    """A heads-up game with fixed hands, played to the given point: (game, state)."""
    game = DrawPokerGame()
    state = game.new_state(game.pack_for(hands), rng=np.random.default_rng(0))
    for seat, action in steps:
        game.apply(state, seat, action)
    return game, state


@pytest.mark.parametrize("cls", [RulesBot, EquityBot])
def test_strong_bots_raise_a_royal_flush_and_stand_pat(cls: type) -> None:
    game, state = bot_view(["As Ks Qs Js Ts", "2h 3h 4d 7c 9c"], [(1, RAISE)])
    bot = cls(seed=0)
    assert bot.act(game.observe(state, 0), game.legal_mask(state, 0)) == RAISE
    game.apply(state, 0, CALL)
    game.apply(state, 1, discard_action([0, 1]))
    assert bot.act(game.observe(state, 0), game.legal_mask(state, 0)) == STAND_PAT


@pytest.mark.parametrize("cls", [RulesBot, EquityBot, BluffBot])
def test_strong_bots_fold_nothing_to_a_bet_after_the_draw(cls: type) -> None:
    steps = [(1, CALL), (0, CALL), (1, STAND_PAT), (0, STAND_PAT), (1, RAISE)]
    game, state = bot_view(["9d 7c 5h 4s 2d", "As Ah Ad Kc Ks"], steps)
    bot = cls(seed=0)
    assert bot.act(game.observe(state, 0), game.legal_mask(state, 0)) == FOLD


@pytest.mark.parametrize(
    ("hands", "kept"),
    [
        (["9d 7c 5h 4s 2d", "As Ah Ad Kc Ks"], "9d"),  # nothing: keeps its highest card
        (["Qs Qh 7d 4c 2s", "As Kh 9d 6c 4s"], "Qs Qh"),  # a pair: keeps it
        (["9c 8d 7s 6h 5c", "Ks Kh 4d 3s 2h"], "9c 8d 7s 6h 5c"),  # a straight: stands pat
    ],
)
def test_the_maniac_raises_whenever_it_may_never_folds_and_draws_as_the_caller(
    hands: list[str], kept: str
) -> None:
    """Heads-up, seat 0 the maniac with a fixed hand, the other seat raising whenever it may and
    standing pat: the maniac raises whenever it may (else calls), whatever it holds, throws
    what the caller throws, and the hand is shown down."""
    game, state = bot_view(hands, [])
    maniac, caller = ManiacBot(seed=0), BOTS["caller"](seed=0)
    raises = 0
    while not game.is_terminal(state):
        seat = game.current_player(state)
        mask = game.legal_mask(state, seat)
        if seat == 1:
            action = STAND_PAT if state.phase == PHASE_DRAW else RAISE if mask[RAISE] else CALL
        else:
            observation = game.observe(state, 0)
            action = maniac.act(observation, mask)
            if state.phase == PHASE_DRAW:
                assert action == caller.act(observation, mask)
            else:
                assert action == (RAISE if mask[RAISE] else CALL)
                raises += action == RAISE
        game.apply(state, seat, action)
    shown = parse_cards(state.last_hand["shown"][0])  # a showdown: nobody folded
    assert set(parse_cards(kept)) <= set(shown) and raises >= 2  # a raise each betting round


PRE_DRAW_CHECKS = [(1, CALL), (0, CALL), (1, STAND_PAT), (0, STAND_PAT)]


# (the bluffer's hand, the other's, the bluffer's seat, the moves after the draw before its turn,
# what the rules bot does there): heads-up, seat 1 acts first in every round
BLUFFS = [
    ("9d 7c 5h 4s 2d", "As Ah Ad Kc Ks", 0, [(1, CALL)], CALL),  # nothing, checked to: bets
    ("9d 7c 5h 4s 2d", "As Ah Ad Kc Ks", 1, [], CALL),  # nothing, first to act: bets
    ("5d 5c Kh 9s 2d", "As Ah Ad Kc Ks", 0, [(1, CALL)], CALL),  # a small pair: bets
    ("Qd Qc Qh 9s 2d", "As Ah Ad Kc Ks", 1, [], RAISE),  # trips: bets, as the rules bot does
]


@pytest.mark.parametrize(("hand", "other", "seat", "after", "rules"), BLUFFS)
def test_the_bluffer_bets_after_the_draw_whenever_nobody_has_bet(
    hand: str, other: str, seat: int, after: list[tuple[int, int]], rules: int
) -> None:
    hands = [hand, other] if seat == 0 else [other, hand]
    game, state = bot_view(hands, PRE_DRAW_CHECKS + after)
    assert game.current_player(state) == seat and state.phase != PHASE_DRAW
    observation, mask = game.observe(state, seat), game.legal_mask(state, seat)
    assert BluffBot(seed=0).act(observation, mask) == RAISE
    assert RulesBot(seed=0).act(observation, mask) == rules


def test_the_bluffer_folds_its_bluff_to_a_raise() -> None:
    game, state = bot_view(["9d 7c 5h 4s 2d", "As Ah Ad Kc Ks"], PRE_DRAW_CHECKS + [(1, CALL)])
    bluffer = BluffBot(seed=0)
    game.apply(state, 0, bluffer.act(game.observe(state, 0), game.legal_mask(state, 0)))
    game.apply(state, 1, RAISE)
    assert bluffer.act(game.observe(state, 0), game.legal_mask(state, 0)) == FOLD


def test_the_bluffer_is_the_rules_bot_but_where_it_bluffs() -> None:
    """Every decision of the bluffer over games against the maniac and the random bot is the
    rules bot's, except its bets after the draw with no bet to call."""
    game = DrawPokerGame()
    rng = np.random.default_rng(7)
    bluffs = 0
    for index in range(60):
        other = BOTS["maniac" if index % 2 else "random"](seed=index)
        bots = [BluffBot(seed=0), other] if index % 4 < 2 else [other, BluffBot(seed=0)]
        state = game.new_state(rng=rng)
        while not game.is_terminal(state):
            seat = game.current_player(state)
            observation, mask = game.observe(state, seat), game.legal_mask(state, seat)
            action = bots[seat].act(observation, mask)
            if isinstance(bots[seat], BluffBot):
                rules = RulesBot(seed=0).act(observation, mask)
                if action != rules:
                    view = decode_observation(observation)
                    assert view.phase == PHASE_BET_AFTER and view.to_call == 0
                    assert action == RAISE
                    bluffs += 1
            game.apply(state, seat, action)
    assert bluffs >= 5


def test_the_equity_bot_keeps_its_trips() -> None:
    game, state = bot_view(["Qs Qh Qd 7c 2s", "As Kh 9d 6c 4s"], [(1, CALL), (0, CALL)])
    game.apply(state, 1, discard_action([2, 3, 4]))
    action = EquityBot(seed=0).act(game.observe(state, 0), game.legal_mask(state, 0))
    hand = state.hands[0]
    kickers = [hand.index(c) for c in parse_cards("7c 2s")]
    # the three queens stay (which kickers go is close to a coin flip against one player)
    assert action in [discard_action(d) for d in ([], kickers[:1], kickers[1:], kickers)]


def duplicate_match(strong: str, deals: int, options: dict[str, Any]) -> np.ndarray:
    """Chips per hand of ``strong`` against ``random``, each deal played with seats swapped."""
    game = DrawPokerGame()
    results = np.zeros(deals)
    for deal in range(deals):
        for swap in (False, True):
            bots = [BOTS[strong](seed=deal, **options), BOTS["random"](seed=deal + 1)]
            if swap:
                bots.reverse()
            state = game.new_state(rng=np.random.default_rng(deal))
            while not game.is_terminal(state):
                seat = game.current_player(state)
                action = bots[seat].act(game.observe(state, seat), game.legal_mask(state, seat))
                payout = game.apply(state, seat, action)
                if payout is not None:
                    results[deal] += payout.rewards[int(swap)] / 2
    return results


@pytest.mark.parametrize(
    ("strong", "deals", "options"),
    [("rules", 300, {}), ("caller", 300, {}), ("equity", 80, {"samples": 200})],
)
def test_the_stronger_bots_beat_random(strong: str, deals: int, options: dict) -> None:
    results = duplicate_match(strong, deals, options)
    mean, half_width = results.mean(), 1.96 * results.std(ddof=1) / np.sqrt(deals)
    assert mean > 0.5 and mean - half_width > 0, (mean, half_width)


def test_the_equity_bot_s_shuffles_are_the_same_cards_compiled(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The equity bot's partial shuffles of many decks (its futures, draws and pool hands):
    numba's loop deals the cards numpy's steps deal, every deck, row and step, for decks of
    different sizes, steps and rows in one call."""
    from pokerzoo.agents import draw_poker
    from pokerzoo.envs.core import jit

    if not jit.available():
        pytest.skip("numba is not installed")
    rng = np.random.default_rng(0)
    decks = []
    for size in (5, 20, 47, 53, 104):
        unseen = np.sort(rng.choice(106, size=size, replace=False) % 53)  # two decks
        for count in {1, min(size, 10), size}:
            for rows in (1, 7, 600):
                picks = np.stack([rng.integers(i, size, rows) for i in range(count)])
                decks.append((unseen, picks))
    compiled = draw_poker._shuffle(decks)
    monkeypatch.setattr(jit, "AVAILABLE", False)
    want = draw_poker._shuffle(decks)
    assert len(compiled) == len(want) == len(decks)
    for (_, picks), got, expected in zip(decks, compiled, want, strict=True):
        assert got.shape == (picks.shape[1], len(picks)) and got.dtype == np.int64
        assert np.array_equal(got, expected)
