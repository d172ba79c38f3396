"""Rewrite the golden files: ``.venv/bin/python -m tests.golden.regenerate [CASE ...]`` (default: every case).

Run it only when a change of output is intended (a new plan field, a reworded finding), then review the diff
of ``tests/golden/data/`` like any other change.
"""

from __future__ import annotations

import sys

import gpuready.plugins  # noqa: F401 - registers the clouds' profiles, as every entry point does
from tests.golden.cases import CASES, canonical, path_of


def main(argv: list[str]) -> int:
    names = argv or sorted(CASES)
    unknown = sorted(set(names) - set(CASES))
    if unknown:
        print(f"unknown cases: {', '.join(unknown)}; known: {', '.join(sorted(CASES))}", file=sys.stderr)
        return 2
    for name in names:
        path = path_of(name)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(canonical(CASES[name]()), encoding="utf-8")
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
