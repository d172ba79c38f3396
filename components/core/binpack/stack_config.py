"""Parse the ``binpackScheduler`` stack setting (camelCase YAML) into a ``BinPackSchedulerSpec``. Pure.

The extra GPU resources the profile scores come from the stack's pools (``gpu_resources_of``), so the
scheduler weighs ``nvidia.com/gpu.shared`` and ``nvidia.com/mig-<profile>`` wherever a pool advertises them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from components.core.binpack.scheduler_config import BinPackSchedulerSpec, gpu_resources_of
from components.core.pool_config import MappingReader
from components.core.specs import GpuPoolSpec
from components.errors import ConfigError, Problem, SpecError

_FIELDS = {
    "name": ("name", str),
    "namespace": ("namespace", str),
    "schedulerName": ("scheduler_name", str),
    "kubeSchedulerVersion": ("kube_scheduler_version", str),
    "clusterVersion": ("cluster_version", str),
    "patchVersion": ("patch_version", int),
    "replicas": ("replicas", int),
    "imageRepository": ("image_repository", str),
}
BINPACK_KEYS = tuple(_FIELDS)


def parse_binpack(raw: object, pools: Sequence[GpuPoolSpec], path: str = "binpackScheduler") -> BinPackSchedulerSpec:
    """Parse ``raw`` (a mapping); raise ``ConfigError`` listing every problem with its path under ``path``."""
    if not isinstance(raw, Mapping):
        raise ConfigError.one(path, "must be a mapping", raw, BINPACK_KEYS, "e.g. {kubeSchedulerVersion: v1.33.4}")
    problems: list[Problem] = []
    read = MappingReader(raw, path, problems)
    read.unknown(BINPACK_KEYS)
    fields: dict[str, Any] = {}
    for key, (name, kind) in _FIELDS.items():
        value = read.get(key, kind)
        if value is not None:
            fields[name] = value
    if problems:
        raise ConfigError(problems)
    try:
        return BinPackSchedulerSpec(gpu_resources=gpu_resources_of(pools), **fields)
    except SpecError as error:
        raise ConfigError(error.under(path).problems) from error  # spec paths are the config's camelCase keys
