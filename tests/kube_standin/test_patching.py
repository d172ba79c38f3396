"""JSON patch, merge patch and strategic merge patch, table-driven."""

from __future__ import annotations

import json
from typing import Any

import pytest

from .errors import StatusError
from .patching import (
    SCHEMAS,
    apply_patch,
    json_patch,
    merge_patch,
    strategic_merge_patch,
)

NODE: dict[str, Any] = {
    "metadata": {"name": "n", "labels": {"a": "1", "b": "2"}, "finalizers": ["x"]},
    "spec": {"taints": [{"key": "t1", "effect": "NoSchedule"}], "podCIDRs": ["10.0.0.0/24"]},
    "status": {
        "conditions": [{"type": "Ready", "status": "True"}, {"type": "DiskPressure", "status": "False"}],
        "addresses": [{"type": "InternalIP", "address": "10.0.0.1"}],
    },
}


@pytest.mark.parametrize(
    ("ops", "expected"),
    [
        ([{"op": "add", "path": "/metadata/labels/c", "value": "3"}], {"a": "1", "b": "2", "c": "3"}),
        ([{"op": "add", "path": "/metadata/labels/a", "value": "9"}], {"a": "9", "b": "2"}),
        ([{"op": "remove", "path": "/metadata/labels/a"}], {"b": "2"}),
        ([{"op": "replace", "path": "/metadata/labels/b", "value": "x"}], {"a": "1", "b": "x"}),
        ([{"op": "move", "from": "/metadata/labels/a", "path": "/metadata/labels/z"}], {"b": "2", "z": "1"}),
        ([{"op": "copy", "from": "/metadata/labels/a", "path": "/metadata/labels/z"}], {"a": "1", "b": "2", "z": "1"}),
        ([{"op": "test", "path": "/metadata/labels/a", "value": "1"}], {"a": "1", "b": "2"}),
        ([{"op": "add", "path": "/metadata/labels/x~1y", "value": "s"}], {"a": "1", "b": "2", "x/y": "s"}),
        ([{"op": "replace", "path": "/metadata/labels", "value": {}}], {}),
    ],
)
def test_json_patch_on_labels(ops: list[dict[str, Any]], expected: dict[str, str]) -> None:
    result = json_patch(NODE, ops)
    assert result["metadata"]["labels"] == expected
    assert NODE["metadata"]["labels"] == {"a": "1", "b": "2"}  # the input is never modified


def test_json_patch_on_lists() -> None:
    result = json_patch(
        NODE,
        [
            {"op": "add", "path": "/spec/taints/-", "value": {"key": "t2", "effect": "NoExecute"}},
            {"op": "add", "path": "/spec/taints/0", "value": {"key": "t0", "effect": "NoSchedule"}},
            {"op": "remove", "path": "/status/conditions/1"},
        ],
    )
    assert [t["key"] for t in result["spec"]["taints"]] == ["t0", "t1", "t2"]
    assert [c["type"] for c in result["status"]["conditions"]] == ["Ready"]


@pytest.mark.parametrize(
    ("ops", "code"),
    [
        ([{"op": "test", "path": "/metadata/labels/a", "value": "2"}], 422),
        ([{"op": "remove", "path": "/metadata/labels/nope"}], 422),
        ([{"op": "replace", "path": "/metadata/nope/x", "value": 1}], 422),
        ([{"op": "add", "path": "/spec/taints/5", "value": {}}], 422),
        ([{"op": "add", "path": "/spec/taints/01", "value": {}}], 422),
        ([{"op": "frobnicate", "path": "/a"}], 400),
        ([{"op": "add", "path": "/a"}], 400),
        ({"op": "add", "path": "/a", "value": 1}, 400),
    ],
)
def test_json_patch_errors(ops: Any, code: int) -> None:
    with pytest.raises(StatusError) as failed:
        json_patch(NODE, ops)
    assert failed.value.code == code


@pytest.mark.parametrize(
    ("target", "patch", "expected"),
    [
        ({"a": 1, "b": 2}, {"a": None}, {"b": 2}),
        ({"a": {"x": 1, "y": 2}}, {"a": {"y": None, "z": 3}}, {"a": {"x": 1, "z": 3}}),
        ({"l": [1, 2]}, {"l": [3]}, {"l": [3]}),  # lists are replaced
        ({"a": 1}, {"a": {"b": 1}}, {"a": {"b": 1}}),
        ({"a": {"b": 1}}, {"a": "s"}, {"a": "s"}),
        ({}, {"a": {"b": None}}, {"a": {}}),
    ],
)
def test_merge_patch_rfc7386(target: dict[str, Any], patch: dict[str, Any], expected: dict[str, Any]) -> None:
    assert merge_patch(target, patch) == expected


def _smp(patch: dict[str, Any]) -> dict[str, Any]:
    result: dict[str, Any] = strategic_merge_patch(NODE, patch, SCHEMAS["nodes"])
    return result


@pytest.mark.parametrize(
    ("patch", "path", "expected"),
    [
        ({"metadata": {"labels": {"c": "3"}}}, ("metadata", "labels"), {"a": "1", "b": "2", "c": "3"}),
        ({"metadata": {"labels": {"a": None}}}, ("metadata", "labels"), {"b": "2"}),
        ({"metadata": {"labels": {"$patch": "replace", "z": "9"}}}, ("metadata", "labels"), {"z": "9"}),
        # conditions merge on type: update one, keep the rest, append new ones
        (
            {"status": {"conditions": [{"type": "Ready", "status": "False"}, {"type": "GPU", "status": "True"}]}},
            ("status", "conditions"),
            [
                {"type": "Ready", "status": "False"},
                {"type": "DiskPressure", "status": "False"},
                {"type": "GPU", "status": "True"},
            ],
        ),
        (
            {"status": {"conditions": [{"type": "DiskPressure", "$patch": "delete"}]}},
            ("status", "conditions"),
            [{"type": "Ready", "status": "True"}],
        ),
        (
            {"status": {"conditions": [{"type": "Ready", "reason": None, "message": "ok"}]}},
            ("status", "conditions"),
            [{"type": "Ready", "status": "True", "message": "ok"}, {"type": "DiskPressure", "status": "False"}],
        ),
        (
            {"status": {"conditions": [{"$patch": "replace"}, {"type": "Only", "status": "True"}]}},
            ("status", "conditions"),
            [{"type": "Only", "status": "True"}],
        ),
        # spec.taints is atomic in the Kubernetes API (no patch merge key): replaced, like a real apiserver does
        (
            {"spec": {"taints": [{"key": "t2", "effect": "NoExecute"}]}},
            ("spec", "taints"),
            [{"key": "t2", "effect": "NoExecute"}],
        ),
        ({"spec": {"podCIDRs": ["10.0.1.0/24"]}}, ("spec", "podCIDRs"), ["10.0.0.0/24", "10.0.1.0/24"]),
        ({"metadata": {"$deleteFromPrimitiveList/finalizers": ["x"]}}, ("metadata", "finalizers"), []),
        (
            {"status": {"addresses": [{"type": "ExternalIP", "address": "1.2.3.4"}]}},
            ("status", "addresses"),
            [{"type": "InternalIP", "address": "10.0.0.1"}, {"type": "ExternalIP", "address": "1.2.3.4"}],
        ),
        (
            {
                "status": {
                    "$setElementOrder/conditions": [{"type": "DiskPressure"}, {"type": "Ready"}],
                    "conditions": [{"type": "Ready", "status": "Unknown"}],
                }
            },
            ("status", "conditions"),
            [{"type": "DiskPressure", "status": "False"}, {"type": "Ready", "status": "Unknown"}],
        ),
        ({"spec": {"$patch": "delete"}}, ("spec",), None),
    ],
)
def test_strategic_merge_patch_on_a_node(patch: dict[str, Any], path: tuple[str, ...], expected: Any) -> None:
    value: Any = _smp(patch)
    for key in path:
        value = value.get(key) if isinstance(value, dict) else None
    assert value == expected


@pytest.mark.parametrize(
    "patch",
    [
        {"status": {"conditions": [{"status": "True"}]}},  # no merge key
        {"status": {"conditions": ["Ready"]}},
        {"metadata": {"$unknownDirective": 1}},
        {"metadata": {"labels": {"$patch": "explode"}}},
    ],
)
def test_strategic_merge_patch_errors(patch: dict[str, Any]) -> None:
    with pytest.raises(StatusError) as failed:
        _smp(patch)
    assert failed.value.code == 400


def test_strategic_merge_patch_on_pod_containers_merges_by_name() -> None:
    pod = {
        "spec": {
            "containers": [
                {"name": "main", "image": "a", "env": [{"name": "X", "value": "1"}]},
                {"name": "side", "image": "s"},
            ]
        }
    }
    patch = {"spec": {"containers": [{"name": "main", "image": "b", "env": [{"name": "Y", "value": "2"}]}]}}
    result = strategic_merge_patch(pod, patch, SCHEMAS["pods"])
    assert result["spec"]["containers"] == [
        {"name": "main", "image": "b", "env": [{"name": "X", "value": "1"}, {"name": "Y", "value": "2"}]},
        {"name": "side", "image": "s"},
    ]


@pytest.mark.parametrize(
    ("content_type", "body", "labels", "taints"),
    [
        (
            "application/strategic-merge-patch+json",
            {"metadata": {"labels": {"c": "3"}}},
            {"a": "1", "b": "2", "c": "3"},
            1,
        ),
        ("application/strategic-merge-patch+json; charset=utf-8", {"spec": {"taints": []}}, {"a": "1", "b": "2"}, 0),
        ("application/merge-patch+json", {"metadata": {"labels": {"a": None}}}, {"b": "2"}, 1),
        ("Application/Merge-Patch+JSON", {"spec": {"taints": None}}, {"a": "1", "b": "2"}, 0),
        ("application/json-patch+json", [{"op": "remove", "path": "/spec/taints/0"}], {"a": "1", "b": "2"}, 0),
    ],
)
def test_apply_patch_dispatches_on_content_type(
    content_type: str, body: Any, labels: dict[str, str], taints: int
) -> None:
    result = apply_patch(content_type, NODE, json.dumps(body).encode(), "nodes")
    assert result["metadata"]["labels"] == labels
    assert len(result["spec"].get("taints", [])) == taints


def test_strategic_is_not_mistaken_for_merge_patch() -> None:
    """A merge patch replaces the conditions list; a strategic one merges it: the dispatch must tell them apart."""
    body = json.dumps({"status": {"conditions": [{"type": "GPU", "status": "True"}]}}).encode()
    strategic = apply_patch("application/strategic-merge-patch+json", NODE, body, "nodes")
    merge = apply_patch("application/merge-patch+json", NODE, body, "nodes")
    assert [c["type"] for c in strategic["status"]["conditions"]] == ["Ready", "DiskPressure", "GPU"]
    assert [c["type"] for c in merge["status"]["conditions"]] == ["GPU"]


@pytest.mark.parametrize(
    ("content_type", "body", "code"),
    [
        ("application/json", b"{}", 415),
        ("application/apply-patch+yaml", b"{}", 415),
        (None, b"{}", 415),
        ("text/plain", b"{}", 415),
        ("application/merge-patch+json", b"{not json", 400),
        ("application/merge-patch+json", b"[1]", 400),
        ("application/strategic-merge-patch+json", b'"s"', 400),
    ],
)
def test_apply_patch_rejections(content_type: str | None, body: bytes, code: int) -> None:
    with pytest.raises(StatusError) as failed:
        apply_patch(content_type, NODE, body, "nodes")
    assert failed.value.code == code
    if code == 415:
        assert failed.value.reason == "UnsupportedMediaType"
