"""Render the GPU stack part of a plan: each NVIDIA Helm release with its chart, namespace, waiting and values,
and the config maps beside it. Pure (reads the planned resources' inputs)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from gpuready.core import yaml_text
from gpuready.core.clouds.addon_resource import AddonResource
from gpuready.core.clouds.registry import addon_for_type
from gpuready.core.gpu_stack.kinds import release_note
from gpuready.offline.plan import PlannedResource

RELEASE = "kubernetes:helm.sh/v3:Release"
CONFIG_MAP = "kubernetes:core/v1:ConfigMap"
QUOTA = "kubernetes:core/v1:ResourceQuota"


def render_releases(resources: Sequence[PlannedResource]) -> str:
    """One block per Helm release and per config map / quota of the plan; empty when there is none."""
    blocks: list[str] = []
    for resource in resources:
        if resource.type == RELEASE:
            blocks.append(_release(resource.name, resource.inputs))
        elif (addon := addon_for_type(resource.type)) is not None and resource.inputs.get(addon.values_field):
            blocks.append(_addon(addon, resource.inputs))
    for resource in resources:
        if resource.type == CONFIG_MAP:
            blocks.append(_config_map(resource.inputs))
        elif resource.type == QUOTA:
            blocks.append(_quota(resource.inputs))
    return "\n\n".join(blocks)


def _release(name: str, inputs: Mapping[str, Any]) -> str:
    repo = (inputs.get("repositoryOpts") or {}).get("repo", "")
    wait = "no wait" if inputs.get("skipAwait") else "waits for the workloads"
    atomic = "atomic" if inputs.get("atomic") else "not atomic"
    version = inputs.get("version") or "(version not pinned: the newest chart at each deploy)"
    namespace = inputs.get("namespace") or "(not set: the provider's default namespace)"
    timeout = f"{inputs['timeout']} s" if inputs.get("timeout") else "(Helm's default, 300 s)"
    head = (
        f"Helm release {inputs.get('name', name)!r}: chart {inputs.get('chart')} {version} from {repo or '(no repo)'}, "
        f"namespace {namespace}, timeout {timeout}, {wait}, {atomic}"
    )
    values = inputs.get("values") or {}
    note = release_note(str(inputs.get("chart") or ""), values)
    if note is not None:
        head += "\n  note: " + note
    return head + "\n" + _indent(_yaml(values), "  values: ")


def _addon(addon: AddonResource, inputs: Mapping[str, Any]) -> str:
    """A cloud add-on with configuration values (the health agent): name, version and the values as YAML."""
    version = inputs.get(addon.version_field) or "(version not pinned)"
    head = f"{addon.title} {inputs.get(addon.name_field)!r} {version}"
    try:
        values: object = json.loads(str(inputs[addon.values_field]))
    except json.JSONDecodeError:
        values = inputs[addon.values_field]
    return head + "\n" + _indent(_yaml(values), "  configuration values: ")


def _config_map(inputs: Mapping[str, Any]) -> str:
    metadata = inputs.get("metadata") or {}
    head = f"ConfigMap {metadata.get('namespace')}/{metadata.get('name')}:"
    data = inputs.get("data") or {}
    return "\n".join([head, *(_indent(str(text).rstrip("\n"), f"  {key}: ") for key, text in sorted(data.items()))])


def _quota(inputs: Mapping[str, Any]) -> str:
    metadata = inputs.get("metadata") or {}
    spec = inputs.get("spec") or {}
    scopes = [v for e in (spec.get("scopeSelector") or {}).get("matchExpressions", []) for v in e.get("values", [])]
    return (
        f"ResourceQuota {metadata.get('namespace')}/{metadata.get('name')}: pods "
        f"{(spec.get('hard') or {}).get('pods')} for priority classes {', '.join(scopes)}"
    )


def _yaml(value: object) -> str:
    return yaml_text.dump(value).rstrip("\n")


def _indent(text: str, first: str) -> str:
    pad = " " * (len(first) - len(first.lstrip()) + 2)
    lines = text.splitlines() or [""]
    if len(lines) == 1:
        return first + lines[0]
    return first.rstrip() + "\n" + "\n".join(pad + line for line in lines)
