"""CI step: run the python snippets of the documentation that need libraries outside the test
install, exactly as written.

A snippet is a python block of a Markdown file whose first line names the libraries it needs,
e.g. ``# needs: tianshou`` (several: ``# needs: torchrl, sb3``); the names are those of
``NEEDS``. They live in the README (its "Using pokerzoo with other libraries" section),
``docs/libraries.md`` (every library's snippet) and ``docs/rllib.md`` (RLlib's). Each CI
virtualenv runs the snippets its libraries allow: ``--needs tianshou,torchrl`` runs the snippets
whose needs it lists and skips the others (the ecosystem stage's venv runs all but RLlib's, the
RLlib stage's venv runs ``--needs rllib``). Each snippet runs in a fresh interpreter (this one:
the venv's), in a temporary working directory, and must exit 0 within ``TIMEOUT`` seconds.
A block whose ``# needs:`` line names an unknown library (or none) is an error, and so is a
FILE holding no snippet at all (a file CI was told to run has lost its snippets). Python blocks
without a ``# needs:`` line are the plain examples: ``tests/test_package.py`` runs them in the
test install, so no block of the documentation goes unrun.

Usage: ``python .ci/readme_snippets.py [FILE ...] [--needs a,b,...] [--list]`` (from the
repository root; FILE defaults to ``README.md``). Without ``--needs`` every snippet runs;
``--list`` prints the snippets found and what they need, and runs nothing.

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


def snippets(text: str, source: str) -> list[tuple[int, set[str], str]]:
    """``(line, needs, code)`` of each snippet of a Markdown file's text (``line``: the file's
    line of the snippet's first line of code); python blocks without a ``# needs:`` line are
    left out."""
    found = []
    for match in BLOCK.finditer(text):
        code = match.group(1)
        line = text.count("\n", 0, match.start(1)) + 1
        first = code.lstrip("\n").splitlines()[0].strip() if code.strip() else ""
        if not re.match(r"#\s*needs\b", first):
            continue
        needs = NEEDS_LINE.fullmatch(first)
        names = {n.strip() for n in needs.group(1).split(",") if n.strip()} if needs else set()
        unknown = sorted(names - NEEDS.keys())
        if unknown or not names:
            raise SystemExit(
                f"{source}:{line}: bad needs line {first!r}: expected "
                f"'# needs: LIB[, LIB]' naming any of {', '.join(NEEDS)}"
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
    parser.add_argument("files", nargs="*", default=["README.md"], metavar="FILE")
    parser.add_argument(
        "--needs",
        default=",".join(NEEDS),
        help=f"comma-separated libraries this venv has (default: all of {','.join(NEEDS)})",
    )
    parser.add_argument("--list", action="store_true", help="list the snippets; run nothing")
    args = parser.parse_args()
    have = {n.strip() for n in args.needs.split(",") if n.strip()}
    unknown = sorted(have - NEEDS.keys())
    if unknown:
        parser.error(f"unknown --needs {unknown}: expected any of {', '.join(NEEDS)}")
    blocks = []
    for source in args.files:
        found = snippets(Path(source).read_text(encoding="utf-8"), source)
        if not found:
            raise SystemExit(f"{source}: no python snippet with a '# needs:' line")
        blocks += [(source, line, needs, code) for line, needs, code in found]
    if args.list:
        for source, line, needs, _ in blocks:
            lacks = ", ".join(sorted(needs - have))
            runs = f"SKIP (lacks {lacks})" if lacks else "RUN"
            print(f"{runs} snippet at {source}:{line} (needs {', '.join(sorted(needs))})")
        print(f"readme snippets: {len(blocks)} found in {len(args.files)} files")
        return 0
    passed = failed = skipped = 0
    with tempfile.TemporaryDirectory(prefix="readme-snippets-") as workdir:
        for source, line, needs, code in blocks:
            label = f"snippet at {source}:{line} (needs {', '.join(sorted(needs))})"
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
