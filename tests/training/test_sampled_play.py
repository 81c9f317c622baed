"""An agent that samples its actions from its policy's probabilities
(``pokerzoo evaluate --sampled``): the draws (``sample_actions``), the player
(``SampledPolicyBot``), its duplicate evaluation and the local best response against it."""

from __future__ import annotations

import doctest
import functools
import importlib

import numpy as np
import pytest
from pokerzoo.envs.core.registry import get_game
from pokerzoo.envs.five_card_stud.analysis import StudHiddenCards
from pokerzoo.training.evaluate import evaluate_agent
from pokerzoo.training.lbr import one_hot, play_lbr
from pokerzoo.training.opponents import SampledPolicyBot, sample_actions

from tests.helpers import batched_player, bot_decisions

STUD = get_game("five_card_stud")


def lopsided(observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """Probabilities over the legal actions: the first legal one 1/2, the others share the
    rest (one legal action: all of it)."""
    legal = np.asarray(masks, dtype=bool)
    first = legal.argmax(axis=1)
    others = legal.sum(axis=1) - 1
    chances = np.where(legal, 0.5 / np.maximum(others, 1)[:, None], 0.0)
    chances[np.arange(len(legal)), first] = np.where(others > 0, 0.5, 1.0)
    return chances


@pytest.mark.parametrize(
    "module",
    ["pokerzoo.training.opponents", "pokerzoo.training.lbr", "pokerzoo.envs.core.bots"],
)
def test_docstring_examples(module: str) -> None:
    result = doctest.testmod(importlib.import_module(module))
    assert result.attempted > 0 and result.failed == 0


def test_draws_follow_the_probabilities_over_the_legal_actions_only() -> None:
    rows = 20_000
    chances = np.tile([0.1, 0.0, 0.3, 0.6, 0.5], (rows, 1))  # the last action is masked
    masks = np.tile([True, True, True, True, False], (rows, 1))
    rng = np.random.default_rng(7)
    actions = sample_actions([rng] * rows, chances, masks)
    shares = np.bincount(actions, minlength=5) / rows
    assert shares[1] == 0 and shares[4] == 0  # no probability, or not legal
    assert np.abs(shares[[0, 2, 3]] - [0.1, 0.3, 0.6]).max() < 0.015


def test_a_row_draws_with_its_own_generator_alone() -> None:
    chances = np.array([[0.2, 0.3, 0.5], [0.5, 0.5, 0.0], [0.0, 0.0, 1.0]])
    masks = np.ones((3, 3), dtype=bool)
    together = sample_actions([np.random.default_rng(s) for s in (1, 2, 3)], chances, masks)
    alone = [
        sample_actions([np.random.default_rng(s)], chances[[k]], masks[[k]])[0]
        for k, s in enumerate((1, 2, 3))
    ]
    assert together.tolist() == alone
    assert together[2] == 2


def test_no_probability_on_a_legal_action_is_an_error_naming_it() -> None:
    with pytest.raises(ValueError, match=r"bad probabilities \[0.0, 1.0\] for row 0.*\[0\]"):
        sample_actions([np.random.default_rng(0)], np.array([[0.0, 1.0]]), np.array([[1, 0]]))


def test_sampled_bots_answer_in_one_pass_as_each_would_alone() -> None:
    calls = []

    def counted(observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        calls.append(len(observations))
        return lopsided(observations, masks)

    observations, masks = bot_decisions("five_card_stud", "caller", 4)
    bots = [SampledPolicyBot(counted, seed=100 + k) for k in range(len(observations))]
    batch = SampledPolicyBot.act_batch(bots, observations, masks)
    assert calls == [len(observations)]  # one forward pass for every row of one policy
    singles = [
        SampledPolicyBot(counted, seed=100 + k).act(observations[k], masks[k])
        for k in range(len(observations))
    ]
    assert batch.tolist() == singles
    assert masks[np.arange(len(batch)), batch].all()
    again = [SampledPolicyBot(counted, seed=0) for _ in range(len(observations))]
    for bot in again:
        bot.reset(100 + again.index(bot))
    assert SampledPolicyBot.act_batch(again, observations, masks).tolist() == singles
    assert len(set(batch.tolist())) > 1  # it mixes


def test_duplicate_deals_of_a_sampled_player_depend_on_their_seeds_alone() -> None:
    player = functools.partial(SampledPolicyBot, lopsided)

    def margins(batch: int, processes: int) -> list[float]:
        evaluation = evaluate_agent(
            STUD, None, {}, 6, ["caller"], batch=batch, processes=processes, player=player
        )
        return [evaluation.opponents["caller"].margin.value]

    assert margins(256, 1) == margins(1, 1) == margins(3, 2)
    with pytest.raises(ValueError, match="a policy or a player"):
        evaluate_agent(STUD, one_hot(lopsided), {}, 2, ["caller"], player=player)
    with pytest.raises(ValueError, match="bad player for poker_squares"):
        evaluate_agent(get_game("poker_squares"), None, {}, 2, player=player)


def test_lbr_of_one_hot_probabilities_is_lbr_of_the_deterministic_policy() -> None:
    def caller_first(observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        return np.asarray(masks, dtype=bool).argmax(axis=1)

    def play(**asked: object) -> object:
        return play_lbr(STUD, StudHiddenCards, "p", lambda s: batched_player(caller_first), **asked)

    common = {"options": {}, "deals": 5}
    plain = play(policy=caller_first, **common)
    probabilities = play(policy=None, probabilities=one_hot(caller_first), **common)
    assert plain.chips == probabilities.chips  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="not both or neither"):
        play(policy=caller_first, probabilities=one_hot(caller_first), **common)
    with pytest.raises(ValueError, match="not both or neither"):
        play(policy=None, **common)


def test_lbr_against_a_sampled_player_weighs_its_probabilities() -> None:
    player = functools.partial(SampledPolicyBot, lopsided)
    result = play_lbr(STUD, StudHiddenCards, "sampled", player, None, {}, 6, probabilities=lopsided)
    again = play_lbr(STUD, StudHiddenCards, "sampled", player, None, {}, 6, probabilities=lopsided)
    assert result.chips == again.chips and np.isfinite(result.chips.value)
