"""The chart fact table cites the archives the shared reference snapshot holds (sha256 as ``SHA256SUMS`` has it),
covers every chart gpuready pins, and gives the values trees ``gpuStack.values`` is checked against; the Helm value
merge is Helm's. (``tests/fidelity/test_chart_facts.py`` regenerates the table from those archives.)"""

from __future__ import annotations

import io
import tarfile
from typing import Any

import pytest
import yaml

from gpuready.core.gpu_stack import chart_facts
from gpuready.core.gpu_stack.kinds import CHARTS
from gpuready.core.mappings import deep_merge
from tests.helm_render import archive_bytes
from tests.upstream import sha256sums, upstream_text

PACKAGED_VALUES = {
    "gpu-operator": "gpu-operator/values.v26.7.0.packaged.yaml",
    "device-plugin": "k8s-device-plugin/values.v0.20.0.packaged.yaml",
}


def _member(data: bytes, name: str) -> bytes:
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as archive:
        extracted = archive.extractfile(name)
        assert extracted is not None
        return extracted.read()


@pytest.mark.parametrize("key", sorted(chart_facts.table()))
def test_every_citation_names_an_archive_of_the_snapshot_with_its_sha256(key: tuple[str, str]) -> None:
    citation = chart_facts.chart_values(*key).citation
    assert sha256sums()[f"charts/{citation.archive}"] == citation.sha256
    assert citation.repository.startswith(("NVIDIA/", "Mellanox/", "aws/eks-charts"))  # NVIDIA's charts (its Network
    # Operator lives under Mellanox), and EKS's EFA plugin
    assert key[1].lstrip("v") in citation.archive


@pytest.mark.parametrize("kind", sorted(CHARTS))
def test_every_pinned_chart_has_its_facts(kind: str) -> None:
    chart = CHARTS[kind]
    assert chart_facts.has_facts(chart.name, chart.version)
    data = archive_bytes(chart.name, chart.version)
    packaged = yaml.safe_load(_member(data, f"{chart.name}/Chart.yaml"))
    assert (packaged["name"], packaged["version"]) == (chart.name, chart.version)
    # The same values.yaml the snapshot holds on its own, byte for byte.
    assert _member(data, f"{chart.name}/values.yaml").decode("utf-8") == upstream_text(PACKAGED_VALUES[kind])


@pytest.mark.parametrize("kind", sorted(CHARTS))
def test_the_values_tree_has_the_nfd_subchart_under_its_key(kind: str) -> None:
    chart = CHARTS[kind]
    known = chart_facts.chart_values(chart.name, chart.version)
    nfd = known.tree[chart.nfd_key]
    assert {"master", "worker", "gc"} <= set(nfd)  # the subchart's own keys
    assert not known.has_schema  # neither chart refuses unknown values itself
    # The parent's settings for the subchart win over the subchart's defaults (as Helm coalesces them).
    parent = yaml.safe_load(upstream_text(PACKAGED_VALUES[kind]))[chart.nfd_key]
    assert nfd["worker"]["tolerations"] == parent["worker"]["tolerations"]


def test_the_plugin_charts_dependency_conditions() -> None:
    known = chart_facts.chart_values("nvidia-device-plugin", "0.20.0")
    assert known.conditions == {"nfd.enabled", "gfd.enabled"}


def test_an_unpinned_version_has_no_facts() -> None:
    assert not chart_facts.has_facts("gpu-operator", "v25.3.0")
    with pytest.raises(KeyError):
        chart_facts.chart_values("gpu-operator", "v25.3.0")


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
