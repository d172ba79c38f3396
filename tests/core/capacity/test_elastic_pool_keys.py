"""The elastic pool keys (``instanceType`` lists, ``gpuRequirements``, ``gpuLimit``) for every elastic provisioner:
spec -> object, table-driven, every emitted object validated strictly against the upstream CRDs and schemas."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import pytest

from gpuready.aks import nap
from gpuready.core.capacity import gpu_choice, registry
from gpuready.core.catalog import lookup
from gpuready.core.clouds.registry import Cloud, cloud_profile
from gpuready.core.specs import GpuPoolSpec, GpuRequirements
from gpuready.eks import auto_mode, karpenter
from gpuready.gke import compute_class
from tests.core.conftest import build_spec
from tests.crd_schemas import crd_problems, schema_problems

WIRING = karpenter.KarpenterWiring(cluster_name="ml", node_role="arn:aws:iam::1:role/nodes", subnet_ids=("subnet-1",))
Build = Callable[[GpuPoolSpec], dict[str, Any]]
PROVISIONERS: dict[str, tuple[Cloud, Build, Callable[[Mapping[str, Any]], list[str]]]] = {
    "karpenter": ("eks", karpenter.node_pool,
                  lambda o: crd_problems("karpenter-aws/karpenter.sh_nodepools.v1.14.1.yaml", o)),
    "eks-auto-mode": ("eks", auto_mode.node_pool,
                      lambda o: crd_problems("karpenter-aws/karpenter.sh_nodepools.v1.14.1.yaml", o)),
    "nap": ("aks", nap.node_pool, lambda o: crd_problems("karpenter-azure/karpenter.sh_nodepools.v1.14.2.yaml", o)),
    "compute-class": ("gke", compute_class.compute_class,
                      lambda o: schema_problems("crds-catalog/cloud.google.com/computeclass_v1.json", o)),
}  # fmt: skip
"""provisioner -> (cloud, builder of its pool object, the object's strict schema problems)."""

CASES: list[tuple[str, str, dict[str, Any], tuple[str, ...], int | None]] = [
    # id, provisioner, spec fields, types the requirements must name, GPU limit (None: the object has none)
    ("karpenter-list", "karpenter", {"instance_type": ["g6.xlarge", "g6.2xlarge"], "max_size": 3},
     ("g6.xlarge", "g6.2xlarge"), 3),
    ("karpenter-gpu-limit", "karpenter", {"instance_type": "g6.12xlarge", "max_size": 4, "gpu_limit": 10},
     ("g6.12xlarge",), 10),
    ("karpenter-requirements", "karpenter", {"instance_type": None, "gpu_requirements": GpuRequirements(
        model="l4", count=1), "max_size": 5, "gpu_limit": 2}, ("g6.xlarge", "g6.2xlarge", "gr6.4xlarge"), 2),
    ("auto-mode-list", "eks-auto-mode", {"instance_type": ("g5.xlarge", "g5.2xlarge"), "max_size": 2},
     ("g5.xlarge", "g5.2xlarge"), 2),
    ("auto-mode-requirements", "eks-auto-mode", {"instance_type": None, "gpu_requirements": GpuRequirements(
        model="h100", count=8), "max_size": 2}, ("p5.48xlarge",), 16),
    ("nap-list", "nap", {"instance_type": ["Standard_NC4as_T4_v3", "Standard_NC8as_T4_v3"], "max_size": 4,
                         "gpu_limit": 3}, ("Standard_NC4as_T4_v3", "Standard_NC8as_T4_v3"), 3),
    ("nap-requirements", "nap", {"instance_type": None, "gpu_requirements": GpuRequirements(model="t4", count=1),
                                 "max_size": 2}, ("Standard_NC4as_T4_v3", "Standard_NC16as_T4_v3"), 2),
    ("compute-class-list-spot", "compute-class", {"instance_type": ["g2-standard-4", "g2-standard-8"],
                                                  "max_size": 2, "capacity": "spot"},
     ("g2-standard-4", "g2-standard-8"), None),
    ("compute-class-requirements", "compute-class", {"instance_type": None, "gpu_requirements": GpuRequirements(
        model="l4", count=2), "max_size": 2}, ("g2-standard-24",), None),
]  # fmt: skip


def _requirement(obj: Mapping[str, Any], key: str) -> list[str]:
    (values,) = [r["values"] for r in obj["spec"]["template"]["spec"]["requirements"] if r["key"] == key]
    return list(values)


@pytest.mark.parametrize(("provisioner", "fields", "named", "limit"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_elastic_keys_reach_the_object(
    provisioner: str, fields: dict[str, Any], named: tuple[str, ...], limit: int | None
) -> None:
    cloud, build, problems = PROVISIONERS[provisioner]
    spec = build_spec(cloud, provisioner=provisioner, **fields)
    obj = build(spec)
    assert problems(obj) == []
    types = gpu_choice.instance_types(spec)
    assert set(named) <= set(types)
    for name in types:  # every type is of the pool's one GPU model and count
        gpu = lookup.resolve_instance_type(cloud_profile(cloud), name, None)
        assert (gpu.model, gpu.gpus) == (spec.resolved.gpu.model, spec.resolved.gpu.gpus)
    if obj["kind"] == "NodePool":
        assert _requirement(obj, "node.kubernetes.io/instance-type") == list(types)
        nodes = (limit if limit is not None else spec.max_size * spec.resolved.gpu.gpus) // spec.resolved.gpu.gpus
        assert obj["spec"]["limits"] == {"nvidia.com/gpu": str(nodes * spec.resolved.gpu.gpus), "nodes": str(nodes)}
    else:  # a ComputeClass: one priority per machine (spot ones first), no limit field
        machines = [p["machineType"] for p in obj["spec"]["priorities"]]
        assert machines == list(types) * (2 if spec.capacity == "spot" else 1)
        assert [p["spot"] for p in obj["spec"]["priorities"]][: len(types)] == [spec.capacity == "spot"] * len(types)
        assert all(p["gpu"]["count"] == spec.resolved.gpu.gpus for p in obj["spec"]["priorities"])
    chosen = registry.provisioner_for(spec)
    assert chosen.gpu_limit(spec) == limit
    assert chosen.summary(spec).max_gpus == (limit if limit is not None else spec.max_size * spec.resolved.gpu.gpus)


def test_without_gpu_limit_the_limit_is_max_size_nodes() -> None:
    spec = build_spec("eks", provisioner="karpenter", instance_type="p5.48xlarge", max_size=3)
    assert karpenter.node_pool(spec)["spec"]["limits"] == {"nvidia.com/gpu": "24", "nodes": "3"}


def test_a_fixed_pool_has_no_gpu_limit() -> None:
    spec = build_spec("eks")
    assert registry.provisioner_for(spec).gpu_limit(spec) is None
