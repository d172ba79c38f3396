"""The GPU health policies: health agents tolerate the GPU taint, one DCGM host engine per GPU node, AKS pools
without the cloud's GPU health checks named."""

from __future__ import annotations

import json
from typing import Any

import pytest

from gpuready.core.conventions import Conventions
from gpuready.core.health.agent import HealthSpec, agent_values
from gpuready.core.health.agent_chart import AGENT_ADDON
from gpuready.core.taints import Taint
from gpuready.policy.rules import health
from gpuready.policy.rules.stack import StackResource
from tests.core.conftest import build_spec
from tests.policy.builders import AKS, RELEASE, aks, operator

ADDON = "aws:eks/addon:Addon"
GPU_EXISTS = {"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}
POOLS = [build_spec("eks")]


def addon(values: dict[str, Any] | None) -> dict[str, Any]:
    config = {} if values is None else {"configurationValues": json.dumps(values)}
    return {"clusterName": "ml", "addonName": AGENT_ADDON, **config}


def daemonset(name: str, tolerations: list[dict[str, str]]) -> dict[str, Any]:
    return {"metadata": {"name": name}, "spec": {"template": {"spec": {"tolerations": tolerations, "containers": []}}}}


@pytest.mark.parametrize(("resource_type", "props", "violates"), [
    (ADDON, addon(None), True),  # the chart's default: no toleration
    (ADDON, addon({"dcgmAgent": {"tolerations": [GPU_EXISTS]}}), False),
    (ADDON, addon(agent_values(POOLS, "health-agent")), False),  # what gpuready plans
    (ADDON, addon(agent_values(POOLS, "gpu-operator")), False),  # kept off the pools on purpose
    (ADDON, {"addonName": "vpc-cni", "clusterName": "ml"}, False),
    (RELEASE, {"chart": "eks-node-monitoring-agent", "values": {}}, True),
    (health.DAEMONSET, daemonset("node-problem-detector", []), True),
    (health.DAEMONSET, daemonset("nvsentinel-gpu-health-monitor", [GPU_EXISTS]), False),
    (health.DAEMONSET, daemonset("fluent-bit", []), False),
])  # fmt: skip
def test_health_agent_tolerates_the_gpu_taint(resource_type: str, props: dict[str, Any], violates: bool) -> None:
    problems = health.agent_taint_problems(resource_type, props, {})
    assert bool(problems) == violates, problems
    if violates:
        assert "nvidia.com/gpu=present:NoSchedule" in problems[0]


def stack(*resources: tuple[str, str, dict[str, Any]]) -> list[StackResource]:
    return [StackResource(kind, f"urn:{name}", name, props) for kind, name, props in resources]


@pytest.mark.parametrize(("resources", "violations"), [
    # the agent's dcgm-server on the pools beside the operator's exporter (embedded host engine, on by default)
    (stack((RELEASE, "gpu-operator", operator()),
           (ADDON, "agent", addon({"dcgmAgent": {"tolerations": [GPU_EXISTS]}}))), 1),
    # the operator's standalone DCGM and the agent kept off the pools: one owner
    (stack((RELEASE, "gpu-operator", operator({"dcgm": {"enabled": True}})),
           (ADDON, "agent", addon(agent_values(POOLS, "gpu-operator")))), 0),
    # the exporter off: the agent's dcgm-server is the one owner
    (stack((RELEASE, "gpu-operator", operator({"dcgmExporter": {"enabled": False}})),
           (ADDON, "agent", addon({"dcgmAgent": {"tolerations": [GPU_EXISTS]}}))), 0),
    # an agent whose dcgm-server cannot land on the pools is the other policy's
    (stack((RELEASE, "gpu-operator", operator()), (ADDON, "agent", addon(None))), 0),
])  # fmt: skip
def test_one_dcgm_owner(resources: list[StackResource], violations: int) -> None:
    findings = health.dcgm_owner_findings(resources, {})
    assert len(findings) == violations, findings
    if findings:
        assert findings[0].urn == "urn:agent" and "two DCGM host engines" in findings[0].message


@pytest.mark.parametrize(("driver", "warned"), [("None", True), ("Install", False)])
def test_aks_pools_without_the_cloud_driver_are_named(driver: str, warned: bool) -> None:
    problems = health.driverless_health_problems(AKS, aks(gpuProfile={"driver": driver}), {})
    assert bool(problems) == warned
    if warned:
        assert problems[0].startswith("gpuProfile.driver: 'None' turns off AKS's GPU health checks")
        assert "NVSentinel" in problems[0]


def test_the_planned_health_stack_passes_its_own_policies() -> None:
    values = agent_values(POOLS, HealthSpec(agent="eks-node-monitoring-agent").dcgm_owner("gpu-operator"))
    resources = stack((RELEASE, "gpu-operator", operator({"dcgm": {"enabled": True}})),
                      (ADDON, "agent", addon(values)))  # fmt: skip
    assert health.dcgm_owner_findings(resources, {}) == []
    assert health.agent_taint_problems(ADDON, addon(values), {}) == []


SKU = {"gpuTaint": {"key": "sku", "value": "gpu", "effect": "NoSchedule"}}
SKU_POOLS = [build_spec("eks", conventions=Conventions(gpu_taint=Taint("sku", "gpu", "NoSchedule")))]


@pytest.mark.parametrize(("props", "violates"), [
    (addon(agent_values(SKU_POOLS, "health-agent")), False),  # gpuready plans the team's toleration
    (addon({"dcgmAgent": {"tolerations": [GPU_EXISTS]}}), True),  # nvidia.com/gpu is not the team's taint
])  # fmt: skip
def test_health_agents_tolerate_the_configured_taint(props: dict[str, Any], violates: bool) -> None:
    problems = health.agent_taint_problems(ADDON, props, SKU)
    assert bool(problems) == violates, problems
    if violates:
        assert "sku=gpu:NoSchedule" in problems[0] and "{key: sku, operator: Exists" in problems[0]
    sku_agent = [StackResource(ADDON, "urn:agent", "agent", props), StackResource(RELEASE, "urn:op", "op",
                 operator())]  # fmt: skip
    assert len(health.dcgm_owner_findings(sku_agent, SKU)) == (0 if violates else 1)  # on the pools only if tolerated
