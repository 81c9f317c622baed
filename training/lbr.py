"""Local best response (LBR; Lisý and Bowling, 2017): how much a heads-up betting policy loses
to a simple exploiter that knows it.

LBR plays one seat against the evaluated policy in the other. It sees its own cards and the
public actions; it keeps the opponent's **range**, every holding of the opponent's hidden cards
it cannot rule out, each weighted by the probability that the evaluated policy takes the
actions it took with that holding (the policy is asked for each holding, its hidden cards
written into the observations it had, as :data:`Probabilities`: a deterministic policy weighs 1
or 0 (:func:`one_hot`), a policy that samples its actions weighs the probability of each; a bot
is asked as a seeded copy, and a floor of ``1e-3`` a decision keeps a holding alive when a bot's
own random draws took another action). At each decision it takes the action of highest value
assuming that, whatever it does, the hand is then checked or called down to the showdown:

- ``wp``: its share of the pot at the showdown against the range (Monte-Carlo over the cards to
  come, ties half);
- check/call: ``wp * pot - (1 - wp) * to_call``;
- bet/raise by ``b``: ``fp * pot + (1 - fp) * (wp * (pot + b) - (1 - wp) * (to_call + b))``,
  ``fp`` the range's probability that the policy folds to it (each holding's weight times the
  policy's probability of folding with it);
- fold: 0.

The chips LBR wins per hand, on duplicate deals (each deal once with LBR in each seat, the
evaluated player reset with the same seed), estimate from below how exploitable the policy is:
a best response would win at least as much. How its hands ended says where they came from
(:data:`ENDINGS`: the policy folded to it, it folded, or a showdown; :attr:`LBRResult.endings`).
A game takes part through its training hooks' ``hidden`` factory: a :class:`HiddenCards`
whose holdings can be enumerated (e.g.
:class:`pokerzoo.envs.five_card_stud.analysis.StudHiddenCards`), or a
:class:`SampledHiddenCards`, whose range is a per-hand :class:`HandRange` of sampled holdings
kept and reweighted by the game's own code, which also takes LBR's decisions outside the
betting (e.g. :class:`pokerzoo.envs.draw_poker.hidden.DrawHiddenCards`: the draw).
"""

from __future__ import annotations

import copy
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

from ..envs.core.betting import CALL, FOLD, RAISE
from ..envs.core.options import check_int
from ..envs.core.registry import GameSpec
from .evaluate import BotMaker, Policy, Probabilities
from .forking import deal_chunks, fork_map
from .stats import Estimate, mean_ci

__all__ = [
    "Decision",
    "ENDINGS",
    "HandRange",
    "HiddenCards",
    "HiddenView",
    "LBRResult",
    "LocalBestResponse",
    "SampledHiddenCards",
    "Probabilities",
    "bot_policy",
    "one_hot",
    "play_lbr",
]

FLOOR = 1e-3
"""The least weight one of the policy's decisions gives a holding (module docstring)."""
ENDINGS = ("player folded", "LBR folded", "showdown")
"""How a hand of LBR's ends (:attr:`LBRResult.endings`): the evaluated player folded to it, it
folded, or the hand was shown down."""


def one_hot(policy: Policy) -> Probabilities:
    """A deterministic batched policy's :data:`Probabilities`: 1 for the action it takes.

    >>> probabilities = one_hot(lambda observations, masks: masks.argmax(axis=1))
    >>> probabilities(np.zeros((2, 3)), np.array([[0, 1, 1], [1, 0, 0]], dtype=bool)).tolist()
    [[0.0, 1.0, 0.0], [1.0, 0.0, 0.0]]
    """

    def probabilities(observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        actions = np.asarray(policy(observations, masks), dtype=np.int64)
        out = np.zeros(np.shape(masks), dtype=np.float64)
        out[np.arange(len(actions)), actions] = 1.0
        return out

    return probabilities


class HiddenView(Protocol):
    """What LBR needs of any game's hidden cards (heads-up): a seat's hidden cards, and an
    observation of the other seat's rewritten for other holdings."""

    def hidden(self, state: Any, seat: int) -> list[int]: ...

    def counterfactual(
        self, observation: np.ndarray, actual: list[int], holdings: np.ndarray
    ) -> np.ndarray: ...


class HiddenCards(HiddenView, Protocol):
    """What LBR needs to know of a game's hidden cards (heads-up), every holding of the other
    seat's enumerated."""

    def holdings(self, state: Any, seat: int, other: int) -> np.ndarray: ...

    def equity(
        self,
        state: Any,
        seat: int,
        other: int,
        holdings: np.ndarray,
        rng: np.random.Generator,
        samples: int,
    ) -> np.ndarray: ...


class HandRange(Protocol):
    """The range LBR keeps through one hand of a game whose holdings are too many to enumerate
    (:meth:`SampledHiddenCards.new_range`): sampled holdings, reweighted as the hand goes."""

    def covers(self, state: Any, seat: int) -> bool:
        """Whether this range is still the one of ``state``'s hand, LBR at ``seat``."""
        ...

    def weigh(self, state: Any, history: list[Decision]) -> tuple[np.ndarray, np.ndarray]:
        """The holdings of the other seat now (one a row, as ``counterfactual`` takes them) and
        their weights (summing to 1), given its decisions of this hand (``history``)."""
        ...

    def equity(self, state: Any, weights: np.ndarray) -> float:
        """LBR's share of the pot at the showdown against the range (``wp``)."""
        ...

    def choose(self, state: Any, mask: np.ndarray, weights: np.ndarray) -> int:
        """LBR's action at a decision outside the betting (``mask`` allows no betting action)."""
        ...


class SampledHiddenCards(HiddenView, Protocol):
    """What LBR needs of a game whose range it samples (heads-up): :class:`HiddenView`'s, and a
    new :class:`HandRange` for each hand."""

    def new_range(
        self,
        game: Any,
        state: Any,
        seat: int,
        policy: Probabilities,
        rng: np.random.Generator,
        floor: float,
    ) -> HandRange: ...


@dataclass
class LBRResult:
    """LBR's chips per hand against one player, on duplicate deals."""

    player: str
    deals: int
    chips: Estimate
    """LBR's mean result per hand (its two seats of a deal averaged), 95% interval over deals."""
    seconds: float
    hands: int = 0
    """The hands played (two a deal, more where a deal's game lasts several hands)."""
    endings: dict[str, tuple[float, float]] = field(default_factory=dict)
    """Where LBR's chips come from: per way a hand ends (:data:`ENDINGS`), its share of the
    hands and LBR's chips from those hands per hand played (the three sum to LBR's mean per
    hand over the hands; with one hand a seat, ``chips``' value)."""

    def as_dict(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "deals": self.deals,
            "chips": self.chips.as_dict(),
            "seconds": self.seconds,
            "hands": self.hands,
            "endings": {
                name: {"share": share, "chips": chips}
                for name, (share, chips) in self.endings.items()
            },
        }


@dataclass
class Decision:
    """One decision of the evaluated player: its observation, mask, action and the hidden
    cards it held then."""

    observation: np.ndarray
    mask: np.ndarray
    action: int
    hidden: list[int]


def bot_policy(spec: GameSpec, name: str, options: Mapping[str, Any], seed: int = 0) -> Policy:
    """Bot ``name`` as a deterministic batched policy: each row asked of a new bot seeded
    ``seed`` (how LBR asks a bot what it would do with another holding)."""
    from ..envs.core.bots import act_batch

    def policy(observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        bots = [spec.make_bot(name, seed=seed, **options) for _ in range(len(observations))]
        return act_batch(bots, observations, np.asarray(masks, dtype=np.int8))

    return policy


class LocalBestResponse:
    """The best responder (module docstring): :meth:`act` decides for ``seat`` in ``state``
    given the evaluated player's decisions of this hand so far (``history``); ``policy`` gives
    the evaluated player's action probabilities (:func:`one_hot` of a deterministic policy)."""

    def __init__(
        self,
        game: Any,
        view: HiddenCards | SampledHiddenCards,
        policy: Probabilities,
        rng: np.random.Generator,
        samples: int,
    ) -> None:
        self.game, self.view, self.policy, self.rng, self.samples = (
            game,
            view,
            policy,
            rng,
            samples,
        )
        self._range: HandRange | None = None
        """The hand's sampled range (a :class:`SampledHiddenCards` view only)."""
        self.last_move: tuple[int, int] | None = None
        """The seat and the action of the last move :meth:`play_next` played."""

    def act(self, state: Any, seat: int, history: list[Decision]) -> int:
        other = 1 - seat
        mask = self.game.legal_mask(state, seat).astype(bool)
        sampled = self._hand_range(state, seat)
        if sampled is None:
            view: Any = self.view
            holdings = view.holdings(state, seat, other)
            weights = self._weights(holdings, history)
            wp = float(weights @ view.equity(state, seat, other, holdings, self.rng, self.samples))
        else:
            holdings, weights = sampled.weigh(state, history)
            if not mask[[FOLD, CALL, RAISE]].any():  # outside the betting (draw poker's draw)
                return sampled.choose(state, mask, weights)
            wp = sampled.equity(state, weights)
        betting = state.betting
        pot = float(sum(betting.committed))
        to_call = float(min(betting.current_bet - betting.round_bets[seat], betting.stacks[seat]))
        values = np.full(len(mask), -np.inf)
        if mask[FOLD]:
            values[FOLD] = 0.0
        if mask[CALL]:
            values[CALL] = wp * pot - (1 - wp) * to_call
        if mask[RAISE]:
            bet = float(betting.rules.bet)
            fold = self._fold_share(state, seat, holdings, weights, history)
            values[RAISE] = fold * pot + (1 - fold) * (
                wp * (pot + bet) - (1 - wp) * (to_call + bet)
            )
        return int(np.argmax(values))

    def play_next(
        self,
        state: Any,
        seat: int,
        history: list[Decision],
        opponent: Callable[[np.ndarray, np.ndarray], int],
    ) -> Any:
        """Play the next action of ``state``'s hand: :meth:`act`'s at ``seat``, else
        ``opponent``'s (given the observation and legal mask), appended to ``history`` with the
        hidden cards it holds; the seat and action are kept as :attr:`last_move`. Returns the
        game's transition result (a payout when a hand ends)."""
        actor = self.game.current_player(state)
        if actor == seat:
            action = self.act(state, seat, history)
        else:
            observation = self.game.observe(state, actor)
            mask = self.game.legal_mask(state, actor)
            action = int(opponent(observation, mask))
            held = self.view.hidden(state, actor)
            history.append(Decision(observation, mask.astype(bool), action, held))
        self.last_move = (actor, action)
        return self.game.transition(state, actor, action)

    def _hand_range(self, state: Any, seat: int) -> HandRange | None:
        """The sampled range of ``state``'s hand (a new one at a new hand); ``None`` for a view
        whose holdings are enumerated."""
        new_range = getattr(self.view, "new_range", None)
        if new_range is None:
            return None
        if self._range is None or not self._range.covers(state, seat):
            self._range = new_range(self.game, state, seat, self.policy, self.rng, FLOOR)
        return self._range

    def _weights(self, holdings: np.ndarray, history: list[Decision]) -> np.ndarray:
        """The range: each holding's weight (summing to 1)."""
        weights = np.ones(len(holdings))
        for decision in history:
            k = len(decision.hidden)
            rows = self.view.counterfactual(decision.observation, decision.hidden, holdings[:, :k])
            masks = np.repeat(decision.mask[None], len(holdings), axis=0)
            taken = self.policy(rows, masks)[:, decision.action]
            weights *= np.maximum(taken, FLOOR)
        return weights / weights.sum()

    def _fold_share(
        self,
        state: Any,
        seat: int,
        holdings: np.ndarray,
        weights: np.ndarray,
        history: list[Decision],
    ) -> float:
        """The range's probability that the policy folds when this seat bets or raises now."""
        other = 1 - seat
        after = copy.deepcopy(state)
        self.game.transition(after, seat, RAISE)
        if self.game.is_terminal(after) or self.game.current_player(after) != other:
            return 0.0
        observation = self.game.observe(after, other)
        mask = self.game.legal_mask(after, other).astype(bool)
        actual = self.view.hidden(after, other)
        rows = self.view.counterfactual(observation, actual, holdings)
        folds = self.policy(rows, np.repeat(mask[None], len(holdings), axis=0))[:, FOLD]
        return float(weights @ folds)


def play_lbr(
    spec: GameSpec,
    hidden: Callable[[Any], HiddenCards | SampledHiddenCards],
    name: str,
    player: BotMaker,
    policy: Policy | None,
    options: Mapping[str, Any],
    deals: int,
    seed: int = 3_000_000,
    samples: int = 64,
    processes: int = 1,
    *,
    probabilities: Probabilities | None = None,
) -> LBRResult:
    """LBR against one player on ``deals`` duplicate deals (seeds ``seed ..``): ``player``
    makes the evaluated player of a deal (seeded ``seed + deal``) that plays the hand,
    ``policy`` is what LBR asks of it for other holdings (a deterministic policy), or
    ``probabilities`` (``policy`` ``None``) those of a player that samples its actions from
    them (:class:`~pokerzoo.training.opponents.SampledPolicyBot`); ``hidden`` builds the game's
    :class:`HiddenCards` (or :class:`SampledHiddenCards`) from its engine. ``samples``: the
    Monte-Carlo futures per holding of a :class:`HiddenCards`' equity (a sampled range sets its
    own). ``processes``: forked worker processes sharing the deals
    (:func:`~pokerzoo.training.forking.fork_map`; every deal seeded by itself, so the result is
    the same)."""
    started = time.perf_counter()
    check_int("deals", deals, 1)
    check_int("processes", processes, 1)
    both = "play_lbr takes a policy or its probabilities, not both or neither"
    if probabilities is None:
        if policy is None:
            raise ValueError(both)
        probabilities = one_hot(policy)
    elif policy is not None:
        raise ValueError(both)
    asked = probabilities
    players = len(spec.make_aec(**options).possible_agents)
    if players != 2:
        raise ValueError(f"LBR plays heads-up: {spec.name} has {players} seats")

    def play(chunk: tuple[int, int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        first, count = chunk
        return _lbr_deals(spec, hidden, player, asked, options, first, count, samples)

    chunks = [(seed, deals)] if processes == 1 else deal_chunks(seed, deals, processes)
    parts = fork_map(play, chunks, processes)
    results, counts, chips = (np.concatenate(part) for part in zip(*parts, strict=True))
    hands = int(counts.sum())
    endings = {
        ending: (float(counts[..., k].sum() / hands), float(chips[..., k].sum() / hands))
        for k, ending in enumerate(ENDINGS)
    }
    seconds = time.perf_counter() - started
    return LBRResult(name, deals, mean_ci(results.mean(axis=1)), seconds, hands, endings)


def _lbr_deals(
    spec: GameSpec,
    hidden: Callable[[Any], HiddenCards | SampledHiddenCards],
    player: BotMaker,
    policy: Probabilities,
    options: Mapping[str, Any],
    seed: int,
    deals: int,
    samples: int,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """LBR's chips per hand on deals ``seed .. seed + deals - 1``, ``(deals, 2)`` by its seat;
    and per deal, seat and way a hand ended (:data:`ENDINGS`) the hands and LBR's chips from
    them, ``(deals, 2, 3)``."""
    game = spec.make_aec(**options).unwrapped.game
    view = hidden(game)
    results = np.zeros((deals, 2))
    counts = np.zeros((deals, 2, len(ENDINGS)), dtype=np.int64)
    chips = np.zeros((deals, 2, len(ENDINGS)))
    for deal in range(deals):
        for lbr_seat in (0, 1):
            deal_seed = seed + deal
            state = game.new_state(rng=np.random.default_rng(deal_seed))
            opponent = player(deal_seed)
            rng = np.random.default_rng(deal_seed + 1)
            responder = LocalBestResponse(game, view, policy, rng, samples)
            history: list[Decision] = []
            total, hands = 0.0, 0
            while not game.is_terminal(state):
                payout = responder.play_next(state, lbr_seat, history, opponent.act)
                if payout is not None:
                    total += payout.rewards[lbr_seat]
                    hands += 1
                    ending = _ending(responder.last_move, lbr_seat)
                    counts[deal, lbr_seat, ending] += 1
                    chips[deal, lbr_seat, ending] += payout.rewards[lbr_seat]
                    history = []  # a new hand: a new range
            results[deal, lbr_seat] = total / max(hands, 1)
    return results, counts, chips


def _ending(move: tuple[int, int] | None, lbr_seat: int) -> int:
    """The index in :data:`ENDINGS` of a hand whose last move was ``move`` (seat, action): heads
    up, a fold ends the hand; any other last move ends it in a showdown."""
    if move is None or move[1] != FOLD:
        return ENDINGS.index("showdown")
    return ENDINGS.index("LBR folded" if move[0] == lbr_seat else "player folded")
