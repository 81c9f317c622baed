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
                  other hands at random (uniformly over the deals consistent with the voids
                  their plays have shown: :func:`deal_unseen`) and plays the deal out with the
                  rules policy at every seat; the action with the best mean result wins. Bids
                  the same way: each bid near the rules estimate is played out (in a dark deal
                  over sampled own hands too).
================  ===============================================================================

Constructors take keyword-only ``seed`` plus the env options they use (``dealer_restriction``
and ``reward`` for the Monte-Carlo bot) and ignore the others, so ``BOTS[name](seed=s,
**env_options)`` builds any of them.

Speed on one core, per seat and 30-deal game: random and rules about 0.01 s; montecarlo (12
samples) about 0.3 s, 1.1 ms a decision on average (``benchmarks/bot_speed.py``; its play-outs
are :func:`~pokerzoo.agents.nameless_playout.play_out`'s, on bit masks).
"""

from __future__ import annotations

import bisect
import math
from collections import OrderedDict
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
    "DealCounts",
    "MonteCarloBot",
    "RandomBot",
    "RulesBot",
    "World",
    "deal_counts",
    "deal_unseen",
    "deals_unseen",
    "expected_tricks",
    "play_out",
    "put",
    "put_action",
    "reference_play_out",
    "rules_bid",
    "rules_play",
    "unseen_pool",
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
# A *deal* of the unseen cards gives each relative seat ``r`` a hand of ``sizes[r]`` of them and
# leaves the rest in the undealt stock; it is *consistent* when no seat that gets cards holds a
# card of a column (s h d c, joker) its plays showed it does not hold (``view.voids``). Deals
# are counted with the two jokers as two cards, as in a shuffled pack, so "uniform over the
# consistent deals" is the law of a shuffled deal conditioned on the voids.
_COLUMN = np.array([card & 3 for card in range(JOKER)] + [4])
"""Column of each card id: its suit, 4 for the joker."""
_COLUMN_OF: list[int] = _COLUMN.tolist()
_REJECTION_TRIES = 4
"""Shuffled deals :func:`deal_unseen` tries before it draws from the exact counts."""
_MIN_ACCEPTANCE = 0.25
"""When the product over the seats of the chance that a shuffled hand misses its voids is under
this, :func:`deal_unseen` tries no shuffled deal."""
_CACHE_SIZE = 64
"""Positions whose :class:`DealCounts` :func:`deal_counts` keeps (least recently used out)."""
_FACTORIAL = [float(math.factorial(n)) for n in range(JOKER + 2)]
_INVERSE_FACTORIAL = np.array([1.0 / f for f in _FACTORIAL])

Groups = tuple[tuple[int, tuple[int, ...]], ...]
"""A position's groups of columns open to the same seats: per group ``(its unseen cards, the
relative seats that get cards and may hold them)``, sorted."""


def unseen_pool(view: NamelessPokerView, sizes: Sequence[int]) -> np.ndarray:
    """The cards ``view`` has not seen, ascending (a joker twice when both are unseen), to deal
    ``sizes[r]`` of them to each relative seat.

    Raises:
        ValueError: the observation is inconsistent: a card seen more often than the pack holds
            it, or fewer unseen cards than ``sum(sizes)``.
    """
    counts = view.unseen
    if (counts < 0).any():
        raise ValueError(
            "cannot deal the unseen cards: the observation is inconsistent (cards "
            f"{np.flatnonzero(counts < 0).tolist()} seen more often than the pack holds them)"
        )
    pool = np.repeat(np.arange(JOKER + 1), counts)
    if len(pool) < sum(sizes):
        raise ValueError(
            f"cannot deal the unseen cards: the observation is inconsistent ({len(pool)} unseen "
            f"cards for hands of {list(sizes)})"
        )
    return pool


def _groups(
    view: NamelessPokerView, sizes: Sequence[int], pool: np.ndarray
) -> tuple[Groups, list[int], float] | None:
    """The position's :data:`Groups`, the group of each column (-1: no unseen card) and the
    product over the seats of the chance that a shuffled hand misses its voids (about the share
    of consistent deals); ``None`` when no void bars a seat that gets cards from a column with
    unseen cards."""
    cards = np.bincount(_COLUMN[pool], minlength=5).tolist()
    voids = view.voids.tolist()
    seats = tuple(r for r in range(NUM_PLAYERS) if sizes[r])
    merged: dict[tuple[int, ...], list[int]] = {}
    for column in range(5):
        if cards[column]:
            open_seats = tuple(r for r in seats if not voids[r][column])
            merged.setdefault(open_seats, []).append(column)
    if all(open_seats == seats for open_seats in merged):
        return None
    ordered = sorted((sum(cards[c] for c in cs), seats, cs) for seats, cs in merged.items())
    of_column = [-1] * 5
    for g, (_, _, columns) in enumerate(ordered):
        for column in columns:
            of_column[column] = g
    likely = 1.0
    for r in seats:
        allowed = sum(n for n, open_seats, _ in ordered if r in open_seats)
        likely *= math.comb(allowed, sizes[r]) / math.comb(len(pool), sizes[r])
    return tuple((n, open_seats) for n, open_seats, _ in ordered), of_column, likely


class DealCounts:
    """The consistent deals of one position, counted by how many cards of each group go to each
    seat (the cards of a group are interchangeable for the voids), for exact uniform draws.

    A deal that gives ``x[g][r]`` of the ``n_g`` cards of group ``g`` to seat ``r`` and the
    rest to the stock stands for ``prod_g n_g! / (prod_r x[g][r]! * stock_g!)`` deals of the
    cards themselves. ``ways[g]`` (``float``, an axis per seat that gets cards, over the places
    left in its hand) sums these products over the counts of groups ``g, g + 1, ...`` that fill
    the places exactly (computed group by group, within a group seat by seat); ``total``: the
    consistent deals. Weights are doubles (relative rounding about 1e-15).

    Args:
        sizes: hand size per relative seat.
        groups: the position's :data:`Groups`.
    """

    def __init__(self, sizes: tuple[int, ...], groups: Groups) -> None:
        self.sizes = sizes
        self.groups = groups
        self.seats = [r for r in range(NUM_PLAYERS) if sizes[r]]
        self._axis = {r: a for a, r in enumerate(self.seats)}
        shape = tuple(sizes[r] + 1 for r in self.seats)
        after = np.zeros(shape)  # once every group is dealt: one way, every place filled
        after[(0,) * len(shape)] = 1.0
        self.ways = [after]
        for cards, seats in reversed(groups):
            # ways[places, t]: the open seats so far take t of the group's cards, x each: 1 / x!
            ways = np.zeros((*shape, cards + 1))
            ways[..., 0] = after
            for r in seats:
                ways = _one_seat(ways, self._axis[r], min(sizes[r], cards))
            stock = _INVERSE_FACTORIAL[cards - np.arange(cards + 1)]
            after = _FACTORIAL[cards] * (ways * stock).sum(axis=-1)
            self.ways.insert(0, after)
        self.total = float(after[tuple(sizes[r] for r in self.seats)])
        self._options: dict[tuple[int, tuple[int, ...]], tuple[list[float], list[list[int]]]] = {}

    def draw(self, rng: np.random.Generator) -> list[list[int]]:
        """``taken[g][j]``: the cards of group ``g`` its ``j``-th open seat gets (the rest go to
        the stock), drawn in proportion to the consistent deals that give them."""
        places = tuple(self.sizes[r] for r in self.seats)
        taken = []
        for g in range(len(self.groups) - 1):
            options = self._options.get((g, places)) or self._count_options(g, places)
            cumulative, counts = options
            pick = bisect.bisect_right(cumulative, rng.random() * cumulative[-1])
            chosen = counts[min(pick, len(counts) - 1)]  # (rounding could reach the end)
            left = list(places)
            for r, x in zip(self.groups[g][1], chosen, strict=True):
                left[self._axis[r]] -= x
            places = tuple(left)
            taken.append(chosen)
        # The last group fills the places left (the counts gave it no other way).
        taken.append([places[self._axis[r]] for r in self.groups[-1][1]])
        return taken

    def _count_options(
        self, g: int, places: tuple[int, ...]
    ) -> tuple[list[float], list[list[int]]]:
        """With ``places`` left before group ``g``: the counts its open seats may take and their
        cumulative weights (kept for the next draws)."""
        cards, seats = self.groups[g]
        axes = [self._axis[r] for r in seats]
        ranges = [min(places[a], cards) + 1 for a in axes]
        grid = np.indices(ranges).reshape(len(axes), math.prod(ranges))
        taken = grid.sum(axis=0)
        grid, taken = grid[:, taken <= cards], taken[taken <= cards]
        left = [np.full(len(taken), p) for p in places]
        for a, x in zip(axes, grid, strict=True):
            left[a] = places[a] - x
        weights = (
            self.ways[g + 1][tuple(left)]
            * _INVERSE_FACTORIAL[grid].prod(axis=0)
            * _INVERSE_FACTORIAL[cards - taken]
        )
        keep = weights > 0
        options = np.cumsum(weights[keep]).tolist(), grid[:, keep].T.tolist()
        self._options[(g, places)] = options
        return options


def _one_seat(ways: np.ndarray, axis: int, most: int) -> np.ndarray:
    """A seat's step in :class:`DealCounts`: ``out[p, t] = sum_x ways[p - x on axis, t - x] /
    x!`` over the ``x <= most`` cards of the group the seat may take."""
    out = ways.copy()
    for x in range(1, most + 1):
        target: list[slice] = [slice(None)] * ways.ndim
        source: list[slice] = [slice(None)] * ways.ndim
        target[axis] = target[-1] = slice(x, None)
        source[axis] = slice(0, ways.shape[axis] - x)
        source[-1] = slice(0, ways.shape[-1] - x)
        out[tuple(target)] += ways[tuple(source)] * _INVERSE_FACTORIAL[x]
    return out


_COUNTS: OrderedDict[tuple[tuple[int, ...], Groups], DealCounts] = OrderedDict()


def deal_counts(sizes: tuple[int, ...], groups: Groups) -> DealCounts:
    """The :class:`DealCounts` of a position, kept for the next draws of the same position (the
    Monte-Carlo bot and the features draw many per decision)."""
    key = (sizes, groups)
    counts = _COUNTS.get(key)
    if counts is None:
        counts = _COUNTS[key] = DealCounts(sizes, groups)
        if len(_COUNTS) > _CACHE_SIZE:
            _COUNTS.popitem(last=False)
    else:
        _COUNTS.move_to_end(key)
    return counts


def _deal_in_turn(order: list[int], sizes: Sequence[int]) -> list[list[int]]:
    """The shuffled cards ``order`` dealt to the hands in turn (the rest: the stock)."""
    hands, start = [], 0
    for size in sizes:
        hands.append(sorted(order[start : start + size]))
        start += size
    return hands


def _shuffled_tries(
    pool: np.ndarray,
    sizes: Sequence[int],
    voids: np.ndarray,
    tries: int,
    rng: np.random.Generator,
) -> list[list[int]] | None:
    """The first of ``tries`` shuffled deals that respects the voids, if any."""
    if not tries:
        return None
    checks, start = [], 0
    for r, size in enumerate(sizes):
        if size and voids[r].any():
            checks.append((start, start + size, voids[r].tolist()))
        start += size
    for _ in range(tries):
        order = rng.permutation(pool).tolist()
        for begin, end, void in checks:
            if any(void[_COLUMN_OF[card]] for card in order[begin:end]):
                break
        else:
            return _deal_in_turn(order, sizes)
    return None


def _exact_deal(
    pool: np.ndarray, counts: DealCounts, of_column: list[int], rng: np.random.Generator
) -> list[list[int]]:
    """A consistent deal, uniform: how many cards of each group each seat gets, drawn from
    ``counts``, then which ones, by a shuffle."""
    taken = counts.draw(rng)
    order = rng.permutation(pool)
    group = np.array(of_column)[_COLUMN[order]]
    cards = order[np.argsort(group, kind="stable")].tolist()  # by group, shuffled within
    hands: list[list[int]] = [[] for _ in range(NUM_PLAYERS)]
    start = 0
    for (n, seats), xs in zip(counts.groups, taken, strict=True):
        at = start
        for r, x in zip(seats, xs, strict=True):
            hands[r] += cards[at : at + x]
            at += x
        start += n
    return [sorted(hand) for hand in hands]


def deal_unseen(
    view: NamelessPokerView,
    sizes: Sequence[int],
    rng: np.random.Generator,
    tries: int = _REJECTION_TRIES,
) -> list[list[int]]:
    """Hands of ``sizes[r]`` cards for the relative seats (size 0: an empty hand, e.g. the
    observer's own, which the caller fills), from the cards ``view`` has not seen, the rest
    left in the undealt stock; hands sorted.

    Guarantee: the deal is drawn uniformly from the deals consistent with ``view``: every
    assignment of the unseen cards (the two jokers counted as two cards, as in a shuffled pack)
    to the hands and the stock in which no seat that gets cards holds a card of a column (s h d
    c, joker) it has shown void in (``view.voids``) is equally likely: the law of a shuffled
    deal conditioned on the voids. Successive draws are independent.

    How: when no void bars a seat that gets cards from a column with unseen cards, the shuffled
    unseen cards are dealt in turn. Otherwise up to ``tries`` shuffles are dealt in turn and the
    first consistent one kept (uniform given acceptance; no try where the seats' chances to miss
    their voids multiply to under :data:`_MIN_ACCEPTANCE`); failing that, the deal is drawn
    from the exact counts of the consistent deals (:class:`DealCounts`, kept per position by
    :func:`deal_counts`). A mixture of uniform draws is uniform, whichever way a deal came.

    Raises:
        ValueError: no consistent deal exists (the observation is inconsistent): a card seen
            more often than the pack holds it, fewer unseen cards than places, or voids no deal
            of the unseen cards can respect.
    """
    return deals_unseen(view, sizes, rng, 1, tries)[0]


def deals_unseen(
    view: NamelessPokerView,
    sizes: Sequence[int],
    rng: np.random.Generator,
    samples: int,
    tries: int = _REJECTION_TRIES,
) -> list[list[list[int]]]:
    """``samples`` independent draws of :func:`deal_unseen` (the same guarantee, the same
    random draws as ``samples`` calls of it), the position read once."""
    pool = unseen_pool(view, sizes)
    position = _groups(view, sizes, pool)
    if position is None:  # no void bars anything: deal the shuffled cards in turn
        return [_deal_in_turn(rng.permutation(pool).tolist(), sizes) for _ in range(samples)]
    groups, of_column, likely = position
    key = (tuple(int(s) for s in sizes), groups)
    if likely < _MIN_ACCEPTANCE:
        tries = 0
    deals = []
    for _ in range(samples):
        hands = _shuffled_tries(pool, sizes, view.voids, tries, rng)
        if hands is not None:
            deals.append(hands)
            continue
        counts = deal_counts(*key)
        if counts.total <= 0:
            raise ValueError(
                "cannot deal the unseen cards: the observation is inconsistent (no deal of the "
                f"unseen cards in hands of {list(sizes)} respects the voids "
                f"{view.voids.astype(int).tolist()})"
            )
        deals.append(_exact_deal(pool, counts, of_column, rng))
    return deals


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
        for hands in deals_unseen(view, sizes, self._rng, self.samples):
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
        for hands in deals_unseen(view, sizes, self._rng, self.samples):
            base = World.of_view(view, hands)
            for i, action in enumerate(legal):
                world = base.copy()
                put_action(world, action, trump)
                play_out(world, trump, kind, turned_trump)
                totals[i] += self._score(world, kind)
        return legal[int(np.argmax(totals))]


BOTS: dict[str, type] = {bot.name: bot for bot in (RandomBot, RulesBot, MonteCarloBot)}
