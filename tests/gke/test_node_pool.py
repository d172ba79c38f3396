"""``GkeGpuNodePool`` under Pulumi's mock runtime: the exact NodePool inputs, parentage and outputs.

Inputs are compared as the engine receives them: camelCase wire names (``nodeConfig.guestAccelerators``,
``gpuDriverInstallationConfig.gpuDriverVersion``), every number a float.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from gpuready.core.specs import GpuPoolSpec, GpuSharing, MigPartitioning
from gpuready.core.taints import Taint
from gpuready.errors import SpecError
from gpuready.gke.node_pool import GkeGpuNodePool, GkeGpuNodePoolArgs
from tests.pulumi_mocks import CapturingMonitor, rotated, runtime_test

COMPONENT = "gpuready:index:GkeGpuNodePool"
NODE_POOL = "gcp:container/nodePool:NodePool"
SCOPES = ["https://www.googleapis.com/auth/cloud-platform"]
GPU_TAINT = {"key": "nvidia.com/gpu", "value": "present", "effect": "NO_SCHEDULE"}
GPU_TOLERATION = {"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}
SERVICE_ACCOUNT = "gpu-nodes@ml-project.iam.gserviceaccount.com"


def build(
    spec: GpuPoolSpec,
    *,
    name: str = "gpu",
    location: str = "us-central1",
    node_locations: Sequence[str] | None = None,
    service_account: str | None = None,
    resource_labels: dict[str, str] | None = None,
) -> None:
    """Run a program that creates one pool, and wait for every registration."""

    @runtime_test
    def program() -> None:
        GkeGpuNodePool(
            name,
            GkeGpuNodePoolArgs(
                pool=spec,
                cluster_name="ml-cluster",
                location=location,
                node_locations=node_locations,
                service_account=service_account,
                resource_labels=resource_labels or {},
            ),
        )

    program()


def base_labels(pool: str, accelerator: str, sharing: str) -> dict[str, str]:
    return {
        "gpuready.io/pool": pool,
        "gpuready.io/gpu-pool": "true",
        "nvidia.com/gpu.present": "true",
        "gpuready.io/accelerator": accelerator,
        "skypilot.co/accelerator": accelerator,
        "gpuready.io/sharing": sharing,
    }


def pool_level(
    name: str, *, initial: float, min_size: float, max_size: float, policy: str = "BALANCED"
) -> dict[str, Any]:
    return {
        "cluster": "ml-cluster",
        "name": rotated(name),
        "initialNodeCount": initial,
        "autoscaling": {"totalMinNodeCount": min_size, "totalMaxNodeCount": max_size, "locationPolicy": policy},
        "management": {"autoRepair": True, "autoUpgrade": True},
        "upgradeSettings": {"strategy": "SURGE", "maxSurge": 0.0, "maxUnavailable": 1.0},
    }


def test_l4_time_sharing_by_gke_with_full_wiring(mocked: CapturingMonitor) -> None:
    spec = GpuPoolSpec(
        cloud="gke",
        name="l4-shared",
        instance_type="g2-standard-24",
        min_size=0,
        max_size=4,
        desired_size=2,
        capacity="spot",
        driver_version="latest",
        sharing=GpuSharing(mode="time-slicing", replicas=4),
        taints=(Taint(key="example.com/dedicated", value="inference", effect="PreferNoSchedule"),),
    )
    build(
        spec,
        name="inference",
        node_locations=["us-central1-a", "us-central1-b"],
        service_account=SERVICE_ACCOUNT,
        resource_labels={"team": "ml"},
    )

    component = mocked.one(COMPONENT)
    node_pool = mocked.one(NODE_POOL)
    assert node_pool.inputs == {
        **pool_level("l4-shared", initial=1.0, min_size=0.0, max_size=4.0, policy="ANY"),
        "location": "us-central1",
        "nodeLocations": ["us-central1-a", "us-central1-b"],
        "nodeConfig": {
            "machineType": "g2-standard-24",
            "imageType": "COS_CONTAINERD",
            "spot": True,
            "guestAccelerators": [
                {
                    "type": "nvidia-l4",
                    "count": 2.0,
                    "gpuDriverInstallationConfig": {"gpuDriverVersion": "LATEST"},
                    "gpuSharingConfig": {"gpuSharingStrategy": "TIME_SHARING", "maxSharedClientsPerGpu": 4.0},
                }
            ],
            "labels": base_labels("l4-shared", "l4", "time-slicing"),
            "taints": [
                GPU_TAINT,
                {"key": "example.com/dedicated", "value": "inference", "effect": "PREFER_NO_SCHEDULE"},
            ],
            "oauthScopes": SCOPES,
            "serviceAccount": SERVICE_ACCOUNT,
            "resourceLabels": {"team": "ml"},
        },
    }
    assert (component.name, node_pool.name) == ("inference", "inference-node-pool")
    assert node_pool.parent == component.urn
    assert node_pool.custom and not component.custom
    outputs = mocked.outputs_of(component)
    assert outputs["node_pool_name"] == rotated("l4-shared")
    assert outputs["node_selector"] == {"gpuready.io/pool": "l4-shared"}
    assert outputs["taint"] == {"key": "nvidia.com/gpu", "value": "present", "effect": "NoSchedule"}
    assert outputs["tolerations"] == [
        GPU_TOLERATION,
        {"key": "example.com/dedicated", "operator": "Exists", "effect": "PreferNoSchedule"},
    ]
    assert outputs["resource_name"] == "nvidia.com/gpu"
    assert outputs["allocatable"] == {"nvidia.com/gpu": 8.0}
    assert outputs["gpus_per_node"] == 2.0
    assert outputs["accelerator"] == "l4"


def test_a100_mig_partition_by_gke(mocked: CapturingMonitor) -> None:
    spec = GpuPoolSpec(
        cloud="gke",
        name="a100-mig",
        instance_type="a2-highgpu-1g",
        min_size=1,
        max_size=2,
        sharing=MigPartitioning(profile="1g.5gb"),
    )
    build(spec, location="us-central1-c")

    node_pool = mocked.one(NODE_POOL)
    assert node_pool.inputs == {
        **pool_level("a100-mig", initial=1.0, min_size=1.0, max_size=2.0),
        "location": "us-central1-c",
        "nodeConfig": {
            "machineType": "a2-highgpu-1g",
            "imageType": "COS_CONTAINERD",
            "spot": False,
            "guestAccelerators": [
                {
                    "type": "nvidia-tesla-a100",
                    "count": 1.0,
                    "gpuDriverInstallationConfig": {"gpuDriverVersion": "DEFAULT"},
                    "gpuPartitionSize": "1g.5gb",
                }
            ],
            "labels": base_labels("a100-mig", "a100", "mig"),
            "taints": [GPU_TAINT],
            "oauthScopes": SCOPES,
        },
    }
    outputs = mocked.outputs_of(mocked.one(COMPONENT))
    assert outputs["allocatable"] == {"nvidia.com/gpu": 7.0}
    assert (outputs["gpus_per_node"], outputs["accelerator"], outputs["resource_name"]) == (
        1.0,
        "a100",
        "nvidia.com/gpu",
    )


def test_h100_operator_on_ubuntu_disables_gke_driver_and_device_plugin(mocked: CapturingMonitor) -> None:
    spec = GpuPoolSpec(
        cloud="gke",
        name="h100-op",
        instance_type="a3-highgpu-8g",
        min_size=0,
        max_size=2,
        image="ubuntu",
        driver="operator",
    )
    build(spec, location="us-central1-a")

    node_pool = mocked.one(NODE_POOL)
    assert node_pool.inputs == {
        **pool_level("h100-op", initial=0.0, min_size=0.0, max_size=2.0),
        "location": "us-central1-a",
        "nodeConfig": {
            "machineType": "a3-highgpu-8g",
            "imageType": "UBUNTU_CONTAINERD",
            "spot": False,
            "guestAccelerators": [
                {
                    "type": "nvidia-h100-80gb",
                    "count": 8.0,
                    "gpuDriverInstallationConfig": {"gpuDriverVersion": "INSTALLATION_DISABLED"},
                }
            ],
            "labels": {**base_labels("h100-op", "h100", "none"), "gke-no-default-nvidia-gpu-device-plugin": "true"},
            "taints": [GPU_TAINT],
            "oauthScopes": SCOPES,
        },
    }
    outputs = mocked.outputs_of(mocked.one(COMPONENT))
    assert outputs["allocatable"] == {"nvidia.com/gpu": 8.0}
    assert (outputs["gpus_per_node"], outputs["accelerator"]) == (8.0, "h100")


def test_an_eks_spec_is_refused_before_anything_registers(mocked: CapturingMonitor) -> None:
    spec = GpuPoolSpec(cloud="eks", name="l4", instance_type="g6.xlarge", min_size=0, max_size=1)

    @runtime_test
    def program() -> None:
        with pytest.raises(SpecError, match=r"^pool\.cloud: "):
            GkeGpuNodePool("gpu", GkeGpuNodePoolArgs(pool=spec, cluster_name="c", location="us-central1"))

    program()
    assert mocked.registrations == []
