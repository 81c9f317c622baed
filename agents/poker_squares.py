"""Baseline bots for Poker Squares: random, greedy (rule-based line values) and Monte-Carlo search.

Speed on one core: random 0.3 ms, greedy 6 ms, search (default budget) about 30 ms per game.

Every bot acts only from ``(observation, action_mask)`` as the env returns them (the single
env's 522-entry vector, or the ``"observation"`` entry of the multi-player env), decoded with
:func:`pokerzoo.envs.poker_squares.decode_observation`, so the same bot plays every API.

=============  =================================================================================
``"random"``   :class:`RandomBot`: a uniformly random legal cell.
``"greedy"``   :class:`GreedyBot`: puts each card where it most raises the estimated value of
               its row plus its column (:class:`LineValuer`: what each line can still become
               given the cards still to come, under the scoring table in use).
``"search"``   :class:`SearchBot`: the greedy's best few cells compared by Monte-Carlo
               rollouts (sampled futures played on by the greedy policy for a few cards, then
               valued line by line); the best mean wins.
=============  =================================================================================

Constructors take keyword-only ``seed`` plus the env options they use (``scoring``; ``jokers``,
``placement`` and ``variant`` are read off the observation and mask) and ignore other env
options (``**env_options``), so ``BOTS[name](seed=s, **env_options)`` builds any of them.
"""

from __future__ import annotations

from functools import lru_cache
from math import comb
from typing import Any

import numpy as np

from ..envs.core.cards import JOKER
from ..envs.core.hands import make_classifier
from ..envs.poker_squares import (
    CELL_LINES,
    EMPTY,
    GRID_CELLS,
    LINES,
    NEIGHBOURS,
    Scoring,
    decode_observation,
    resolve_scoring,
)
from .base import RandomBot

__all__ = ["BOTS", "GreedyBot", "LineValuer", "RandomBot", "SearchBot"]

# Straight windows as rank tuples (rank 0 = deuce .. 12 = ace), ace-low first; the last one,
# T-J-Q-K-A, is the royal window.
_WINDOWS: tuple[tuple[int, ...], ...] = ((12, 0, 1, 2, 3),) + tuple(
    tuple(range(low, low + 5)) for low in range(9)
)
_ROYAL_LOW = 8  # the window T-J-Q-K-A starts at rank index 8


def _straight_table() -> dict[int, tuple[tuple[tuple[int, ...], bool], ...]]:
    """For each set of distinct ranks (a bit mask), the straight windows holding it: the ranks
    still missing and whether the window is the royal one."""
    table: dict[int, list[tuple[tuple[int, ...], bool]]] = {}
    for window in _WINDOWS:
        bits = [1 << r for r in window]
        for subset in range(32):
            mask = sum(b for i, b in enumerate(bits) if subset >> i & 1)
            missing = tuple(r for i, r in enumerate(window) if not subset >> i & 1)
            table.setdefault(mask, []).append((missing, window[0] == _ROYAL_LOW))
    return {mask: tuple(entries) for mask, entries in table.items()}


_STRAIGHTS = _straight_table()
_MAX_SUPPLY = 16  # 13 cards of a suit + 2 jokers, plus headroom


@lru_cache(maxsize=2048)  # unseen <= 54 and to_come <= 24: about 1,300 pairs at most
def _tails(unseen: int, to_come: int) -> tuple[tuple[float, ...], ...]:
    """``tails[s][m]``: chance that at least ``m`` of ``s`` wanted cards are among the
    ``to_come`` cards drawn from ``unseen`` (hypergeometric; certain when all are drawn)."""
    total = comb(unseen, to_come)
    rows = []
    for s in range(_MAX_SUPPLY + 1):
        s_eff = min(s, unseen)
        exact = [
            comb(s_eff, x) * comb(unseen - s_eff, to_come - x) / total if x <= to_come else 0.0
            for x in range(6)
        ]
        row = []
        for m in range(6):
            row.append(1.0 if m == 0 else max(0.0, 1.0 - sum(exact[:m])))
        rows.append(tuple(row))
    return tuple(rows)


class LineValuer:
    """Estimated final points of a partial row or column, given the cards still to come.

    For every hand a line can still become it counts the cards it needs (of which ranks,
    suits or exact cards) and the chance that at least that many of them are among the cards
    still to come; the line's value is the best ``points * chance * discount**needed`` over
    those hands (a full line is worth its exact points). ``discount`` stands for the
    competition between lines for the same cards. Wild cards in the line cover the hardest
    needs; wild cards still to come count towards every supply.

    Call :meth:`prepare` with the observation's counts of cards still to come before valuing
    lines for a decision.
    """

    def __init__(self, scoring: Scoring = "american", *, discount: float = 0.6) -> None:
        names, self.class_points = resolve_scoring(scoring)
        self.classify = make_classifier("standard")
        self.discount = float(discount)
        self.p_pair = names["pair"]
        self.p_two_pair = names["two pair"]
        self.p_trips = names["three of a kind"]
        self.p_straight = names["straight"]
        self.p_flush = names["flush"]
        self.p_full = names["full house"]
        self.p_quads = names["four of a kind"]
        self.p_sflush = names["straight flush"]
        self.p_royal = names["royal flush"]
        self.p_five = names["five of a kind"]
        self.p_any_straight = max(self.p_straight, self.p_sflush, self.p_royal)
        self._powers = [self.discount**i for i in range(8)]
        self._cache: dict[tuple[int, ...], float] = {}

    def prepare(self, to_come: np.ndarray | list[int], placed: int) -> None:
        """Set the supplies for one decision: ``to_come`` counts per card id (53), ``placed``
        cards already on the grid (the card to place now is not among ``to_come``)."""
        counts = [int(x) for x in to_come]
        unseen = sum(counts)
        future = GRID_CELLS - placed - 1
        self.jokers_to_come = counts[JOKER]
        tails = _tails(unseen, min(future, unseen))
        j = counts[JOKER]
        self.tail = [tails[min(s + j, _MAX_SUPPLY)] for s in range(_MAX_SUPPLY + 1)]
        self.card_supply = counts
        self.rank_supply = [sum(counts[4 * r : 4 * r + 4]) for r in range(13)]
        self.suit_supply = [sum(counts[s:52:4]) for s in range(4)]
        self.ranks_by_supply = sorted(range(13), key=lambda r: -self.rank_supply[r])
        self._cache = {}

    def value(self, cards: tuple[int, ...]) -> float:
        """Estimated points of a line holding ``cards`` (a tuple of up to 5 ids)."""
        cached = self._cache.get(cards)
        if cached is None:
            cached = self._cache[cards] = self._value(cards)
        return cached

    def _chance(self, needs: list[tuple[int, int]], wilds: int) -> float:
        """Chance of meeting every ``(supply, count)`` need, times the discount per card."""
        tail = self.tail
        if wilds:
            needs = [list(need) for need in needs]  # type: ignore[misc]
            for _ in range(wilds):
                open_needs = [n for n in needs if n[1] > 0]
                if not open_needs:
                    break
                hardest = min(open_needs, key=lambda n: tail[n[0]][n[1]])
                hardest[1] -= 1
        p = 1.0
        needed = 0
        for supply, count in needs:
            if count:
                p *= tail[supply][count]
                needed += count
        return p * self._powers[needed]

    def _value(self, cards: tuple[int, ...]) -> float:
        n = len(cards)
        if n == 5:
            return float(self.class_points[self.classify(*cards)])
        naturals = [c for c in cards if c != JOKER]
        wilds = n - len(naturals)
        slots = 5 - n
        n_nat = len(naturals)
        counts: dict[int, int] = {}
        for c in naturals:
            counts[c >> 2] = counts.get(c >> 2, 0) + 1
        groups = sorted(counts.items(), key=lambda rc: -rc[1])
        supply = self.rank_supply
        new = []
        for r in self.ranks_by_supply:
            if r not in counts:
                new.append(r)
                if len(new) == 2:
                    break
        new1, new2 = supply[new[0]], supply[new[1]]
        chance = self._chance
        best = 0.0

        def consider(points: int, needs: list[tuple[int, int]]) -> None:
            nonlocal best
            if points > best:
                v = points * chance(needs, wilds)
                if v > best:
                    best = v

        # groups of ranks
        if self.p_quads > best:
            for r, c in groups:
                if n_nat - c <= 1:
                    consider(self.p_quads, [(supply[r], 4 - c)])
            if n_nat <= 1:
                consider(self.p_quads, [(new1, 4)])
        if self.p_full > best and len(groups) <= 2:
            if len(groups) == 2:
                (a, ca), (b, cb) = groups
                if ca <= 3 and cb <= 2:
                    consider(self.p_full, [(supply[a], 3 - ca), (supply[b], 2 - cb)])
                if cb <= 3 and ca <= 2:
                    consider(self.p_full, [(supply[b], 3 - cb), (supply[a], 2 - ca)])
            elif len(groups) == 1:
                a, ca = groups[0]
                if ca <= 3:
                    consider(self.p_full, [(supply[a], 3 - ca), (new1, 2)])
                if ca <= 2:
                    consider(self.p_full, [(supply[a], 2 - ca), (new1, 3)])
            else:
                consider(self.p_full, [(new1, 3), (new2, 2)])
        if self.p_trips > best:
            for r, c in groups:
                if c <= 3 and n_nat - c <= 2:
                    consider(self.p_trips, [(supply[r], 3 - c)])
            if n_nat <= 2:
                consider(self.p_trips, [(new1, 3)])
        if self.p_two_pair > best:
            for i, (a, ca) in enumerate(groups):
                if ca > 2:
                    continue
                for b, cb in groups[i + 1 :]:
                    if cb <= 2 and n_nat - ca - cb <= 1:
                        consider(self.p_two_pair, [(supply[a], 2 - ca), (supply[b], 2 - cb)])
                if n_nat - ca <= 1:
                    consider(self.p_two_pair, [(supply[a], 2 - ca), (new1, 2)])
            if n_nat <= 1:
                consider(self.p_two_pair, [(new1, 2), (new2, 2)])
        if self.p_pair > best:
            for r, c in groups:
                consider(self.p_pair, [(supply[r], max(0, 2 - c))])
            if n_nat <= 3:
                consider(self.p_pair, [(new1, 2)])
        if self.p_five > best and (wilds or self.jokers_to_come) and len(groups) <= 1:
            r, c = groups[0] if groups else (new[0], 0)
            consider(self.p_five, [(supply[r], 5 - c - wilds)])

        # straights and flushes
        suits = {c & 3 for c in naturals}
        suited = len(suits) <= 1
        if suited:
            flush_supply = self.suit_supply[next(iter(suits))] if n_nat else max(self.suit_supply)
            consider(self.p_flush, [(flush_supply, slots)])
        if len(groups) == n_nat and self.p_any_straight > best:
            mask = 0
            for r in counts:
                mask |= 1 << r
            card_supply = self.card_supply
            for missing, royal in _STRAIGHTS.get(mask, ()):
                consider(self.p_straight, [(supply[r], 1) for r in missing])
                if suited:
                    sf = self.p_royal if royal else self.p_sflush
                    for s in suits or range(4):
                        consider(sf, [(card_supply[4 * r + s], 1) for r in missing])
        return best


class GreedyBot:
    """Puts each card where it most raises the estimated value of its row plus its column.

    The value of a line is :class:`LineValuer`'s estimate under the scoring table in use, from
    the observation's counts of cards still to come (the unseen deck in the deal variant, the
    exact remaining cards in the shuffle variant). Only cells the mask allows are considered, so
    jokers and adjacent placement need no special case. Ties go to a random cell from the bot's
    own generator.

    Args:
        seed: seed of the tie-breaking generator.
        scoring: the env's scoring option.
        discount: :class:`LineValuer`'s discount per card a line still needs.
    """

    name = "greedy"

    def __init__(
        self,
        *,
        seed: int | None = None,
        scoring: Scoring = "american",
        discount: float = 0.6,
        **env_options: Any,
    ) -> None:
        self.valuer = LineValuer(scoring, discount=discount)
        self.reset(seed)

    def reset(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        view = decode_observation(observation)
        self.valuer.prepare(view.to_come, view.placed)
        gains = self.gains(view.grid, view.card, np.flatnonzero(action_mask).tolist())
        return self._pick(gains)

    def gains(self, grid: list[int], card: int, cells: list[int]) -> dict[int, float]:
        """Estimated gain of putting ``card`` on each of ``cells`` (valuer already prepared)."""
        value = self.valuer.value
        # cache keys keep cell order: sorting costs more than the few extra cache misses
        line_cards = [tuple([grid[i] for i in line if grid[i] != EMPTY]) for line in LINES]
        before = [value(cards) for cards in line_cards]
        after: dict[int, float] = {}
        gains = {}
        for cell in cells:
            gain = 0.0
            for line in CELL_LINES[cell]:
                v = after.get(line)
                if v is None:
                    v = after[line] = value(line_cards[line] + (card,))
                gain += v - before[line]
            gains[cell] = gain
        return gains

    def _pick(self, gains: dict[int, float]) -> int:
        if not gains:
            raise ValueError("no legal action: the action mask is all zeros")
        top = max(gains.values())
        best = [cell for cell, gain in gains.items() if gain >= top - 1e-9]
        return best[0] if len(best) == 1 else best[int(self.rng.integers(len(best)))]


class SearchBot(GreedyBot):
    """Greedy candidates compared by Monte-Carlo rollouts of sampled futures (a greedy bot that
    searches: the rollouts play its policy).

    At each decision with at most ``horizon`` empty cells it takes the greedy's ``candidates``
    best cells and, for each, plays the same ``rollouts`` sampled futures (the unseen deck
    shuffled by the bot's generator in the deal variant; in the shuffle variant the known cards
    in their known order) with the greedy policy for ``depth`` more cards (``None``: to the end
    of the game). A rollout is worth the grid's score when it reaches the end, else the sum of
    the :class:`LineValuer` estimates of its ten lines; the cell with the best mean wins. Other
    decisions are the greedy's. Rollouts keep the decision's card supplies, so each line value
    is computed once per decision and shared by every rollout (see :meth:`_rollout`).

    The default budget (4 rollouts of 2 cards for 3 candidates) costs about 30 ms per game on
    one core, so 10,000 games take about 5 minutes; it scores about 5 points (American) above
    the greedy. More rollouts help further (16: about +9) at proportional cost.

    Args:
        seed: seed of the bot's generator (sampled futures and ties).
        scoring: the env's scoring option.
        placement: the env's placement option (rollouts must respect it).
        rollouts: sampled futures per candidate cell.
        candidates: how many of the greedy's best cells are compared.
        depth: cards played after the candidate in each rollout (``None``: to the end).
        horizon: search only when at most this many cells are empty (25: every decision).
        discount: as for :class:`GreedyBot`.
    """

    name = "search"

    def __init__(
        self,
        *,
        seed: int | None = None,
        scoring: Scoring = "american",
        placement: str = "free",
        rollouts: int = 4,
        candidates: int = 3,
        depth: int | None = 2,
        horizon: int = 25,
        discount: float = 0.6,
        **env_options: Any,
    ) -> None:
        for name, value, low in (("rollouts", rollouts, 1), ("candidates", candidates, 1)):
            if isinstance(value, bool) or not isinstance(value, int) or value < low:
                raise ValueError(f"bad {name} {value!r}: expected an int >= {low}")
        if depth is not None and (
            isinstance(depth, bool) or not isinstance(depth, int) or depth < 0
        ):
            raise ValueError(f"bad depth {depth!r}: expected None or an int >= 0")
        if isinstance(horizon, bool) or not isinstance(horizon, int) or not 0 <= horizon <= 25:
            raise ValueError(f"bad horizon {horizon!r}: expected an int in 0..25")
        if placement not in ("free", "adjacent"):
            raise ValueError(f"bad placement {placement!r}: expected 'free' or 'adjacent'")
        super().__init__(seed=seed, scoring=scoring, discount=discount)
        self.adjacent = placement == "adjacent"
        self.rollouts = rollouts
        self.candidates = candidates
        self.depth = depth
        self.horizon = horizon

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        view = decode_observation(observation)
        legal = np.flatnonzero(action_mask).tolist()
        if not legal:
            raise ValueError("no legal action: the action mask is all zeros")
        self.valuer.prepare(view.to_come, view.placed)
        gains = self.gains(view.grid, view.card, legal)
        empty = GRID_CELLS - view.placed
        if empty > self.horizon or len(legal) == 1:
            return self._pick(gains)
        ranked = self._distinct(view.grid, sorted(legal, key=lambda c: -gains[c]))
        ranked = ranked[: self.candidates]
        if len(ranked) == 1:
            return ranked[0]
        length = empty - 1 if self.depth is None else min(self.depth, empty - 1)
        pool = np.repeat(np.arange(len(view.to_come)), view.to_come)
        if int(view.to_come.sum()) == empty - 1:
            # every card to come is known (shuffle variant): its order is descending ids
            futures = [sorted(pool.tolist(), reverse=True)[:length]] * 1
        else:
            futures = [self.rng.permutation(pool)[:length].tolist() for _ in range(self.rollouts)]
        best_cell, best_mean = ranked[0], -np.inf
        for cell in ranked:
            total = 0.0
            for future in futures:
                total += self._rollout(view.grid, cell, view.card, future)
            if total > best_mean + 1e-9:
                best_cell, best_mean = cell, total
        return best_cell

    def _rollout(self, grid: list[int], cell: int, card: int, future: list[int]) -> float:
        """Value of putting ``card`` on ``cell`` and then ``future`` by the greedy policy.

        The valuer keeps the decision's card supplies for the whole rollout (a few cards'
        difference), so every line value is computed once per decision and reused by every
        rollout and candidate: that cache is what makes the search affordable.
        """
        grid = list(grid)
        grid[cell] = card
        valuer = self.valuer
        for next_card in future:
            cells = self._legal(grid)
            if len(cells) > 1:
                gains = self.gains(grid, next_card, cells)
                cell_next = max(cells, key=gains.__getitem__)
            else:
                cell_next = cells[0]
            grid[cell_next] = next_card
        value = valuer.value
        return sum(value(tuple([grid[i] for i in line if grid[i] != EMPTY])) for line in LINES)

    @staticmethod
    def _distinct(grid: list[int], cells: list[int]) -> list[int]:
        """``cells`` less those whose row and column hold the same cards as an earlier one's
        (the grid's row/column symmetries make them equivalent)."""
        seen = set()
        out = []
        for cell in cells:
            row, col = (
                tuple(sorted(grid[i] for i in LINES[line] if grid[i] != EMPTY))
                for line in CELL_LINES[cell]
            )
            key = (row, col) if row <= col else (col, row)
            if key not in seen:
                seen.add(key)
                out.append(cell)
        return out

    def _legal(self, grid: list[int]) -> list[int]:
        empty = [c for c in range(GRID_CELLS) if grid[c] == EMPTY]
        if not self.adjacent:
            return empty
        return [c for c in empty if any(grid[n] != EMPTY for n in NEIGHBOURS[c])]


BOTS: dict[str, type] = {"random": RandomBot, "greedy": GreedyBot, "search": SearchBot}
