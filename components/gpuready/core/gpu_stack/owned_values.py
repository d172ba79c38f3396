"""The Helm values gpuready decides, per chart, and which gpuready key or decision owns each. Pure.

Decided once, here: ``gpuStack.values`` (extra values deep-merged into the release) may set anything else, but
never a path below, nor a map above one with a non-map (which would replace it). Two kinds of entries:

- ``always``: gpuready decides the path even where it leaves the chart default (no MIG pool: ``mig.strategy``
  stays the chart's, and a user value there would still contradict the pools);
- derived: every other leaf the value builders (``operator_values``, ``device_plugin_values``) set for a stack's
  pools is owned for that stack (AKS's ``operator.runtimeClass``, GKE's ``toolkit.env``); the entries with
  ``always=False`` only name the owner of such a leaf in messages.

A test (``tests/gpu_stack/test_extra_values.py``) walks every planned scenario and checks that each leaf the
builders set is covered by an entry here, so a new value gpuready sets cannot go unowned.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from gpuready.core.gpu_stack.charts import ChartKind


@dataclass(frozen=True, slots=True)
class Owned:
    path: str
    owner: str
    """The gpuready key or decision that sets it (shown in the refusal)."""
    always: bool = True


_DRIVER = "who installs the driver and toolkit (the pools' driver and image, per cloud: nodePools[].driver)"
_TAINTS = "the pools' taints (nodePools[].taints and the cloud's GPU taint): every GPU DaemonSet tolerates them"
_NFD_PLACEMENT = "NFD runs on the GPU pools only (their gpuready.io/gpu-pool label)"
_SHARING = "the pools' sharing (nodePools[].sharing): gpuready's device-plugin config map"
_MIG_STRATEGY = "the MIG pools' strategy (nodePools[].sharing.strategy)"
_DRA_PLACEMENT = (
    "the DRA kubelet plugin runs on the stack's DRA pools only, so no device plugin shares its nodes "
    "(nodePools[].advertise)"
)
_MIG_LAYOUT = "the MIG pools' layouts (nodePools[].sharing), applied by the MIG manager"
_GPU_CLUSTER = "gpuStack.kind gpu-operator-dra: the GPUCluster CR, never the ClusterPolicy (only one may exist)"
_DRA_NFD_PLACEMENT = (
    "NFD runs on the stack's DRA pools only: the operator puts the GPUCluster's DRA plugin on every node NFD shows "
    "an NVIDIA GPU on"
)
_CLUSTER_POLICY_ONLY = (
    "toolkit",
    "devicePlugin",
    "gfd",
    "migManager",
    "mig",
    "nodeStatusExporter",
    "gds",
    "gdrcopy",
    "vgpuManager",
    "vgpuDeviceManager",
    "vfioManager",
    "sandboxDevicePlugin",
    "sandboxWorkloads",
    "kataSandboxDevicePlugin",
    "ccManager",
    "kataManager",
    "psa",
    "cdi",
)
"""Top-level sections of the v26.7.0 values read only for the ClusterPolicy (``templates/clusterpolicy.yaml``, and the
config maps and checks that serve it: ``plugin_config.yaml``, ``mig_config.yaml``, ``validations.yaml``). Not
``validator``: ``operator.yaml`` passes its image to the operator, whose DRA operands use it."""

OWNED: Mapping[ChartKind, tuple[Owned, ...]] = {
    "gpu-operator": (
        Owned("driver.enabled", _DRIVER),
        Owned("driver.upgradePolicy", "gpuready's driver rollout, one node at a time (when the operator owns it)"),
        Owned("toolkit.enabled", _DRIVER),
        Owned("toolkit.env", "the cloud's container-runtime settings (GKE: RUNTIME_CONFIG_SOURCE)", always=False),
        Owned("operator.runtimeClass", "the cloud's runtime class for its own driver (AKS)", always=False),
        Owned("operator.upgradeCRD", "gpuready's upgrades: the chart's CRD upgrade hook"),
        Owned("daemonsets.tolerations", _TAINTS),
        Owned("nfd.enabled", "gpuStack.nfd"),
        Owned("node-feature-discovery.worker.nodeSelector", _NFD_PLACEMENT),
        Owned("node-feature-discovery.worker.affinity", _NFD_PLACEMENT),
        Owned("node-feature-discovery.worker.tolerations", _TAINTS),
        Owned("devicePlugin.enabled", "gpuready's stacks advertise the GPUs by NVIDIA's device plugin"),
        Owned("devicePlugin.config", _SHARING),
        Owned("mig.strategy", _MIG_STRATEGY),
        Owned("migManager.enabled", _MIG_LAYOUT),
        Owned("migManager.config", _MIG_LAYOUT),
        Owned("migManager.env", "gpuStack.migReboot"),
        Owned("dcgmExporter.serviceMonitor.enabled", "gpuStack.monitoring"),
        Owned("dcgmExporter.enabled", "gpuStack.monitoring (the ServiceMonitor needs the exporter)", always=False),
    ),
    "device-plugin": (
        Owned("tolerations", _TAINTS),
        Owned("nodeSelector", "the plugin runs on every GPU node (the chart's NVIDIA-node affinity)"),
        Owned("affinity", "the plugin runs on every GPU node but DRA pools (the chart's NVIDIA-node affinity)"),
        Owned("devicePlugin.enabled", "gpuready's stacks advertise the GPUs by NVIDIA's device plugin"),
        Owned("gfd.enabled", "gpuStack.gfd"),
        Owned("nfd.enabled", "gpuStack.nfd"),
        Owned("nfd.worker.nodeSelector", _NFD_PLACEMENT),
        Owned("nfd.worker.affinity", _NFD_PLACEMENT),
        Owned("nfd.worker.tolerations", _TAINTS),
        Owned("migStrategy", _MIG_STRATEGY),
        Owned("config", _SHARING),
    ),
    "dra-driver": (
        Owned("resourceApiVersion", "gpuStack.clusterVersion (1.34+ serves resource.k8s.io/v1)"),
        Owned("gpuResourcesEnabledOverride", _DRA_PLACEMENT),
        Owned("resources.gpus.enabled", _DRA_PLACEMENT),
        Owned("resources.computeDomains.enabled", "gpuready's pools have no multi-node NVLink (ComputeDomains)"),
        Owned("kubeletPlugin.affinity", _DRA_PLACEMENT),
        Owned("kubeletPlugin.nodeSelector", _DRA_PLACEMENT),
        Owned("kubeletPlugin.tolerations", _TAINTS),
        Owned("namespace", "gpuStack.namespace (the chart refuses a namespace value)"),
    ),
    "gpu-operator-dra": (
        Owned("clusterPolicy.deployCR", _GPU_CLUSTER),
        Owned("gpuCluster.deployCR", _GPU_CLUSTER),
        Owned("driver.enabled", _DRIVER),
        Owned("driver.nvidiaDriverCRD", _DRIVER),
        Owned("operator.upgradeCRD", "gpuready's upgrades: the chart's CRD upgrade hook"),
        Owned("daemonsets.tolerations", _TAINTS),
        Owned("nfd.enabled", "gpuStack.nfd"),
        Owned("node-feature-discovery.worker.nodeSelector", _DRA_NFD_PLACEMENT),
        Owned("node-feature-discovery.worker.affinity", _DRA_NFD_PLACEMENT),
        Owned("node-feature-discovery.worker.tolerations", _TAINTS),
        Owned("draDriver.computeDomains.enabled", "gpuready's pools have no multi-node NVLink (ComputeDomains)"),
        Owned("dcgmExporter.serviceMonitor.enabled", "gpuStack.monitoring"),
        Owned("dcgmExporter.enabled", "gpuStack.monitoring (the ServiceMonitor needs the exporter)", always=False),
    ),
}


INERT: Mapping[ChartKind, tuple[tuple[str, ...], str]] = {
    "gpu-operator-dra": (
        _CLUSTER_POLICY_ONLY,
        "only the ClusterPolicy reads it, and gpu-operator-dra deploys the GPUCluster instead (GPU Operator v26.7.0 "
        "templates/gpucluster.yaml)",
    ),
}
"""Per chart kind: values sections the release renders into nothing, and why (refused: never silently ignored)."""


def inert_reason(kind: ChartKind, path: str) -> str | None:
    """Why ``path`` does nothing in a release of ``kind``; None when it may do something."""
    sections, why = INERT.get(kind, ((), ""))
    return why if path.split(".", 1)[0] in sections else None


def leaves(values: Mapping[str, Any], prefix: str = "") -> Iterator[tuple[str, Any]]:
    """(dotted path, value) of every leaf: a non-mapping value or an empty mapping."""
    for key, value in values.items():
        path = f"{prefix}{key}"
        if isinstance(value, Mapping) and value:
            yield from leaves(value, path + ".")
        else:
            yield path, value


def owner_of(kind: ChartKind, path: str) -> Owned | None:
    """The entry whose path is ``path`` or above it (the most specific one)."""
    found = [o for o in OWNED[kind] if path == o.path or path.startswith(o.path + ".")]
    return max(found, key=lambda o: len(o.path)) if found else None


def owned_paths(kind: ChartKind, gpuready_values: Mapping[str, Any] | None = None) -> dict[str, str]:
    """Path -> owner of everything gpuready decides for a release: the ``always`` entries, plus every leaf of
    ``gpuready_values`` (what the builders set for the stack's pools)."""
    owned = {o.path: o.owner for o in OWNED[kind] if o.always}
    for path, _ in leaves(gpuready_values or {}):
        entry = owner_of(kind, path)
        if entry is None:
            owned[path] = "gpuready's plan for these pools"
        elif entry.path not in owned:
            owned[entry.path] = entry.owner
    return owned
