"""Poker without a name's training hooks: the ``"reach"`` features (:mod:`.reach`, built on
the trick counts of :mod:`.features` and the Monte-Carlo odds of :mod:`.odds`), the hand-written
rule over them that evaluation reports beside the agent (:func:`reach_rule`, which falls back on
:func:`odds_rule`), what ``pokerzoo play`` shows a person and how it reads a move (``bid 3``,
``play Qh``, ``lead Jk calling hearts``)."""

from __future__ import annotations

import numpy as np

from ....envs.core.cards import JOKER, SUITS, format_card, format_cards, parse_card
from ....envs.nameless_poker import (
    ACTIONS,
    BID,
    LEAD_JOKER,
    NO_TRUMP,
    NUM_ACTIONS,
    NUM_PLAYERS,
    PLAY,
    decode_observation,
)
from ...hooks import TrainingHooks
from ...rules import FeatureRule
from .features import CONTEXT_NAMES, ROW_NAMES, ROW_WIDTH
from .odds import ODDS_CONTEXT, ODDS_ROW_NAMES, ODDS_ROW_WIDTH
from .reach import REACH, REACH_CONTEXT, REACH_ROW_NAMES, REACH_ROW_WIDTH

__all__ = [
    "HOOKS",
    "describe",
    "odds_rule",
    "parse_move",
    "reach_rule",
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


_O = {name: ROW_WIDTH + i for i, name in enumerate(ODDS_ROW_NAMES)}


def odds_rule(
    features: np.ndarray, masks: np.ndarray, *, bid_confidence: float, take_confidence: float
) -> np.ndarray:
    """The best short rule a person writes over the ``"odds"`` columns (the ``"reach"``
    features' first columns), :func:`reach_rule`'s fallback.

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


HOOKS = TrainingHooks(
    features={"reach": REACH},
    rules={
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
    },
    describe=describe,
    parse_action=parse_move,
    action_text=lambda action, observation: ACTIONS[action],
    prompt="bid N / play CARD / lead Jk calling SUIT",
    play_bot="rules",
)
