"""Random masked play to the end under every option set of the issue, with the chip invariants
checked at every step: chips are never created or lost, every pot is paid out, payouts are
zero-sum and equal each seat's change of stack."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pokerzoo.envs.five_card_stud import LAYOUT, FiveCardStudGame
from pokerzoo.envs.five_card_stud.spec import SPEC
from pokerzoo.envs.five_card_stud.state import MAX_PLAYERS

OPTION_SETS = {
    **SPEC.option_sets,
    # the variants at a larger table: more seats in the high-low split and the side pots
    **{
        f"{name}, a seat more": {**options, "num_players": options.get("num_players", 2) + 1}
        for name, options in SPEC.option_sets.items()
        if options.get("num_players", 2) < MAX_PLAYERS
    },
    "20 hands, deep stacks": {"num_players": 3, "hands": 20},
}


def play_randomly(game: FiveCardStudGame, seed: int, thorough: bool = False) -> int:
    """One game of uniformly random legal moves, the chip invariants checked at every step
    (``thorough``: every seat's mask and the observation too); the hands played."""
    rng = np.random.default_rng(seed)
    state = game.new_state(rng=np.random.default_rng(seed + 1))
    n = game.num_players
    total = sum(state.start_stacks)
    hands = 0
    while not game.is_terminal(state):
        seat = game.current_player(state)
        if thorough:
            for other in range(n):
                mask = game.legal_mask(state, other)
                assert mask.dtype == np.int8 and (mask.any() == (other == seat))
            assert game.observe(state, seat).shape == (LAYOUT.size,)
        stacks_before = list(state.start_stacks)
        settled = len(state.results)
        legal = np.flatnonzero(game.legal_mask(state, seat))
        payout = game.apply(state, seat, int(legal[rng.integers(legal.size)]))
        betting = state.betting
        assert sum(betting.stacks) + state.pot == total
        assert all(s >= 0 for s in betting.stacks)
        if payout is None:
            continue
        ended = state.results[settled:]
        hands += len(ended)
        assert ended and sum(payout.rewards) == 0
        for result in ended:  # every pot paid out: the stacks hold every chip again
            assert sum(result["chips"]) == 0 and sum(result["stacks"]) == total
            for pot in result["pots"]:
                assert sum(pot["shares"].values()) == pot["amount"]
                assert set(pot["shares"]) == set(pot["high_winners"]) | set(pot["low_winners"])
        last = ended[-1]["stacks"]
        assert payout.rewards == tuple(
            float(a - b) for a, b in zip(last, stacks_before, strict=True)
        )
    assert sum(state.betting.stacks) == total
    return hands


@pytest.mark.parametrize("options", OPTION_SETS.values(), ids=OPTION_SETS.keys())
def test_random_masked_play_to_the_end(options: dict) -> None:
    game = FiveCardStudGame(**options)
    hands = sum(play_randomly(game, seed, thorough=True) for seed in range(40))
    assert hands >= 40


def test_chips_are_conserved_over_ten_thousand_random_hands() -> None:
    hands = 0
    for options in OPTION_SETS.values():
        game = FiveCardStudGame(**options)
        seed = 0
        start = hands
        while hands - start < 1500:
            hands += play_randomly(game, 1000 + seed)
            seed += 1
    assert hands >= 10_000


@settings(max_examples=80, deadline=None)
@given(
    num_players=st.integers(2, 10),
    ante=st.integers(0, 3),
    bets=st.tuples(st.integers(1, 4), st.integers(1, 8)),
    max_raises=st.integers(0, 4),
    stack=st.integers(4, 40),
    first_to_act=st.sampled_from(["highest", "lowest"]),
    last_card_down=st.booleans(),
    deuces_wild=st.booleans(),
    jokers=st.integers(0, 1),
    hi_lo=st.booleans(),
    qualify=st.booleans(),
    hands=st.integers(1, 6),
    seed=st.integers(0, 2**32),
)
def test_invariants_hold_under_any_options(
    num_players: int,
    ante: int,
    bets: tuple[int, int],
    max_raises: int,
    stack: int,
    first_to_act: str,
    last_card_down: bool,
    deuces_wild: bool,
    jokers: int,
    hi_lo: bool,
    qualify: bool,
    hands: int,
    seed: int,
) -> None:
    game = FiveCardStudGame(
        num_players=num_players,
        ante=ante,
        bets=bets,
        max_raises=max_raises,
        stack=max(stack, ante + 1),
        first_to_act=first_to_act,
        last_card_down=last_card_down,
        deuces_wild=deuces_wild,
        jokers=jokers,
        hi_lo=hi_lo,
        low_qualifier=8 if hi_lo and qualify else None,
        hands=hands,
    )
    assert 1 <= play_randomly(game, seed, thorough=True) <= hands
