"""The bin-packing scheduler's registration entry (``gpuready:binpackScheduler``). Pure.

Its component (``gpuready.scheduler.binpack_scheduler``), config model and parser
(``config_model.scheduler_model``), and the schema's text of its inputs and outputs, listed once in
``gpuready.core.setting_components``; the facade and the component package derive from it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gpuready.core.component_entry import SettingEntry

if TYPE_CHECKING:
    from collections.abc import Sequence

    from gpuready.core.config_model.scheduler_model import BinPackSchedulerConfig


def _model() -> type[BinPackSchedulerConfig]:
    from gpuready.core.config_model.scheduler_model import BinPackSchedulerConfig  # noqa: PLC0415 - built only for a stack that sets the key

    return BinPackSchedulerConfig


def _parse(raw: object, pools: Sequence[Any], path: str) -> Any:
    from gpuready.core.config_model.parsers import parse_binpack  # noqa: PLC0415 - as _model

    return parse_binpack(raw, pools, path)


BINPACK_SCHEDULER = SettingEntry(
    name="GpuBinPackingScheduler",
    module="gpuready.scheduler.binpack_scheduler",
    builder="gpuready.scheduler.binpack_scheduler",
    key="binpackScheduler",
    setting="binpack_scheduler",
    stack_name="gpu-binpack",
    model=_model,
    parse=_parse,
    description="A second kube-scheduler with a GPU bin-packing profile (gpuready:binpackScheduler). Pass the "
    "cluster's Kubernetes provider in the resource options.",
    pools="The pools whose GPU resources the profile scores (optional).",
    pools_required=False,
    outputs={
        "schedulerName": {"type": "string", "description": "What pods put in spec.schedulerName."},
        "namespace": {"type": "string", "description": "The scheduler's namespace."},
    },
)
