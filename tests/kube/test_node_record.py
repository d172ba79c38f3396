"""NodeRecord: nodes decoded from the JSON bytes into typed structs give the same views as dicts, odd ones too;
``check`` decodes only those fields and imports botocore only for EKS clusters."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import msgspec
import pytest

from gpuready.cli.verify_stack import stack_expectations
from gpuready.kube.convergence import follow_nodes
from gpuready.kube.node_record import NodeRecord, list_views, record_view
from gpuready.kube.node_resource import Node
from gpuready.kube.nodes_api import NodeClient
from gpuready.verify.audit import audit
from gpuready.verify.incremental import WatchedAudit
from gpuready.verify.nodes import node_view
from tests.golden import node_sets
from tests.kube_standin import KubeStandin

ROOT = Path(__file__).resolve().parents[2]
ODD: list[dict[str, Any]] = [
    {},
    {"metadata": None, "spec": None, "status": None},
    {"metadata": "x", "spec": [], "status": 5},
    {"metadata": {"name": None, "labels": {"a": 1, "b": None}}, "spec": {"taints": "x", "unschedulable": "yes"}},
    {"metadata": {"name": "n"}, "status": {"conditions": {"type": "Ready"}, "capacity": [1], "allocatable": "x"}},
    {"metadata": {"name": "n"}, "status": {"conditions": [None, 3, [], {"type": "Ready", "status": "False"}]}},
    {"metadata": {"name": "n"}, "status": {"conditions": [{"type": "Ready", "status": "False", "message": "m"}]}},
    {"metadata": {"name": "n"}, "status": {"conditions": "Ready"}},
    {"metadata": {"name": "n"}, "status": {"conditions": [{"type": "Ready", "status": "True", "extra": {}}]}},
    {"metadata": {"name": "n"}, "spec": {"taints": [{"key": "k", "effect": "Bad"}, 1, {"key": "g", "effect": "NoExecute"}]}},  # noqa: E501
    {"metadata": {"name": "n"}, "status": {"capacity": {"nvidia.com/gpu": "1.5", "nvidia.com/mig-1g.10gb": 7}}},
]  # fmt: skip


def _golden_nodes() -> list[dict[str, Any]]:
    return [*node_sets.stack_nodes(stack_expectations("eks-dev", str(ROOT))), *node_sets.foreign_nodes()]


@pytest.mark.parametrize("node", [*_golden_nodes(), *ODD], ids=lambda n: str(n.get("metadata", {}))[:40])
def test_record_view_equals_the_view_of_the_same_json_as_dicts(node: dict[str, Any]) -> None:
    data = json.dumps(node).encode()
    assert record_view(msgspec.json.decode(data, type=NodeRecord)) == node_view(json.loads(data))


def test_a_record_keeps_none_of_the_fields_the_audit_does_not_read() -> None:
    node = _golden_nodes()[0]
    record = msgspec.json.decode(json.dumps(node).encode(), type=NodeRecord)
    kept = msgspec.json.encode(record)
    assert b"images" not in kept and b"nodeInfo" not in kept and b"lastHeartbeatTime" not in kept
    assert len(kept) < len(json.dumps(node)) / 2  # labels and resources: what the audit reads


def test_list_views_over_http_equals_views_of_listed_dicts(kube_standin: KubeStandin, client: NodeClient) -> None:
    for node in _golden_nodes():
        kube_standin.store.add(node)
    client.page_size = 7  # several pages
    expected = [node_view(raw) for raw in client.list_nodes().items]
    assert list_views(client) == expected
    assert len(expected) == len(_golden_nodes())


def test_check_imports_botocore_only_for_eks(kube_standin: KubeStandin, kubeconfig_path: Path) -> None:
    code = (
        "import sys; from gpuready.cli.main import main; "
        f"code = main(['check', '--kubeconfig', {str(kubeconfig_path)!r}]); "
        "print('botocore' in sys.modules, code)"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert done.stdout.split()[-2:] == ["False", "0"], done.stderr


@pytest.mark.parametrize("node", [*_golden_nodes(), *ODD], ids=lambda n: str(n.get("metadata", {}))[:40])
def test_a_record_names_and_versions_its_node_as_a_list_of_dicts_does(node: dict[str, Any]) -> None:
    data = json.dumps(node).encode()
    record = msgspec.json.decode(data, type=NodeRecord)
    raw = node.get("metadata")
    metadata: dict[str, Any] = raw if isinstance(raw, dict) else {}
    assert record.name == (str(metadata.get("name", "")) if isinstance(raw, dict) else "")
    assert record.resource_version == str(metadata.get("resourceVersion", ""))
    assert record.view() == record_view(record)


@pytest.mark.parametrize("listed_as", [Node, NodeRecord], ids=["dicts", "records"])
def test_verify_lists_records_with_the_same_report_as_dicts(
    kube_standin: KubeStandin, client: NodeClient, listed_as: type[Any]
) -> None:
    expectations = stack_expectations("eks-dev", str(ROOT))
    for node in _golden_nodes():
        kube_standin.store.add(node)
    client.page_size = 7
    reference = audit([node_view(n) for n in _golden_nodes()], expectations)
    outcome = follow_nodes(client, "", WatchedAudit(expectations), lambda _: True, timeout=10, listed_as=listed_as)
    assert outcome.state.report() == reference
    assert len(kube_standin.requests.find("GET", "/api/v1/nodes", watch=True)) == 0
