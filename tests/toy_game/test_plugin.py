"""The toy game as a plugin: a package outside pokerzoo that declares its spec in the
``pokerzoo.games`` entry point group joins the registry, its envs built from the spec, and
lists, trains (with its own default config), evaluates, plays and passes the conformance suite
through the ``pokerzoo`` command, with no edit to the package."""

from __future__ import annotations

import importlib.metadata
import io
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import gymnasium as gym
import pytest
import yaml
from pokerzoo.envs.core import registry
from pokerzoo.envs.core.build import aec_env_class, single_env_class
from pokerzoo.envs.core.registry import ENTRY_POINT_GROUP, games, get_game
from pokerzoo.training.cli import main

from tests.conformance import test_conformance

from .spec import SPEC

ROOT = Path(__file__).resolve().parents[2]
ENTRY = importlib.metadata.EntryPoint(
    name="take_two", value="tests.toy_game.spec:SPEC", group=ENTRY_POINT_GROUP
)


def _pettingzoo_ids() -> set[str]:
    from pettingzoo.env_registry.registration import aec_registry

    return set(aec_registry)


@pytest.fixture
def plugin(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A fresh registry without the toy game (``tests/conftest.py`` registered it), an installed
    package declaring it in the ``pokerzoo.games`` group, and the plugins read again; the
    conftest's registration is back afterwards."""
    registry.unregister_game("take_two")
    assert "take_two" not in registry._GAMES
    assert "pokerzoo/TakeTwo-v0" not in gym.registry
    assert "pokerzoo/TakeTwo-v0" not in _pettingzoo_ids()
    real = importlib.metadata.entry_points

    def entry_points(**select: Any) -> Any:
        if select.get("group") == ENTRY_POINT_GROUP:
            return importlib.metadata.EntryPoints([ENTRY])
        return real(**select)

    monkeypatch.setattr(importlib.metadata, "entry_points", entry_points)
    monkeypatch.setattr(registry, "_PLUGINS_READ", [])
    try:
        yield
    finally:
        if "take_two" in registry._GAMES:
            registry.unregister_game("take_two")
        registry.register_game(SPEC)


@pytest.mark.usefixtures("plugin")
def test_a_plugin_game_joins_through_its_entry_point_and_runs_the_cli(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert "take_two" in games()  # discovered through the entry point
    spec = get_game("take-two")
    assert spec is SPEC
    assert [g.id for g in spec.gym_ids] == ["pokerzoo/TakeTwo-v0"]
    assert "pokerzoo/TakeTwo-v0" in gym.registry and "pokerzoo/TakeTwo-v0" in _pettingzoo_ids()
    assert spec.parallel is None  # a turn-based engine has no parallel env

    assert main(["list"]) == 0
    assert "take_two: Take two (toy game of the tests) (2 players)" in capsys.readouterr().out

    # train with the game's own config (the spec names it), from a folder without configs/
    monkeypatch.chdir(tmp_path)
    run = tmp_path / "run"
    argv = ["train", "take_two", "--timesteps", "256", "--out", str(run), "--no-progress"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "| greedy | 12 |" in out and "| random | 12 |" in out  # the config's 6 final deals
    assert (run / "model.zip").is_file() and (run / "report.md").is_file()
    saved = yaml.safe_load((run / "config.yaml").read_text())
    assert saved["timesteps"] == 256 and saved["ppo"]["n_steps"] == 64  # take_two.yaml's

    assert main(["evaluate", str(run), "--episodes", "2", "--opponents", "random"]) == 0
    assert "| random | 4 |" in capsys.readouterr().out

    monkeypatch.setattr(sys, "stdin", io.StringIO("9\nx\n" + "\n" * 10))
    assert main(["play", "take_two", "--against", "random", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "that move is not legal here" in out and "type its number" in out


def test_the_conformance_suite_covers_the_toy_game_like_a_shipped_game() -> None:
    ids = [case.id for case in test_conformance.ALL]
    assert "take_two-win" in ids and "take_two-margin" in ids
    assert any(case.values[0] is SPEC for case in test_conformance.GYM)


@pytest.mark.usefixtures("plugin")
def test_the_conformance_suite_passes_on_the_plugin_game() -> None:
    """Every check of the conformance suite, on each of its cases for the toy game, with the
    game registered through its entry point."""
    spec = get_game("take_two")
    ran = set()
    for name, check in vars(test_conformance).items():
        marks = getattr(check, "pytestmark", []) if name.startswith("test_") else []
        for mark in marks:
            if mark.name != "parametrize":
                continue
            for case in mark.args[1]:
                if case.values[0].name == "take_two":
                    check(spec, *case.values[1:])
                    ran.add(name)
    assert len(ran) >= 10, sorted(ran)


def test_the_built_envs_are_made_once_per_spec_and_pickle() -> None:
    import pickle

    assert aec_env_class(SPEC) is aec_env_class(SPEC)
    single = single_env_class(SPEC)
    assert single is single_env_class(SPEC) and single.aec_class is aec_env_class(SPEC)
    assert pickle.loads(pickle.dumps(single)) is single
    env = gym.make("pokerzoo/TakeTwo-v0")
    assert type(env.unwrapped) is single and env.unwrapped.default_opponent == "greedy"
    assert env.unwrapped.aec.metadata["name"] == "take_two_v0"
    assert env.metadata["render_fps"] == 4


def test_an_installed_plugin_is_found_in_a_fresh_interpreter(tmp_path: Path) -> None:
    """A distribution on the path (its ``.dist-info`` naming the entry point), as
    ``pip install`` leaves it: ``import pokerzoo.envs`` registers the game."""
    dist = tmp_path / "site" / "pokerzoo_take_two-0.1.dist-info"
    dist.mkdir(parents=True)
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: pokerzoo-take-two\nVersion: 0.1\n")
    (dist / "entry_points.txt").write_text(f"[{ENTRY_POINT_GROUP}]\ntake_two = {ENTRY.value}\n")
    code = (
        "import gymnasium as gym, pettingzoo\n"
        "import pokerzoo.envs\n"
        "from pokerzoo.envs.core.registry import games\n"
        "assert 'take_two' in games(), list(games())\n"
        "env = gym.make('pokerzoo/TakeTwo-v0')\n"
        "env.reset(seed=0)\n"
        "aec = pettingzoo.make('aec', 'pokerzoo/TakeTwo-v0')\n"
        "aec.reset(seed=0)\n"
        "print('ok', aec.metadata['name'])\n"
    )
    path = os.pathsep.join([str(tmp_path / "site"), str(ROOT)])
    result = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": path},
        cwd=tmp_path,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok take_two_v0"
