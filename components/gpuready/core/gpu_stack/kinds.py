"""The GPU stack kinds gpuready knows, in ``gpuStack.kind`` order, and the one place a kind is looked up. Pure.

Adding a stack kind is one ``GpuStackKind`` here (its chart in ``charts``, its values builder in ``kind_values``,
its component's ``ReleaseEntry``, from which the facade, the stack program's install and the component package
derive) and its rows in ``stack_fits.NVIDIA_FITS``.
"""

from __future__ import annotations

from collections.abc import Mapping

from gpuready.core.advertisers.extended_resources import EXTENDED_RESOURCES
from gpuready.core.component_entry import ReleaseEntry
from gpuready.core.gpu_stack import kind_values
from gpuready.core.gpu_stack.charts import (
    DEVICE_PLUGIN,
    DRA_DRIVER,
    GPU_OPERATOR,
    GPU_OPERATOR_DRA,
    STACK_KINDS,
)
from gpuready.core.gpu_stack.kind import GpuStackKind, Refusal

_K8S = "Pass the cluster's Kubernetes provider in the resource options."
_GPU_CLUSTER_STATES = "GPU Operator v26.7.0 newGPUClusterStates: DRA driver, DCGM, DCGM exporter, DRA validator"


def _lacks(**why: str) -> dict[str, Refusal]:
    """Refusals of the settings of parts a DRA stack does not run (the setting would do nothing)."""
    return {key: Refusal(problem=f"{why[key]}, so {key} would do nothing", hint=f"remove {key}") for key in why}


GPU_OPERATOR_STACK = GpuStackKind(
    key="gpu-operator",
    chart=GPU_OPERATOR,
    serves=GPU_OPERATOR.advertiser,
    gfd="always",
    mig_manager=True,
    driver_installer=True,
    refused={
        "gfd": Refusal(
            problem="the GPU Operator always runs GPU Feature Discovery; gfd only applies to the device-plugin chart",
            hint="remove gfd",
        )
    },
    values=kind_values.operator_release,
    component=ReleaseEntry(
        name="GpuOperator",
        module="gpuready.gpu_stack.gpu_operator",
        description="NVIDIA's GPU Operator chart on gpuready pools (gpuready:gpuStack with kind gpu-operator). " + _K8S,
        skip=frozenset({"kind", "gfd", "clusterVersion"}),
    ),
)
DEVICE_PLUGIN_STACK = GpuStackKind(
    key="device-plugin",
    chart=DEVICE_PLUGIN,
    serves=DEVICE_PLUGIN.advertiser,
    gfd="setting",
    refused={
        "monitoring": Refusal(
            problem="the device-plugin chart runs no DCGM exporter, so it has no ServiceMonitor to switch (only the "
            "GPU Operator's chart deploys the exporter: dcgmExporter in its values.yaml)",
            hint="use gpuStack.kind gpu-operator, or install NVIDIA's dcgm-exporter chart beside the device plugin",
        ),
        "migReboot": Refusal(
            problem="only the GPU Operator's MIG manager reboots nodes; the device-plugin chart has none",
            hint="remove migReboot",
        ),
    },
    values=kind_values.device_plugin_release,
    component=ReleaseEntry(
        name="NvidiaDevicePlugin",
        module="gpuready.gpu_stack.device_plugin",
        description="NVIDIA's device-plugin chart on gpuready pools (gpuready:gpuStack with kind device-plugin). "
        + _K8S,
        skip=frozenset({"kind", "migReboot", "clusterVersion"}),
    ),
)
DRA_DRIVER_STACK = GpuStackKind(
    key="dra-driver",
    chart=DRA_DRIVER,
    serves=DRA_DRIVER.advertiser,
    refused=_lacks(
        nfd="the DRA driver chart has no node-feature-discovery subchart",
        gfd="the DRA driver chart has no GPU Feature Discovery",
        migReboot="the DRA driver chart has no MIG manager",
        monitoring="the DRA driver chart has no DCGM exporter",
    ),
    values=kind_values.dra_driver_release,
    component=ReleaseEntry(
        name="NvidiaDraDriver",
        module="gpuready.gpu_stack.dra_driver",
        description="NVIDIA's DRA driver chart on gpuready's DRA pools (advertise: dra; gpuready:gpuStack with kind "
        "dra-driver; Kubernetes 1.34+). " + _K8S,
        skip=frozenset({"kind", "gfd", "nfd", "migReboot", "monitoring"}),
    ),
)
GPU_OPERATOR_DRA_STACK = GpuStackKind(
    key="gpu-operator-dra",
    chart=GPU_OPERATOR_DRA,
    serves=GPU_OPERATOR_DRA.advertiser,
    nfd_without_gfd=True,
    refused=_lacks(
        gfd=f"the GPUCluster stack runs no GPU Feature Discovery ({_GPU_CLUSTER_STATES})",
        migReboot=f"the GPUCluster stack runs no MIG manager ({_GPU_CLUSTER_STATES})",
    ),
    mig_note=" (its GPUCluster runs no MIG manager)",
    plugin_note=", and the GPU Operator's GPUCluster runs no device plugin (no ClusterPolicy)",
    values=kind_values.gpu_cluster_release,
    component=ReleaseEntry(
        name="GpuOperatorDra",
        module="gpuready.gpu_stack.gpu_operator_dra",
        description="The GPU Operator chart's experimental GPUCluster stack (NVIDIA's DRA driver, DCGM exporter, DRA "
        "validator) on gpuready's DRA pools (advertise: dra; gpuready:gpuStack with kind gpu-operator-dra; "
        "Kubernetes 1.34+). " + _K8S,
        skip=frozenset({"kind", "gfd", "migReboot"}),
    ),
)
NONE_STACK = GpuStackKind(key="none", serves=EXTENDED_RESOURCES.key)
"""The cloud's own stack advertises the GPUs by its device plugin."""
EXTERNAL_STACK = GpuStackKind(key="external")
"""You run NVIDIA's stack; gpuready installs nothing and checks only that the pools can carry it."""

STACK_KIND_OBJECTS: tuple[GpuStackKind, ...] = (
    GPU_OPERATOR_STACK,
    DEVICE_PLUGIN_STACK,
    DRA_DRIVER_STACK,
    GPU_OPERATOR_DRA_STACK,
    NONE_STACK,
    EXTERNAL_STACK,
)
"""Every stack kind, in ``STACK_KINDS`` order."""

_BY_KEY: Mapping[str, GpuStackKind] = {k.key: k for k in STACK_KIND_OBJECTS}


def stack_kind(key: str) -> GpuStackKind:
    """The kind registered under ``key``; raises ``KeyError`` naming the known ones."""
    try:
        return _BY_KEY[key]
    except KeyError:
        raise KeyError(f"no GPU stack kind {key!r}; known: {', '.join(STACK_KINDS)}") from None


CHART_COMPONENTS: Mapping[str, ReleaseEntry] = {k.key: k.component for k in STACK_KIND_OBJECTS if k.component}
"""Each kind that installs a chart -> its component's registration entry, in ``gpuStack.kind`` order."""
