"""Poker without a name's ``"tricks"`` columns (the base of the ``"reach"`` features): counts on
fixed cards worked out by hand, and the per-card rows checked against the engine's own trick
rule over whole games."""

from __future__ import annotations

import numpy as np
from pokerzoo.envs.core.cards import JOKER
from pokerzoo.envs.core.registry import get_game
from pokerzoo.envs.nameless_poker import BID, PLAY, decode_observation, pack_order
from pokerzoo.envs.nameless_poker.deals import beats, winner_index
from pokerzoo.training.games.nameless_poker.features import (
    CONTEXT,
    CONTEXT_NAMES,
    ROW_NAMES,
    ROW_WIDTH,
    tricks_features,
)

from tests.helpers import bot_decisions

C = {name: i for i, name in enumerate(CONTEXT_NAMES)}
R = {name: i for i, name in enumerate(ROW_NAMES)}


def first_bidder() -> tuple[np.ndarray, np.ndarray]:
    """player_1 (the first bidder of deal 4) holding Jk As Ks 2h, spades turned: trump."""
    env = get_game("nameless_poker").make_aec(deals=[4])
    hands = ["3c 4c 5c 6c", "Jk As Ks 2h", "7c 8c 9c Tc", "3d 4d 5d 6d"]
    env.reset(seed=0, options={"cards": pack_order(hands, "5s")})
    seen = env.observe(env.agent_selection)
    assert env.agent_selection == "player_1"
    return seen["observation"], seen["action_mask"].astype(bool)


def test_hand_counts_on_fixed_cards() -> None:
    observation, _ = first_bidder()
    features = tricks_features(observation)
    ctx = features[:CONTEXT]
    expected = {
        "bidding": 1,
        "hand_size": 4 / 8,
        "cards": 4 / 8,
        "jokers": 1 / 2,
        "trumps": 2 / 8,  # As Ks
        "high_trumps": 2 / 3,
        "side_aces": 0,
        "side_voids": 2 / 3,  # diamonds, clubs
        "masters": 3 / 8,  # Jk, As, and Ks (the ace above it is ours)
        "trumps_out": 10 / 13,  # 13 spades less As Ks and the turned 5s
        "jokers_out": 1 / 2,
        "want": 0,  # no bid yet: nothing needed
    }
    for name, value in expected.items():
        assert np.isclose(ctx[C[name]], value), name
    rows = features[CONTEXT:].reshape(-1, ROW_WIDTH)
    assert np.isclose(rows[BID + 3, R["bid_minus_masters"]], 0)
    # Masters 3; honours Jk As Ks = 3; trumps and jokers 3: bid 3 sits on every count.
    for column in ("bid_off_masters", "bid_off_honours", "bid_off_trumps"):
        assert np.isclose(rows[BID + 3, R[column]], 0), column
        assert np.isclose(rows[BID + 1, R[column]], 2 / 8), column
        assert np.isclose(rows[BID + 4, R[column]], 1 / 8), column
    assert np.isclose(rows[BID, R["bid_pays"]], 5 / 80)  # a made zero bid scores 5
    assert np.isclose(rows[BID + 2, R["bid_pays"]], 20 / 80)
    assert rows[BID + 4, R["bid_over_room"]] == 0  # first to bid: the 4 tricks are all free
    assert rows[PLAY + 1, R["bid_pays"]] == 0  # a card's row has no bid columns
    assert rows[PLAY + 8, R["is_card"]] == 0  # 4s (id 8) is not held
    two_hearts = PLAY + 1
    assert rows[two_hearts, R["is_card"]] == 1 and rows[two_hearts, R["master"]] == 0
    assert np.isclose(rows[two_hearts, R["higher_out"]], 12 / 12)  # 3h .. Ah all out


def test_card_rows_agree_with_the_engine_over_whole_games() -> None:
    observations, _ = bot_decisions("nameless_poker", "random", 3, deals=[8, 19, 23, 27])
    checked = 0
    for observation in observations:
        view = decode_observation(observation)
        rows = tricks_features(observation)[CONTEXT:].reshape(-1, ROW_WIDTH)
        if not view.bidding:
            trump = view.trump
            best = view.trick[winner_index(view.trick, trump)] if view.trick else None
            unseen = view.unseen
            for card in set(view.hand):
                row = rows[PLAY + card]
                assert row[R["beats_now"]] == (best is not None and beats(card, best, trump))
                if card != JOKER:
                    higher = unseen[card + 4 : JOKER : 4].sum()
                    assert row[R["master"]] == (higher == 0)
                    assert np.isclose(row[R["higher_out"]] * 12, higher)
                checked += 1
    assert checked > 300
