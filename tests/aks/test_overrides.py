"""AKS escape hatches: ``diskSizeGb``, ``zones`` and ``overrides`` reach the registered agent pool; the inputs AKS
cannot change are asked to replace the pool; the owned set covers the plan."""

from __future__ import annotations

from typing import Any

import pytest

from gpuready.aks import lifecycle, plan
from gpuready.core import resource_inputs
from gpuready.core.lifecycle import wire_name
from gpuready.core.specs import GpuPoolSpec
from gpuready.errors import SpecError
from tests.aks.test_node_pool import AGENT_POOL, SUBNET, build
from tests.fidelity.spec_matrix import valid_specs
from tests.pulumi_mocks import CapturingMonitor


def spec(**extra: Any) -> GpuPoolSpec:
    return GpuPoolSpec(cloud="aks", name="gpu", instance_type="Standard_NC4as_T4_v3", min_size=0, max_size=2, **extra)


def test_disk_size_zones_and_overrides_reach_the_agent_pool(mocked: CapturingMonitor) -> None:
    own_subnet = SUBNET.replace("/gpu", "/gpu-b")
    build(
        spec(
            disk_size_gb=256,
            zones=("1", "3"),
            overrides={
                "osDiskType": "Ephemeral",
                "kubeletConfig": {"podMaxPids": 4096},
                "linuxOSConfig": {"sysctls": {"netCoreSomaxconn": 4096}},
                "vnetSubnetID": own_subnet,
            },
        ),
        vnet_subnet_id=SUBNET,
    )
    registered = mocked.one(AGENT_POOL)
    inputs = registered.inputs
    assert inputs["osDiskSizeGB"] == 256.0
    assert inputs["availabilityZones"] == ["1", "3"]
    assert inputs["osDiskType"] == "Ephemeral"
    assert inputs["kubeletConfig"] == {"podMaxPids": 4096.0}
    assert inputs["linuxOSConfig"] == {"sysctls": {"netCoreSomaxconn": 4096.0}}
    assert inputs["vnetSubnetID"] == own_subnet  # the pool's own subnet wins over the stack's
    assert {"osDiskSizeGB", "availabilityZones"} <= set(registered.options["replaceOnChanges"])


def test_without_disk_size_or_zones_they_are_not_replacement_triggers(mocked: CapturingMonitor) -> None:
    build(spec())
    registered = mocked.one(AGENT_POOL)
    assert "osDiskSizeGB" not in registered.inputs
    assert not {"osDiskSizeGB", "availabilityZones"} & set(registered.options["replaceOnChanges"])


def test_owned_override_is_refused_before_anything_registers(mocked: CapturingMonitor) -> None:
    with pytest.raises(SpecError, match=r"overrides\.gpuProfile: owned by driver"):
        build(spec(overrides={"gpuProfile": {"driver": "None"}}))
    mocked.assert_nothing_registered()


def test_every_input_the_plan_sets_is_owned() -> None:
    tree = resource_inputs.load("gpuready.aks")
    specs = [*valid_specs("aks"), spec(disk_size_gb=100, zones=("1",))]
    planned = {wire_name(k, lifecycle.IRREGULAR_NAMES) for s in specs for k in plan.agent_pool_args(s)}
    assert planned - set(plan.OWNED_INPUTS) == set()
    assert resource_inputs.owned_paths_problems(plan.OWNED_INPUTS, tree) == []
