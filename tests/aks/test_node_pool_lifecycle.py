"""``AksGpuNodePool`` lifecycle under the mock runtime: creation-only count, replacements that never delete first."""

from __future__ import annotations

from components.aks.node_pool import AksGpuNodePool, AksGpuNodePoolArgs
from components.core.specs import GpuPoolSpec
from tests.pulumi_mocks import CapturingMonitor, runtime_test

AGENT_POOL = "azure-native:containerservice:AgentPool"
REPLACED_ON_CHANGE = [
    "agentPoolName",
    "gpuProfile",
    "osSKU",
    "osType",
    "resourceGroupName",
    "resourceName",
    "type",
    "vmSize",
]


def build(spec: GpuPoolSpec, subnet: str | None = None) -> None:
    @runtime_test
    def program() -> None:
        args = AksGpuNodePoolArgs(pool=spec, resource_group_name="rg", cluster_name="aks", vnet_subnet_id=subnet)
        AksGpuNodePool("gpu", args)

    program()


def test_autoscaled_pool_reads_count_at_creation_only(mocked: CapturingMonitor) -> None:
    build(GpuPoolSpec(cloud="aks", name="t4", instance_type="Standard_NC4as_T4_v3", min_size=0, max_size=3))
    pool = mocked.one(AGENT_POOL)
    assert pool.inputs["agentPoolName"] == "t4"  # AKS names (12 characters at most) never rotate
    options = {k: v for k, v in pool.options.items() if k != "aliases"}  # the SDK aliases old API versions
    assert options == {
        "ignoreChanges": ["count"],
        "replaceOnChanges": REPLACED_ON_CHANGE,
        "deleteBeforeReplace": False,
    }


def test_fixed_size_pool_keeps_count_managed(mocked: CapturingMonitor) -> None:
    build(GpuPoolSpec(cloud="aks", name="t4", instance_type="Standard_NC4as_T4_v3", min_size=2, max_size=2))
    options = mocked.one(AGENT_POOL).options
    assert "ignoreChanges" not in options
    assert options["deleteBeforeReplace"] is False


def test_spot_mig_and_subnet_inputs_are_replaced_on_change(mocked: CapturingMonitor) -> None:
    spec = GpuPoolSpec(
        cloud="aks", name="a100", instance_type="Standard_NC24ads_A100_v4", min_size=0, max_size=2, capacity="spot"
    )
    build(spec, subnet="/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/virtualNetworks/v/subnets/a")
    replaced = mocked.one(AGENT_POOL).options["replaceOnChanges"]
    assert {"scaleSetPriority", "scaleSetEvictionPolicy", "vnetSubnetID"} <= set(replaced)
    assert "spotMaxPrice" not in replaced  # updatable in place
