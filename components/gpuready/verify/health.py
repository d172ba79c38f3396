"""Check one GPU node's health: its health conditions, devices its device plugin marked unhealthy, and the GPU
Operator's driver upgrade state. Pure: no I/O.

Each finding names the cause (the XID's meaning where the reason names one) and the fix. The condition and reason
names, with their sources, are in ``gpuready.core.health``.
"""

from __future__ import annotations

from gpuready.core.advertisers.registry import is_gpu_resource
from gpuready.core.health.conditions import (
    HEALTH_CONDITIONS,
    REPORTER_TITLES,
    HealthCondition,
    condition_reason,
)
from gpuready.core.health.driver_upgrade import LABEL_DRIVER_UPGRADE_STATE, upgrade_phase
from gpuready.core.health.xid import describe_xid, xid_in
from gpuready.verify import findings as f
from gpuready.verify.expectations import Expectation
from gpuready.verify.findings import Finding, show_node
from gpuready.verify.nodes import NodeView, ReportedCondition

_OPERATOR = "gpu-operator"
_SUPERSEDED = frozenset({f.ALLOCATABLE_MISMATCH, f.GPUS_NOT_ADVERTISED})
"""Resource findings that an unhealthy-devices finding explains (one cause, one finding)."""


def check_health(view: NodeView, expectation: Expectation) -> list[Finding]:
    """Every health finding of ``view``: conditions reporting a problem, unhealthy devices, the driver upgrade."""
    found = [_condition_finding(view, c, HEALTH_CONDITIONS[c.type]) for c in view.health if _is_problem(c)]
    found += _unhealthy_devices(view, expectation)
    found += _driver_upgrade(view)
    return found


def merge_health(resource_findings: list[Finding], health: list[Finding]) -> list[Finding]:
    """Resource findings plus health findings, without the resource findings that unhealthy devices explain."""
    if any(x.code == f.GPU_DEVICES_UNHEALTHY for x in health):
        resource_findings = [x for x in resource_findings if x.code not in _SUPERSEDED]
    return [*resource_findings, *health]


def is_problem(condition: ReportedCondition) -> bool:
    """The condition reports a problem (``False`` for ``...Ready`` types, ``True`` for problem types)."""
    return _is_problem(condition)


def _is_problem(condition: ReportedCondition) -> bool:
    return condition.status == HEALTH_CONDITIONS[condition.type].problem_status


def _condition_finding(view: NodeView, condition: ReportedCondition, fact: HealthCondition) -> Finding:
    reporter = REPORTER_TITLES[fact.reporter]
    shown = f"{condition.type}={condition.status}" + (f" ({condition.reason})" if condition.reason else "")
    cause = f"{reporter} reports {fact.meaning}"
    reason = condition_reason(fact, condition.reason)
    severity = fact.severity
    if reason is not None:
        cause += f": {reason.meaning}"
        if not reason.condition:  # the agent reports it as an event only: not a reason to repair the node
            severity = "warning"
            cause += " (the agent reports this as an event, not as a repair-worthy condition)"
    xid = xid_in(condition.reason) or xid_in(condition.message)
    if xid is not None:
        cause += f"; {describe_xid(xid)}"
    if condition.message:
        cause += f"; message: {condition.message}"
    fix = _repair_fix(view.name)
    if reason is not None:  # what the reporter's cloud knows more of the reason (the EKS agent's DCGMError)
        cause += reason.cause
        fix = reason.fix.format(node=view.name) if reason.fix else fix
    return Finding(
        node=view.name, severity=severity, code=f.GPU_UNHEALTHY if fact.gpu else f.NODE_UNHEALTHY,
        message=f"health condition {condition.type}: reports a problem; got {shown}",
        cause=cause, fix=fix,
        reproduce=show_node(view.name, f'{{.status.conditions[?(@.type=="{condition.type}")]}}'),
    )  # fmt: skip


def _repair_fix(node: str) -> str:
    return (
        "with node auto repair on (pool key repair; gpuready plan shows each pool's policy) the platform replaces "
        f"or reboots the node; by hand, drain it and replace the instance: kubectl drain {node} "
        "--ignore-daemonsets --delete-emptydir-data"
    )


def _unhealthy_devices(view: NodeView, expectation: Expectation) -> list[Finding]:
    found: list[Finding] = []
    for name, want in sorted(expectation.allocatable.items()):
        capacity = view.capacity.get(name, 0)
        have = view.allocatable.get(name, 0)
        if not is_gpu_resource(name) or capacity != want or have >= capacity:
            continue
        found.append(Finding(
            node=view.name, severity="error", code=f.GPU_DEVICES_UNHEALTHY,
            message=f"allocatable {name}: devices marked unhealthy; got {have} allocatable of {capacity} in capacity",
            cause="the device plugin found the node's devices as the pool expects but withdrew "
            f"{capacity - have} of them as unhealthy (an XID or an NVML health event); pods cannot use them",
            fix=f"read the device plugin's log for the XID, then repair the node: {_repair_fix(view.name)}",
            reproduce=show_node(view.name, f'{{.status.capacity.{_escaped(name)}}}{{"/"}}'
                                f'{{.status.allocatable.{_escaped(name)}}}'),
        ))  # fmt: skip
    return found


def _escaped(resource: str) -> str:
    """A resource name as a JSONPath key (dots escaped)."""
    return resource.replace(".", "\\.")


def _driver_upgrade(view: NodeView) -> list[Finding]:
    state = view.labels.get(LABEL_DRIVER_UPGRADE_STATE, "")
    phase = upgrade_phase(state)
    if phase is None or phase == "done":
        return []
    reproduce = f"kubectl get node {view.name} -L {LABEL_DRIVER_UPGRADE_STATE}"
    if phase == "failed":
        return [Finding(
            node=view.name, severity="error", code=f.DRIVER_UPGRADE_FAILED,
            message=f"label {LABEL_DRIVER_UPGRADE_STATE}: driver upgrade failed; got {state!r}",
            cause="the GPU Operator's upgrade controller could not drain the node or the new driver pod did not "
            "become ready; the node stays cordoned with no working driver",
            fix=f"find the driver pod and read its log (kubectl get pods -n {_OPERATOR} -o wide --field-selector "
            f"spec.nodeName={view.name}), fix the cause, then retry: kubectl label node {view.name} "
            f"{LABEL_DRIVER_UPGRADE_STATE}=upgrade-required --overwrite",
            reproduce=reproduce,
        )]  # fmt: skip
    if phase == "active":
        return [Finding(
            node=view.name, severity="error", code=f.DRIVER_UPGRADE_ACTIVE,
            message=f"label {LABEL_DRIVER_UPGRADE_STATE}: driver upgrade under way; got {state!r}",
            cause="the GPU Operator is upgrading the driver on this node: it is cordoned or its driver is restarting, "
            "so its GPUs are not usable until the state is upgrade-done (verify waits for it within its deadline)",
            fix=f"wait; if it stays in {state!r}, read the upgrade events: kubectl get events -n {_OPERATOR} "
            f"--field-selector involvedObject.name={view.name}",
            reproduce=reproduce,
        )]  # fmt: skip
    return [Finding(
        node=view.name, severity="warning", code=f.DRIVER_UPGRADE_QUEUED,
        message=f"label {LABEL_DRIVER_UPGRADE_STATE}: driver upgrade waiting; got {state!r}",
        cause="the node runs an older driver than the ClusterPolicy asks for and waits for an upgrade slot "
        "(driver.upgradePolicy.maxParallelUpgrades / maxUnavailable); a node that stays here blocks nothing yet but "
        "keeps the old driver",
        fix="if it never starts, check the upgrade policy: kubectl get clusterpolicy -o jsonpath="
        "'{.items[0].spec.driver.upgradePolicy}'",
        reproduce=reproduce,
    )]  # fmt: skip
