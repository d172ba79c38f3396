"""``gpuready diff`` on pairs of real stack plans (the eks-dev stack program, offline): the CI gate."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.cli.test_plan_command import ROOT, run_cli

EKS_POOLS: list[dict[str, Any]] = yaml.safe_load(
    yaml.safe_load((ROOT / "stacks" / "Pulumi.eks-dev.yaml").read_text("utf-8"))["config"]["gpuready:nodePools"]
)
NODE_GROUP = "aws:eks/nodeGroup:NodeGroup"


def with_pool(name: str, **changes: Any) -> list[dict[str, Any]]:
    return [{**p, **changes} if p["name"] == name else p for p in EKS_POOLS]


VARIANTS: dict[str, list[dict[str, Any]]] = {
    "base": EKS_POOLS,
    "desired": with_pool("l4-shared", desiredSize=3),
    "instance": with_pool("l4-shared", instanceType="g6.24xlarge"),
    "label": with_pool("h100-mig", labels={"example.com/team": "research"}),
    "removed": [p for p in EKS_POOLS if p["name"] != "a10g-br"],
}


@pytest.fixture(scope="module")
def plans(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Path]]:
    folder = tmp_path_factory.mktemp("plans")
    paths: dict[str, Path] = {}
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(ROOT)
        for name, pools in VARIANTS.items():
            result = run_cli("plan", "--stack", "eks-dev", "--no-policy", "-o", "json",
                             "--set", f"gpuready:nodePools={json.dumps(pools)}")  # fmt: skip
            assert result.code == 0, result.err
            paths[name] = folder / f"{name}.json"
            paths[name].write_text(result.out, "utf-8")
    yield paths


def diff(plans: dict[str, Path], new: str, *flags: str) -> tuple[int, dict[str, Any]]:
    result = run_cli("diff", str(plans["base"]), str(plans[new]), "-o", "json", *flags)
    assert result.err == ""
    document = json.loads(result.out)
    assert isinstance(document, dict)
    return result.code, document


def torn_down(path: Path) -> dict[str, Any]:
    """The plan at ``path`` with every resource gone: what tearing the stack down plans."""
    document = json.loads(path.read_text("utf-8"))
    return {**document, "resources": [], "pools": []}


def by_name(document: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {c["name"]: c for c in document["changes"]}


def test_a_plan_against_itself_changes_nothing(plans: dict[str, Path]) -> None:
    result = run_cli("diff", str(plans["base"]), str(plans["base"]))
    assert result.code == 0
    assert result.out.startswith("gpuready diff: 0 to create, 0 to update, 0 to replace, 0 to delete")


def test_desired_size_changed_replaces_nothing(plans: dict[str, Path]) -> None:
    code, document = diff(plans, "desired")
    assert code == 0
    assert document["changes"] == []  # scalingConfig.desiredSize is creation-only (ignoreChanges)
    assert document["gpuCapacityAtRisk"] == []


def test_instance_type_changed_replaces_the_pool_with_its_gpus_at_risk(plans: dict[str, Path]) -> None:
    code, document = diff(plans, "instance")
    assert code == 1
    change = by_name(document)["l4-shared-node-group"]
    assert change["action"] == "replace"
    assert set(change["fields"]) == {"instanceTypes", "nodeGroupName"}  # the new group gets a new name
    assert change["note"] == "the replacement is created first, under a new name"
    (risk,) = document["gpuCapacityAtRisk"]
    assert (risk["pool"], risk["accelerator"], risk["maxGpusBefore"], risk["maxGpusAfter"]) == (
        "l4-shared",
        "l4",
        16,
        16,
    )
    # The ASG tags move to the new group's Auto Scaling group; nothing else changes.
    assert {c["type"] for c in document["changes"]} == {NODE_GROUP, "aws:autoscaling/tag:Tag"}
    assert document["summary"]["replace"] == len(document["changes"])


def test_allow_replace_accepts_the_replacement(plans: dict[str, Path]) -> None:
    code, document = diff(plans, "instance", "--allow-replace")
    assert code == 0
    assert document["allowReplace"] is True
    assert len(document["gpuCapacityAtRisk"]) == 1


def test_a_label_added_is_an_update_in_place(plans: dict[str, Path]) -> None:
    code, document = diff(plans, "label")
    assert code == 0
    changes = by_name(document)
    assert changes["h100-mig-node-group"]["action"] == "update"
    assert changes["h100-mig-node-group"]["fields"] == ["labels.example.com/team"]
    assert {c["action"] for c in document["changes"]} == {"create", "update"}  # plus the label's new ASG tag
    assert document["gpuCapacityAtRisk"] == []


def test_a_pool_removed_is_deleted_with_its_gpus_at_risk_after_the_gpu_stack(plans: dict[str, Path]) -> None:
    code, document = diff(plans, "removed")
    assert code == 1
    (risk,) = document["gpuCapacityAtRisk"]
    assert (risk["pool"], risk["action"], risk["maxGpusBefore"], risk["maxGpusAfter"]) == ("a10g-br", "delete", 3, 0)
    deleted = {c["name"] for c in document["changes"] if c["action"] == "delete"}
    assert {"a10g-br", "a10g-br-node-group"} <= deleted
    order = document["deleteOrder"]
    assert order.index(next(u for u in order if u.endswith("::a10g-br-node-group"))) < order.index(
        next(u for u in order if u.endswith("EksGpuNodePool::a10g-br"))
    )


def test_teardown_deletes_the_gpu_stack_and_scheduler_before_the_pools(plans: dict[str, Path], tmp_path: Path) -> None:
    empty = tmp_path / "empty.json"
    empty.write_text(json.dumps(torn_down(plans["base"])), "utf-8")
    result = run_cli("diff", str(plans["base"]), str(empty), "-o", "json")
    assert result.code == 1
    order = json.loads(result.out)["deleteOrder"]
    release = order.index(next(u for u in order if u.endswith("::gpu-stack-release")))
    groups = [i for i, u in enumerate(order) if "aws:eks/nodeGroup:NodeGroup::" in u]
    assert len(groups) == 3
    assert release < min(groups)


@pytest.mark.parametrize("content", ["{not json", json.dumps({"stack": "x"})])
def test_a_file_that_is_not_a_plan_exits_2(plans: dict[str, Path], tmp_path: Path, content: str) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(content, "utf-8")
    result = run_cli("diff", str(plans["base"]), str(bad))
    assert result.code == 2
    assert result.out == ""
    assert result.err.startswith("error: ")
    assert "Traceback" not in result.err


def test_a_missing_file_exits_2(plans: dict[str, Path], tmp_path: Path) -> None:
    result = run_cli("diff", str(plans["base"]), str(tmp_path / "nope.json"))
    assert (result.code, "cannot read the plans" in result.err) == (2, True)


def test_teardown_of_the_training_example_deletes_workloads_then_the_stack_then_the_pools(tmp_path: Path) -> None:
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(ROOT)
        planned = run_cli("plan", "--program", "examples/training_job", "--stack", "dev", "--no-policy", "-o", "json")
    assert planned.code == 0, planned.err
    (tmp_path / "before.json").write_text(planned.out, "utf-8")
    (tmp_path / "after.json").write_text(json.dumps(torn_down(tmp_path / "before.json")), "utf-8")
    result = run_cli("diff", str(tmp_path / "before.json"), str(tmp_path / "after.json"), "-o", "json")
    order = [urn.rsplit("::", 1)[-1] for urn in json.loads(result.out)["deleteOrder"]]
    groups = [i for i, name in enumerate(order) if name.endswith("-node-group")]
    assert groups
    assert order.index("train") < order.index("gpu-stack-release") < min(groups)
    assert order.index("serve") < order.index("gpu-binpack-deployment")


def test_with_json_output_an_unreadable_plan_is_one_error_object(plans: dict[str, Path], tmp_path: Path) -> None:
    result = run_cli("diff", str(plans["base"]), str(tmp_path / "nope.json"), "-o", "json")
    assert result.code == 2
    error = json.loads(result.out)["error"]
    assert (error["kind"], error["problems"]) == ("invalid-input", [])
    assert error["message"].startswith("cannot read the plans")


def test_wide_adds_urns_node_counts_and_gpus_and_no_headers_drops_the_header_rows(plans: dict[str, Path]) -> None:
    narrow = run_cli("diff", str(plans["base"]), str(plans["instance"]))
    wide = run_cli("diff", str(plans["base"]), str(plans["instance"]), "-o", "wide")
    bare = run_cli("diff", str(plans["base"]), str(plans["instance"]), "-o", "wide", "--no-headers")
    assert narrow.code == wide.code == bare.code == 1  # the pool is replaced: capacity at risk
    headers = [line.split() for line in wide.out.splitlines() if line.startswith(("ACTION", "POOL"))]
    assert headers == [
        ["ACTION", "TYPE", "NAME", "FIELDS", "URN"],
        ["POOL", "ACTION", "GPU", "MEANWHILE", "MAX", "GPUS"],
    ]
    labeled = run_cli("diff", str(plans["base"]), str(plans["label"]), "-o", "wide").out.splitlines()
    capacity = labeled.index("GPU capacity, in the units workloads request (before -> after):")
    assert labeled[capacity + 1].split()[-1] == "NODES"
    assert labeled[capacity + 2].split()[-1] == "0..2"  # h100-mig: minSize..maxSize, unchanged
    assert not any(line.startswith(("ACTION", "POOL")) for line in bare.out.splitlines())
    assert [line for line in wide.out.splitlines() if not line.startswith(("ACTION", "POOL"))] == bare.out.splitlines()
    replaced = next(line for line in wide.out.splitlines() if line.startswith("replace ") and NODE_GROUP in line)
    assert replaced.split()[-1].startswith("urn:pulumi:eks-dev::")
    assert "urn:pulumi:" not in narrow.out
