"""Findings, label plans, plans and violations stay byte for byte what they were (issue #17: no behaviour change).

On an intended change of output: ``.venv/bin/python -m tests.golden.regenerate [CASE ...]`` and review the diff.
"""

from __future__ import annotations

import pytest

from tests.golden.cases import CASES, canonical, path_of


@pytest.mark.parametrize("name", sorted(CASES))
def test_output_matches_golden_file(name: str) -> None:
    expected = path_of(name).read_text(encoding="utf-8")
    actual = canonical(CASES[name]())
    assert actual == expected, (
        f"{name}: output changed; if intended: .venv/bin/python -m tests.golden.regenerate {name}"
    )
