"""Quintet (RULES §1): the rules engine, the scripted-evaluation API and the observation encoding.

Two players each hold a piquet deck (7 to ace, 32 cards). Seven cards drawn at random are
removed from **both** decks, so both players arrange **the same 25 cards** into five packs of
five, unseen by the other. Packs are compared position by position; the winner of position
1..5 scores 3, 4, 5, 6, 7 points (an equal comparison scores nothing). Packs are ranked by the
``"quintet"`` ruleset of :mod:`pokerzoo.envs.hands`.

This module imports no RL library. Envs wrap it: :mod:`pokerzoo.envs.quintet_v0` (PettingZoo)
and :mod:`pokerzoo.envs.quintet_env` (Gymnasium, one seat against a bot).

Formulation
-----------
The 25 cards are placed one at a time in a fixed **placement order**: descending card id, that
is aces first, then kings, ... sevens, and within a rank clubs, diamonds, hearts, spades. Strong
cards come first and cards of one rank come together, so a learner meets the cards that make
the big hands (four of a kind, high straight flushes) while every pack is still open. Each
player's action for the current card is the **pack** that receives it: pack ``p`` (0..4) lies at
position ``p + 1`` and is worth ``POSITION_POINTS[p] = 3 + p`` points. A full pack is illegal.
Both players place the same card in the same round; a player never sees the other's packs until
the game ends. The engine lets each player advance on their own (:func:`place`), or both at
once (:func:`place_both`), so a turn-based and a simultaneous wrapper share it.

Engine API
----------
:func:`deal` (from a ``numpy.random.Generator``) or :func:`new_game` (fixed cards, for tests)
give a :class:`QuintetState`; :func:`legal_packs`, :func:`current_card`, :func:`place`,
:func:`place_both`, :func:`is_terminal`, :func:`outcome`, :func:`returns` play and score it;
:func:`check_pack` validates a pack without moving; :func:`encode_observation` is a player's
view (:func:`decode_observation` reads it back, for bots); :func:`render_text` draws the deal.

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

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .cards import CardsLike, format_card, format_cards, make_deck, parse_cards, shuffled
from .errors import GameOverError, IllegalActionError, check_action
from .hands import category_name, hand_category, make_evaluator

__all__ = [
    "DECK",
    "NUM_CARDS",
    "NUM_PACKS",
    "NUM_PLAYERS",
    "NUM_REMOVED",
    "OBSERVATION_HIGH",
    "OBSERVATION_SIZE",
    "OBS_CURRENT",
    "OBS_DEALT",
    "OBS_PACKS",
    "OBS_PACK_SIZES",
    "OBS_PLACED",
    "OBS_TO_COME",
    "PACK_SIZE",
    "POSITION_POINTS",
    "REWARDS",
    "ObservedDeal",
    "Outcome",
    "QuintetState",
    "check_pack",
    "compare_packs",
    "current_card",
    "deal",
    "decode_observation",
    "describe_pack",
    "encode_observation",
    "is_terminal",
    "legal_packs",
    "new_game",
    "outcome",
    "pack_cards",
    "place",
    "place_both",
    "placement_order",
    "render_text",
    "returns",
    "score_rows",
]

NUM_PLAYERS = 2
NUM_PACKS = 5
PACK_SIZE = 5
NUM_CARDS = NUM_PACKS * PACK_SIZE  # 25
NUM_REMOVED = 7
POSITION_POINTS = (3, 4, 5, 6, 7)  # pack p lies at position p + 1
REWARDS = ("points", "win")
DECK = make_deck("piquet")  # card ids 20 (7s) .. 51 (Ac)
DECK_SIZE = len(DECK)  # 32
_LOWEST_ID = int(DECK[0])

_strength = make_evaluator("quintet")


@dataclass(eq=False)
class QuintetState:
    """One deal in progress. Mutated only by :func:`place` and :func:`place_both`.

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


# --- dealing -------------------------------------------------------------------------------------
def placement_order(cards: np.ndarray | Sequence[int]) -> np.ndarray:
    """The cards as an ``int8`` array in placement order: descending card id (aces first)."""
    return np.sort(np.asarray(cards, dtype=np.int8))[::-1].copy()


def new_game(cards: CardsLike) -> QuintetState:
    """A deal with the given 25 distinct piquet cards in play (any order); the other 7 are out.

    >>> format_cards(new_game(DECK[7:]).cards[:5])
    'Ac Ad Ah As Kc'
    """
    ids = parse_cards(cards)
    if len(ids) != NUM_CARDS:
        raise ValueError(f"expected {NUM_CARDS} cards in play, got {len(ids)}: {cards!r}")
    _check_piquet(ids, "cards in play")
    in_play = placement_order(ids)
    removed = np.setdiff1d(DECK, in_play).astype(np.int8)
    return QuintetState(
        cards=in_play,
        removed=removed,
        assignment=np.full((NUM_PLAYERS, NUM_CARDS), -1, dtype=np.int8),
        placed=np.zeros(NUM_PLAYERS, dtype=np.int64),
        pack_sizes=np.zeros((NUM_PLAYERS, NUM_PACKS), dtype=np.int8),
    )


def deal(rng: np.random.Generator) -> QuintetState:
    """A random deal: the first seven cards of a shuffled piquet deck are removed (RULES §1)."""
    order = shuffled(DECK, rng)
    return new_game(order[NUM_REMOVED:])


def _check_piquet(ids: Sequence[int], what: str) -> None:
    for card in ids:
        if card < _LOWEST_ID or card >= _LOWEST_ID + DECK_SIZE:
            raise ValueError(
                f"bad card {format_card(card)} in {what}: expected piquet cards (7 to ace)"
            )
    if len(set(ids)) != len(ids):
        dupes = sorted({c for c in ids if ids.count(c) > 1}, reverse=True)
        raise ValueError(f"duplicate card {format_cards(dupes)} in {what}: one deck per player")


# --- playing -------------------------------------------------------------------------------------
def _check_player(player: int) -> int:
    if isinstance(player, bool) or not isinstance(player, (int, np.integer)):
        raise ValueError(f"bad player {player!r}: expected 0 or 1")
    if not 0 <= player < NUM_PLAYERS:
        raise ValueError(f"bad player {player!r}: expected 0 or 1")
    return int(player)


def current_card(state: QuintetState, player: int) -> int | None:
    """The card ``player`` places next, or ``None`` once all 25 are placed."""
    i = int(state.placed[_check_player(player)])
    return int(state.cards[i]) if i < NUM_CARDS else None


def legal_packs(state: QuintetState, player: int) -> np.ndarray:
    """``int8 (5,)``: 1 for each pack that is not full; all zeros once the player is done."""
    player = _check_player(player)
    if state.placed[player] >= NUM_CARDS:
        return np.zeros(NUM_PACKS, dtype=np.int8)
    return (state.pack_sizes[player] < PACK_SIZE).astype(np.int8)


def describe_pack(pack: int, sizes: Sequence[int] | None = None) -> str:
    """Human name of a pack: ``"2 (5-point pack)"``, with ``", full"`` when ``sizes`` says so."""
    full = sizes is not None and sizes[pack] >= PACK_SIZE
    return f"{pack} ({POSITION_POINTS[pack]}-point pack{', full' if full else ''})"


def check_pack(state: QuintetState, player: int, pack: object) -> int:
    """``pack`` as an int if ``player`` may put the current card there, else raise as :func:`place`.

    The state is never changed.
    """
    if state.placed[player] >= NUM_CARDS:
        raise GameOverError(f"player {player} has placed all {NUM_CARDS} cards")
    sizes = state.pack_sizes[player]
    try:
        return check_action(
            pack, legal_packs(state, player), lambda p: describe_pack(p, sizes), "pack"
        )
    except IllegalActionError as err:
        card = format_card(int(state.cards[state.placed[player]]))
        raise IllegalActionError(f"player {player} placing {card}: {err}") from None


def place(state: QuintetState, player: int, pack: object) -> None:
    """Put ``player``'s current card into ``pack``.

    Raises:
        GameOverError: the player has placed all 25 cards.
        IllegalActionError: ``pack`` is not an int in 0..4 or that pack is full (the message
            names the pack, the card and the legal packs); the state is unchanged.
    """
    player = _check_player(player)
    index = check_pack(state, player, pack)
    _apply(state, player, index)


def place_both(state: QuintetState, packs: Sequence[object]) -> None:
    """Both players place their current card at once; both packs are checked before either moves."""
    if len(packs) != NUM_PLAYERS:
        raise IllegalActionError(f"expected one pack per player (2), got {packs!r}")
    checked = [check_pack(state, player, pack) for player, pack in enumerate(packs)]
    for player, index in enumerate(checked):
        _apply(state, player, index)


def _apply(state: QuintetState, player: int, pack: int) -> None:
    state.assignment[player, state.placed[player]] = pack
    state.pack_sizes[player, pack] += 1
    state.placed[player] += 1


def is_terminal(state: QuintetState) -> bool:
    """Both players have placed all 25 cards."""
    return bool((state.placed >= NUM_CARDS).all())


def pack_cards(state: QuintetState, player: int) -> list[list[int]]:
    """``player``'s packs so far: five lists of card ids, each in placement order."""
    player = _check_player(player)
    packs: list[list[int]] = [[] for _ in range(NUM_PACKS)]
    for card, pack in zip(state.cards.tolist(), state.assignment[player].tolist(), strict=True):
        if pack >= 0:
            packs[pack].append(card)
    return packs


def outcome(state: QuintetState) -> Outcome:
    """Compare the finished rows position by position (RULES §1)."""
    if not is_terminal(state):
        raise ValueError(f"the deal is not finished: cards placed {state.placed.tolist()} of 25")
    packs = tuple(tuple(tuple(p) for p in pack_cards(state, player)) for player in range(2))
    return _score(packs)


def _score(packs: tuple[tuple[tuple[int, ...], ...], ...]) -> Outcome:
    keys = tuple(tuple(_strength(*pack) for pack in row) for row in packs)
    results = tuple(int(np.sign(a - b)) for a, b in zip(keys[0], keys[1], strict=True))
    points = (
        sum(v for v, r in zip(POSITION_POINTS, results, strict=True) if r > 0),
        sum(v for v, r in zip(POSITION_POINTS, results, strict=True) if r < 0),
    )
    return Outcome(packs, keys, results, points)


def returns(state: QuintetState, reward: str = "points") -> tuple[float, float]:
    """Final rewards: ``"points"`` own points minus the other's; ``"win"`` +1 / 0 / -1."""
    if reward not in REWARDS:
        raise ValueError(f"bad reward {reward!r}: expected one of {', '.join(REWARDS)}")
    p0, p1 = outcome(state).points
    margin = float(p0 - p1) if reward == "points" else float(np.sign(p0 - p1))
    return margin, 0.0 - margin  # never -0.0


# --- scripted API (RULES §6) -------------------------------------------------------------------
def _pack(cards: CardsLike, what: str) -> list[int]:
    ids = parse_cards(cards)
    if len(ids) != PACK_SIZE:
        raise ValueError(f"{what}: expected {PACK_SIZE} cards, got {len(ids)}: {cards!r}")
    _check_piquet(ids, what)
    return ids


def compare_packs(a: CardsLike, b: CardsLike) -> int:
    """``1`` if pack ``a`` beats pack ``b``, ``-1`` if it loses, ``0`` if they are equal.

    Each pack is five distinct piquet cards (the two packs come from different decks, so they
    may share cards).
    """
    ka = _strength(*_pack(a, "first pack"))
    kb = _strength(*_pack(b, "second pack"))
    return (ka > kb) - (ka < kb)


def _row(packs: CardsLike | Sequence[CardsLike], what: str) -> tuple[tuple[int, ...], ...]:
    """Five packs from 25 cards (row order, five per pack) or from a sequence of five packs."""
    if isinstance(packs, (str, np.ndarray)):
        flat = parse_cards(packs)
    else:
        try:
            items = list(packs)
        except TypeError:
            raise ValueError(f"bad {what} {packs!r}: expected 5 packs or 25 cards") from None
        if len(items) == NUM_PACKS and all(not isinstance(x, (int, np.integer)) for x in items):
            if any(isinstance(x, str) and len(x.split()) == 1 for x in items):
                raise ValueError(f"bad {what} {packs!r}: expected 5 packs of 5 cards or 25 cards")
            row = [tuple(_pack(x, f"{what} pack {p}")) for p, x in enumerate(items)]
            flat = [c for pack in row for c in pack]
        else:
            flat = parse_cards(items)
    if len(flat) != NUM_CARDS:
        raise ValueError(f"bad {what}: expected 5 packs of 5 cards (25), got {len(flat)} cards")
    _check_piquet(flat, what)
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


# --- observation ---------------------------------------------------------------------------------
# Card c in 0..31 of the observation is card id c + 20: 7s, 7h, 7d, 7c, 8s, ..., Ac.
OBS_DEALT = slice(0, 32)
OBS_PACKS = slice(32, 192)
OBS_CURRENT = slice(192, 224)
OBS_TO_COME = slice(224, 256)
OBS_PACK_SIZES = slice(256, 261)
OBS_PLACED = 261
OBSERVATION_SIZE = 262
OBSERVATION_HIGH = np.ones(OBSERVATION_SIZE, dtype=np.uint8)
OBSERVATION_HIGH[OBS_PACK_SIZES] = PACK_SIZE
OBSERVATION_HIGH[OBS_PLACED] = NUM_CARDS


def encode_observation(state: QuintetState, player: int) -> np.ndarray:
    """One player's view as ``uint8 (262,)``; the other player's packs never appear.

    Card index ``c`` (0..31) is card id ``c + 20``: ``7s 7h 7d 7c 8s ... Ac``.

    =========  ===========================================================================
    index      content
    =========  ===========================================================================
    0..31      card ``c`` is one of the 25 cards in play (the 7 removed cards are 0)
    32..191    own pack ``p`` holds card ``c``: index ``32 + 32 * p + c`` (pack ``p`` is the
               ``3 + p``-point position)
    192..223   the card to place now, one-hot (all zeros once the player has placed all 25)
    224..255   card ``c`` is still to come after the current one
    256..260   cards in own pack ``p`` (0..5)
    261        cards placed so far (0..25)
    =========  ===========================================================================
    """
    player = _check_player(player)
    obs = np.zeros(OBSERVATION_SIZE, dtype=np.uint8)
    index = state.cards.astype(np.intp) - _LOWEST_ID
    obs[index] = 1
    assignment = state.assignment[player]
    done = assignment >= 0
    obs[OBS_PACKS.start + DECK_SIZE * assignment[done].astype(np.intp) + index[done]] = 1
    placed = int(state.placed[player])
    if placed < NUM_CARDS:
        obs[OBS_CURRENT.start + index[placed]] = 1
        obs[OBS_TO_COME.start + index[placed + 1 :]] = 1
    obs[OBS_PACK_SIZES] = state.pack_sizes[player]
    obs[OBS_PLACED] = placed
    return obs


@dataclass(frozen=True)
class ObservedDeal:
    """What :func:`decode_observation` reads back from a player's observation."""

    cards: np.ndarray  # int8 (25,) cards in play, in placement order
    packs: list[list[int]]  # own packs so far, card ids
    current: int | None  # the card to place now
    placed: int  # cards placed so far


def decode_observation(observation: np.ndarray) -> ObservedDeal:
    """The deal as one player sees it, read back from :func:`encode_observation`'s array."""
    obs = np.asarray(observation)
    if obs.shape != (OBSERVATION_SIZE,):
        raise ValueError(f"expected a Quintet observation of shape (262,), got {obs.shape}")
    cards = (np.flatnonzero(obs[OBS_DEALT])[::-1] + _LOWEST_ID).astype(np.int8)
    grid = obs[OBS_PACKS].reshape(NUM_PACKS, DECK_SIZE)
    packs = [(np.flatnonzero(grid[p])[::-1] + _LOWEST_ID).tolist() for p in range(NUM_PACKS)]
    current = np.flatnonzero(obs[OBS_CURRENT])
    return ObservedDeal(
        cards=cards,
        packs=packs,
        current=int(current[0]) + _LOWEST_ID if current.size else None,
        placed=int(obs[OBS_PLACED]),
    )


# --- render --------------------------------------------------------------------------------------
def _pack_label(cards: Sequence[int]) -> str:
    text = format_cards(cards)
    if len(cards) == PACK_SIZE:
        text += f"  ({category_name(hand_category(cards, 'quintet'), 'quintet')})"
    return text


def render_text(state: QuintetState) -> str:
    """A spectator's view of the deal: the cards, both rows so far and, at the end, the score."""
    lines = [
        f"Quintet  cards in play: {format_cards(state.cards)}",
        f"         removed: {format_cards(state.removed)}",
    ]
    for player in range(NUM_PLAYERS):
        card = current_card(state, player)
        status = f"next {format_card(card)}" if card is not None else "done"
        lines.append(f"player_{player}: {int(state.placed[player])}/25 placed, {status}")
    rows = [pack_cards(state, player) for player in range(NUM_PLAYERS)]
    result = outcome(state) if is_terminal(state) else None
    lines.append("pos pts  player_0                                  player_1")
    for p in range(NUM_PACKS):
        mark = ""
        if result is not None:
            mark = {1: "  < player_0", -1: "  > player_1", 0: "  = equal"}[result.results[p]]
        left, right = _pack_label(rows[0][p]), _pack_label(rows[1][p])
        lines.append(f"{p + 1:>3} {POSITION_POINTS[p]:>3}  {left:<40}  {right}{mark}".rstrip())
    if result is not None:
        p0, p1 = result.points
        verdict = "draw" if result.winner is None else f"player_{result.winner} wins"
        lines.append(f"points: player_0 {p0}, player_1 {p1}: {verdict}")
    return "\n".join(lines)
