"""What one seat of a heads-up draw poker hand can reason about the other's cards.

:class:`DrawHiddenCards` serves the local best response (:mod:`pokerzoo.training.lbr`) as a
sampled range: the opponent's five cards are all hidden, too many holdings to enumerate
(``C(47, 5)``), so each hand LBR keeps a :class:`DrawRange` of ``particles`` holdings sampled
once from the cards it has not seen, each weighted by the evaluated policy's decisions:

- a betting decision: the policy is asked with the observation rewritten for the particle (its
  cards are the only thing of the hand's the observation shows; after the draw it shows the hand
  after the draw and the count drawn, never the cards thrown), weight its probability of the
  action taken (1 or 0 for a deterministic policy), at least ``floor``;
- the draw: the count drawn is public: weight the policy's probability, holding the particle, of
  throwing as many cards, at least ``floor``. The particle keeps the cards of the policy's most
  probable discard of that count (of any count where it would throw none so: a deterministic
  policy's own discard) and, once both seats have drawn, receives its replacements, dealt once
  from the cards LBR has not seen (nor the particle held); the decisions after the draw are asked
  with that hand.

LBR's own draw reveals its replacements: particles holding one of them (impossible holdings)
are dealt again from the cards it has not seen, their weights recomputed from the start of the
hand. The equity (LBR's share of the pot at the showdown, ties half) is exact after the draw
(the particles' hands are known); before it, and at LBR's draw, a Monte-Carlo of ``futures``
deals of replacements per particle, both seats drawing: the particle by the policy's (most
probable) discard (asked at the opponent's draw when it has made it; otherwise at the draw the
hand reaches when both check or call from now on, LBR's own draw there the caller rule's,
:func:`~.analysis.caller_keep_many`), LBR by each of its 32 discards, every hand of every
candidate, particle and future scored in one call of the batched ``"draw"`` evaluator. At its
draw LBR takes the legal discard of highest equity; before it, its equity is that of its best
discard.

Every option of the heads-up game is supported: copies of a card (two decks), jokers and wild
deuces are counted card by card; heads-up the stock never runs short.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import numpy as np

from ..core.betting import CALL
from ..core.cards import NUM_CARD_IDS
from ..core.draws import lowest
from ..core.hands import evaluate, evaluate_draws
from ..core.options import check_int
from .actions import HAND_SIZE, NUM_DISCARDS, PHASE_BET_AFTER, PHASE_DRAW, PHASE_OVER, STAND_PAT
from .analysis import caller_keep_many
from .observation import make_layout
from .rules import DrawPokerRules
from .state import DrawPokerState

__all__ = ["DrawHiddenCards", "DrawRange"]

Probabilities = Callable[[np.ndarray, np.ndarray], np.ndarray]
"""The evaluated policy, batched: observations ``(K, ...)`` and bool masks ``(K, A)`` -> the
probability of each action ``(K, A)`` (:data:`pokerzoo.training.lbr.Probabilities`)."""

_LAYOUT = make_layout(2)
_CARDS, _PHASE = _LAYOUT.start("cards"), _LAYOUT.start("phase")
_CARD_SLOTS = HAND_SIZE * NUM_CARD_IDS
_BITS = 1 << np.arange(HAND_SIZE)
_THROWN = np.array([bin(bits).count("1") for bits in range(NUM_DISCARDS)])
"""Cards each discard ``bits`` (action ``STAND_PAT + bits``) throws."""
_DISCARDS = np.arange(NUM_DISCARDS)
"""Every discard, as the bits of the cards thrown (action ``STAND_PAT + bits``)."""


class DrawHiddenCards:
    """The hidden cards of heads-up draw poker under ``rules``' options, as LBR's sampled range
    (:class:`~pokerzoo.training.lbr.SampledHiddenCards`; the module docstring).

    Args:
        rules: the game's engine (heads-up).
        particles: holdings of the opponent's sampled each hand, >= 1.
        futures: Monte-Carlo deals of the replacements per particle for the equity before the
            showdown hands are known, >= 1 (:func:`~pokerzoo.training.lbr.play_lbr`'s
            ``samples`` is stud's and not used here).
    """

    def __init__(self, rules: DrawPokerRules, particles: int = 256, futures: int = 4) -> None:
        if rules.num_players != 2:
            raise ValueError(
                "the local best response plays heads-up draw poker: got "
                f"num_players={rules.num_players}"
            )
        self.particles = check_int("particles", particles, 1)
        self.futures = check_int("futures", futures, 1)
        self.deuces_wild = rules.deuces_wild
        self.counts = rules.deck.counts.astype(np.int64)
        """Copies of each card id in the pack."""

    def hidden(self, state: DrawPokerState, seat: int) -> list[int]:
        """``seat``'s cards (all hidden from the other seat), highest id first."""
        return [int(card) for card in state.hands[seat]]

    def counterfactual(
        self, observation: np.ndarray, actual: list[int], holdings: np.ndarray
    ) -> np.ndarray:
        """``observation`` (the seat's, holding ``actual``) rewritten for each holding (five
        card ids a row): one row per holding, the card slots refilled highest id first."""
        rows = np.repeat(np.asarray(observation)[None], len(holdings), axis=0)
        rows[:, _CARDS : _CARDS + _CARD_SLOTS] = 0
        cards = -np.sort(-np.asarray(holdings, dtype=np.int64), axis=1)
        index = np.arange(len(holdings))
        for slot in range(HAND_SIZE):
            rows[index, _CARDS + NUM_CARD_IDS * slot + cards[:, slot]] = 1
        return rows

    def new_range(
        self,
        game: DrawPokerRules,
        state: DrawPokerState,
        seat: int,
        policy: Probabilities,
        rng: np.random.Generator,
        floor: float,
    ) -> DrawRange:
        """LBR's range of this hand of ``state``'s, LBR at ``seat``: the particles dealt."""
        return DrawRange(self, game, state, seat, policy, rng, floor)


class DrawRange:
    """One hand's sampled range of the opponent's cards, LBR at ``seat`` (the module docstring;
    :class:`~pokerzoo.training.lbr.HandRange`).

    Args:
        view: the game's :class:`DrawHiddenCards` (particles, futures, the pack).
        game: the engine (to look ahead to the opponent's draw).
        state: the hand, before LBR's draw (what LBR holds now is what it has seen).
        seat: LBR's seat.
        policy: the evaluated policy's action probabilities, asked for each particle.
        rng: LBR's generator (every particle and future is drawn from it).
        floor: the least weight of a decision (one the policy would not take with the particle).
    """

    def __init__(
        self,
        view: DrawHiddenCards,
        game: DrawPokerRules,
        state: DrawPokerState,
        seat: int,
        policy: Probabilities,
        rng: np.random.Generator,
        floor: float,
    ) -> None:
        self.view, self.game, self.policy, self.rng, self.floor = view, game, policy, rng, floor
        self.seat, self.other = seat, 1 - seat
        self.hand = (state.hand_number, state.dealer, tuple(state.start_stacks))
        self.before = np.array(state.hands[seat], dtype=np.int64)
        """LBR's cards when the range was made (before its draw)."""
        self.seen = np.bincount(self.before, minlength=NUM_CARD_IDS)
        """Copies of each card id LBR has seen (its cards, then its replacements too)."""
        self.discard: int | None = None
        """LBR's draw action, once it has chosen it (:meth:`choose`)."""
        self.synced = state.drawn[seat] >= 0  # made after its draw: its replacements unknown
        self.pre = self._deal_hands(self.view.particles)
        """``(P, 5)``: each particle's cards before the draw, highest id first."""
        self.post: np.ndarray | None = None
        """``(P, 5)``: each particle's cards after the draw, once both seats have drawn."""
        self.thrown = np.zeros(len(self.pre), dtype=np.int64)
        """Each particle's discard bits by the policy at the opponent's draw (0 until then)."""
        self.decisions: list[Any] = []
        """The opponent's decisions weighed so far (:class:`~pokerzoo.training.lbr.Decision`)."""
        self.likelihoods: list[np.ndarray] = []
        """Per decision weighed, each particle's factor (1 or floor)."""
        self._planned: dict[bytes, np.ndarray] = {}

    # --- HandRange ------------------------------------------------------------------------
    def covers(self, state: DrawPokerState, seat: int) -> bool:
        hand = (state.hand_number, state.dealer, tuple(state.start_stacks))
        return seat == self.seat and hand == self.hand

    def weigh(self, state: DrawPokerState, history: list[Any]) -> tuple[np.ndarray, np.ndarray]:
        """The particles' cards now (before or after the draw) and their weights."""
        self._sync(state)
        for decision in history[len(self.decisions) :]:
            if _phase(decision.observation) == PHASE_BET_AFTER:
                self._deal_post()
            self.decisions.append(decision)
            self.likelihoods.append(self._likelihood(decision, np.arange(len(self.pre))))
        weights = np.ones(len(self.pre))
        for factor in self.likelihoods:
            weights *= factor
        after = state.phase in (PHASE_BET_AFTER, PHASE_OVER)
        if after:
            self._deal_post()
        holdings = self.post if after and self.post is not None else self.pre
        return holdings, weights / weights.sum()

    def equity(self, state: DrawPokerState, weights: np.ndarray) -> float:
        """LBR's share of the pot at the showdown: against the particles' hands after the draw,
        or, before it, that of its best discard (:meth:`draw_equities`)."""
        if state.phase in (PHASE_BET_AFTER, PHASE_OVER) and self.post is not None:
            mine = np.broadcast_to(np.array(state.hands[self.seat]), self.post.shape)
            keys = evaluate(
                np.concatenate([mine, self.post]), "draw", deuces_wild=self.view.deuces_wild
            ).reshape(2, -1)
            share = np.where(keys[0] > keys[1], 1.0, np.where(keys[0] == keys[1], 0.5, 0.0))
            return float(weights @ share)
        return float(self.draw_equities(state, weights).max())

    def choose(self, state: DrawPokerState, mask: np.ndarray, weights: np.ndarray) -> int:
        """LBR's draw: the legal discard of highest equity (standing pat on a tie)."""
        equities = self.draw_equities(state, weights)
        legal = np.asarray(mask, dtype=bool)[STAND_PAT:]
        action = STAND_PAT + int(np.argmax(np.where(legal, equities, -np.inf)))
        self.discard = action
        return action

    # --- the equity before the showdown hands are known ----------------------------------
    def draw_equities(self, state: DrawPokerState, weights: np.ndarray) -> np.ndarray:
        """``(32,)``: LBR's share of the pot at the showdown after each of its discards (bits),
        both seats drawing (the module docstring), ``futures`` deals a particle."""
        mine = np.array(state.hands[self.seat], dtype=np.int64)
        thrown = self.thrown if state.drawn[self.other] >= 0 else self._planned_discards(state)
        futures = self.view.futures
        unseen = self._unseen()
        # each future: the opponent's replacements, then LBR's (one stock, no card twice)
        deals = _deal_without(unseen, self.pre, 2 * HAND_SIZE, futures, self.rng)
        p = len(self.pre)
        theirs = _after_discard(
            np.broadcast_to(self.pre[:, None], (p, futures, HAND_SIZE)),
            deals[..., :HAND_SIZE],
            np.broadcast_to(thrown[:, None], (p, futures)),
        )
        wild = self.view.deuces_wild
        theirs_key = evaluate(theirs.reshape(-1, HAND_SIZE), "draw", deuces_wild=wild)
        theirs_key = theirs_key.reshape(p, futures, 1)
        # LBR's hand after each discard in each future, its replacements the deal's last five
        replacements = deals[..., HAND_SIZE:].reshape(1, p * futures, HAND_SIZE)
        own_key = evaluate_draws([mine], replacements, _DISCARDS, "draw", deuces_wild=wild)
        own_key = own_key.reshape(p, futures, NUM_DISCARDS)
        share = np.where(own_key > theirs_key, 1.0, np.where(own_key == theirs_key, 0.5, 0.0))
        return weights @ share.mean(axis=1)

    def _planned_discards(self, state: DrawPokerState) -> np.ndarray:
        """Each particle's discard bits by the policy at the draw the hand reaches when both
        seats check or call from now on (LBR drawing by the caller rule if it draws first); all
        zeros when the opponent would not draw."""
        ahead = copy.deepcopy(state)
        game = self.game
        while not game.is_terminal(ahead) and not (
            ahead.phase == PHASE_DRAW and game.current_player(ahead) == self.other
        ):
            if ahead.phase == PHASE_BET_AFTER or ahead.hand_number != state.hand_number:
                return np.zeros(len(self.pre), dtype=np.int64)
            actor = game.current_player(ahead)
            action = CALL
            if ahead.phase == PHASE_DRAW:
                keep, _ = caller_keep_many(
                    np.array([ahead.hands[actor]]), deuces_wild=self.view.deuces_wild
                )
                action = STAND_PAT + int(_BITS @ ~keep[0])
                if not game.legal_mask(ahead, actor)[action]:
                    action = STAND_PAT
            game.transition(ahead, actor, action)
        if game.is_terminal(ahead):
            return np.zeros(len(self.pre), dtype=np.int64)
        observation = game.observe(ahead, self.other)
        mask = game.legal_mask(ahead, self.other).astype(bool)
        key = observation.tobytes()
        if key not in self._planned:
            rows = self.view.counterfactual(observation, ahead.hands[self.other], self.pre)
            chances = self.policy(rows, np.repeat(mask[None], len(rows), axis=0))
            bits = np.asarray(chances, dtype=np.float64).argmax(axis=1) - STAND_PAT
            self._planned[key] = np.clip(bits, 0, NUM_DISCARDS - 1)
        return self._planned[key]

    # --- the particles --------------------------------------------------------------------
    def _unseen(self) -> np.ndarray:
        """The pack's cards LBR has not seen, one entry a copy, ascending."""
        return np.repeat(np.arange(NUM_CARD_IDS), self.view.counts - self.seen)

    def _deal_hands(self, count: int) -> np.ndarray:
        """``count`` hands of five dealt from the unseen cards, highest id first."""
        unseen = self._unseen()
        picks = np.argsort(self.rng.random((count, unseen.size)), axis=1)[:, :HAND_SIZE]
        return -np.sort(-unseen[picks], axis=1)

    def _sync(self, state: DrawPokerState) -> None:
        """After LBR's draw: its replacements are seen; particles holding one are dealt again
        and the decisions weighed so far are weighed again for them."""
        if self.synced or state.drawn[self.seat] < 0:
            return
        self.synced = True
        now = np.bincount(np.array(state.hands[self.seat]), minlength=NUM_CARD_IDS)
        if self.discard is None:  # drew without this range choosing: at least what it holds
            self.seen = np.maximum(self.seen, now)
        else:  # its replacements: what it holds less what it kept
            bits = self.discard - STAND_PAT
            kept = self.before[(bits >> np.arange(HAND_SIZE) & 1) == 0]
            self.seen = self.seen + now - np.bincount(kept, minlength=NUM_CARD_IDS)
        left = self.view.counts - self.seen
        held = np.zeros((len(self.pre), NUM_CARD_IDS), dtype=np.int64)
        np.add.at(held, (np.arange(len(self.pre))[:, None], self.pre), 1)
        again = np.flatnonzero((held > left).any(axis=1))
        if again.size:  # (before any decision after the draw: none is weighed yet)
            self.pre[again] = self._deal_hands(again.size)
            self._planned.clear()
            for factor, decision in zip(self.likelihoods, self.decisions, strict=True):
                factor[again] = self._likelihood(decision, again)

    def _deal_post(self) -> None:
        """Once: each particle's hand after its draw, its kept cards and replacements dealt from
        the cards LBR has not seen that it did not hold."""
        if self.post is not None:
            return
        deals = _deal_without(self._unseen(), self.pre, HAND_SIZE, 1, self.rng)[:, 0]
        self.post = -np.sort(-_after_discard(self.pre, deals, self.thrown), axis=1)

    def _likelihood(self, decision: Any, rows: np.ndarray) -> np.ndarray:
        """Each of particles ``rows``' factor for one decision of the opponent's: the policy's
        probability, holding it, of that action (of throwing as many cards, in the draw), at
        least floor; at the draw, each particle's discard is set (the module docstring)."""
        phase = _phase(decision.observation)
        after = phase == PHASE_BET_AFTER and self.post is not None
        holdings = (self.post if after else self.pre)[rows]
        observations = self.view.counterfactual(decision.observation, decision.hidden, holdings)
        masks = np.repeat(np.asarray(decision.mask, dtype=bool)[None], len(rows), axis=0)
        chances = np.asarray(self.policy(observations, masks), dtype=np.float64)
        if phase == PHASE_DRAW:
            discards = chances[:, STAND_PAT:]
            counted = _THROWN[decision.action - STAND_PAT] == _THROWN
            taken = discards[:, counted].sum(axis=1)
            alike = np.where(counted, discards, 0.0)
            self.thrown[rows] = np.where(
                alike.max(axis=1) > 0, alike.argmax(axis=1), discards.argmax(axis=1)
            )
        else:
            taken = chances[:, decision.action]
        return np.maximum(taken, self.floor)


def _phase(observation: np.ndarray) -> int:
    """The phase an observation shows (:data:`~.actions.PHASES`)."""
    return int(np.argmax(observation[_PHASE : _PHASE + 4]))


def _after_discard(hands: np.ndarray, replacements: np.ndarray, bits: np.ndarray) -> np.ndarray:
    """Hands (``(..., 5)``) after throwing the cards of discard ``bits`` (``(...)``): the k-th
    card thrown is replaced by ``replacements[..., k]``."""
    thrown = (np.asarray(bits)[..., None] >> np.arange(HAND_SIZE) & 1).astype(bool)
    slot = np.clip(np.cumsum(thrown, axis=-1) - 1, 0, HAND_SIZE - 1)
    drawn = np.take_along_axis(replacements, slot, axis=-1)
    return np.where(thrown, drawn, hands)


def _deal_without(
    unseen: np.ndarray, hands: np.ndarray, count: int, futures: int, rng: np.random.Generator
) -> np.ndarray:
    """``(P, futures, count)``: for each hand of ``hands`` (``(P, 5)``, a part of ``unseen``,
    the ascending cards with one entry a copy), ``futures`` deals of ``count`` cards in random
    order from ``unseen`` less that hand's cards."""
    first = np.searchsorted(unseen, hands)
    # a card held twice (two decks) is its two entries: count the copies before each
    copies = (hands[:, :, None] == hands[:, None, :]) & np.tri(HAND_SIZE, k=-1, dtype=bool).T
    taken = first + copies.sum(axis=1)
    keys = rng.random((len(hands), futures, unseen.size))
    keys[np.arange(len(hands))[:, None], :, taken] = 2.0
    return unseen[lowest(keys, count)]
