"""The Helm values gpuready decides in a chart, and which gpuready key or decision owns each. Pure.

Each chart lists its own (``Chart.owned``, in its kind's module under ``kinds/``); the owners several charts share
are named here. Decided once: ``gpuStack.values`` (extra values deep-merged into the release) may set anything else, but
never a path below, nor a map above one with a non-map (which would replace it). Two kinds of entries:

- ``always``: gpuready decides the path even where it leaves the chart default (no MIG pool: ``mig.strategy``
  stays the chart's, and a user value there would still contradict the pools);
- derived: every other leaf the value builders (``operator_values``, each kind's builder) set for a stack's
  pools is owned for that stack (AKS's ``operator.runtimeClass``, GKE's ``toolkit.env``); the entries with
  ``always=False`` only name the owner of such a leaf in messages.

A test (``tests/gpu_stack/test_extra_values.py``) walks every planned scenario and checks that each leaf the
builders set is covered by an entry here, so a new value gpuready sets cannot go unowned.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from gpuready.record import record

if TYPE_CHECKING:
    from gpuready.core.gpu_stack.charts import Chart


@record(frozen=True, slots=True)
class Owned:
    path: str
    owner: str
    """The gpuready key or decision that sets it (shown in the refusal)."""
    always: bool = True


DRIVER = "who installs the driver and toolkit (the pools' driver and image, per cloud: nodePools[].driver)"
TAINTS = "the pools' taints (nodePools[].taints and the cloud's GPU taint): every GPU DaemonSet tolerates them"
NFD_PLACEMENT = "NFD runs on the GPU pools only (their gpuready.io/gpu-pool label)"
SHARING = "the pools' sharing (nodePools[].sharing): gpuready's device-plugin config map"
MIG_STRATEGY = "the MIG pools' strategy (nodePools[].sharing.strategy)"
DRA_PLACEMENT = (
    "the DRA kubelet plugin runs on the stack's DRA pools only, so no device plugin shares its nodes "
    "(nodePools[].advertise)"
)
MIG_LAYOUT = "the MIG pools' layouts (nodePools[].sharing), applied by the MIG manager"
DEVICE_PLUGIN = "gpuready's stacks advertise the GPUs by NVIDIA's device plugin"
CRD_UPGRADE = "gpuready's upgrades: the chart's CRD upgrade hook"
MONITORING = "gpuStack.monitoring"
MONITORING_EXPORTER = "gpuStack.monitoring (the ServiceMonitor needs the exporter)"
COMPUTE_DOMAINS = "gpuready's pools have no multi-node NVLink (ComputeDomains)"


def leaves(values: Mapping[str, Any], prefix: str = "") -> Iterator[tuple[str, Any]]:
    """(dotted path, value) of every leaf: a non-mapping value or an empty mapping."""
    for key, value in values.items():
        path = f"{prefix}{key}"
        if isinstance(value, Mapping) and value:
            yield from leaves(value, path + ".")
        else:
            yield path, value


def inert_reason(chart: Chart, path: str) -> str | None:
    """Why ``path`` does nothing in a release of ``chart``; None when it may do something."""
    sections, why = chart.inert
    return why if path.split(".", 1)[0] in sections else None


def owner_of(chart: Chart, path: str) -> Owned | None:
    """The entry whose path is ``path`` or above it (the most specific one)."""
    found = [o for o in chart.owned if path == o.path or path.startswith(o.path + ".")]
    return max(found, key=lambda o: len(o.path)) if found else None


def owned_paths(chart: Chart, gpuready_values: Mapping[str, Any] | None = None) -> dict[str, str]:
    """Path -> owner of everything gpuready decides for a release: the ``always`` entries, plus every leaf of
    ``gpuready_values`` (what the builders set for the stack's pools)."""
    owned = {o.path: o.owner for o in chart.owned if o.always}
    for path, _ in leaves(gpuready_values or {}):
        entry = owner_of(chart, path)
        if entry is None:
            owned[path] = "gpuready's plan for these pools"
        elif entry.path not in owned:
            owned[entry.path] = entry.owner
    return owned
