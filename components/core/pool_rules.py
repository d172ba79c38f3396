"""Validation of a ``GpuPoolSpec``: every rule, every problem collected, one ``SpecError``. Pure.

Field paths use the stack config's camelCase names so a message points at the line a user wrote.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from components.core import lifecycle_rules, sharing_rules
from components.core.catalog import lookup
from components.core.catalog.gpus import GPU_MODELS, GpuModel
from components.core.catalog.lookup import ResolvedGpu
from components.core.config_model.suggest import did_you_mean
from components.core.k8s_syntax import (
    TAINT_EFFECTS,
    label_value_problem,
    prefix_is_under,
    qualified_name_problem,
)
from components.core.lifecycle import SUFFIX_LENGTH
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
    GpuPoolSpec,
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

NAME_MAX: Mapping[str, int] = {"eks": 63, "aks": 12, "gke": 40}
"""The longest cloud name each pattern above admits."""

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
        sharing_rules.check_sharing(spec, resolved.model, problems)
    _check_labels(spec, problems)
    _check_taints(spec, problems)
    lifecycle_rules.check_upgrade(spec, problems)
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
    elif spec.rotates_name and len(spec.name) + 1 + SUFFIX_LENGTH > NAME_MAX[spec.cloud]:
        most = NAME_MAX[spec.cloud] - 1 - SUFFIX_LENGTH
        problems.append(
            Problem(
                "name",
                f"leaves no room for the {SUFFIX_LENGTH}-character suffix that changes when the pool is replaced "
                f"(at most {most} characters)",
                spec.name,
                (),
                "shorten the name, or set fixedName: true (a replacement then fails instead of renaming)",
            )
        )


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
        problems.append(
            Problem(
                "capacity", "unknown capacity type", spec.capacity, CAPACITIES, did_you_mean(spec.capacity, CAPACITIES)
            )
        )
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
                    _effect_hint(taint.effect),
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


def _effect_hint(effect: str) -> str:
    """``NO_SCHEDULE`` is the EKS / GKE API spelling: say so, and suggest the Kubernetes one when close."""
    spelling = "use the Kubernetes spelling; gpuready converts it for each cloud" if "_" in effect else ""
    return " ".join(part for part in (did_you_mean(effect, TAINT_EFFECTS), spelling) if part)
