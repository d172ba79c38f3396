"""The vendored chart archives are the bytes their SOURCES.md names, hold the charts gpuready pins, and give the
values trees ``gpuStack.values`` is checked against; the Helm value merge is Helm's."""

from __future__ import annotations

import hashlib
import io
import re
import tarfile
from pathlib import Path
from typing import Any

import pytest
import yaml

from components.core.gpu_stack import chart_archives
from components.core.gpu_stack.charts import CHARTS, ChartKind
from components.core.mappings import deep_merge

SOURCES = chart_archives.ARCHIVES / "SOURCES.md"
ROW = re.compile(r"^\| `(?P<file>[^`]+\.tgz)` \|.*\| `(?P<sha256>[0-9a-f]{64})` \|$")
UPSTREAM = Path(__file__).resolve().parents[2] / "data" / "upstream"
PACKAGED_VALUES = {
    "gpu-operator": UPSTREAM / "gpu-operator" / "values.v26.7.0.packaged.yaml",
    "device-plugin": UPSTREAM / "k8s-device-plugin" / "values.v0.20.0.packaged.yaml",
}


def _rows() -> dict[str, str]:
    rows = {}
    for line in SOURCES.read_text(encoding="utf-8").splitlines():
        if match := ROW.match(line):
            rows[match["file"]] = match["sha256"]
    return rows


def _member(data: bytes, name: str) -> bytes:
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as archive:
        extracted = archive.extractfile(name)
        assert extracted is not None
        return extracted.read()


def test_every_archive_is_listed_with_its_sha256() -> None:
    rows = _rows()
    on_disk = {p.name for p in chart_archives.ARCHIVES.glob("*.tgz")}
    assert on_disk == set(rows) == set(chart_archives.ARCHIVE_FILES.values())
    for name, digest in rows.items():
        assert hashlib.sha256((chart_archives.ARCHIVES / name).read_bytes()).hexdigest() == digest, name


@pytest.mark.parametrize("kind", sorted(CHARTS))
def test_every_pinned_chart_has_its_archive(kind: ChartKind) -> None:
    chart = CHARTS[kind]
    assert chart_archives.has_archive(chart.name, chart.version)
    data = chart_archives.archive_bytes(chart.name, chart.version)
    packaged = yaml.safe_load(_member(data, f"{chart.name}/Chart.yaml"))
    assert (packaged["name"], packaged["version"]) == (chart.name, chart.version)
    # The same values.yaml the fidelity tests vendor (tests/data/upstream), byte for byte.
    assert _member(data, f"{chart.name}/values.yaml") == PACKAGED_VALUES[kind].read_bytes()


@pytest.mark.parametrize("kind", sorted(CHARTS))
def test_the_values_tree_has_the_nfd_subchart_under_its_key(kind: ChartKind) -> None:
    chart = CHARTS[kind]
    known = chart_archives.chart_values(chart.name, chart.version)
    nfd = known.tree[chart.nfd_key]
    assert {"master", "worker", "gc"} <= set(nfd)  # the subchart's own keys
    assert not known.has_schema  # neither chart refuses unknown values itself
    # The parent's settings for the subchart win over the subchart's defaults (as Helm coalesces them).
    parent = yaml.safe_load(PACKAGED_VALUES[kind].read_text(encoding="utf-8"))[chart.nfd_key]
    assert nfd["worker"]["tolerations"] == parent["worker"]["tolerations"]


def test_the_plugin_charts_dependency_conditions() -> None:
    known = chart_archives.chart_values("nvidia-device-plugin", "0.20.0")
    assert known.conditions == {"nfd.enabled", "gfd.enabled"}


@pytest.mark.parametrize(
    ("base", "extra", "merged"),
    [
        ({"a": {"b": 1, "c": 2}}, {"a": {"c": 3, "d": 4}}, {"a": {"b": 1, "c": 3, "d": 4}}),
        ({"a": [1, 2]}, {"a": [3]}, {"a": [3]}),  # lists replace
        ({"a": {"b": 1}}, {"a": None}, {"a": None}),  # null replaces (Helm then drops the key)
        ({"a": 1}, {"b": {"c": 1}}, {"a": 1, "b": {"c": 1}}),
        ({"a": {"b": {"c": 1}}}, {"a": {"b": {}}}, {"a": {"b": {"c": 1}}}),  # an empty map changes nothing
    ],
)
def test_deep_merge_is_helms(base: dict[str, Any], extra: dict[str, Any], merged: dict[str, Any]) -> None:
    before = repr(base)
    assert deep_merge(base, extra) == merged
    assert repr(base) == before
