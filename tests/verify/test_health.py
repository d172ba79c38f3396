"""Health findings of one node: conditions, reasons, XIDs, unhealthy devices, driver upgrade states."""

from __future__ import annotations

import pytest

from gpuready.core.health.conditions import HEALTH_CONDITIONS, condition_reason
from gpuready.core.health.driver_upgrade import DRIVER_UPGRADE_STATES
from gpuready.core.health.xid import XIDS, describe_xid, xid_in
from gpuready.eks.health_conditions import FATAL_XIDS as EKS_FATAL_XIDS
from gpuready.eks.health_conditions import GPU_REASONS as EKS_GPU_REASONS
from gpuready.verify.checks import check_node
from gpuready.verify.expectations import expectation_for
from gpuready.verify.nodes import ReportedCondition, node_view
from tests.core.conftest import build_spec
from tests.golden.health_nodes import condition
from tests.kube_standin import make_node
from tests.verify.conftest import L4_POOL_LABELS

L4_POOL = expectation_for(build_spec("eks"))


def node(*conditions: dict[str, str], labels: dict[str, str] | None = None, allocatable: str = "1") -> list[str]:
    raw = make_node("gpu-1", instance_type="g6.xlarge", labels={**L4_POOL_LABELS, **(labels or {})},
                    taints=["nvidia.com/gpu=present:NoSchedule"], capacity={"nvidia.com/gpu": "1"})  # fmt: skip
    raw["status"]["allocatable"]["nvidia.com/gpu"] = allocatable
    raw["status"]["conditions"].extend(conditions)
    return [f"{x.severity} {x.code}" for x in check_node(node_view(raw), L4_POOL)]


@pytest.mark.parametrize(("kind", "status", "expected"), [
    ("AcceleratedHardwareReady", "False", ["error gpu-unhealthy"]),
    ("AcceleratedHardwareReady", "True", []),
    ("KernelReady", "False", ["error node-unhealthy"]),
    ("GPUMissing", "True", ["error gpu-unhealthy"]),
    ("GPUMissing", "False", []),
    ("GPUClockThrottling", "True", ["warning gpu-unhealthy"]),
    ("SysLogsGPUFallenOff", "True", ["error gpu-unhealthy"]),
    ("GpuThermalWatch", "True", ["warning gpu-unhealthy"]),
    ("SomeoneElsesCondition", "True", []),
])  # fmt: skip
def test_conditions_in_their_problem_status_are_findings(kind: str, status: str, expected: list[str]) -> None:
    assert node(condition(kind, status, "R")) == expected


@pytest.mark.parametrize(("reason", "expected"), [
    ("NvidiaXID79Error", ["error gpu-unhealthy"]),
    ("NvidiaXID13Warning", ["warning gpu-unhealthy"]),  # an event-only reason
    ("NvidiaPCIeError", ["warning gpu-unhealthy"]),
    ("DCGMError", ["error gpu-unhealthy"]),
])  # fmt: skip
def test_eks_reasons_set_the_severity(reason: str, expected: list[str]) -> None:
    assert node(condition("AcceleratedHardwareReady", "False", reason)) == expected


@pytest.mark.parametrize(("state", "expected"), [
    ("upgrade-done", []),
    ("upgrade-required", ["warning driver-upgrade-queued"]),
    ("drain-required", ["error driver-upgrade-active"]),
    ("validation-required", ["error driver-upgrade-active"]),
    ("upgrade-failed", ["error driver-upgrade-failed"]),
    ("", []),
])  # fmt: skip
def test_driver_upgrade_states(state: str, expected: list[str]) -> None:
    assert node(labels={"nvidia.com/gpu-driver-upgrade-state": state}) == expected


def test_withdrawn_devices_are_one_finding() -> None:
    assert node(allocatable="0") == ["error gpu-devices-unhealthy"]


@pytest.mark.parametrize(("text", "code"), [
    ("NvidiaXID79Error", 79), ("XIDErrors", None), ("Xid 48 seen", 48), ("xid_119", 119), ("DCGMError", None),
])  # fmt: skip
def test_xid_in_reasons_and_messages(text: str, code: int | None) -> None:
    assert xid_in(text) == code


def test_xid_descriptions() -> None:
    assert describe_xid(79).startswith("XID 79 (GPU has fallen off the bus; NVIDIA:")
    assert "not in gpuready's table" in describe_xid(999)
    # aws/eks-node-monitoring-agent v1.7.0 monitors/nvidia/dcgm/dcgm_policies.go L98
    assert EKS_FATAL_XIDS == (46, 48, 54, 62, 63, 64, 74, 79, 95, 109, 110, 119, 120, 136, 140, 142, 143, 151, 155,
                              156, 158)  # fmt: skip
    assert set(EKS_FATAL_XIDS) <= set(XIDS)


def test_every_reason_pattern_matches_its_own_spelling() -> None:
    gpus = HEALTH_CONDITIONS["AcceleratedHardwareReady"]
    for fact in EKS_GPU_REASONS:
        assert condition_reason(gpus, fact.pattern.replace("[Code]", "7")) == fact
    assert condition_reason(gpus, "SomethingNew") is None
    assert condition_reason(HEALTH_CONDITIONS["GPUMissing"], "NvidiaXID79Error") is None  # NPD lists no reasons


def test_the_table_knows_each_reporter_and_the_problem_status_fits_the_name() -> None:
    for kind, fact in HEALTH_CONDITIONS.items():
        assert fact.problem_status == ("False" if kind.endswith("Ready") else "True"), kind
    assert set(DRIVER_UPGRADE_STATES) >= {"upgrade-done", "upgrade-failed", "upgrade-required"}


def test_health_conditions_are_kept_on_the_view_and_others_dropped() -> None:
    raw = make_node("gpu-1")
    raw["status"]["conditions"] += [condition("GPUMissing", "True", "R", "m"), condition("Other", "True")]
    assert node_view(raw).health == (ReportedCondition("GPUMissing", "True", "R", "m"),)
