"""Random masked play of poker without a name to the end under every option set the issue lists,
with the invariants of every step and every deal checked (cards, tricks, scores, rewards)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pokerzoo.envs.core.cards import JOKER
from pokerzoo.envs.nameless_poker import (
    HAND_SIZES,
    PACK,
    NamelessPokerGame,
    NamelessPokerState,
    deal_score,
)

from tests.nameless_poker.option_sets import OPTION_SETS

PLAY_OPTION_SETS = [
    *OPTION_SETS,
    {"deals": [30, 19, 1, 11], "dealer_restriction": True},  # deals out of order
]


def check_step(game: NamelessPokerGame, state: NamelessPokerState) -> None:
    """What holds between any two actions: the cards add up and only the seat to act may act."""
    size = state.hand_size
    done = sum(state.tricks)
    assert int(state.played.sum()) == 4 * done + len(state.trick)
    for seat in range(4):
        in_trick = (seat - state.leader) % 4 < len(state.trick)
        expected = 0 if game.is_terminal(state) else size - done - in_trick
        assert len(state.hands[seat]) == expected
        assert state.hands[seat] == sorted(state.hands[seat])
        mask = game.legal_mask(state, seat)
        assert mask.dtype == np.int8 and mask.shape == (game.num_actions,)
        assert mask.any() == (seat == game.current_player(state))
    held = [c for hand in state.hands for c in hand]
    played = np.repeat(np.arange(JOKER + 1), state.played).tolist()
    PACK.check([*held, *played, state.turned], what="state")


def play_episode(game: NamelessPokerGame, seed: int, steps: bool = True) -> NamelessPokerState:
    """Random masked play to the end, checking every payout and (``steps``) every step."""
    state = game.new_state(rng=np.random.default_rng(seed))
    chooser = np.random.default_rng(seed + 1)
    totals = [0] * 4
    payouts = 0
    while not game.is_terminal(state):
        if steps:
            check_step(game, state)
        seat = game.current_player(state)
        deal, bids = state.deal, list(state.bids)
        legal = np.flatnonzero(game.legal_mask(state, seat))
        payout = game.apply(state, seat, int(chooser.choice(legal)))
        if payout is None:
            continue
        payouts += 1
        infos = [game.info(state, s) for s in range(4)]
        for other in infos:  # every seat gets the same info, of the schema's keys and types
            game.info_schema.check(other)
            assert {k: np.asarray(v).tolist() for k, v in other.items()} == {
                k: np.asarray(v).tolist() for k, v in infos[0].items()
            }
        info = {k: np.asarray(v).tolist() for k, v in infos[0].items()}
        assert info["deal"] == deal and sum(info["tricks"]) == HAND_SIZES[deal - 1]
        assert info["deal_kind"] == (deal > 18) + (deal > 22) + (deal > 26)
        kind_bids = bids if deal <= 22 else [None] * 4
        assert info["bids"] == (bids if deal <= 22 else [-1] * 4)
        scores = [deal_score(deal, kind_bids[s], info["tricks"][s]) for s in range(4)]
        assert info["deal_scores"] == scores
        totals = [t + s for t, s in zip(totals, scores, strict=True)]
        assert info["totals"] == totals == state.totals
        if game.reward == "score":
            assert payout.rewards == tuple(float(s) for s in scores)
        else:
            assert sum(payout.rewards) == pytest.approx(0.0)
            assert payout.rewards == pytest.approx([s - sum(scores) / 4 for s in scores])
        if game.is_terminal(state):
            assert info["winners"] == [totals[s] == max(totals) for s in range(4)]
        else:
            assert info["winners"] == [False] * 4
    check_step(game, state)
    assert payouts == len(game.deals) == len(state.results)
    return state


@pytest.mark.parametrize("options", PLAY_OPTION_SETS, ids=[repr(o) for o in PLAY_OPTION_SETS])
def test_random_masked_play_reaches_the_end(options: dict[str, object]) -> None:
    game = NamelessPokerGame(**options)  # type: ignore[arg-type]
    episodes = max(4, 240 // len(game.deals))
    for seed in range(episodes):
        play_episode(game, seed)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), restriction=st.booleans())
def test_invariants_hold_over_random_games(seed: int, restriction: bool) -> None:
    play_episode(NamelessPokerGame(dealer_restriction=restriction), seed)


def test_ten_thousand_random_deals() -> None:
    game = NamelessPokerGame(reward="relative")
    for seed in range(10_000 // 30 + 1):
        play_episode(game, 1000 + seed, steps=False)
