"""Validation of a ``GpuPoolSpec``: every rule, every problem collected, one ``SpecError``. Pure.

Field paths use the stack config's camelCase names so a message points at the line a user wrote.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from components.core import sharing_plan
from components.core.catalog import lookup, mig_profiles
from components.core.catalog.gpus import GPU_MODELS, GpuModel
from components.core.catalog.lookup import ResolvedGpu
from components.core.k8s_syntax import (
    TAINT_EFFECTS,
    label_value_problem,
    prefix_is_under,
    qualified_name_problem,
)
from components.core.scheduling import (
    AKS_SPOT_TAINT,
    GPU_TAINT_KEY,
    GPUREADY_DOMAIN,
    LABEL_DEPLOY_PREFIX,
    MANAGED_LABEL_KEYS,
)
from components.core.specs import (
    CAPACITIES,
    DRIVER_OWNERS,
    GKE_DRIVER_VERSIONS,
    IMAGES,
    MIG_STRATEGIES,
    GpuPoolSpec,
    GpuSharing,
    MigPartitioning,
)
from components.errors import Problem, SpecError

NAME_RULES: Mapping[str, tuple[re.Pattern[str], str]] = {
    # EKS CreateNodegroup: 1-63 characters, letters, digits, '-' and '_', starting alphanumeric.
    "eks": (
        re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,62}\Z"),
        "1-63 letters, digits, '-' or '_', starting alphanumeric",
    ),
    # AKS Linux agent pools (Azure AVM agentpool variables.tf:17).
    "aks": (
        re.compile(r"^[a-z][a-z0-9]{0,11}\Z"),
        "1-12 lowercase letters and digits, starting with a letter",
    ),
    # GKE node pools: lowercase letters, digits and '-', starting with a letter, at most 40 characters.
    "gke": (
        re.compile(r"^[a-z](?:[-a-z0-9]{0,38}[a-z0-9])?\Z"),
        "1-40 lowercase letters, digits or '-', starting with a letter and not ending with '-'",
    ),
}

RESERVED_LABEL_DOMAINS: Mapping[str, tuple[str, ...]] = {
    # kubelet's NodeRestriction reserves kubernetes.io / k8s.io; each cloud reserves its own prefix.
    "eks": ("kubernetes.io", "k8s.io", "eks.amazonaws.com", GPUREADY_DOMAIN),
    "aks": ("kubernetes.io", "k8s.io", "kubernetes.azure.com", GPUREADY_DOMAIN),
    "gke": ("kubernetes.io", "k8s.io", "cloud.google.com", GPUREADY_DOMAIN),
}

MAX_NODES = 1000
"""Upper bound on a pool's size (AKS user pools: 0-1000 nodes; larger pools are a config slip)."""
EKS_MAX_TAINTS = 50
"""aws.eks.NodeGroup accepts at most 50 taints (pulumi_aws eks/node_group.py doc)."""
EKS_MAX_KEY = 63
"""EKS API ``labelKey`` / ``taintKey``: 1-63 characters in all, prefix included (botocore eks service model)."""
GKE_MIG_MODELS = frozenset({"a100", "a100-80gb", "h100", "h200", "b200"})
"""GPUs GKE partitions with ``gpu_partition_size`` (GKE gpus-multi docs, shared reference clouds.md 4.2)."""
GKE_MAX_SHARED_CLIENTS = 48
"""GKE's maximum for ``max_shared_clients_per_gpu`` (GKE time-sharing GPUs docs)."""


def validate(spec: GpuPoolSpec) -> ResolvedGpu:
    """Check ``spec``; return its resolved GPUs or raise ``SpecError`` with every problem found."""
    problems: list[Problem] = []
    resolved = _resolve(spec, problems)
    _check_name(spec, problems)
    _check_sizes(spec, problems)
    _check_choices(spec, problems)
    _check_driver(spec, problems)
    if resolved is not None:
        _check_cloud_offers(spec, resolved.model, problems)
        _check_sharing(spec, resolved.model, problems)
    _check_labels(spec, problems)
    _check_taints(spec, problems)
    if problems or resolved is None:
        raise SpecError(problems)
    return resolved


def _resolve(spec: GpuPoolSpec, problems: list[Problem]) -> ResolvedGpu | None:
    try:
        return lookup.resolve_instance_type(spec.cloud, spec.instance_type, spec.gpu)
    except SpecError as error:
        problems.extend(error.problems)
        return None


def _check_name(spec: GpuPoolSpec, problems: list[Problem]) -> None:
    pattern, rule = NAME_RULES[spec.cloud]
    if not pattern.match(spec.name):
        problems.append(Problem("name", f"not a valid {spec.cloud.upper()} node pool name", spec.name, (), rule))


def _check_sizes(spec: GpuPoolSpec, problems: list[Problem]) -> None:
    if spec.min_size < 0:
        problems.append(Problem("minSize", "must be 0 or more", spec.min_size))
    if not 1 <= spec.max_size <= MAX_NODES:
        problems.append(Problem("maxSize", f"must be between 1 and {MAX_NODES}", spec.max_size))
    if spec.min_size > spec.max_size:
        problems.append(
            Problem("minSize", f"is larger than maxSize ({spec.max_size})", spec.min_size, (), "lower minSize")
        )
    desired = spec.desired_size
    if desired is not None and not spec.min_size <= desired <= spec.max_size:
        problems.append(
            Problem(
                "desiredSize",
                f"must lie between minSize ({spec.min_size}) and maxSize ({spec.max_size})",
                desired,
            )
        )


def _check_choices(spec: GpuPoolSpec, problems: list[Problem]) -> None:
    if spec.capacity not in CAPACITIES:
        problems.append(Problem("capacity", "unknown capacity type", spec.capacity, CAPACITIES))
    if spec.image is not None and spec.image not in IMAGES[spec.cloud]:
        problems.append(
            Problem("image", f"not a GPU node image family on {spec.cloud}", spec.image, IMAGES[spec.cloud])
        )
    if spec.driver not in DRIVER_OWNERS:
        problems.append(Problem("driver", "unknown driver owner", spec.driver, DRIVER_OWNERS))


def _check_driver(spec: GpuPoolSpec, problems: list[Problem]) -> None:
    if spec.cloud == "eks" and spec.driver == "operator":
        problems.append(
            Problem(
                "driver",
                "the GPU Operator has no driver containers for Amazon Linux or Bottlerocket",
                "operator",
                ("cloud",),
                "EKS NVIDIA AMIs ship the driver (NVIDIA/gpu-operator#686); keep driver: cloud and run the "
                "operator with driver.enabled=false",
            )
        )
    if spec.cloud == "gke" and spec.driver == "operator" and spec.image_family != "ubuntu":
        problems.append(
            Problem(
                "image",
                "the GPU Operator's driver containers need Ubuntu nodes on GKE",
                spec.image_family,
                ("ubuntu",),
                "set image: ubuntu, or driver: cloud to keep GKE's driver and device plugin",
            )
        )
    version = spec.driver_version
    if version is None:
        return
    if spec.cloud != "gke" or spec.driver != "cloud":
        problems.append(
            Problem(
                "driverVersion",
                "only GKE pools whose driver GKE installs take a driver version",
                version,
                (),
                "remove driverVersion",
            )
        )
    elif version not in GKE_DRIVER_VERSIONS:
        problems.append(Problem("driverVersion", "unknown GKE driver version", version, GKE_DRIVER_VERSIONS))
    elif version == "latest" and spec.image_family != "cos":
        problems.append(
            Problem(
                "driverVersion",
                "GKE offers the LATEST driver on COS only",
                version,
                ("default",),
                "use default",
            )
        )


def _check_cloud_offers(spec: GpuPoolSpec, model: GpuModel, problems: list[Problem]) -> None:
    if spec.cloud == "gke" and model.gke_accelerator is None:
        offered = sorted(m.key for m in GPU_MODELS.values() if m.gke_accelerator)
        problems.append(Problem("gpu.model", "GKE offers no such accelerator", model.key, offered))


def _check_sharing(spec: GpuPoolSpec, model: GpuModel, problems: list[Problem]) -> None:
    sharing = spec.sharing
    if sharing is None:
        return
    if spec.cloud == "eks" and spec.image_family == "bottlerocket":
        problems.append(
            Problem(
                "sharing",
                "Bottlerocket runs its own device plugin, configured by host settings gpuready does not manage yet",
                sharing.mode,
                ("none",),
                "use image: al2023 for time-slicing, MPS or MIG",
            )
        )
        return
    where = sharing_plan.delivery(spec.cloud, spec.driver, sharing.mode)
    if isinstance(sharing, GpuSharing):
        _check_replicas(sharing, where, problems)
    else:
        _check_mig(spec, sharing, model, where, problems)


def _check_replicas(sharing: GpuSharing, where: str, problems: list[Problem]) -> None:
    if sharing.mode not in ("time-slicing", "mps"):
        problems.append(
            Problem("sharing.mode", "unknown sharing mode", sharing.mode, ("none", "time-slicing", "mps", "mig"))
        )
    if sharing.replicas < 2:
        problems.append(
            Problem(
                "sharing.replicas",
                "must be at least 2 (the device plugin refuses 1)",
                sharing.replicas,
                (),
                "use sharing: none for whole GPUs",
            )
        )
    if where != "cloud":
        return
    if sharing.replicas > GKE_MAX_SHARED_CLIENTS:
        problems.append(Problem("sharing.replicas", f"GKE allows at most {GKE_MAX_SHARED_CLIENTS}", sharing.replicas))
    if sharing.rename_by_default or sharing.fail_requests_greater_than_one is not None:
        problems.append(
            Problem(
                "sharing",
                "GKE's own device plugin has no renameByDefault or failRequestsGreaterThanOne",
                None,
                (),
                "remove them, or use driver: operator (NVIDIA's stack) on an ubuntu pool",
            )
        )


def _check_mig(spec: GpuPoolSpec, mig: MigPartitioning, model: GpuModel, where: str, problems: list[Problem]) -> None:
    table = model.mig
    if table is None:
        problems.append(
            Problem(
                "sharing.mode",
                f"{model.display} ({spec.instance_type}) does not support MIG",
                "mig",
                ("none", "time-slicing", "mps"),
                "use time-slicing or mps to share it, or a MIG-capable GPU (A100, H100, H200, B200, GH200)",
            )
        )
        return
    if mig.strategy not in MIG_STRATEGIES:
        problems.append(Problem("sharing.strategy", "unknown MIG strategy", mig.strategy, MIG_STRATEGIES))
    if (mig.profile is None) == (mig.layout is None):
        problems.append(Problem("sharing", "give exactly one of profile or layout", None, (), "profile: 1g.10gb"))
        return
    layout = _mig_layout_or_problem(table, mig, problems)
    if layout is None:
        return
    if mig.strategy == "single" and not sharing_plan.homogeneous(layout):
        problems.append(
            Problem(
                "sharing.strategy",
                "single needs one profile on every GPU; this layout mixes several",
                "single",
                ("mixed",),
                "use strategy: mixed (NVIDIA/gpu-operator#286)",
            )
        )
    if where == "cloud":
        _check_cloud_native_mig(spec, mig, model.key, table, problems)


def _mig_layout_or_problem(
    table: mig_profiles.MigTable, mig: MigPartitioning, problems: list[Problem]
) -> dict[str, int] | None:
    if mig.profile is not None:
        if mig.profile not in table.profiles:
            problems.append(
                Problem(
                    "sharing.profile",
                    f"not a MIG profile of {table.family}",
                    mig.profile,
                    sorted(table.profiles),
                )
            )
            return None
        return {mig.profile: table.profiles[mig.profile]}
    if isinstance(mig.layout, str):
        if mig.layout not in sharing_plan.named_layouts(table):
            problems.append(
                Problem(
                    "sharing.layout",
                    f"not a mig-parted layout for {table.family}",
                    mig.layout,
                    sharing_plan.named_layouts(table),
                )
            )
            return None
        return sharing_plan.mig_layout(table, mig)
    layout = dict(mig.layout or {})
    if not layout:
        problems.append(Problem("sharing.layout", "an empty layout partitions nothing", layout))
        return None
    reasons = mig_profiles.layout_problems(table, layout)
    problems.extend(Problem("sharing.layout", reason, None, (), "") for reason in reasons)
    return None if reasons else layout


def _check_cloud_native_mig(
    spec: GpuPoolSpec, mig: MigPartitioning, model_key: str, table: mig_profiles.MigTable, problems: list[Problem]
) -> None:
    if mig.profile is None:
        problems.append(
            Problem(
                "sharing.layout",
                f"{spec.cloud.upper()} partitions every GPU with one profile",
                mig.layout,
                (),
                "use profile: <one profile>, or driver: operator to let the MIG manager apply a layout",
            )
        )
        return
    if mig_profiles.is_media_extension(mig.profile):
        problems.append(
            Problem(
                "sharing.profile",
                f"{spec.cloud.upper()} does not offer media-extension profiles",
                mig.profile,
            )
        )
    if spec.cloud == "gke" and model_key not in GKE_MIG_MODELS:
        problems.append(
            Problem(
                "sharing.mode",
                "GKE does not partition this GPU with MIG",
                model_key,
                sorted(GKE_MIG_MODELS),
                "use driver: operator to let the MIG manager do it",
            )
        )
    if spec.cloud == "gke" and mig.strategy != "single":
        problems.append(
            Problem(
                "sharing.strategy",
                "GKE advertises MIG partitions as nvidia.com/gpu (single)",
                mig.strategy,
                ("single",),
            )
        )
    if spec.cloud == "aks" and sharing_plan.aks_gpu_instance_profile(table, mig.profile) is None:
        problems.append(
            Problem(
                "sharing.profile",
                "AKS gpuInstanceProfile cannot produce this profile",
                mig.profile,
                sharing_plan.aks_mig_choices(table),
            )
        )


def _check_labels(spec: GpuPoolSpec, problems: list[Problem]) -> None:
    for key, value in spec.labels.items():
        path = f"labels[{key!r}]"
        reason = qualified_name_problem(key)
        if reason:
            problems.append(Problem(path, reason, key))
            continue
        if spec.cloud == "eks" and len(key) > EKS_MAX_KEY:
            problems.append(Problem(path, f"EKS allows label keys of at most {EKS_MAX_KEY} characters", key))
        if spec.cloud == "eks" and value == "":
            problems.append(Problem(path, "EKS requires a non-empty label value", value))
        if not isinstance(value, str) or label_value_problem(value):
            problems.append(Problem(path, label_value_problem(str(value)) or "a label value must be a string", value))
        reserved = next((d for d in RESERVED_LABEL_DOMAINS[spec.cloud] if prefix_is_under(key, d)), None)
        if reserved:
            problems.append(
                Problem(
                    path,
                    f"the {reserved} prefix is reserved on {spec.cloud}",
                    key,
                    (),
                    "pick a label key under your own domain",
                )
            )
        elif key in MANAGED_LABEL_KEYS or key.startswith(LABEL_DEPLOY_PREFIX):
            problems.append(Problem(path, "gpuready sets this label itself", key, (), "remove it from labels"))


def _check_taints(spec: GpuPoolSpec, problems: list[Problem]) -> None:
    seen: set[tuple[str, str]] = set()
    for index, taint in enumerate(spec.taints):
        path = f"taints[{index}]"
        reason = qualified_name_problem(taint.key)
        if reason:
            problems.append(Problem(f"{path}.key", reason, taint.key))
        elif spec.cloud == "eks" and len(taint.key) > EKS_MAX_KEY:
            problems.append(
                Problem(f"{path}.key", f"EKS allows taint keys of at most {EKS_MAX_KEY} characters", taint.key)
            )
        if label_value_problem(taint.value):
            problems.append(Problem(f"{path}.value", label_value_problem(taint.value) or "", taint.value))
        if taint.effect not in TAINT_EFFECTS:
            problems.append(
                Problem(
                    f"{path}.effect",
                    "unknown taint effect (Kubernetes spelling)",
                    taint.effect,
                    TAINT_EFFECTS,
                )
            )
        if taint.key in (GPU_TAINT_KEY, AKS_SPOT_TAINT.key):
            problems.append(Problem(f"{path}.key", "gpuready sets this taint itself", taint.key, (), "remove it"))
        if spec.cloud == "gke" and not taint.value:
            problems.append(Problem(f"{path}.value", "GKE requires a taint value", taint.value))
        if (taint.key, taint.effect) in seen:
            problems.append(Problem(path, "duplicate taint key and effect", f"{taint.key}:{taint.effect}"))
        seen.add((taint.key, taint.effect))
    if spec.cloud == "eks" and len(spec.taints) + 1 > EKS_MAX_TAINTS:
        problems.append(
            Problem("taints", f"EKS allows at most {EKS_MAX_TAINTS} taints per node group", len(spec.taints) + 1)
        )
