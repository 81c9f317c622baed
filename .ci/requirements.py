"""Print the requirements of pokerzoo's core install and the given extras, one a line, from
pyproject.toml: what ``pip install -e ".[EXTRA,...]"`` would pull, installable before the
checkout itself is (``.ci/stage_venvs`` builds the later stages' venvs from them while the tests
run, and adds the checkout with ``pip install --no-deps -e .`` when the stage starts).

Usage: ``python3 .ci/requirements.py [EXTRA ...]`` (from the repository root).
"""

from __future__ import annotations

import sys
from pathlib import Path

try:
    import tomllib
except ImportError:  # Python 3.10: pip carries the same parser
    from pip._vendor import tomli as tomllib


def requirements(pyproject: Path, extras: list[str]) -> list[str]:
    """The core dependencies, then each extra's, in order, without repeats."""
    project = tomllib.loads(pyproject.read_text())["project"]
    optional = project.get("optional-dependencies", {})
    unknown = [extra for extra in extras if extra not in optional]
    if unknown:
        raise SystemExit(f"unknown extras {unknown}: pyproject.toml has {sorted(optional)}")
    found = list(project["dependencies"])
    for extra in extras:
        found += [line for line in optional[extra] if line not in found]
    return found


if __name__ == "__main__":
    print("\n".join(requirements(Path("pyproject.toml"), sys.argv[1:])))
