"""Rendering: the node table, finding details, label plan and JSON shape."""

from __future__ import annotations

import json

import pytest

from gpuready.verify.audit import audit
from gpuready.verify.labeling import label_plan, unlabelable
from gpuready.verify.report import render_label_plan, render_report, report_json, table
from tests.verify.conftest import l4_node, view


def test_table_pads_columns() -> None:
    assert table(("A", "LONGER"), [("xx", "y"), ("z", "")]).splitlines() == ["A    LONGER", "xx   y", "z"]


def test_render_report_lists_nodes_then_findings_then_summary() -> None:
    unpooled = l4_node("gpu-c", drop=("gpuready.io/pool",), capacity={})
    report = audit([l4_node("gpu-a"), l4_node("gpu-b", taints=()), unpooled, view("cpu")], {})
    text = render_report(report)
    lines = text.splitlines()
    assert lines[0].split() == ["NODE", "POOL", "GPU", "READY", "GPUS", "FINDINGS"]
    # no stack: the POOL column shows the node's own gpuready.io/pool label, <none> without one
    assert lines[1].split() == ["gpu-a", "gpu", "l4", "yes", "1/1", "ok"]
    assert lines[2].split() == ["gpu-b", "gpu", "l4", "yes", "1/1", "1", "warning"]
    assert lines[3].split() == ["gpu-c", "<none>", "l4", "yes", "0/1", "1", "error"]
    assert "gpu-b: warning gpu-taint-missing" in text
    assert "  fix:   declare the taint on the node pool" in text
    # a node with warnings only has converged, but is counted apart from the ok ones
    assert lines[-1] == (
        "3 GPU nodes (1 ok, 1 with warnings, 1 with errors), 1 other node; 2 findings (1 error, 1 warning)"
    )
    assert "gpu-a" not in render_report(report, only_findings=True).split("\n\n")[0]


def test_report_json_is_plain_data() -> None:
    report = audit([l4_node("gpu-a", capacity={}), l4_node("gpu-b", taints=()), l4_node("gpu-c")], {})
    data = json.loads(json.dumps(report_json(report)))
    assert data["summary"] == {
        "gpuNodes": 3, "ok": 1, "withWarnings": 1, "withErrors": 1, "converged": 2, "expected": 3,
        "otherNodes": 0, "missingNodes": 0,
    }  # fmt: skip
    assert [(n["name"], n["pool"], n["status"]) for n in data["nodes"]] == [
        ("gpu-a", "gpu", "errors"), ("gpu-b", "gpu", "warnings"), ("gpu-c", "gpu", "ok"),
    ]  # fmt: skip
    data["nodes"] = data["nodes"][:1]
    data["findings"] = [x for x in data["findings"] if x["node"] == "gpu-a"]
    (node,) = data["nodes"]
    assert (node["name"], node["accelerator"], node["acceleratorSource"]) == ("gpu-a", "l4", "instance-type")
    assert node["advertised"] == {} and node["expected"] == {"nvidia.com/gpu": 1}
    assert [f["code"] for f in data["findings"]] == ["gpus-not-advertised"]
    assert data["findings"][0]["transient"] is True


def test_render_label_plan() -> None:
    nodes = [
        view("g", labels={"cloud.google.com/gke-accelerator": "nvidia-l4"}),
        view("m", capacity={"nvidia.com/gpu": 1}),
    ]
    text = render_label_plan(label_plan(nodes), unlabelable(nodes))
    assert text.splitlines()[0].split() == ["NODE", "LABEL", "FROM", "TO", "SOURCE"]
    assert text.splitlines()[1].split() == [
        "g",
        "gpuready.io/accelerator",
        "<none>",
        "l4",
        "gke-accelerator",
        "nvidia-l4",
    ]
    assert "GPU model unknown (no GFD product, cloud accelerator or catalog instance type): m" in text
    assert text.splitlines()[-1] == "1 node to patch (3 labels); 1 GPU node with an unknown model"


@pytest.mark.parametrize("headers", [True, False])
def test_label_plan_wide_adds_instance_type_zone_and_product(headers: bool) -> None:
    nodes = [
        view("g", labels={"cloud.google.com/gke-accelerator": "nvidia-l4", "topology.kubernetes.io/zone": "z-a"}),
        view("m", capacity={"nvidia.com/gpu": 1}),
    ]
    narrow = render_label_plan(label_plan(nodes), unlabelable(nodes), headers=headers).splitlines()
    wide = render_label_plan(label_plan(nodes), unlabelable(nodes), nodes=nodes, wide=True, headers=headers)
    lines = wide.splitlines()
    columns = ["NODE", "LABEL", "FROM", "TO", "SOURCE", "INSTANCE-TYPE", "ZONE", "PRODUCT"]
    assert (lines[0].split() == columns) == headers
    row = lines[1 if headers else 0].split()
    assert row[0] == "g" and row[-3:] == ["<none>", "z-a", "<none>"]
    assert len(lines) == len(narrow)
    assert (narrow[0].startswith("NODE")) == headers
