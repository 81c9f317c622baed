"""Poker without a name's ``"tricks"`` columns, the base of the ``"reach"`` features
(:mod:`.reach`): what a seat's observation says about the deal, counted for it, with one row
per action for ``ppo.policy: per_action``.

The raw observation holds every fact a decision needs (the hand, the trump, the bids, the cards
played, the voids) but as card bits whose meaning depends on the trump and the trick on the
table. These features describe the state in the terms a player thinks in, and nothing more:
the tricks the seat still needs and the tricks left, the others' needs, trumps and jokers held,
masters (cards no unseen card of their suit outranks), void suits, what is still out; and per
action, a bid's distance from the hand's counts, a card's suit, rank, whether it takes the trick
on the table now, whether it is a master. No bot is asked anything: the policy learns from its
returns what to make of the counts.

Layout (``(N, CONTEXT + NUM_ACTIONS * ROW_WIDTH)`` float32): the context columns
(:data:`CONTEXT_NAMES`), then a row of :data:`ROW_NAMES` per action (bids, card plays, joker
leads naming each suit). Counts are scaled to about 0..1.
"""

from __future__ import annotations

import numpy as np

from ....envs.core.cards import JOKER, NUM_CARD_IDS
from ....envs.nameless_poker import BID, LAYOUT, LEAD_JOKER, NUM_ACTIONS, PLAY
from ...features import batched

__all__ = ["CONTEXT", "CONTEXT_NAMES", "ROW_NAMES", "ROW_WIDTH", "tricks_features"]

CONTEXT_NAMES: tuple[str, ...] = (
    "bidding",
    "playing",
    "hand_hidden",
    "regular",
    "dark",
    "minimum",
    "maximum",
    "hand_size",
    "deals_left",
    "trick_position_0",
    "trick_position_1",
    "trick_position_2",
    "trick_position_3",
    "own_bid",
    "own_tricks",
    "need",
    "made",
    "over",
    "bid_zero",
    "tricks_left",
    "need_above_left",
    "others_bids",
    "bids_over_size",
    "bids_made",
    "need_left",
    "need_across",
    "need_right",
    "want",
    "cards",
    "jokers",
    "trumps",
    "high_trumps",
    "side_aces",
    "side_kings",
    "side_voids",
    "spades",
    "hearts",
    "diamonds",
    "clubs",
    "masters",
    "trumps_out",
    "jokers_out",
    "no_trump",
)
"""What each context column counts (tricks and bids over 8, a seat's own, ``need`` = bid minus
tricks taken, ``want``: it profits from taking the next trick)."""
ROW_NAMES: tuple[str, ...] = (
    "is_bid",
    "bid",
    "bid_minus_masters",
    "bid_minus_trumps",
    "bid_is_zero",
    "bid_minus_room",
    "is_card",
    "is_joker_lead",
    "names_trump",
    "trump",
    "joker",
    "rank",
    "beats_now",
    "beats_and_wanted",
    "master",
    "higher_out",
    "own_in_suit",
    "out_in_suit",
    "follows_led",
    "lowest_of_suit",
    "highest_of_suit",
    "bid_off_masters",
    "bid_off_honours",
    "bid_off_trumps",
    "bid_pays",
    "bid_over_room",
)
"""What each per-action row holds (a joker lead's row describes the joker, and its suit columns
the suit it names). A bid's ``bid_off_*`` columns are its distance either way from a count of
the hand (masters; honours: jokers, trumps from the queen up and side aces; trumps and jokers),
so that "bid what the hand takes" is one weight away; ``bid_pays`` is what the bid scores if
made (RULES §4), ``bid_over_room`` how far it goes past the tricks the others' bids leave."""
CONTEXT = len(CONTEXT_NAMES)
ROW_WIDTH = len(ROW_NAMES)
_C = {name: i for i, name in enumerate(CONTEXT_NAMES)}
_R = {name: i for i, name in enumerate(ROW_NAMES)}

_AT = LAYOUT.starts()
_RANK = np.arange(JOKER) // 4
_SUIT = np.arange(JOKER) % 4
_SAME_SUIT = (_SUIT[:, None] == _SUIT[None, :]).astype(np.float32)  # (52, 52)
_HIGHER = _SAME_SUIT * (_RANK[None, :] > _RANK[:, None])  # [c, c']: c' outranks c in its suit
_COPIES = np.array([1] * JOKER + [2], dtype=np.float32)


def _field(obs: np.ndarray, name: str) -> np.ndarray:
    return obs[:, LAYOUT[name]]


def _beats(card: np.ndarray, best: np.ndarray, trump: np.ndarray) -> np.ndarray:
    """Batched :func:`pokerzoo.envs.nameless_poker.deals.beats` (``trump`` 4: no trump)."""
    same = (card % 4) == (best % 4)
    natural = np.where(same, card > best, (card % 4) == trump)
    return (card == JOKER) | ((best != JOKER) & natural)


def _trick_best(obs: np.ndarray, trump: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The card taking the current trick so far (-1: no trick) and the cards on it."""
    slots = _field(obs, "trick").reshape(len(obs), 3, NUM_CARD_IDS)
    present = slots.any(axis=2)
    cards = np.where(present, slots.argmax(axis=2), -1)
    best = cards[:, 0].copy()
    for i in (1, 2):
        take = present[:, i] & _beats(cards[:, i], best, trump)
        best = np.where(take, cards[:, i], best)
    return best, present.sum(axis=1)


@batched
def tricks_features(observations: np.ndarray) -> np.ndarray:
    """``(N, 389)`` observations -> ``(N, CONTEXT + 66 * ROW_WIDTH)`` features (module doc)."""
    obs = observations.astype(np.float32)
    n = len(obs)
    hand = _field(obs, "hand")
    trump = _field(obs, "trump").argmax(axis=1)  # 4: no trump
    kind = _field(obs, "deal_kind")
    phase = _field(obs, "phase")
    size = obs[:, _AT.hand_size]
    bids = _field(obs, "bids")
    made_bid = _field(obs, "bid_made")
    tricks = _field(obs, "tricks")
    unseen = _COPIES - _field(obs, "played") - _field(obs, "turned_card") - hand
    unseen = np.maximum(unseen, 0)

    natural = hand[:, :JOKER]
    is_trump = (_SUIT[None, :] == trump[:, None]).astype(np.float32)  # (N, 52)
    higher_out = unseen[:, :JOKER] @ _HIGHER.T  # unseen cards of the suit above each card
    master = np.concatenate([(natural > 0) & (higher_out == 0), hand[:, JOKER:] > 0], axis=1)
    suit_counts = natural.reshape(n, 13, 4).sum(axis=1)
    out_counts = unseen[:, :JOKER].reshape(n, 13, 4).sum(axis=1)
    trumps = (natural * is_trump).sum(axis=1)
    has_trump = trump < 4
    side = ~np.eye(5, dtype=bool)[trump][:, :4]  # (N, 4) the suits that are not trump
    voids = (suit_counts == 0) & side & has_trump[:, None] & (natural.sum(axis=1) > 0)[:, None]
    ace = natural[:, 48:52]
    king = natural[:, 44:48]
    high_trumps = (natural * is_trump * (_RANK >= 10)).sum(axis=1)

    best, on_table = _trick_best(obs, trump)
    need = bids[:, 0] - tricks[:, 0]
    left = size - tricks.sum(axis=1)
    want = np.where(kind[:, 3] > 0, 1.0, np.where(kind[:, 2] > 0, 0.0, need > 0))
    others_bids = (bids[:, 1:] * made_bid[:, 1:]).sum(axis=1)
    playing = phase[:, 1] > 0

    ctx = np.zeros((n, CONTEXT), dtype=np.float32)
    ctx[:, _C["bidding"]] = phase[:, 0]
    ctx[:, _C["playing"]] = phase[:, 1]
    ctx[:, _C["hand_hidden"]] = obs[:, _AT.hand_hidden]
    ctx[:, _C["regular"] : _C["maximum"] + 1] = kind
    ctx[:, _C["hand_size"]] = size / 8
    ctx[:, _C["deals_left"]] = obs[:, _AT.deals_left] / 29
    ctx[np.arange(n), _C["trick_position_0"] + on_table] = playing
    ctx[:, _C["own_bid"]] = bids[:, 0] / 8
    ctx[:, _C["own_tricks"]] = tricks[:, 0] / 8
    ctx[:, _C["need"]] = need / 8
    ctx[:, _C["made"]] = made_bid[:, 0] * (need == 0)
    ctx[:, _C["over"]] = need < 0
    ctx[:, _C["bid_zero"]] = made_bid[:, 0] * (bids[:, 0] == 0)
    ctx[:, _C["tricks_left"]] = left / 8
    ctx[:, _C["need_above_left"]] = need > left
    ctx[:, _C["others_bids"]] = others_bids / 8
    ctx[:, _C["bids_over_size"]] = ((bids * made_bid).sum(axis=1) - size) / 8
    ctx[:, _C["bids_made"]] = made_bid.sum(axis=1) / 4
    ctx[:, _C["need_left"] : _C["need_right"] + 1] = made_bid[:, 1:] * (bids - tricks)[:, 1:] / 8
    ctx[:, _C["want"]] = want
    ctx[:, _C["cards"]] = hand.sum(axis=1) / 8
    ctx[:, _C["jokers"]] = hand[:, JOKER] / 2
    ctx[:, _C["trumps"]] = trumps / 8
    ctx[:, _C["high_trumps"]] = high_trumps / 3
    ctx[:, _C["side_aces"]] = (ace * side).sum(axis=1) / 3
    ctx[:, _C["side_kings"]] = (king * side).sum(axis=1) / 3
    ctx[:, _C["side_voids"]] = voids.sum(axis=1) / 3
    ctx[:, _C["spades"] : _C["clubs"] + 1] = suit_counts / 8
    ctx[:, _C["masters"]] = (master.sum(axis=1) + hand[:, JOKER] - (hand[:, JOKER] > 0)) / 8
    ctx[:, _C["trumps_out"]] = (out_counts * np.eye(5)[trump][:, :4]).sum(axis=1) / 13
    ctx[:, _C["jokers_out"]] = unseen[:, JOKER] / 2
    ctx[:, _C["no_trump"]] = ~has_trump

    rows = np.zeros((n, NUM_ACTIONS, ROW_WIDTH), dtype=np.float32)
    masters = ctx[:, _C["masters"]] * 8
    bid_values = np.arange(9, dtype=np.float32)[None, :]
    bid_rows = rows[:, BID : BID + 9]
    bid_rows[..., _R["is_bid"]] = 1
    bid_rows[..., _R["bid"]] = bid_values / 8
    bid_rows[..., _R["bid_minus_masters"]] = (bid_values - masters[:, None]) / 8
    trumps_and_jokers = (trumps + hand[:, JOKER])[:, None]
    bid_rows[..., _R["bid_minus_trumps"]] = (bid_values - trumps_and_jokers) / 8
    bid_rows[..., _R["bid_is_zero"]] = bid_values == 0
    bid_rows[..., _R["bid_minus_room"]] = (bid_values - (size - others_bids)[:, None]) / 8
    honours = hand[:, JOKER] + high_trumps + (ace * side).sum(axis=1)
    bid_rows[..., _R["bid_off_masters"]] = np.abs(bid_values - masters[:, None]) / 8
    bid_rows[..., _R["bid_off_honours"]] = np.abs(bid_values - honours[:, None]) / 8
    bid_rows[..., _R["bid_off_trumps"]] = np.abs(bid_values - trumps_and_jokers) / 8
    bid_rows[..., _R["bid_pays"]] = np.where(bid_values == 0, 5, 10 * bid_values) / 80
    room = (size - others_bids)[:, None]
    bid_rows[..., _R["bid_over_room"]] = np.maximum(bid_values - room, 0) / 8

    cards = np.arange(NUM_CARD_IDS)
    beats = _beats(cards[None, :], best[:, None], trump[:, None]) & (best[:, None] >= 0)
    led = np.where(best >= 0, _field(obs, "trick")[:, :NUM_CARD_IDS].argmax(axis=1) % 4, -1)
    held = hand > 0
    by_suit = natural.reshape(n, 13, 4) > 0
    below = np.cumsum(by_suit, axis=1) - by_suit  # own cards of the suit below each rank
    above = by_suit.sum(axis=1, keepdims=True) - np.cumsum(by_suit, axis=1)
    low_of_suit = (by_suit & (below == 0)).reshape(n, JOKER)
    high_of_suit = (by_suit & (above == 0)).reshape(n, JOKER)
    card_rows = rows[:, PLAY : PLAY + NUM_CARD_IDS]
    card_rows[..., _R["is_card"]] = held
    card_rows[:, :JOKER, _R["trump"]] = is_trump
    card_rows[:, JOKER, _R["joker"]] = 1
    card_rows[:, :JOKER, _R["rank"]] = _RANK / 12
    card_rows[:, JOKER, _R["rank"]] = 1
    card_rows[..., _R["beats_now"]] = beats
    card_rows[..., _R["beats_and_wanted"]] = beats * want[:, None]
    card_rows[..., _R["master"]] = master
    card_rows[:, :JOKER, _R["higher_out"]] = higher_out / 12
    card_rows[:, :JOKER, _R["own_in_suit"]] = suit_counts[:, _SUIT] / 8
    card_rows[:, :JOKER, _R["out_in_suit"]] = out_counts[:, _SUIT] / 13
    card_rows[:, :JOKER, _R["follows_led"]] = _SUIT[None, :] == led[:, None]
    card_rows[:, :JOKER, _R["lowest_of_suit"]] = low_of_suit
    card_rows[:, :JOKER, _R["highest_of_suit"]] = high_of_suit
    lead_rows = rows[:, LEAD_JOKER:]
    lead_rows[...] = card_rows[:, JOKER : JOKER + 1]
    lead_rows[..., _R["is_card"]] = 0
    lead_rows[..., _R["is_joker_lead"]] = 1
    lead_rows[..., _R["names_trump"]] = np.arange(4)[None, :] == trump[:, None]
    lead_rows[..., _R["own_in_suit"]] = suit_counts / 8
    lead_rows[..., _R["out_in_suit"]] = out_counts / 13
    return np.concatenate([ctx, rows.reshape(n, -1)], axis=1)
