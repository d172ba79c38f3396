"""Nodes of the eks-dev pools for the golden health findings: one per health condition of gpuready's table (in its
problem status), one per reason of the EKS agent's ``AcceleratedHardwareReady``, unhealthy devices, each driver
upgrade phase, and healthy nodes carrying every reporter's conditions in their healthy status.
"""

from __future__ import annotations

import re
from typing import Any

from gpuready.core.health.conditions import HEALTH_CONDITIONS
from gpuready.eks.health_conditions import GPU_REASONS as EKS_GPU_REASONS
from gpuready.verify.expectations import Expectation
from tests.golden.node_sets import pool_node

Obj = dict[str, Any]
A10G, H100 = "g5.2xlarge", "p5.48xlarge"
CODES = {"NvidiaXID[Code]Error": 79, "NvidiaXID[Code]Warning": 13, "DCGMHealthCode[Code]": 3, "DCGMFieldError[Code]": 2}


def condition(kind: str, status: str, reason: str = "", message: str = "") -> Obj:
    return {"type": kind, "status": status, "reason": reason, "message": message,
            "lastHeartbeatTime": "2026-01-01T00:00:00Z", "lastTransitionTime": "2026-01-01T00:00:00Z"}  # fmt: skip


def with_conditions(node: Obj, *conditions: Obj) -> Obj:
    node["status"]["conditions"].extend(conditions)
    return node


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def health_nodes(expectations: dict[str, Expectation]) -> list[Obj]:
    a10g, h100 = expectations["a10g-br"], expectations["h100-mig"]
    mig_ok = {"nvidia.com/mig.config.state": "success"}
    nodes = [
        # the measured case of issue #29: a Ready p5 with a GPU off the bus, seen by the EKS agent and by NPD
        with_conditions(
            pool_node(h100, "h100-xid79", H100, labels=mig_ok),
            condition(
                "AcceleratedHardwareReady",
                "False",
                "NvidiaXID79Error",
                "detected XID-79 on the instance, review kernel logs for additional information.",
            ),
            condition("GPUMissing", "True", "GPUMissing", "observed 7 GPUs, expected 8"),
        ),
        with_conditions(
            pool_node(a10g, "a10g-healthy-all", A10G),
            *(
                condition(c.type, "True" if c.problem_status == "False" else "False", "NoProblem")
                for c in HEALTH_CONDITIONS.values()
            ),
        ),
        pool_node(a10g, "a10g-devices-unhealthy", A10G, capacity={"nvidia.com/gpu": "1"}),
    ]
    nodes[-1]["status"]["allocatable"]["nvidia.com/gpu"] = "0"
    for kind, fact in sorted(HEALTH_CONDITIONS.items()):
        reason = "NvidiaXID48Error" if kind == "AcceleratedHardwareReady" else kind
        nodes.append(with_conditions(
            pool_node(a10g, f"a10g-cond-{_slug(kind)}", A10G), condition(kind, fact.problem_status, reason)
        ))  # fmt: skip
    for reason_fact in EKS_GPU_REASONS:
        reason = reason_fact.pattern.replace("[Code]", str(CODES.get(reason_fact.pattern, "")))
        nodes.append(with_conditions(
            pool_node(a10g, f"a10g-reason-{_slug(reason)}", A10G),
            condition("AcceleratedHardwareReady", "False", reason, f"{reason} on the instance"),
        ))  # fmt: skip
    for state in ("upgrade-done", "upgrade-required", "drain-required", "upgrade-failed"):
        labels = {"nvidia.com/gpu-driver-upgrade-state": state}
        nodes.append(pool_node(a10g, f"a10g-driver-{state}", A10G, labels=labels))
    return nodes
