"""Parse pool specs from stack config (camelCase YAML/JSON data) into ``GpuPoolSpec``. Pure.

Strict: unknown keys, wrong types and bad values are all reported with their full path, every pool is
checked, and nothing is built unless everything is valid.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar, cast

from components.core.catalog.instance_types import CLOUDS, Cloud
from components.core.catalog.lookup import ExplicitGpu
from components.core.k8s_syntax import TAINT_EFFECTS
from components.core.specs import (
    SHARING_MODES,
    GpuPoolSpec,
    GpuSharing,
    MigPartitioning,
    Sharing,
    Taint,
    UpgradePolicy,
)
from components.errors import ConfigError, Problem, SpecError

T = TypeVar("T")

POOL_KEYS = (
    "name", "instanceType", "minSize", "maxSize", "desiredSize", "capacity", "image", "driver", "driverVersion",
    "gpu", "sharing", "labels", "taints", "upgrade", "releaseVersion", "fixedName",
)  # fmt: skip
"""Keys a pool entry accepts."""
GPU_KEYS = ("model", "count", "arch")
SHARING_KEYS = {
    "time-slicing": ("mode", "replicas", "renameByDefault", "failRequestsGreaterThanOne"),
    "mps": ("mode", "replicas", "renameByDefault", "failRequestsGreaterThanOne"),
    "mig": ("mode", "profile", "layout", "strategy"),
}
TAINT_KEYS = ("key", "value", "effect")
UPGRADE_KEYS = ("strategy", "maxUnavailable", "maxSurge", "batchNodeCount", "batchSoakSeconds", "poolSoakSeconds")


class MappingReader:
    """Typed access to one mapping, collecting problems under a path instead of raising at once."""

    def __init__(self, data: Mapping[str, Any], path: str, problems: list[Problem]) -> None:
        self.data, self.path, self.problems = data, path, problems

    def unknown(self, allowed: Sequence[str]) -> None:
        for key in self.data:
            if key not in allowed:
                close = difflib.get_close_matches(str(key), allowed, n=1)
                hint = f"did you mean {close[0]!r}?" if close else ""
                self.problems.append(Problem(f"{self.path}.{key}", "unknown key", None, sorted(allowed), hint))

    def get(self, key: str, kind: type[T], required: bool = False) -> T | None:
        if key not in self.data or self.data[key] is None:
            if required:
                self.problems.append(Problem(f"{self.path}.{key}", "is required"))
            return None
        value = self.data[key]
        if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
            self.problems.append(Problem(f"{self.path}.{key}", "must be a whole number", value))
            return None
        if not isinstance(value, kind):
            self.problems.append(Problem(f"{self.path}.{key}", f"must be a {_kind_name(kind)}", value))
            return None
        return value


def parse_pools(raw: object, cloud: Cloud, path: str = "nodePools") -> tuple[GpuPoolSpec, ...]:
    """Parse and validate every pool in ``raw`` (a list of mappings); raise ``ConfigError`` listing all problems."""
    if cloud not in CLOUDS:
        raise ConfigError.one("cloud", "unknown cloud", cloud, CLOUDS)
    if not isinstance(raw, list) or not raw:
        raise ConfigError.one(path, "must be a non-empty list of pools", raw, (), "see README 'Pool spec'")
    problems: list[Problem] = []
    pools: list[GpuPoolSpec] = []
    for index, entry in enumerate(raw):
        pool = _parse_pool(entry, cloud, f"{path}[{index}]", problems)
        if pool is not None:
            pools.append(pool)
    names = [str(e["name"]) for e in raw if isinstance(e, Mapping) and isinstance(e.get("name"), str)]
    for name in sorted({n for n in names if names.count(n) > 1}):
        problems.append(Problem(path, "pool names must be unique", name))
    if problems:
        raise ConfigError(problems)
    return tuple(pools)


def _parse_pool(entry: object, cloud: Cloud, path: str, problems: list[Problem]) -> GpuPoolSpec | None:
    if not isinstance(entry, Mapping):
        problems.append(Problem(path, "must be a mapping of pool settings", entry))
        return None
    read = MappingReader(entry, path, problems)
    before = len(problems)
    read.unknown(POOL_KEYS)
    name = read.get("name", str, required=True)
    instance_type = read.get("instanceType", str, required=True)
    min_size = read.get("minSize", int, required=True)
    max_size = read.get("maxSize", int, required=True)
    fields: dict[str, Any] = {
        "desired_size": read.get("desiredSize", int),
        "capacity": read.get("capacity", str),
        "image": read.get("image", str),
        "driver": read.get("driver", str),
        "driver_version": read.get("driverVersion", str),
        "gpu": _optional(read, "gpu", _parse_gpu),
        "sharing": _parse_sharing(entry.get("sharing"), f"{path}.sharing", problems),
        "labels": _parse_labels(entry.get("labels"), f"{path}.labels", problems),
        "taints": _parse_taints(entry.get("taints"), f"{path}.taints", problems),
        "upgrade": _optional(read, "upgrade", _parse_upgrade),
        "release_version": read.get("releaseVersion", str),
        "fixed_name": read.get("fixedName", bool),
    }
    if len(problems) > before or name is None or instance_type is None or min_size is None or max_size is None:
        return None
    given = {k: v for k, v in fields.items() if v is not None}
    try:
        return GpuPoolSpec(
            cloud=cloud, name=name, instance_type=instance_type, min_size=min_size, max_size=max_size, **given
        )
    except SpecError as error:
        problems.extend(error.under(path).problems)
        return None


def _optional(read: MappingReader, key: str, parse: Callable[[Mapping[str, Any], str, list[Problem]], T]) -> T | None:
    value = read.get(key, dict)
    return None if value is None else parse(value, f"{read.path}.{key}", read.problems)


def _parse_gpu(data: Mapping[str, Any], path: str, problems: list[Problem]) -> ExplicitGpu:
    read = MappingReader(data, path, problems)
    read.unknown(GPU_KEYS)
    arch = read.get("arch", str)
    if arch is not None and arch not in ("x86_64", "arm64"):
        problems.append(Problem(f"{path}.arch", "unknown CPU architecture", arch, ("arm64", "x86_64")))
        arch = None
    return ExplicitGpu(
        model=read.get("model", str, required=True) or "",
        count=read.get("count", int, required=True) or 0,
        arch=cast("Any", arch),
    )


def _parse_upgrade(data: Mapping[str, Any], path: str, problems: list[Problem]) -> UpgradePolicy:
    read = MappingReader(data, path, problems)
    read.unknown(UPGRADE_KEYS)
    given = {
        "strategy": read.get("strategy", str),
        "max_unavailable": read.get("maxUnavailable", int),
        "max_surge": read.get("maxSurge", int),
        "batch_node_count": read.get("batchNodeCount", int),
        "batch_soak_seconds": read.get("batchSoakSeconds", int),
        "pool_soak_seconds": read.get("poolSoakSeconds", int),
    }
    return UpgradePolicy(**{k: cast("Any", v) for k, v in given.items() if v is not None})


def _parse_sharing(raw: object, path: str, problems: list[Problem]) -> Sharing | None:
    if raw is None or raw == "none":
        return None
    if isinstance(raw, str):
        problems.append(
            Problem(path, "must be none or a mapping with a mode", raw, (), "sharing: {mode: mps, replicas: 2}")
        )
        return None
    if not isinstance(raw, Mapping):
        problems.append(Problem(path, "must be none or a mapping", raw))
        return None
    read = MappingReader(raw, path, problems)
    mode = read.get("mode", str, required=True)
    if mode is None:
        return None
    if mode == "none":
        read.unknown(("mode",))
        return None
    if mode not in SHARING_KEYS:
        problems.append(Problem(f"{path}.mode", "unknown sharing mode", mode, SHARING_MODES))
        return None
    read.unknown(SHARING_KEYS[mode])
    if mode == "mig":
        return _parse_mig(read)
    replicas = read.get("replicas", int, required=True)
    rename = read.get("renameByDefault", bool)
    fail = read.get("failRequestsGreaterThanOne", bool)
    if replicas is None:
        return None
    return GpuSharing(
        mode=cast("Any", mode), replicas=replicas, rename_by_default=bool(rename), fail_requests_greater_than_one=fail
    )


def _parse_mig(read: MappingReader) -> MigPartitioning | None:
    layout_raw = read.data.get("layout")
    layout: str | dict[str, int] | None = None
    if isinstance(layout_raw, str):
        layout = layout_raw
    elif isinstance(layout_raw, Mapping):
        layout = {}
        for profile, count in layout_raw.items():
            if isinstance(count, bool) or not isinstance(count, int):
                read.problems.append(Problem(f"{read.path}.layout[{profile!r}]", "must be a whole number", count))
            else:
                layout[str(profile)] = count
    elif layout_raw is not None:
        read.problems.append(Problem(f"{read.path}.layout", "must be a layout name or profile -> count", layout_raw))
    strategy = read.get("strategy", str)
    return MigPartitioning(profile=read.get("profile", str), layout=layout, strategy=cast("Any", strategy or "single"))


def _parse_labels(raw: object, path: str, problems: list[Problem]) -> dict[str, str] | None:
    if raw is None:
        return None
    if not isinstance(raw, Mapping):
        problems.append(Problem(path, "must be a mapping of label key to value", raw))
        return None
    labels: dict[str, str] = {}
    for key, value in raw.items():
        if not isinstance(key, str):
            problems.append(Problem(f"{path}[{key!r}]", "label keys must be strings (quote them in YAML)", key))
        elif not isinstance(value, str):
            problems.append(Problem(f"{path}[{key!r}]", "must be a string (quote numbers and booleans)", value))
        else:
            labels[str(key)] = value
    return labels


def _parse_taints(raw: object, path: str, problems: list[Problem]) -> tuple[Taint, ...] | None:
    if raw is None:
        return None
    if not isinstance(raw, list):
        problems.append(Problem(path, "must be a list of taints", raw))
        return None
    taints: list[Taint] = []
    for index, item in enumerate(raw):
        taint = _parse_taint(item, f"{path}[{index}]", problems)
        if taint is not None:
            taints.append(taint)
    return tuple(taints)


def _parse_taint(item: object, path: str, problems: list[Problem]) -> Taint | None:
    if isinstance(item, str):
        head, sep, effect_text = item.rpartition(":")
        key_text, _, value_text = head.partition("=")
        if not sep or not key_text:
            problems.append(Problem(path, "must look like key=value:Effect", item, (), "e.g. dedicated=ml:NoSchedule"))
            return None
        item = {"key": key_text, "value": value_text, "effect": effect_text}
    if not isinstance(item, Mapping):
        problems.append(Problem(path, "must be a mapping {key, value, effect} or key=value:Effect", item))
        return None
    read = MappingReader(item, path, problems)
    read.unknown(TAINT_KEYS)
    key = read.get("key", str, required=True)
    value = read.get("value", str) or ""
    effect = read.get("effect", str, required=True)
    if effect is not None and effect not in TAINT_EFFECTS:
        hint = "use the Kubernetes spelling; gpuready converts it for each cloud" if "_" in effect else ""
        problems.append(Problem(f"{path}.effect", "unknown taint effect", effect, TAINT_EFFECTS, hint))
        return None
    if key is None or effect is None:
        return None
    return Taint(key=key, value=value, effect=cast("Any", effect))


def _kind_name(kind: type) -> str:
    return {str: "string", bool: "boolean (true or false)", int: "whole number"}.get(kind, "mapping")
