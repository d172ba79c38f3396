"""The GPU stack kinds gpuready knows, in ``gpuStack.kind`` order: their one registration, and the one look-up. Pure.

Each kind is one module beside this one (its chart with the value paths gpuready owns in it, its values builder,
its rows on NVIDIA's device plugin, its plan note and its component's ``ReleaseEntry``) plus its component in
``gpuready.gpu_stack``; adding a kind is that and its object in ``STACK_KIND_OBJECTS`` (kueue's
``RegisterIntegration`` is the model). Everything else iterates the registered kinds: the config model's kind
(``StackKind``), the charts (``STACK_CHARTS``), the facade, the stack program's install and the component package
(``CHART_COMPONENTS``), the plan's notes (``release_note``), the clouds' platform rows (``STACK_KINDS``).

``StackKind`` is the ``Literal`` of the registered keys at run time (so pydantic validates ``gpuStack.kind`` and the
schema lists them) and ``str`` to type checkers, which cannot read a literal off a registry: a kind's key is checked
where it enters (the config model, ``stack_spec_problems``, ``stack_kind``), not by mypy.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal

from gpuready.core.component_entry import ReleaseEntry
from gpuready.core.gpu_stack.charts import DRA_ADVERTISER, Chart
from gpuready.core.gpu_stack.kind import GpuStackKind
from gpuready.core.gpu_stack.kinds.device_plugin import DEVICE_PLUGIN_STACK
from gpuready.core.gpu_stack.kinds.dra_driver import DRA_DRIVER_STACK
from gpuready.core.gpu_stack.kinds.gpu_operator import GPU_OPERATOR_STACK
from gpuready.core.gpu_stack.kinds.gpu_operator_dra import GPU_OPERATOR_DRA_STACK
from gpuready.core.gpu_stack.kinds.platform import EXTERNAL_STACK, NONE_STACK

STACK_KIND_OBJECTS: tuple[GpuStackKind, ...] = (
    GPU_OPERATOR_STACK,
    DEVICE_PLUGIN_STACK,
    DRA_DRIVER_STACK,
    GPU_OPERATOR_DRA_STACK,
    NONE_STACK,
    EXTERNAL_STACK,
)
"""Every stack kind, in ``gpuStack.kind`` order: the one registration."""

STACK_KINDS: tuple[str, ...] = tuple(k.key for k in STACK_KIND_OBJECTS)
"""The registered ``gpuStack.kind`` keys, in order."""

if TYPE_CHECKING:
    StackKind = str
else:
    StackKind = Literal[STACK_KINDS]

_BY_KEY: Mapping[str, GpuStackKind] = {k.key: k for k in STACK_KIND_OBJECTS}


def stack_kind(key: str) -> GpuStackKind:
    """The kind registered under ``key``; raises ``KeyError`` naming the known ones."""
    try:
        return _BY_KEY[key]
    except KeyError:
        raise KeyError(f"no GPU stack kind {key!r}; known: {', '.join(STACK_KINDS)}") from None


STACK_CHARTS: Mapping[str, Chart] = {k.key: k.chart for k in STACK_KIND_OBJECTS if k.chart is not None}
"""Each kind that installs a chart -> its chart, in ``gpuStack.kind`` order."""
CHARTS: Mapping[str, Chart] = {key: c for key, c in STACK_CHARTS.items() if c.advertiser != DRA_ADVERTISER}
"""The charts that advertise GPUs by NVIDIA's device plugin (each bundles NFD)."""
CHART_COMPONENTS: Mapping[str, ReleaseEntry] = {k.key: k.component for k in STACK_KIND_OBJECTS if k.component}
"""Each kind that installs a chart -> its component's registration entry, in ``gpuStack.kind`` order."""


def release_note(chart: str, values: Mapping[str, Any]) -> str | None:
    """What a plan says about a planned release of ``chart`` with ``values``: the first kind's note that has one."""
    return next((n for k in STACK_KIND_OBJECTS if k.plan_note and (n := k.plan_note(chart, values))), None)
