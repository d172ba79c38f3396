"""``instanceType`` (one type, a list), ``gpuRequirements``, ``gpuLimit`` and ``minSize`` by provisioner, through the
stack config (``parse_pools``): what is accepted, and what is refused with its path and message."""

from __future__ import annotations

from typing import Any

import pytest

from gpuready.core.capacity import gpu_choice
from gpuready.core.clouds.registry import Cloud, cloud_profile
from gpuready.core.pool_config import parse_pools
from gpuready.errors import ConfigError

ACCEPTED: list[tuple[str, Cloud, dict[str, Any], tuple[str, int, int]]] = [
    # id, cloud, entry, (resolved model, GPUs per node, min size)
    ("elastic-without-min-size", "eks", {"instanceType": "g6.xlarge", "provisioner": "karpenter"}, ("l4", 1, 0)),
    ("elastic-min-size-zero", "aks", {"instanceType": "Standard_NC4as_T4_v3", "provisioner": "nap", "minSize": 0},
     ("t4", 1, 0)),
    ("elastic-list-of-alike", "eks", {"instanceType": ["g6.xlarge", "g6.4xlarge"], "provisioner": "eks-auto-mode"},
     ("l4", 1, 0)),
    ("elastic-requirements", "gke", {"gpuRequirements": {"model": "l4", "count": 4}, "provisioner": "compute-class"},
     ("l4", 4, 0)),
    ("elastic-gpu-limit", "eks", {"instanceType": "g6.12xlarge", "provisioner": "karpenter", "gpuLimit": 4},
     ("l4", 4, 0)),
    ("fixed-as-today", "eks", {"instanceType": "g6.xlarge", "minSize": 1}, ("l4", 1, 1)),
    ("fixed-fractional-l4", "eks", {"instanceType": "g6f.large", "minSize": 0}, ("l4", 1, 0)),
    ("fixed-b300", "eks", {"instanceType": "p6-b300.48xlarge", "minSize": 0}, ("b300", 8, 0)),
]  # fmt: skip

REFUSED: list[tuple[str, Cloud, dict[str, Any], str, str]] = [
    # id, cloud, entry, path, text of the problem
    ("fixed-without-min-size", "eks", {"instanceType": "g6.xlarge"}, "minSize", "is required for a fixed node pool"),
    ("elastic-min-size", "eks", {"instanceType": "g6.xlarge", "provisioner": "karpenter", "minSize": 1},
     "minSize", "must be 0 for an elastic pool"),
    ("elastic-desired-size", "aks", {"instanceType": "Standard_NC4as_T4_v3", "provisioner": "nap",
                                     "desiredSize": 1}, "desiredSize", "an elastic pool has no desired size"),
    ("fixed-list", "gke", {"instanceType": ["g2-standard-4"], "minSize": 0}, "instanceType",
     "a fixed node pool has one instance type"),
    ("list-of-two-models", "eks", {"instanceType": ["g6.xlarge", "g5.xlarge"], "provisioner": "karpenter"},
     "instanceType[1]", "has 1 x a10g"),
    ("list-of-two-counts", "eks", {"instanceType": ["g6.xlarge", "g6.12xlarge"], "provisioner": "karpenter"},
     "instanceType[1]", "one GPU model and count"),
    ("list-with-a-typo", "eks", {"instanceType": ["g6.xlarge", "g6.xlarg"], "provisioner": "karpenter"},
     "instanceType[1]", "did you mean g6.xlarge"),
    ("elastic-fractional", "eks", {"instanceType": "g6f.xlarge", "provisioner": "karpenter"},
     "instanceType", "a fractional-GPU type is for fixed node pools"),
    ("list-whole-and-fractional", "eks", {"instanceType": ["g6.xlarge", "g6f.large"], "provisioner": "karpenter"},
     "instanceType[1]", "has 1 x l4 (0.125 of a GPU each)"),
    ("list-twice", "eks", {"instanceType": ["g6.xlarge", "g6.xlarge"], "provisioner": "karpenter"},
     "instanceType[1]", "is named twice"),
    ("neither-type-nor-requirements", "eks", {"provisioner": "karpenter"}, "instanceType",
     "or give gpuRequirements"),
    ("requirements-on-fixed", "eks", {"gpuRequirements": {"model": "l4", "count": 1}, "minSize": 0},
     "gpuRequirements", "a fixed node pool names its instance type"),
    ("requirements-and-type", "eks", {"gpuRequirements": {"model": "l4", "count": 1}, "instanceType": "g6.xlarge",
                                      "provisioner": "karpenter"}, "instanceType", "cannot be given with"),
    ("requirements-model-not-on-cloud", "aks", {"gpuRequirements": {"model": "l4", "count": 1},
                                                "provisioner": "nap"}, "gpuRequirements.model",
     "no aks instance type in gpuready's catalog has it"),
    ("requirements-count-not-offered", "eks", {"gpuRequirements": {"model": "l4", "count": 3},
                                               "provisioner": "karpenter"}, "gpuRequirements.count",
     "Allowed: 1, 4, 8"),
    ("requirements-unknown-model", "eks", {"gpuRequirements": {"model": "l5", "count": 1},
                                           "provisioner": "karpenter"}, "gpuRequirements.model", "unknown GPU model"),
    ("requirements-mig-on-a-model-without", "eks", {"gpuRequirements": {"model": "l4", "count": 1},
                                                    "provisioner": "karpenter", "sharing": {"mode": "mig",
                                                                                            "profile": "1g.10gb"}},
     "sharing.mode", "does not support MIG"),
    ("gpu-limit-below-a-node", "eks", {"instanceType": "g6.12xlarge", "provisioner": "karpenter", "gpuLimit": 2},
     "gpuLimit", "is below one node's GPUs (4)"),
    ("gpu-limit-above-max-size", "eks", {"instanceType": "g6.xlarge", "provisioner": "karpenter", "gpuLimit": 9},
     "gpuLimit", "raise maxSize to at least 9"),
    ("gpu-limit-on-fixed", "aks", {"instanceType": "Standard_NC4as_T4_v3", "minSize": 0, "gpuLimit": 2},
     "gpuLimit", "a fixed node pool's GPUs are bounded by maxSize"),
    ("gpu-limit-on-compute-class", "gke", {"instanceType": "g2-standard-4", "provisioner": "compute-class",
                                           "gpuLimit": 2}, "gpuLimit", "a ComputeClass has no limit field"),
    ("elastic-name-is-dns", "eks", {"instanceType": "g6.xlarge", "provisioner": "karpenter", "name": "GPU_pool"},
     "name", "names the NodePool"),
]  # fmt: skip


def _entry(given: dict[str, Any]) -> dict[str, Any]:
    return {"name": "gpu", "maxSize": 2, **given}


@pytest.mark.parametrize(("cloud", "entry", "wanted"), [c[1:] for c in ACCEPTED], ids=[c[0] for c in ACCEPTED])
def test_accepted(cloud: Cloud, entry: dict[str, Any], wanted: tuple[str, int, int]) -> None:
    (spec,) = parse_pools([_entry(entry)], cloud)
    assert (spec.resolved.gpu.model.key, spec.resolved.gpu.gpus, spec.min_size) == wanted


@pytest.mark.parametrize(("cloud", "entry", "path", "text"), [c[1:] for c in REFUSED], ids=[c[0] for c in REFUSED])
def test_refused(cloud: Cloud, entry: dict[str, Any], path: str, text: str) -> None:
    with pytest.raises(ConfigError) as raised:
        parse_pools([_entry(entry)], cloud)
    assert any(p.path == f"nodePools[0].{path}" and text in str(p) for p in raised.value.problems), raised.value


def test_a_long_elastic_name_is_not_held_to_the_node_pool_limit() -> None:
    """AKS node pools: at most 12 characters; a NodePool is a Kubernetes object (253, DNS subdomain)."""
    (spec,) = parse_pools([_entry({"name": "a-long-elastic-pool-name", "instanceType": "Standard_NC4as_T4_v3",
                                   "provisioner": "nap"})], "aks")  # fmt: skip
    assert spec.name == "a-long-elastic-pool-name"
    with pytest.raises(ConfigError, match="not a valid AKS node pool name"):
        parse_pools([_entry({"name": "a-long-fixed-pool-name", "instanceType": "Standard_NC4as_T4_v3",
                             "minSize": 0})], "aks")  # fmt: skip


def test_a_missing_min_size_does_not_hide_other_problems() -> None:
    with pytest.raises(ConfigError) as raised:
        parse_pools([_entry({"instanceType": "g6.xlarge", "capacity": "spto"})], "eks")
    paths = [p.path for p in raised.value.problems]
    assert paths == ["nodePools[0].minSize", "nodePools[0].capacity"]


def test_broken_gpu_requirements_do_not_say_the_instance_type_is_missing() -> None:
    with pytest.raises(ConfigError) as raised:
        parse_pools([_entry({"gpuRequirements": {"model": "l4"}, "provisioner": "karpenter", "minSize": 1})], "eks")
    assert [(p.path, p.problem) for p in raised.value.problems] == [
        ("nodePools[0].gpuRequirements.count", "is required"),
        ("nodePools[0].minSize", "must be 0 for an elastic pool (karpenter makes nodes on demand)"),
    ]


@pytest.mark.parametrize(("model", "count"), [("l4", 1), ("l4", 8), ("rtxpro6000", 2), ("b300", 8)])
def test_gpu_requirements_select_whole_gpus_only(model: str, count: int) -> None:
    """Fractional types (EC2 G6f: a share of one L4) never satisfy a request for whole GPUs."""
    (spec,) = parse_pools(
        [{"name": "p", "gpuRequirements": {"model": model, "count": count}, "provisioner": "karpenter", "maxSize": 2}],
        "eks",
    )
    chosen = gpu_choice.instance_types(spec)
    table = cloud_profile("eks").instance_types
    assert chosen
    assert all(table[name].gpu_fraction == 1.0 and table[name].gpus == count for name in chosen)
    assert not any(name.startswith(("g6f.", "gr6f.")) for name in chosen)
