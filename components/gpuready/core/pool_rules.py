"""Validation of a ``GpuPoolSpec``: every rule, every problem collected, one ``SpecError``. Pure.

Field paths use the stack config's camelCase names so a message points at the line a user wrote.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from gpuready.core import lifecycle_rules, pool_hatches, resolved_pool, sharing_rules
from gpuready.core.advertisers.registry import ADVERTISE_VALUES, advertiser_for
from gpuready.core.capacity import gpu_choice
from gpuready.core.capacity import rules as capacity_rules
from gpuready.core.catalog.gpus import GpuModel
from gpuready.core.clouds.registry import registered_own_keys
from gpuready.core.fabric import rules as fabric_rules
from gpuready.core.k8s_syntax import (
    TAINT_EFFECTS,
    label_value_problem,
    prefix_is_under,
    qualified_name_problem,
)
from gpuready.core.pool_parts import DRIVER_OWNERS
from gpuready.core.scheduling import (
    GPU_TAINT,
    LABEL_DEPLOY_DRA_DRIVER,
    LABEL_DEPLOY_PREFIX,
    MANAGED_LABEL_KEYS,
)
from gpuready.core.suggest import did_you_mean
from gpuready.errors import Problem, SpecError

if TYPE_CHECKING:
    from gpuready.core.clouds.spec_rules import SpecRules
    from gpuready.core.resolved_pool import ResolvedPool
    from gpuready.core.specs import GpuPoolSpec

MAX_NODES = 1000
"""Upper bound on a pool's size (AKS user pools: 0-1000 nodes; larger pools are a config slip)."""


def validate(spec: GpuPoolSpec) -> ResolvedPool:
    """Check ``spec``; return what it resolves to or raise ``SpecError`` with every problem found."""
    problems: list[Problem] = []
    resolved = gpu_choice.resolve(spec, capacity_rules.is_elastic(spec), problems)
    problems.extend(capacity_rules.name_problems(spec))
    _check_sizes(spec, problems)
    _check_choices(spec, problems)
    problems.extend(capacity_rules.problems(spec, resolved))
    _check_driver(spec, problems)
    if resolved is not None:
        _check_cloud_offers(spec, resolved.model, problems)
        sharing_rules.check_sharing(spec, resolved.model, problems)
        problems.extend(fabric_rules.problems(spec))
    _check_labels(spec, problems)
    _check_taints(spec, problems)
    lifecycle_rules.check_upgrade(spec, problems)
    problems.extend(pool_hatches.problems(spec))
    if problems or resolved is None:
        raise SpecError(problems)
    return resolved_pool.resolve(spec, resolved)


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
    images = spec.profile.images
    if spec.image is not None and spec.image not in images:
        problems.append(Problem("image", f"not a GPU node image family on {spec.cloud}", spec.image, images))
    if spec.driver not in DRIVER_OWNERS:
        problems.append(Problem("driver", "unknown driver owner", spec.driver, DRIVER_OWNERS))
    if spec.advertise not in ADVERTISE_VALUES:
        hint = did_you_mean(spec.advertise, ADVERTISE_VALUES) or "omit advertise for the device plugin"
        problems.append(Problem("advertise", "unknown way of advertising GPUs", spec.advertise, ADVERTISE_VALUES, hint))
    else:
        problems.extend(advertiser_for(spec).spec_problems(spec))


def _check_driver(spec: GpuPoolSpec, problems: list[Problem]) -> None:
    problems.extend(spec.profile.driver_problems(spec))


@cache
def _clouds_own_keys() -> tuple[frozenset[str], frozenset[str]]:
    """The label and taint keys some cloud's pools get from gpuready (``NodeSetup.own_label_keys``,
    ``own_taint_keys``), every registered cloud's: a pool on any cloud may not declare them (AKS's spot taint, GKE's
    device-plugin opt-out label), as before they moved into their cloud packages. As registered
    (``gpuready.plugins``, checked against each profile when it loads), so no other cloud's profile loads."""
    return registered_own_keys()


def _check_cloud_offers(spec: GpuPoolSpec, model: GpuModel, problems: list[Problem]) -> None:
    problems.extend(spec.profile.accelerator_problems(model))


def _check_labels(spec: GpuPoolSpec, problems: list[Problem]) -> None:
    profile: SpecRules = spec.profile
    for key, value in spec.labels.items():
        path = f"labels[{key!r}]"
        reason = qualified_name_problem(key)
        if reason:
            problems.append(Problem(path, reason, key))
            continue
        problems.extend(profile.label_problems(path, key, value))
        if not isinstance(value, str) or label_value_problem(value):
            problems.append(Problem(path, label_value_problem(str(value)) or "a label value must be a string", value))
        reserved = next((d for d in profile.reserved_label_domains if prefix_is_under(key, d)), None)
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
        elif key == LABEL_DEPLOY_DRA_DRIVER:
            if value != "false":
                problems.append(
                    Problem(
                        path,
                        "only 'false' is yours to set: it keeps the GPU Operator's GPUCluster DRA plugin off the "
                        "pool (the operator sets 'true' itself)",
                        value,
                        ("false",),
                    )
                )
        elif key in MANAGED_LABEL_KEYS or key in _clouds_own_keys()[0] or key.startswith(LABEL_DEPLOY_PREFIX):
            problems.append(Problem(path, "gpuready sets this label itself", key, (), "remove it from labels"))


def _check_taints(spec: GpuPoolSpec, problems: list[Problem]) -> None:
    profile: SpecRules = spec.profile
    seen: set[tuple[str, str]] = set()
    for index, taint in enumerate(spec.taints):
        path = f"taints[{index}]"
        reason = qualified_name_problem(taint.key)
        if reason:
            problems.append(Problem(f"{path}.key", reason, taint.key))
        else:
            problems.extend(profile.taint_key_problems(f"{path}.key", taint))
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
        if taint.key == spec.conventions.gpu_taint.key or taint.key in _clouds_own_keys()[1]:
            problems.append(Problem(f"{path}.key", "gpuready sets this taint itself", taint.key, (), "remove it"))
        problems.extend(profile.taint_value_problems(f"{path}.value", taint))
        if (taint.key, taint.effect) in seen:
            problems.append(Problem(path, "duplicate taint key and effect", f"{taint.key}:{taint.effect}"))
        seen.add((taint.key, taint.effect))
    problems.extend(profile.taint_count_problems(spec))
    gpu = spec.conventions.gpu_taint  # the team's GPU taint (gpuready:conventions) goes on this cloud's pool too
    if gpu != GPU_TAINT:
        problems.extend(profile.taint_key_problems("conventions.gpuTaint.key", gpu))
        problems.extend(profile.taint_value_problems("conventions.gpuTaint.value", gpu))


def _effect_hint(effect: str) -> str:
    """``NO_SCHEDULE`` is the EKS / GKE API spelling: say so, and suggest the Kubernetes one when close."""
    spelling = "use the Kubernetes spelling; gpuready converts it for each cloud" if "_" in effect else ""
    return " ".join(part for part in (did_you_mean(effect, TAINT_EFFECTS), spelling) if part)
