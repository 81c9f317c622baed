"""Packaging: the namespace layout, Gymnasium registration, and a core install without torch."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def python(*args: str, **kwargs) -> subprocess.CompletedProcess[str]:
    """``python *args`` in a fresh interpreter, its output captured (the caller checks it)."""
    return subprocess.run(
        [sys.executable, *args], capture_output=True, text=True, check=False, **kwargs
    )


def run_python(code: str, **kwargs) -> subprocess.CompletedProcess[str]:
    return python("-c", code, **kwargs)


def pip(command: str, *args: str) -> subprocess.CompletedProcess[str]:
    """``pip command --no-deps -q *args``: the package alone, quietly."""
    return python("-m", "pip", command, "--no-deps", "-q", *args)


def test_gymnasium_make_in_fresh_interpreter() -> None:
    # Gymnasium 1.x has no plugin auto-registration: the "module:" prefix imports pokerzoo.envs.
    result = run_python(
        "import gymnasium as gym\n"
        "env = gym.make('pokerzoo.envs:pokerzoo/PokerSquares-v0')\n"
        "obs, info = env.reset(seed=0)\n"
        "print(obs.shape, int(info['action_mask'].sum()))\n"
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["(522,)", "25"]


def test_import_registers_every_id() -> None:
    import gymnasium as gym
    import pokerzoo.envs  # noqa: F401

    ids = {env_id for env_id in gym.registry if env_id.startswith("pokerzoo/")}
    assert ids == {
        "pokerzoo/DrawPoker-v0",
        "pokerzoo/FiveCardStud-v0",
        "pokerzoo/NamelessPoker-v0",
        "pokerzoo/PokerSquares-v0",
        "pokerzoo/Quintet-v0",
    }


def test_core_modules_do_not_import_torch_or_sb3() -> None:
    modules = sorted(
        f"pokerzoo.envs.{p.stem}" for p in (ROOT / "envs").glob("*.py") if p.stem != "__init__"
    )
    code = (
        "import importlib, sys\n"
        f"for name in {modules!r}: importlib.import_module(name)\n"
        "import pokerzoo.agents\n"
        "bad = [m for m in ('torch', 'stable_baselines3', 'sb3_contrib') if m in sys.modules]\n"
        "print(','.join(bad))\n"
    )
    result = run_python(code)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == ""


@pytest.mark.slow
def test_built_wheel_has_the_namespace_layout(tmp_path: Path) -> None:
    build = pip("wheel", "-w", str(tmp_path), str(ROOT))
    assert build.returncode == 0, build.stderr
    (wheel,) = tmp_path.glob("pokerzoo-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for required in (
        "pokerzoo/envs/__init__.py",
        "pokerzoo/envs/hands.py",
        "pokerzoo/envs/cards.py",
        "pokerzoo/envs/core/registry.py",
        "pokerzoo/envs/poker_squares/spec.py",
        "pokerzoo/envs/quintet/rules.py",
        "pokerzoo/training/games/quintet.py",
        "pokerzoo/agents/__init__.py",
        "pokerzoo/training/__init__.py",
        "pokerzoo/envs/py.typed",
        "pokerzoo/configs/poker_squares.yaml",
        "pokerzoo/configs/quintet.yaml",
    ):
        assert required in names
    assert not any(n.startswith(("tests/", "benchmarks/", "envs/", "configs/")) for n in names)
    target = tmp_path / "site"
    install = pip("install", "-t", str(target), str(wheel))
    assert install.returncode == 0, install.stderr
    result = run_python(
        "import pokerzoo.envs.hands as h; print(h.__file__)\n"
        "from pokerzoo.envs.core.registry import games; assert 'quintet' in games()\n"
        "from importlib import resources\n"
        "print(resources.files('pokerzoo.configs').joinpath('quintet.yaml').is_file())\n",
        env={"PYTHONPATH": str(target), "PATH": ""},
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    module_file, config_shipped = result.stdout.split()
    assert module_file.startswith(str(target))
    assert config_shipped == "True"


def test_readme_test_command_is_what_ci_runs() -> None:
    readme = (ROOT / "README.md").read_text()
    ci = (ROOT / ".ci" / "run").read_text()
    commands = re.findall(r"```(?:bash|sh)\n(.*?)\n```", readme, flags=re.S)
    setup = [c.strip() for c in commands if c.strip().startswith("python3 -m venv")]
    assert len(setup) == 2, "the README has exactly two set-up commands"
    test_command = next(c for c in setup if "pytest" in c)
    assert test_command in ci


def test_ci_checks_the_readme_main_job_figures() -> None:
    # .ci/run runs the README's main job as written and compares the figures it prints with
    # the README's; the parser must find both in the README as it stands.
    spec = importlib.util.spec_from_file_location(
        "readme_main_job", ROOT / ".ci" / "readme_main_job.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    command, figures = module.main_job((ROOT / "README.md").read_text())
    assert command.startswith("python3 -m venv") and "pokerzoo train" in command
    assert set(figures) == {"**agent**", "greedy"}
    table = "| **agent** | 1.00 ± 0.10 | x |\n| random | 2.00 ± 0.20 | y |"
    assert module.printed(table) == {"**agent**": "1.00 ± 0.10", "random": "2.00 ± 0.20"}
    assert "readme_main_job.py" in (ROOT / ".ci" / "run").read_text()
    readme = {"**agent**": "113.89 ± 1.23", "greedy": "107.07 ± 1.27"}
    other_cpu = {"**agent**": "115.02 ± 1.25", "greedy": "107.07 ± 1.27"}
    assert module.mismatches(readme, readme, exact=True) == []
    assert module.mismatches(readme, other_cpu, exact=False) == []  # within the tolerance
    assert len(module.mismatches(readme, other_cpu, exact=True)) == 1  # the measuring CPU: digits
    moved = {"**agent**": "117.00 ± 1.25", "greedy": "107.08 ± 1.27"}
    assert len(module.mismatches(readme, moved, exact=False)) == 2


def test_ruff_is_clean() -> None:
    ruff = Path(sys.executable).with_name("ruff")
    if not ruff.exists():
        pytest.skip("ruff is not installed (it comes with the test extra)")
    result = subprocess.run(
        [str(ruff), "check", str(ROOT)], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_readme_python_examples_run() -> None:
    # Blocks that start with "# needs: LIBRARY" use libraries outside the test install: CI runs
    # them in the ecosystem and RLlib stages (.ci/readme_snippets.py); the rest run here.
    readme = (ROOT / "README.md").read_text()
    blocks = re.findall(r"```python\n(.*?)\n```", readme, flags=re.S)
    ours = [block for block in blocks if not block.startswith("# needs:")]
    assert ours and len(ours) < len(blocks)
    for block in ours:
        exec(compile(block, "README.md", "exec"), {})  # noqa: S102 - our own README's examples


@pytest.mark.parametrize("game", ["draw_poker", "five_card_stud", "nameless_poker"])
def test_readme_shows_the_envs_current_index_tables(game: str) -> None:
    import importlib

    module = importlib.import_module(f"pokerzoo.envs.{game}")
    readme = (ROOT / "README.md").read_text()
    assert module.ACTION_TABLE in readme, f"README: {game}'s action table is out of date"
    assert module.LAYOUT.table() in readme, f"README: {game}'s observation table is out of date"
