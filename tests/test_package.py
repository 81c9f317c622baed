"""Packaging: the namespace layout, Gymnasium registration, and a core install without torch."""

from __future__ import annotations

import importlib.util
import json
import os
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
    # In a fresh interpreter (no test game registered): importing pokerzoo.envs registers every
    # Gymnasium id of every game of the package, the game packages found on disk, and no other.
    result = run_python(
        "import json, gymnasium as gym, pokerzoo.envs\n"
        "from pokerzoo.envs.core.registry import games\n"
        "ids = sorted(i for i in gym.registry if i.startswith('pokerzoo/'))\n"
        "specs = {n: [g.id for g in s.gym_ids] for n, s in games().items()}\n"
        "print(json.dumps({'ids': ids, 'games': specs}))\n"
    )
    assert result.returncode == 0, result.stderr
    found = json.loads(result.stdout)
    on_disk = {p.parent.name for p in (ROOT / "envs").glob("*/spec.py")}
    assert set(found["games"]) == on_disk and len(on_disk) >= 5
    assert all(found["games"].values()), "every game has a Gymnasium id"
    assert found["ids"] == sorted(i for ids in found["games"].values() for i in ids)


def test_core_modules_do_not_import_torch_sb3_or_numba() -> None:
    """Importing the envs and the bots imports neither the training stack nor numba (imported
    with the first compiled loop a caller needs, :mod:`pokerzoo.envs.core.jit`)."""
    modules = sorted(
        f"pokerzoo.envs.{p.stem}" for p in (ROOT / "envs").glob("*.py") if p.stem != "__init__"
    )
    code = (
        "import importlib, sys\n"
        f"for name in {modules!r}: importlib.import_module(name)\n"
        "import pokerzoo.agents\n"
        "bad = [m for m in ('torch', 'stable_baselines3', 'sb3_contrib', 'numba')"
        " if m in sys.modules]\n"
        "print(','.join(bad))\n"
    )
    result = run_python(code)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == ""


@pytest.mark.parametrize("how", ["numba absent", "POKERZOO_NUMBA=0", "numba broken"])
def test_the_core_runs_without_numba(how: str, tmp_path: Path) -> None:
    """numba is optional: absent, turned off, or installed but failing to import (a stand-in
    package whose import raises, as a numba built for another numpy does: a warning says so),
    the compiled loops are off and poker without a name's montecarlo bot plays with numpy, to
    the same actions as this process (where CI has numba, the compiled loops)."""
    from pokerzoo.agents.nameless_poker import MonteCarloBot

    from tests.helpers import bot_decisions

    observations, masks = bot_decisions("nameless_poker", "rules", 1)
    bot = MonteCarloBot(seed=11)
    here = [bot.act(o, m) for o, m in zip(observations[:300], masks[:300], strict=True)]
    code = (
        "import sys, warnings\n"
        + ("sys.modules['numba'] = None\n" if how == "numba absent" else "")
        + "from pokerzoo.envs.core import jit\n"
        "from pokerzoo.agents.nameless_poker import MonteCarloBot\n"
        "from tests.helpers import bot_decisions\n"
        "with warnings.catch_warnings(record=True) as caught:\n"
        "    warnings.simplefilter('always')\n"
        "    assert not jit.available()\n"
        "print([str(w.message) for w in caught], file=sys.stderr)\n"
        "observations, masks = bot_decisions('nameless_poker', 'rules', 1)\n"
        "bot = MonteCarloBot(seed=11)\n"
        "print([bot.act(o, m) for o, m in zip(observations[:300], masks[:300])])\n"
    )
    path = [str(ROOT)]
    env = {"POKERZOO_NUMBA": "0"} if how == "POKERZOO_NUMBA=0" else {}
    if how == "numba broken":
        (tmp_path / "numba").mkdir()
        (tmp_path / "numba" / "__init__.py").write_text(
            "raise ImportError('Numba needs NumPy 2.5 or less')\n"
        )
        path.insert(0, str(tmp_path))
    env["PYTHONPATH"] = os.pathsep.join(path)
    result = run_python(code, cwd=ROOT, env={**os.environ, **env})
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == here
    warned = "numba is installed but cannot be imported (Numba needs NumPy 2.5 or less)"
    assert (warned in result.stderr) == (how == "numba broken")


def test_compiled_loops_without_a_writable_cache_compile_in_each_process(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Where numba finds no writable cache directory (its decorator refuses ``cache=True``),
    :func:`pokerzoo.envs.core.jit.jit` compiles without the cache instead of failing."""
    from pokerzoo.envs.core import jit

    if not jit.available():
        pytest.skip("numba is not installed")
    import numba

    njit = numba.njit

    def refusing(*args: object, **kwargs: object) -> object:
        if kwargs.get("cache"):
            raise RuntimeError("cannot cache function 'twice': no locator available")
        return njit(*args, **kwargs)

    monkeypatch.setattr(numba, "njit", refusing)

    def twice(x: int) -> int:
        return 2 * x

    compiled = jit.jit(twice)
    assert compiled(21) == 42 and compiled is not twice and hasattr(compiled, "py_func")


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
        "pokerzoo/training/games/quintet/hooks.py",
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


def load_script(path: Path):  # noqa: ANN201 - the script's module
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


DOCS = sorted((ROOT / "docs").rglob("*.md"))
PAGES = [ROOT / "README.md", *DOCS]
"""The documentation: the README, and the pages under docs/."""
PYTHON_BLOCK = re.compile(r"^```python\n(.*?)\n```", re.M | re.S)


def page_id(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def examples(path: Path) -> list[str]:
    """The page's python blocks that run in the test install: blocks that start with
    "# needs: LIBRARY" use libraries outside it, and CI runs them in the ecosystem and RLlib
    stages (.ci/readme_snippets.py)."""
    blocks = PYTHON_BLOCK.findall(path.read_text(encoding="utf-8"))
    return [block for block in blocks if not block.startswith("# needs:")]


def test_the_docs_hold_examples_and_snippets() -> None:
    blocks = [b for page in PAGES for b in PYTHON_BLOCK.findall(page.read_text(encoding="utf-8"))]
    ours = [b for page in PAGES for b in examples(page)]
    assert examples(ROOT / "README.md"), "the README's quick start has python examples"
    assert ours and len(ours) < len(blocks), "plain examples, and snippets CI runs elsewhere"


@pytest.mark.parametrize("page", [p for p in PAGES if examples(p)], ids=page_id)
def test_docs_python_examples_run(page: Path) -> None:
    for block in examples(page):
        exec(compile(block, page_id(page), "exec"), {})  # noqa: S102 - our own docs' examples


def test_docs_generated_tables_are_current() -> None:
    # docs/generate.py fills the pages' generated blocks (index, action, info and state tables,
    # options, the README's game table) from the code; --check fails while one is stale.
    result = python(str(ROOT / "docs" / "generate.py"), "--check", cwd=ROOT)
    assert result.returncode == 0, (
        "the generated docs are stale (run: python docs/generate.py)\n"
        + result.stdout
        + result.stderr
    )


def test_docs_generate_check_reports_a_stale_block(tmp_path: Path) -> None:
    generate = load_script(ROOT / "docs" / "generate.py")
    spec = generate.package_games()["quintet"]
    page = (ROOT / "docs" / "games" / "quintet.md").read_text(encoding="utf-8")
    blocks = generate.game_blocks(spec)
    assert generate.fill(page, blocks, "quintet.md") == (page, [])
    table = blocks["observation"]
    stale = page.replace(table, table.replace("`placed`", "`gone`"))
    assert stale != page and generate.fill(stale, blocks, "quintet.md") == (page, [])
    filled, problems = generate.fill(
        page.replace("generated: state", "generated: nope"), blocks, "q"
    )
    assert problems == ["q: block 'nope': the code declares nothing for it", "q: no block 'state'"]


def test_docs_game_pages_are_the_registrys_games() -> None:
    generate = load_script(ROOT / "docs" / "generate.py")
    games = generate.package_games()
    assert "take_two" not in games, "the tests' toy game has no page"
    pages = {p.stem for p in (ROOT / "docs" / "games").glob("*.md")}
    assert pages == set(games)
    for name in games:
        text = (ROOT / "docs" / "games" / f"{name}.md").read_text(encoding="utf-8")
        module = importlib.import_module(f"pokerzoo.envs.{name}")
        assert module.LAYOUT.table() in text, f"docs/games/{name}.md: observation table"
        assert getattr(module, "ACTION_TABLE", "") in text, f"docs/games/{name}.md: actions"


def test_readme_is_at_most_300_lines() -> None:
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 300, f"README.md has {len(lines)} lines: move text to docs/"


def test_readme_env_table_has_one_row_per_game() -> None:
    generate = load_script(ROOT / "docs" / "generate.py")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("\n## Environments\n", 1)[1].split("\n## ", 1)[0]
    table = re.search(r"^\|.*?(?=\n\n|\n<!--)", section, re.M | re.S)
    assert table is not None, "README: no table under Environments"
    rows = table.group(0).splitlines()[2:]  # the header and the separator
    games = generate.package_games()
    assert len(rows) == len(games)
    for name, spec in games.items():
        mine = [row for row in rows if f"(docs/games/{name}.md)" in row]
        assert len(mine) == 1, f"README: {name} has {len(mine)} rows"
        assert all(f"`{gym_id.id}`" in mine[0] for gym_id in spec.gym_ids)


def slug(heading: str) -> str:
    """GitHub's anchor of a Markdown heading."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower().replace("`", ""))
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    text = re.sub(r"^```.*?^```", "", path.read_text(encoding="utf-8"), flags=re.M | re.S)
    return {slug(h) for h in re.findall(r"^#{1,6} (.+)$", text, re.M)}


@pytest.mark.parametrize("page", PAGES, ids=page_id)
def test_docs_relative_links_resolve(page: Path) -> None:
    text = re.sub(r"^```.*?^```", "", page.read_text(encoding="utf-8"), flags=re.M | re.S)
    text = re.sub(r"`[^`\n]*`", "", text)
    links = re.findall(r"\]\(([^)\s]+)\)", text)
    broken = []
    for link in links:
        if re.match(r"[a-z][a-z0-9+.-]*:", link):  # http:, https:, mailto:
            continue
        target, _, anchor = link.partition("#")
        path = (page.parent / target).resolve() if target else page
        if not path.exists():
            broken.append(f"{link}: no file {path}")
        elif anchor and path.suffix == ".md" and anchor not in anchors(path):
            broken.append(f"{link}: no heading #{anchor} in {page_id(path)}")
    assert not broken, f"{page_id(page)}: " + "; ".join(broken)
