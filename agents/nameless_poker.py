"""Baseline bots for "poker without a name" (RULES §4), all following
:class:`pokerzoo.agents.base.Bot`.

Every bot acts only from ``(observation, action_mask)``: the observation decoded with
:func:`pokerzoo.envs.nameless_poker.decode_observation` (seats relative to the bot, public
knowledge and its own hand only) and the mask of
:class:`~pokerzoo.envs.nameless_poker.NamelessPokerGame`.

================  ===============================================================================
``"random"``      :class:`RandomBot`: a uniformly random legal action.
``"rules"``       :class:`RulesBot`: bids the tricks its hand is expected to take
                  (:func:`expected_tricks`: jokers, high trumps, aces and kings, void suits it can
                  ruff), 1 in the dark deals (the best fixed bid there, from the deal size alone);
                  then plays by :func:`rules_play`: takes tricks while under its bid, sheds them
                  once it has made it, ducks in minimum deals and grabs in maximum deals, leads a
                  joker calling trump to pull the others' trumps when it holds trumps of its own.
``"montecarlo"``  :class:`MonteCarloBot`: for each legal action, deals the unseen cards to the
                  other hands at random (consistent with the voids their plays have shown) and
                  plays the deal out with the rules policy at every seat; the action with the best
                  mean result wins. Bids the same way: each bid near the rules estimate is played
                  out (in a dark deal over sampled own hands too).
================  ===============================================================================

Constructors take keyword-only ``seed`` plus the env options they use (``dealer_restriction``
and ``reward`` for the Monte-Carlo bot) and ignore the others, so ``BOTS[name](seed=s,
**env_options)`` builds any of them.

Speed on one core, per seat and 30-deal game: random and rules about 0.01 s; montecarlo (12
samples) about 0.3 s, 1.1 ms a decision on average (``benchmarks/bot_speed.py``; its play-outs
are :func:`~pokerzoo.agents.nameless_playout.play_out`'s, on bit masks).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..envs.core.cards import JOKER
from ..envs.core.options import check_bool, check_choice, check_int
from ..envs.nameless_poker import (
    BID,
    LEAD_JOKER,
    NO_TRUMP,
    NUM_PLAYERS,
    PLAY,
    REWARDS,
    NamelessPokerView,
    decode_observation,
)
from ..envs.nameless_poker.deals import (
    DEAL_KINDS,
    MAXIMUM,
    MINIMUM,
    beats,
    follow_options,
    score,
    winner_index,
)
from .base import RandomBot
from .nameless_playout import World, play_out, put, put_action

__all__ = [
    "BOTS",
    "DARK_BID",
    "MonteCarloBot",
    "RandomBot",
    "RulesBot",
    "World",
    "deal_unseen",
    "expected_tricks",
    "play_out",
    "put",
    "put_action",
    "reference_play_out",
    "rules_bid",
    "rules_play",
    "wants_trick",
]

ACE, KING, QUEEN = 12, 11, 10
DARK_BID = 1
"""The rules bot's bid in a dark deal (8 cards, hand unseen)."""
# Expected tricks of one card by rank (2 .. A), as a trump and in a side suit.
_TRUMP_VALUE = (0.3,) * 9 + (0.45, 0.55, 0.7, 0.9)
_SIDE_VALUE = (0.0,) * 10 + (0.1, 0.35, 0.75)
_JOKER_VALUE = 0.95
_GUARDED_KING = 0.2
"""Extra for a side king with its suit's ace in the same hand."""
_RUFF_VALUE = 0.35
"""Extra for a void side suit, when the hand holds trumps to spare for it."""


def _strength(card: int, trump: int) -> int:
    """How hard a card is to beat: jokers, then trumps, then the other suits, each by rank."""
    if card == JOKER:
        return 100
    return (card >> 2) + (50 if card & 3 == trump else 0)


_STRENGTH = [
    [_strength(card, trump) for card in range(JOKER + 1)] for trump in (0, 1, 2, 3, NO_TRUMP)
]
"""``_STRENGTH[trump][card]``: :func:`_strength` by table (``NO_TRUMP``, -1, is the last row)."""


# --- bidding -------------------------------------------------------------------------------------
def expected_tricks(hand: Sequence[int], trump: int) -> float:
    """The tricks a hand is expected to take: a value per joker, trump and side-suit honour,
    plus a ruff for each void side suit it holds a spare trump for."""
    value = 0.0
    suits = [0, 0, 0, 0]
    for card in hand:
        if card != JOKER:
            suits[card & 3] += 1
    for card in hand:
        if card == JOKER:
            value += _JOKER_VALUE
            continue
        rank, suit = card >> 2, card & 3
        if suit == trump:
            value += _TRUMP_VALUE[rank]
        else:
            value += _SIDE_VALUE[rank]
            if rank == KING and 4 * ACE + suit in hand:
                value += _GUARDED_KING
    if trump != NO_TRUMP and len(hand) >= 4:
        voids = sum(1 for s in range(4) if s != trump and suits[s] == 0)
        value += _RUFF_VALUE * min(voids, max(suits[trump] - 1, 0))
    return value


def rules_bid(estimate: float, legal: Sequence[int]) -> int:
    """The legal bid nearest ``estimate`` (ties: the lower)."""
    return min(legal, key=lambda b: (abs(b - estimate), b))


def wants_trick(kind: int, bid: int | None, taken: int) -> bool:
    """Whether a seat tries to take the next trick: always in maximum deals, never in minimum
    deals, otherwise while it is under its bid."""
    if kind == MAXIMUM:
        return True
    if kind == MINIMUM:
        return False
    return taken < (bid or 0)


# --- play ----------------------------------------------------------------------------------------
def rules_play(
    hand: Sequence[int],
    options: Sequence[int],
    trick: Sequence[int],
    trump: int,
    want: bool,
    trumps_out: int,
) -> tuple[int, int]:
    """The rules policy's card among ``options`` (the legal cards of ``hand`` for ``trick``), and
    the suit it names when it leads a joker (else ``NO_TRUMP``).

    ``want``: it tries to take this trick; ``trumps_out``: natural trumps neither in its hand,
    nor played, nor turned (the others may hold them).
    """
    if not trick:
        return _lead(hand, trump, want, trumps_out)
    if len(options) == 1:
        return options[0], NO_TRUMP
    strength = _STRENGTH[trump].__getitem__
    best = trick[winner_index(trick, trump)]
    winning = [c for c in options if beats(c, best, trump)]
    last = len(trick) == NUM_PLAYERS - 1
    if want:
        if not winning:
            return min(options, key=strength), NO_TRUMP
        if last:  # nobody comes after: the cheapest card that wins
            return min(winning, key=strength), NO_TRUMP
        natural = [c for c in winning if c != JOKER]  # keep a joker for a trick it surely takes
        return (max(natural, key=strength) if natural else JOKER), NO_TRUMP
    losing = [c for c in options if c not in winning]
    if losing:  # shed the most dangerous card that still loses
        return max(losing, key=strength), NO_TRUMP
    if last:  # the trick is ours whatever: get rid of the strongest card
        return max(options, key=strength), NO_TRUMP
    return min(options, key=strength), NO_TRUMP


def _lead(hand: Sequence[int], trump: int, want: bool, trumps_out: int) -> tuple[int, int]:
    strength = _STRENGTH[trump].__getitem__
    natural = [c for c in hand if c != JOKER]
    joker = len(natural) < len(hand)
    if not want:
        if natural:
            return min(natural, key=strength), NO_TRUMP
        return JOKER, 0  # only jokers left: the trick is ours whatever suit is named
    if joker and trump != NO_TRUMP and trumps_out > 0 and any(c & 3 == trump for c in natural):
        return JOKER, trump  # pull the others' best trumps under the joker
    top = [c for c in natural if c >> 2 == ACE or (c & 3 == trump and c >> 2 >= KING)]
    if top:
        return max(top, key=strength), NO_TRUMP
    if joker:
        if trump != NO_TRUMP:
            return JOKER, trump
        # Name the suit of our best card: the others must play their highest of it.
        return JOKER, (max(natural, key=lambda c: c >> 2) & 3) if natural else 0
    return max(natural, key=strength), NO_TRUMP


def _trumps_out(view: NamelessPokerView) -> int:
    """Natural trumps the other seats (or the undealt stock) may hold."""
    if view.trump == NO_TRUMP:
        return 0
    own = sum(1 for c in view.hand if c != JOKER and c & 3 == view.trump)
    played = int(view.played[view.trump : JOKER : 4].sum())
    turned = view.turned_card != JOKER and view.turned_card & 3 == view.trump
    return 13 - own - played - int(turned)


def _play_action(card: int, called: int) -> int:
    return LEAD_JOKER + called if called != NO_TRUMP else PLAY + card


def _legal_bids(action_mask: np.ndarray) -> list[int]:
    return [int(a) - BID for a in np.flatnonzero(action_mask[BID:PLAY])]


# --- bots ----------------------------------------------------------------------------------------


class RulesBot:
    """Bids its expected tricks, then takes or sheds tricks by :func:`rules_play`."""

    name = "rules"

    def __init__(self, *, seed: int | None = None, **env_options: Any) -> None:
        self.reset(seed)

    def reset(self, seed: int | None = None) -> None:
        self._rng = np.random.default_rng(seed)  # the protocol's generator; the bot never draws

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        view = decode_observation(observation)
        if view.bidding:
            estimate = DARK_BID if view.hand_hidden else expected_tricks(view.hand, view.trump)
            return BID + rules_bid(estimate, _legal_bids(action_mask))
        legal = np.flatnonzero(action_mask)
        options = sorted({JOKER if a >= LEAD_JOKER else int(a) - PLAY for a in legal})
        kind = DEAL_KINDS.index(view.kind)
        want = wants_trick(kind, view.bids[0], view.tricks[0])
        card, called = rules_play(
            view.hand, options, view.trick, view.trump, want, _trumps_out(view)
        )
        return _play_action(card, called)


# --- Monte-Carlo worlds ---------------------------------------------------------------------------
def deal_unseen(
    view: NamelessPokerView,
    sizes: Sequence[int],
    rng: np.random.Generator,
    use_voids: bool = True,
) -> list[list[int]]:
    """Hands of ``sizes[r]`` cards for the relative seats (size 0: the observer's own, kept),
    drawn at random from the cards ``view`` has not seen; each seat avoids the suits its plays
    showed it does not hold (all voids are dropped when they cannot all be met)."""
    pool = np.repeat(np.arange(JOKER + 1), np.maximum(view.unseen, 0))
    # seats[column]: the seats that may still hold a card of that column (s h d c, joker).
    seats = [
        [r for r in range(NUM_PLAYERS) if sizes[r] and not (use_voids and view.voids[r, col])]
        for col in range(5)
    ]
    free = all(len(s) == len(seats[0]) for s in seats)
    for _ in range(20):
        order = rng.permutation(pool).tolist()
        if free:  # no void to respect: deal the shuffled cards in turn
            hands, start = [], 0
            for size in sizes:
                hands.append(sorted(order[start : start + size]))
                start += size
            return hands
        need = list(sizes)
        hands = [[] for _ in range(NUM_PLAYERS)]
        stock = len(order) - sum(need)
        integers = rng.integers
        for card in order:
            # The card goes to a seat that may hold it, or to the stock, in proportion to the
            # places each has left (a seat with none left adds nothing and is passed over).
            open_seats = seats[4 if card == JOKER else card & 3]
            places = stock
            for r in open_seats:
                places += need[r]
            pick = int(integers(places or 1))
            for r in open_seats:
                left = need[r]
                if pick < left:
                    hands[r].append(card)
                    need[r] = left - 1
                    break
                pick -= left
            else:
                if not stock:  # no seat may take it and the stock is full: start again
                    break
                stock -= 1
        if not any(need):
            return [sorted(h) for h in hands]
    if use_voids:  # the voids cannot all be met: forget them
        return deal_unseen(view, sizes, rng, use_voids=False)
    raise ValueError("cannot deal the unseen cards: the observation is inconsistent")


def reference_play_out(
    world: World, trump: int, kind: int, turned_trump: int, observer_wants: bool | None = None
) -> None:
    """:func:`play_out` written plainly, a card at a time through the rules policy's own
    functions (:func:`~pokerzoo.envs.nameless_poker.deals.follow_options`, :func:`wants_trick`,
    :func:`rules_play`, :func:`put`): the specification the fast play-out is tested against card
    for card, and its baseline in ``benchmarks/nameless_playout.py``."""
    while True:
        seat = (world.leader + len(world.trick)) % NUM_PLAYERS
        hand = world.hands[seat]
        if not hand:
            return
        options = follow_options(hand, world.trick, trump, world.called)
        if seat == 0 and observer_wants is not None:
            want = observer_wants
        else:
            want = wants_trick(kind, world.bids[seat], world.tricks[seat])
        out = 0
        if trump != NO_TRUMP:
            own = sum(1 for c in hand if c != JOKER and c & 3 == trump)
            out = 13 - own - world.trumps_played - turned_trump
        card, called = rules_play(hand, options, world.trick, trump, want, out)
        put(world, seat, card, called, trump)


class MonteCarloBot:
    """Compares its legal actions by playing the deal out over sampled hands of the others.

    Args:
        seed: seeds the sampled hands.
        samples: sampled deals per decision (every action is played out on the same deals).
        bid_window: bids within this distance of the rules estimate are played out.
        dealer_restriction, reward: the env options; ``reward="relative"`` makes it maximise its
            deal score minus the table's mean instead of its own deal score.
    """

    name = "montecarlo"

    def __init__(
        self,
        *,
        seed: int | None = None,
        samples: int = 12,
        bid_window: int = 1,
        dealer_restriction: bool = False,
        reward: str = "score",
        **env_options: Any,
    ) -> None:
        self.samples = check_int("samples", samples, 1)
        self.bid_window = check_int("bid_window", bid_window, 0)
        self.dealer_restriction = check_bool("dealer_restriction", dealer_restriction)
        self.relative = check_choice("reward", reward, REWARDS) == "relative"
        self.reset(seed)

    def reset(self, seed: int | None = None) -> None:
        self._rng = np.random.default_rng(seed)

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        legal = np.flatnonzero(action_mask)
        if legal.size == 1:
            return int(legal[0])
        view = decode_observation(observation)
        if view.bidding:
            return BID + self._bid(view, _legal_bids(action_mask))
        return self._play(view, [int(a) for a in legal])

    def _score(self, world: World, kind: int) -> float:
        scores = [score(kind, world.bids[r], world.tricks[r]) for r in range(NUM_PLAYERS)]
        if self.relative:
            return scores[0] - sum(scores) / NUM_PLAYERS
        return float(scores[0])

    # --- bidding ---------------------------------------------------------------------------------
    def _bid(self, view: NamelessPokerView, legal: list[int]) -> int:
        size = view.hand_size
        trump = view.trump
        kind = DEAL_KINDS.index(view.kind)
        first = (view.dealer + 1) % NUM_PLAYERS  # relative seat of the first bidder
        if view.hand_hidden:
            centre: float = DARK_BID
        else:
            centre = expected_tricks(view.hand, trump)
        candidates = [b for b in legal if abs(b - centre) <= self.bid_window + 0.5]
        if len(candidates) <= 1:
            return rules_bid(centre, legal)
        turned_trump = int(view.turned_card != JOKER and view.turned_card & 3 == trump)
        sizes = [0 if not view.hand_hidden else size] + [size] * (NUM_PLAYERS - 1)
        totals = np.zeros(len(candidates))
        for _ in range(self.samples):
            hands = deal_unseen(view, sizes, self._rng)
            if not view.hand_hidden:
                hands[0] = list(view.hand)
            bids = list(view.bids)
            for k in range(NUM_PLAYERS):  # the bidders after the bot, in bidding order
                r = (first + k) % NUM_PLAYERS
                if r == 0 or bids[r] is not None:
                    continue
                if view.kind == "dark":
                    bids[r] = DARK_BID
                else:
                    bids[r] = round(expected_tricks(hands[r], trump))
                if r == view.dealer and self.dealer_restriction:
                    others = sum(b for s, b in enumerate(bids) if s != r and b is not None)
                    if bids[r] + others == size:
                        bids[r] = bids[r] - 1 if bids[r] > 0 else 1
            for i, bid in enumerate(candidates):
                bids[0] = bid
                world = World([list(h) for h in hands], [], first, NO_TRUMP, [0] * 4, bids, 0)
                play_out(world, trump, kind, turned_trump)
                totals[i] += self._score(world, kind)
        return candidates[int(np.argmax(totals))]

    # --- play ------------------------------------------------------------------------------------
    def _play(self, view: NamelessPokerView, legal: list[int]) -> int:
        trump = view.trump
        kind = DEAL_KINDS.index(view.kind)
        done = sum(view.tricks)
        size = view.hand_size
        sizes = [0] * NUM_PLAYERS
        for r in range(1, NUM_PLAYERS):
            played_now = (r - view.leader) % NUM_PLAYERS < len(view.trick)
            sizes[r] = size - done - int(played_now)
        turned_trump = int(view.turned_card != JOKER and view.turned_card & 3 == trump)
        totals = np.zeros(len(legal))
        for _ in range(self.samples):
            hands = deal_unseen(view, sizes, self._rng)
            base = World.of_view(view, hands)
            for i, action in enumerate(legal):
                world = base.copy()
                put_action(world, action, trump)
                play_out(world, trump, kind, turned_trump)
                totals[i] += self._score(world, kind)
        return legal[int(np.argmax(totals))]


BOTS: dict[str, type] = {bot.name: bot for bot in (RandomBot, RulesBot, MonteCarloBot)}
