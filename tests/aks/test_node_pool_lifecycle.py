"""``AksGpuNodePool`` lifecycle under the mock runtime: creation-only count, replacements that never delete first."""

from __future__ import annotations

from gpuready.aks.node_pool import AksGpuNodePool, AksGpuNodePoolArgs
from gpuready.core.specs import GpuPoolSpec, MigPartitioning
from tests.pulumi_mocks import CapturingMonitor, runtime_test

AGENT_POOL = "azure-native:containerservice:AgentPool"
REPLACED_ON_CHANGE = ["agentPoolName", "gpuProfile", "resourceGroupName", "resourceName", "vmSize"]
"""The provider's own replacements (path parameters, vmSize) made explicit, and gpuProfile, which AKS refuses to
change in place (use-nvidia-gpu.md) while the provider would try to update it."""
TEMPLATE = "k8s.io_cluster-autoscaler_node-template"


def build(spec: GpuPoolSpec, subnet: str | None = None) -> None:
    @runtime_test
    def program() -> None:
        args = AksGpuNodePoolArgs(
            pool=spec, resource_group_name="rg", cluster_name="aks", vnet_subnet_id=subnet, tags={"stack": "tag"}
        )
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


def test_a_mig_pool_is_replaced_when_its_profile_changes(mocked: CapturingMonitor) -> None:
    spec = GpuPoolSpec(
        cloud="aks",
        name="a100",
        instance_type="Standard_NC24ads_A100_v4",
        min_size=0,
        max_size=2,
        sharing=MigPartitioning(profile="1g.10gb", strategy="mixed"),
    )
    build(spec)
    replaced = mocked.one(AGENT_POOL).options["replaceOnChanges"]
    assert replaced == sorted([*REPLACED_ON_CHANGE, "gpuInstanceProfile"])


def test_scale_set_tags_describe_the_nodes_for_scale_from_zero(mocked: CapturingMonitor) -> None:
    spec = GpuPoolSpec(
        cloud="aks",
        name="a100",
        instance_type="Standard_NC24ads_A100_v4",
        min_size=0,
        max_size=2,
        capacity="spot",
        sharing=MigPartitioning(profile="1g.10gb", strategy="mixed"),
        labels={"example.com/team_name": "ml"},
    )
    build(spec)
    tags = mocked.one(AGENT_POOL).inputs["tags"]
    template = {k.removeprefix(f"{TEMPLATE}_"): v for k, v in tags.items() if k.startswith(TEMPLATE)}
    assert template["label_gpuready.io_pool"] == "a100"
    assert template["label_example.com_team~2name"] == "ml"  # '/' is '_', '_' is '~2'
    assert template["taint_nvidia.com_gpu"] == "present:NoSchedule"
    assert template["taint_kubernetes.azure.com_scalesetpriority"] == "spot:NoSchedule"
    assert template["resources_nvidia.com_mig-1g.10gb"] == "7"
    assert all("/" not in key for key in tags)  # Azure tag names cannot hold '/'
    assert tags["stack"] == "tag"  # the stack's own tags stay
