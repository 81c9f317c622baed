"""Poker without a name's ``"target"`` features (the ``"reach"`` features plus how often the target
stays within reach) and the hand-written rule over them: certain shares on fixed cards, the
``"reach"`` features they extend, determinism, and the rule's choices on constructed rows."""

from __future__ import annotations

import numpy as np
import pytest
from pokerzoo.envs.core.cards import parse_card
from pokerzoo.envs.nameless_poker import BID, LEAD_JOKER, NUM_ACTIONS, PLAY
from pokerzoo.training.games.nameless_features import CONTEXT_NAMES
from pokerzoo.training.games.nameless_odds import ODDS_ROW_NAMES, ODDS_ROW_WIDTH
from pokerzoo.training.games.nameless_poker import reach_rule, target_rule
from pokerzoo.training.games.nameless_reach import (
    REACH_CONTEXT,
    REACH_ROW_NAMES,
    REACH_ROW_WIDTH,
    TARGET_ROW_WIDTH,
    reach_features,
    target_features,
)

from tests.helpers import bot_decisions
from tests.training.test_nameless_odds import two_card_deal

IN_REACH = REACH_ROW_WIDTH  # the column the "target" row adds
REACH = {name: ODDS_ROW_WIDTH + i for i, name in enumerate(REACH_ROW_NAMES)}
TAKES = ODDS_ROW_WIDTH - len(ODDS_ROW_NAMES) + ODDS_ROW_NAMES.index("takes_trick")
CTX = {name: i for i, name in enumerate(CONTEXT_NAMES)}
REACH_RULE = {"bid_confidence": 0.7, "take_confidence": 0.7, "flex_weight": 0.0}
RULE = {**REACH_RULE, "bid_lean": 0.0}


def rows_of(features: np.ndarray) -> np.ndarray:
    return features[REACH_CONTEXT:].reshape(-1, TARGET_ROW_WIDTH)


def test_a_bid_is_within_reach_only_where_the_hand_can_end() -> None:
    # player_1 holds both jokers in a 2-card deal: it takes both tricks whatever it wants.
    hands = ["2c 3c", "Jk Jk", "4c 5h", "5c 6h"]
    observation, _ = two_card_deal(hands, "2d", [])
    rows = rows_of(target_features(observation))
    assert rows[BID : BID + 3, IN_REACH].tolist() == [0, 0, 1]
    assert (rows[PLAY:, IN_REACH] == 0).all()


@pytest.mark.parametrize(("bid", "in_reach"), [(2, 1.0), (1, 0.0), (0, 0.0)])
def test_every_joker_lead_keeps_the_bid_within_reach_or_none_does(
    bid: int, in_reach: float
) -> None:
    hands = ["2c 3c", "Jk Jk", "4c 5h", "5c 6h"]
    observation, mask = two_card_deal(hands, "2d", [BID + bid, BID, BID, BID])
    rows = rows_of(target_features(observation))
    leads = np.flatnonzero(mask)
    assert leads.tolist() == list(range(LEAD_JOKER, LEAD_JOKER + 4))
    assert (rows[leads, IN_REACH] == in_reach).all()


def test_a_certain_trick_puts_a_bid_out_of_reach_both_ways() -> None:
    # player_0 plays last to 2c 4c 5c holding Ac 3c, one trick to follow: the ace takes this
    # trick for certain and the three loses it for certain.
    hands = ["Ac 3c", "2c 3h", "4c 5h", "5c 6h"]
    leads = [PLAY + parse_card(card) for card in ("2c", "4c", "5c")]
    ace, three = PLAY + parse_card("Ac"), PLAY + parse_card("3c")
    # Everyone bid 0: after the ace, 0 tricks is out of reach; the three keeps it within reach
    # on every deal where the last trick is not led in clubs.
    observation, _ = two_card_deal(hands, "2d", [BID] * 4 + leads)
    rows = rows_of(target_features(observation))
    assert rows[ace, IN_REACH] == 0
    assert rows[three, IN_REACH] > 0.5
    # player_0 (the dealer, bidding last) bid 2: after the three, 2 tricks are out of reach.
    observation, _ = two_card_deal(hands, "2d", [BID] * 3 + [BID + 2] + leads)
    rows = rows_of(target_features(observation))
    assert rows[three, IN_REACH] == 0


def test_target_extends_the_reach_features() -> None:
    observations, masks = bot_decisions("nameless_poker", "rules", 1, deals=[3, 8, 19, 27])
    features = target_features(observations)
    reach = reach_features(observations)
    n = len(features)
    assert np.array_equal(features[:, :REACH_CONTEXT], reach[:, :REACH_CONTEXT])
    rows = features[:, REACH_CONTEXT:].reshape(n, NUM_ACTIONS, TARGET_ROW_WIDTH)
    assert np.array_equal(
        rows[..., :REACH_ROW_WIDTH], reach[:, REACH_CONTEXT:].reshape(n, NUM_ACTIONS, -1)
    )
    inside = rows[..., IN_REACH]
    assert ((inside >= 0) & (inside <= 1)).all() and inside.sum() > 0
    bidding = features[:, CTX["bidding"]] > 0
    assert (inside[bidding][:, PLAY:] == 0).all() and (inside[~bidding][:, BID:PLAY] == 0).all()
    assert (inside[~masks] == 0).all()
    # Within reach on a deal means between that deal's shedding and taking totals: a card that
    # holds the target within reach on every deal holds it between the mean totals too.
    always = inside[~bidding] == 1
    missed = (
        rows[~bidding][..., REACH["short_of_target"]] + rows[~bidding][..., REACH["over_target"]]
    )
    assert always.any() and (missed[always] == 0).all()


def test_the_same_observation_gets_the_same_target_alone_or_in_a_batch() -> None:
    observations, masks = bot_decisions("nameless_poker", "rules", 1, deals=[6, 8])
    batch = target_features(observations)
    for k in (0, 7, len(observations) - 1):
        assert np.array_equal(target_features(observations[k]), batch[k])
    actions = target_rule(batch, masks, **RULE)
    assert masks[np.arange(len(actions)), actions].all()


def playing_rows(bid: int, cards: dict[str, tuple[float, float, float]]) -> np.ndarray:
    """One ``"target"`` feature row while playing a regular deal with ``bid``, wanting the
    trick; ``cards`` maps a card to its (taking, ducking) reach in tricks and its share of
    deals with the bid within reach."""
    features = np.zeros(REACH_CONTEXT + NUM_ACTIONS * TARGET_ROW_WIDTH, dtype=np.float32)
    features[CTX["playing"]] = 1
    features[CTX["regular"]] = 1
    features[CTX["want"]] = 1
    features[CTX["own_bid"]] = bid / 8
    rows = features[REACH_CONTEXT:].reshape(NUM_ACTIONS, TARGET_ROW_WIDTH)
    for card, (taking, ducking, inside) in cards.items():
        row = rows[PLAY + parse_card(card)]
        row[REACH["reach_taking"]] = taking / 8
        row[REACH["reach_ducking"]] = ducking / 8
        row[REACH["short_of_target"]] = max(bid - taking, 0) / 8
        row[REACH["over_target"]] = max(ducking - bid, 0) / 8
        row[IN_REACH] = inside
    # The odds: the ace likelier to take the trick, so the reach rule's tie goes to it.
    rows[PLAY + parse_card("Ah"), TAKES] = 0.9
    rows[PLAY + parse_card("2h"), TAKES] = 0.1
    return features


def reach_part(features: np.ndarray) -> np.ndarray:
    """The ``"reach"`` features inside ``"target"`` features (each row's last column dropped)."""
    rows = features[:, REACH_CONTEXT:].reshape(len(features), NUM_ACTIONS, TARGET_ROW_WIDTH)
    flat = rows[..., :REACH_ROW_WIDTH].reshape(len(features), -1)
    return np.concatenate([features[:, :REACH_CONTEXT], flat], axis=1)


@pytest.mark.parametrize(
    ("cards", "plays", "why"),
    [
        ({"Ah": (2.0, 0.5, 0.3), "2h": (1.4, 0.9, 0.8)}, "2h", "more deals keep 1 in reach"),
        ({"Ah": (2.0, 0.5, 0.5), "2h": (1.4, 0.9, 0.5)}, "Ah", "a tie: the reach rule's card"),
        ({"Ah": (2.0, 0.5, 0.0), "2h": (1.4, 0.9, 0.0)}, "Ah", "none in reach: the reach rule"),
    ],
)
def test_the_target_rule_plays_the_card_that_most_often_keeps_the_bid_in_reach(
    cards: dict[str, tuple[float, float, float]], plays: str, why: str
) -> None:
    features = playing_rows(1, cards)[None]
    mask = np.zeros((1, NUM_ACTIONS), dtype=bool)
    for card in cards:
        mask[0, PLAY + parse_card(card)] = True
    reach_rule_card = reach_rule(reach_part(features), mask, **REACH_RULE)
    assert reach_rule_card[0] == PLAY + parse_card("Ah")  # both mean reaches contain the bid
    assert target_rule(features, mask, **RULE)[0] == PLAY + parse_card(plays), why


@pytest.mark.parametrize(("bid_lean", "bids"), [(0.0, 1), (0.1, 2)])
def test_the_target_rule_bids_what_stays_in_reach_leaning_higher(
    bid_lean: float, bids: int
) -> None:
    features = np.zeros((1, REACH_CONTEXT + NUM_ACTIONS * TARGET_ROW_WIDTH), dtype=np.float32)
    features[0, CTX["bidding"]] = 1
    features[0, CTX["regular"]] = 1
    rows = features[0, REACH_CONTEXT:].reshape(NUM_ACTIONS, TARGET_ROW_WIDTH)
    rows[BID : BID + 4, IN_REACH] = [0.2, 0.6, 0.55, 0.1]
    mask = np.zeros((1, NUM_ACTIONS), dtype=bool)
    mask[0, BID : BID + 4] = True
    assert target_rule(features, mask, **{**RULE, "bid_lean": bid_lean})[0] == BID + bids
