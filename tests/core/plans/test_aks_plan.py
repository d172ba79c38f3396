"""GpuPoolSpec -> azure-native containerservice.AgentPool arguments (pure plan, no Pulumi)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from gpuready.aks import plan
from gpuready.core.specs import GpuPoolSpec, GpuSharing, MigPartitioning, UpgradePolicy

SpecFactory = Callable[..., GpuPoolSpec]


@pytest.mark.parametrize(
    ("overrides", "profile"),
    [
        ({"instance_type": "Standard_ND96asr_v4", "sharing": MigPartitioning(profile="1g.5gb")}, "MIG1g"),
        ({"instance_type": "Standard_ND96asr_v4", "sharing": MigPartitioning(profile="3g.20gb")}, "MIG3g"),
        ({"instance_type": "Standard_ND96amsr_A100_v4", "sharing": MigPartitioning(profile="1g.10gb")}, "MIG1g"),
        ({"instance_type": "Standard_NC24ads_A100_v4", "sharing": MigPartitioning(profile="7g.80gb")}, "MIG7g"),
        ({"instance_type": "Standard_NC24ads_A100_v4", "sharing": MigPartitioning(profile="3g.40gb")}, "MIG3g"),
        ({"instance_type": "Standard_ND96isr_H100_v5", "sharing": MigPartitioning(profile="2g.20gb")}, "MIG2g"),
        ({"instance_type": "Standard_ND96isr_H200_v5", "sharing": MigPartitioning(profile="4g.71gb")}, "MIG4g"),
        ({"instance_type": "Standard_NC40ads_H100_v5", "sharing": MigPartitioning(profile="1g.12gb")}, "MIG1g"),
        (
            {
                "instance_type": "Standard_ND96asr_v4",
                "driver": "operator",
                "sharing": MigPartitioning(profile="1g.5gb"),
            },
            None,
        ),
        ({"instance_type": "Standard_ND96asr_v4"}, None),
        ({"instance_type": "Standard_ND96asr_v4", "sharing": GpuSharing(mode="time-slicing", replicas=2)}, None),
    ],
)
def test_gpu_instance_profile_only_when_aks_partitions(
    make_spec: SpecFactory, overrides: dict[str, Any], profile: str | None
) -> None:
    spec = make_spec("aks", **overrides)
    assert plan.gpu_instance_profile(spec) == profile
    args = plan.agent_pool_args(spec)
    assert args.get("gpu_instance_profile") == profile
    assert ("gpu_instance_profile" in args) is (profile is not None)


def test_agent_pool_args(make_spec: SpecFactory) -> None:
    spec = make_spec(
        "aks",
        name="a100",
        instance_type="standard_nd96asr_v4",
        min_size=0,
        max_size=2,
        desired_size=1,
        sharing=MigPartitioning(profile="1g.5gb"),
        labels={"example.com/team": "ml"},
    )
    assert plan.agent_pool_args(spec) == {
        "agent_pool_name": "a100",
        "vm_size": "Standard_ND96asr_v4",
        "mode": "User",
        "os_type": "Linux",
        "os_sku": "Ubuntu",
        "type": "VirtualMachineScaleSets",
        "count": 1,
        "enable_auto_scaling": True,
        "min_count": 0,
        "max_count": 2,
        "node_labels": {
            "gpuready.io/pool": "a100",
            "gpuready.io/gpu-pool": "true",
            "nvidia.com/gpu.present": "true",
            "gpuready.io/accelerator": "a100",
            "skypilot.co/accelerator": "a100",
            "gpuready.io/sharing": "mig",
            "example.com/team": "ml",
        },
        "node_taints": ["nvidia.com/gpu=present:NoSchedule"],
        "gpu_profile": {"driver": "Install"},
        "gpu_instance_profile": "MIG1g",
        "upgrade_settings": {"max_surge": "0", "max_unavailable": "1"},
    }


def test_fixed_size_pool_does_not_autoscale(make_spec: SpecFactory) -> None:
    args = plan.agent_pool_args(make_spec("aks", min_size=3, max_size=3))
    assert (args["enable_auto_scaling"], args["count"]) == (False, 3)
    assert "min_count" not in args
    assert "max_count" not in args


def test_spot_pool_gets_spot_settings_and_taint(make_spec: SpecFactory) -> None:
    args = plan.agent_pool_args(make_spec("aks", capacity="spot"))
    assert (args["scale_set_priority"], args["scale_set_eviction_policy"], args["spot_max_price"]) == (
        "Spot",
        "Delete",
        -1,
    )
    assert args["node_taints"] == [
        "nvidia.com/gpu=present:NoSchedule",
        "kubernetes.azure.com/scalesetpriority=spot:NoSchedule",
    ]


def test_on_demand_pool_has_no_spot_settings(make_spec: SpecFactory) -> None:
    args = plan.agent_pool_args(make_spec("aks"))
    assert not {"scale_set_priority", "scale_set_eviction_policy", "spot_max_price"} & set(args)


@pytest.mark.parametrize(("image", "os_sku"), [("ubuntu", "Ubuntu"), ("azurelinux", "AzureLinux")])
def test_os_sku(make_spec: SpecFactory, image: str, os_sku: str) -> None:
    assert plan.agent_pool_args(make_spec("aks", image=image))["os_sku"] == os_sku


@pytest.mark.parametrize(("driver", "gpu_driver"), [("cloud", "Install"), ("operator", "None")])
def test_gpu_driver(make_spec: SpecFactory, driver: str, gpu_driver: str) -> None:
    assert plan.agent_pool_args(make_spec("aks", driver=driver))["gpu_profile"] == {"driver": gpu_driver}


@pytest.mark.parametrize(
    ("upgrade", "settings"),
    [
        (UpgradePolicy(), {"max_surge": "0", "max_unavailable": "1"}),
        (UpgradePolicy(max_unavailable=2), {"max_surge": "0", "max_unavailable": "2"}),
        (UpgradePolicy(strategy="surge"), {"max_surge": "1", "max_unavailable": "0"}),
        (UpgradePolicy(strategy="surge", max_surge=2, max_unavailable=1), {"max_surge": "2", "max_unavailable": "1"}),
    ],
)
def test_upgrade_settings_need_no_spare_gpu_by_default(
    make_spec: SpecFactory, upgrade: UpgradePolicy, settings: dict[str, str]
) -> None:
    assert plan.agent_pool_args(make_spec("aks", upgrade=upgrade))["upgrade_settings"] == settings
