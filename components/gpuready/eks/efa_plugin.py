"""The EFA device plugin gpuready installs for a stack's EFA pools: the chart, and values that run it only there. Pure.

Chart ``aws-efa-k8s-device-plugin`` v0.5.30 of aws/eks-charts (``stable/aws-efa-k8s-device-plugin``; the archive in
``../shared/reference/upstream/charts/``, facts in ``core.gpu_stack.chart_facts``), from its Helm repository
``https://aws.github.io/eks-charts`` (aws/eks-charts README). Its DaemonSet advertises each node's EFA interfaces as
``vpc.amazonaws.com/efa`` and runs where ``supportedInstanceLabels`` select (``templates/daemonset.yaml``: one node
affinity term per key, ``In`` the values; never on Auto Mode nodes). gpuready selects its EFA pools by their
``gpuready.io/pool`` label instead of the chart's list of instance types, so the plugin runs on exactly those pools,
and it tolerates every taint of those pools (the GPU taint first): the chart's own tolerations are only
``CriticalAddonsOnly``. It goes in ``kube-system`` with the chart's defaults otherwise (``priorityClassName:
system-node-critical``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gpuready.core import namespaces, scheduling
from gpuready.core.specs import GpuPoolSpec
from gpuready.eks.fabric_facts import EFA_PLUGIN_CHART, EFA_PLUGIN_RELEASE, EFA_PLUGIN_VERSION

CHART = EFA_PLUGIN_CHART
VERSION = EFA_PLUGIN_VERSION
REPOSITORY = "https://aws.github.io/eks-charts"
NAMESPACE = namespaces.KUBE_SYSTEM
RELEASE = EFA_PLUGIN_RELEASE


def efa_pools(pools: Sequence[GpuPoolSpec]) -> list[GpuPoolSpec]:
    """The pools with ``fabric: efa`` (the plugin's nodes), in stack order."""
    return [spec for spec in pools if spec.fabric is not None and spec.fabric.kind == "efa"]


def values(pools: Sequence[GpuPoolSpec]) -> dict[str, Any]:
    """The release's values for the stack's EFA ``pools`` (at least one)."""
    chosen = efa_pools(pools)
    if not chosen:
        raise ValueError("the EFA device plugin serves EFA pools: the stack has none")
    tolerations: list[dict[str, str]] = []
    for spec in chosen:
        for taint in (*scheduling.tolerated_taints(spec), *spec.resolved.provisioner.selection_taints(spec)):
            toleration = scheduling.toleration_for(taint)
            if toleration not in tolerations:
                tolerations.append(toleration)
    return {
        "supportedInstanceLabels": {"keys": [scheduling.LABEL_POOL], "values": [spec.name for spec in chosen]},
        "tolerations": tolerations,
    }


def summary(pools: Sequence[GpuPoolSpec]) -> str:
    """What the plan says of the plugin."""
    names = ", ".join(spec.name for spec in efa_pools(pools))
    return f"{CHART} {VERSION} in {NAMESPACE}, on the EFA pools {names}: advertises vpc.amazonaws.com/efa"
