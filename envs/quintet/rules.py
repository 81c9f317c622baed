"""Quintet (RULES §1): the rules engine and the scripted-evaluation API.

Two players each hold a piquet deck (7 to ace, 32 cards). Seven cards drawn at random are
removed from **both** decks, so both players arrange **the same 25 cards** into five packs of
five, unseen by the other. Packs are compared position by position; the winner of position
1..5 scores 3, 4, 5, 6, 7 points (an equal comparison scores nothing). Packs are ranked by the
``"quintet"`` ruleset of :mod:`pokerzoo.envs.core.hands`.

This module imports no RL library. Envs wrap it: :mod:`.pettingzoo_env` (PettingZoo, also
``pokerzoo.envs.quintet_v0``) and :mod:`.env` (Gymnasium, one seat against a bot).

Formulation
-----------
The 25 cards are placed one at a time in a fixed **placement order**: descending card id, that
is aces first, then kings, ... sevens, and within a rank clubs, diamonds, hearts, spades. Strong
cards come first and cards of one rank come together, so a learner meets the cards that make
the big hands (four of a kind, high straight flushes) while every pack is still open. Each
player's action for the current card is the **pack** that receives it: pack ``p`` (0..4) lies at
position ``p + 1`` and is worth ``POSITION_POINTS[p] = 3 + p`` points. A full pack is illegal.
Both players place the same cards; a player never sees the other's packs until the game ends,
so the game is simultaneous. Each player advances on its own: :meth:`QuintetRules.apply` takes
either player's next card at any time (the AEC env alternates them, the parallel env moves both
at once).

Engine API
----------
:class:`QuintetRules` (the ``reward`` option): :meth:`~QuintetRules.deal` draws the 25 cards
in play, :meth:`~QuintetRules.new_state` starts a :class:`QuintetState` from them (or from
``rng``); :meth:`~QuintetRules.legal_mask`, :meth:`~QuintetRules.current_card`,
:meth:`~QuintetRules.apply`, :meth:`~QuintetRules.is_terminal`, :meth:`~QuintetRules.outcome`,
:meth:`~QuintetRules.returns` play and score it. :class:`~.game.QuintetGame` adds the
observation (:mod:`.observation`) and the text view (:mod:`.render`): the engine contract of
:mod:`pokerzoo.envs.core.game`.

Scripted API (RULES §6)
-----------------------
:func:`compare_packs` and :func:`score_rows` take cards as one string (``"As Ks Qs Js Ts"``), a
list of strings or a list of ids, and raise :class:`ValueError` naming the bad card or argument.

>>> compare_packs("Ad Kd Qd Jd Td", "As Ks Qs Js Ts")  # straight flushes: top card only
0
>>> compare_packs("7s 7h 7d 7c As", "8s 8h 8d 8c 9s")  # four of a kind: the four only
-1
>>> score_rows("Ac Ad Ah As Kc  Kd Kh Ks Qc Qd  Qh Qs Jc Jd Jh  Js Tc Td Th Ts  9c 9d 9h 9s 8c",
...            "9c 9d 9h 9s 8c  Js Tc Td Th Ts  Qh Qs Jc Jd Jh  Kd Kh Ks Qc Qd  Ac Ad Ah As Kc")
(9, 11)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..core.cards import CardsLike, Deck, format_card, format_cards
from ..core.errors import IllegalActionError
from ..core.game import Engine, Payout
from ..core.hands import make_evaluator
from ..core.options import check_choice, check_int

__all__ = [
    "DECK",
    "NUM_CARDS",
    "NUM_PACKS",
    "NUM_PLAYERS",
    "NUM_REMOVED",
    "PACK_SIZE",
    "POSITION_POINTS",
    "REWARDS",
    "Outcome",
    "QuintetRules",
    "QuintetState",
    "compare_packs",
    "describe_pack",
    "placement_order",
    "score_rows",
]

NUM_PLAYERS = 2
NUM_PACKS = 5
PACK_SIZE = 5
NUM_CARDS = NUM_PACKS * PACK_SIZE  # 25
NUM_REMOVED = 7
POSITION_POINTS = (3, 4, 5, 6, 7)  # pack p lies at position p + 1
REWARDS = ("points", "win")
PIQUET = Deck("piquet")
DECK = PIQUET.cards  # card ids 20 (7s) .. 51 (Ac)
DECK_SIZE = len(DECK)  # 32


@dataclass(eq=False)
class QuintetState:
    """One deal in progress. Mutated only by :meth:`QuintetRules.apply`.

    Attributes:
        cards: ``int8 (25,)`` the cards in play, in placement order (descending id).
        removed: ``int8 (7,)`` the cards removed from both decks, ascending.
        assignment: ``int8 (2, 25)`` pack of the i-th card for each player, -1 while unplaced.
        placed: ``int64 (2,)`` how many cards each player has placed.
        pack_sizes: ``int8 (2, 5)`` cards in each pack of each player.
    """

    cards: np.ndarray
    removed: np.ndarray
    assignment: np.ndarray
    placed: np.ndarray
    pack_sizes: np.ndarray


@dataclass(frozen=True)
class Outcome:
    """The scored end of a deal.

    Attributes:
        packs: ``packs[player][p]`` the five card ids of pack ``p`` (position ``p + 1``).
        keys: ``keys[player][p]`` strength key of that pack (``"quintet"`` ruleset).
        results: per position, ``1`` player 0's pack wins, ``-1`` player 1's, ``0`` equal.
        points: points of player 0 and player 1.
    """

    packs: tuple[tuple[tuple[int, ...], ...], ...]
    keys: tuple[tuple[int, ...], ...]
    results: tuple[int, ...]
    points: tuple[int, int]

    @property
    def winner(self) -> int | None:
        """0 or 1, or ``None`` for a draw (equal points)."""
        if self.points[0] == self.points[1]:
            return None
        return 0 if self.points[0] > self.points[1] else 1


def placement_order(cards: np.ndarray | Sequence[int]) -> np.ndarray:
    """The cards as an ``int8`` array in placement order: descending card id (aces first)."""
    return np.sort(np.asarray(cards, dtype=np.int8))[::-1].copy()


def describe_pack(pack: int, sizes: Sequence[int] | None = None) -> str:
    """Human name of a pack: ``"2 (5-point pack)"``, with ``", full"`` when ``sizes`` says so."""
    full = sizes is not None and sizes[pack] >= PACK_SIZE
    return f"{pack} ({POSITION_POINTS[pack]}-point pack{', full' if full else ''})"


class QuintetRules(Engine[QuintetState]):
    """The rules of Quintet under the ``reward`` option: deal, legal packs, place, score.

    :class:`~pokerzoo.envs.quintet.game.QuintetGame` adds the observation and the text view
    (the full engine contract of :mod:`pokerzoo.envs.core.game`).

    Args:
        reward: ``"points"`` (own points minus the other's, -25..25) or ``"win"`` (+1 / 0 / -1):
            what :meth:`returns` and the final :class:`~pokerzoo.envs.core.game.Payout` pay.

    >>> rules = QuintetRules()
    >>> state = rules.new_state(rng=np.random.default_rng(0))
    >>> rules.legal_mask(state, 0).tolist()
    [1, 1, 1, 1, 1]
    """

    simultaneous = True
    blind = True
    """A player sees the cards and its own packs, never the other's, whichever seat it holds:
    its moves depend only on the deal and its own moves (:meth:`plays`, :meth:`with_plays`)."""
    action_noun = "pack"
    num_players = NUM_PLAYERS
    num_actions = NUM_PACKS

    def __init__(self, reward: str = "points") -> None:
        self.reward = check_choice("reward", reward, REWARDS)

    # --- dealing ------------------------------------------------------------------------------
    def deal(self, rng: np.random.Generator) -> list[int]:
        """The 25 cards in play of a random deal: the first seven cards of a shuffled piquet
        deck are removed (RULES §1), the rest in placement order."""
        if not isinstance(rng, np.random.Generator):
            raise TypeError(f"rng must be a numpy.random.Generator, got {type(rng).__name__}")
        return placement_order(rng.permutation(DECK)[NUM_REMOVED:]).tolist()

    def new_state(
        self, cards: CardsLike | None = None, *, rng: np.random.Generator | None = None
    ) -> QuintetState:
        """A deal with the given 25 distinct piquet cards in play (any order; the other 7 are
        out), or, without them, a random deal from ``rng``.

        >>> format_cards(QuintetRules().new_state(DECK[7:]).cards[:5])
        'Ac Ad Ah As Kc'
        """
        if cards is None:
            if rng is None:
                raise ValueError("new_state needs the 25 cards in play or an rng to deal them")
            cards = self.deal(rng)
        ids = PIQUET.parse(cards, count=NUM_CARDS, what="cards in play")
        in_play = placement_order(ids)
        return QuintetState(
            cards=in_play,
            removed=np.setdiff1d(DECK, in_play).astype(np.int8),
            assignment=np.full((NUM_PLAYERS, NUM_CARDS), -1, dtype=np.int8),
            placed=np.zeros(NUM_PLAYERS, dtype=np.int64),
            pack_sizes=np.zeros((NUM_PLAYERS, NUM_PACKS), dtype=np.int8),
        )

    # --- playing ------------------------------------------------------------------------------
    def current_player(self, state: QuintetState) -> int:
        """The player behind (player 0 when level); -1 once both have placed every card."""
        if self.is_terminal(state):
            return -1
        return int(state.placed[1] < state.placed[0])

    def current_card(self, state: QuintetState, player: int) -> int | None:
        """The card ``player`` places next, or ``None`` once all 25 are placed."""
        i = int(state.placed[_check_player(player)])
        return int(state.cards[i]) if i < NUM_CARDS else None

    def legal_mask(self, state: QuintetState, player: int) -> np.ndarray:
        """``int8 (5,)``: 1 for each pack that is not full; all zeros once the player is done."""
        player = _check_player(player)
        if state.placed[player] >= NUM_CARDS:
            return np.zeros(NUM_PACKS, dtype=np.int8)
        return (state.pack_sizes[player] < PACK_SIZE).astype(np.int8)

    def describe_action(self, action: int) -> str:
        return describe_pack(action)

    def game_over(self, state: QuintetState, player: int) -> str | None:
        if state.placed[player] >= NUM_CARDS:
            return f"player_{player} has placed all {NUM_CARDS} cards"
        return None

    def describer(self, state: QuintetState, player: int) -> Callable[[int], str]:
        sizes = state.pack_sizes[player]
        return lambda p: describe_pack(p, sizes)

    def illegal(self, state: QuintetState, player: int, error: IllegalActionError) -> str:
        card = format_card(int(state.cards[state.placed[player]]))
        return f"player_{player} placing {card}: {error}"

    def transition(self, state: QuintetState, player: int, action: int) -> Payout | None:
        """Put ``player``'s current card into the pack ``action`` (through :meth:`apply`, which
        checks it). Returns the final :class:`~pokerzoo.envs.core.game.Payout` (rewards per the
        ``reward`` option; what each player is told is :meth:`~.game.QuintetGame.info`) on the
        move that ends the deal."""
        pack = action
        state.assignment[player, state.placed[player]] = pack
        state.pack_sizes[player, pack] += 1
        state.placed[player] += 1
        if not self.is_terminal(state):
            return None
        return Payout(self.returns(state))

    def is_terminal(self, state: QuintetState) -> bool:
        """Both players have placed all 25 cards."""
        return bool(state.placed[0] >= NUM_CARDS and state.placed[1] >= NUM_CARDS)

    def plays(self, state: QuintetState) -> np.ndarray:
        """``int8 (2, 25)``: each player's pack for each card of a finished deal (in placement
        order; a copy).

        Raises:
            ValueError: the deal is not finished.
        """
        if not self.is_terminal(state):
            raise ValueError(
                f"the deal is not finished: cards placed {state.placed.tolist()} of 25"
            )
        return state.assignment.copy()

    def with_plays(self, state: QuintetState, plays: np.ndarray) -> QuintetState:
        """A new finished deal of ``state``'s cards in which player ``i`` put card ``j`` (in
        placement order) in pack ``plays[i, j]``: the players of two deals of these cards
        scored against each other (:meth:`outcome`) without placing the cards again.

        >>> rules = QuintetRules()
        >>> state = rules.new_state(DECK[7:])
        >>> rows = np.repeat(np.arange(NUM_PACKS), PACK_SIZE)  # score_rows' example's rows
        >>> rules.outcome(rules.with_plays(state, [rows, rows[::-1]])).points
        (9, 11)

        Raises:
            ValueError: ``plays`` is not two rows of 25 packs, each pack 0..4 given 5 cards.
        """
        assignment = np.asarray(plays)
        if assignment.shape != (NUM_PLAYERS, NUM_CARDS) or assignment.dtype.kind not in "iu":
            raise ValueError(
                f"bad plays of shape {assignment.shape} and dtype {assignment.dtype}: expected "
                f"ints of shape ({NUM_PLAYERS}, {NUM_CARDS}), each player's pack (0..4) for each "
                "card"
            )
        assignment = assignment.astype(np.int64)
        if assignment.min() < 0 or assignment.max() >= NUM_PACKS:
            raise ValueError(f"bad plays {assignment.tolist()}: expected packs 0..{NUM_PACKS - 1}")
        sizes = np.stack([np.bincount(row, minlength=NUM_PACKS) for row in assignment])
        if (sizes != PACK_SIZE).any():
            raise ValueError(
                f"bad plays: pack sizes {sizes.tolist()}, expected {PACK_SIZE} cards in each pack"
            )
        return QuintetState(
            cards=state.cards.copy(),
            removed=state.removed.copy(),
            assignment=assignment.astype(np.int8),
            placed=np.full(NUM_PLAYERS, NUM_CARDS, dtype=np.int64),
            pack_sizes=sizes.astype(np.int8),
        )

    # --- scoring ------------------------------------------------------------------------------
    def pack_cards(self, state: QuintetState, player: int) -> list[list[int]]:
        """``player``'s packs so far: five lists of card ids, each in placement order."""
        player = _check_player(player)
        packs: list[list[int]] = [[] for _ in range(NUM_PACKS)]
        for card, pack in zip(state.cards.tolist(), state.assignment[player].tolist(), strict=True):
            if pack >= 0:
                packs[pack].append(card)
        return packs

    def outcome(self, state: QuintetState) -> Outcome:
        """Compare the finished rows position by position (RULES §1)."""
        if not self.is_terminal(state):
            raise ValueError(
                f"the deal is not finished: cards placed {state.placed.tolist()} of 25"
            )
        packs = tuple(tuple(tuple(p) for p in self.pack_cards(state, i)) for i in range(2))
        return _score(packs)

    def returns(self, state: QuintetState) -> tuple[float, float]:
        """Final rewards: ``"points"`` own points minus the other's; ``"win"`` +1 / 0 / -1."""
        p0, p1 = self.outcome(state).points
        margin = float(p0 - p1) if self.reward == "points" else float(np.sign(p0 - p1))
        return margin, 0.0 - margin  # never -0.0


def _check_player(player: object) -> int:
    return check_int("player", player, 0, NUM_PLAYERS - 1)


def _score(packs: tuple[tuple[tuple[int, ...], ...], ...]) -> Outcome:
    strength = make_evaluator("quintet")  # built on first use: importing the env builds none
    keys = tuple(tuple(strength(*pack) for pack in row) for row in packs)
    results = tuple(int(np.sign(a - b)) for a, b in zip(keys[0], keys[1], strict=True))
    points = (
        sum(v for v, r in zip(POSITION_POINTS, results, strict=True) if r > 0),
        sum(v for v, r in zip(POSITION_POINTS, results, strict=True) if r < 0),
    )
    return Outcome(packs, keys, results, points)


# --- scripted API (RULES §6) -------------------------------------------------------------------
def compare_packs(a: CardsLike, b: CardsLike) -> int:
    """``1`` if pack ``a`` beats pack ``b``, ``-1`` if it loses, ``0`` if they are equal.

    Each pack is five distinct piquet cards (the two packs come from different decks, so they
    may share cards).
    """
    strength = make_evaluator("quintet")
    ka = strength(*PIQUET.parse(a, count=PACK_SIZE, what="first pack"))
    kb = strength(*PIQUET.parse(b, count=PACK_SIZE, what="second pack"))
    return (ka > kb) - (ka < kb)


def _several_cards(item: object) -> bool:
    """Whether ``item`` is a pack (several cards) rather than one card."""
    if isinstance(item, str):
        return len(item.replace(",", " ").split()) > 1
    return not isinstance(item, (int, np.integer))


def _row(packs: CardsLike | Sequence[CardsLike], what: str) -> tuple[tuple[int, ...], ...]:
    """Five packs from 25 cards (row order, five per pack) or from a sequence of five packs."""
    if isinstance(packs, (str, np.ndarray)):
        items: list[Any] = [packs]
    else:
        try:
            items = list(packs)  # type: ignore[arg-type]
        except TypeError:
            raise ValueError(f"bad {what} {packs!r}: expected 5 packs or 25 cards") from None
    if isinstance(packs, (str, np.ndarray)) or not any(_several_cards(x) for x in items):
        flat = PIQUET.parse(packs, what=what)  # type: ignore[arg-type]
        if len(flat) != NUM_CARDS:
            raise ValueError(
                f"bad {what}: expected 5 packs of 5 cards or 25 cards, got {len(flat)} cards"
            )
    elif all(_several_cards(x) for x in items):
        if len(items) != NUM_PACKS:
            raise ValueError(f"bad {what}: expected 5 packs, got {len(items)} packs")
        flat = [
            c
            for p, x in enumerate(items)
            for c in PIQUET.parse(x, count=PACK_SIZE, what=f"{what} pack {p}")
        ]
        PIQUET.check(flat, what)
    else:
        raise ValueError(f"bad {what} {packs!r}: expected 5 packs or 25 cards, not a mixture")
    return tuple(tuple(flat[i : i + PACK_SIZE]) for i in range(0, NUM_CARDS, PACK_SIZE))


def score_rows(
    packs_a: CardsLike | Sequence[CardsLike], packs_b: CardsLike | Sequence[CardsLike]
) -> tuple[int, int]:
    """Points of two rows of five packs compared position by position (3, 4, 5, 6, 7 points).

    A row is five packs (each any card form) or 25 cards in row order, five per pack. Both rows
    must hold the same 25 distinct piquet cards, as in a real deal.
    """
    row_a = _row(packs_a, "first row")
    row_b = _row(packs_b, "second row")
    set_a = {c for pack in row_a for c in pack}
    set_b = {c for pack in row_b for c in pack}
    if set_a != set_b:
        only_a = format_cards(sorted(set_a - set_b, reverse=True))
        only_b = format_cards(sorted(set_b - set_a, reverse=True))
        raise ValueError(
            f"the rows hold different cards (only in the first: {only_a}; only in the second: "
            f"{only_b}): both players arrange the same 25 cards"
        )
    return _score((row_a, row_b)).points
