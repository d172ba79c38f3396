"""What a DRA node publishes in ResourceSlices, and the findings when it publishes too little. Pure: no I/O.

A node of a DRA pool has converged when the kubelet plugin of its pool's DRA driver (``Advertiser.slice_driver``:
``gpu.nvidia.com``) publishes ResourceSlices for it (``spec.nodeName`` the node, ``spec.driver`` the driver) with
the devices its pool expects (``Advertiser.devices_per_node``); within one ``spec.pool`` only the slices of the
highest ``pool.generation`` count (older ones are being replaced; kubernetes.io "Dynamic Resource Allocation",
ResourceSlice). A node without slices gets the likely cause, checked in this order: the cluster serves no
``resource.k8s.io/v1`` (Kubernetes older than 1.34); the kubelet plugin's default node affinity
(``dra-driver-nvidia-gpu`` 0.4.0 ``values.yaml`` ``kubeletPlugin.affinity``: NFD's
``feature.node.kubernetes.io/pci-10de.present=true`` or ``pci-0302_10de.present=true``) does not select the node;
a NoSchedule/NoExecute taint the plugin's default tolerations (only ``nvidia.com/gpu``, same file) do not cover;
else the driver is not ready there (plugin pod starting or failing, GPU driver not loaded).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import field, replace
from typing import Any

from gpuready.core.advertisers.interface import Advertiser
from gpuready.core.advertisers.registry import advertiser_for_labels, advertiser_named
from gpuready.core.scheduling import GPU_TAINT_KEY, LABEL_DEPLOY_DRA_DRIVER
from gpuready.record import record
from gpuready.verify import findings as f
from gpuready.verify.audit import AuditReport, NodeResult
from gpuready.verify.findings import Finding

RESOURCE_API = "resource.k8s.io/v1"
NFD_PLUGIN_LABELS = ("feature.node.kubernetes.io/pci-10de.present", "feature.node.kubernetes.io/pci-0302_10de.present")
"""The labels the DRA kubelet plugin's default node affinity requires one of (value ``true``)."""


@record(frozen=True, slots=True)
class DeviceSlices:
    """The devices each node publishes, per DRA driver, from one LIST of ResourceSlices."""

    served: bool
    """The cluster serves ``resource.k8s.io/v1`` (False: it answered 404)."""
    devices: Mapping[tuple[str, str], int] = field(default_factory=dict)
    """(driver, node) -> devices in the node's current slices."""


def device_slices(raw: Iterable[Mapping[str, Any]] | None) -> DeviceSlices:
    """Count devices per driver and node from ResourceSlices as the API returns them (None: API not served)."""
    if raw is None:
        return DeviceSlices(served=False)
    newest: dict[tuple[str, str, str], int] = {}
    counted: Counter[tuple[str, str, str, int]] = Counter()
    for item in raw:
        spec = item.get("spec") if isinstance(item, Mapping) else None
        if not isinstance(spec, Mapping):
            continue
        driver, node = spec.get("driver"), spec.get("nodeName")
        raw_pool = spec.get("pool")
        pool: Mapping[str, Any] = raw_pool if isinstance(raw_pool, Mapping) else {}
        generation = pool.get("generation", 0)
        devices = spec.get("devices")
        if not isinstance(driver, str) or not isinstance(node, str) or not isinstance(generation, int | float):
            continue
        key = (driver, node, str(pool.get("name", "")))
        newest[key] = max(newest.get(key, int(generation)), int(generation))
        counted[(*key, int(generation))] += len(devices) if isinstance(devices, list) else 0
    totals: Counter[tuple[str, str]] = Counter()
    for (driver, node, pool_name), generation in newest.items():
        totals[(driver, node)] += counted[(driver, node, pool_name, generation)]
    return DeviceSlices(served=True, devices=dict(totals))


def with_slices(report: AuditReport, slices: DeviceSlices) -> AuditReport:
    """``report`` with each DRA node's slice findings added (its convergence follows them)."""
    results = tuple(_with_findings(r, slices) for r in report.results)
    return replace(report, results=results)


def _advertiser(result: NodeResult) -> Advertiser:
    if result.expectation.pool is not None:
        return advertiser_named(result.expectation.advertiser)
    return advertiser_for_labels(result.view.labels)


def _with_findings(result: NodeResult, slices: DeviceSlices) -> NodeResult:
    driver = _advertiser(result).slice_driver
    if driver is None:
        return result
    found = slice_findings(result, driver, slices)
    return replace(result, findings=(*result.findings, *found)) if found else result


def slice_findings(result: NodeResult, driver: str, slices: DeviceSlices) -> list[Finding]:
    """Findings about what ``result``'s node publishes through ``driver``."""
    node = result.view.name
    want = sum(result.expectation.devices.values()) or None
    reproduce = f"kubectl get resourceslices --field-selector spec.nodeName={node},spec.driver={driver} -o yaml"
    have = slices.devices.get((driver, node), 0)
    where = f"DRA node of pool {result.pool!r}" if result.pool else "DRA node"
    if not slices.served or have == 0:
        cause, fix = _likely_cause(result, driver, slices)
        expected = f"{want} devices" if want else "its GPUs"
        return [Finding(node=node, severity="error", code=f.DRA_SLICES_MISSING,
                        message=f"ResourceSlices: none for {driver} on this {where}; expected {expected}",
                        cause=cause, fix=fix, reproduce=reproduce)]  # fmt: skip
    if want is not None and have < want:
        return [Finding(node=node, severity="error", code=f.DRA_DEVICES_MISSING,
                        message=f"ResourceSlices: {driver} devices published; got {have}, expected {want}",
                        cause="some GPUs or MIG devices are not visible to the DRA driver (MIG layout not applied yet, "
                        "a GPU failed, or the pool's instance type differs)",
                        fix=f"compare with the GPUs on the node (kubectl debug node/{node} -it --image=busybox, or the "
                        f"plugin's logs: kubectl logs -A -l app.kubernetes.io/name=dra-driver-nvidia-gpu "
                        f"--all-containers --prefix | grep {node}), then gpuready verify again",
                        reproduce=reproduce)]  # fmt: skip
    return []


def _likely_cause(result: NodeResult, driver: str, slices: DeviceSlices) -> tuple[str, str]:
    """The likely reason a DRA node publishes no slices, and the fix command."""
    view = result.view
    if not slices.served:
        return (
            f"the cluster serves no {RESOURCE_API} (Kubernetes older than 1.34, where DRA is GA), so no DRA driver "
            "can publish devices",
            "upgrade the cluster to Kubernetes 1.34 or later, or use advertise: device-plugin on this pool; check "
            "with: kubectl api-versions | grep resource.k8s.io",
        )
    if view.labels.get(LABEL_DEPLOY_DRA_DRIVER) == "false":
        return (
            f"the node is labelled {LABEL_DEPLOY_DRA_DRIVER}=false, so the GPU Operator's GPUCluster runs no {driver} "
            "kubelet plugin on it (the operator honours a label that is already set)",
            f"remove the label from the pool's node labels, then: kubectl label node {view.name} "
            f"{LABEL_DEPLOY_DRA_DRIVER}=true --overwrite",
        )
    if not any(view.labels.get(key) == "true" for key in NFD_PLUGIN_LABELS):
        return (
            f"the {driver} kubelet plugin is not scheduled on this node: its default node affinity needs NFD's "
            f"{NFD_PLUGIN_LABELS[0]}=true (or {NFD_PLUGIN_LABELS[1]}=true), which the node lacks",
            f"run Node Feature Discovery on the pool, or set the chart's kubeletPlugin.affinity to the pool's labels; "
            f"meanwhile: kubectl label node {view.name} {NFD_PLUGIN_LABELS[0]}=true",
        )
    blocking = [t for t in view.taints if t.effect in ("NoSchedule", "NoExecute") and t.key != GPU_TAINT_KEY]
    if blocking:
        shown = ", ".join(str(t) for t in blocking)
        return (
            f"the {driver} kubelet plugin does not tolerate the node's taint {shown} (its default tolerations "
            f"cover only {GPU_TAINT_KEY})",
            f"add the pool's taints to the chart's kubeletPlugin.tolerations (operator: Exists), then check: "
            f"kubectl get pods -A -o wide --field-selector spec.nodeName={view.name}",
        )
    return (
        f"the {driver} kubelet plugin is not ready on this node (pod starting or failing, or the GPU driver not "
        "loaded yet)",
        f"look at the plugin pod on the node and its logs: kubectl get pods -A -o wide --field-selector "
        f"spec.nodeName={view.name}",
    )


def needs_slices(report: AuditReport) -> bool:
    """Whether some node of ``report`` is a DRA node (so the ResourceSlices are worth listing)."""
    return any(_advertiser(r).slice_driver is not None for r in report.results)
