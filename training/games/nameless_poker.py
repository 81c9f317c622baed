"""Poker without a name's training hooks: the ``"tricks"``, ``"odds"``, ``"reach"`` and
``"target"`` features (:mod:`.nameless_features`, :mod:`.nameless_odds`, :mod:`.nameless_reach`),
the hand-written rule over each that evaluation reports beside the agent, what ``pokerzoo play``
shows a person and how it reads a move (``bid 3``, ``play Qh``, ``lead Jk calling hearts``)."""

from __future__ import annotations

import numpy as np

from ...envs.core.cards import JOKER, SUITS, format_card, format_cards, parse_card
from ...envs.nameless_poker import (
    ACTIONS,
    BID,
    LEAD_JOKER,
    NO_TRUMP,
    NUM_ACTIONS,
    NUM_PLAYERS,
    PLAY,
    decode_observation,
)
from ..hooks import TrainingHooks
from ..rules import FeatureRule
from .nameless_features import CONTEXT, CONTEXT_NAMES, ROW_NAMES, ROW_WIDTH, TRICKS
from .nameless_odds import ODDS, ODDS_CONTEXT, ODDS_ROW_NAMES, ODDS_ROW_WIDTH
from .nameless_reach import (
    REACH,
    REACH_CONTEXT,
    REACH_ROW_NAMES,
    REACH_ROW_WIDTH,
    TARGET,
    TARGET_ROW_WIDTH,
)

__all__ = [
    "HOOKS",
    "describe",
    "odds_rule",
    "parse_move",
    "reach_rule",
    "target_rule",
    "tricks_rule",
]

_SUIT_NAMES = {"spades": 0, "hearts": 1, "diamonds": 2, "clubs": 3}


def describe(observation: np.ndarray) -> str:
    """The deal, trump, the person's hand, the bids and tricks, the trick on the table."""
    view = decode_observation(observation)

    def seat(relative: int) -> str:
        return f"player_{(view.seat + relative) % NUM_PLAYERS}"

    trump = "no trump" if view.trump == NO_TRUMP else f"trump {SUITS[view.trump]}"
    hand = "hidden until you bid (dark deal)" if view.hand_hidden else format_cards(view.hand)
    lines = [
        f"deal {view.deal} ({view.kind}, {view.hand_size} cards), {trump}; you are {seat(0)}",
        f"your hand: {hand}",
    ]
    for k in range(NUM_PLAYERS):
        bid = "-" if view.bids[k] is None else view.bids[k]
        lines.append(f"  {seat(k)}: bid {bid}, tricks {view.tricks[k]}, total {view.totals[k]}")
    if view.trick:
        played = ", ".join(
            f"{seat((view.leader + i) % NUM_PLAYERS)} {format_card(c)}"
            for i, c in enumerate(view.trick)
        )
        called = "" if view.called_suit == NO_TRUMP else f" (calling {SUITS[view.called_suit]})"
        lines.append(f"trick: {played}{called}")
    return "\n".join(lines)


def parse_move(answer: str, observation: np.ndarray, mask: np.ndarray) -> int:
    """``"bid 3"`` -> 3, ``"play Qh"`` -> the card's action, ``"lead Jk calling hearts"`` (or
    ``"lead Jk h"``) -> the joker lead naming hearts."""
    words = answer.split()
    if len(words) == 2 and words[0] == "bid" and words[1].isdigit():
        return BID + int(words[1])
    if len(words) == 2 and words[0] == "play":
        return PLAY + parse_card(words[1])
    if len(words) >= 3 and words[0] == "lead" and parse_card(words[1]) == JOKER:
        suit = words[-1]
        if suit in SUITS:
            return LEAD_JOKER + SUITS.index(suit)
        if suit in _SUIT_NAMES:
            return LEAD_JOKER + _SUIT_NAMES[suit]
    raise ValueError(f"bad move {answer!r}: type 'bid 3', 'play Qh' or 'lead Jk calling hearts'")


_C = {name: i for i, name in enumerate(CONTEXT_NAMES)}
_R = {name: i for i, name in enumerate(ROW_NAMES)}


def tricks_rule(
    features: np.ndarray,
    masks: np.ndarray,
    *,
    master_value: float,
    trump_value: float,
    void_value: float,
    dark_bid: float,
) -> np.ndarray:
    """The best short rule a person writes over the ``"tricks"`` features, to measure what
    training adds to them.

    Bid: the legal bid nearest ``master_value`` per master + ``trump_value`` per other trump or
    joker + ``void_value`` per void side suit (``dark_bid`` with the hand hidden). Play, wanting
    the trick (under the bid, or a maximum deal): the cheapest card that takes it when last to
    play, else the strongest that takes it; leading, the strongest master (a joker lead names
    trump); with nothing that takes it, the weakest card. Not wanting it: the strongest card
    that does not take it (leading: the weakest), else the weakest.
    """
    ctx = features[:, :CONTEXT]
    rows = features[:, CONTEXT:].reshape(len(features), NUM_ACTIONS, ROW_WIDTH)
    strength = rows[..., _R["joker"]] * 100 + rows[..., _R["trump"]] * 50 + rows[..., _R["rank"]]
    strength = strength + rows[..., _R["is_joker_lead"]] * rows[..., _R["names_trump"]] * 0.5
    masters = ctx[:, _C["masters"]] * 8
    others = (ctx[:, _C["trumps"]] * 8 + ctx[:, _C["jokers"]] * 2) - masters
    estimate = np.where(
        ctx[:, _C["hand_hidden"]] > 0,
        dark_bid,
        master_value * masters
        + trump_value * np.maximum(others, 0)
        + void_value * ctx[:, _C["side_voids"]] * 3,
    )
    bid_distance = np.abs(np.arange(PLAY - BID)[None, :] - estimate[:, None])
    beats = rows[..., _R["beats_now"]] > 0
    leading = ctx[:, _C["trick_position_0"]] > 0
    last = ctx[:, _C["trick_position_3"]] > 0
    want = ctx[:, _C["want"]] > 0
    taking = np.where(leading[:, None], rows[..., _R["master"]] > 0, beats) & masks
    inf = np.float32(1e9)
    weakest = np.where(masks, strength, inf).argmin(axis=1)
    strongest_taking = np.where(taking, strength, -inf).argmax(axis=1)
    cheapest_taking = np.where(taking, strength, inf).argmin(axis=1)
    losing = masks & ~beats & ~leading[:, None]
    strongest_losing = np.where(losing, strength, -inf).argmax(axis=1)
    play = np.where(
        want,
        np.where(
            taking.any(axis=1),
            np.where(last, cheapest_taking, strongest_taking),
            weakest,
        ),
        np.where(losing.any(axis=1), strongest_losing, weakest),
    )
    bid = np.where(masks[:, BID:PLAY], bid_distance, inf).argmin(axis=1) + BID
    return np.where(ctx[:, _C["bidding"]] > 0, bid, play)


_O = {name: ROW_WIDTH + i for i, name in enumerate(ODDS_ROW_NAMES)}


def odds_rule(
    features: np.ndarray, masks: np.ndarray, *, bid_confidence: float, take_confidence: float
) -> np.ndarray:
    """The best short rule a person writes over the ``"odds"`` features.

    Bid: the highest legal bid the hand takes at least as often as ``bid_confidence`` (playing
    for every trick; 0 when none). Play, wanting the trick (under the bid, or a maximum deal):
    the weakest card that takes it at least ``take_confidence`` of the time, else the card
    likeliest to take it, else (none takes it) the weakest card. Not wanting it: the card least
    likely to take it, the strongest of those.
    """
    ctx = features[:, :ODDS_CONTEXT]
    rows = features[:, ODDS_CONTEXT:].reshape(len(features), NUM_ACTIONS, ODDS_ROW_WIDTH)
    strength = rows[..., _R["joker"]] * 100 + rows[..., _R["trump"]] * 50 + rows[..., _R["rank"]]
    strength = strength + rows[..., _R["is_joker_lead"]] * rows[..., _R["names_trump"]] * 0.5
    takes = rows[..., _O["takes_trick"]]
    inf = np.float32(1e9)
    bids = masks[:, BID:PLAY] & (rows[:, BID:PLAY, _O["tricks_at_least"]] >= bid_confidence)
    bids[:, 0] |= masks[:, BID]
    bid = np.where(bids, np.arange(PLAY - BID)[None, :], -1).argmax(axis=1) + BID
    no_bid = ~bids.any(axis=1)  # bid 0 forbidden (dealer restriction) and nothing sure enough
    nearest = np.where(masks[:, BID:PLAY], np.arange(PLAY - BID)[None, :], 99).argmin(axis=1)
    bid = np.where(no_bid, nearest + BID, bid)
    sure = masks & (takes >= take_confidence)
    weakest = np.where(masks, strength, inf).argmin(axis=1)
    weakest_sure = np.where(sure, strength, inf).argmin(axis=1)
    likeliest = np.where(masks, takes * 1000 - strength, -inf).argmax(axis=1)
    any_takes = (masks & (takes > 0)).any(axis=1)
    want = ctx[:, _C["want"]] > 0
    take = np.where(sure.any(axis=1), weakest_sure, np.where(any_takes, likeliest, weakest))
    shed = np.where(masks, takes * 1000 - strength, inf).argmin(axis=1)
    play = np.where(want, take, shed)
    return np.where(ctx[:, _C["bidding"]] > 0, bid, play)


_Q = {name: ODDS_ROW_WIDTH + i for i, name in enumerate(REACH_ROW_NAMES)}


def reach_rule(
    features: np.ndarray,
    masks: np.ndarray,
    *,
    bid_confidence: float,
    take_confidence: float,
    flex_weight: float,
) -> np.ndarray:
    """The best short rule a person writes over the ``"reach"`` features.

    Bid as :func:`odds_rule`. Play: the card whose reach (the tricks the hand ends with playing
    for every trick after it, and shedding every trick) is nearest to containing the target
    (the bid; a minimum deal: none; a maximum deal: every trick), preferring by ``flex_weight``
    the card that leaves the widest reach; ties go to :func:`odds_rule`'s card."""
    n = len(features)
    ctx = features[:, :REACH_CONTEXT]
    rows = features[:, REACH_CONTEXT:].reshape(n, NUM_ACTIONS, REACH_ROW_WIDTH)
    odds = np.concatenate(
        [ctx[:, :ODDS_CONTEXT], rows[..., :ODDS_ROW_WIDTH].reshape(n, -1)], axis=1
    )
    fallback = odds_rule(
        odds, masks, bid_confidence=bid_confidence, take_confidence=take_confidence
    )
    width = rows[..., _Q["reach_taking"]] - rows[..., _Q["reach_ducking"]]
    miss = rows[..., _Q["short_of_target"]] + rows[..., _Q["over_target"]]
    cost = np.where(masks, miss - flex_weight * width, np.inf)
    best = cost.min(axis=1, keepdims=True)
    # Odds rule's card among the cheapest (within a rounding error of the sampled means).
    tied = masks & (cost <= best + 1e-4)
    pick = np.where(tied[np.arange(n), fallback], fallback, cost.argmin(axis=1))
    playing = (ctx[:, _C["bidding"]] == 0) & (masks.sum(axis=1) > 1)
    return np.where(playing, pick, fallback)


def target_rule(
    features: np.ndarray,
    masks: np.ndarray,
    *,
    bid_confidence: float,
    take_confidence: float,
    flex_weight: float,
    bid_lean: float,
) -> np.ndarray:
    """The best short rule a person writes over the ``"target"`` features.

    Bid: the bid most often within the hand's reach (``target_in_reach``), plus ``bid_lean``
    per trick bid, so that a higher bid wins a near tie (it scores more when made). Play: the
    card after which the target is most often within reach; among those (within a rounding
    error) :func:`reach_rule`'s card, which also decides when no card keeps it within reach."""
    n = len(features)
    rows = features[:, REACH_CONTEXT:].reshape(n, NUM_ACTIONS, TARGET_ROW_WIDTH)
    reach = np.concatenate(
        [features[:, :REACH_CONTEXT], rows[..., :REACH_ROW_WIDTH].reshape(n, -1)], axis=1
    )
    fallback = reach_rule(
        reach,
        masks,
        bid_confidence=bid_confidence,
        take_confidence=take_confidence,
        flex_weight=flex_weight,
    )
    inside = rows[..., REACH_ROW_WIDTH]
    lean = np.zeros(NUM_ACTIONS, dtype=np.float32)
    lean[BID:PLAY] = bid_lean * np.arange(PLAY - BID)
    value = np.where(masks, inside + lean, -np.inf)
    best = value.max(axis=1, keepdims=True)
    tied = masks & (value >= best - 1e-4)
    pick = np.where(tied[np.arange(n), fallback], fallback, value.argmax(axis=1))
    measured = (masks & (inside > 0)).any(axis=1)
    return np.where(measured, pick, fallback)


HOOKS = TrainingHooks(
    features={"tricks": TRICKS, "odds": ODDS, "reach": REACH, "target": TARGET},
    rules={
        "tricks": FeatureRule(
            features="tricks",
            decide=tricks_rule,
            params={"master_value": 1.0, "trump_value": 0.4, "void_value": 0.0, "dark_bid": 1.0},
            grid={
                "master_value": (0.8, 1.0),
                "trump_value": (0.2, 0.4, 0.6),
                "void_value": (0.0, 0.3),
                "dark_bid": (0.0, 1.0),
            },
            summary="bid masters + a share of other trumps and voids; take tricks while under "
            "the bid with the cheapest sure card, else shed the strongest losing card",
        ),
        "odds": FeatureRule(
            features="odds",
            decide=odds_rule,
            params={"bid_confidence": 0.7, "take_confidence": 0.7},
            grid={
                "bid_confidence": (0.5, 0.6, 0.7, 0.8),
                "take_confidence": (0.5, 0.7, 0.9),
            },
            summary="bid the tricks the hand takes often enough; take tricks while under the "
            "bid with the weakest card likely enough to take it, else shed the card least "
            "likely to",
        ),
        "reach": FeatureRule(
            features="reach",
            decide=reach_rule,
            params={"bid_confidence": 0.7, "take_confidence": 0.7, "flex_weight": 0.0},
            grid={
                "bid_confidence": (0.6, 0.7, 0.8),
                "take_confidence": (0.7,),
                "flex_weight": (0.0, 0.1),
            },
            summary="bid as the odds rule; play the card whose reach (tricks playing for "
            "every trick after it, and shedding every trick) best contains the bid",
        ),
        "target": FeatureRule(
            features="target",
            decide=target_rule,
            params={
                "bid_confidence": 0.7,
                "take_confidence": 0.7,
                "flex_weight": 0.0,
                "bid_lean": 0.05,
            },
            grid={"bid_lean": (0.0, 0.05, 0.1, 0.2)},
            summary="bid what the hand most often keeps within reach (leaning to higher "
            "bids); play the card after which the target is most often within reach",
        ),
    },
    describe=describe,
    parse_action=parse_move,
    action_text=lambda action, observation: ACTIONS[action],
    prompt="bid N / play CARD / lead Jk calling SUIT",
    play_bot="rules",
)
