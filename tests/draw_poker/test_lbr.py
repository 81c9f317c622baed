"""The local best response on heads-up draw poker (``training/lbr.py``, the sampled range of
``envs/draw_poker/hidden.py``): the range's bookkeeping on fixed decks, the exploits of
deliberately exploitable policies, never above the exact best response where that can be
computed (the last betting round, the opponent's hand one of a few known ones), and
:func:`play_lbr` on the game's bots."""

from __future__ import annotations

import copy
import functools
import math
from typing import Any

import numpy as np
import pytest
from pokerzoo.envs.core.betting import CALL, FOLD, RAISE
from pokerzoo.envs.core.cards import NUM_CARD_IDS, parse_cards
from pokerzoo.envs.core.hands import Category, categories
from pokerzoo.envs.core.registry import get_game
from pokerzoo.envs.draw_poker import (
    HAND_SIZE,
    PHASE_BET_AFTER,
    PHASE_DRAW,
    STAND_PAT,
    DrawPokerGame,
    DrawPokerState,
)
from pokerzoo.envs.draw_poker.hidden import DrawHiddenCards, DrawRange
from pokerzoo.envs.draw_poker.observation import LAYOUT
from pokerzoo.training.lbr import (
    ENDINGS,
    FLOOR,
    Decision,
    LBRResult,
    LocalBestResponse,
    _ending,
    bot_policy,
    one_hot,
    play_lbr,
)

from tests.helpers import batched_player

SPEC = get_game("draw_poker")
_CARDS = LAYOUT.start("cards")
_ACES = np.arange(48, 52)
_SMALL = functools.partial(DrawHiddenCards, particles=64)
"""Fewer particles than the game's default, for speed."""


def _hands(observations: np.ndarray) -> np.ndarray:
    """``(K, 5)``: the cards each observation shows, highest id first."""
    slots = observations[:, _CARDS : _CARDS + HAND_SIZE * NUM_CARD_IDS]
    return slots.reshape(len(observations), HAND_SIZE, NUM_CARD_IDS).argmax(axis=2)


def _betting(masks: np.ndarray, wanted: np.ndarray) -> np.ndarray:
    """``wanted`` where legal, else check/call."""
    return np.where(masks[np.arange(len(masks)), wanted], wanted, CALL)


def folds_to_bets(observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """Folds whenever it faces a bet, otherwise checks; stands pat."""
    drawing = masks[:, STAND_PAT].astype(bool)
    return np.where(drawing, STAND_PAT, np.where(masks[:, FOLD], FOLD, CALL))


def calling_station(observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """Checks or calls every bet; stands pat."""
    return np.where(masks[:, STAND_PAT].astype(bool), STAND_PAT, CALL)


def ace_policy(observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """Bets or raises holding an ace (checks or calls otherwise); throws every card but its
    aces."""
    hands = _hands(observations)
    aces = np.isin(hands, _ACES)
    bits = (~aces * (1 << np.arange(HAND_SIZE))).sum(axis=1)
    wanted = np.where(aces.any(axis=1), RAISE, CALL)
    return np.where(masks[:, STAND_PAT].astype(bool), STAND_PAT + bits, _betting(masks, wanted))


def river_policy(observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """Passive and standing pat until the last betting; there, by its hand: two pair or better
    bets or raises, a pair checks or calls, less folds to a bet (checks otherwise)."""
    drawing = masks[:, STAND_PAT].astype(bool)
    category = categories(_hands(observations), "draw")
    last = observations[:, LAYOUT.start("phase") + PHASE_BET_AFTER] == 1
    wanted = np.full(len(observations), CALL)
    wanted[last & (category >= Category.TWO_PAIR)] = RAISE
    wanted[last & (category < Category.PAIR)] = FOLD
    return np.where(drawing, STAND_PAT, _betting(masks, wanted))


def _deal(game: DrawPokerGame, lbr: int, mine: str, theirs: str, stock: str = "") -> Any:
    """A hand dealt by seat 0 with LBR (seat ``lbr``) holding ``mine``, the other ``theirs``."""
    hands = [theirs, theirs]
    hands[lbr] = mine
    return game.new_state(game.pack_for(hands, stock), rng=np.random.default_rng(0))


def _held(hands: np.ndarray) -> np.ndarray:
    """``(P, 53)``: copies of each card id in each hand."""
    counts = np.zeros((len(hands), NUM_CARD_IDS), dtype=np.int64)
    np.add.at(counts, (np.arange(len(hands))[:, None], hands), 1)
    return counts


# --- (1) the range's bookkeeping -------------------------------------------------------------
LBR_HAND = "Kc Qd 9h 6s 3c"


@pytest.mark.parametrize(
    ("theirs", "bets", "throws"),
    [
        ("As Kd 7h 5c 2s", True, 4),
        ("Kd Qh 7h 5c 2s", False, 5),
        ("As Ah 7h 5c 2s", True, 3),
    ],
)
def test_the_range_weighs_each_particle_by_the_policys_actions_and_draw(
    theirs: str, bets: bool, throws: int
) -> None:
    game = DrawPokerGame()
    state = _deal(game, 0, LBR_HAND, theirs)  # seat 1 bets first and draws first
    view = DrawHiddenCards(game, particles=128)
    history: list[Decision] = []

    def opponent_acts() -> int:
        observation, mask = game.observe(state, 1), game.legal_mask(state, 1).astype(bool)
        action = int(ace_policy(observation[None], mask[None])[0])
        history.append(Decision(observation, mask, action, view.hidden(state, 1)))
        game.transition(state, 1, action)
        return action

    assert (opponent_acts() == RAISE) == bets
    hand_range = view.new_range(
        game, state, 0, one_hot(ace_policy), np.random.default_rng(1), FLOOR
    )
    holdings, weights = hand_range.weigh(state, history)
    has_ace = np.isin(holdings, _ACES).any(axis=1)
    expected = np.where(has_ace == bets, 1.0, FLOOR)
    np.testing.assert_allclose(weights, expected / expected.sum())
    assert 0 < has_ace.sum() < len(holdings)  # both kinds sampled: the test tests something

    game.transition(state, 0, CALL)
    assert state.phase == PHASE_DRAW
    assert HAND_SIZE - np.isin(state.hands[1], _ACES).sum() == throws
    opponent_acts()
    holdings, weights = hand_range.weigh(state, history)
    kept = np.isin(holdings, _ACES).sum(axis=1)
    expected *= np.where(HAND_SIZE - kept == throws, 1.0, FLOOR)
    np.testing.assert_allclose(weights, expected / expected.sum())

    before = list(state.hands[0])
    mask = game.legal_mask(state, 0)
    game.transition(state, 0, hand_range.choose(state, mask, weights))
    assert state.phase == PHASE_BET_AFTER
    opponent_acts()
    holdings, weights = hand_range.weigh(state, history)
    # LBR has seen its cards before and after its draw, and no other card
    seen = set(before) | set(state.hands[0])
    unseen = hand_range._unseen()
    assert sorted(unseen.tolist()) == sorted(set(range(52)) - seen)
    assert set(state.hands[1]) <= set(unseen.tolist())
    for particles in (hand_range.pre, holdings):
        assert not np.isin(particles, list(seen)).any()
        assert (_held(particles) <= 1).all()
    # the particles after the draw keep the cards the policy keeps (their aces), no card twice
    assert (
        np.isin(holdings, _ACES).sum(axis=1) >= np.isin(hand_range.pre, _ACES).sum(axis=1)
    ).all()
    thrown = np.array([bin(bits).count("1") for bits in hand_range.thrown])
    assert (thrown == HAND_SIZE - np.isin(hand_range.pre, _ACES).sum(axis=1)).all()
    still = np.minimum(_held(holdings), _held(hand_range.pre)).sum(axis=1)
    assert (still >= HAND_SIZE - thrown).all()
    assert len(history) == 3 and len(hand_range.likelihoods) == 3


def mixed_ace(observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """:data:`~pokerzoo.training.lbr.Probabilities` of a policy that mixes: holding an ace it
    bets or raises four times in five, without one once in ten (else checks or calls); at the
    draw it throws every card but its aces seven times in ten, else stands pat."""
    masks = np.asarray(masks, dtype=bool)
    chances = np.zeros(masks.shape)
    rows = np.arange(len(masks))
    aces = np.isin(_hands(observations), _ACES)
    bits = (~aces * (1 << np.arange(HAND_SIZE))).sum(axis=1)
    drawing = masks[:, STAND_PAT]
    chances[rows[drawing], STAND_PAT + bits[drawing]] += 0.7
    chances[rows[drawing], STAND_PAT] += 0.3
    raising = ~drawing & masks[:, RAISE]
    bet = np.where(aces.any(axis=1), 0.8, 0.1)
    chances[rows[raising], RAISE] = bet[raising]
    chances[rows[~drawing], CALL] = 1 - chances[rows[~drawing], RAISE]
    return chances


@pytest.mark.parametrize("pat", [False, True])
def test_a_range_weighs_a_mixing_policys_particles_by_their_probabilities(pat: bool) -> None:
    game = DrawPokerGame()
    state = _deal(game, 0, LBR_HAND, "As Kd 7h 5c 2s")  # seat 1 bets first and draws first
    view = DrawHiddenCards(game, particles=128)
    history: list[Decision] = []

    def opponent_acts(action: int) -> None:
        observation, mask = game.observe(state, 1), game.legal_mask(state, 1).astype(bool)
        history.append(Decision(observation, mask, action, view.hidden(state, 1)))
        game.transition(state, 1, action)

    opponent_acts(RAISE)
    hand_range = view.new_range(game, state, 0, mixed_ace, np.random.default_rng(1), FLOOR)
    holdings, weights = hand_range.weigh(state, history)
    aces = np.isin(holdings, _ACES).sum(axis=1)
    expected = np.where(aces > 0, 0.8, 0.1)
    np.testing.assert_allclose(weights, expected / expected.sum())
    assert 0 < (aces > 0).sum() < len(holdings)

    game.transition(state, 0, CALL)
    if pat:  # every particle stands pat three times in ten, and keeps its cards
        opponent_acts(STAND_PAT)
        expected *= 0.3
    else:  # four thrown, the ace kept: the particles with one ace, seven times in ten
        opponent_acts(STAND_PAT + 0b11110)
        expected *= np.maximum(np.where(aces == 1, 0.7, 0.0), FLOOR)
    holdings, weights = hand_range.weigh(state, history)
    np.testing.assert_allclose(weights, expected / expected.sum())
    # each particle's discard: its most probable one of the count thrown (standing pat, where
    # keeping its aces is likelier), or its likeliest where it throws no such count
    thrown = np.array([bin(bits).count("1") for bits in hand_range.thrown])
    assert (thrown == (0 if pat else HAND_SIZE - aces)).all()


def test_the_unseen_cards_count_copies() -> None:
    game = DrawPokerGame(decks=2, jokers=2)
    state = _deal(game, 0, "As As Jk 9h 2c", "Kd Qh 7h 5c 2s")
    hand_range = DrawHiddenCards(game, particles=200).new_range(
        game, state, 0, one_hot(calling_station), np.random.default_rng(0), FLOOR
    )
    counts = np.bincount(hand_range._unseen(), minlength=NUM_CARD_IDS)
    expected = game.deck.counts.astype(np.int64)
    np.subtract.at(expected, parse_cards("As As Jk 9h 2c"), 1)
    assert (counts == expected).all()
    assert (_held(hand_range.pre) <= expected).all()  # never more copies than are left


# --- (2) the exploits --------------------------------------------------------------------------
def _lbr_against(policy: Any, deals: int, options: dict[str, Any] | None = None) -> LBRResult:
    return play_lbr(
        SPEC, _SMALL, "policy", lambda s: batched_player(policy), policy, options or {}, deals
    )


@pytest.mark.parametrize("hands", [1, 3])
def test_lbr_takes_the_ante_of_every_hand_from_a_policy_that_folds_to_bets(hands: int) -> None:
    result = _lbr_against(folds_to_bets, 3, {"hands": hands})
    # it bets at its first decision, the policy folds: the other's ante, exactly, every hand
    assert (result.chips.value, result.chips.low, result.chips.high) == (1.0, 1.0, 1.0)
    assert result.hands == 3 * 2 * hands
    assert result.endings == {
        "player folded": (1.0, 1.0),
        "LBR folded": (0.0, 0.0),
        "showdown": (0.0, 0.0),
    }


def test_lbr_against_a_calling_station_shows_every_hand_down() -> None:
    """A calling station never bets (LBR has no bet to fold to) and never folds: every hand
    ends in a showdown, whose chips are LBR's mean per hand (one hand a seat)."""
    result = _lbr_against(calling_station, 4)
    assert result.hands == 8
    assert result.endings["showdown"] == (1.0, result.chips.value)
    assert result.endings["player folded"] == result.endings["LBR folded"] == (0.0, 0.0)
    assert set(result.as_dict()["endings"]) == set(ENDINGS)


@pytest.mark.parametrize(
    ("move", "ending"),
    [
        ((1, FOLD), "player folded"),
        ((0, FOLD), "LBR folded"),
        ((1, CALL), "showdown"),
        ((0, CALL), "showdown"),
        (None, "showdown"),
    ],
)
def test_a_hand_ends_by_its_last_move(move: tuple[int, int] | None, ending: str) -> None:
    """LBR in seat 0: a fold ends a heads-up hand, its folder named; any other last move
    ends it in a showdown."""
    assert ENDINGS[_ending(move, 0)] == ending


@pytest.mark.parametrize(
    ("mine", "theirs"),
    [
        ("Ah Kh Qh 9h 4h", "Js Jd 8c 5s 2d"),  # a flush against a pair
        ("Ts Td Tc 7h 7d", "As Kd Qc 8s 3h"),  # a full house against ace-king
        ("9c 8d 7s 6h 5c", "Ks Kh 4d 3s 2h"),  # a straight against a pair
    ],
)
@pytest.mark.parametrize("lbr", [0, 1])
def test_lbr_value_bets_a_calling_station(lbr: int, mine: str, theirs: str) -> None:
    game = DrawPokerGame()
    state = _deal(game, lbr, mine, theirs)
    view = DrawHiddenCards(game, particles=128)
    responder = LocalBestResponse(
        game, view, one_hot(calling_station), np.random.default_rng(2), 64
    )
    history: list[Decision] = []
    station = batched_player(calling_station)
    while not game.is_terminal(state):
        responder.play_next(state, lbr, history, station.act)
    # a bet in each betting round, called, and the made hand stood pat: ante 1 + 1 + 2 (the
    # station's fair share, checking down, would leave LBR only the ante)
    assert state.last_hand["results"][lbr] == 4
    assert set(state.last_hand["shown"][lbr].split()) == set(mine.split())
    assert ENDINGS[_ending(responder.last_move, lbr)] == "showdown"  # the station called last
    assert responder.last_move == (1 - lbr, CALL)


# --- (3) never above the exact best response ---------------------------------------------------
RIVER_HAND = "Qs Qd 9c 6h 3s"
RIVER_HOLDINGS = [
    "Ac Ad 5c 5d 2h",  # two pair: bets or raises
    "Kc Kh 8d 4c 2s",  # a pair: calls, beats LBR
    "Jc Jh 8s 4d 2c",  # a pair: calls, loses
    "Ah Th 8h 7c 4s",  # nothing: folds to a bet
    "9s 9h 7d 4h 2d",  # a pair: calls, loses
    "Kd Js Tc 7s 5h",  # nothing: folds to a bet
]


class _KnownRange(DrawHiddenCards):
    """The range of exactly :data:`RIVER_HOLDINGS`, equally likely before the last betting."""

    def new_range(self, *args: Any) -> DrawRange:
        known = super().new_range(*args)
        holdings = np.array([sorted(parse_cards(h), reverse=True) for h in RIVER_HOLDINGS])
        known.pre, known.post = holdings.copy(), holdings.copy()
        known.thrown = np.zeros(len(holdings), dtype=np.int64)
        return known


def _river_states(game: DrawPokerGame, lbr: int) -> list[DrawPokerState]:
    """Each holding's hand, played passively (both standing pat) to the last betting."""
    states = []
    for holding in RIVER_HOLDINGS:
        state = _deal(game, lbr, RIVER_HAND, holding)
        while state.phase != PHASE_BET_AFTER:
            actor = game.current_player(state)
            game.transition(state, actor, STAND_PAT if state.phase == PHASE_DRAW else CALL)
        states.append(state)
    return states


def _policy_action(game: DrawPokerGame, state: DrawPokerState, actor: int) -> int:
    observation = game.observe(state, actor)[None]
    mask = game.legal_mask(state, actor).astype(bool)[None]
    return int(river_policy(observation, mask)[0])


def _exact_best_response(game: DrawPokerGame, states: list[DrawPokerState], lbr: int) -> float:
    """The best response's value (chips, summed over the holdings): at its decisions the best
    action for all the holdings it cannot tell apart, at the policy's its action per holding."""
    first = states[0]
    if game.is_terminal(first):
        return float(sum(state.last_hand["results"][lbr] for state in states))
    actor = game.current_player(first)
    if actor == lbr:
        best = -math.inf
        for action in np.flatnonzero(game.legal_mask(first, lbr)).tolist():
            after = [copy.deepcopy(state) for state in states]
            for state in after:
                game.transition(state, lbr, action)
            best = max(best, _exact_best_response(game, after, lbr))
        return best
    groups: dict[int, list[DrawPokerState]] = {}
    for state in states:
        after = copy.deepcopy(state)
        action = _policy_action(game, after, actor)
        game.transition(after, actor, action)
        groups.setdefault(action, []).append(after)
    return sum(_exact_best_response(game, group, lbr) for group in groups.values())


@pytest.mark.parametrize("lbr", [0, 1])
def test_lbr_never_beats_the_exact_best_response(lbr: int) -> None:
    game = DrawPokerGame()
    states = _river_states(game, lbr)
    best = _exact_best_response(game, states, lbr)
    view = _KnownRange(game, particles=len(RIVER_HOLDINGS))
    policy = batched_player(river_policy)
    found = passive = 0.0
    for start in states:
        state = copy.deepcopy(start)
        responder = LocalBestResponse(
            game, view, one_hot(river_policy), np.random.default_rng(0), 8
        )
        history: list[Decision] = []
        while not game.is_terminal(state):
            responder.play_next(state, lbr, history, policy.act)
        found += state.last_hand["results"][lbr]
        state = copy.deepcopy(start)  # checking and calling down, for scale
        while not game.is_terminal(state):
            actor = game.current_player(state)
            action = CALL if actor == lbr else _policy_action(game, state, actor)
            game.transition(state, actor, action)
        passive += state.last_hand["results"][lbr]
    assert found <= best + 1e-9
    assert found > passive  # it exploits something: the policy's folds


# --- (4) play_lbr on the game's bots -----------------------------------------------------------
@pytest.mark.parametrize("name", ["random", "caller"])
def test_play_lbr_against_the_bots_is_finite_and_repeatable(name: str) -> None:
    def run() -> LBRResult:
        player = functools.partial(SPEC.make_bot, name)
        return play_lbr(
            SPEC, _SMALL, name, lambda s: player(seed=s), bot_policy(SPEC, name, {}), {}, 2
        )

    first, again = run(), run()
    assert first.deals == 2 and first.player == name
    assert all(math.isfinite(x) for x in (first.chips.value, first.chips.low, first.chips.high))
    assert first.chips == again.chips


def test_play_lbr_plays_every_pack_heads_up() -> None:
    options = {"decks": 2, "jokers": 2, "deuces_wild": True}
    result = _lbr_against(calling_station, 1, options)
    assert math.isfinite(result.chips.value)


def test_lbr_refuses_what_it_does_not_play() -> None:
    with pytest.raises(ValueError, match="heads-up draw poker: got num_players=3"):
        DrawHiddenCards(DrawPokerGame(num_players=3))
    with pytest.raises(ValueError, match="particles"):
        DrawHiddenCards(DrawPokerGame(), particles=0)
    with pytest.raises(ValueError, match="futures"):
        DrawHiddenCards(DrawPokerGame(), futures=0)
