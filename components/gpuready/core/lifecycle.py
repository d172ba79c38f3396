"""Lifecycle facts of cloud resources: which inputs update in place and which force a replacement. Pure.

Each cloud package keeps a ``ResourceTable`` per resource type it creates (``gpuready/<cloud>/lifecycle.py``),
every row citing where the fact comes from. The tables drive two decisions:

- names: when an input that forces replacement changes, the replacement gets a new cloud name
  (``rotated_name``), so Pulumi's default create-before-delete never clashes with the old pool, which keeps
  serving until the new one exists;
- ``gpuready diff``: whether a changed field of a planned resource means ``update`` or ``replace``.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Literal

from gpuready.core import resources, scheduling
from gpuready.core.mappings import plain_path
from gpuready.record import record

if TYPE_CHECKING:
    from gpuready.core.specs import GpuPoolSpec

Action = Literal["update", "replace"]
SUFFIX_LENGTH = 6
"""Hex digits of the name suffix: 16.7 million values, so the next generation never meets the last by chance."""


@record(frozen=True, slots=True)
class FieldRule:
    """What changing one input (camelCase, dotted for nested fields) does to the resource."""

    field: str
    action: Action
    source: str
    """Where the fact comes from: ``owner/repo@commit:path#Lnn`` or an SDK file and line."""
    evidence: str = ""
    """What the cited line says, in a few words."""


@record(frozen=True, slots=True)
class ResourceTable:
    """The replacement facts of one resource type, looked up by the most specific field path."""

    type: str
    """The Pulumi type token, e.g. ``aws:eks/nodeGroup:NodeGroup``."""
    rules: tuple[FieldRule, ...]
    unlisted: Action = "replace"
    """What an input without a row is taken to do: replacing is the safe assumption for a CI gate."""
    name_field: str = ""
    """The input holding the cloud name (a replacement that keeps it cannot be created beside the old one)."""
    update_note: str = ""
    """What an in-place update of this type does beyond itself (a launch template's new version rolls the node
    group's nodes), shown by ``gpuready diff``; "" when it does nothing more."""

    def rule(self, path: str) -> FieldRule | None:
        """The row for ``path`` or its closest listed parent (``a.b[0].c`` -> ``a.b.c``, ``a.b``, ``a``)."""
        parts = plain_path(path).split(".")
        known = _BY_FIELD.get(id(self))
        if known is None or known[0] is not self:
            known = _BY_FIELD[id(self)] = (self, {r.field: r for r in self.rules})
        by_field = known[1]
        for end in range(len(parts), 0, -1):
            found = by_field.get(".".join(parts[:end]))
            if found is not None:
                return found
        return None

    def action(self, path: str) -> Action:
        found = self.rule(path)
        return self.unlisted if found is None else found.action


_BY_FIELD: dict[int, tuple[ResourceTable, dict[str, FieldRule]]] = {}
"""id(table) -> (the table, its rules by field): made on a table's first look-up (tables are constants)."""


@record(frozen=True, slots=True)
class PoolCapacity:
    """The GPUs a planned pool can hold: what a replacement or deletion puts at risk."""

    accelerator: str | None
    gpus_per_node: int | None
    max_nodes: int | None

    @property
    def max_gpus(self) -> int | None:
        if self.gpus_per_node is None or self.max_nodes is None:
            return None
        return self.gpus_per_node * self.max_nodes


def name_suffix(values: Mapping[str, object]) -> str:
    """A short stable digest of the replacement-forcing inputs: equal inputs, equal suffix, in any process."""
    text = json.dumps(values, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:SUFFIX_LENGTH]


def rotated_name(base: str, values: Mapping[str, object]) -> str:
    """``<base>-<suffix>``: a new name exactly when an input that forces replacement changes."""
    return f"{base}-{name_suffix(values)}"


def replacing_values(table: ResourceTable, inputs: Mapping[str, object]) -> dict[str, object]:
    """Every leaf of ``inputs`` (snake or camel case keys, nested) whose listed row says ``replace``, by path.

    Only listed rows count: an input without a row never renames a pool (the component tests require a row
    for every input gpuready sets). Lists of mappings are walked element by element.
    """
    found: dict[str, object] = {}

    def walk(value: object, path: str) -> None:
        if isinstance(value, Mapping):
            for key, item in value.items():
                walk(item, f"{path}.{wire_name(str(key))}" if path else wire_name(str(key)))
        elif isinstance(value, list | tuple) and value and all(isinstance(v, Mapping) for v in value):
            for index, item in enumerate(value):
                walk(item, f"{path}[{index}]")
        else:
            rule = table.rule(path)
            if rule is not None and rule.action == "replace":
                found[path] = value

    walk(inputs, "")
    return found


def wire_name(name: str, irregular: Mapping[str, str] | None = None) -> str:
    """The provider's (camelCase) name of a Python SDK argument: ``node_role_arn`` -> ``nodeRoleArn``; ``irregular``
    holds the SDK's exceptions (azure-native ``os_sku`` -> ``osSKU``). A trailing ``_`` (``resource_name_``) goes."""
    if irregular and name in irregular:
        return irregular[name]
    head, *rest = name.rstrip("_").split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


def pool_cloud_name(
    spec: GpuPoolSpec, table: ResourceTable, args: Mapping[str, object], creation_only: tuple[str, ...] = ()
) -> str:
    """A pool's cloud name: ``spec.name``, plus the suffix of the inputs ``table`` says replace the resource when
    the pool rotates its name. The name input itself and creation-only inputs (ignored after creation) do not count.
    """
    if not spec.rotates_name:
        return spec.name
    forcing = {k: v for k, v in args.items() if wire_name(k) != table.name_field}
    values = replacing_values(table, forcing)
    for ignored in creation_only:
        values.pop(ignored, None)
    return rotated_name(spec.name, values)


NodeTemplateKind = Literal["label", "taint", "resources"]


def node_template(spec: GpuPoolSpec) -> tuple[tuple[NodeTemplateKind, str, str], ...]:
    """What a pool's nodes will have, for an autoscaler that must scale it up from zero: every label, every taint
    (``<value>:<Effect>``) and every extended resource with its count per node (the cloud spells the tags)."""
    entries: list[tuple[NodeTemplateKind, str, str]] = [
        ("label", k, v) for k, v in scheduling.pool_labels(spec).items()
    ]
    entries += [("taint", t.key, f"{t.value}:{t.effect}") for t in scheduling.pool_taints(spec)]
    entries += [("resources", name, str(n)) for name, n in resources.allocatable_per_node(spec).items()]
    # The fabric's devices too (EFA: vpc.amazonaws.com/efa), so a pod asking for them scales the pool from zero.
    entries += [("resources", name, str(n)) for name, n in spec.profile.fabric.resources(spec).items()]
    return tuple(entries)
