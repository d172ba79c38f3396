"""Turn a captured program run into an offline plan: JSON-ready values in a deterministic order.

Pure: no I/O, and the Pulumi SDK is used only to recognise secret and unknown values.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import field
from typing import Any, TypeAlias

from pulumi.output import Unknown
from pulumi.runtime import rpc

from gpuready.core.plan_format import PLAN_FORMAT
from gpuready.offline.capture import STACK_TYPE, CapturedRun
from gpuready.record import record

JsonValue: TypeAlias = bool | int | float | str | list["JsonValue"] | dict[str, "JsonValue"] | None
SECRET = "[secret]"
UNKNOWN = "[unknown]"


@record(frozen=True, slots=True)
class PlannedResource:
    """One resource the program would register."""

    type: str
    name: str
    parent: str
    """The parent's engine-style URN; the root stack's for top-level resources."""
    urn: str
    """Engine-style: ``urn:pulumi:<stack>::<project>::<parent type chain>$<type>::<name>``."""
    custom: bool
    """False for component resources."""
    inputs: Mapping[str, JsonValue]
    """Inputs as the provider sees them: camelCase keys, whole numbers as int."""
    provider: str = ""
    """``<provider URN>::<provider id>``, or ``""`` for the default provider."""
    dependencies: tuple[str, ...] = ()
    """URNs this resource waits for on create and is deleted before (sorted)."""
    options: Mapping[str, JsonValue] = field(default_factory=dict)
    """Lifecycle options that are set (``ignoreChanges``, ``deleteBeforeReplace``, ...), engine spelling."""

    def to_json_dict(self) -> dict[str, JsonValue]:
        """One entry of the plan file's ``resources``."""
        entry: dict[str, JsonValue] = {"type": self.type, "name": self.name, "urn": self.urn, "parent": self.parent}
        entry["custom"] = self.custom
        if self.provider:
            entry["provider"] = self.provider
        if self.dependencies:
            entry["dependencies"] = list(self.dependencies)
        if self.options:
            entry["options"] = dict(self.options)
        entry["inputs"] = dict(self.inputs)
        return entry


@record(frozen=True, slots=True)
class Plan:
    """What a stack would register and export, without the engine."""

    stack: str
    project: str
    resources: tuple[PlannedResource, ...]
    """Sorted by URN."""
    outputs: Mapping[str, JsonValue]
    violations: tuple[JsonValue, ...] = ()
    """Policy violations, as given to ``build_plan``."""

    def to_json_dict(self) -> dict[str, JsonValue]:
        """The plan as plain JSON data, with exactly the keys of the plan file format."""
        resources: list[JsonValue] = [r.to_json_dict() for r in self.resources]
        return {
            "formatVersion": PLAN_FORMAT,
            "stack": self.stack,
            "project": self.project,
            "resources": resources,
            "outputs": dict(self.outputs),
            "violations": list(self.violations),
        }


def build_plan(run: CapturedRun, *, violations: Sequence[JsonValue] = (), show_secrets: bool = False) -> Plan:
    """The plan for a captured run. Secrets show as ``[secret]`` unless ``show_secrets``."""
    resources = tuple(
        PlannedResource(
            type=r.type,
            name=r.name,
            parent=r.parent,
            urn=r.urn,
            custom=r.custom,
            inputs=_json_object(r.inputs, show_secrets),
            provider=r.provider,
            dependencies=tuple(sorted(set(r.dependencies))),
            options=_json_object(r.options, show_secrets),
        )
        for r in sorted(run.resources, key=lambda r: r.urn)
    )
    return Plan(
        stack=run.stack,
        project=run.project,
        resources=resources,
        outputs=_json_object(run.outputs, show_secrets),
        violations=tuple(violations),
    )


def to_json_value(value: object, *, show_secrets: bool = False) -> JsonValue:
    """A decoded Pulumi property value as plain JSON data.

    Whole floats become ints (protobuf numbers are doubles), secrets ``[secret]``, unknowns
    ``[unknown]``, mapping keys are sorted, and anything else that JSON cannot hold (assets,
    resource references) becomes ``[<ClassName>]``.
    """
    if type(value) is str:  # most values: a plain string is no secret, and unknown only as the marker
        return UNKNOWN if value == rpc.UNKNOWN else value
    if value is None or type(value) is bool or type(value) is int:
        return value
    if rpc.is_rpc_secret(value):
        return to_json_value(rpc.unwrap_rpc_secret(value), show_secrets=True) if show_secrets else SECRET
    if isinstance(value, Unknown) or value == rpc.UNKNOWN:
        return UNKNOWN
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            return str(value)  # JSON has no NaN or infinity
        return int(value) if value.is_integer() else value
    if isinstance(value, Mapping):
        return _json_object(value, show_secrets)
    if isinstance(value, list | tuple):
        return [to_json_value(v, show_secrets=show_secrets) for v in value]
    return f"[{type(value).__name__}]"


def render_tree(plan: Plan) -> str:
    """The resources as an indented tree under the root stack, one ``type  name`` per line, followed by the
    lifecycle options that are set and the resources it depends on (by name)."""
    by_urn = {r.urn: r for r in plan.resources}
    urns = set(by_urn)
    children: dict[str, list[PlannedResource]] = {}
    for resource in plan.resources:  # already sorted by URN, so siblings stay in a stable order
        parent = resource.parent if resource.parent in urns else ""
        children.setdefault(parent, []).append(resource)
    lines = [f"{STACK_TYPE}  {plan.project}-{plan.stack}"]

    def walk(parent: str, prefix: str) -> None:
        siblings = children.get(parent, [])
        for index, resource in enumerate(siblings):
            last = index == len(siblings) - 1
            note = lifecycle_note(resource, by_urn)
            lines.append(f"{prefix}{'└─ ' if last else '├─ '}{resource.type}  {resource.name}{note}")
            walk(resource.urn, prefix + ("   " if last else "│  "))

    walk("", "")
    return "\n".join(lines) + "\n"


def lifecycle_note(resource: PlannedResource, by_urn: Mapping[str, PlannedResource]) -> str:
    """``  [ignoreChanges: a; deleteBeforeReplace: false; dependsOn: x, y]``, or ``""`` when nothing is set.

    Aliases that only rename the type (the SDKs add them for old API versions) are counted, not listed; the
    dependencies on another component's children show as that component with the count.
    """
    parts: list[str] = []
    for key, value in resource.options.items():
        if key == "aliases" and isinstance(value, list):
            parts.append(f"aliases: {len(value)}")
        elif isinstance(value, list):
            parts.append(f"{key}: {', '.join(str(v) for v in value)}")
        elif isinstance(value, bool):
            parts.append(f"{key}: {str(value).lower()}")
        else:
            known = by_urn.get(str(value))
            parts.append(f"{key}: {known.name if known else value}")
    if resource.dependencies:
        parts.append(f"dependsOn: {', '.join(_dependency_names(resource, by_urn))}")
    return f"  [{'; '.join(parts)}]" if parts else ""


def _dependency_names(resource: PlannedResource, by_urn: Mapping[str, PlannedResource]) -> list[str]:
    grouped: dict[str, int] = {}
    for urn in resource.dependencies:
        dependency = by_urn.get(urn)
        parent = by_urn.get(dependency.parent) if dependency else None
        if dependency is None:
            grouped.setdefault(urn, 0)
        elif dependency.custom and parent is not None and not parent.custom and parent.urn != resource.parent:
            grouped[parent.name] = grouped.get(parent.name, 0) + 1
        else:
            grouped.setdefault(dependency.name, 0)
    return [f"{name} ({count})" if count else name for name, count in grouped.items()]


def _json_object(value: Mapping[Any, object], show_secrets: bool) -> dict[str, JsonValue]:
    return {str(k): to_json_value(value[k], show_secrets=show_secrets) for k in sorted(value, key=str)}
