"""The replacement tables (``components/gpuready/<cloud>/lifecycle.py``) row by row against the sources they cite.

Each row cites ``owner/repo@commit:path#Lfirst-last``. The providers' code is cited, not copied into this
repository: ``replacement_facts.json`` records what the cited lines say (``replacement_facts.py`` reads them from
upstream copies, and this test re-reads them when ``GPUREADY_UPSTREAM_DIR`` holds such copies):
- Terraform providers (bridged by pulumi-aws and pulumi-gcp): the cited lines are exactly the schema block of the
  attribute the row's evidence names, and ``ForceNew: true`` sits at its top level exactly when the row says
  ``replace``;
- pulumi-azure-native: a path-parameter row cites the rule that replaces on URL path parameters; the other rows
  cite the ``AgentPool`` entry of ``forceNewMap``, which lists the field exactly when the row says ``replace``.
Every input the pool components set has a row, so the diff never guesses for them.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import json
import os
import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from gpuready.aks import lifecycle as aks_lifecycle
from gpuready.aks import plan as aks_plan
from gpuready.core.clouds.registry import Cloud
from gpuready.core.lifecycle import FieldRule, ResourceTable, wire_name
from gpuready.eks import plan as eks_plan
from gpuready.gke import plan as gke_plan
from gpuready.plan_diff.registry import TABLES
from tests.fidelity.replacement_facts import CITATION, FACTS, read_facts
from tests.fidelity.spec_matrix import valid_specs

RECORDED: dict[str, Any] = json.loads(FACTS.read_text("utf-8"))
SDK_CITATION = re.compile(r"^(?P<package>pulumi_[a-z_]+)==(?P<version>[\w.]+):(?P<path>[^#]+)#L(?P<line>\d+)$")
"""A row citing the installed SDK: ``pulumi_aws==7.51.1:ec2/security_group.py#L499``."""
ROWS = [(table, rule) for table in TABLES.values() for rule in table.rules]


def _id(item: tuple[ResourceTable, FieldRule]) -> str:
    return f"{item[0].type.rsplit(':', 1)[-1]}.{item[1].field}"


@pytest.mark.parametrize(("table", "rule"), ROWS, ids=[_id(r) for r in ROWS])
def test_row_matches_the_cited_source(table: ResourceTable, rule: FieldRule) -> None:
    sdk = SDK_CITATION.match(rule.source)
    if sdk:  # a fact the installed SDK's docs state (``eks.fabric_lifecycle``): the cited line says it
        installed = importlib.metadata.version(sdk["package"])
        if installed != sdk["version"]:
            pytest.skip(f"{rule.source} cites {sdk['package']} {sdk['version']}; {installed} is installed")
        module = importlib.import_module(sdk["package"])
        lines = (Path(str(module.__file__)).parent / sdk["path"]).read_text("utf-8").splitlines()
        assert rule.evidence in lines[int(sdk["line"]) - 1], f"{rule.field}: line {sdk['line']} does not say it"
        return
    match = CITATION.match(rule.source)
    assert match, f"{rule.field}: {rule.source!r} is not owner/repo@commit:path#Lfirst-last"
    key = f"{match['repo']}@{match['commit']}:{match['path']}#L{match['first']}"
    last = int(match["last"])
    if match["repo"].startswith("hashicorp/"):
        fact = RECORDED["terraformSchemaBlocks"][key]
        assert fact["attribute"] == rule.evidence.split(":", 1)[0], f"{rule.field}: line declares {fact['attribute']}"
        assert fact["last"] == last, f"{rule.field}: the block ends on line {fact['last']}, the row cites {last}"
        assert fact["forceNew"] is (rule.action == "replace"), f"{rule.field}: ForceNew={fact['forceNew']}"
    else:
        fact = RECORDED["azureNative"][key]
        assert fact["last"] == last
        if "replacesPathParameters" in fact:
            assert fact["replacesPathParameters"] and rule.action == "replace"
        else:
            assert fact["entry"].startswith('"AgentPool": codegen.NewStringSet('), fact["entry"]
            assert (rule.field in fact["agentPoolForceNew"]) is (rule.action == "replace"), rule.field


def test_recorded_facts_are_exactly_the_cited_ones() -> None:
    cited = set()
    for _, rule in ROWS:
        match = CITATION.match(rule.source)
        if match:
            cited.add(f"{match['repo']}@{match['commit']}:{match['path']}#L{match['first']}")
    assert cited == set(RECORDED["terraformSchemaBlocks"]) | set(RECORDED["azureNative"])


@pytest.mark.skipif("GPUREADY_UPSTREAM_DIR" not in os.environ, reason="no upstream copies (GPUREADY_UPSTREAM_DIR)")
def test_recorded_facts_are_what_the_sources_say() -> None:
    assert read_facts(Path(os.environ["GPUREADY_UPSTREAM_DIR"])) == RECORDED


def test_aks_immutable_facts_are_documented_not_vendored() -> None:
    """AKS refusing a change is a documented fact (Microsoft Learn, or the azurerm docs of the same AKS API), not
    provider code: no line to check."""
    for rule in aks_lifecycle.AKS_IMMUTABLE:
        assert rule.action == "replace"
        assert rule.source.startswith(
            ("MicrosoftDocs/azure-aks-docs:", "hashicorp/terraform-provider-azurerm:website/docs/")
        )
        assert aks_lifecycle.AGENT_POOL.rule(rule.field) is not None  # the provider row says what it would do


def _leaves(value: object, path: str = "") -> Iterator[str]:
    if isinstance(value, Mapping):
        for key, item in value.items():
            name = wire_name(str(key), aks_lifecycle.IRREGULAR_NAMES)
            yield from _leaves(item, f"{path}.{name}" if path else name)
    elif isinstance(value, list) and value and all(isinstance(v, Mapping) for v in value):
        for index, item in enumerate(value):
            yield from _leaves(item, f"{path}[{index}]")
    else:
        yield path


WIRING: Mapping[str, dict[str, Any]] = {
    "eks": {"cluster_name": "c", "node_role_arn": "r", "subnet_ids": ["s"], "tags": {"a": "b"}},
    "aks": {"resource_group_name": "g", "resource_name_": "c", "tags": {"a": "b"}, "vnet_subnet_id": "v"},
    "gke": {"cluster": "c", "location": "l", "node_locations": ["z"]},
}


def _component_inputs(cloud: Cloud) -> Iterator[dict[str, Any]]:
    for spec in valid_specs(cloud):
        if cloud == "eks":
            yield {**eks_plan.node_group_args(spec), **WIRING[cloud]}
        elif cloud == "aks":
            yield {**aks_plan.agent_pool_args(spec), **WIRING[cloud]}
        else:
            args = gke_plan.node_pool_args(spec, 1)
            args["node_config"] = {**args["node_config"], "service_account": "sa", "resource_labels": {"a": "b"}}
            yield {**args, **WIRING[cloud]}


@pytest.mark.parametrize(
    ("cloud", "type_token"),
    [
        ("eks", "aws:eks/nodeGroup:NodeGroup"),
        ("aks", "azure-native:containerservice:AgentPool"),
        ("gke", "gcp:container/nodePool:NodePool"),
    ],
)
def test_every_input_the_components_set_has_a_row(cloud: Cloud, type_token: str) -> None:
    table = TABLES[type_token]
    missing = {path for inputs in _component_inputs(cloud) for path in _leaves(inputs) if table.rule(path) is None}
    assert missing == set()
