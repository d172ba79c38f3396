"""What gpuready knows of the charts it pins, without their archives: a fact table generated from them. Pure.

``chart_facts.json`` (beside this module) holds, per pinned chart and version, what ``extra_values`` checks
``gpuStack.values`` against: the values tree the chart reads (its ``values.yaml`` with each bundled subchart's under
the dependency's alias, the parent's settings on top, as Helm coalesces them), the value paths its ``Chart.yaml``
reads as dependency ``condition`` and whether the chart has a ``values.schema.json``; and the citation of the archive
the facts were read from (repository, ref, upstream path, archive file, sha256). The archives themselves are not
part of gpuready: ``tests/fidelity/chart_facts.py`` regenerates the table from the shared reference snapshot
(``python -m tests.fidelity.chart_facts``) and ``tests/fidelity/test_chart_facts.py`` checks that it still does.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from gpuready.record import record

FACTS_FILE = Path(__file__).with_name("chart_facts.json")


@record(frozen=True, slots=True)
class ChartCitation:
    """Where the facts of one chart version were read from."""

    repository: str
    """``owner/name`` on GitHub."""
    ref: str
    """The branch and commit, or the tag, the archive was taken at."""
    path: str
    """The archive's (or the chart directory's) path in the repository."""
    archive: str
    """The archive's file name in the reference snapshot's ``charts/``."""
    sha256: str


@record(frozen=True, slots=True)
class ChartValues:
    """What a chart reads from its values: its defaults (subcharts' merged in under their key) and more."""

    tree: Mapping[str, Any]
    """The chart's ``values.yaml``, each bundled subchart's ``values.yaml`` under its alias (the parent's own
    settings for it on top, as Helm coalesces them)."""
    conditions: frozenset[str]
    """Value paths the chart's ``Chart.yaml`` reads as dependency ``condition`` (``nfd.enabled``)."""
    has_schema: bool
    """The chart itself has a ``values.schema.json`` (Helm then refuses values the schema refuses)."""
    citation: ChartCitation


@functools.cache
def table() -> Mapping[tuple[str, str], ChartValues]:
    """(chart name, version) -> its facts (the table is read once per process)."""
    recorded = json.loads(FACTS_FILE.read_text(encoding="utf-8"))
    return {
        (row["chart"], row["version"]): ChartValues(
            row["values"], frozenset(row["conditions"]), row["has_schema"], ChartCitation(**row["citation"])
        )
        for row in recorded["charts"]
    }


def has_facts(name: str, version: str) -> bool:
    return (name, version) in table()


def chart_values(name: str, version: str) -> ChartValues:
    """The facts of chart ``name`` at ``version``; KeyError when gpuready pins no such version."""
    return table()[(name, version)]
