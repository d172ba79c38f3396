"""``gpuready:gpuStack`` (was ``gpu_stack/stack_config.py``): the config model and its parser. Pure.

The model checks the shape (keys, types, the kind and NFD mode); ``GpuStackSpec`` then checks the values on
their own (``stack_spec_problems``) and ``stack_rules`` checks the spec against the pools, once, in the plan.
"""

from __future__ import annotations

from typing import Any, ClassVar

from gpuready.core.config_model.all_problems import nearest, validated
from gpuready.core.config_model.base import ConfigModel, Words
from gpuready.core.config_model.gpu_stack_values import GpuStackValues, HealthValues
from gpuready.core.gpu_stack.kinds import STACK_KINDS, StackKind
from gpuready.core.gpu_stack.stack_spec import MIN_TIMEOUT_SECONDS, GpuStackSpec, NfdMode

KIND_HINT = (
    "gpu-operator, device-plugin or dra-driver installs that NVIDIA chart (dra-driver for pools with "
    "advertise: dra); none relies on the cloud's own stack (GKE, "
    "Bottlerocket); external means you install NVIDIA's stack yourself"
)


class HealthConfig(HealthValues, ConfigModel):
    """``gpuStack.health``: who reports GPU health (``agent``) and who runs DCGM on the pools (``dcgm``)."""

    agent: str = "none"
    """none, eks-node-monitoring-agent (EKS add-on) or platform (the cloud's own reporter)."""
    dcgm: str | None = None
    """gpu-operator, health-agent or none; unset: the GPU Operator's when it is installed."""


class GpuStackConfig(GpuStackValues, ConfigModel):
    """``gpuStack``: a kind, or a mapping with a kind and the release settings."""

    words: ClassVar = {"kind": Words("unknown GPU stack", KIND_HINT), "nfd": Words("unknown NFD mode")}
    shape: ClassVar = Words("must be a mapping with at least a kind", "e.g. {kind: gpu-operator}")
    shape_allowed: ClassVar = STACK_KINDS

    kind: StackKind
    """What advertises the pools' GPUs: gpu-operator, device-plugin, dra-driver, none or external."""
    namespace: str | None = None
    """Release namespace; unset: the chart's."""
    release_name: str | None = None
    """Helm release name; unset: the chart's."""
    chart_version: str | None = None
    """Chart version; unset: the version gpuready pins."""
    repository: str | None = None
    """Chart repository; unset: NVIDIA's."""
    timeout_seconds: int = MIN_TIMEOUT_SECONDS
    """Seconds Helm waits for the release."""
    nfd: NfdMode = "deploy"
    """deploy: the chart's NFD, on GPU pools only; existing: the cluster runs NFD already."""
    gfd: bool = True
    """Device plugin: run GPU Feature Discovery (and with it NFD); MPS sharing needs it."""
    mig_reboot: bool = True
    """GPU Operator: let the MIG manager reboot a node to apply a layout."""
    values: dict[str, Any] = {}
    """Extra Helm values (checked against the chart and what gpuready owns by ``GpuStackSpec``)."""
    monitoring: bool | None = None
    """GPU Operator: the DCGM exporter's ServiceMonitor on or off; unset keeps the chart's default."""
    cluster_version: str | None = None
    """DRA driver: the cluster's Kubernetes version (at least 1.34), as kubectl version prints it."""
    health: HealthConfig | None = None
    """Who reports GPU health and who runs DCGM on the pools (see docs/gpu-health.md)."""


GPU_STACK_KEYS = tuple(field.alias or name for name, field in GpuStackConfig.model_fields.items())


def parse_gpu_stack_model(raw: object, path: str = "gpuStack") -> GpuStackSpec:
    """``parsers.parse_gpu_stack`` by the pydantic model (the fast path refused ``raw``): every problem, worded."""
    if isinstance(raw, str):
        raw = {"kind": raw}
    return validated(GpuStackConfig, raw, path, lambda config: config.spec(path), {"kind": nearest(STACK_KINDS)})
