"""Rules on GPU node pools: EKS node groups, AKS agent pools (also inside a ManagedCluster), GKE node pools.

Pure: ``(resource_type, props, config) -> messages``. Each message names the field, what is wrong and
the fix, in the cloud API's own encoding.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from components.core import scheduling, sharing_plan
from components.core.catalog.gpus import gpu_model_for_gke_accelerator
from components.core.sharing_rules import GKE_MAX_SHARED_CLIENTS, GKE_MIG_MODELS
from components.eks.plan import AMI_TYPES
from policies.gpu_conventions.rules.gpu_configs import DEFAULT_MAX_REPLICAS
from policies.gpu_conventions.rules.gpu_pools import (
    EKS_NODE_GROUP,
    GpuPool,
    first,
    gke_accelerators,
    gpu_pools,
)
from policies.gpu_conventions.rules.k8s import API_EFFECTS, GPU_TAINT
from policies.gpu_conventions.rules.values import as_list, as_mapping, as_number, as_text, dig, show

DEFAULT_REQUIRED_LABELS: tuple[str, ...] = (scheduling.LABEL_GPU_PRESENT, scheduling.LABEL_ACCELERATOR)
"""``nvidia.com/gpu.present`` lets the device plugin's required node affinity match before NFD runs
(nvidia.md 8 #10); ``gpuready.io/accelerator`` is the canonical lowercase GPU name workloads select on."""

NVIDIA_AMI_TYPES = frozenset(AMI_TYPES.values()) | {
    "BOTTLEROCKET_x86_64_NVIDIA_FIPS",
    "BOTTLEROCKET_ARM_64_NVIDIA_FIPS",
}
"""EKS AMI types with the NVIDIA driver (botocore ``eks`` model ``AMITypes``; gpuready's choices plus FIPS)."""
DEPRECATED_GPU_AMI = "AL2_x86_64_GPU"
"""EKS stopped publishing AL2 AMIs on 2025-11-26 (awslabs/amazon-eks-ami doc/usage/al2.md, issue #2545)."""

API_EFFECTS_BY_K8S = {k8s: api for api, k8s in API_EFFECTS.items()}
"""Kubernetes effect spelling -> EKS / GKE API spelling, for fixes."""
_GPU_TAINT_ENCODED = {
    "eks": scheduling.to_eks_taint(scheduling.GPU_TAINT),
    "aks": scheduling.to_aks_taint(scheduling.GPU_TAINT),
    "gke": scheduling.to_gke_taint(scheduling.GPU_TAINT),
}
_TAINT_NOTES = {
    "eks": "EKS never taints GPU node groups, so CPU pods fill the GPU nodes",
    "aks": "AKS never taints GPU pools and has no ExtendedResourceToleration (Azure/AKS#1449)",
    "gke": (
        "GKE adds it only when the cluster already has a non-GPU pool (terraform-google-kubernetes-engine#703), "
        "and a pool that declares other taints but not this one is replaced on every apply "
        "(terraform-provider-google#7928)"
    ),
}


def gpu_taint_problems(resource_type: str, props: Mapping[str, Any], config: Mapping[str, Any]) -> list[str]:
    """Every GPU pool carries ``nvidia.com/gpu`` with effect NoSchedule, encoded the way its API wants it."""
    problems: list[str] = []
    for pool in gpu_pools(resource_type, props):
        field, fix = pool.taints_field, _GPU_TAINT_ENCODED[pool.cloud]
        problems += _effect_spelling(pool)
        gpu = [t for t in pool.taints if t.key == GPU_TAINT.key]
        if not gpu:
            problems.append(
                f"{field}: GPU pool on {first(pool.instance_types) or 'GPU nodes'} has no {GPU_TAINT.key} NoSchedule "
                f"taint ({_TAINT_NOTES[pool.cloud]}); got {show(_raw_taints(pool))}. Add {fix!r} to {field}"
            )
        elif not any(t.effect == "NoSchedule" for t in gpu):
            problems.append(
                f"{field}: the {GPU_TAINT.key} taint has effect {gpu[0].effect}, which does not keep other pods off "
                f"the GPU nodes. Use {fix!r}"
            )
        elif pool.cloud == "gke" and not all(t.value for t in gpu):
            problems.append(f"{field}: GKE requires a taint value. Use {fix!r}")
    return problems


def gpu_label_problems(resource_type: str, props: Mapping[str, Any], config: Mapping[str, Any]) -> list[str]:
    """Every GPU pool carries the configured label keys, and gpuready's accelerator labels match the GPU."""
    required = [k for k in as_list(config.get("requiredLabelKeys", DEFAULT_REQUIRED_LABELS)) if isinstance(k, str)]
    problems: list[str] = []
    for pool in gpu_pools(resource_type, props):
        expected = _expected_labels(pool)
        missing = [k for k in required if k not in pool.labels]
        if missing:
            fix = {k: expected.get(k, "<value>") for k in missing}
            problems.append(
                f"{pool.labels_field}: GPU pool lacks label(s) {', '.join(missing)}, which GPU workloads and the GPU "
                f"stack select on. Add {fix!r} to {pool.labels_field}"
            )
        for key, want in expected.items():
            got = pool.labels.get(key)
            if got is not None and got != want:
                problems.append(
                    f"{pool.labels_field}.{key}: does not match the pool's GPU; got {got!r}. Set it to {want!r}"
                )
    return problems


def eks_ami_problems(resource_type: str, props: Mapping[str, Any], config: Mapping[str, Any]) -> list[str]:
    """EKS GPU node groups use a current NVIDIA AMI type for their CPU architecture."""
    if resource_type != EKS_NODE_GROUP:
        return []
    pools = gpu_pools(resource_type, props)
    if not pools:
        return []
    pool = pools[0]
    want = AMI_TYPES[("al2023", pool.arch or "x86_64")]
    ami = as_text(props.get("amiType"))
    types = ", ".join(pool.instance_types) or "its launch template's instance types"
    if ami is None:
        if props.get("launchTemplate") is not None:
            return []  # the AMI comes from the launch template
        return [
            f"amiType: not set for GPU instance types {types}; EKS then picks a standard AMI. Set amiType: {want!r}"
        ]
    if ami == "CUSTOM":
        return []
    if ami == DEPRECATED_GPU_AMI:
        return [
            f"amiType: {ami!r} is the deprecated Amazon Linux 2 GPU AMI; EKS stopped publishing AL2 AMIs on "
            f"2025-11-26 (awslabs/amazon-eks-ami#2545). Use {want!r} (or the BOTTLEROCKET_*_NVIDIA type)"
        ]
    if ami not in NVIDIA_AMI_TYPES:
        return [
            f"amiType: {ami!r} has no NVIDIA driver, so the GPUs of {types} are never usable. Use {want!r} "
            f"(allowed: {', '.join(sorted(NVIDIA_AMI_TYPES))})"
        ]
    ami_arch = "arm64" if "_ARM_64_" in ami else "x86_64"
    if pool.arch is not None and ami_arch != pool.arch:
        return [f"amiType: {ami!r} is for {ami_arch}, but {types} is {pool.arch}. Use {want!r}"]
    return []


def pool_mig_problems(resource_type: str, props: Mapping[str, Any], config: Mapping[str, Any]) -> list[str]:
    """MIG settings on pools name profiles the pool's GPU has: AKS ``gpuInstanceProfile``, GKE
    ``gpuPartitionSize``, and default-table layouts in the ``nvidia.com/mig.config`` label."""
    problems: list[str] = []
    for pool in gpu_pools(resource_type, props):
        if pool.cloud == "aks":
            problems += _aks_mig(pool)
        if pool.cloud == "gke":
            problems += _gke_mig(pool)
        problems += _mig_label(pool)
    return problems


def pool_sharing_problems(resource_type: str, props: Mapping[str, Any], config: Mapping[str, Any]) -> list[str]:
    """GKE ``gpuSharingConfig.maxSharedClientsPerGpu`` is a whole number from 2 to ``maxReplicas`` (at most 48)."""
    limit = min(as_number(config.get("maxReplicas")) or DEFAULT_MAX_REPLICAS, GKE_MAX_SHARED_CLIENTS)
    problems: list[str] = []
    for pool in gpu_pools(resource_type, props):
        if pool.cloud != "gke":
            continue
        for index, accelerator in enumerate(gke_accelerators(as_mapping(pool.props.get("nodeConfig")) or {})):
            clients = dig(accelerator, "gpuSharingConfig", "maxSharedClientsPerGpu")
            if clients is None:
                continue
            count = as_number(clients)
            field = f"nodeConfig.guestAccelerators[{index}].gpuSharingConfig.maxSharedClientsPerGpu"
            if count is None or not count.is_integer() or not 2 <= count <= limit:
                problems.append(
                    f"{field}: must be a whole number from 2 to {limit:g}; got {show(clients)}. "
                    "Use 2 or more shares per GPU, or drop gpuSharingConfig for whole GPUs"
                )
    return problems


def _effect_spelling(pool: GpuPool) -> list[str]:
    if pool.cloud == "aks":
        bad = [str(t) for t in pool.taints if t.effect not in ("NoSchedule", "PreferNoSchedule", "NoExecute")]
        return (
            [f"{pool.taints_field}: unknown taint effect in {bad!r}; AKS expects key=value:NoSchedule"] if bad else []
        )
    problems = []
    for index, entry in enumerate(_raw_taints(pool)):
        effect = as_text(dig(entry, "effect"))
        if effect is not None and effect not in API_EFFECTS:
            problems.append(
                f"{pool.taints_field}[{index}].effect: the {pool.cloud.upper()} API spells effects "
                f"{', '.join(sorted(API_EFFECTS))}; got {effect!r}. "
                f"Use {API_EFFECTS_BY_K8S.get(effect, 'NO_SCHEDULE')!r}"
            )
    return problems


def _raw_taints(pool: GpuPool) -> Any:
    if pool.cloud == "aks":
        return pool.props.get("nodeTaints") or []
    if pool.cloud == "gke":
        return dig(pool.props, "nodeConfig", "taints") or []
    return pool.props.get("taints") or []


def _expected_labels(pool: GpuPool) -> dict[str, str]:
    expected = {scheduling.LABEL_GPU_PRESENT: "true"}
    if pool.model is not None:
        expected[scheduling.LABEL_ACCELERATOR] = pool.model.key
        expected[scheduling.LABEL_SKYPILOT_ACCELERATOR] = pool.model.skypilot
    return expected


def _aks_mig(pool: GpuPool) -> list[str]:
    profile = as_text(pool.props.get("gpuInstanceProfile"))
    field = f"{pool.where}gpuInstanceProfile"
    if profile is None:
        return []
    if profile not in sharing_plan.AKS_MIG_PROFILES:
        return [f"{field}: unknown MIG profile; got {profile!r}. Allowed: {', '.join(sharing_plan.AKS_MIG_PROFILES)}"]
    model = pool.model
    if model is None:
        return []
    if model.mig is None:
        return [
            f"{field}: {first(pool.instance_types)} carries {model.display} GPUs, which have no MIG; got {profile!r}. "
            "Remove gpuInstanceProfile or use an A100/H100/H200 VM size"
        ]
    offered = {
        name: p
        for p in sharing_plan.aks_mig_choices(model.mig)
        if (name := sharing_plan.aks_gpu_instance_profile(model.mig, p)) is not None
    }
    if profile not in offered:
        return [
            f"{field}: {model.display} has no {profile} slice; got {profile!r}. Allowed: {', '.join(sorted(offered))}"
        ]
    return []


def _gke_mig(pool: GpuPool) -> list[str]:
    problems = []
    config = as_mapping(pool.props.get("nodeConfig")) or {}
    for index, accelerator in enumerate(gke_accelerators(config)):
        size = as_text(accelerator.get("gpuPartitionSize"))
        model = gpu_model_for_gke_accelerator(as_text(accelerator.get("type")) or "")
        if size is None or model is None:
            continue
        field = f"nodeConfig.guestAccelerators[{index}].gpuPartitionSize"
        if model.mig is None or model.key not in GKE_MIG_MODELS:
            problems.append(
                f"{field}: GKE cannot partition {model.display} GPUs; got {size!r}. Remove gpuPartitionSize"
            )
        elif size not in model.mig.profiles:
            allowed = ", ".join(p for p in model.mig.profiles if "+" not in p)
            problems.append(f"{field}: {model.display} has no MIG profile {size!r}. Allowed: {allowed}")
    return problems


def _mig_label(pool: GpuPool) -> list[str]:
    value = pool.labels.get(scheduling.LABEL_MIG_CONFIG)
    field = f"{pool.labels_field}.{scheduling.LABEL_MIG_CONFIG}"
    if value is None or value == "all-disabled" or pool.model is None:
        return []
    table = pool.model.mig
    if table is None:
        return [
            f"{field}: {pool.model.display} GPUs have no MIG, so the MIG manager never applies {value!r}. "
            "Remove the label or use a MIG-capable instance type"
        ]
    named = [*sharing_plan.named_layouts(table), "all-enabled"]
    if value.startswith("all-") and value not in named:
        return [f"{field}: {value!r} is not a layout of {table.family}. Allowed: {', '.join(named)}"]
    return []
