"""``diff_plans`` on small hand-written plans: classification, ignore/replace options, capacity, delete order."""

from __future__ import annotations

from typing import Any

import pytest

from gpuready.plan_diff.diff import PlanFormatError, changed_paths, delete_order, diff_plans

STACK = "urn:pulumi:dev::gpuready::pulumi:pulumi:Stack::gpuready-dev"
POOL = "urn:pulumi:dev::gpuready::gpuready:index:EksGpuNodePool::l4"
NODE_GROUP = "urn:pulumi:dev::gpuready::gpuready:index:EksGpuNodePool$aws:eks/nodeGroup:NodeGroup::l4-node-group"
RELEASE = "urn:pulumi:dev::gpuready::gpuready:index:GpuOperator$kubernetes:helm.sh/v3:Release::gpu-stack-release"
QUEUE = "urn:pulumi:dev::gpuready::aws:sqs/queue:Queue::jobs"
EKS_OPTIONS = {"ignoreChanges": ["scalingConfig.desiredSize"], "deleteBeforeReplace": False}


def node_group(**changes: Any) -> dict[str, Any]:
    inputs = {
        "nodeGroupName": "l4-0a1b2c",
        "instanceTypes": ["g6.12xlarge"],
        "scalingConfig": {"minSize": 0, "maxSize": 4, "desiredSize": 1},
        "labels": {"gpuready.io/pool": "l4"},
    }
    options = changes.pop("options", EKS_OPTIONS)
    inputs.update(changes)
    return {"type": "aws:eks/nodeGroup:NodeGroup", "name": "l4-node-group", "urn": NODE_GROUP, "parent": POOL,
            "custom": True, "options": options, "inputs": inputs}  # fmt: skip


def plan(*resources: dict[str, Any]) -> dict[str, Any]:
    return {"stack": "dev", "project": "gpuready", "resources": list(resources), "outputs": {}, "violations": []}


def pool() -> dict[str, Any]:
    return {"type": "gpuready:index:EksGpuNodePool", "name": "l4", "urn": POOL, "parent": STACK, "custom": False,
            "inputs": {}}  # fmt: skip


def release(**values: Any) -> dict[str, Any]:
    inputs = {"name": "gpu-operator", "values": values}
    return {"type": "kubernetes:helm.sh/v3:Release", "name": "gpu-stack-release", "urn": RELEASE, "parent": STACK,
            "custom": True, "dependencies": [NODE_GROUP], "inputs": inputs}  # fmt: skip


@pytest.mark.parametrize(
    ("after", "action", "fields"),
    [
        (node_group(scalingConfig={"minSize": 0, "maxSize": 4, "desiredSize": 3}), None, ()),
        (node_group(scalingConfig={"minSize": 0, "maxSize": 8, "desiredSize": 1}), "update",
         ("scalingConfig.maxSize",)),
        (node_group(labels={"gpuready.io/pool": "l4", "team": "ml"}), "update", ("labels.team",)),
        (node_group(instanceTypes=["g6.24xlarge"], nodeGroupName="l4-9f8e7d"), "replace",
         ("instanceTypes", "nodeGroupName")),
        (node_group(options={}, scalingConfig={"minSize": 0, "maxSize": 4, "desiredSize": 3}), "update",
         ("scalingConfig.desiredSize",)),
        # Escape hatches: diskSizeGb forces a new node group; of the overrides, what the table lists is known and
        # an input without a row is taken to replace (the safe assumption for a CI gate).
        (node_group(diskSize=200, nodeGroupName="l4-9f8e7d"), "replace", ("diskSize", "nodeGroupName")),
        (node_group(launchTemplate={"id": "lt-1", "version": "1"}), "replace", ("launchTemplate",)),
        (node_group(forceUpdateVersion=True), "replace", ("forceUpdateVersion",)),
        (node_group(nodeRepairConfig={"enabled": True}), "update", ("nodeRepairConfig",)),
    ],
    ids=["desired-ignored", "max-size", "label", "instance-type", "desired-without-ignore", "disk-size",
         "launch-template-added", "override-without-a-row", "repair-in-place"],
)  # fmt: skip
def test_a_changed_node_group_is_classified_with_the_table(
    after: dict[str, Any], action: str | None, fields: tuple[str, ...]
) -> None:
    diff = diff_plans(plan(pool(), node_group()), plan(pool(), after))
    if action is None:
        assert diff.changes == ()
    else:
        (change,) = diff.changes
        assert (change.action, change.fields) == (action, fields)


def test_a_new_launch_template_version_updates_in_place() -> None:
    before = node_group(launchTemplate={"id": "lt-1", "version": "1"})
    after = node_group(launchTemplate={"id": "lt-1", "version": "2"})
    (change,) = diff_plans(plan(pool(), before), plan(pool(), after)).changes
    assert (change.action, change.fields) == ("update", ("launchTemplate.version",))


def test_a_replaced_pool_reports_its_gpus_and_that_the_old_one_serves() -> None:
    after = node_group(instanceTypes=["g6.48xlarge"], nodeGroupName="l4-9f8e7d")
    diff = diff_plans(plan(pool(), node_group()), plan(pool(), after))
    (risk,) = diff.at_risk
    assert (risk.pool, risk.action, risk.accelerator) == ("l4", "replace", "l4")
    assert (risk.gpus_before, risk.gpus_after) == (16, 32)  # 4 nodes x 4 L4s, then 4 nodes x 8 L4s
    assert "old pool serves until the new one is ready" in risk.meanwhile


@pytest.mark.parametrize(
    ("options", "meanwhile"),
    [
        ({"deleteBeforeReplace": True}, "no GPUs from the pool until the replacement is ready"),
        ({"deleteBeforeReplace": False}, "blocked: the old pool keeps serving"),
    ],
)
def test_a_replacement_that_keeps_the_name_is_blocked_and_delete_first_is_named(
    options: dict[str, Any], meanwhile: str
) -> None:
    after = node_group(options=options, capacityType="SPOT")
    before = node_group(options=options)
    diff = diff_plans(plan(before), plan(after))
    assert diff.changes[0].action == "replace"
    assert meanwhile in diff.at_risk[0].meanwhile


def test_replace_on_changes_of_the_new_plan_turns_an_update_into_a_replacement() -> None:
    before = node_group(options={"replaceOnChanges": ["labels"]})
    after = node_group(options={"replaceOnChanges": ["labels"]}, labels={"gpuready.io/pool": "l5"})
    assert diff_plans(plan(before), plan(after)).changes[0].action == "replace"


def test_a_removed_pool_is_deleted_after_what_runs_on_it() -> None:
    diff = diff_plans(plan(pool(), node_group(), release()), plan())
    assert {c.urn: c.action for c in diff.changes} == {POOL: "delete", NODE_GROUP: "delete", RELEASE: "delete"}
    (risk,) = diff.at_risk
    assert (risk.action, risk.gpus_before, risk.gpus_after) == ("delete", 16, 0)
    assert diff.delete_order == (RELEASE, NODE_GROUP, POOL)  # the release depends on the group; children first


def test_kubernetes_objects_replace_on_a_new_name_and_update_otherwise() -> None:
    before = plan(release(**{"driver": {"enabled": False}}))
    renamed = release(**{"driver": {"enabled": False}})
    renamed["inputs"]["name"] = "gpu-operator-2"
    assert diff_plans(before, plan(release(**{"driver": {"enabled": True}}))).changes[0].action == "update"
    assert diff_plans(before, plan(renamed)).changes[0].action == "replace"
    assert diff_plans(before, plan(renamed)).at_risk == ()  # not a GPU pool


def test_types_without_facts_are_updates_and_creates_are_listed() -> None:
    queue = {"type": "aws:sqs/queue:Queue", "name": "jobs", "urn": QUEUE, "parent": STACK, "inputs": {"x": 1}}
    diff = diff_plans(plan(queue), plan({**queue, "inputs": {"x": 2}}, pool()))
    assert [(c.urn, c.action) for c in diff.changes] == [(QUEUE, "update"), (POOL, "create")]  # sorted by URN


@pytest.mark.parametrize(
    ("old", "new", "paths"),
    [
        ({"a": 1}, {"a": 1}, []),
        ({"a": {"b": 1, "c": 2}}, {"a": {"b": 1, "c": 3, "d": 4}}, ["a.c", "a.d"]),
        ({"t": [{"k": "a"}, {"k": "b"}]}, {"t": [{"k": "a"}, {"k": "c"}]}, ["t[1].k"]),
        ({"t": [{"k": "a"}]}, {"t": [{"k": "a"}, {"k": "b"}]}, ["t"]),
        ({"l": ["x", "y"]}, {"l": ["y", "x"]}, ["l"]),
    ],
)
def test_changed_paths(old: dict[str, Any], new: dict[str, Any], paths: list[str]) -> None:
    assert list(changed_paths(old, new)) == paths


def test_delete_order_with_nothing_deleted_is_empty() -> None:
    assert delete_order({}, set()) == ()


@pytest.mark.parametrize("document", [{}, {"resources": "x"}, {"resources": [{"type": "t"}]}, []])
def test_anything_but_a_plan_is_refused_with_the_way_to_make_one(document: Any) -> None:
    with pytest.raises(PlanFormatError, match="gpuready"):
        diff_plans(document, plan())
