"""Who reports GPU health and who runs DCGM on the pools (``gpuStack.health``): one health agent and one DCGM host
engine per node. Pure: the setting, its rules and the agent's chart values.

* ``agent``: ``none`` (default), ``eks-node-monitoring-agent`` (the EKS add-on, installed by gpuready) or
  ``platform`` (the cloud's own reporter: AKS Node Problem Detector; GKE and EKS Auto Mode report on their own).
  The clouds offer what their profile's ``health_agents`` lists.
* ``dcgm``: who runs the DCGM host engine on the pools: ``gpu-operator`` (the operator's standalone DCGM,
  ``dcgm.enabled``; the agent reaches it on the node's port 5555 and its own dcgm-server stays off the pools),
  ``health-agent`` (the agent's dcgm-server, tolerating the pools' taints) or ``none``. Unset: ``gpu-operator``
  when the GPU Operator is installed, else ``health-agent`` with the EKS agent, else ``none``.

Refused, with the reason: two host engines on a node (the agent's dcgm-server beside the GPU Operator's DCGM
exporter, whose embedded host engine the operator runs unless ``dcgm.enabled``: aws/eks-node-monitoring-agent#256;
the agent then reports DCGMError and auto repair replaces healthy nodes: aws/containers-roadmap#2555, #2763), a
DCGM owner that is not installed, and an agent whose dcgm-server cannot schedule on a pool (an arm64 pool, an
instance type outside its chart's affinity).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from gpuready.core import scheduling
from gpuready.core.capacity import gpu_choice
from gpuready.core.health.agent_chart import DCGM_PORT, DCGM_SERVER_ARCH, DCGM_SERVER_INSTANCE_TYPES
from gpuready.errors import Problem
from gpuready.record import record

if TYPE_CHECKING:
    from gpuready.core.specs import GpuPoolSpec

HEALTH_AGENTS = ("none", "eks-node-monitoring-agent", "platform")
DCGM_OWNERS = ("none", "gpu-operator", "health-agent")
INSTALLED_AGENT = "eks-node-monitoring-agent"
"""The one agent gpuready installs (an EKS add-on); the others need nothing installed."""
OPERATOR_KINDS = ("gpu-operator",)
"""GPU stack kinds whose GPU Operator gpuready configures to run DCGM (the GPUCluster stack runs no DCGM)."""
LABEL_GPU_POOL = scheduling.LABEL_GPU_POOL


@record(frozen=True, kw_only=True, slots=True)
class HealthSpec:
    """``gpuStack.health``."""

    agent: str = "none"
    dcgm: str | None = None

    def dcgm_owner(self, stack_kind: str) -> str:
        """Who runs DCGM: as given, or the default for the stack kind and agent."""
        if self.dcgm is not None:
            return self.dcgm
        if stack_kind in OPERATOR_KINDS and self.agent != "none":
            return "gpu-operator"
        return "health-agent" if self.agent == INSTALLED_AGENT else "none"


def health_problems(
    health: HealthSpec,
    *,
    stack_kind: str,
    monitoring: bool | None,
    cloud_agents: Mapping[str, str],
    pools: Sequence[GpuPoolSpec],
    prefix: str = "gpuStack.health",
) -> list[Problem]:
    """Everything wrong with ``health`` for the stack's kind and pools (``cloud_agents``: the cloud profile's)."""
    found: list[Problem] = []
    if health.agent not in HEALTH_AGENTS:
        return [Problem(f"{prefix}.agent", "unknown health agent", health.agent, HEALTH_AGENTS)]
    if health.dcgm is not None and health.dcgm not in DCGM_OWNERS:
        return [Problem(f"{prefix}.dcgm", "unknown DCGM owner", health.dcgm, DCGM_OWNERS)]
    if health.agent != "none" and health.agent not in cloud_agents:
        offered = tuple(sorted(cloud_agents))
        found.append(Problem(f"{prefix}.agent", "this cloud has no such health agent", health.agent,
                             ("none", *offered)))  # fmt: skip
    owner = health.dcgm_owner(stack_kind)
    if owner == "gpu-operator" and stack_kind not in OPERATOR_KINDS:
        found.append(Problem(f"{prefix}.dcgm", f"the GPU Operator runs DCGM, but the GPU stack is {stack_kind!r}",
                             owner, DCGM_OWNERS, "install the GPU Operator (gpuStack.kind: gpu-operator) or let "
                             "the health agent run DCGM (dcgm: health-agent)"))  # fmt: skip
    if owner == "health-agent":
        found.extend(_agent_dcgm_problems(health, stack_kind, monitoring, pools, prefix))
    return found


def _agent_dcgm_problems(
    health: HealthSpec, stack_kind: str, monitoring: bool | None, pools: Sequence[GpuPoolSpec], prefix: str
) -> list[Problem]:
    found: list[Problem] = []
    if health.agent != INSTALLED_AGENT:
        found.append(Problem(f"{prefix}.dcgm", "no health agent that runs DCGM is installed", "health-agent",
                             DCGM_OWNERS, f"set agent: {INSTALLED_AGENT}, or dcgm: none"))  # fmt: skip
        return found
    if stack_kind in OPERATOR_KINDS and monitoring is not False:
        found.append(Problem(
            f"{prefix}.dcgm", "two DCGM host engines on each GPU node: the agent's dcgm-server and the one the GPU "
            "Operator's DCGM exporter embeds (aws/eks-node-monitoring-agent#256); the agent then sees no GPUs or loses "
            "DCGM and marks healthy nodes for repair (aws/containers-roadmap#2555)", "health-agent", DCGM_OWNERS,
            "set dcgm: gpu-operator (the operator's standalone DCGM serves both), or monitoring: false",
        ))  # fmt: skip
    for index, pool in enumerate(pools):
        reason = _dcgm_server_cannot_run(pool)
        if reason:
            found.append(Problem(f"nodePools[{index}]", f"the EKS node monitoring agent's dcgm-server cannot run on "
                                 f"pool {pool.name}: {reason}, so no GPU health is reported there", pool.name, (),
                                 "use dcgm: gpu-operator with the GPU Operator, or agent: none"))  # fmt: skip
    return found


def _dcgm_server_cannot_run(pool: GpuPoolSpec) -> str:
    if pool.resolved.gpu.arch != "x86_64":
        return f"its chart runs dcgm-server on {DCGM_SERVER_ARCH} nodes only, and the pool is {pool.resolved.gpu.arch}"
    outside = [t for t in gpu_choice.instance_types(pool) if t not in DCGM_SERVER_INSTANCE_TYPES]
    if outside:
        return f"its chart's node affinity lists no {', '.join(outside)}"
    return ""


def agent_values(pools: Sequence[GpuPoolSpec], dcgm_owner: str) -> dict[str, Any]:
    """The agent's chart values (the add-on's configuration values): its dcgm-server tolerates every taint of the
    pools when it runs DCGM there; it stays off the pools when the GPU Operator runs DCGM (the agent reaches the
    operator's host engine on the node's port, ``agent_chart.DCGM_PORT``)."""
    if dcgm_owner == "health-agent":
        every = [scheduling.toleration_for(t) for p in pools for t in scheduling.tolerated_taints(p)]
        tolerations = {tuple(sorted(t.items())): t for t in every}
        return {"dcgmAgent": {"tolerations": [tolerations[k] for k in sorted(tolerations)]}}
    if dcgm_owner == "gpu-operator":
        # The chart's required affinity is replaced whole (Helm replaces lists): GPU nodes that are not gpuready
        # pools' nodes, amd64, no Fargate / Auto Mode / hybrid.
        terms = [{"matchExpressions": [
            {"key": scheduling.LABEL_GPU_PRESENT, "operator": "In", "values": ["true"]},
            {"key": LABEL_GPU_POOL, "operator": "DoesNotExist"},
            {"key": "kubernetes.io/arch", "operator": "In", "values": [DCGM_SERVER_ARCH]},
            {"key": "eks.amazonaws.com/compute-type", "operator": "NotIn", "values": ["fargate", "auto", "hybrid"]},
        ]}]  # fmt: skip
        return {"dcgmAgent": {"affinity": {"nodeAffinity": {
            "requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": terms}}}}}  # fmt: skip
    return {}


def operator_dcgm_values(health: HealthSpec, stack_kind: str) -> dict[str, Any]:
    """GPU Operator values for the DCGM owner: its standalone DCGM (``dcgm.enabled``) when it owns DCGM."""
    if health.dcgm_owner(stack_kind) == "gpu-operator" and stack_kind in OPERATOR_KINDS:
        return {"dcgm": {"enabled": True}}
    return {}


def describe(health: HealthSpec, stack_kind: str, cloud_agents: Mapping[str, str]) -> str:
    """The health setting in one line, for the plan."""
    owner = health.dcgm_owner(stack_kind)
    agent = "no health agent" if health.agent == "none" else cloud_agents.get(health.agent, health.agent)
    dcgm = {
        "none": "DCGM as the GPU stack's chart runs it (no owner chosen)",
        "gpu-operator": f"DCGM: the GPU Operator's standalone host engine (port {DCGM_PORT})",
        "health-agent": "DCGM: the EKS node monitoring agent's dcgm-server, tolerating the pools' taints",
    }[owner]
    return f"{agent}; {dcgm}"
