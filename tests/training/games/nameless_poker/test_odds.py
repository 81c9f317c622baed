"""Poker without a name's ``"odds"`` columns (part of the ``"reach"`` features) and the rule
over them: odds that are certain on fixed cards (a trick decided by the last card, a hand of
both jokers), the legal actions the features read against the engine's mask, and the
features' determinism."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest
from pokerzoo.envs.core.cards import parse_card
from pokerzoo.envs.core.registry import get_game
from pokerzoo.envs.nameless_poker import BID, LEAD_JOKER, PLAY, decode_observation, pack_order
from pokerzoo.training.games.nameless_poker.features import CONTEXT, ROW_WIDTH, tricks_features
from pokerzoo.training.games.nameless_poker.hooks import odds_rule
from pokerzoo.training.games.nameless_poker.odds import (
    ODDS_CONTEXT,
    ODDS_ROW_NAMES,
    ODDS_ROW_WIDTH,
    legal_actions,
    odds_features,
)

from tests.helpers import bot_decisions, check_features_alone_or_in_a_batch

ODD = {name: ROW_WIDTH + i for i, name in enumerate(ODDS_ROW_NAMES)}
RULE = {"bid_confidence": 0.5, "take_confidence": 0.7}


def two_card_deal(hands: list[str], turned: str, actions: list[int]) -> tuple[np.ndarray, ...]:
    """Deal 2 with fixed ``hands`` (player_1 bids and leads first), after ``actions``: the
    observation and mask of the seat to act."""
    env = get_game("nameless_poker").make_aec(deals=[2])
    env.reset(seed=0, options={"cards": pack_order(hands, turned)})
    for action in actions:
        env.step(action)
    seen = env.observe(env.agent_selection)
    return seen["observation"], seen["action_mask"].astype(bool)


BOTH_JOKERS = ["2c 3c", "Jk Jk", "4c 5h", "5c 6h"]
"""Deal 2's hands (the 2d turned) with both jokers in player_1's, who bids and leads first."""


def both_jokers(
    features_of: Callable[[np.ndarray], np.ndarray], actions: list[int]
) -> tuple[np.ndarray, np.ndarray]:
    """The features (by ``features_of``) and the mask of the seat to act in the deal of
    :data:`BOTH_JOKERS` after ``actions``."""
    observation, mask = two_card_deal(BOTH_JOKERS, "2d", actions)
    return features_of(observation), mask


def rows_of(features: np.ndarray) -> np.ndarray:
    return features[ODDS_CONTEXT:].reshape(-1, ODDS_ROW_WIDTH)


@pytest.mark.parametrize(("own_bid", "rule_plays"), [(0, "3c"), (1, "Ac")])
def test_the_last_card_of_a_trick_takes_it_or_not_for_certain(
    own_bid: int, rule_plays: str
) -> None:
    hands = ["Ac 3c", "2c 3h", "4c 5h", "5c 6h"]
    bids = [BID] * 3 + [BID + own_bid]  # player_0, the dealer, bids last
    leads = [PLAY + parse_card(card) for card in ("2c", "4c", "5c")]
    observation, mask = two_card_deal(hands, "2d", bids + leads)
    assert decode_observation(observation).seat == 0  # player_0 plays last
    rows = rows_of(odds_features(observation))
    ace, three = PLAY + parse_card("Ac"), PLAY + parse_card("3c")
    assert np.flatnonzero(mask).tolist() == [three, ace]  # clubs must be followed
    assert rows[ace, ODD["takes_trick"]] == 1
    assert rows[three, ODD["takes_trick"]] == 0
    # Bid 0 (made so far): the rule sheds the card that cannot take the trick; bid 1, it takes it.
    features = odds_features(observation)[None]
    assert odds_rule(features, mask[None], **RULE)[0] == PLAY + parse_card(rule_plays)


def test_a_hand_of_both_jokers_takes_every_trick() -> None:
    features, mask = both_jokers(odds_features, [])
    rows = rows_of(features)
    assert np.isclose(features[ODDS_CONTEXT - 1], 2 / 8)  # tricks_expected
    assert rows[BID + 2, ODD["tricks_at_least"]] == 1 and rows[BID + 2, ODD["tricks_exactly"]] == 1
    assert rows[BID + 1, ODD["tricks_exactly"]] == 0 and rows[BID, ODD["tricks_at_least"]] == 1
    assert odds_rule(features[None], mask[None], **RULE)[0] == BID + 2
    # Its joker lead takes the trick whatever suit it names.
    features, mask = both_jokers(odds_features, [BID + 2, BID, BID, BID])
    rows = rows_of(features)
    assert np.flatnonzero(mask).tolist() == list(range(LEAD_JOKER, LEAD_JOKER + 4))
    assert (rows[LEAD_JOKER:, ODD["takes_trick"]] == 1).all()


def test_odds_are_shares_and_the_tricks_features_come_first() -> None:
    observations, _ = bot_decisions("nameless_poker", "rules", 1, deals=[3, 8, 19, 27])
    features = odds_features(observations)
    assert np.array_equal(features[:, :CONTEXT], tricks_features(observations)[:, :CONTEXT])
    rows = features[:, ODDS_CONTEXT:].reshape(len(features), -1, ODDS_ROW_WIDTH)
    base = tricks_features(observations)[:, CONTEXT:].reshape(len(features), -1, ROW_WIDTH)
    assert np.array_equal(rows[..., :ROW_WIDTH], base)
    odds = rows[..., ROW_WIDTH:]
    assert ((odds >= 0) & (odds <= 1)).all()
    bidding = features[:, CONTEXT] > 0  # "bidding", the first context column
    exactly = rows[bidding, BID:PLAY, ODD["tricks_exactly"]]
    assert np.allclose(exactly.sum(axis=1), 1)
    at_least = rows[bidding, BID:PLAY, ODD["tricks_at_least"]]
    assert np.allclose(at_least[:, 0], 1) and (np.diff(at_least, axis=1) <= 1e-6).all()
    assert odds[bidding.nonzero()[0][:, None], PLAY:, 0].sum() == 0  # no card odds while bidding
    assert odds[~bidding][:, :, 0].sum() > 0


@pytest.mark.parametrize("bot", ["rules", "random"])
def test_the_legal_actions_the_features_read_match_the_engine(bot: str) -> None:
    observations, masks = bot_decisions("nameless_poker", bot, 1, deals=[1, 5, 8, 19, 23, 27])
    for observation, mask in zip(observations, masks, strict=True):
        assert np.array_equal(legal_actions(decode_observation(observation)), mask)


def test_the_same_observation_gets_the_same_odds_alone_or_in_a_batch() -> None:
    check_features_alone_or_in_a_batch(odds_features, odds_rule, RULE, [7, 8], (0, 5, -1))
