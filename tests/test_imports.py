"""The package's import graph: no cycles (imports inside functions count), and the layers hold
(envs <- agents <- training): the envs and the bots never import the training package, the envs
and the training features never import the bots (the envs load them by name when an env needs
them), the package never imports the tests, and nothing outside ``training/`` needs torch."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PARTS = {"envs": "pokerzoo.envs", "agents": "pokerzoo.agents", "training": "pokerzoo.training"}


def _modules() -> dict[str, Path]:
    modules = {}
    for folder, package in PARTS.items():
        for path in (ROOT / folder).rglob("*.py"):
            parts = path.relative_to(ROOT / folder).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            modules[".".join((package, *parts))] = path
    return modules


MODULES = _modules()


def _imports(name: str, path: Path) -> set[str]:
    """Every pokerzoo module ``name`` imports, at module level or inside a function."""
    is_package = path.name == "__init__.py"
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = name.split(".")
                base = base[: len(base) - node.level + (1 if is_package else 0)]
                prefix = ".".join(base + ([node.module] if node.module else []))
            else:
                prefix = node.module or ""
            # "from a import b" imports a.b when b is a module, else a
            targets = [
                f"{prefix}.{alias.name}" if f"{prefix}.{alias.name}" in MODULES else prefix
                for alias in node.names
            ]
        else:
            continue
        found |= {t for t in targets if t in MODULES or t.startswith(("tests", "torch"))}
    return found


GRAPH = {name: _imports(name, path) for name, path in MODULES.items()}


def test_no_import_cycles() -> None:
    # Tarjan's strongly connected components: any component of two or more is a cycle.
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []
    counter = [0]

    def visit(node: str) -> None:
        index[node] = low[node] = counter[0]
        counter[0] += 1
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(GRAPH.get(node, ())):
            if nxt not in MODULES:
                continue
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1 or node in GRAPH[node]:
                cycles.append(sorted(component))

    for node in sorted(MODULES):
        if node not in index:
            visit(node)
    assert cycles == []


@pytest.mark.parametrize("layer", ["pokerzoo.envs", "pokerzoo.agents"])
def test_envs_and_bots_never_import_training(layer: str) -> None:
    offenders = {
        name: sorted(t for t in targets if t.startswith("pokerzoo.training"))
        for name, targets in GRAPH.items()
        if name.startswith(layer)
    }
    assert {k: v for k, v in offenders.items() if v} == {}


def test_the_package_never_imports_the_tests_or_torch_outside_training() -> None:
    assert not [n for n, targets in GRAPH.items() if any(t.startswith("tests") for t in targets)]
    torch_users = [
        n
        for n, targets in GRAPH.items()
        if any(t.startswith("torch") for t in targets) and not n.startswith("pokerzoo.training")
    ]
    assert torch_users == []


def test_the_graph_sees_function_level_imports() -> None:
    # The training CLI imports its heavy modules inside functions: the graph must see them.
    assert "pokerzoo.training.train" in GRAPH["pokerzoo.training.cli"]


def _agents_imports(layer: str) -> dict[str, list[str]]:
    """The modules of ``layer`` that import a module of :mod:`pokerzoo.agents`, and those
    imports (relative ones resolved: ``from ...agents.base import Bot`` counts)."""
    offenders = {
        name: sorted(
            t for t in targets if t == "pokerzoo.agents" or t.startswith("pokerzoo.agents.")
        )
        for name, targets in GRAPH.items()
        if name == layer or name.startswith(f"{layer}.")
    }
    return {name: targets for name, targets in offenders.items() if targets}


def test_the_envs_never_import_the_bots() -> None:
    # The envs play bots through the protocol of pokerzoo.envs.core.bots; a single-seat env finds
    # its game's bots by the registry entry's "module:BOTS" string, imported when it is built.
    assert _agents_imports("pokerzoo.envs") == {}


def test_the_training_features_never_import_the_bots() -> None:
    # What the features compute (play-outs, searches, the caller's draw) lives beside the rules
    # in pokerzoo.envs.<game>; bots as opponents come through pokerzoo.training.opponents.
    assert _agents_imports("pokerzoo.training.games") == {}


def python(code: str) -> str:
    """What ``python -c code`` prints, in a fresh interpreter (it must succeed)."""
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False, cwd=ROOT
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_importing_the_envs_imports_no_bot_until_an_env_needs_one() -> None:
    envs = sorted(name for name in MODULES if name.startswith("pokerzoo.envs"))
    code = (
        "import importlib, sys\n"
        f"for name in {envs!r}: importlib.import_module(name)\n"
        "print(sorted(m for m in sys.modules if m.startswith('pokerzoo.agents')))\n"
        "import gymnasium as gym\n"
        "env = gym.make('pokerzoo/DrawPoker-v0', opponent='caller')\n"
        "env.reset(seed=0)\n"
        "print(type(next(iter(env.unwrapped.opponents.values()))).__module__)\n"
    )
    assert python(code).split("\n")[:2] == ["[]", "pokerzoo.agents.draw_poker"]


def test_importing_the_envs_and_the_command_builds_no_hand_table() -> None:
    """The evaluator's tables (about 0.3 s each) are built when a game first needs them, not
    when the registry or a module's docstring is made: every process imports the envs, and a
    draw poker run should not pay for the standard ruleset's table."""
    code = (
        "import pokerzoo.envs, pokerzoo.training.cli\n"
        "from pokerzoo.envs.core import hands\n"
        "print(hands._tables.cache_info().currsize)\n"
    )
    assert python(code).strip() == "0"
