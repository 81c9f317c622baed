"""The league (``pokerzoo league``): round robin of bots and runs on the evaluation's duplicate
deals, margins consistent with ``evaluate``, ranking, reports and the command."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from pokerzoo.envs.core.registry import get_game
from pokerzoo.training import evaluate
from pokerzoo.training.cli import main
from pokerzoo.training.evaluate import evaluate_agent, play_bot_single
from pokerzoo.training.lbr import one_hot
from pokerzoo.training.league import Entrant, play_league, write_league


def _last_legal(observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """A deterministic policy that never folds (the highest legal action)."""
    return masks.shape[1] - 1 - masks[:, ::-1].argmax(axis=1)


def test_two_players_each_pair_once_and_margins_are_antisymmetric() -> None:
    spec = get_game("quintet")
    entrants = [Entrant(f"bot {n}", bot=n) for n in ("greedy", "random", "mixed")]
    league = play_league(spec, entrants, {}, episodes=6, seed=11)
    for a in league.entrants:
        for b in league.entrants:
            if a != b:
                assert league.margins[a][b].value == pytest.approx(-league.margins[b][a].value)
        others = [league.margins[a][b].value for b in league.entrants if b != a]
        assert league.scores[a].value == pytest.approx(np.mean(others))
    assert league.ranking()[-1] == "bot random"
    assert league.scores["bot random"].high < 0 < league.scores["bot greedy"].low


@pytest.mark.parametrize("processes", [1, 2])
def test_quintet_scored_from_each_players_moves_as_every_game_played(
    processes: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Quintet's seats play blind: each entrant lays out each deal once (as the seat player
    and as the other seats' player) and every pair is scored from their moves; the league is
    the one of every game played."""
    spec = get_game("quintet")
    entrants = [Entrant("agent", policy=_last_legal)] + [
        Entrant(f"bot {n}", bot=n) for n in ("greedy", "random", "mixed", "best_response")
    ]
    scored = evaluate._play_blind
    calls: list[int] = []

    def counted(*args: object, **kwargs: object) -> object:
        calls.append(1)
        return scored(*args, **kwargs)

    monkeypatch.setattr(evaluate, "_play_blind", counted)
    blind = play_league(spec, entrants, {}, episodes=5, seed=21, processes=1)
    assert calls
    split = play_league(spec, entrants, {}, episodes=5, seed=21, processes=processes)
    monkeypatch.setattr(evaluate, "_blind_engine", lambda spec, table: None)
    played = play_league(spec, entrants, {}, episodes=5, seed=21, processes=processes)
    for league in (split, played):
        assert blind.margins == league.margins
        assert blind.wins == league.wins
        assert blind.scores == league.scores
    assert len({m.value for row in blind.margins.values() for m in row.values()}) > 4


@pytest.mark.parametrize(
    ("game", "options"), [("draw_poker", {}), ("nameless_poker", {"deals": [1]})]
)
def test_a_policy_scores_against_a_bot_as_evaluate_measures_it(game: str, options: dict) -> None:
    """The league's tables are the evaluation's: a policy's margin against a bot is the margin
    ``evaluate_agent`` reports on the same deals (four players: both orders are played)."""
    spec = get_game(game)
    entrants = [Entrant("agent", policy=_last_legal), Entrant("bot random", bot="random")]
    league = play_league(spec, entrants, options, episodes=5, seed=300)
    evaluation = evaluate_agent(spec, _last_legal, options, 5, ["random"], seed=300)
    assert league.margins["agent"]["bot random"] == evaluation.opponents["random"].margin
    assert league.wins["agent"]["bot random"] == evaluation.opponents["random"].win
    reverse = league.margins["bot random"]["agent"]  # random in one seat, the agent in the others
    if spec.players == 2:
        assert reverse.value == pytest.approx(-league.margins["agent"]["bot random"].value)
    else:
        assert reverse.n == 5


def test_a_sampled_entrant_scores_as_evaluate_measures_the_sampled_player() -> None:
    spec = get_game("five_card_stud")
    chances = one_hot(_last_legal)
    mixed = Entrant(
        "sampled", probabilities=lambda o, m: 0.5 * chances(o, m) + 0.5 * m / m.sum(1)[:, None]
    )
    entrants = [mixed, Entrant("bot caller", bot="caller")]
    league = play_league(spec, entrants, {}, episodes=6, seed=40, processes=2)
    player = mixed.maker(spec, {})
    evaluation = evaluate_agent(spec, None, {}, 6, ["caller"], seed=40, player=player)
    assert league.margins["sampled"]["bot caller"] == evaluation.opponents["caller"].margin


def test_an_entrant_is_one_player() -> None:
    with pytest.raises(ValueError, match="bad entrant 'x': expected one of a bot, a policy"):
        Entrant("x")
    with pytest.raises(ValueError, match="bad entrant 'x'"):
        Entrant("x", bot="random", policy=_last_legal)
    sampled = Entrant("s", probabilities=one_hot(_last_legal))
    with pytest.raises(ValueError, match="bad entrant 's': it samples its actions"):
        play_league(get_game("poker_squares"), [sampled, Entrant("b", bot="random")], {}, 2)


def test_one_player_margins_are_score_differences_on_the_same_deals() -> None:
    spec = get_game("poker_squares")
    entrants = [Entrant("bot greedy", bot="greedy"), Entrant("bot random", bot="random")]
    league = play_league(spec, entrants, {}, episodes=4, seed=50)
    seeds = list(range(50, 54))
    difference = play_bot_single(spec, "greedy", {}, seeds) - play_bot_single(
        spec, "random", {}, seeds
    )
    assert league.margins["bot greedy"]["bot random"].value == pytest.approx(difference.mean())
    assert league.wins == {}


def test_reports_are_written(tmp_path: Path) -> None:
    spec = get_game("quintet")
    entrants = [Entrant("bot greedy", bot="greedy"), Entrant("bot random", bot="random")]
    league = play_league(spec, entrants, {}, episodes=2)
    paths = write_league(league, tmp_path)
    assert "| 1 | bot greedy |" in paths["md"].read_text()
    data = json.loads(paths["json"].read_text())
    assert [row["entrant"] for row in data["ranking"]] == ["bot greedy", "bot random"]
    assert paths["png"].stat().st_size > 0


def test_bad_entrants_are_refused() -> None:
    spec = get_game("quintet")
    with pytest.raises(ValueError, match="at least two"):
        play_league(spec, [Entrant("bot greedy", bot="greedy")], {}, episodes=2)
    twice = [Entrant("x", bot="greedy"), Entrant("x", bot="random")]
    with pytest.raises(ValueError, match="each named once"):
        play_league(spec, twice, {}, episodes=2)


def test_the_command_ranks_and_names_bad_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "league"
    args = ["league", "quintet", "--bots", "greedy", "random", "--episodes", "2", "--out", str(out)]
    assert main(args) == 0
    assert "| 1 | bot greedy |" in capsys.readouterr().out
    assert (out / "league.png").exists()
    assert main(["league", "quintet", "--bots", "grumpy"]) == 2
    assert "unknown bot 'grumpy'" in capsys.readouterr().err
    assert main(["league", "quintet", "--bots", "greedy"]) == 2
    assert "two entrants or more" in capsys.readouterr().err
