"""Resolve a pool's instance type to its GPU model, GPUs per node and CPU architecture.

A listed type resolves from the catalog. An unlisted type is accepted when the spec describes its GPUs
explicitly (model + count), so a new instance family never blocks a user. GKE N1 machines always need
the explicit description, because their GPUs are attached, not built in.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from gpuready.core.catalog.gpus import GPU_MODELS, GpuModel
from gpuready.core.catalog.instance_types import Arch, AttachableGpus, InstanceType
from gpuready.errors import SpecError, UnknownGpuModelError
from gpuready.record import record

if TYPE_CHECKING:
    from gpuready.core.clouds.catalog_facts import CloudCatalog

"""Every listed GPU instance type, per cloud."""

_ARM64_MODELS = frozenset({"t4g", "gh200", "gb200"})  # Graviton / Grace hosts


@record(frozen=True, slots=True)
class ExplicitGpu:
    """GPUs of an instance type described by the user instead of the catalog."""

    model: str
    """Key of a GPU model in the catalog, e.g. ``l4``."""
    count: int
    """GPUs per node."""
    arch: Arch | None = None
    """CPU architecture; when omitted it follows the GPU (Grace/Graviton parts are arm64)."""


@record(frozen=True, slots=True)
class ResolvedGpu:
    """What a pool's nodes carry."""

    instance_type: str
    """The instance type as the cloud API spells it."""
    model: GpuModel
    gpus: int
    """GPUs per node."""
    arch: Arch
    listed: bool
    """True when the instance type came from the catalog."""
    fraction: float = 1.0
    """Share of a physical GPU each device is (below 1.0 on fractional types such as EC2 G6f)."""


def lookup_gpu_model(key: str, path: str = "gpu.model") -> GpuModel:
    """The catalog model for ``key`` (case-insensitive), or a clear error listing the known keys."""
    model = GPU_MODELS.get(key.lower())
    if model is None:
        raise UnknownGpuModelError.one(
            path,
            "unknown GPU model",
            key,
            sorted(GPU_MODELS),
            _did_you_mean(key.lower(), GPU_MODELS) or "use one of the canonical lowercase accelerator names",
        )
    return model


def resolve_instance_type(
    catalog: CloudCatalog, instance_type: str, explicit: ExplicitGpu | None, path: str = "instanceType"
) -> ResolvedGpu:
    """Resolve ``instance_type`` in a cloud's ``catalog`` (its profile's), honouring an explicit GPU description."""
    listed = _find(catalog, instance_type)
    attachable = catalog.attachable
    if attachable is not None and instance_type.startswith(attachable.machine_prefix):
        return _resolve_attachable(attachable, instance_type, explicit, path)
    if listed is not None:
        if explicit is not None:
            _check_agrees(listed, explicit, path)
        return ResolvedGpu(listed.name, GPU_MODELS[listed.gpu], listed.gpus, listed.arch, True, listed.gpu_fraction)
    if explicit is None:
        table = catalog.instance_types
        known = sorted(table)
        raise UnknownGpuModelError.one(
            path,
            f"not a GPU instance type gpuready knows on {catalog.name}",
            instance_type,
            (),
            (_did_you_mean(instance_type, table) + " " if instance_type else "")
            + f"known types include {', '.join(known[:6])}, ...; for an unlisted type describe its GPUs "
            "with gpu: {model: <accelerator>, count: <GPUs per node>}",
        )
    return _from_explicit(instance_type, explicit, path)


def _find(catalog: CloudCatalog, instance_type: str) -> InstanceType | None:
    table = catalog.instance_types
    if not catalog.instance_types_fold_case:
        return table.get(instance_type)
    folded = instance_type.lower()
    return next((t for name, t in table.items() if name.lower() == folded), None)


def _check_agrees(listed: InstanceType, explicit: ExplicitGpu, path: str) -> None:
    model = lookup_gpu_model(explicit.model, "gpu.model")
    if model.key != listed.gpu or explicit.count != listed.gpus:
        raise SpecError.one(
            "gpu",
            f"contradicts the catalog entry for {listed.name} ({listed.gpus} x {listed.gpu})",
            f"{explicit.count} x {model.key}",
            (),
            f"remove gpu: for listed types, or fix {path}",
        )
    if explicit.arch is not None and explicit.arch != listed.arch:
        raise SpecError.one("gpu.arch", f"{listed.name} is {listed.arch}", explicit.arch, (listed.arch,))


def _resolve_attachable(
    attachable: AttachableGpus, instance_type: str, explicit: ExplicitGpu | None, path: str
) -> ResolvedGpu:
    allowed = attachable.counts
    if explicit is None:
        raise SpecError.one(
            "gpu",
            f"{instance_type} has no built-in GPU; say which GPU to attach",
            None,
            [f"{m} x {'/'.join(map(str, c))}" for m, c in allowed.items()],
            "add gpu: {model: t4, count: 1} (N1 takes T4 or V100)",
        )
    model = lookup_gpu_model(explicit.model, "gpu.model")
    if model.key not in allowed:
        raise SpecError.one(
            "gpu.model", f"N1 machines ({path}) cannot attach this GPU", model.key, sorted(allowed),
            "use a G2/A2/A3/A4 machine type for L4, A100, H100, H200 or B200",
        )  # fmt: skip
    if explicit.count not in allowed[model.key]:
        raise SpecError.one(
            "gpu.count", f"N1 attaches {model.key} only in these counts", explicit.count,
            [str(c) for c in allowed[model.key]],
        )  # fmt: skip
    return ResolvedGpu(instance_type, model, explicit.count, "x86_64", False)


def _from_explicit(instance_type: str, explicit: ExplicitGpu, path: str) -> ResolvedGpu:
    model = lookup_gpu_model(explicit.model, "gpu.model")
    if explicit.count < 1:
        raise SpecError.one("gpu.count", "GPUs per node must be at least 1", explicit.count)
    arch: Arch = explicit.arch or ("arm64" if model.key in _ARM64_MODELS else "x86_64")
    return ResolvedGpu(instance_type, model, explicit.count, arch, False)


def _did_you_mean(text: str, options: Mapping[str, object]) -> str:
    import difflib  # noqa: PLC0415 - only when a name is refused: a plan of valid names does not load it

    close = difflib.get_close_matches(text, list(options), n=3, cutoff=0.6)
    return f"did you mean {' or '.join(close)}?" if close else ""
