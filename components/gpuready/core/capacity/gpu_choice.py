"""Which instance types a pool's nodes may be, and the GPUs they carry: ``instanceType`` (one type, or a list for an
elastic pool) or ``gpuRequirements`` (elastic pools only). Pure.

The rule (one home): **a pool holds one GPU model, one GPU count per node and one CPU architecture**, however its
types are given. gpuready labels every node of a pool with its GPU model in the node template
(``scheduling.pool_labels``), configures time-slicing, MPS and MIG per pool, and sets the pool's GPU limit as
``maxSize`` x GPUs per node; a pool mixing models or counts would label nodes wrongly and size its limit wrongly.
A list therefore names interchangeable types (say ``g6.xlarge`` and ``g6.2xlarge``: one L4 each, different CPU and
memory), which is what Karpenter's requirement semantics give: the values of one ``In`` requirement are
alternatives, the requirements of a NodePool all hold together (kubernetes-sigs/karpenter, NodePool
``spec.template.spec.requirements``, in the CRD at ``../shared/reference/upstream/karpenter-aws/``), so a
type list beside an ``instance-gpu-count`` requirement would silently drop the types of another count; gpuready
refuses that instead. ``gpuRequirements: {model, count}`` stands for every type of the cloud's catalog with exactly
that model and count; a model the cloud's catalog lacks, or a count none of its types has, is refused with the
counts it does have. Fixed pools name exactly one type.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gpuready.core.catalog import lookup
from gpuready.core.catalog.instance_types import InstanceType
from gpuready.core.catalog.lookup import ResolvedGpu
from gpuready.errors import Problem, SpecError

if TYPE_CHECKING:
    from gpuready.core.specs import GpuPoolSpec


def given_types(spec: GpuPoolSpec) -> tuple[str, ...]:
    """The instance types the pool names (``instanceType``), as a tuple."""
    given = spec.instance_type
    if isinstance(given, str):
        return (given,)
    return tuple(given) if isinstance(given, tuple) else ()


def instance_types(spec: GpuPoolSpec) -> tuple[str, ...]:
    """Every instance type the pool's nodes may be: the named ones, or the catalog's types meeting its
    ``gpuRequirements`` (sorted); call on a validated spec."""
    wanted = spec.gpu_requirements
    if wanted is None:
        return given_types(spec)
    model = lookup.lookup_gpu_model(wanted.model)
    table = spec.profile.instance_types
    return tuple(sorted(n for n, t in table.items() if _whole(t) and t.gpu == model.key and t.gpus == wanted.count))


def resolve(spec: GpuPoolSpec, elastic: bool, problems: list[Problem]) -> ResolvedGpu | None:
    """The pool's GPUs (for several types: the first's, all agreeing), adding what is wrong to ``problems``."""
    if spec.gpu_requirements is not None:
        return _from_requirements(spec, elastic, problems)
    types = given_types(spec)
    if not types:
        problems.append(
            Problem("instanceType", "is required", spec.instance_type, (),
                    "name the instance type" + (", or give gpuRequirements: {model, count}" if elastic else ""))
        )  # fmt: skip
        return None
    if isinstance(spec.instance_type, tuple) and not elastic:
        problems.append(
            Problem("instanceType", "a fixed node pool has one instance type", list(types), (),
                    "name one type, or choose an elastic provisioner (which picks among several)")
        )  # fmt: skip
        return None
    resolved = _agreeing(spec, types, problems)
    if resolved is not None and elastic and resolved.fraction != 1.0:
        problems.append(
            Problem("instanceType", "a fractional-GPU type is for fixed node pools", resolved.instance_type, (),
                    "drop provisioner (EC2 reports GpuInfo Count 0 for it, so a provisioner's GPU-count "
                    "requirement would not select it), or pick a whole-GPU type")
        )  # fmt: skip
        return None
    return resolved


def _resolved_at(spec: GpuPoolSpec, name: str, path: str, problems: list[Problem]) -> ResolvedGpu | None:
    try:
        return lookup.resolve_instance_type(spec.profile, name, spec.gpu, path)
    except SpecError as error:
        problems.extend(error.problems)
        return None


def _agreeing(spec: GpuPoolSpec, types: tuple[str, ...], problems: list[Problem]) -> ResolvedGpu | None:
    listed = isinstance(spec.instance_type, tuple)
    found = [_resolved_at(spec, name, f"instanceType[{i}]" if listed else "instanceType", problems)
             for i, name in enumerate(types)]  # fmt: skip
    if any(gpu is None for gpu in found):
        return None
    first = found[0]
    assert first is not None
    for index, gpu in enumerate(found[1:], start=1):
        assert gpu is not None
        if types.index(types[index]) != index:
            problems.append(Problem(f"instanceType[{index}]", "is named twice", types[index], (), "remove it"))
        elif (gpu.model, gpu.gpus, gpu.arch, gpu.fraction) != (first.model, first.gpus, first.arch, first.fraction):
            problems.append(
                Problem(f"instanceType[{index}]", f"has {_kind(gpu)}, the pool's first type {first.instance_type} "
                        f"{_kind(first)}", types[index],
                        (), "a pool holds one GPU model and count: list types alike, or make one pool per kind")
            )  # fmt: skip
    return first


def _from_requirements(spec: GpuPoolSpec, elastic: bool, problems: list[Problem]) -> ResolvedGpu | None:
    wanted = spec.gpu_requirements
    assert wanted is not None
    before = len(problems)
    if not elastic:
        problems.append(
            Problem("gpuRequirements", "a fixed node pool names its instance type", "gpuRequirements", (),
                    "name instanceType, or choose an elastic provisioner (which picks the types itself)")
        )  # fmt: skip
    for key, value in (("instanceType", spec.instance_type), ("gpu", spec.gpu)):
        if value is not None:
            problems.append(Problem(key, "cannot be given with gpuRequirements", value, (), f"remove {key}"))
    try:
        model = lookup.lookup_gpu_model(wanted.model, "gpuRequirements.model")
    except SpecError as error:
        problems.extend(error.problems)
        return None
    table = spec.profile.instance_types
    offered = sorted({t.gpus for t in table.values() if _whole(t) and t.gpu == model.key})
    if not offered:
        problems.append(
            Problem("gpuRequirements.model", f"no {spec.cloud} instance type in gpuready's catalog has it", model.key,
                    tuple(sorted({t.gpu for t in table.values()})), "pick a model the cloud offers")
        )  # fmt: skip
    elif wanted.count not in offered:
        problems.append(
            Problem("gpuRequirements.count", f"no {spec.cloud} instance type has this many {model.key} GPUs",
                    wanted.count, tuple(str(n) for n in offered), "pick a count the cloud offers")
        )  # fmt: skip
    if len(problems) > before:
        return None
    types = instance_types(spec)
    arches = sorted({table[name].arch for name in types})
    if len(arches) > 1:
        problems.append(
            Problem("gpuRequirements", f"{wanted.count} x {model.key} comes on {' and '.join(arches)} types", None,
                    (), "name the instance types of one architecture in instanceType instead")
        )  # fmt: skip
        return None
    return lookup.resolve_instance_type(spec.profile, types[0], None)


def _whole(listed: InstanceType) -> bool:
    """Whether the type carries whole GPUs: ``gpuRequirements`` asks for GPUs, never fractions of one (G6f)."""
    return listed.gpu_fraction == 1.0


def _kind(gpu: ResolvedGpu) -> str:
    share = "" if gpu.fraction == 1.0 else f" ({gpu.fraction:g} of a GPU each)"
    return f"{gpu.gpus} x {gpu.model.key}{share} ({gpu.arch})"
