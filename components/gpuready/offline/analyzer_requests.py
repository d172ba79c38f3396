"""The Analyzer protocol requests the engine sends a policy pack, built from a captured run.

``Configure`` (each policy's enforcement level and properties: schema defaults, the pack's initial config, then
user config with ``all`` first; a level is always sent, since a missing one resets the policy to advisory),
``ConfigureStack``, one ``Analyze`` per resource with its raw input Struct, and ``AnalyzeStack`` with parents,
dependencies and property dependencies (pulumi ``proto/pulumi/analyzer.proto``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from google.protobuf import struct_pb2  # type: ignore[import-untyped]
from pulumi.runtime.proto import analyzer_pb2
from pulumi_policy import EnforcementLevel

from gpuready.errors import GpuReadyError
from gpuready.offline.capture import CapturedRun, RegisteredResource
from gpuready.offline.echo import struct_dict

ORGANIZATION = "organization"

_LEVEL_NAMES: Mapping[str, int] = {
    EnforcementLevel.ADVISORY.value: analyzer_pb2.ADVISORY,
    EnforcementLevel.MANDATORY.value: analyzer_pb2.MANDATORY,
    EnforcementLevel.REMEDIATE.value: analyzer_pb2.REMEDIATE,
    EnforcementLevel.DISABLED.value: analyzer_pb2.DISABLED,
}

_LEVEL_OF: Mapping[int, str] = {number: name for name, number in _LEVEL_NAMES.items()}

_JSON_TYPES: Mapping[str, tuple[type, ...]] = {
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
    "array": (list,),
    "object": (dict,),
}


class PolicyConfigError(GpuReadyError, ValueError):
    """A policy config file, or a policy pack, that cannot be used."""


def configure_request(
    info: analyzer_pb2.AnalyzerInfo, config: Mapping[str, Any] | None
) -> analyzer_pb2.ConfigureAnalyzerRequest:
    """The engine's ``Configure``: each policy's level (its own, the pack's initial config, then ``config``,
    with ``all`` first) and properties (schema defaults, overlaid by the configs). A level is always sent:
    a missing one would reset the policy to advisory (proto value 0)."""
    config = dict(config or {})
    names = [p.name for p in info.policies]
    unknown = sorted(set(config) - set(names) - {"all"})
    if unknown:
        raise PolicyConfigError(f"policy config names unknown policies {unknown}; known: {', '.join(sorted(names))}")
    initial: dict[str, Any] = {
        key: {"enforcementLevel": _LEVEL_OF[entry.enforcementLevel], **struct_dict(entry.properties)}
        for key, entry in info.initialConfig.items()
    }
    request = analyzer_pb2.ConfigureAnalyzerRequest()
    for policy in info.policies:
        schema = struct_dict(policy.configSchema.properties) if policy.HasField("configSchema") else {}
        level = policy.enforcementLevel
        properties = {k: v["default"] for k, v in schema.items() if isinstance(v, dict) and "default" in v}
        for layer in (initial.get("all"), initial.get(policy.name), config.get("all"), config.get(policy.name)):
            level = _apply(layer, policy.name, schema, level, properties)
        entry = analyzer_pb2.PolicyConfig(enforcementLevel=level)
        entry.properties.update(properties)
        request.policyConfig[policy.name].CopyFrom(entry)
    return request


def stack_configure_request(run: CapturedRun) -> analyzer_pb2.AnalyzerStackConfigureRequest:
    """The engine's ``ConfigureStack`` for the run's stack."""
    return analyzer_pb2.AnalyzerStackConfigureRequest(
        stack=run.stack, project=run.project, organization=ORGANIZATION, dry_run=run.preview
    )


def resource_options(resource: RegisteredResource) -> analyzer_pb2.AnalyzerResourceOptions:
    """The options the engine sends with a resource: parent, protect, ignoreChanges, deleteBeforeReplace, aliases
    and additional secret outputs, from what the program registered (``capture.resource_options``)."""
    options = resource.options
    delete_first = options.get("deleteBeforeReplace")
    return analyzer_pb2.AnalyzerResourceOptions(
        parent=resource.parent,
        protect=bool(options.get("protect", False)),
        ignoreChanges=list(options.get("ignoreChanges", ())),
        deleteBeforeReplace=bool(delete_first),
        deleteBeforeReplaceDefined=delete_first is not None,
        aliases=[a for a in options.get("aliases", ()) if a.startswith("urn:")],
        additionalSecretOutputs=list(options.get("additionalSecretOutputs", ())),
    )


def analyze_request(
    resource: RegisteredResource, by_urn: Mapping[str, RegisteredResource], *, properties: bool = True
) -> analyzer_pb2.AnalyzeRequest:
    """``Analyze`` for one resource: its raw input Struct as the monitor received it (left out without
    ``properties``, for a caller that decodes the Struct itself)."""
    request = analyzer_pb2.AnalyzeRequest(
        type=resource.type,
        properties=_struct(resource.object) if properties else None,
        urn=resource.urn,
        name=resource.name,
        options=resource_options(resource),
    )
    provider = _provider(resource, by_urn)
    if provider is not None:
        request.provider.CopyFrom(provider)
    return request


def analyze_stack_request(
    resources: Sequence[RegisteredResource], by_urn: Mapping[str, RegisteredResource]
) -> analyzer_pb2.AnalyzeStackRequest:
    """``AnalyzeStack`` with each resource's parent, dependencies and property dependencies."""
    request = analyzer_pb2.AnalyzeStackRequest()
    for r in resources:
        item = request.resources.add(
            type=r.type,
            properties=_struct(r.object),
            urn=r.urn,
            name=r.name,
            options=resource_options(r),
            parent=r.parent,
            dependencies=list(r.dependencies),
        )
        for key, urns in r.property_dependencies.items():
            item.propertyDependencies[key].urns.extend(urns)
        provider = _provider(r, by_urn)
        if provider is not None:
            item.provider.CopyFrom(provider)
    return request


def _apply(layer: object, policy: str, schema: Mapping[str, Any], level: int, properties: dict[str, Any]) -> int:
    """Overlay one config layer (a level name, or an object with ``enforcementLevel`` and properties)."""
    if layer is None:
        return level
    if isinstance(layer, str):
        return _level(layer, policy)
    if not isinstance(layer, Mapping):
        raise PolicyConfigError(f"policy config for {policy!r} must be a level or an object; got {layer!r}")
    for key, value in layer.items():
        if key == "enforcementLevel":
            level = _level(value, policy)
            continue
        if key not in schema:
            known = ", ".join(sorted(schema)) or "none"
            raise PolicyConfigError(f"policy {policy!r} has no config property {key!r}; known: {known}")
        expected = schema[key].get("type") if isinstance(schema[key], Mapping) else None
        if (
            isinstance(expected, str)
            and expected in _JSON_TYPES
            and ((isinstance(value, bool) and expected != "boolean") or not isinstance(value, _JSON_TYPES[expected]))
        ):
            raise PolicyConfigError(f"policy {policy!r} config {key!r} must be of type {expected}; got {value!r}")
        properties[key] = value
    return level


def _level(value: object, policy: str) -> int:
    if not isinstance(value, str) or value not in _LEVEL_NAMES:
        raise PolicyConfigError(
            f"policy config for {policy!r}: unknown enforcement level {value!r}; use {', '.join(_LEVEL_NAMES)}"
        )
    return _LEVEL_NAMES[value]


def _struct(value: Any) -> struct_pb2.Struct:
    return value if isinstance(value, struct_pb2.Struct) else struct_pb2.Struct()


def _provider(
    resource: RegisteredResource, by_urn: Mapping[str, RegisteredResource]
) -> analyzer_pb2.AnalyzerProviderResource | None:
    """The provider the engine would describe: the registered provider resource when the program made one."""
    if not resource.provider:
        return None
    urn = resource.provider.rsplit("::", 1)[0]
    found = by_urn.get(urn)
    if found is not None:
        return analyzer_pb2.AnalyzerProviderResource(
            type=found.type, properties=_struct(found.object), urn=found.urn, name=found.name
        )
    parts = urn.split("::")
    return analyzer_pb2.AnalyzerProviderResource(
        type=parts[2].rsplit("$", 1)[-1] if len(parts) > 3 else "", urn=urn, name=parts[-1]
    )
