"""The replacement tables (``components/<cloud>/lifecycle.py``) row by row against the sources they cite.

Each row cites ``owner/repo@commit:path#Lfirst-last``; the cited files are vendored verbatim under
``tests/data/upstream/`` (``SOURCES.md``, checksums in ``test_vendored_sources.py``):
- Terraform providers (bridged by pulumi-aws and pulumi-gcp): the cited lines are exactly the schema block of the
  attribute the row's evidence names (``"<attr>": {`` to its closing brace), and ``ForceNew: true`` sits at the top
  level of that block exactly when the row says ``replace``;
- pulumi-azure-native: a ``replace`` row for a URL path parameter cites the diff rule that replaces on path
  parameters; other rows cite the ``AgentPool`` entry of ``forceNewMap``, which names the field exactly when the
  row says ``replace``.
Every input the pool components set has a row, so the diff never guesses for them.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from components.aks import lifecycle as aks_lifecycle
from components.aks import plan as aks_plan
from components.core.catalog.instance_types import Cloud
from components.core.lifecycle import FieldRule, ResourceTable
from components.eks import plan as eks_plan
from components.gke import plan as gke_plan
from components.plan_diff.registry import TABLES
from tests.fidelity.spec_matrix import valid_specs

UPSTREAM = Path(__file__).resolve().parents[1] / "data" / "upstream"
CITATION = re.compile(
    r"^(?P<repo>[\w.-]+/[\w.-]+)@(?P<commit>[0-9a-f]{40}):(?P<path>[^#]+)#L(?P<first>\d+)-(?P<last>\d+)$"
)
VENDORED: Mapping[tuple[str, str], Path] = {
    ("hashicorp/terraform-provider-google-beta", "google-beta/services/container/resource_container_node_pool.go"): (
        UPSTREAM / "terraform-provider-google-beta" / "resource_container_node_pool.go"
    ),
    ("hashicorp/terraform-provider-google-beta", "google-beta/services/container/node_config.go"): (
        UPSTREAM / "terraform-provider-google-beta" / "node_config.go"
    ),
    ("hashicorp/terraform-provider-aws", "internal/service/eks/node_group.go"): (
        UPSTREAM / "terraform-provider-aws" / "node_group.go"
    ),
    ("hashicorp/terraform-provider-aws", "internal/service/autoscaling/group_tag.go"): (
        UPSTREAM / "terraform-provider-aws" / "group_tag.go"
    ),
    ("pulumi/pulumi-azure-native", "provider/pkg/gen/replacement.go"): (
        UPSTREAM / "pulumi-azure-native" / "replacement.go"
    ),
    ("pulumi/pulumi-azure-native", "provider/pkg/provider/diff.go"): UPSTREAM / "pulumi-azure-native" / "diff.go",
}  # fmt: skip
ROWS = [(table, rule) for table in TABLES.values() for rule in table.rules]


def _id(item: tuple[ResourceTable, FieldRule]) -> str:
    return f"{item[0].type.rsplit(':', 1)[-1]}.{item[1].field}"


def _cited(rule: FieldRule) -> tuple[re.Match[str], list[str]]:
    match = CITATION.match(rule.source)
    assert match, f"{rule.field}: {rule.source!r} is not owner/repo@commit:path#Lfirst-last"
    file = VENDORED.get((match["repo"], match["path"]))
    assert file is not None, f"{rule.field}: {match['repo']} {match['path']} is not vendored"
    return match, file.read_text(encoding="utf-8").splitlines()


def schema_block(lines: list[str], first: int) -> tuple[int, list[tuple[int, str]]]:
    """The last line number of the Go block opened on line ``first`` (1-based), and its lines with their depth."""
    depth, block = 0, []
    for number in range(first, len(lines) + 1):
        line = lines[number - 1]
        block.append((depth, line))
        depth += line.count("{") - line.count("}")
        if depth == 0:
            return number, block
    raise AssertionError(f"block at line {first} never closes")


@pytest.mark.parametrize(("table", "rule"), ROWS, ids=[_id(r) for r in ROWS])
def test_row_matches_the_cited_source(table: ResourceTable, rule: FieldRule) -> None:
    match, lines = _cited(rule)
    first, last = int(match["first"]), int(match["last"])
    assert 1 <= first <= last <= len(lines), f"{rule.field}: lines {first}-{last} outside the file"
    if match["repo"].startswith("hashicorp/terraform-provider-"):
        attribute = rule.evidence.split(":", 1)[0]
        assert f'"{attribute}": {{' in lines[first - 1], f"{rule.field}: line {first} does not declare {attribute}"
        end, block = schema_block(lines, first)
        assert end == last, f"{rule.field}: the {attribute} block ends on line {end}, the row cites {last}"
        force_new = any(depth == 1 and re.search(r"\bForceNew:\s*true", text) for depth, text in block)
        assert force_new is (rule.action == "replace"), f"{rule.field}: ForceNew={force_new}, row says {rule.action}"
    elif match["path"].endswith("diff.go"):
        cited = "\n".join(lines[first - 1 : last])
        assert rule.action == "replace"
        assert '"path"' in cited, f"{rule.field}: lines {first}-{last} are not the path-parameter rule"
    else:
        cited = "\n".join(lines[first - 1 : last])
        assert '"AgentPool"' in cited, f"{rule.field}: lines {first}-{last} are not forceNewMap's AgentPool entry"
        assert (f'"{rule.field}"' in cited) is (rule.action == "replace"), rule.field


def test_each_vendored_source_is_cited_at_one_commit() -> None:
    commits: dict[tuple[str, str], set[str]] = {}
    for _, rule in ROWS:
        match = CITATION.match(rule.source)
        if match:
            commits.setdefault((match["repo"], match["path"]), set()).add(match["commit"])
    assert set(commits) == set(VENDORED)
    assert all(len(found) == 1 for found in commits.values()), commits


def test_aks_immutable_facts_are_documented_not_vendored() -> None:
    """AKS refusing a change is a documented fact (Microsoft Learn), not provider code: no line to check."""
    for rule in aks_lifecycle.AKS_IMMUTABLE:
        assert rule.action == "replace"
        assert rule.source.startswith("MicrosoftDocs/azure-aks-docs:")
        assert aks_lifecycle.AGENT_POOL.rule(rule.field) is not None  # the provider row says what it would do


def _leaves(value: object, path: str = "") -> Iterator[str]:
    if isinstance(value, Mapping):
        for key, item in value.items():
            yield from _leaves(item, f"{path}.{_camel(str(key))}" if path else _camel(str(key)))
    elif isinstance(value, list) and value and all(isinstance(v, Mapping) for v in value):
        for index, item in enumerate(value):
            yield from _leaves(item, f"{path}[{index}]")
    else:
        yield path


def _camel(name: str) -> str:
    special = {"os_sku": "osSKU", "vnet_subnet_id": "vnetSubnetID", "resource_name_": "resourceName"}
    if name in special:
        return special[name]
    head, *rest = name.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


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
