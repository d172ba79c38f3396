"""``gpuready:binpackScheduler`` (was ``binpack/stack_config.py``): the config model and its parser. Pure.

The extra GPU resources the profile scores come from the stack's pools (``gpu_resources_of``), so the
scheduler weighs ``nvidia.com/gpu.shared`` and ``nvidia.com/mig-<profile>`` wherever a pool advertises them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from gpuready.core.binpack.scheduler_config import BinPackSchedulerSpec
from gpuready.core.binpack.scheduler_fields import TolerationOperator
from gpuready.core.config_model.all_problems import validated
from gpuready.core.config_model.base import ConfigModel, Words
from gpuready.core.config_model.scheduler_values import BinPackSchedulerValues, TolerationValues
from gpuready.core.k8s_syntax import TaintEffect
from gpuready.core.specs import GpuPoolSpec


class TolerationConfig(TolerationValues, ConfigModel):
    """A toleration for the scheduler's own pods (``scheduler_rules`` checks it against the GPU taint)."""

    words: ClassVar = {
        "operator": Words("unknown toleration operator"),
        "effect": Words("unknown taint effect (Kubernetes spelling)"),
    }

    key: str
    operator: TolerationOperator = "Equal"
    value: str = ""
    effect: TaintEffect | None = None


class BinPackSchedulerConfig(BinPackSchedulerValues, ConfigModel):
    """``binpackScheduler``: every key optional; unset keys keep ``BinPackSchedulerSpec``'s defaults."""

    shape: ClassVar = Words("must be a mapping", "e.g. {kubeSchedulerVersion: v1.33.4}")

    name: str | None = None
    namespace: str | None = None
    scheduler_name: str | None = None
    kube_scheduler_version: str | None = None
    cluster_version: str | None = None
    patch_version: int | None = None
    replicas: int | None = None
    cpu_request: str | None = None
    memory_request: str | None = None
    memory_limit: str | None = None
    node_selector: dict[str, str] | None = None
    tolerations: list[TolerationConfig] | None = None
    image_repository: str | None = None


BINPACK_KEYS = tuple(field.alias or name for name, field in BinPackSchedulerConfig.model_fields.items())
BinPackSchedulerConfig.shape_allowed = BINPACK_KEYS


def parse_binpack_model(
    raw: object, pools: Sequence[GpuPoolSpec], path: str = "binpackScheduler"
) -> BinPackSchedulerSpec:
    """``parsers.parse_binpack`` by the pydantic model (the fast path refused ``raw``): every problem, worded."""
    return validated(BinPackSchedulerConfig, raw, path, lambda config: config.spec(pools, path))
