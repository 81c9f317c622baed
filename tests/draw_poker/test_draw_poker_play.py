"""Random masked play of draw poker to the end for every option set of issue 10, with the chip
invariants checked hand by hand: chips are never created or lost and every pot is paid out."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pokerzoo.envs.core.game import Payout
from pokerzoo.envs.draw_poker import (
    CALL,
    FOLD,
    NUM_ACTIONS,
    RAISE,
    STAND_PAT,
    DrawPokerGame,
    DrawPokerState,
    discard_action,
)

from tests.draw_poker.option_sets import OPTION_SETS
from tests.helpers import check_render

PLAY_OPTION_SETS: dict[str, dict[str, Any]] = {
    **OPTION_SETS,
    # all-ins and side pots on most hands, seats busting and sitting out
    "short stacks, 6 players, 20 hands": {
        "num_players": 6,
        "stack": (3, 5, 8, 13, 2, 30),
        "bets": (2, 4),
        "hands": 20,
    },
}


def check_payout(
    game: DrawPokerGame, payout: Payout, state: DrawPokerState, stacks_before: list[int]
) -> list[int]:
    """The chip invariants of one settled hand (its report: ``state.last_hand``); returns the
    stacks after it."""
    n = game.num_players
    info = state.last_hand
    results, put_in, stacks = info["results"], info["put_in"], info["stacks"]
    assert payout.rewards == tuple(float(r) for r in results)
    assert sum(results) == 0  # zero-sum: no chip created or lost
    assert list(stacks) == [b + r for b, r in zip(stacks_before, results, strict=True)]
    assert min(stacks) >= 0
    won = [0] * n
    for pot in info["pots"]:
        assert pot["amount"] > 0 and set(pot["winners"]) <= set(pot["eligible"])
        assert set(pot["shares"]) == set(pot["winners"])
        assert sum(pot["shares"].values()) == pot["amount"]  # every pot is paid out
        shares = sorted(pot["shares"].values(), reverse=True)
        assert shares[0] - shares[-1] <= 1
        for seat, chips in pot["shares"].items():
            won[seat] += chips
    assert sum(p["amount"] for p in info["pots"]) == sum(put_in)
    assert results == tuple(w - p for w, p in zip(won, put_in, strict=True))
    if info["showdown"]:
        shown = [s for s in range(n) if info["shown"][s] is not None]
        assert shown and all(info["categories"][s] for s in shown)
        assert set().union(*(p["eligible"] for p in info["pots"])) <= set(shown)
    else:
        assert info["shown"] == (None,) * n
        assert len(info["pots"]) == 1 and len(info["pots"][0]["winners"]) == 1
    return list(stacks)


def play_game(game: DrawPokerGame, rng: np.random.Generator, every_mask: bool = True) -> int:
    """One game of random masked play, checked at every step (``every_mask``: the masks of the
    seats not to act too); the number of hands played."""
    state = game.new_state(rng=rng)
    stacks = list(game.stacks)
    total = sum(stacks)
    hands = 0
    steps = 0
    while not game.is_terminal(state):
        seat = game.current_player(state)
        mask = game.legal_mask(state, seat)
        assert mask.dtype == np.int8 and mask.shape == (NUM_ACTIONS,) and mask.any()
        if every_mask:
            others = (game.legal_mask(state, s) for s in range(game.num_players) if s != seat)
            assert not any(m.any() for m in others)
        legal = np.flatnonzero(mask)
        payout = game.apply(state, seat, int(legal[rng.integers(legal.size)]))
        assert sum(state.betting.stacks) + state.betting.pot == total or payout is not None
        if payout is not None:
            hands += 1
            stacks = check_payout(game, payout, state, stacks)
            assert sum(stacks) == total
        steps += 1
        assert steps < 10_000
    assert game.current_player(state) == -1
    assert not any(game.legal_mask(state, s).any() for s in range(game.num_players))
    assert 1 <= hands <= game.hands
    assert hands == game.hands or sum(s > 0 for s in stacks) == 1
    assert stacks == state.betting.stacks
    return hands


@pytest.mark.parametrize("options", PLAY_OPTION_SETS.values(), ids=PLAY_OPTION_SETS.keys())
def test_random_masked_play_to_the_end(options: dict[str, Any]) -> None:
    game = DrawPokerGame(**options)
    rng = np.random.default_rng(2024)
    hands = sum(play_game(game, rng) for _ in range(25 if game.hands == 1 else 4))
    assert hands >= 25


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), name=st.sampled_from(sorted(PLAY_OPTION_SETS)))
def test_chips_are_conserved_and_every_pot_paid(seed: int, name: str) -> None:
    play_game(DrawPokerGame(**PLAY_OPTION_SETS[name]), np.random.default_rng(seed))


def test_ten_thousand_random_hands_conserve_chips() -> None:
    rng = np.random.default_rng(10_000)
    games = {name: DrawPokerGame(**options) for name, options in PLAY_OPTION_SETS.items()}
    each = 10_000 // len(games)
    for game in games.values():
        played = 0
        while played < each:
            played += play_game(game, rng, every_mask=False)


def test_a_seed_replays_the_same_game() -> None:
    game = DrawPokerGame(num_players=4, hands=20, jokers=2)

    def trajectory(seed: int) -> list:
        rng = np.random.default_rng(seed)
        state = game.new_state(rng=np.random.default_rng(seed))
        seen = []
        while not game.is_terminal(state):
            seat = game.current_player(state)
            legal = np.flatnonzero(game.legal_mask(state, seat))
            payout = game.apply(state, seat, int(legal[rng.integers(legal.size)]))
            seen.append((seat, game.observe(state, seat).tolist(), payout))
        return seen

    assert trajectory(5) == trajectory(5)
    assert trajectory(5) != trajectory(6)


def test_render_shows_the_hand_so_far_and_no_hidden_card(play) -> None:
    game = DrawPokerGame(num_players=3, hands=2)
    hands = ["As Ah Ad 7c 2s", "Ks Kh Kd 7d 3c", "Qs Qh 8d 8c 3d"]
    state = game.new_state(game.pack_for(hands, "Jc"), rng=np.random.default_rng(0))
    betting = [(1, RAISE), (2, CALL), (0, RAISE), (1, CALL), (2, CALL)]
    play(game, state, betting + [(1, STAND_PAT), (2, discard_action([4]))])
    check_render(
        game.render(state),
        "Draw poker, hand 1 of 2: player_0 deals, pot 9, the draw, player_0 to draw",
        shows=[
            "before the draw: player_1 bets 1, player_2 calls 1, player_0 raises to 2, ",
            "the draw: player_1 stands pat, player_2 draws 1",
            "player_2: stack 97, put in 3, in, drew 1",
        ],
        hides=["As", "Ah", "Ks", "Kh", "Qs", "Qh", "Jc"],
    )
    play(game, state, [(0, STAND_PAT), (1, RAISE), (2, FOLD)])
    play(game, state, [(0, CALL)])  # the showdown, then hand 2
    text = game.render(state)
    assert "hand 1 showdown: player_0 Ad Ah As 7c 2s (three of a kind), " in text
    assert "player_1 Kd Kh Ks 7d 3c (three of a kind)" in text
    assert "main pot 13: player_0 13; results +8 -5 -3" in text
    assert "hand 2 of 2: player_1 deals" in text
