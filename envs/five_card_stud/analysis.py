"""What one seat of a heads-up five-card stud hand can reason about the other's hidden cards.

:class:`StudHiddenCards` serves the local best response (:mod:`pokerzoo.training.lbr`): the
opponent's hidden cards (its hole card, and the fifth with ``last_card_down``) are the only
thing a seat does not see, so its possible holdings can be enumerated from the cards it has not
seen; an observation of the opponent's is rewritten for any holding by moving the hole-card
one-hots; and a holding's showdown equity is a Monte-Carlo over the cards still to come, every
holding and sample evaluated in one call of the batched hand evaluator.
"""

from __future__ import annotations

import itertools

import numpy as np

from ..core.cards import NUM_CARD_IDS
from ..core.draws import lowest
from ..core.hands import evaluate
from .observation import LAYOUT
from .rules import FiveCardStudRules
from .state import CARDS_PER_HAND, FiveCardStudState

__all__ = ["StudHiddenCards"]

_HOLE = LAYOUT.start("hole")


class StudHiddenCards:
    """The hidden cards of heads-up five-card stud under ``rules``' options (high only)."""

    def __init__(self, rules: FiveCardStudRules) -> None:
        options = rules.options
        if options.num_players != 2 or options.hi_lo:
            raise ValueError(
                "the local best response plays heads-up high-only stud: got "
                f"num_players={options.num_players}, hi_lo={options.hi_lo}"
            )
        self.deuces_wild = options.deuces_wild
        self.positions = [p for p in range(CARDS_PER_HAND) if not options.face_up(p)]
        """Positions of the hidden cards in a seat's five (0, the hole, and 4 when down)."""
        self.deck = np.asarray(rules.deck.cards, dtype=np.int64)

    def hidden(self, state: FiveCardStudState, seat: int) -> list[int]:
        """``seat``'s hidden cards dealt so far, in dealing order."""
        row = state.cards[seat]
        return [int(row[p]) for p in self.positions if row[p] >= 0]

    def holdings(self, state: FiveCardStudState, seat: int, other: int) -> np.ndarray:
        """Every holding of ``other``'s hidden cards that ``seat`` cannot rule out: ``(H, k)``
        card ids, ``k`` the hidden cards dealt so far (ordered pairs are left out: one row per
        set of cards)."""
        count = len(self.hidden(state, other))
        unseen = self._unseen(state, seat)
        rows = list(itertools.combinations(unseen.tolist(), count))
        return np.array(rows, dtype=np.int64).reshape(len(rows), count)

    def counterfactual(
        self, observation: np.ndarray, actual: list[int], holdings: np.ndarray
    ) -> np.ndarray:
        """``observation`` (the seat's, holding ``actual``) rewritten for each holding: one row
        per holding, the hidden-card one-hots moved."""
        rows = np.repeat(observation[None], len(holdings), axis=0)
        for card in actual:
            rows[:, _HOLE + card] = 0
        k = len(actual)
        index = np.arange(len(holdings))
        for j in range(k):
            rows[index, _HOLE + holdings[:, j]] = 1
        return rows

    def equity(
        self,
        state: FiveCardStudState,
        seat: int,
        other: int,
        holdings: np.ndarray,
        rng: np.random.Generator,
        samples: int,
    ) -> np.ndarray:
        """``seat``'s share of the pot at the showdown against each holding of ``other``'s
        (ties half), the cards still to come dealt at random ``samples`` times (once when none
        is to come): ``(H,)``."""
        mine = [int(c) for c in state.cards[seat] if c >= 0]
        theirs_up = [
            int(state.cards[other, p])
            for p in range(CARDS_PER_HAND)
            if p not in self.positions and state.cards[other, p] >= 0
        ]
        to_me, to_them = (
            CARDS_PER_HAND - len(mine),
            CARDS_PER_HAND - holdings.shape[1] - len(theirs_up),
        )
        unseen = self._unseen(state, seat)
        h = len(holdings)
        draws = to_me + to_them
        runs = samples if draws else 1
        keys = rng.random((h, runs, unseen.size))
        # the holding's own cards cannot come again: their keys sort them last
        taken = (unseen[None, :, None] == holdings[:, None, :]).any(axis=2)
        keys[np.broadcast_to(taken[:, None, :], keys.shape)] = 2.0
        picks = unseen[lowest(keys, draws)]
        own = np.concatenate(
            [np.broadcast_to(np.array(mine), (h, runs, len(mine))), picks[:, :, :to_me]], axis=2
        )
        other_cards = np.concatenate(
            [
                np.broadcast_to(holdings[:, None, :], (h, runs, holdings.shape[1])),
                np.broadcast_to(np.array(theirs_up, dtype=np.int64), (h, runs, len(theirs_up))),
                picks[:, :, to_me:],
            ],
            axis=2,
        )
        both = np.concatenate([own, other_cards]).reshape(2 * h * runs, CARDS_PER_HAND)
        keys_both = evaluate(both, "standard", deuces_wild=self.deuces_wild).reshape(2, h, runs)
        share = np.where(
            keys_both[0] > keys_both[1], 1.0, np.where(keys_both[0] == keys_both[1], 0.5, 0.0)
        )
        return share.mean(axis=1)

    def _unseen(self, state: FiveCardStudState, seat: int) -> np.ndarray:
        """The pack's cards ``seat`` has not seen (one entry per copy), ascending."""
        seen = np.zeros(NUM_CARD_IDS, dtype=np.int64)
        for card in state.cards[seat]:
            if card >= 0:
                seen[card] += 1
        for other in range(state.cards.shape[0]):
            if other != seat:
                for p in range(CARDS_PER_HAND):
                    card = state.cards[other, p]
                    if card >= 0 and p not in self.positions:
                        seen[card] += 1
        left = []
        counts = np.bincount(self.deck, minlength=NUM_CARD_IDS) - seen
        for card in np.flatnonzero(counts > 0).tolist():
            left.extend([card] * int(counts[card]))
        return np.array(left, dtype=np.int64)
