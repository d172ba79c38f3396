"""``AksGpuNodePool`` under Pulumi's mock runtime: the exact AgentPool inputs, parentage and outputs.

Inputs are compared as the engine receives them: camelCase wire names (``osSKU``, ``vnetSubnetID``,
``resourceName`` for the SDK's ``resource_name_``), every number a float.
"""

from __future__ import annotations

from typing import Any

import pytest
from pulumi.runtime import mocks as pulumi_mocks

from gpuready.aks import lifecycle
from gpuready.aks.node_pool import AksGpuNodePool, AksGpuNodePoolArgs
from gpuready.core.specs import GpuPoolSpec, MigPartitioning
from gpuready.errors import SpecError
from tests.pulumi_mocks import CapturingMonitor, RecordingMocks, install_mocks, runtime_test

COMPONENT = "gpuready:index:AksGpuNodePool"
AGENT_POOL = "azure-native:containerservice:AgentPool"
GPU_TAINT = "nvidia.com/gpu=present:NoSchedule"
SPOT_TAINT = "kubernetes.azure.com/scalesetpriority=spot:NoSchedule"
GPU_TOLERATION = {"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}
SUBNET = "/subscriptions/0000/resourceGroups/rg-net/providers/Microsoft.Network/virtualNetworks/vnet/subnets/gpu"


def build(
    spec: GpuPoolSpec, *, name: str = "gpu", vnet_subnet_id: str | None = None, tags: dict[str, str] | None = None
) -> None:
    """Run a program that creates one pool, and wait for every registration."""

    @runtime_test
    def program() -> None:
        AksGpuNodePool(
            name,
            AksGpuNodePoolArgs(
                pool=spec,
                resource_group_name="rg-ml",
                cluster_name="aks-ml",
                vnet_subnet_id=vnet_subnet_id,
                tags=tags or {},
            ),
        )

    program()


def common(spec: GpuPoolSpec, vm_size: str, *, tags: dict[str, str] | None = None) -> dict[str, Any]:
    """Inputs every pool has; its tags are the stack's plus the scale-from-zero ones (test_node_pool_lifecycle)."""
    pool = spec.name
    return {
        "resourceGroupName": "rg-ml",
        "resourceName": "aks-ml",
        "tags": {**(tags or {}), **lifecycle.autoscaler_tags(spec)},
        "agentPoolName": pool,
        "vmSize": vm_size,
        "mode": "User",
        "osType": "Linux",
        "type": "VirtualMachineScaleSets",
    }


NO_SURGE = {"maxSurge": "0", "maxUnavailable": "1"}
"""AKS's default surge is 10% extra VMs: spare GPUs; gpuready's default takes one node down at a time instead."""


def base_labels(pool: str, accelerator: str, sharing: str) -> dict[str, str]:
    return {
        "gpuready.io/pool": pool,
        "gpuready.io/gpu-pool": "true",
        "nvidia.com/gpu.present": "true",
        "gpuready.io/accelerator": accelerator,
        "skypilot.co/accelerator": accelerator,
        "gpuready.io/sharing": sharing,
    }


def test_a100_80gb_mig1g_partitioned_by_aks(mocked: CapturingMonitor) -> None:
    spec = GpuPoolSpec(
        cloud="aks",
        name="a100mig",
        instance_type="Standard_NC24ads_A100_v4",
        min_size=1,
        max_size=1,
        sharing=MigPartitioning(profile="1g.10gb"),
    )
    build(spec, name="inference", tags={"team": "ml"})

    component = mocked.one(COMPONENT)
    agent_pool = mocked.one(AGENT_POOL)
    assert agent_pool.inputs == {
        **common(spec, "Standard_NC24ads_A100_v4", tags={"team": "ml"}),
        "osSKU": "Ubuntu",
        "count": 1.0,
        "enableAutoScaling": False,
        "gpuInstanceProfile": "MIG1g",
        "gpuProfile": {"driver": "Install"},
        "upgradeSettings": NO_SURGE,
        "nodeLabels": base_labels("a100mig", "a100-80gb", "mig"),
        "nodeTaints": [GPU_TAINT],
    }
    assert (component.name, agent_pool.name) == ("inference", "inference-agent-pool")
    assert agent_pool.parent == component.urn
    assert agent_pool.custom and not component.custom
    outputs = mocked.outputs_of(component)
    assert outputs["node_selector"] == {"gpuready.io/pool": "a100mig"}
    assert outputs["taint"] == {"key": "nvidia.com/gpu", "value": "present", "effect": "NoSchedule"}
    assert outputs["tolerations"] == [GPU_TOLERATION]
    assert outputs["resource_name"] == "nvidia.com/gpu"
    assert outputs["allocatable"] == {"nvidia.com/gpu": 7.0}
    assert outputs["gpus_per_node"] == 1.0
    assert outputs["accelerator"] == "a100-80gb"


def test_h100_operator_driver_selects_the_mig_parted_config(mocked: CapturingMonitor) -> None:
    spec = GpuPoolSpec(
        cloud="aks",
        name="h100op",
        instance_type="Standard_ND96isr_H100_v5",
        min_size=0,
        max_size=2,
        driver="operator",
        sharing=MigPartitioning(profile="3g.40gb"),
    )
    build(spec)

    agent_pool = mocked.one(AGENT_POOL)
    assert agent_pool.inputs == {
        **common(spec, "Standard_ND96isr_H100_v5"),
        "osSKU": "Ubuntu",
        "count": 0.0,
        "enableAutoScaling": True,
        "minCount": 0.0,
        "maxCount": 2.0,
        "gpuProfile": {"driver": "None"},
        "upgradeSettings": NO_SURGE,
        "nodeLabels": {**base_labels("h100op", "h100", "mig"), "nvidia.com/mig.config": "all-3g.40gb"},
        "nodeTaints": [GPU_TAINT],
    }
    outputs = mocked.outputs_of(mocked.one(COMPONENT))
    assert outputs["allocatable"] == {"nvidia.com/gpu": 16.0}
    assert (outputs["gpus_per_node"], outputs["accelerator"], outputs["resource_name"]) == (
        8.0,
        "h100",
        "nvidia.com/gpu",
    )


def test_spot_pool_declares_the_spot_taint_and_eviction_policy(mocked: CapturingMonitor) -> None:
    spec = GpuPoolSpec(
        cloud="aks",
        name="t4spot",
        instance_type="Standard_NC4as_T4_v3",
        min_size=0,
        max_size=3,
        capacity="spot",
        image="azurelinux",
    )
    build(spec, vnet_subnet_id=SUBNET, tags={"cost-center": "42"})

    agent_pool = mocked.one(AGENT_POOL)
    assert agent_pool.inputs == {
        **common(spec, "Standard_NC4as_T4_v3", tags={"cost-center": "42"}),
        "vnetSubnetID": SUBNET,
        "osSKU": "AzureLinux",
        "count": 0.0,
        "enableAutoScaling": True,
        "minCount": 0.0,
        "maxCount": 3.0,
        "gpuProfile": {"driver": "Install"},
        "upgradeSettings": NO_SURGE,
        "scaleSetPriority": "Spot",
        "scaleSetEvictionPolicy": "Delete",
        "spotMaxPrice": -1.0,
        "nodeLabels": base_labels("t4spot", "t4", "none"),
        "nodeTaints": [GPU_TAINT, SPOT_TAINT],
    }
    outputs = mocked.outputs_of(mocked.one(COMPONENT))
    assert outputs["tolerations"] == [
        GPU_TOLERATION,
        {"key": "kubernetes.azure.com/scalesetpriority", "operator": "Exists", "effect": "NoSchedule"},
    ]
    assert outputs["allocatable"] == {"nvidia.com/gpu": 1.0}
    assert (outputs["gpus_per_node"], outputs["accelerator"]) == (1.0, "t4")


def test_a_gke_spec_is_refused_before_anything_registers(mocked: CapturingMonitor) -> None:
    spec = GpuPoolSpec(cloud="gke", name="l4", instance_type="g2-standard-8", min_size=0, max_size=1)

    @runtime_test
    def program() -> None:
        with pytest.raises(SpecError, match=r"^pool\.cloud: "):
            AksGpuNodePool("gpu", AksGpuNodePoolArgs(pool=spec, resource_group_name="rg", cluster_name="aks"))

    program()
    assert mocked.registrations == []


class AzureLikeMocks(RecordingMocks):
    """Like the provider, report an agent pool's ``name`` output as its ``agentPoolName``."""

    def new_resource(self, args: pulumi_mocks.MockResourceArgs) -> tuple[str | None, dict[str, Any]]:
        id_, state = super().new_resource(args)
        if args.typ == AGENT_POOL:
            state["name"] = args.inputs["agentPoolName"]
        return id_, state


def test_node_pool_name_is_the_agent_pools_name_output() -> None:
    monitor = install_mocks(AzureLikeMocks())
    build(GpuPoolSpec(cloud="aks", name="t4", instance_type="Standard_NC4as_T4_v3", min_size=0, max_size=1))
    assert monitor.outputs_of(monitor.one(COMPONENT))["node_pool_name"] == "t4"
