"""The package schema: generated from the config models, committed, and what the provider serves."""

from __future__ import annotations

import json
from typing import Any, get_args

import pytest

from gpuready.core.binpack.scheduler_fields import TolerationOperator
from gpuready.core.config_model.gpu_stack_model import GPU_STACK_KEYS, GpuStackConfig
from gpuready.core.config_model.pool_model import POOL_KEYS, PoolConfig
from gpuready.core.config_model.pool_parts_model import SHARING_KEYS
from gpuready.core.config_model.scheduler_model import BINPACK_KEYS
from gpuready.core.conventions import GPU_TAINT_PROPERTY, SKYPILOT_PROPERTY
from gpuready.core.gpu_stack.stack_spec import NFD_MODES
from gpuready.gpu_stack.device_plugin import NvidiaDevicePlugin
from gpuready.gpu_stack.dra_driver import NvidiaDraDriver
from gpuready.gpu_stack.gpu_operator import GpuOperator
from gpuready.gpu_stack.gpu_operator_dra import GpuOperatorDra
from gpuready.kueue.queue_objects import TYPE_TOKEN as KUEUE_TOKEN
from gpuready.package.provider import GpuReadyProvider
from gpuready.package.schema import SCHEMA_FILE, package_schema, schema_text
from gpuready.scheduler.binpack_scheduler import TYPE_TOKEN

ELASTIC_COMPONENTS = {
    "EksKarpenterGpuPool": ["pool", "clusterName", "nodeRoleArn", "subnetIds"],
    "EksAutoModeGpuPool": ["pool", "clusterName", "nodeRoleArn", "subnetIds"],
    "AksNapGpuPool": ["pool"],
    "GkeComputeClassGpuPool": ["pool"],
}
"""Elastic pool components (issue #14) and their required inputs."""
SCHEMA: dict[str, Any] = json.loads(GpuReadyProvider().schema or "{}")
RESOURCES: dict[str, Any] = SCHEMA["resources"]
TYPES: dict[str, Any] = SCHEMA["types"]
CONVENTIONS = (GPU_TAINT_PROPERTY, SKYPILOT_PROPERTY)


def test_the_committed_schema_is_the_generated_one() -> None:
    assert SCHEMA_FILE.read_text() == schema_text(), "schema.json is stale: run `make schema` and commit it"


def test_the_provider_serves_the_generated_schema() -> None:
    assert package_schema() == SCHEMA


def test_every_component_keeps_the_token_its_python_class_registers() -> None:
    expected = {GpuOperator.TOKEN, NvidiaDevicePlugin.TOKEN, NvidiaDraDriver.TOKEN, GpuOperatorDra.TOKEN, TYPE_TOKEN}
    expected |= {f"gpuready:index:{c}GpuNodePool" for c in ("Eks", "Aks", "Gke")}
    expected |= {f"gpuready:index:{c}" for c in ELASTIC_COMPONENTS}  # tokens checked against Python: test_provider_host
    expected.add(KUEUE_TOKEN)
    assert set(RESOURCES) == expected
    assert all(r["isComponent"] for r in RESOURCES.values())


def test_the_pool_type_has_every_pool_key_with_the_models_required_keys() -> None:
    pool = TYPES["gpuready:index:PoolSpec"]
    assert tuple(pool["properties"]) == POOL_KEYS
    required = [f.alias for f in PoolConfig.model_fields.values() if f.is_required()]
    assert pool["required"] == required == ["name", "maxSize"]  # instanceType, minSize: by the rules


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        (("PoolSpec", "minSize"), {"type": "integer"}),
        (("PoolSpec", "fixedName"), {"type": "boolean"}),
        (("PoolSpec", "zones"), {"type": "array", "items": {"type": "string"}}),
        (("PoolSpec", "labels"), {"type": "object", "additionalProperties": {"type": "string"}}),
        (("PoolSpec", "taints"), {"type": "array", "items": {"$ref": "#/types/gpuready:index:TaintConfig"}}),
        (("PoolSpec", "sharing"), {"$ref": "#/types/gpuready:index:PoolSpecSharing"}),
        (("PoolSpecSharing", "replicas"), {"type": "integer"}),
        (("GpuConfig", "arch"), {"$ref": "#/types/gpuready:index:GpuConfigArch"}),
    ],
)
def test_types_follow_the_model(path: tuple[str, str], expected: dict[str, Any]) -> None:
    found = TYPES[f"gpuready:index:{path[0]}"]["properties"][path[1]]
    assert {k: v for k, v in found.items() if k not in ("description", "default")} == expected


@pytest.mark.parametrize(
    ("enum", "values"),
    [
        ("PoolSpecSharingMode", list(SHARING_KEYS)),
        ("GpuConfigArch", ["arm64", "x86_64"]),
        ("GpuStackConfigNfd", list(NFD_MODES)),
        ("TolerationConfigOperator", list(get_args(TolerationOperator))),
    ],
)
def test_literals_are_enums(enum: str, values: list[str]) -> None:
    assert [v["value"] for v in TYPES[f"gpuready:index:{enum}"]["enum"]] == values


def test_descriptions_are_the_field_docstrings() -> None:
    pool = TYPES["gpuready:index:PoolSpec"]["properties"]
    assert pool["overrides"]["description"] == PoolConfig.model_fields["overrides"].description
    assert pool["instanceType"]["description"].startswith("Instance / VM / machine type")
    operator = RESOURCES["gpuready:index:GpuOperator"]["inputProperties"]
    assert operator["migReboot"]["description"] == GpuStackConfig.model_fields["mig_reboot"].description
    assert all(p.get("description") for p in RESOURCES["gpuready:index:EksGpuNodePool"]["inputProperties"].values())


AGENT_WIRING = ("clusterName", "tags")
"""The health agent add-on's cluster and tags (``gpuStack.health``), optional."""


@pytest.mark.parametrize(
    ("component", "skipped", "extra"),
    [
        ("GpuOperator", {"kind", "gfd", "clusterVersion"}, {"pools", "cloud", *CONVENTIONS, *AGENT_WIRING}),
        (
            "NvidiaDevicePlugin",
            {"kind", "migReboot", "clusterVersion"},
            {"pools", "cloud", *CONVENTIONS, *AGENT_WIRING},
        ),
        (
            "NvidiaDraDriver",
            {"kind", "gfd", "nfd", "migReboot", "monitoring"},
            {"pools", "cloud", *CONVENTIONS, *AGENT_WIRING},
        ),
        ("GpuOperatorDra", {"kind", "gfd", "migReboot"}, {"pools", "cloud", *CONVENTIONS, *AGENT_WIRING}),
    ],
)
def test_chart_components_take_the_gpu_stack_keys(component: str, skipped: set[str], extra: set[str]) -> None:
    resource = RESOURCES[f"gpuready:index:{component}"]
    assert set(resource["inputProperties"]) == (set(GPU_STACK_KEYS) - skipped) | extra
    assert "health" in resource["inputProperties"]  # gpuStack.health, installed by the component (issue #29)
    assert resource["requiredInputs"] == ["pools", "cloud"]


def test_the_scheduler_takes_the_scheduler_keys() -> None:
    resource = RESOURCES["gpuready:index:GpuBinPackingScheduler"]
    assert set(resource["inputProperties"]) == set(BINPACK_KEYS) | {"pools", "cloud", *CONVENTIONS}
    assert resource["requiredInputs"] == []


@pytest.mark.parametrize("token", sorted(RESOURCES))
def test_every_component_with_pools_takes_the_teams_conventions(token: str) -> None:
    """The keys of ``gpuready:conventions``, optional, typed as the stack setting parses them."""
    inputs = RESOURCES[token]["inputProperties"]
    assert {k: inputs[k]["type"] for k in CONVENTIONS} == {"gpuTaint": "string", "skypilotLabels": "boolean"}
    assert not set(CONVENTIONS) & set(RESOURCES[token]["requiredInputs"])


def test_pool_components_publish_the_pool_outputs() -> None:
    outputs = RESOURCES["gpuready:index:EksGpuNodePool"]["properties"]
    assert {"nodePoolName", "nodeSelector", "tolerations", "resourceName", "gpusPerNode"} <= set(outputs)
    assert outputs["gpusPerNode"]["type"] == "integer"


@pytest.mark.parametrize(("component", "required"), ELASTIC_COMPONENTS.items())
def test_elastic_pool_components_take_a_pool_entry_and_their_wiring(component: str, required: list[str]) -> None:
    resource = RESOURCES[f"gpuready:index:{component}"]
    assert resource["requiredInputs"] == required
    assert resource["inputProperties"]["pool"]["$ref"] == "#/types/gpuready:index:PoolSpec"
    assert all(p.get("description") for p in resource["inputProperties"].values())
    assert "Kubernetes provider" in resource["description"]
    assert resource["properties"] == RESOURCES["gpuready:index:EksGpuNodePool"]["properties"]
