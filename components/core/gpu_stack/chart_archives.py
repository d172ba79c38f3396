"""The released chart archives gpuready pins, vendored beside this module, and their values trees. Pure.

``archives/`` holds the exact bytes ``helm pull`` fetches (provenance and sha256 in ``archives/SOURCES.md``):
``gpu-operator-v26.7.0.tgz`` (NVIDIA/gpu-operator ``gh-pages`` ``stable/``) and ``nvidia-device-plugin-0.20.0.tgz``
(NVIDIA/k8s-device-plugin ``gh-pages`` ``stable/``), plus the DRA driver chart's source archive. gpuready reads
each chart's ``values.yaml`` and its bundled subcharts' (under the dependency's alias) to check the extra Helm
values a stack passes (``user_values``); the tests render the same archives with real Helm.
"""

from __future__ import annotations

import functools
import io
import tarfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from components.core.mappings import deep_merge

ARCHIVES = Path(__file__).resolve().parent / "archives"
ARCHIVE_FILES: Mapping[tuple[str, str], str] = {
    ("gpu-operator", "v26.7.0"): "gpu-operator-v26.7.0.tgz",
    ("nvidia-device-plugin", "0.20.0"): "nvidia-device-plugin-0.20.0.tgz",
    ("dra-driver-nvidia-gpu", "0.4.0"): "dra-driver-nvidia-gpu-v0.4.0.source.tgz",
}
"""(chart name, version) -> archive file in ``archives/``."""


@dataclass(frozen=True, slots=True)
class ChartValues:
    """What a chart reads from its values: its defaults (subcharts' merged in under their key) and more."""

    tree: Mapping[str, Any]
    """The chart's ``values.yaml``, each bundled subchart's ``values.yaml`` under its alias (the parent's own
    settings for it on top, as Helm coalesces them)."""
    conditions: frozenset[str]
    """Value paths the chart's ``Chart.yaml`` reads as dependency ``condition`` (``nfd.enabled``)."""
    has_schema: bool
    """The chart itself has a ``values.schema.json`` (Helm then refuses values the schema refuses)."""


def archive_path(name: str, version: str) -> Path:
    """The vendored archive of chart ``name`` at ``version``; KeyError when gpuready vendors none."""
    return ARCHIVES / ARCHIVE_FILES[(name, version)]


@functools.cache
def archive_bytes(name: str, version: str) -> bytes:
    return archive_path(name, version).read_bytes()


def has_archive(name: str, version: str) -> bool:
    return (name, version) in ARCHIVE_FILES


@functools.cache
def chart_values(name: str, version: str) -> ChartValues:
    """The values tree of the vendored chart (parsed once per process)."""
    members = _members(archive_bytes(name, version))
    root = next(iter(members)).split("/", 1)[0]
    chart = _yaml(members, f"{root}/Chart.yaml")
    tree: dict[str, Any] = dict(_yaml(members, f"{root}/values.yaml") or {})
    conditions: set[str] = set()
    for dependency in chart.get("dependencies") or []:
        key = str(dependency.get("alias") or dependency["name"])
        conditions.update(c.strip() for c in str(dependency.get("condition", "")).split(",") if c.strip())
        sub_values = f"{root}/charts/{dependency['name']}/values.yaml"
        if sub_values in members:
            tree[key] = deep_merge(_yaml(members, sub_values) or {}, tree.get(key) or {})
    return ChartValues(tree, frozenset(conditions), f"{root}/values.schema.json" in members)


def _members(data: bytes) -> dict[str, bytes]:
    files: dict[str, bytes] = {}
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as archive:
        for member in archive.getmembers():
            if member.isfile() and member.name.endswith((".yaml", ".json")):
                extracted = archive.extractfile(member)
                if extracted is not None:
                    files[member.name] = extracted.read()
    return files


def _yaml(members: Mapping[str, bytes], name: str) -> Any:
    return yaml.load(members[name], Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
