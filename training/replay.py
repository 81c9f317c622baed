"""Hard-deal replay: a training table deals again the games its learner did not win.

A deal the learner lost or drew (its episode's rewards summed to 0 or less) against one of the
named bots is kept, with everything that made it (the deal's seed, the learner's seat, each
opponent's name and reset seed), in a bounded buffer of its table. At each later deal, while the
buffer holds any, the table replays a kept deal with probability ``share`` (drawn from the
table's generator, so a seeded run replays the same deals): the same cards, seat and bots, which
replay the same game move for move until the learner plays differently. A replayed deal that the
learner wins (``wins`` times in a row) leaves the buffer; one it loses again stays; the oldest
goes once the buffer is full. This is a curriculum over deals, in the spirit of prioritized
level replay (Jiang, Grefenstette and Rocktäschel 2021): the learner's observations, actions and
rewards are the game's own; only which deals it trains on leans toward those it has not solved.

Only bots whose play a name and a seed fix are replayed (the learner's snapshots change as it
trains, and are never kept). The buffers live in the tables: a resumed run starts with empty
ones. ``opponents.replay_share`` and ``opponents.replay_bots`` turn it on in a config
(:class:`pokerzoo.training.config.OpponentsConfig`)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

__all__ = ["DealReplay", "KeptDeal"]


@dataclass(frozen=True)
class KeptDeal:
    """What deals one game again: the deal's seed, the learner's seat index and, per opponent
    position (1 .. players - 1, clockwise from the learner), its bot's name and reset seed."""

    deal_seed: int
    seat: int
    opponents: tuple[tuple[str, int], ...]


class DealReplay:
    """One table's buffer of kept deals (module docstring).

    Args:
        share: the probability that a deal is a replay while the buffer holds any (0 .. 1).
        bots: the bot names whose lost deals are kept (every opponent of the deal must be one).
        capacity: the most deals kept (the oldest goes first).
        wins: the replays in a row a kept deal must win to leave the buffer.
    """

    def __init__(
        self, share: float, bots: Iterable[str], capacity: int = 32, wins: int = 1
    ) -> None:
        if not 0.0 <= share <= 1.0:
            raise ValueError(f"bad replay share {share!r}: expected a probability in [0, 1]")
        if capacity < 1:
            raise ValueError(f"bad replay capacity {capacity!r}: expected at least 1")
        if wins < 1:
            raise ValueError(f"bad replay wins {wins!r}: expected at least 1")
        self.share = float(share)
        self.bots = frozenset(bots)
        self.capacity = int(capacity)
        self.wins = int(wins)
        self.deals: list[KeptDeal] = []
        """The kept deals, oldest first."""
        self.won: dict[KeptDeal, int] = {}
        """Each kept deal's replays won in a row."""
        self.replays = 0
        """Deals replayed so far."""

    def replayable(self, names: Iterable[str]) -> bool:
        """Whether a deal against these opponents may be kept."""
        return all(name in self.bots for name in names)

    def draw(self, rng: np.random.Generator) -> KeptDeal | None:
        """The kept deal to play next, or ``None`` for a fresh deal (one draw of ``rng`` when
        the buffer holds any deal and the share is above 0, two when it replays; else none)."""
        if not self.deals or self.share == 0.0 or not rng.random() < self.share:
            return None
        self.replays += 1
        return self.deals[int(rng.integers(len(self.deals)))]

    def settle(self, deal: KeptDeal, replayed: bool, won: bool) -> None:
        """Record a finished deal's result: a replayed deal won :attr:`wins` times in a row
        leaves the buffer (one lost starts its count again); a fresh deal not won is kept."""
        if replayed:
            if deal not in self.won:
                return  # it left the buffer meanwhile (a full buffer drops the oldest)
            self.won[deal] = self.won[deal] + 1 if won else 0
            if self.won[deal] >= self.wins:
                self.deals.remove(deal)
                del self.won[deal]
        elif not won:
            if len(self.deals) == self.capacity:
                del self.won[self.deals.pop(0)]
            self.deals.append(deal)
            self.won[deal] = 0
