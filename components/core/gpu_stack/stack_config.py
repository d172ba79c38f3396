"""Parse the ``gpuStack`` stack setting (camelCase YAML) into a ``GpuStackSpec``. Pure.

Strict like the pool parser: unknown keys, wrong types and bad values are all reported with their path.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from components.core.gpu_stack.charts import STACK_KINDS
from components.core.gpu_stack.stack_spec import GpuStackSpec
from components.core.pool_config import MappingReader
from components.errors import ConfigError, Problem, SpecError

GPU_STACK_KEYS = (
    "kind", "namespace", "releaseName", "chartVersion", "repository", "timeoutSeconds", "nfd", "gfd", "migReboot",
)  # fmt: skip
_FIELDS = {
    "namespace": ("namespace", str),
    "releaseName": ("release_name", str),
    "chartVersion": ("chart_version", str),
    "repository": ("repository", str),
    "timeoutSeconds": ("timeout_seconds", int),
    "nfd": ("nfd", str),
    "gfd": ("gfd", bool),
    "migReboot": ("mig_reboot", bool),
}


def parse_gpu_stack(raw: object, path: str = "gpuStack") -> GpuStackSpec:
    """Parse ``raw`` (a mapping, or just the kind as a string); raise ``ConfigError`` listing every problem."""
    if isinstance(raw, str):
        raw = {"kind": raw}
    if not isinstance(raw, Mapping):
        raise ConfigError.one(
            path, "must be a mapping with at least a kind", raw, STACK_KINDS, "e.g. {kind: gpu-operator}"
        )
    problems: list[Problem] = []
    read = MappingReader(raw, path, problems)
    read.unknown(GPU_STACK_KEYS)
    kind = read.get("kind", str, required=True)
    if kind is not None and kind not in STACK_KINDS:
        problems.append(Problem(f"{path}.kind", "unknown GPU stack", kind, STACK_KINDS, _kind_hint()))
    fields: dict[str, Any] = {}
    for key, (name, kind_of) in _FIELDS.items():
        value = read.get(key, kind_of)
        if value is not None:
            fields[name] = value
    if problems or kind is None:
        raise ConfigError(problems)
    try:
        return GpuStackSpec(kind=kind, **fields)  # type: ignore[arg-type]  # kind checked against STACK_KINDS above
    except SpecError as error:
        raise ConfigError(_rebase(error.problems, path)) from error


def _rebase(problems: tuple[Problem, ...], path: str) -> list[Problem]:
    """Spec problems carry ``gpuStack.<field>``; put them under ``path``."""
    return [Problem(path + p.path.removeprefix("gpuStack"), p.problem, p.value, p.allowed, p.hint) for p in problems]


def _kind_hint() -> str:
    return (
        "gpu-operator or device-plugin installs that NVIDIA chart; none relies on the cloud's own stack (GKE, "
        "Bottlerocket); external means you install NVIDIA's stack yourself"
    )
