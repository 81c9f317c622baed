"""The local best response on heads-up stud (``training/lbr.py``, the hidden cards of
``envs/five_card_stud/analysis.py``): never above the exact best response where that can be
computed (the last betting round of fixed boards, the opponent's hole card unknown), and it
finds the exploit of deliberately exploitable policies."""

from __future__ import annotations

import copy
from typing import Any

import numpy as np
import pytest
from pokerzoo.envs.core.betting import CALL, FOLD, RAISE
from pokerzoo.envs.core.cards import parse_cards
from pokerzoo.envs.core.registry import get_game
from pokerzoo.envs.five_card_stud.analysis import StudHiddenCards
from pokerzoo.envs.five_card_stud.game import FiveCardStudGame
from pokerzoo.envs.five_card_stud.observation import LAYOUT
from pokerzoo.envs.five_card_stud.rules import FiveCardStudRules, pack_order
from pokerzoo.training.lbr import Decision, LBRResult, LocalBestResponse, one_hot, play_lbr

from tests.helpers import batched_player

SPEC = get_game("five_card_stud")
_HOLE, _ROUND = LAYOUT.start("hole"), LAYOUT.start("round")
_RANKS = np.arange(LAYOUT["hole"].stop - _HOLE) // 4  # a card id's rank, 0 (deuce) .. 12 (ace)


def _passive(masks: np.ndarray) -> np.ndarray:
    """Check or call where legal, else bet (the first round's opener may not check)."""
    return np.where(masks[:, CALL], CALL, RAISE)


def river_policy(observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """Passive until the last round; there, by its hole card's rank: a queen or better bets or
    raises, an eight to a jack checks or calls, lower folds to a bet (checks otherwise)."""
    actions = _passive(masks)
    last = observations[:, _ROUND + 3] == 1
    hole = (observations[:, _HOLE : _HOLE + len(_RANKS)] * _RANKS).sum(axis=1)
    strong = last & (hole >= 10) & masks[:, RAISE]
    weak = last & (hole < 6) & masks[:, FOLD]
    actions = np.where(strong, RAISE, actions)
    return np.where(weak, FOLD, actions)


def mixed_river(observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """:data:`~pokerzoo.training.lbr.Probabilities` of a policy that mixes on the last round:
    passive until then; there a queen or better bets or raises three times in four (else checks
    or calls), an eight to a jack checks or calls, lower folds to a bet three times in five."""
    chances = one_hot(calling_station)(observations, masks)
    last = observations[:, _ROUND + 3] == 1
    hole = (observations[:, _HOLE : _HOLE + len(_RANKS)] * _RANKS).sum(axis=1)
    strong = np.flatnonzero(last & (hole >= 10) & masks[:, RAISE])
    weak = np.flatnonzero(last & (hole < 6) & masks[:, FOLD])
    chances[strong] *= 0.25
    chances[strong, RAISE] += 0.75
    chances[weak] *= 0.4
    chances[weak, FOLD] += 0.6
    return chances


def folds_to_bets(observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """Folds whenever it faces a bet; otherwise checks (bets only when it must)."""
    return np.where(masks[:, FOLD], FOLD, _passive(masks))


def calling_station(observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
    return _passive(masks)


BOARD = ["Kd 7c 7s 2h", "9h Tc 3d Jc"]  # each seat's four up cards (the hole cards vary)
LBR_HOLE = "Qs"


def _river_states(lbr: int) -> tuple[dict[int, Any], list[Decision], FiveCardStudRules]:
    """For every hole card the opponent may hold, the hand played passively to the last
    betting round (LBR's hole is fixed); the opponent's decisions on the way."""
    rules = FiveCardStudGame()
    known = set(parse_cards(" ".join(BOARD) + " " + LBR_HOLE))
    states: dict[int, Any] = {}
    history: list[Decision] = []
    for hole in sorted(set(range(52)) - known):
        hands = ["", ""]
        hands[lbr] = f"{LBR_HOLE} {BOARD[lbr]}"
        hands[1 - lbr] = " ".join([str(_card(hole)), BOARD[1 - lbr]])
        state = rules.new_state(pack_order(hands))
        record = not states
        while state.betting.round < 3:
            actor = rules.current_player(state)
            observation = rules.observe(state, actor)
            mask = rules.legal_mask(state, actor).astype(bool)
            action = int(_passive(mask[None])[0])
            if record and actor != lbr:
                history.append(Decision(observation, mask, action, [hole]))
            rules.transition(state, actor, action)
        states[hole] = state
    return states, history, rules


def _card(card_id: int) -> str:
    from pokerzoo.envs.core.cards import format_card

    return format_card(card_id)


def _exact_best_response(
    rules: FiveCardStudRules, states: dict[int, tuple[Any, float]], lbr: int, chances: Any
) -> float:
    """The best response's value (chips, summed over the holdings, each ``(state, weight)``):
    at its decisions the best action for all the holdings it cannot tell apart, at the
    policy's each action it may take per holding, weighted by its probability (``chances``)."""
    first = next(iter(states.values()))[0]
    if rules.is_terminal(first):
        return sum(weight * state.results[-1]["chips"][lbr] for state, weight in states.values())
    actor = rules.current_player(first)
    if actor == lbr:
        mask = rules.legal_mask(first, lbr).astype(bool)
        best = -np.inf
        for action in np.flatnonzero(mask).tolist():
            after = {h: (copy.deepcopy(s), w) for h, (s, w) in states.items()}
            for state, _ in after.values():
                rules.transition(state, lbr, action)
            best = max(best, _exact_best_response(rules, after, lbr, chances))
        return best
    groups: dict[int, dict[int, tuple[Any, float]]] = {}
    for hole, (state, weight) in states.items():
        observation = rules.observe(state, actor)[None]
        mask = rules.legal_mask(state, actor).astype(bool)[None]
        for action, chance in enumerate(chances(observation, mask)[0].tolist()):
            if chance > 0:
                after = copy.deepcopy(state)
                rules.transition(after, actor, action)
                groups.setdefault(action, {})[hole] = (after, weight * chance)
    return sum(_exact_best_response(rules, group, lbr, chances) for group in groups.values())


def _lbr_expected(
    rules: FiveCardStudRules,
    state: Any,
    seen: list[Decision],
    responder: LocalBestResponse,
    lbr: int,
    chances: Any,
) -> float:
    """LBR's expected result from ``state`` on: each action the policy may take, weighted by
    its probability, recorded in what LBR has seen."""
    while not rules.is_terminal(state):
        actor = rules.current_player(state)
        if actor == lbr:
            rules.transition(state, lbr, responder.act(state, lbr, seen))
            continue
        observation = rules.observe(state, actor)
        mask = rules.legal_mask(state, actor).astype(bool)
        hole = StudHiddenCards(rules).hidden(state, actor)
        value = 0.0
        for action, chance in enumerate(chances(observation[None], mask[None])[0].tolist()):
            if chance > 0:
                after = copy.deepcopy(state)
                rules.transition(after, actor, action)
                then = [*seen, Decision(observation, mask, action, hole)]
                value += chance * _lbr_expected(rules, after, then, responder, lbr, chances)
        return value
    return float(state.results[-1]["chips"][lbr])


def _lbr_value(
    rules: FiveCardStudRules, states: dict[int, Any], history: list, lbr: int, chances: Any
) -> float:
    """LBR's expected result (chips, summed over the holdings), the policy holding each in
    turn."""
    view = StudHiddenCards(rules)
    total = 0.0
    for start in states.values():
        responder = LocalBestResponse(rules, view, chances, np.random.default_rng(0), 8)
        total += _lbr_expected(rules, copy.deepcopy(start), list(history), responder, lbr, chances)
    return total


@pytest.mark.parametrize("lbr", [0, 1])
@pytest.mark.parametrize("mixed", [False, True])
def test_lbr_never_beats_the_exact_best_response(lbr: int, mixed: bool) -> None:
    # A deterministic policy (each holding weighs 1 or 0) and one that mixes (each holding
    # weighs the probability of the actions it took).
    chances = mixed_river if mixed else one_hot(river_policy)
    states, history, rules = _river_states(lbr)
    best = _exact_best_response(rules, {h: (s, 1.0) for h, s in states.items()}, lbr, chances)
    found = _lbr_value(rules, states, history, lbr, chances)
    passive = 0.0
    for start in states.values():  # checking and calling down, for scale
        passive += _lbr_expected(rules, copy.deepcopy(start), [], _Passive(), lbr, chances)
    assert found <= best + 1e-9
    assert found > passive + 1.0  # it exploits something: the policy's folds and its bets


class _Passive(LocalBestResponse):
    """Checks or calls (bets where it must): the yardstick of what LBR exploits."""

    def __init__(self) -> None:
        pass

    def act(self, state: Any, seat: int, history: list[Decision]) -> int:
        mask = FiveCardStudGame().legal_mask(state, seat).astype(bool)
        return int(_passive(mask[None])[0])


def _lbr_against(name: str, policy: Any, deals: int) -> LBRResult:
    """:func:`play_lbr` against a batched ``policy`` (the player and what LBR asks of it)."""
    return play_lbr(
        SPEC, StudHiddenCards, name, lambda s: batched_player(policy), policy, {}, deals
    )


def test_lbr_takes_every_pot_from_a_policy_that_folds_to_bets() -> None:
    result = _lbr_against("folder", folds_to_bets, 30)
    assert result.chips.value >= 1.0  # at least the folder's ante, every hand
    assert result.chips.low > 0.9
    assert result.hands == 60 and result.endings["player folded"][0] == 1.0  # every hand


def test_lbr_beats_a_calling_station_and_loses_less_to_a_stronger_player() -> None:
    station = _lbr_against("station", calling_station, 60)
    assert station.chips.low > 0  # value bets take chips from a player that never folds


def test_lbr_refuses_what_it_does_not_play() -> None:
    with pytest.raises(ValueError, match="heads-up high-only"):
        StudHiddenCards(FiveCardStudRules(hi_lo=True))
    with pytest.raises(ValueError, match="heads-up high-only"):
        StudHiddenCards(FiveCardStudRules(num_players=3))


def test_lbr_on_forked_workers_plays_the_same_deals() -> None:
    # Every deal is seeded by itself: two workers, chunks of two deals, the same chips per deal.
    def play(processes: int) -> LBRResult:
        return play_lbr(
            SPEC,
            StudHiddenCards,
            "station",
            lambda s: batched_player(calling_station),
            calling_station,
            {},
            7,
            processes=processes,
        )

    alone, forked = play(1), play(2)
    assert forked.chips == alone.chips and forked.deals == 7
    assert forked.endings == alone.endings and forked.hands == alone.hands == 14
    with pytest.raises(ValueError, match="processes"):
        play(0)
