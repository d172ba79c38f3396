"""``gpuStack.health``: one health agent and one DCGM host engine per node; refusals name the reason."""

from __future__ import annotations

from typing import Any

import pytest

from gpuready.core.clouds.registry import cloud_profile
from gpuready.core.gpu_stack.stack_plan import plan_gpu_stack
from gpuready.core.gpu_stack.stack_spec import GpuStackSpec
from gpuready.core.health.agent import HealthSpec, health_problems, operator_dcgm_values
from gpuready.core.specs import GpuPoolSpec
from gpuready.errors import SpecError
from tests.core.conftest import build_spec
from tests.helm_render import crd_problems, render_release

EKS_AGENTS = {"eks-node-monitoring-agent": "the add-on", "platform": "Auto Mode's"}
AKS_AGENTS = {"platform": "NPD"}


def problems(health: HealthSpec, kind: str = "gpu-operator", monitoring: bool | None = None,
             agents: dict[str, str] = EKS_AGENTS, pools: list[GpuPoolSpec] | None = None) -> list[str]:  # fmt: skip
    found = health_problems(health, stack_kind=kind, monitoring=monitoring, cloud_agents=agents,
                            pools=pools if pools is not None else [build_spec("eks")])  # fmt: skip
    return [f"{p.path}: {p.problem}" for p in found]


@pytest.mark.parametrize("case", [
    (HealthSpec(), "gpu-operator", None, EKS_AGENTS, None, []),
    (HealthSpec(agent="eks-node-monitoring-agent"), "gpu-operator", None, EKS_AGENTS, None, []),
    (HealthSpec(agent="eks-node-monitoring-agent"), "device-plugin", None, EKS_AGENTS, None, []),
    (HealthSpec(agent="eks-node-monitoring-agent"), "gpu-operator", None, AKS_AGENTS, None,
     ["gpuStack.health.agent: this cloud has no such health agent"]),
    (HealthSpec(agent="nope"), "gpu-operator", None, EKS_AGENTS, None, ["gpuStack.health.agent: unknown health agent"]),
    (HealthSpec(agent="eks-node-monitoring-agent", dcgm="gpu-operator"), "device-plugin", None, EKS_AGENTS, None,
     ["gpuStack.health.dcgm: the GPU Operator runs DCGM, but the GPU stack is 'device-plugin'"]),
    (HealthSpec(agent="eks-node-monitoring-agent", dcgm="health-agent"), "gpu-operator", None, EKS_AGENTS, None,
     ["gpuStack.health.dcgm: two DCGM host engines"]),
    (HealthSpec(agent="eks-node-monitoring-agent", dcgm="health-agent"), "gpu-operator", False, EKS_AGENTS, None, []),
    (HealthSpec(agent="platform", dcgm="health-agent"), "device-plugin", None, EKS_AGENTS, None,
     ["gpuStack.health.dcgm: no health agent that runs DCGM is installed"]),
    (HealthSpec(agent="eks-node-monitoring-agent"), "device-plugin", None, EKS_AGENTS,
     [build_spec("eks", instance_type="g5g.xlarge")],
     ["nodePools[0]: the EKS node monitoring agent's dcgm-server cannot run on pool gpu: its chart runs dcgm-server "
      "on amd64 nodes only"]),
])  # fmt: skip
def test_health_rules(case: tuple[Any, ...]) -> None:
    health, kind, monitoring, agents, pools, expected = case
    found = problems(health, kind, monitoring, agents, pools)
    assert len(found) == len(expected), found
    for got, want in zip(found, expected, strict=True):
        assert got.startswith(want), got


def test_refusals_reach_the_stack_plan() -> None:
    spec = GpuStackSpec(kind="gpu-operator", health=HealthSpec(agent="eks-node-monitoring-agent", dcgm="health-agent"))
    with pytest.raises(SpecError, match="two DCGM host engines"):
        plan_gpu_stack(cloud_profile("eks"), [build_spec("eks")], spec)


def test_the_operator_runs_standalone_dcgm_when_it_owns_it_and_its_chart_takes_it() -> None:
    health = HealthSpec(agent="eks-node-monitoring-agent")
    assert operator_dcgm_values(health, "gpu-operator") == {"dcgm": {"enabled": True}}
    assert operator_dcgm_values(HealthSpec(), "gpu-operator") == {}
    plan = plan_gpu_stack(cloud_profile("eks"), [build_spec("eks")], GpuStackSpec(kind="gpu-operator", health=health))
    assert plan.release is not None and plan.release.values["dcgm"] == {"enabled": True}
    rendered = render_release(plan.release)
    policy: dict[str, Any] = rendered.one("ClusterPolicy")
    assert policy["spec"]["dcgm"]["enabled"] is True
    assert crd_problems(plan.release.chart.name, plan.release.version, policy) == []
    assert "EKS node monitoring agent" in plan.health and "standalone host engine" in plan.health
