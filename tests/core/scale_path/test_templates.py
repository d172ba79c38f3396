"""The cluster autoscaler's template of a node group at zero, read from the node-template tags gpuready writes the
way the provider reads them (kubernetes/autoscaler@55c37cd ``aws_manager.go`` L404-500, ``azure_template.go``
L443-488 and L591-607): it holds every label, taint and extended resource of the pool's nodes."""

from __future__ import annotations

from typing import Any

import pytest

from gpuready.aks.lifecycle import tag_key_name
from gpuready.core import scheduling
from gpuready.core.advertisers.registry import advertiser_for
from gpuready.core.capacity.registry import provisioner_for
from gpuready.core.clouds.registry import Cloud
from gpuready.core.scale_path.cluster_autoscaler import NodeGroupDecider
from gpuready.core.specs import GpuSharing, MigPartitioning
from gpuready.core.taints import Taint
from tests.core.conftest import build_spec

POOLS: list[tuple[str, Cloud, dict[str, Any]]] = [
    ("eks-mig-mixed", "eks", {"instance_type": "p5.48xlarge",
                              "sharing": MigPartitioning(layout="all-balanced", strategy="mixed")}),
    ("eks-renamed-time-slicing", "eks", {"instance_type": "g6.xlarge", "labels": {"example.com/team": "ml"},
                                         "sharing": GpuSharing(mode="time-slicing", replicas=4,
                                                               rename_by_default=True)}),
    ("aks-mig-mixed-spot", "aks", {"instance_type": "Standard_NC24ads_A100_v4", "capacity": "spot",
                                   "sharing": MigPartitioning(profile="1g.10gb", strategy="mixed"),
                                   "taints": (Taint(key="team_x", value="ml", effect="NoSchedule"),)}),
]  # fmt: skip


@pytest.mark.parametrize(("cloud", "fields"), [p[1:] for p in POOLS], ids=[p[0] for p in POOLS])
def test_the_template_holds_what_the_nodes_have(cloud: Cloud, fields: dict[str, Any]) -> None:
    spec = build_spec(cloud, **fields)
    decider = provisioner_for(spec).scale_decider
    assert isinstance(decider, NodeGroupDecider)
    template = decider.tags.template(spec, spec.resolved.gpu.gpus)
    assert template.labels == scheduling.pool_labels(spec)
    assert set(template.taints) == set(scheduling.pool_taints(spec))
    assert template.allocatable == {
        "nvidia.com/gpu": spec.resolved.gpu.gpus,
        **advertiser_for(spec).allocatable_per_node(spec),
    }
    assert template.devices == {}  # no ResourceSlices in a template (aws_cloud_provider.go L417-428)


@pytest.mark.parametrize(
    ("kind", "encoded", "name"),
    [("label", "nvidia.com_gpu.present", "nvidia.com/gpu.present"), ("taint", "team~2x", "team_x"),
     ("resources", "nvidia.com_mig-1g.10gb", "nvidia.com/mig-1g.10gb"), ("resources", "a~2b", "a/b")],
)  # fmt: skip
def test_azure_decodes_tag_keys_by_kind(kind: str, encoded: str, name: str) -> None:
    # azure_template.go L449-450 and L472-473 ("~2" -> "_"), L600-601 ("~2" -> "/" for resources)
    assert tag_key_name(kind, encoded) == name
