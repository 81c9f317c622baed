"""CI step: run the README's main job exactly as written and check the figures it prints.

The README's "Set up" section holds the main job (its first ``bash`` block) and the figures it
prints ("it prints agent X ± Y against greedy X ± Y"). This script runs the block with bash,
echoes its output, then fails unless the printed table's agent and greedy rows hold exactly
those figures: code that moves a documented result must move the document with it.

Usage: ``python .ci/readme_main_job.py [README.md]`` (from the repository root).
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

FIGURE = r"(\d+\.\d+ ± \d+\.\d+)"


def main_job(readme: str) -> tuple[str, dict[str, str]]:
    """The main job's command and the figures the README says it prints, by row name."""
    section = readme.split("## Set up", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```bash\n(.+?)\n```", section, re.S)
    prose = re.search(rf"prints\s+agent\s+{FIGURE}\s+against\s+greedy\s+{FIGURE}", section)
    if block is None or prose is None:
        raise SystemExit(
            "README: no main job (a bash block and 'prints agent .. against greedy ..')"
        )
    return block.group(1).strip(), {"**agent**": prose.group(1), "greedy": prose.group(2)}


def printed(output: str) -> dict[str, str]:
    """The mean-score column of each row of the evaluation table the job printed."""
    rows = re.findall(rf"^\| (\S+) \| {FIGURE} \|", output, re.M)
    return dict(rows)


def main() -> int:
    readme = Path(sys.argv[1] if len(sys.argv) > 1 else "README.md").read_text()
    command, expected = main_job(readme)
    print(f"README main job: {command}", flush=True)
    result = subprocess.run(["bash", "-c", command], capture_output=True, text=True, check=False)
    sys.stdout.write(result.stdout)
    sys.stderr.write(result.stderr[-4000:])
    if result.returncode != 0:
        print(f"README main job failed with exit code {result.returncode}", file=sys.stderr)
        return 1
    got = printed(result.stdout)
    wrong = {row: got.get(row) for row, figure in expected.items() if got.get(row) != figure}
    if wrong:
        for row, figure in wrong.items():
            print(f"README says {row} {expected[row]}; the job printed {figure}", file=sys.stderr)
        return 1
    print(f"README main job: printed {expected} as the README says")
    return 0


if __name__ == "__main__":
    sys.exit(main())
