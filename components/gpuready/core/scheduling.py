"""GPU node labels and taints, and their per-cloud encodings. Pure.

Every gpuready pool carries a GPU taint, ``nvidia.com/gpu=present:NoSchedule`` unless the stack's conventions name
the team's own (``conventions.Conventions``, carried by each spec): EKS and AKS never taint GPU
nodes, and GKE only does when a non-GPU pool already exists (how-to/gpus), so gpuready always declares
it, which also keeps GKE from showing a perpetual diff (hashicorp/terraform-provider-google#7928).
Labels set at creation are the ones later layers select on; none of them waits for NFD or GFD.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from gpuready.core import node_names, sharing_plan
from gpuready.core.pool_parts import GpuSharing, MigPartitioning
from gpuready.core.taints import Taint

if TYPE_CHECKING:
    from gpuready.core.specs import GpuPoolSpec

GPU_RESOURCE = node_names.GPU_RESOURCE
SHARED_GPU_RESOURCE = node_names.SHARED_GPU_RESOURCE
LABEL_DEPLOY_PREFIX = node_names.LABEL_DEPLOY_PREFIX
LABEL_DEPLOY_DRA_DRIVER = node_names.LABEL_DEPLOY_DRA_DRIVER
LABEL_ADVERTISE = node_names.LABEL_ADVERTISE
GPU_TAINT_KEY = "nvidia.com/gpu"
GPU_TAINT_VALUE = "present"
GPU_TAINT = Taint(key=GPU_TAINT_KEY, value=GPU_TAINT_VALUE, effect="NoSchedule")

LABEL_GPU_PRESENT = "nvidia.com/gpu.present"
LABEL_DEVICE_PLUGIN_CONFIG = "nvidia.com/device-plugin.config"
LABEL_MIG_CONFIG = "nvidia.com/mig.config"
LABEL_SKYPILOT_ACCELERATOR = "skypilot.co/accelerator"
GPUREADY_DOMAIN = "gpuready.io"
LABEL_POOL = "gpuready.io/pool"
LABEL_GPU_POOL = "gpuready.io/gpu-pool"
LABEL_ACCELERATOR = "gpuready.io/accelerator"
LABEL_SHARING = "gpuready.io/sharing"

MANAGED_LABEL_KEYS: frozenset[str] = frozenset(
    {
        LABEL_GPU_PRESENT,
        LABEL_DEVICE_PLUGIN_CONFIG,
        LABEL_MIG_CONFIG,
        LABEL_SKYPILOT_ACCELERATOR,
    }
)
"""Label keys gpuready sets itself on every cloud (a cloud's own: ``SpecRules.own_label_keys``); a pool's extra labels
may not set them."""


def pool_taints(spec: GpuPoolSpec) -> tuple[Taint, ...]:
    """Every taint the pool's nodes carry: the team's GPU taint (``spec.conventions``, ``GPU_TAINT`` by default), the
    cloud's own, then the spec's extras."""
    taints = [spec.conventions.gpu_taint]
    taints.extend(spec.profile.cloud_taints(spec))
    taints.extend(spec.taints)
    return tuple(taints)


def tolerated_taints(spec: GpuPoolSpec) -> tuple[Taint, ...]:
    """What gpuready's DaemonSets and workloads tolerate on the pool's nodes: every taint it declares, then those the
    cloud may add unasked (``CloudProfile.implicit_taints``, e.g. GKE's own GPU taint beside a team's)."""
    return (*pool_taints(spec), *spec.profile.implicit_taints(spec))


def pool_labels(spec: GpuPoolSpec) -> dict[str, str]:
    """Every label gpuready sets on the pool's nodes at creation, extras last."""
    model = spec.resolved.gpu.model
    labels = {
        LABEL_POOL: spec.name,
        LABEL_GPU_POOL: "true",
        LABEL_GPU_PRESENT: "true",
        LABEL_ACCELERATOR: model.key,
        LABEL_SKYPILOT_ACCELERATOR: model.skypilot,
        LABEL_SHARING: spec.sharing_mode,
    }
    if not spec.conventions.skypilot_labels:
        del labels[LABEL_SKYPILOT_ACCELERATOR]
    sharing = spec.sharing
    where = spec.resolved.delivery
    if where == "device-plugin-config" and isinstance(sharing, GpuSharing):
        labels[LABEL_DEVICE_PLUGIN_CONFIG] = sharing_plan.device_plugin_config_name(sharing)
    if where == "mig-manager" and isinstance(sharing, MigPartitioning) and model.mig is not None:
        labels[LABEL_MIG_CONFIG] = sharing_plan.mig_config_label(spec.name, model.mig, sharing)
    labels.update(spec.profile.cloud_labels(spec))

    labels.update(spec.resolved.advertiser.node_labels(spec))
    labels.update(spec.labels)
    return labels


def node_selector(spec: GpuPoolSpec) -> dict[str, str]:
    """The selector that picks exactly this pool's nodes."""
    return {LABEL_POOL: spec.name}


def to_k8s_taint(taint: Taint) -> dict[str, str]:
    """The taint as it appears on a Kubernetes Node."""
    encoded = {"key": taint.key, "effect": taint.effect}
    if taint.value:
        encoded["value"] = taint.value
    return encoded


def toleration_for(taint: Taint, operator: Literal["Exists", "Equal"] = "Exists") -> dict[str, str]:
    """A toleration of ``taint``; ``Exists`` tolerates any value of the key."""
    toleration = {"key": taint.key, "operator": operator, "effect": taint.effect}
    if operator == "Equal":
        toleration["value"] = taint.value
    return toleration
