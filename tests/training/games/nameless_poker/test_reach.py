"""Poker without a name's ``"reach"`` features and the hand-written rule over them: reach that is
certain or bounded on fixed cards, the ``"odds"`` columns it extends, its determinism, and the
rule's choices on constructed rows."""

from __future__ import annotations

import numpy as np
import pytest
from pokerzoo.envs.core.cards import parse_card
from pokerzoo.envs.nameless_poker import BID, LEAD_JOKER, NO_TRUMP, NUM_ACTIONS, PLAY
from pokerzoo.envs.nameless_poker.deals import DEAL_KINDS
from pokerzoo.envs.nameless_poker.playout import World, play_out
from pokerzoo.training.games.nameless_poker.features import CONTEXT_NAMES
from pokerzoo.training.games.nameless_poker.hooks import reach_rule
from pokerzoo.training.games.nameless_poker.odds import (
    ODDS_CONTEXT,
    ODDS_ROW_NAMES,
    ODDS_ROW_WIDTH,
    odds_features,
)
from pokerzoo.training.games.nameless_poker.reach import (
    REACH_CONTEXT,
    REACH_ROW_NAMES,
    REACH_ROW_WIDTH,
    reach_features,
)

from tests.helpers import bot_decisions, check_features_alone_or_in_a_batch
from tests.training.games.nameless_poker.test_odds import both_jokers, two_card_deal

REACH = {name: ODDS_ROW_WIDTH + i for i, name in enumerate(REACH_ROW_NAMES)}
TAKES = ODDS_ROW_WIDTH - len(ODDS_ROW_NAMES) + ODDS_ROW_NAMES.index("takes_trick")
CTX = {name: i for i, name in enumerate(CONTEXT_NAMES)}
RULE = {"bid_confidence": 0.7, "take_confidence": 0.7, "flex_weight": 0.0}


def rows_of(features: np.ndarray) -> np.ndarray:
    return features[REACH_CONTEXT:].reshape(-1, REACH_ROW_WIDTH)


def cards(text: str) -> list[int]:
    return sorted(parse_card(card) for card in text.split())


def test_play_out_follows_the_observers_fixed_intent() -> None:
    # Deal 2, no trump (a joker turned), seat 0 leads holding the two aces that take every
    # trick they are led to: playing for every trick it takes 2, shedding every trick it leads
    # its lowest card first, the spade ace, and still takes it.
    hands = [cards("As Ah"), cards("2h 3s"), cards("4h 5s"), cards("6h 7s")]
    kind = DEAL_KINDS.index("regular")
    for wants, taken in ((True, 2), (False, 2), (None, 2)):
        world = World([list(h) for h in hands], [], 0, NO_TRUMP, [0] * 4, [0, 0, 0, 0], 0)
        play_out(world, NO_TRUMP, kind, 0, observer_wants=wants)
        assert world.tricks[0] == taken
    # Holding a low card in each suit, it takes nothing whatever it wants.
    hands = [cards("2s 2h"), cards("Ah 3s"), cards("4h As"), cards("6h 7s")]
    world = World([list(h) for h in hands], [], 0, NO_TRUMP, [0] * 4, [2, 0, 0, 0], 0)
    play_out(world, NO_TRUMP, kind, 0, observer_wants=True)
    assert world.tricks[0] == 0


def test_both_jokers_reach_every_trick_taking_or_shedding() -> None:
    features, _ = both_jokers(reach_features, [])
    rows = rows_of(features)
    assert np.isclose(features[REACH_CONTEXT - 1], 2 / 8)  # ducking_expected
    # Shedding every trick it still takes both: at most 0 or 1 never, at most 2 always.
    assert rows[BID : BID + 3, REACH["reach_ducking"]].tolist() == [0, 0, 1]
    features, mask = both_jokers(reach_features, [BID + 2, BID, BID, BID])
    rows = rows_of(features)
    leads = np.flatnonzero(mask)
    assert leads.tolist() == list(range(LEAD_JOKER, LEAD_JOKER + 4))
    assert np.allclose(rows[leads, REACH["reach_taking"]], 2 / 8)
    assert np.allclose(rows[leads, REACH["reach_ducking"]], 2 / 8)
    # It bid 2: the reach holds the target exactly.
    assert (rows[leads, REACH["short_of_target"]] == 0).all()
    assert (rows[leads, REACH["over_target"]] == 0).all()


def test_a_trick_taken_now_is_in_the_reach_and_a_lost_one_is_not() -> None:
    # player_0 plays last to 2c 4c 5c holding Ac 3c: the ace takes this trick for certain, the
    # three loses it; one trick is left to play.
    hands = ["Ac 3c", "2c 3h", "4c 5h", "5c 6h"]
    leads = [PLAY + parse_card(card) for card in ("2c", "4c", "5c")]
    observation, _ = two_card_deal(hands, "2d", [BID] * 4 + leads)
    rows = rows_of(reach_features(observation))
    ace, three = PLAY + parse_card("Ac"), PLAY + parse_card("3c")
    for column in ("reach_taking", "reach_ducking"):
        assert 1 / 8 <= rows[ace, REACH[column]] <= 2 / 8
        assert 0 <= rows[three, REACH[column]] <= 1 / 8
    # Leading the three to the last trick is taking it only if nobody follows clubs or trumps:
    # after the ace, shedding takes fewer tricks than playing for them, never more.
    assert rows[ace, REACH["reach_ducking"]] <= rows[ace, REACH["reach_taking"]]
    # Everyone bid 0: the ace goes over the target by its certain trick at least, never short.
    assert rows[ace, REACH["over_target"]] == rows[ace, REACH["reach_ducking"]] >= 1 / 8
    assert rows[ace, REACH["short_of_target"]] == rows[three, REACH["short_of_target"]] == 0


def test_reach_extends_the_odds_features() -> None:
    observations, masks = bot_decisions("nameless_poker", "rules", 1, deals=[3, 8, 19, 27])
    features = reach_features(observations)
    odds = odds_features(observations)
    n = len(features)
    assert np.array_equal(features[:, :ODDS_CONTEXT], odds[:, :ODDS_CONTEXT])
    rows = features[:, REACH_CONTEXT:].reshape(n, NUM_ACTIONS, REACH_ROW_WIDTH)
    assert np.array_equal(
        rows[..., :ODDS_ROW_WIDTH], odds[:, ODDS_CONTEXT:].reshape(n, NUM_ACTIONS, -1)
    )
    reach = rows[..., ODDS_ROW_WIDTH:]
    assert ((reach >= 0) & (reach <= 1)).all()
    bidding = features[:, CTX["bidding"]] > 0
    assert (reach[bidding][:, PLAY:] == 0).all() and (reach[~bidding][:, BID:PLAY] == 0).all()
    several = masks.sum(axis=1) > 1
    choices = ~bidding & several
    legal = masks[choices]
    taken = features[choices, CTX["own_tricks"], None]  # a deal's tricks so far count
    reached = reach[choices][legal][:, :2]  # reach_taking, reach_ducking
    assert (reached >= np.broadcast_to(taken, legal.shape)[legal][:, None]).all()
    assert (reach[choices][~legal] == 0).all() and reach[choices].sum() > 0
    sizes = np.rint(features[:, CTX["hand_size"]] * 8).astype(int)
    at_most_rows = rows[bidding, BID:PLAY, REACH["reach_ducking"]]
    for at_most, size in zip(at_most_rows, sizes[bidding], strict=True):
        # A share "at most b" grows with b up to the hand size, where it is certain.
        assert (np.diff(at_most[: size + 1]) >= -1e-6).all() and at_most[size] == 1


def test_the_same_observation_gets_the_same_reach_alone_or_in_a_batch() -> None:
    check_features_alone_or_in_a_batch(reach_features, reach_rule, RULE, [6, 8], (0, 7, -1))


def test_an_observation_is_decoded_once_for_its_odds_and_its_reach(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The reach features measure an observation twice (its odds, then its reach) from one
    decoded view, and give the same rows as with every view decoded afresh."""
    from pokerzoo.training.games.nameless_poker import odds

    observations = bot_decisions("nameless_poker", "rules", 1)[0][:60]
    odds._VIEWS.clear()
    decoded = []
    real = odds.decode_observation
    monkeypatch.setattr(odds, "decode_observation", lambda o: decoded.append(1) or real(o))
    once = reach_features(observations)
    assert len(decoded) == len({odds.observation_key(o) for o in observations})
    monkeypatch.setattr(odds, "_decoded", lambda key, observation: real(observation))
    assert np.array_equal(reach_features(observations), once)


def rule_rows(kind: str, bid: int, reach: dict[str, tuple[float, float]]) -> np.ndarray:
    """One ``"reach"`` feature row while playing a ``kind`` deal with ``bid``; ``reach`` maps a
    card to its (taking, ducking) reach in tricks."""
    features = np.zeros(REACH_CONTEXT + NUM_ACTIONS * REACH_ROW_WIDTH, dtype=np.float32)
    features[CTX["playing"]] = 1
    features[CTX[kind]] = 1
    features[CTX["own_bid"]] = bid / 8
    rows = features[REACH_CONTEXT:].reshape(NUM_ACTIONS, REACH_ROW_WIDTH)
    target = {"minimum": 0, "maximum": 3}.get(kind, bid)  # a 3-card hand
    for card, (taking, ducking) in reach.items():
        row = rows[PLAY + parse_card(card)]
        row[REACH["reach_taking"]] = taking / 8
        row[REACH["reach_ducking"]] = ducking / 8
        row[REACH["short_of_target"]] = max(target - taking, 0) / 8
        row[REACH["over_target"]] = max(ducking - target, 0) / 8
    return features


@pytest.mark.parametrize(
    ("kind", "bid", "reach", "plays", "why"),
    [
        ("regular", 2, {"Ah": (2.6, 1.8), "2h": (1.4, 0.9)}, "Ah", "only the ace can make 2"),
        ("regular", 1, {"Ah": (2.6, 1.8), "2h": (1.4, 0.9)}, "2h", "the ace takes too many"),
        ("regular", 1, {"Ah": (2.0, 0.5), "2h": (1.4, 0.9)}, "Ah", "both contain 1: the odds"),
        ("minimum", 0, {"Ah": (2.6, 1.8), "2h": (1.4, 0.9)}, "2h", "fewest tricks shedding"),
        ("maximum", 0, {"Ah": (2.6, 1.8), "2h": (2.9, 0.9)}, "2h", "most tricks taking"),
    ],
)
def test_the_reach_rule_plays_the_card_whose_reach_holds_the_bid(
    kind: str, bid: int, reach: dict[str, tuple[float, float]], plays: str, why: str
) -> None:
    features = rule_rows(kind, bid, reach)[None]
    mask = np.zeros((1, NUM_ACTIONS), dtype=bool)
    for card in reach:
        mask[0, PLAY + parse_card(card)] = True
    if kind == "regular" and why.endswith("the odds"):
        # A tie goes to the odds rule: wanting the trick, the card likelier to take it.
        features[0, CTX["want"]] = 1
        rows = features[0, REACH_CONTEXT:].reshape(NUM_ACTIONS, REACH_ROW_WIDTH)
        rows[PLAY + parse_card("Ah"), TAKES] = 0.9
        rows[PLAY + parse_card("2h"), TAKES] = 0.1
    assert reach_rule(features, mask, **RULE)[0] == PLAY + parse_card(plays), why
