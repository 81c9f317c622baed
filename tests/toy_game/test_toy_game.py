"""A game added by adding its files: the toy game of this folder, registered from
``tests/conftest.py`` without editing any module of the package, trains, evaluates, lists and
plays through the ``pokerzoo`` command like a shipped game (the conformance suite checks its
envs)."""

from __future__ import annotations

from pathlib import Path

import pytest
from pokerzoo.envs.core.registry import GameSpec, games, get_game, register_game
from pokerzoo.training.cli import main
from pokerzoo.training.play import play

HERE = Path(__file__).resolve().parent


def test_the_toy_game_is_registered_and_listed(capsys: pytest.CaptureFixture[str]) -> None:
    assert "take_two" in games()
    assert main(["list"]) == 0
    assert "take_two: Take two (toy game of the tests) (2 players)" in capsys.readouterr().out


def test_registering_a_name_twice_is_an_error() -> None:
    with pytest.raises(ValueError, match="game 'take_two' is registered already"):
        register_game(get_game("take_two"))
    spec = get_game("quintet")
    clash = GameSpec(**{**spec.__dict__, "name": "quintet_again"})
    with pytest.raises(ValueError, match="'pokerzoo/Quintet-v0' is registered already"):
        register_game(clash)
    assert "quintet_again" not in games()


def test_train_and_evaluate_through_the_cli(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = tmp_path / "run"
    config = str(HERE / "take_two.yaml")
    args = ["train", "take-two", "--config", config, "--out", str(run), "--no-progress"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "| greedy | 12 |" in out and "| random | 12 |" in out  # 6 deals x 2 seats
    assert (run / "model.zip").is_file() and (run / "report.md").is_file()
    assert sorted(p.name for p in (run / "snapshots").iterdir()) == ["step_128.zip", "step_64.zip"]
    assert main(["evaluate", str(run), "--episodes", "3", "--opponents", "random"]) == 0
    assert "| random | 6 |" in capsys.readouterr().out


def test_play_through_the_hooks() -> None:
    answers = iter(["9", "x", ""] + [""] * 10)
    lines: list[str] = []
    result = play("take_two", "random", seed=1, read=lambda _: next(answers), write=lines.append)
    text = "\n".join(lines)
    assert "card position (0-4)" not in text  # the prompt goes to read(), not write()
    assert "that move is not legal here" in text and "type its number" in text
    assert set(result["points"]) == {"player_0", "player_1"}
