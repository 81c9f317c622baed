"""Fill the generated blocks of the documentation from the code.

The README's game table and each game's reference page (``docs/games/<game>.md``) hold blocks
written by this script, never by hand::

    <!-- generated: observation -->
    ...
    <!-- end generated -->

Everything else on the pages is hand-written and left alone. The blocks come from what the
code declares: the game registry (:func:`pokerzoo.envs.core.registry.games`: the games, their
titles, summaries, envs, Gymnasium ids, options and option sets), each game's
``ACTION_TABLE`` (or its engine's ``describe_action``), ``LAYOUT.table()``, the PettingZoo
env's info schema, the engine's ``state_layout`` and the version history of the PettingZoo
module's docstring. The game list is the registry's: a game of this package (one with a
``pokerzoo.envs.<game>.spec`` module) without a page gets one (``generate.py`` writes it from a
template, its hand-written parts to fill in), and a page of no such game is reported.

Usage (from the repository root)::

    python docs/generate.py          # rewrite the generated blocks (and write missing pages)
    python docs/generate.py --check  # exit 1, listing the stale pages, if any block is stale

``tests/test_package.py`` runs ``--check``: a change to a game's tables fails the tests until
the pages are generated again.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import inspect
import json
import re
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
README = ROOT / "README.md"
GAMES_DIR = DOCS / "games"
BOTS = DOCS / "bots.md"

BLOCK = re.compile(
    r"(<!-- generated: (?P<name>[a-z-]+) -->\n)(?P<body>.*?)(<!-- end generated -->)", re.S
)

ALWAYS = ("summary", "options", "actions", "observation", "info")
"""The blocks every game page holds."""
HEADINGS = {
    "options": "Options",
    "actions": "Actions",
    "observation": "Observation",
    "info": "Info",
    "gymnasium-info": "Gymnasium env info",
    "state": "State",
    "versions": "Version history",
    "gymnasium-versions": "Gymnasium env version history",
}
"""A new page's sections: each block under its heading (``state``, ``gymnasium-info`` and the
version histories only where the code declares them)."""


# --- what the code declares ----------------------------------------------------------------------
def package_games() -> dict[str, Any]:
    """The registered games of this package, by name, in registration order: those declared by
    a ``pokerzoo.envs.<name>.spec`` module (a game registered from elsewhere, such as the tests'
    toy game, has no page here)."""
    from pokerzoo.envs.core.registry import games

    found = {}
    for name, spec in games().items():
        module = f"pokerzoo.envs.{name}.spec"
        try:
            declared = importlib.util.find_spec(module) is not None
        except ModuleNotFoundError:
            declared = False
        if declared and getattr(importlib.import_module(module), "SPEC", None) is spec:
            found[name] = spec
    return found


def markdown_table(header: Iterable[str], rows: Iterable[Iterable[str]]) -> str:
    from pokerzoo.envs.core.observation import markdown_table as table

    return table(tuple(header), [tuple(row) for row in rows])


def _module(path: str) -> Any:
    """The module of a ``"module:attribute"`` entry point."""
    return importlib.import_module(path.partition(":")[0])


def _aec(spec: Any, **options: Any) -> Any:
    """The game's PettingZoo AEC env (unwrapped), built with ``options``."""
    return spec.make_aec(**options).unwrapped


def _observation_size(spec: Any) -> str:
    """The observation's ``Box`` size, as a formula in ``N`` where it depends on the players."""
    if spec.aec is None:
        return f"Box({spec.make_single().observation_space.shape[0]})"

    def size(env: Any) -> int:
        return env.observation_space(env.possible_agents[0])["observation"].shape[0]

    default = size(_aec(spec))
    sizes = {}
    for players in (2, 3):
        try:
            sizes[players] = size(_aec(spec, num_players=players))
        except (TypeError, ValueError):
            break
    if len(sizes) == 2 and sizes[2] != sizes[3]:
        per_seat = sizes[3] - sizes[2]
        return f"Box({sizes[2] - 2 * per_seat} + {per_seat} N)"
    return f"Box({default})"


def _action_space(spec: Any) -> str:
    if spec.aec is not None:
        return f"Discrete({_aec(spec).game.num_actions})"
    return f"Discrete({spec.make_single().action_space.n})"


def _pettingzoo(spec: Any) -> str:
    if spec.aec is None:
        return "-"
    kinds = "AEC" + (" and parallel" if spec.parallel else "")
    return f"`{spec.aec.partition(':')[0]}` ({kinds})"


def _pettingzoo_id(spec: Any) -> str:
    from pokerzoo.envs.core.registry import pettingzoo_id

    pz_id = pettingzoo_id(spec)
    if pz_id is None:
        return "-"
    kinds = ("aec", "parallel") if spec.parallel else ("aec",)
    return ", ".join(f'`pettingzoo.make("{kind}", "{pz_id}")`' for kind in kinds)


def _gymnasium(spec: Any) -> str:
    ids = []
    import gymnasium

    for gym_id in spec.gym_ids:
        registered = gymnasium.spec(gym_id.id)  # a game of several players: its bot tables
        vector = " (+ native vector env)" if registered.vector_entry_point else ""
        ids.append(f"`{gym_id.id}`{vector}")
    return ", ".join(ids) or "-"


def _gymnasium_role(spec: Any) -> str:
    if spec.players == 1:
        return "one player"
    return "one seat against the game's bots"


def rst_to_markdown(text: str) -> str:
    """Docstring markup to Markdown: ``code`` to `code`, Sphinx roles to their target."""
    text = re.sub(r":[a-z]+:`~[\w.]*?\.?(\w+)`", r"`\1`", text)
    text = re.sub(r":[a-z]+:`([^`]+)`", r"`\1`", text)
    return text.replace("``", "`")


def _history(doc: str | None) -> str | None:
    """The bullet list under a docstring's ``Version history:`` line (or its ``## Version
    History`` heading), as Markdown."""
    lines = inspect.cleandoc(doc or "").split("\n")
    headings = ("version history:", "## version history")
    start = next((i for i, s in enumerate(lines) if s.strip().lower() in headings), None)
    if start is None:
        return None
    items: list[str] = []
    for line in lines[start + 1 :]:
        if line.startswith("- "):
            items.append(line)
        elif line.startswith("  ") and line.strip() and items:
            items[-1] += " " + line.strip()
        elif line.strip() and items:
            break
    return "\n".join(rst_to_markdown(item) for item in items) or None


def version_history(spec: Any) -> str | None:
    """The PettingZoo module's version history (its docstring)."""
    return None if spec.aec is None else _history(_module(spec.aec).__doc__)


def gymnasium_version_history(spec: Any) -> str | None:
    """The Gymnasium env's version history (its class docstring)."""
    if spec.single is None:
        return None
    from pokerzoo.envs.core.registry import load

    return _history(load(spec.single).__doc__)


def _action_table(spec: Any) -> str:
    module = importlib.import_module(f"pokerzoo.envs.{spec.name}")
    table = getattr(module, "ACTION_TABLE", None)
    if table is not None:
        return table
    game = _aec(spec).game
    rows = [(str(a), f"`{game.describe_action(a)}`") for a in range(game.num_actions)]
    return markdown_table(("index", "action"), rows)


def _options(spec: Any) -> str:
    table = markdown_table(
        ("option", "values"),
        [(f"`{name}`", help.replace("|", "\\|")) for name, help in spec.options.items()],
    )
    sets = [(f"`{name}`", _set(options), "every env") for name, options in spec.option_sets.items()]
    sets += [
        (f"`{name}`", _set(options), "the PettingZoo envs")
        for name, options in spec.table_option_sets.items()
    ]
    return (
        f"{table}\n\nOption sets (the conformance suite and the benchmarks run each):\n\n"
        + markdown_table(("option set", "options", "for"), sets)
    )


def _set(options: dict[str, Any]) -> str:
    return f"`{json.dumps(options)}`" if options else "the defaults"


def _summary(spec: Any) -> str:
    rows = [
        ("summary", spec.summary),
        ("PettingZoo", _pettingzoo(spec)),
        ("PettingZoo id", _pettingzoo_id(spec)),
        ("Gymnasium", f"{_gymnasium(spec)}: {_gymnasium_role(spec)}"),
        ("actions", f"`{_action_space(spec)}`"),
        ("observation", f"`{_observation_size(spec)}`"),
        ("bots", ", ".join(f"`{name}`" for name in spec.bot_classes)),
        ("training", f"`pokerzoo train {spec.name}` (`configs/{spec.name}.yaml`)"),
    ]
    return markdown_table(("", spec.title), rows)


def _info(spec: Any) -> str:
    schema = _aec(spec, masked_action="random").info_schema
    return schema.table()


def _gymnasium_info(spec: Any) -> str | None:
    if spec.single is None:
        return None
    env = spec.make_single()
    schema = getattr(env, "info_schema", None)
    env.close()
    return None if schema is None else schema.table()


def _state(spec: Any) -> str | None:
    if spec.aec is None:
        return None
    layout = getattr(_aec(spec).game, "state_layout", None)
    return None if layout is None else layout.table()


def game_blocks(spec: Any) -> dict[str, str]:
    """Each generated block of the game's page, by name (the optional ones where declared)."""
    builders: dict[str, Callable[[Any], str | None]] = {
        "summary": _summary,
        "options": _options,
        "actions": _action_table,
        "observation": lambda s: importlib.import_module(f"pokerzoo.envs.{s.name}").LAYOUT.table(),
        "info": _info,
        "gymnasium-info": _gymnasium_info,
        "state": _state,
        "versions": version_history,
        "gymnasium-versions": gymnasium_version_history,
    }
    blocks = {}
    for name, build in builders.items():
        text = build(spec)
        if text is not None:
            blocks[name] = text
    return blocks


def readme_blocks(games: dict[str, Any]) -> dict[str, str]:
    """The README's game table: one row per game of the package."""
    rows = [
        (
            f"[{spec.title}](docs/games/{name}.md)",
            spec.summary,
            _pettingzoo(spec),
            _gymnasium(spec),
            f"`{_action_space(spec)}`",
            f"`{_observation_size(spec)}`",
        )
        for name, spec in games.items()
    ]
    header = ("game", "what", "PettingZoo", "Gymnasium", "actions", "observation")
    return {"games": markdown_table(header, rows)}


def bots_blocks(games: dict[str, Any]) -> dict[str, str]:
    """The bots page's list: each game's bots, linked to its page."""
    rows = [
        (
            f"[{spec.title}](games/{name}.md#bots)",
            f"`{spec.bots.partition(':')[0]}`",
            ", ".join(f"`{bot}`" for bot in spec.bot_classes),
        )
        for name, spec in games.items()
    ]
    return {"bots": markdown_table(("game", "module", "bots"), rows)}


# --- pages ----------------------------------------------------------------------------------------
def fill(text: str, blocks: dict[str, str], page: str) -> tuple[str, list[str]]:
    """``text`` with every generated block rewritten, and the problems found (a block the code
    has nothing for, a block the page lacks)."""
    problems: list[str] = []
    seen: set[str] = set()

    def replace(match: re.Match[str]) -> str:
        name = match.group("name")
        seen.add(name)
        if name not in blocks:
            problems.append(f"{page}: block {name!r}: the code declares nothing for it")
            return match.group(0)
        return f"{match.group(1)}\n{blocks[name]}\n\n{match.group(4)}"

    filled = BLOCK.sub(replace, text)
    problems += [f"{page}: no block {name!r}" for name in blocks if name not in seen]
    return filled, problems


def template(spec: Any, blocks: dict[str, str]) -> str:
    """A new game's page: the generated blocks under their headings."""
    parts = [f"# {spec.title}\n", _block("summary"), ""]
    for name, heading in HEADINGS.items():
        if name in blocks:
            parts += [f"## {heading}\n", _block(name), ""]
    parts += ["## Bots\n", f"The bots of `{spec.bots.partition(':')[0]}`.", ""]
    return "\n".join(parts)


def _block(name: str) -> str:
    return f"<!-- generated: {name} -->\n<!-- end generated -->"


def pages() -> tuple[dict[Path, str], list[str]]:
    """Every page's text as it should be, and the problems found."""
    games = package_games()
    expected: dict[Path, str] = {}
    problems: list[str] = []
    for name, spec in games.items():
        path = GAMES_DIR / f"{name}.md"
        blocks = game_blocks(spec)
        missing = [b for b in ALWAYS if b not in blocks]
        if missing:
            problems.append(f"{name}: the code declares no {', '.join(missing)}")
        text = path.read_text(encoding="utf-8") if path.exists() else template(spec, blocks)
        expected[path], found = fill(text, blocks, _relative(path))
        problems += found
    for path, blocks in ((README, readme_blocks(games)), (BOTS, bots_blocks(games))):
        expected[path], found = fill(path.read_text(encoding="utf-8"), blocks, _relative(path))
        problems += found
    for path in sorted(GAMES_DIR.glob("*.md")):
        if path.stem not in games:
            problems.append(f"{_relative(path)}: no registered game {path.stem!r}")
    return expected, problems


def _relative(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def stale() -> list[str]:
    """What ``--check`` reports: the pages whose generated blocks are out of date (or missing),
    and the problems found. Empty: every page is current."""
    expected, problems = pages()
    out = []
    for path, text in expected.items():
        if not path.exists():
            out.append(f"{_relative(path)}: missing")
        elif path.read_text(encoding="utf-8") != text:
            out.append(f"{_relative(path)}: stale")
    return out + problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--check", action="store_true", help="write nothing; exit 1 listing the stale pages"
    )
    args = parser.parse_args(argv)
    if args.check:
        found = stale()
        for line in found:
            sys.stdout.write(f"{line}\n")
        if found:
            sys.stdout.write("run: python docs/generate.py\n")
        return 1 if found else 0
    expected, problems = pages()
    for path, text in expected.items():
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            sys.stdout.write(f"wrote {_relative(path)}\n")
    for line in problems:
        sys.stderr.write(f"{line}\n")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
