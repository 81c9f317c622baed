"""Five-card stud's training hooks: the ``"equity"`` feature set and the hand-written rule over
it, what ``pokerzoo play`` shows a person and how it reads a move (``fold``, ``check`` or
``call``, ``bet`` or ``raise``).

``"equity"``
------------
The whole-hand features below (shared helpers:
:mod:`pokerzoo.training.poker.features`). They replace the env's observation (852
entries, most of them one-hot up cards, and chip counts near 100 that slowed learning): what it
says is here in 51 numbers of order 1.

The equity is a Monte-Carlo share of the pot at a showdown against the opponents still in, 512
futures a decision, computed once per set of visible cards (cached): each future deals the
cards nobody has seen (the opponents' hole cards, every card still to come) from the pack less
the observer's cards and every up card on the table, folded seats' included. The same futures
give the chances that the hands as they stand now (each opponent's up cards and the hole card
the future deals it, read by groups of ranks as boards are) are behind the observer's, hold a
pair, or are beaten by the observer's up cards alone. In high-low it
values both halves as the game splits them (the low half only for a qualifying low, the whole
pot to the high hand when no low qualifies). The opponents' betting is not read here: the
policy sees it (the ``opponents_bets`` entries and the env's history) and learns what it means.

{table}

The rule ``"equity"`` (:func:`equity_rule`) plays from the same features: bet or raise when the
equity beats a fair share of the pot ``1 / players in`` by ``raise_by``; call (or, in the first
round before anybody bets, bet the minimum) when the equity beats the price's pot odds by
``call_by``; otherwise check or fold.
"""

from __future__ import annotations

import sys

import numpy as np

from ....envs.core.betting import CALL, RAISE
from ....envs.core.cards import Deck, format_cards
from ....envs.core.hands import Category, evaluate, qualifies_low
from ....envs.core.observation import Field, ObservationLayout, document
from ....envs.five_card_stud import FiveCardStudView, decode_observation, showing_key, up_card_rank
from ...features import FeatureSet, per_observation
from ...poker import features as poker_features
from ...poker.equity import BETTING_WORDS, bet_by_equity, equity_hooks

__all__ = ["FEATURES", "HOOKS", "describe", "equity_features", "equity_rule", "parse_move"]

SAMPLES = 512
"""Futures per set of visible cards."""

FEATURES = ObservationLayout(
    [
        Field("equity", 1, 1, "share of the pot expected at a showdown of the players in"),
        Field("ahead_now", 1, 1, "chance the observer's cards now beat every opponent's (up "
              "cards and hole card; groups of ranks only, ties split)"),
        Field("their_made", 1, 1, "chance an opponent's cards now hold a pair or better"),
        Field("board_beats", 1, 1, "chance the observer's up cards alone beat every "
              "opponent's cards now"),
        poker_features.FAIR_SHARE,
        poker_features.POT_ODDS,
        Field("bet_odds", 1, 1, "`bet / (pot + bet)`: the equity a bet of the round's size needs"),
        poker_features.TO_CALL,
        poker_features.POT,
        Field("to_come", 1, 1, "own cards still to come / 3"),
        Field("bets_made", 1, 1, "bets and raises made in this round / cap"),
        Field("made_hand", poker_features.CATEGORIES, 1, "one-hot category of the observer's "
              "cards (fewer than five: groups of ranks only)"),
        Field("their_board", poker_features.CATEGORIES, 1, "one-hot groups of ranks of the best "
              "board showing among the opponents in"),
        Field("their_high", 1, 1, "highest up card rank among the opponents in / 12 (wild: ace)"),
        Field("own_high", 1, 1, "own highest up card rank / 12"),
        Field("beaten", 1, 1, "an opponent's board alone beats the observer's whole hand "
              "(groups of ranks)"),
        Field("board_leads", 1, 1, "the observer's board beats every opponent's board"),
        Field("draws", poker_features.DRAW_INDICATORS, 1, "most cards of a suit / 5, most ranks "
              "in a straight's window / 5, flush open, straight open"),
        Field("opponents_bets", 4, 10, "the opponents' bets/raises, calls, checks, folds "
              "(summed) in this round / 3"),
        Field("own_bets", 4, 10, "the observer's, the same way"),
        Field("earlier_bets", 8, 10, "the same two, summed over the earlier rounds"),
    ],
    dtype=np.float32,
)  # fmt: skip
"""The features, in place of the env's observation."""
_EQUITY, _FAIR, _ODDS, _BET_ODDS = (
    FEATURES.start(name) for name in ("equity", "fair_share", "pot_odds", "bet_odds")
)
_MONTE_CARLO = slice(_EQUITY, _EQUITY + 4)  # equity, ahead_now, their_made, board_beats


def _simulate(view: FiveCardStudView, rng: np.random.Generator) -> np.ndarray:
    """The Monte-Carlo entries (``equity``, ``ahead_now``, ``their_made``, ``board_beats``) of
    the module docstring."""
    seen = [*view.hole, *(card for up in view.up for card in up)]
    counts = Deck(jokers=view.jokers).counts.copy()
    np.subtract.at(counts, seen, 1)
    unseen = np.repeat(np.arange(counts.size), np.maximum(counts, 0))
    known = [view.own_cards] + [view.up[k] for k in view.opponents_in]
    missing = [5 - len(cards) for cards in known]
    futures = poker_features.deal(unseen, SAMPLES, sum(missing), rng)
    hands = np.empty((SAMPLES, len(known), 5), dtype=np.int64)
    start = 0
    for i, cards in enumerate(known):
        hands[:, i, : len(cards)] = cards
        hands[:, i, len(cards) :] = futures[:, start : start + missing[i]]
        start += missing[i]
    wild = view.deuces_wild
    flat = hands.reshape(-1, 5)
    high = evaluate(flat, "standard", deuces_wild=wild).reshape(SAMPLES, -1)
    share = poker_features.pot_share(high[:, 0], high[:, 1:])
    if view.hi_lo:
        low = evaluate(flat, "low", deuces_wild=wild).reshape(SAMPLES, -1)
        qualified = np.asarray(qualifies_low(low, view.low_qualifier))
        low = np.where(qualified, low, -1)
        low_share = np.where(qualified[:, 0], poker_features.pot_share(low[:, 0], low[:, 1:]), 0.0)
        share = np.where(qualified.any(axis=1), 0.5 * share + 0.5 * low_share, share)
    # every opponent's hand now: its up cards and the hole card this future gives it
    now = [
        poker_features.group_keys(hands[:, i, : len(known[i]) + 1], wild)
        for i in range(1, len(known))
    ]
    theirs = np.stack([keys for keys, _ in now], axis=1)
    made = np.stack([category for _, category in now], axis=1).max(axis=1)
    mine = poker_features.group_keys(np.array([view.own_cards]), wild)[0]
    board = poker_features.group_keys(np.array([view.up[0]]), wild)[0]
    return np.array(
        [
            share.mean(),
            poker_features.pot_share(np.broadcast_to(mine, SAMPLES), theirs).mean(),
            (made >= Category.PAIR).mean(),
            (board > theirs.max(axis=1)).mean(),
        ],
        dtype=np.float32,
    )


_CACHE = poker_features.FeatureCache()


def _monte_carlo(view: FiveCardStudView) -> np.ndarray:
    """:func:`_simulate` for these visible cards and options (cached)."""
    key = [*view.hole, -1, *view.in_hand, -1, view.jokers, view.deuces_wild, view.hi_lo]
    key += [view.low_qualifier or 0]
    for up in view.up:
        key += [-1, *up]
    raw = np.array(key, dtype=np.int16).tobytes()
    return _CACHE.get(raw, lambda: _simulate(view, poker_features.seeded(raw)))


def _features(observation: np.ndarray) -> np.ndarray:
    """The features of one observation (zeros when the observer is out or alone, and for the
    all-zero observation of a game that is over)."""
    view = decode_observation(observation)
    out = np.zeros(FEATURES.size, dtype=np.float32)
    if not view.num_players or not view.in_hand[0] or not view.opponents_in or not view.up[0]:
        return out
    opponents = view.opponents_in
    wild = view.deuces_wild
    boards = [view.up[k] for k in opponents]
    mine = view.own_cards
    best_board = max(boards, key=lambda board: showing_key(board, wild))
    own_board_key = showing_key(view.up[0], wild)
    price = view.bet_size
    out[_MONTE_CARLO] = _monte_carlo(view)
    out[_FAIR] = 1 / (1 + len(opponents))
    out[_ODDS] = poker_features.pot_odds(view.to_call, view.pot)
    out[_BET_ODDS] = poker_features.pot_odds(price, view.pot)
    out[FEATURES["to_call"]] = view.to_call / max(view.bet_size, 1)
    out[FEATURES["pot"]] = view.pot / 50
    out[FEATURES["to_come"]] = (5 - len(mine)) / 3
    out[FEATURES["bets_made"]] = view.bets_made / max(view.cap, 1)
    out[FEATURES["made_hand"]] = poker_features.made_hand(mine, "standard", wild)
    out[FEATURES["their_board"]] = poker_features.made_hand(best_board[:4], "standard", wild)
    out[FEATURES["their_high"]] = max(up_card_rank(c, wild) for b in boards for c in b) / 12
    out[FEATURES["own_high"]] = max(up_card_rank(c, wild) for c in view.up[0]) / 12
    out[FEATURES["beaten"]] = any(showing_key(b, wild) > showing_key(mine, wild) for b in boards)
    out[FEATURES["board_leads"]] = all(own_board_key > showing_key(b, wild) for b in boards)
    out[FEATURES["draws"]] = poker_features.draw_indicators(mine, wild)
    summary = poker_features.betting_summary(view.history).reshape(-1, 2, 4)  # round, whose, kind
    now = view.round
    out[FEATURES["opponents_bets"]] = summary[now, 0]
    out[FEATURES["own_bets"]] = summary[now, 1]
    out[FEATURES["earlier_bets"]] = summary[:now].sum(axis=0).ravel()
    return out


equity_features = per_observation(_features)
"""The ``"equity"`` features of a batch of observations (module docstring)."""


def equity_rule(
    features: np.ndarray, masks: np.ndarray, raise_by: float, call_by: float
) -> np.ndarray:
    """The rule ``"equity"`` (module docstring), batched:
    :func:`~pokerzoo.training.poker.equity.bet_by_equity`, staying in by a call or, in the first
    round before anybody bets, by the opening bet."""
    # the price of staying in: the call, or in the first round before a bet the opening bet
    odds = np.where(masks[:, CALL], features[:, _ODDS], features[:, _BET_ODDS])
    stay = np.where(masks[:, CALL], CALL, RAISE)
    free = masks[:, CALL] & (features[:, _ODDS] == 0)
    equity, fair = features[:, _EQUITY], features[:, _FAIR]
    return bet_by_equity(equity, fair, odds, masks, raise_by, call_by, free=free, stay=stay)


document(sys.modules[__name__], table=FEATURES.table())


def describe(observation: np.ndarray) -> str:
    """The person's cards, every seat's up cards, stacks and bets, the pot and the call."""
    view = decode_observation(observation)
    lines = [f"hand {view.hand_number}; you are player_{view.seat}; round {view.round + 1} of 4"]
    lines.append(f"your cards: {format_cards(view.hole)} (down) {format_cards(view.up[0])} (up)")
    for k in range(1, view.num_players):
        seat = (view.seat + k) % view.num_players
        state = "in" if view.in_hand[k] else "out"
        lines.append(
            f"player_{seat}: {format_cards(view.up[k])} showing, stack {view.stacks[k]}, "
            f"bet {view.round_bets[k]}, {state}"
        )
    lines.append(f"pot {view.pot}, to call {view.to_call}, bet size {view.bet_size}")
    return "\n".join(lines)


def parse_move(answer: str, observation: np.ndarray, mask: np.ndarray) -> int:
    """``"call"`` -> 1."""
    if answer not in BETTING_WORDS:
        raise ValueError(f"bad move {answer!r}: type fold, check, call, bet or raise")
    return BETTING_WORDS[answer]


EQUITY = FeatureSet(
    equity_features,
    summary="Monte-Carlo equity, pot odds, made hand, draws, the boards showing, the bets",
    width=FEATURES.size,
)

HOOKS = equity_hooks(
    EQUITY,
    equity_rule,
    params={"raise_by": 0.1, "call_by": 0.05},  # tuned: benchmarks/feature_rules.py
    summary="raise above a fair share + raise_by, call above the pot odds + call_by",
    describe=describe,
    parse_action=parse_move,
    action_text=lambda action, observation: ("fold", "call", "raise")[action],
    prompt="fold / check / call / bet / raise",
)
