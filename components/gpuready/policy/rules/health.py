"""Rules on GPU health agents and DCGM: an agent that does not tolerate the GPU taint, two DCGM host engines on the
GPU pools, and AKS pools whose cloud driver is off (no AKS GPU health checks). Pure.

A health agent is the EKS node monitoring agent (an ``aws.eks.Addon`` named ``eks-node-monitoring-agent`` or a Helm
release of its chart: its ``dcgm-server`` DaemonSet has no toleration by default, aws/containers-roadmap#2567) or a
DaemonSet whose name says it watches node or GPU health (``HEALTH_DAEMONSET_WORDS``). Chart facts are in
``gpuready.core.health.agent_chart``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from gpuready.core.clouds.registry import addon_for_type, cloud_profiles
from gpuready.core.clouds.type_scope import TypeScope
from gpuready.core.conventions import gpu_taint_of
from gpuready.core.health.agent_chart import AGENT_ADDON
from gpuready.core.props import as_flag, as_list, as_mapping, as_text, dig
from gpuready.core.scheduling import LABEL_GPU_POOL
from gpuready.core.taints import Taint
from gpuready.policy.rules import pool_settings
from gpuready.policy.rules.charts import OPERATOR, RELEASE, gpu_release
from gpuready.policy.rules.gpu_pools import gpu_pools
from gpuready.policy.rules.k8s import any_tolerates
from gpuready.policy.rules.stack import Finding, StackResource
from gpuready.record import record

DAEMONSET = "kubernetes:apps/v1:DaemonSet"
HEALTH_TYPES = frozenset({RELEASE, DAEMONSET}) | TypeScope(
    lambda token: addon_for_type(token) is not None,
    lambda: {a.type for p in cloud_profiles() if (a := p.addon_resource) is not None},
)
HEALTH_DAEMONSET_WORDS = ("node-problem-detector", "node-monitoring-agent", "dcgm", "nvsentinel", "gpu-health")


@record(frozen=True, slots=True)
class AgentConfig:
    """The EKS node monitoring agent's chart values, from its add-on or its Helm release."""

    source: str
    """``add-on configurationValues`` or ``Helm values``."""
    values: Mapping[str, Any]

    @property
    def dcgm_tolerations(self) -> list[Any]:
        return list(as_list(dig(self.values, "dcgmAgent", "tolerations")) or [])

    @property
    def dcgm_kept_off_pools(self) -> bool:
        """The dcgm-server's affinity excludes gpuready's GPU pools (the GPU Operator runs DCGM there)."""
        terms = dig(self.values, "dcgmAgent", "affinity", "nodeAffinity",
                    "requiredDuringSchedulingIgnoredDuringExecution", "nodeSelectorTerms")  # fmt: skip
        items = as_list(terms) or []
        return bool(items) and all(_excludes_pools(term) for term in items)

    def dcgm_on_gpu_pools(self, taint: Taint) -> bool:
        """The dcgm-server runs on the pools: not kept off them, and tolerating their GPU taint (``taint``)."""
        return not self.dcgm_kept_off_pools and any_tolerates(self.dcgm_tolerations, taint)


def _excludes_pools(term: object) -> bool:
    expressions = as_list((as_mapping(term) or {}).get("matchExpressions")) or []
    return any(
        isinstance(e, Mapping)
        and as_text(e.get("key")) == LABEL_GPU_POOL
        and as_text(e.get("operator")) == "DoesNotExist"
        for e in expressions
    )


def agent_config(resource_type: str, props: Mapping[str, Any]) -> AgentConfig | None:
    """The agent's values when ``props`` are its add-on or a release of its chart (None for anything else, and for
    configuration values that are not known yet or not JSON)."""
    addon = addon_for_type(resource_type)
    if addon is not None and as_text(props.get(addon.name_field)) == AGENT_ADDON:
        source = f"add-on {addon.values_field}"
        raw = props.get(addon.values_field)
        if raw in (None, ""):
            return AgentConfig(source, {})
        try:
            values = json.loads(raw) if isinstance(raw, str) else None
        except json.JSONDecodeError:
            return None
        return AgentConfig(source, values) if isinstance(values, Mapping) else None
    if resource_type == RELEASE and (as_text(props.get("chart")) or "").rsplit("/", 1)[-1] == AGENT_ADDON:
        return AgentConfig("Helm values", as_mapping(props.get("values")) or {})
    return None


def agent_taint_problems(resource_type: str, props: Mapping[str, Any], config: Mapping[str, Any]) -> list[str]:
    """A health agent (add-on, release or DaemonSet) tolerates the GPU taint where it has to run on GPU nodes."""
    agent = agent_config(resource_type, props)
    taint = gpu_taint_of(config)  # the team's GPU taint (gpuTaint), gpuready's by default
    shown, toleration = str(taint), f"{{key: {taint.key}, operator: Exists, effect: {taint.effect}}}"
    if agent is not None:
        if agent.dcgm_kept_off_pools or any_tolerates(agent.dcgm_tolerations, taint):
            return []
        return [
            f"{agent.source} dcgmAgent.tolerations: the agent's dcgm-server does not tolerate {shown} (its chart's "
            "default is none), so it never runs on tainted GPU nodes: the agent cannot reach DCGM, reports DCGMError "
            "and auto repair replaces healthy nodes (aws/containers-roadmap#2567, #2555). Add "
            f"{toleration}, or let the GPU Operator run DCGM "
            "(gpuStack.health.dcgm: gpu-operator)"
        ]
    if resource_type != DAEMONSET:
        return []
    name = (as_text(dig(props, "metadata", "name")) or "").lower()
    if not any(word in name for word in HEALTH_DAEMONSET_WORDS):
        return []
    tolerations = as_list(dig(props, "spec", "template", "spec", "tolerations")) or []
    if any_tolerates(tolerations, taint):
        return []
    return [
        f"spec.template.spec.tolerations: health agent DaemonSet {name!r} does not tolerate {shown}, so it never runs "
        f"on the GPU nodes it should watch. Add {toleration}"
    ]


def _operator_host_engine(values: Mapping[str, Any]) -> str:
    """Which DCGM host engine a GPU Operator release runs on its nodes, or ``""``."""
    if as_flag(dig(values, "dcgm", "enabled")) is True:
        return "its standalone DCGM (dcgm.enabled)"
    if as_flag(dig(values, "dcgmExporter", "enabled")) is not False:  # on by default (GO values dcgmExporter)
        return "the host engine its DCGM exporter embeds (dcgmExporter on, dcgm.enabled off)"
    return ""


def dcgm_owner_findings(resources: Sequence[StackResource], config: Mapping[str, Any]) -> list[Finding]:
    """One DCGM host engine per GPU node: not the GPU Operator's beside the agent's dcgm-server."""
    engines = []
    for r in resources:
        release = gpu_release(r.type, r.props)
        if release is not None and release.chart == OPERATOR and (engine := _operator_host_engine(release.values)):
            engines.append((r.name, engine))
    findings: list[Finding] = []
    for r in resources:
        agent = agent_config(r.type, r.props)
        if agent is None or not agent.dcgm_on_gpu_pools(gpu_taint_of(config)):
            continue
        for name, engine in engines:
            findings.append(Finding(r.urn, (
                f"{agent.source}: two DCGM host engines on the GPU nodes: the EKS node monitoring agent's "
                f"dcgm-server and GPU Operator release {name!r}'s {engine} (aws/eks-node-monitoring-agent#256: one "
                "host engine per node). Keep dcgm-server off the GPU pools (dcgmAgent.affinity with "
                f"{LABEL_GPU_POOL} DoesNotExist) and set dcgm.enabled: true in {name!r}, or turn the exporter off"
            )))  # fmt: skip
    return findings


def driverless_health_problems(resource_type: str, props: Mapping[str, Any], config: Mapping[str, Any]) -> list[str]:
    """A GPU pool whose cloud runs no GPU health checks because its driver is not the cloud's (named, a warning)."""
    return [gap for pool in gpu_pools(resource_type, props) if (gap := pool_settings.health_gap(pool))]
