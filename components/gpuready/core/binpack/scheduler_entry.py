"""The bin-packing scheduler's registration entry (``gpuready:binpackScheduler``). Pure.

Its component (``gpuready.scheduler.binpack_scheduler``), config model and parser
(``config_model.scheduler_model``), and the schema's text of its inputs and outputs, listed once in
``gpuready.core.setting_components``; the facade and the component package derive from it.
"""

from __future__ import annotations

from gpuready.core.component_entry import SettingEntry
from gpuready.core.config_model.scheduler_model import BinPackSchedulerConfig, parse_binpack

BINPACK_SCHEDULER = SettingEntry(
    name="GpuBinPackingScheduler",
    module="gpuready.scheduler.binpack_scheduler",
    builder="gpuready.scheduler.binpack_scheduler",
    key="binpackScheduler",
    setting="binpack_scheduler",
    stack_name="gpu-binpack",
    model=BinPackSchedulerConfig,
    parse=parse_binpack,
    description="A second kube-scheduler with a GPU bin-packing profile (gpuready:binpackScheduler). Pass the "
    "cluster's Kubernetes provider in the resource options.",
    pools="The pools whose GPU resources the profile scores (optional).",
    pools_required=False,
    outputs={
        "schedulerName": {"type": "string", "description": "What pods put in spec.schedulerName."},
        "namespace": {"type": "string", "description": "The scheduler's namespace."},
    },
)
