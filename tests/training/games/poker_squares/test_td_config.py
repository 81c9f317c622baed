"""The ``td`` section's schema lives beside its learner: the run config finds it through the
games' training hooks, names no game itself, and validates the section as before."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pytest
from pokerzoo.envs.core.registry import get_game
from pokerzoo.training import config as config_module
from pokerzoo.training.config import ConfigError, from_dict, load_config, to_dict
from pokerzoo.training.games.poker_squares.td import LEARNER, TDConfig
from pokerzoo.training.hooks import hooks_for, td_schema


def test_the_td_schema_is_found_through_the_games_hooks() -> None:
    assert hooks_for(get_game("poker_squares")).td is LEARNER
    assert LEARNER.config is TDConfig
    assert td_schema() is TDConfig


def test_the_config_module_imports_no_game() -> None:
    tree = ast.parse(Path(inspect.getfile(config_module)).read_text())
    imported = [
        node.module or ""
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.level > 0
    ]
    assert not [name for name in imported if name.startswith("games")], imported


@pytest.mark.parametrize("game", ["poker_squares", "quintet"])
def test_every_run_config_carries_the_td_section(game: str) -> None:
    config = from_dict({"game": game, "td": {"games": 5}})
    assert isinstance(config.td, TDConfig)
    assert config.td.games == 5
    assert to_dict(config)["td"] == TDConfig(games=5).model_dump()
    assert from_dict(to_dict(config)) == config
    assert from_dict({"game": game}).td == TDConfig()


@pytest.mark.parametrize(
    ("td", "message"),
    [
        ({"lam": 2}, r"^td.lam: expected a number <= 1, got 2$"),
        ({"games": 0}, r"^td.games: expected an integer >= 1, got 0$"),
        ({"games": 2.5}, r"^td.games: expected an integer, got 2.5$"),
        ({"lookahead": 1}, r"^td.lookahead: expected true or false, got 1$"),
        ({"bad": 1}, r"^td.bad: unknown key \(expected one of: games, minutes, batch,"),
        (3, r"^td: expected a mapping, got 3$"),
    ],
)
def test_td_errors_name_the_key(td: object, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        from_dict({"game": "poker_squares", "algorithm": "td", "td": td})


def test_td_errors_name_the_file(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text("game: poker_squares\nalgorithm: td\ntd: {epsilon: -1}\n")
    with pytest.raises(ConfigError, match=r"bad.yaml: td.epsilon: expected a number >= 0"):
        load_config(path)
