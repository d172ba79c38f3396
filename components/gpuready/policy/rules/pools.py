"""Rules on GPU node pools: EKS node groups, AKS agent pools (also inside a ManagedCluster), GKE node pools.

Pure: ``(resource_type, props, config) -> messages``. Each message names the field, what is wrong and
the fix, in the cloud API's own encoding.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gpuready.core import scheduling, sharing_plan
from gpuready.core.capacity.pool_facts import API_EFFECTS
from gpuready.core.conventions import gpu_taint_of, skypilot_labels_of
from gpuready.core.props import as_list, as_number, as_text, dig, show
from gpuready.policy.rules import pool_settings
from gpuready.policy.rules.gpu_configs import DEFAULT_MAX_REPLICAS
from gpuready.policy.rules.gpu_pools import GpuPool, first, gpu_pools

DEFAULT_REQUIRED_LABELS: tuple[str, ...] = (scheduling.LABEL_GPU_PRESENT, scheduling.LABEL_ACCELERATOR)
"""``nvidia.com/gpu.present`` lets the device plugin's required node affinity match before NFD runs
(nvidia.md 8 #10); ``gpuready.io/accelerator`` is the canonical lowercase GPU name workloads select on."""

API_EFFECTS_BY_K8S = {k8s: api for api, k8s in API_EFFECTS.items()}
"""Kubernetes effect spelling -> the cloud API's spelling (``NO_SCHEDULE``), for fixes."""


def gpu_taint_problems(resource_type: str, props: Mapping[str, Any], config: Mapping[str, Any]) -> list[str]:
    """Every GPU pool carries ``nvidia.com/gpu`` with effect NoSchedule, encoded the way its API wants it."""
    problems: list[str] = []
    taint = gpu_taint_of(config)
    for pool in gpu_pools(resource_type, props):
        profile = pool.reading
        field, fix = pool.taints_field, profile.encoded_taint(taint)
        problems += _effect_spelling(pool)
        gpu = [t for t in pool.taints if t.key == taint.key]
        if not gpu:
            problems.append(
                f"{field}: GPU pool on {first(pool.instance_types) or 'GPU nodes'} has no {taint.key} NoSchedule "
                f"taint ({profile.policy_untainted_note}); got {show(pool.raw_taints)}. Add {fix!r} to {field}"
            )
        elif not any(t.effect == "NoSchedule" for t in gpu):
            problems.append(
                f"{field}: the {taint.key} taint has effect {gpu[0].effect}, which does not keep other pods off "
                f"the GPU nodes. Use {fix!r}"
            )
        elif any(t in pool.refused_taints for t in gpu):
            problems.append(f"{field}: {profile.title} requires a taint value. Use {fix!r}")
    return problems


def gpu_label_problems(resource_type: str, props: Mapping[str, Any], config: Mapping[str, Any]) -> list[str]:
    """Every GPU pool carries the configured label keys, and gpuready's accelerator labels match the GPU."""
    required = [k for k in as_list(config.get("requiredLabelKeys", DEFAULT_REQUIRED_LABELS)) if isinstance(k, str)]
    problems: list[str] = []
    for pool in gpu_pools(resource_type, props):
        expected = _expected_labels(pool, skypilot_labels_of(config))
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


def pool_image_problems(resource_type: str, props: Mapping[str, Any], config: Mapping[str, Any]) -> list[str]:
    """GPU pools use a current node image with the NVIDIA driver for their CPU architecture (EKS: an NVIDIA AMI
    type); the pool's reader reads the image, one convention judges it (``pool_settings.image_problems``)."""
    problems: list[str] = []
    for pool in gpu_pools(resource_type, props):
        problems += pool_settings.image_problems(pool)
    return problems


def pool_mig_problems(resource_type: str, props: Mapping[str, Any], config: Mapping[str, Any]) -> list[str]:
    """MIG settings on pools name profiles the pool's GPU has: AKS ``gpuInstanceProfile``, GKE
    ``gpuPartitionSize``, and default-table layouts in the ``nvidia.com/mig.config`` label."""
    problems: list[str] = []
    for pool in gpu_pools(resource_type, props):
        problems += pool_settings.mig_problems(pool)
        problems += _mig_label(pool)
    return problems


def pool_sharing_problems(resource_type: str, props: Mapping[str, Any], config: Mapping[str, Any]) -> list[str]:
    """A pool's own GPU time-sharing setting (GKE's ``gpuSharingConfig.maxSharedClientsPerGpu``) is a whole number
    of clients per GPU from 2 to ``maxReplicas``, at most what the cloud allows (GKE: 48)."""
    wanted = as_number(config.get("maxReplicas")) or DEFAULT_MAX_REPLICAS
    problems: list[str] = []
    for pool in gpu_pools(resource_type, props):
        for shared in pool.shared_clients:
            limit = min(wanted, shared.most)
            count = as_number(shared.value)
            if count is None or not count.is_integer() or not 2 <= count <= limit:
                problems.append(
                    f"{shared.field}: must be a whole number from 2 to {limit:g}; got {show(shared.value)}. "
                    f"Use 2 or more shares per GPU, or drop {shared.setting} for whole GPUs"
                )
    return problems


def _effect_spelling(pool: GpuPool) -> list[str]:
    profile = pool.reading
    if profile.policy_taints_as_text:
        bad = [str(t) for t in pool.taints if t.effect not in ("NoSchedule", "PreferNoSchedule", "NoExecute")]
        return (
            [f"{pool.taints_field}: unknown taint effect in {bad!r}; {profile.title} expects key=value:NoSchedule"]
            if bad
            else []
        )
    problems = []
    for index, entry in enumerate(pool.raw_taints):
        effect = as_text(dig(entry, "effect"))
        if effect is not None and effect not in API_EFFECTS:
            problems.append(
                f"{pool.taints_field}[{index}].effect: the {profile.title} API spells effects "
                f"{', '.join(sorted(API_EFFECTS))}; got {effect!r}. "
                f"Use {API_EFFECTS_BY_K8S.get(effect, 'NO_SCHEDULE')!r}"
            )
    return problems


def _expected_labels(pool: GpuPool, skypilot: bool) -> dict[str, str]:
    expected = {scheduling.LABEL_GPU_PRESENT: "true"}
    if pool.model is not None:
        expected[scheduling.LABEL_ACCELERATOR] = pool.model.key
        if skypilot:
            expected[scheduling.LABEL_SKYPILOT_ACCELERATOR] = pool.model.skypilot
    return expected


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
