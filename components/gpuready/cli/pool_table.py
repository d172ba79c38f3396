"""Render the per-pool summary of a plan from the outputs gpuready's pool components registered. Pure."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from gpuready.core.capacity.capacity_view import capacity_text
from gpuready.core.pool_capacity import capacity_at

POOL_COMPONENT_SUFFIXES = ("GpuNodePool", "GpuPool")
"""Node-group pools (``EksGpuNodePool``...) and elastic pools (``EksAutoModeGpuPool``, ``AksNapGpuPool``...)."""
HEADERS = (
    "POOL", "PROVISIONER", "CAPACITY", "INSTANCE", "GPU", "GPUS/NODE", "GPU-LIMIT", "ALLOCATABLE/NODE", "TAINT",
    "SHARING", "DRIVER", "FABRIC", "SCALES",
)  # fmt: skip
"""``CAPACITY`` is how the nodes get capacity (``on-demand``, ``spot``, ``reserved cr-0abc (4 nodes)``, ``block
...``: ``core.capacity.capacity_view``); ``GPU-LIMIT`` is the elastic provisioner's (``-`` where it sets none);
``FABRIC`` the node fabric (EFA x32, its placement group) or ``-``; ``SCALES`` whether a pending pod of every shape
the pool advertises becomes a node it runs on (``core.scale_path``); each pool's requirements (its instance types,
or its GPU requirements and the types meeting them) follow the table."""
WIDE_HEADERS = ("MIN-NODES", "MAX-NODES", "RESOURCE", "SELECTOR")
"""``-o wide``: the pool's node count bounds, the resource name its GPU workloads request and the node selector
they select it by (what ``gpuready diff`` compares)."""
SHOWN_LABEL_PREFIXES = ("gpuready.io/", "nvidia.com/", "skypilot.co/", "gke-no-default")


def is_pool_component(resource_type: str) -> bool:
    """Whether a resource type token is one of gpuready's GPU node pool components."""
    return resource_type.startswith("gpuready:index:") and resource_type.endswith(POOL_COMPONENT_SUFFIXES)


def pool_rows(pools: Sequence[tuple[str, Mapping[str, Any]]]) -> list[tuple[str, ...]]:
    """One row per (component name, registered outputs), sorted by pool name."""
    rows: list[tuple[str, ...]] = []
    for name, outputs in sorted(pools, key=lambda item: item[0]):
        taint = outputs.get("taint") or {}
        allocatable = outputs.get("allocatable") or {}
        rows.append(
            (
                name,
                str(outputs.get("provisioner", "")),
                capacity_text(outputs.get("capacity") or {}),
                str(outputs.get("instance_type", "")),
                str(outputs.get("accelerator", "")),
                str(outputs.get("gpus_per_node", "")),
                str(outputs.get("gpu_limit") or "-"),
                ", ".join(f"{k}={v}" for k, v in sorted(allocatable.items())),
                f"{taint.get('key', '')}={taint.get('value', '')}:{taint.get('effect', '')}",
                str(outputs.get("sharing", "")),
                str(outputs.get("driver", "")),
                str((outputs.get("fabric") or {}).get("summary") or "-"),
                str(outputs.get("scales", "")),
            )
        )
    return rows


def pool_json(pools: Sequence[tuple[str, Mapping[str, Any]]]) -> list[dict[str, Any]]:
    """The plan file's ``pools``: per pool (sorted by name) what the table shows of its capacity, ``gpuLimit`` null
    where the provisioner sets none, and its node auto repair policy."""
    return [
        {
            "name": name,
            "provisioner": outputs.get("provisioner"),
            "instanceType": outputs.get("instance_type"),
            "accelerator": outputs.get("accelerator"),
            "gpusPerNode": outputs.get("gpus_per_node"),
            "gpuLimit": outputs.get("gpu_limit") or None,
            "requirements": outputs.get("requirements"),
            "scales": outputs.get("scales"),
            "repair": outputs.get("repair") or None,
            "fabric": outputs.get("fabric") or None,
            "capacity": _capacity(outputs.get("capacity") or {}),
            **capacity_json(outputs),
        }
        for name, outputs in sorted(pools, key=lambda item: item[0])
    ]


def _capacity(given: Mapping[str, Any]) -> dict[str, Any]:
    """The plan file's ``capacity`` of a pool, its ``text`` made from the rest (an older program's outputs have
    none: on-demand)."""
    keys = ("type", "reservation", "nodes", "zone", "fallback")
    found = {key: given.get(key) for key in keys}
    found["type"] = found["type"] or "on-demand"
    return {**found, "text": capacity_text(found)}


def wide_pool_rows(pools: Sequence[tuple[str, Mapping[str, Any]]]) -> list[tuple[str, ...]]:
    """``pool_rows`` with the ``WIDE_HEADERS`` columns after each row."""
    rows = []
    for row, (_, outputs) in zip(pool_rows(pools), sorted(pools, key=lambda item: item[0]), strict=True):
        selector = outputs.get("node_selector") or {}
        rows.append(
            (
                *row,
                str(outputs.get("min_nodes", "-")),
                str(outputs.get("max_nodes", "-")),
                str(outputs.get("resource_name") or "-"),
                ",".join(f"{k}={v}" for k, v in sorted(selector.items())) or "-",
            )
        )
    return rows


def render_pool_table(
    pools: Sequence[tuple[str, Mapping[str, Any]]], *, wide: bool = False, headers: bool = True
) -> str:
    """A fixed-width table of the pools, then the labels gpuready sets on each pool's nodes (``wide``: the
    ``WIDE_HEADERS`` columns too; ``headers=False``: no header row, ``--no-headers``)."""
    if not pools:
        return "(no gpuready GPU node pools in this plan)"
    header = HEADERS + WIDE_HEADERS if wide else HEADERS
    rows = wide_pool_rows(pools) if wide else pool_rows(pools)
    widths = [max(len(row[i]) for row in (header, *rows)) for i in range(len(header))]
    table_rows = [header, *rows] if headers else rows
    lines = ["  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip()
             for row in table_rows]  # fmt: skip
    lines.append("")
    for name, outputs in sorted(pools, key=lambda item: item[0]):
        labels = outputs.get("node_labels") or {}
        shown = {k: v for k, v in labels.items() if k.startswith(SHOWN_LABEL_PREFIXES)}
        extra = len(labels) - len(shown)
        text = ", ".join(f"{k}={v}" for k, v in sorted(shown.items()))
        lines.append(f"labels {name}: {text}" + (f" (+{extra} more)" if extra else ""))
    for name, outputs in sorted(pools, key=lambda item: item[0]):
        if outputs.get("requirements"):
            lines.append(f"requirements {name}: {outputs['requirements']}")
    for name, outputs in sorted(pools, key=lambda item: item[0]):
        if outputs.get("lifecycle"):
            lines.append(f"lifecycle {name}: {outputs['lifecycle']}")
    for name, outputs in sorted(pools, key=lambda item: item[0]):
        if outputs.get("repair"):
            lines.append(f"repair {name}: {outputs['repair']}")
    return "\n".join(lines)


def capacity_json(outputs: Mapping[str, Any]) -> dict[str, Any]:
    """What ``gpuready diff`` compares of a pool: its schedulable units per node and at its smallest and largest
    size (resource name or DRA DeviceClass -> units), the labels and taint workloads select it by."""
    per_node = {str(k): int(v) for k, v in (outputs.get("schedulable") or {}).items()}
    least, most = int(outputs.get("min_nodes") or 0), int(outputs.get("max_nodes") or 0)
    return {
        "minNodes": least,
        "maxNodes": most,
        "schedulablePerNode": dict(sorted(per_node.items())),
        "schedulableAtMinSize": capacity_at(per_node, least),
        "schedulableAtMaxSize": capacity_at(per_node, most),
        "resourceName": outputs.get("resource_name"),
        "nodeSelector": dict(sorted((outputs.get("node_selector") or {}).items())),
        "nodeLabels": dict(sorted((outputs.get("node_labels") or {}).items())),
        "taint": outputs.get("taint") or {},
    }
