"""The gpuready package schema, generated from the config models. Pure.

Each component's inputs are the keys of the stack config that configure it, taken from the config models
(``PoolConfig``, ``GpuStackConfig``, each setting entry's model (``BinPackSchedulerConfig``, ``KueueConfig``): names
by alias, types, required keys, enums from ``Literal``, descriptions from the field docstrings), plus the cloud
wiring a stack takes from its other keys. The resource tokens are the ones the Python components register, so URNs
are the same from every language. ``make schema`` writes it to ``schema.json``; the provider serves the same
document.
"""

from __future__ import annotations

import json
from dataclasses import field
from pathlib import Path
from typing import Any

from pydantic import TypeAdapter
from pydantic.alias_generators import to_camel

import gpuready.plugins  # noqa: F401 - the schema lists the components of the registered clouds' provisioners
from gpuready.core import component_entry
from gpuready.core.capacity.registry import component_provisioners
from gpuready.core.clouds.registry import cloud_names
from gpuready.core.component_entry import STRING, STRING_MAP, Wire
from gpuready.core.config_model.base import ConfigModel
from gpuready.core.config_model.gpu_stack_model import GpuStackConfig
from gpuready.core.config_model.pool_model import PoolConfig
from gpuready.core.gpu_stack.kinds import CHART_COMPONENTS
from gpuready.core.pool_summary import PoolOutputs
from gpuready.core.setting_components import SETTING_COMPONENTS
from gpuready.package.field_docs import documented
from gpuready.package.json_types import PACKAGE, Json, TypeWriter, token
from gpuready.record import record

VERSION = "0.1.0"
SCHEMA_FILE = Path(__file__).resolve().parents[3] / "schema.json"
"""The committed schema, at the repository root (next to ``PulumiPlugin.yaml``)."""
POOL_TYPE = "PoolSpec"
"""The object type of one pool entry (``gpuready:nodePools[i]``)."""


@record(frozen=True)
class ComponentSchema:
    """What the schema says of one component."""

    name: str
    description: str
    model: type[ConfigModel] | None = None
    """The config model whose keys are inputs (the pool model is the ``pool`` input instead)."""
    skip: frozenset[str] = frozenset()
    """Model keys the component decides itself (``kind``) or does not take."""
    wiring: tuple[Wire, ...] = ()
    outputs: dict[str, Json] = field(default_factory=dict)


_POOLS = Wire(
    "pools",
    {"type": "array", "items": {"$ref": f"#/types/{token(POOL_TYPE)}"}},
    "The pools the stack serves, as entries of gpuready:nodePools (the same as the pool components').",
    True,
)
_CONVENTIONS = (
    Wire("gpuTaint", STRING, "The team's GPU taint, key=value:Effect (gpuready:conventions' gpuTaint): the pools "
         "carry it and the GPU stack tolerates it; absent: nvidia.com/gpu=present:NoSchedule."),
    Wire("skypilotLabels", {"type": "boolean"}, "Whether the pools carry SkyPilot's skypilot.co/accelerator label "
         "(gpuready:conventions' skypilotLabels); absent: true."),
)  # fmt: skip
"""Every component with pools takes the team's conventions, as the stack takes ``gpuready:conventions``."""
_CLOUD = Wire("cloud", {"type": "string"}, f"The cloud of the pools: {', '.join(cloud_names())}.", True)
_WITH_POOLS = {True: "", False: " Required with pools."}
"""What the cloud's description adds for a component whose pools are optional (by ``pools_required``)."""
_AGENT_WIRING = (
    Wire("clusterName", STRING, "Name of the existing cluster: required when health installs an agent add-on (EKS: "
         "the node monitoring agent)."),
    Wire("tags", STRING_MAP, "Tags on the health agent add-on, when health installs one."),
)  # fmt: skip
_POOL_OUTPUTS: dict[str, Json] = {
    "nodePoolName": {"type": "string", "description": "The pool's name in the cloud."},
    **{
        to_camel(key): {k: v for k, v in value.items() if k != "title"}
        for key, value in TypeAdapter(PoolOutputs).json_schema()["properties"].items()
    },
}
_RELEASE_OUTPUTS: dict[str, Json] = {
    "releaseName": {"type": "string", "description": "The Helm release's name."},
    "namespace": {"type": "string", "description": "The release's namespace."},
    "chart": {"type": "string", "description": "The chart."},
    "version": {"type": "string", "description": "The chart's version."},
}

COMPONENTS: tuple[ComponentSchema, ...] = (
    *(
        ComponentSchema(p.component.name, p.component.description, wiring=p.component.wiring, outputs=_POOL_OUTPUTS)
        for p in component_provisioners()
    ),
    *(
        ComponentSchema(
            entry.name,
            entry.description,
            model=GpuStackConfig,
            skip=entry.skip,
            wiring=(_POOLS, _CLOUD, *_AGENT_WIRING),
            outputs=_RELEASE_OUTPUTS,
        )
        for entry in CHART_COMPONENTS.values()
    ),
    *(
        ComponentSchema(
            entry.name, entry.description, model=entry.model() if entry.model is not None else None,
            wiring=(
                Wire(_POOLS.name, _POOLS.type, entry.pools, entry.pools_required),
                Wire(_CLOUD.name, _CLOUD.type, _CLOUD.description + _WITH_POOLS[entry.pools_required],
                     entry.pools_required),
            ),
            outputs=dict(entry.outputs),
        )
        for entry in SETTING_COMPONENTS
    ),
)  # fmt: skip


def package_schema() -> Json:
    """The package schema (https://www.pulumi.com/docs/iac/extending-pulumi/schema/) as a JSON value."""
    documented(PoolConfig, *(c.model for c in COMPONENTS if c.model is not None))
    pool_schema = PoolConfig.model_json_schema(by_alias=True)
    writer = TypeWriter(pool_schema.get("$defs", {}))
    writer.object_type(POOL_TYPE, pool_schema)
    resources = {token(c.name): _resource(writer, c) for c in COMPONENTS}
    return {
        "name": PACKAGE,
        "displayName": "gpuready",
        "version": VERSION,
        "description": "GPU node pools on EKS, AKS and GKE that are correct by construction, with the NVIDIA "
        "GPU stack and a bin-packing scheduler.",
        "language": {"python": {"respectSchemaVersion": True}},
        "resources": resources,
        "types": dict(sorted(writer.types.items())),
    }


def _resource(writer: TypeWriter, component: ComponentSchema) -> Json:
    properties: Json = {}
    required: list[str] = []
    if component.model is not None:
        schema = component.model.model_json_schema(by_alias=True)
        writer.add_defs(schema.get("$defs", {}))
        model_schema = {**schema, "properties": _without(schema["properties"], component.skip)}
        properties, required = writer.properties(component.model.__name__, model_schema)
    with_pools = any(wire.name in (component_entry.POOL.name, _POOLS.name) for wire in component.wiring)
    for wire in (*component.wiring, *(_CONVENTIONS if with_pools else ())):
        properties[wire.name] = {**wire.type, "description": wire.description}
        if wire.required:
            required.append(wire.name)
    return {
        "isComponent": True,
        "description": component.description,
        "inputProperties": properties,
        "requiredInputs": required,
        "properties": component.outputs,
        "required": sorted(component.outputs),
    }


def _without(properties: dict[str, Any], skip: frozenset[str]) -> dict[str, Any]:
    return {k: v for k, v in properties.items() if k not in skip}


def schema_text() -> str:
    """``schema.json`` as committed (sorted keys are not used: the order is the models' own)."""
    return json.dumps(package_schema(), indent=2) + "\n"


if __name__ == "__main__":  # make schema
    SCHEMA_FILE.write_text(schema_text())
