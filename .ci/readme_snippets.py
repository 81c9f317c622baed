"""CI step: run the python snippets of the README's "Using pokerzoo with other libraries" section
exactly as written.

Every python block of the section opens with a comment naming the libraries it needs, e.g.
``# needs: tianshou`` (several: ``# needs: torchrl, sb3``); the names are those of ``NEEDS``.
Each CI virtualenv runs the blocks its libraries allow: ``--needs tianshou,torchrl`` runs the
blocks whose needs it lists and skips the others (the ecosystem stage's venv runs all but RLlib's,
the RLlib stage's venv runs ``--needs rllib``). Each block runs in a fresh interpreter (this
one: the venv's), in a temporary working directory, and must exit 0 within ``TIMEOUT`` seconds.
A block without a ``# needs:`` line, or naming an unknown library, is an error: a snippet CI
never runs must not hide in the section.

Usage: ``python .ci/readme_snippets.py [FILE] [--needs a,b,...]`` (from the repository root).
FILE (default ``README.md``) is searched for the section's heading and read to the next
``## `` heading; a file with no ``## `` heading at all is taken as the section itself (a draft of
it, such as ``docs/libraries_section.md``). Without ``--needs`` every block runs.

The last line printed reads ``readme snippets: N passed, N failed, N skipped``.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HEADING = "## Using pokerzoo with other libraries"
NEEDS = {
    "tianshou": "tianshou",
    "torchrl": "torchrl (and tensordict)",
    "skrl": "skrl",
    "supersuit": "SuperSuit",
    "sb3": "Stable-Baselines3 and sb3-contrib",
    "rllib": "Ray RLlib (the rllib extra)",
}
"""The names a ``# needs:`` line may hold, and the libraries they stand for."""
TIMEOUT = 300
BLOCK = re.compile(r"^```python[ \t]*\n(.*?)^```[ \t]*$", re.M | re.S)
NEEDS_LINE = re.compile(r"#\s*needs:\s*(.+)")


def section(text: str, source: str) -> tuple[str, int]:
    """The section's text (under its heading up to the next level-2 heading, or the whole text
    when it has no level-2 heading at all) and the number of lines of the file before it."""
    lines = text.splitlines(keepends=True)
    for i, line in enumerate(lines):
        if line.rstrip() == HEADING:
            rest = lines[i + 1 :]
            end = next((j for j, s in enumerate(rest) if s.startswith("## ")), len(rest))
            return "".join(rest[:end]), i + 1
    if not any(line.startswith("## ") for line in lines):
        return text, 0
    raise SystemExit(f"{source}: no section {HEADING!r}")


def snippets(text: str, offset: int = 0) -> list[tuple[int, set[str], str]]:
    """``(line, needs, code)`` of each python block of the section (``line``: the file's line of
    the block's first line of code, ``offset`` the file's lines before the section)."""
    found = []
    for match in BLOCK.finditer(text):
        code = match.group(1)
        line = offset + text.count("\n", 0, match.start(1)) + 1
        first = code.lstrip("\n").splitlines()[0] if code.strip() else ""
        needs = NEEDS_LINE.fullmatch(first.strip())
        if needs is None:
            raise SystemExit(
                f"snippet at line {line}: its first line must be "
                f"'# needs: LIB[, LIB]' naming any of {', '.join(NEEDS)}"
            )
        names = {n.strip() for n in needs.group(1).split(",") if n.strip()}
        unknown = sorted(names - NEEDS.keys())
        if unknown or not names:
            raise SystemExit(
                f"snippet at line {line}: unknown needs {unknown or '(none)'}; "
                f"expected any of {', '.join(NEEDS)}"
            )
        found.append((line, names, code))
    return found


def run(code: str, workdir: str) -> tuple[int, str, float]:
    """Run one snippet with this interpreter: exit status, output, seconds."""
    start = time.monotonic()
    try:
        result = subprocess.run(
            [sys.executable, "-c", code],
            cwd=workdir,
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
            check=False,
        )
        output, status = result.stdout + result.stderr, result.returncode
    except subprocess.TimeoutExpired as error:
        out = error.stdout or b""
        output = (out.decode(errors="replace") if isinstance(out, bytes) else out) + (
            f"\n(timed out after {TIMEOUT} s)"
        )
        status = 124
    return status, output, time.monotonic() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("file", nargs="?", default="README.md")
    parser.add_argument(
        "--needs",
        default=",".join(NEEDS),
        help=f"comma-separated libraries this venv has (default: all of {','.join(NEEDS)})",
    )
    args = parser.parse_args()
    have = {n.strip() for n in args.needs.split(",") if n.strip()}
    unknown = sorted(have - NEEDS.keys())
    if unknown:
        parser.error(f"unknown --needs {unknown}: expected any of {', '.join(NEEDS)}")
    text, offset = section(Path(args.file).read_text(encoding="utf-8"), args.file)
    blocks = snippets(text, offset)
    if not blocks:
        raise SystemExit(f"{args.file}: the section holds no python snippet")
    passed = failed = skipped = 0
    with tempfile.TemporaryDirectory(prefix="readme-snippets-") as workdir:
        for line, needs, code in blocks:
            label = f"snippet at {args.file}:{line} (needs {', '.join(sorted(needs))})"
            if not needs <= have:
                print(f"SKIP {label}: this venv lacks {', '.join(sorted(needs - have))}")
                skipped += 1
                continue
            print(f"RUN  {label}", flush=True)
            status, output, seconds = run(code, workdir)
            if output.strip():
                print("\n".join(f"    {s}" for s in output.rstrip().splitlines()))
            if status == 0:
                print(f"PASS {label} in {seconds:.1f} s", flush=True)
                passed += 1
            else:
                print(f"FAIL {label}: exit status {status} after {seconds:.1f} s", flush=True)
                failed += 1
    print(f"readme snippets: {passed} passed, {failed} failed, {skipped} skipped")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
