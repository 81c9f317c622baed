"""Quintet's seats play blind (``QuintetRules.blind``): the evaluation plays each contender
and each bot once a deal and scores every pairing from their moves. The tables must be those
of playing every pairing in both seats."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest
from pokerzoo.envs.core.registry import get_game
from pokerzoo.training import evaluate
from pokerzoo.training.evaluate import (
    Contender,
    _blind_engine,
    _play_blind,
    bot_maker,
    evaluate_contenders,
    make_tables,
    play_duplicate,
)

SPEC = get_game("quintet")
OPTIONS = {"reward": "points"}


def _last_legal(obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
    return masks.shape[1] - 1 - masks[:, ::-1].argmax(axis=1)


def _by_card(obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """The current card's index modulo 5 where legal, else the first legal pack: a policy
    that reads its observation."""
    current = obs[:, 192:224].argmax(axis=1) % masks.shape[1]
    legal = masks[np.arange(len(masks)), current]
    return np.where(legal, current, masks.argmax(axis=1))


def _random_player(seed: int) -> object:
    return SPEC.make_bot("random", seed=seed, **OPTIONS)


CONTENDERS = {
    "last": Contender(_last_legal),
    "by_card": Contender(_by_card),
    "random player": Contender(player=_random_player),
}
BOTS = ["random", "greedy", "sacrifice", "mixed", "best_response"]


@pytest.mark.parametrize(
    ("keys", "bots"),
    [
        (["last", "by_card", "random player"], BOTS),  # fewer contenders than bots
        (["last", "by_card", "random player"], ["mixed", "random"]),  # more contenders
        (["by_card"], ["best_response"]),
    ],
    ids=["3-vs-5", "3-vs-2", "1-vs-1"],
)
def test_blind_pairings_score_as_every_game_played(keys: Sequence[str], bots: list[str]) -> None:
    deals, seed = 9, 77
    tables = make_tables(SPEC, OPTIONS, deals, batch=6)
    engine = _blind_engine(SPEC, tables[0])
    assert engine is not None
    makers = {bot: bot_maker(SPEC, bot, OPTIONS) for bot in bots}
    pairs = [(key, bot) for key in keys for bot in bots]
    blind = _play_blind(SPEC, engine, CONTENDERS, makers, pairs, OPTIONS, deals, seed, tables)
    assert list(blind) == pairs
    for (key, bot), (got, seconds) in blind.items():
        contender = CONTENDERS[key]
        played = play_duplicate(
            SPEC, contender.policy, OPTIONS, deals, bot, seed, 6, player=contender.player
        )
        for field in ("wins", "draws", "own", "theirs"):
            assert np.array_equal(getattr(got, field), getattr(played, field)), (key, bot, field)
        assert seconds > 0
    margins = {(deals.own - deals.theirs).sum() for deals, _ in blind.values()}
    if len(blind) > 1:
        assert len(margins) > 1  # the pairings differ


def test_evaluation_takes_the_blind_pairings(monkeypatch: pytest.MonkeyPatch) -> None:
    """``evaluate_contenders`` scores Quintet from the blind pairings (in one process or two)
    and its tables are those of playing every game; a game whose seats see each other's
    moves is played game by game."""
    calls: list[int] = []
    blind = evaluate._play_blind

    def counted(*args: object, **kwargs: object) -> object:
        calls.append(1)
        return blind(*args, **kwargs)

    monkeypatch.setattr(evaluate, "_play_blind", counted)
    bots = ["greedy", "mixed"]
    scored = evaluate_contenders(SPEC, CONTENDERS, OPTIONS, 6, bots, 5)
    assert calls
    monkeypatch.setattr(evaluate, "_blind_engine", lambda spec, table: None)
    for processes in (1, 2):
        played = evaluate_contenders(SPEC, CONTENDERS, OPTIONS, 6, bots, 5, processes=processes)
        for key, result in played.items():
            for bot, row in result.opponents.items():
                expected = scored[key].opponents[bot]
                assert (row.margin, row.win, row.draw, row.agent_mean) == (
                    expected.margin,
                    expected.win,
                    expected.draw,
                    expected.agent_mean,
                ), (key, bot, processes)
    assert len(calls) == 1
    stud = get_game("five_card_stud")
    assert _blind_engine(stud, make_tables(stud, {}, 1, 1)[0]) is None
