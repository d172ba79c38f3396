"""The workload helper's fabric part and the scale path on fabric pools: a whole-node job on an EFA pool requests
all of a node's EFA interfaces, huge pages and NCCL's environment; the autoscalers know the pool makes them
(Karpenter's well-known resource, the cluster autoscaler's node-template tags)."""

from __future__ import annotations

from typing import Any

import pytest

from gpuready.core import lifecycle, pool_config
from gpuready.core.scale_path.model import DEFAULT_CLUSTER
from gpuready.core.scale_path.verdict import pool_verdict
from gpuready.core.specs import GpuPoolSpec
from gpuready.core.workload import gpu_workload

EFA = "vpc.amazonaws.com/efa"


def _pool(**extra: Any) -> GpuPoolSpec:
    entry = {"name": "train", "instanceType": "p5.48xlarge", "minSize": 0, "maxSize": 2, "fabric": "efa",
             "zones": ["us-east-1a"], **extra}  # fmt: skip
    (spec,) = pool_config.parse_pools([entry], "eks")
    return spec


@pytest.mark.parametrize(("gpus", "devices"), [(8, 32), (4, 16), (1, 4)])
def test_efa_devices_in_proportion_to_the_gpus_all_for_a_whole_node(gpus: int, devices: int) -> None:
    container = gpu_workload(_pool(), gpus).container({"name": "train"})
    for side in ("requests", "limits"):
        assert container["resources"][side] == {"nvidia.com/gpu": gpus, EFA: devices, "hugepages-2Mi": "5120Mi"}
    assert {"name": "FI_PROVIDER", "value": "efa"} in container["env"]
    assert "FI_EFA_USE_DEVICE_RDMA" not in {e["name"] for e in container["env"]}  # not needed by current libfabric


def test_the_container_s_own_environment_and_resources_are_kept() -> None:
    given = {"name": "t", "env": [{"name": "FI_PROVIDER", "value": "tcp"}], "resources": {"requests": {"cpu": "4"}}}
    container = gpu_workload(_pool(), 8).container(given)
    assert [e for e in container["env"] if e["name"] == "FI_PROVIDER"] == [{"name": "FI_PROVIDER", "value": "tcp"}]
    assert container["resources"]["requests"]["cpu"] == "4"


def test_a_pool_without_fabric_gets_nothing_of_it() -> None:
    (spec,) = pool_config.parse_pools([{"name": "l4", "instanceType": "g6.xlarge", "minSize": 0, "maxSize": 2}], "eks")
    workload = gpu_workload(spec, 1)
    assert workload.fabric_resources() == {} and workload.pod_annotations() == {}
    assert "env" not in workload.container({"name": "c"})


@pytest.mark.parametrize("extra", [{}, {"provisioner": "karpenter", "minSize": None}])
def test_efa_pools_scale_for_pods_that_request_efa(extra: dict[str, Any]) -> None:
    verdict = pool_verdict(_pool(**extra), DEFAULT_CLUSTER)
    assert verdict.text.startswith("yes"), verdict.text


def test_scale_from_zero_tags_carry_the_efa_devices() -> None:
    assert ("resources", EFA, "32") in lifecycle.node_template(_pool())
