"""What gpuready sends to ``containerservice.AgentPool`` against the enums of azure-native 3.29.0.

Source: ``pulumi_azure_native/containerservice/_enums.py`` of the installed SDK (the provider schema for
API version 2025-09-01): ``GPUInstanceProfile``, ``GPUDriver``, ``OSSKU``, ``ScaleSetPriority``,
``ScaleSetEvictionPolicy``, ``AgentPoolMode``, ``AgentPoolType`` and ``OSType``. Constants are checked
directly; the emitted values are checked over every spec of ``tests/fidelity/spec_matrix.py``.
"""

from __future__ import annotations

from collections import defaultdict
from enum import Enum

import pytest
from pulumi_azure_native import containerservice

from gpuready.aks import mig as aks_mig
from gpuready.aks import plan
from gpuready.core.clouds.registry import cloud_profile
from gpuready.core.specs import DRIVER_OWNERS
from tests.fidelity.spec_matrix import valid_specs

ENUM_OF_ARG: dict[str, type[Enum]] = {
    "mode": containerservice.AgentPoolMode,
    "type": containerservice.AgentPoolType,
    "os_type": containerservice.OSType,
    "os_sku": containerservice.OSSKU,
    "gpu_instance_profile": containerservice.GPUInstanceProfile,
    "scale_set_priority": containerservice.ScaleSetPriority,
    "scale_set_eviction_policy": containerservice.ScaleSetEvictionPolicy,
}
"""``agent_pool_args`` key -> the SDK enum its value must be a member value of."""


def values(enum: type[Enum]) -> set[str]:
    return {str(member.value) for member in enum}


def test_os_skus_are_sdk_values() -> None:
    assert set(plan.OS_SKUS) == set(cloud_profile("aks").images)
    assert set(plan.OS_SKUS.values()) <= values(containerservice.OSSKU)
    assert "CBLMariner" not in plan.OS_SKUS.values()  # deprecated in the SDK enum


def test_gpu_driver_values_are_sdk_values() -> None:
    assert set(plan.GPU_DRIVER) == set(DRIVER_OWNERS)
    assert set(plan.GPU_DRIVER.values()) == values(containerservice.GPUDriver)


def test_aks_mig_profiles_are_the_sdk_gpu_instance_profiles() -> None:
    assert set(aks_mig.MIG_PROFILES) == values(containerservice.GPUInstanceProfile)


@pytest.mark.parametrize(
    ("enum", "value"),
    [
        (containerservice.AgentPoolMode, "User"),
        (containerservice.AgentPoolType, "VirtualMachineScaleSets"),
        (containerservice.OSType, "Linux"),
        (containerservice.ScaleSetPriority, "Spot"),
        (containerservice.ScaleSetEvictionPolicy, "Delete"),
    ],
    ids=lambda v: v.__name__ if isinstance(v, type) else str(v),
)
def test_fixed_values_are_sdk_values(enum: type[Enum], value: str) -> None:
    assert value in values(enum)


def test_every_emitted_enum_value_is_an_sdk_value() -> None:
    emitted: dict[str, set[str]] = defaultdict(set)
    for spec in valid_specs("aks"):
        args = plan.agent_pool_args(spec)
        for key in ENUM_OF_ARG.keys() & args.keys():
            emitted[key].add(args[key])
        emitted["gpu_profile.driver"].add(args["gpu_profile"]["driver"])
    bad = {key: found - values(ENUM_OF_ARG[key]) for key, found in emitted.items() if key in ENUM_OF_ARG}
    assert {key: found for key, found in bad.items() if found} == {}
    assert emitted["gpu_profile.driver"] <= values(containerservice.GPUDriver)
    # The matrix reaches every branch: both drivers, both OS SKUs, spot, and each MIG<N>g.
    assert emitted["gpu_profile.driver"] == {"Install", "None"}
    assert emitted["os_sku"] == set(plan.OS_SKUS.values())
    assert emitted["scale_set_priority"] == {"Spot"}
    assert emitted["scale_set_eviction_policy"] == {"Delete"}
    assert emitted["gpu_instance_profile"] == values(containerservice.GPUInstanceProfile)


def test_spot_pools_carry_the_sdk_priority_and_on_demand_pools_none() -> None:
    for spec in valid_specs("aks"):
        args = plan.agent_pool_args(spec)
        if spec.capacity == "spot":
            assert (args["scale_set_priority"], args["scale_set_eviction_policy"]) == ("Spot", "Delete")
        else:
            assert "scale_set_priority" not in args
