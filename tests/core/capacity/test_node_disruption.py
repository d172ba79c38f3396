"""Node lifetime, drain bound and disruption budgets of a Karpenter NodePool (``capacity.node_disruption``), from the
pool keys as a user writes them to the NodePool each provisioner emits, validated strictly (CEL rules included)."""

from __future__ import annotations

from typing import Any

import pytest

from gpuready.aks import nap
from gpuready.core import pool_config
from gpuready.core.capacity import node_disk, node_disruption
from gpuready.core.capacity.registry import provisioner_for
from gpuready.core.clouds.registry import Cloud
from gpuready.eks import auto_mode, karpenter
from gpuready.errors import SpecError
from tests.core.conftest import build_spec
from tests.crd_schemas import crd_problems

AWS_NODE_POOL_CRD = "karpenter-aws/karpenter.sh_nodepools.v1.14.1.yaml"
AZURE_NODE_POOL_CRD = "karpenter-azure/karpenter.sh_nodepools.v1.14.2.yaml"
BUILDERS: dict[str, tuple[Any, Cloud, str]] = {
    "karpenter": (karpenter.node_pool, "eks", AWS_NODE_POOL_CRD),
    "eks-auto-mode": (auto_mode.node_pool, "eks", AWS_NODE_POOL_CRD),
    "nap": (nap.node_pool, "aks", AZURE_NODE_POOL_CRD),
}
TYPES = {"eks": "g6.xlarge", "aks": "Standard_NC4as_T4_v3"}


@pytest.mark.parametrize(
    ("provisioner", "keys", "expire", "grace", "budgets"),
    [
        # defaults: GPU nodes never expire (Auto Mode: its 21-day cap), a week's drain, one budget per reason
        ("karpenter", {}, "Never", "168h", {"Drifted": "1", "Underutilized": "0", "Empty": "1"}),
        ("nap", {}, "Never", "168h", {"Drifted": "1", "Underutilized": "0", "Empty": "1"}),
        ("eks-auto-mode", {}, "504h", "168h", {"Drifted": "1", "Underutilized": "0", "Empty": "1"}),
        # every key set, budgets as counts (YAML ints) and percentages
        ("karpenter", {"expireAfter": "720h", "terminationGracePeriod": "2h30m",
                       "disruptionBudgets": {"Drifted": 0, "Empty": "50%"}},
         "720h", "2h30m", {"Drifted": "0", "Underutilized": "0", "Empty": "50%"}),
        ("eks-auto-mode", {"expireAfter": "336h"}, "336h", "168h",
         {"Drifted": "1", "Underutilized": "0", "Empty": "1"}),
        ("nap", {"disruptionBudgets": {"Underutilized": "10%"}}, "Never", "168h",
         {"Drifted": "1", "Underutilized": "10%", "Empty": "1"}),
    ],
)  # fmt: skip
def test_pool_keys_to_the_node_pool(
    provisioner: str, keys: dict[str, Any], expire: str, grace: str, budgets: dict[str, str]
) -> None:
    build, cloud, crd = BUILDERS[provisioner]
    entry = {"name": "gpu", "instanceType": TYPES[cloud], "maxSize": 2, "provisioner": provisioner, **keys}
    (spec,) = pool_config.parse_pools([entry], cloud)
    pool = build(spec)
    template = pool["spec"]["template"]["spec"]
    assert (template["expireAfter"], template["terminationGracePeriod"]) == (expire, grace)
    assert pool["spec"]["disruption"]["budgets"] == [
        {"nodes": budgets[reason], "reasons": [reason]} for reason in ("Drifted", "Underutilized", "Empty")
    ]
    assert crd_problems(crd, pool) == []
    assert provisioner_for(spec).node_lifetime


@pytest.mark.parametrize(
    ("duration", "hours"), [("504h", 504.0), ("1h30m", 1.5), ("90m", 1.5), ("3600s", 1.0), ("2h0m60s", 2 + 1 / 60)]
)
def test_hours_of_a_karpenter_duration(duration: str, hours: float) -> None:
    assert node_disruption.hours(duration) == pytest.approx(hours)


def test_the_lifecycle_line_states_what_a_change_does_to_running_nodes() -> None:
    (spec,) = pool_config.parse_pools(
        [{"name": "gpu", "instanceType": "g6.xlarge", "maxSize": 2, "provisioner": "karpenter"}], "eks"
    )
    line = karpenter.lifecycle_summary(spec)
    assert "nodes never expire" in line and "drain at most 168h" in line
    assert "drifts the nodes made before it: they are replaced" in line
    assert f"disk {node_disk.DEFAULT_GB} GiB /dev/xvda" in line and "NVMe instance store RAID0 (250 GB)" in line
    assert "AMI pinned al2023@v20260714" in line


@pytest.mark.parametrize(
    ("fields", "path", "words"),
    [
        ({"disruption_budgets": ["Drifted"]}, "disruptionBudgets", "must be a mapping of disruption reason"),
        ({"disruption_budgets": {"Drifted": 1.5}}, "disruptionBudgets['Drifted']", "not a node count"),
        ({"expire_after": 720}, "expireAfter", "is not a Karpenter lifetime"),
        ({"termination_grace_period": ["1h"]}, "terminationGracePeriod", "is not a duration"),
        ({"image_version": 20260714}, "imageVersion", "is not an amazon-eks-ami release"),
    ],
)
def test_python_api_values_of_the_wrong_type_are_problems_not_tracebacks(
    fields: dict[str, Any], path: str, words: str
) -> None:
    """``GpuPoolSpec`` built in Python skips the config model's type checks: the rules still refuse, pointedly."""
    with pytest.raises(SpecError) as raised:
        build_spec("eks", provisioner="karpenter", **fields)
    assert any(p.path == path and words in str(p) for p in raised.value.problems), raised.value.problems
