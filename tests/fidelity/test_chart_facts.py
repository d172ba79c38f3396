"""``gpuready/core/gpu_stack/chart_facts.json`` is what ``tests/fidelity/chart_facts.py`` reads from the chart
archives in the shared reference snapshot today (skipped, with the reason, when the snapshot is absent)."""

from __future__ import annotations

from gpuready.core.gpu_stack import chart_facts as facts
from gpuready.core.gpu_stack.chart_facts import FACTS_FILE
from tests.fidelity import chart_facts


def test_the_recorded_table_is_what_the_archives_give() -> None:
    regenerated = chart_facts.generate()
    assert FACTS_FILE.read_text(encoding="utf-8") == regenerated, (
        "stale: regenerate with .venv/bin/python -m tests.fidelity.chart_facts"
    )


def test_every_source_is_a_row_of_the_table() -> None:
    assert {(name, version) for name, version, _ in chart_facts.SOURCES} == set(facts.table())
