"""The public bad-input corpus (tests/core/bad_inputs.yaml) through the REAL stack program, offline.

Each case's pool list replaces ``gpuready:nodePools`` of the example stack of its cloud, the program under
``stacks/`` runs under the mock runtime, and it must fail with the corpus' path and message before it
registers a single resource ("every pool is validated before the first resource is registered").
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import pulumi
import pytest
import yaml

from gpuready.errors import ConfigError
from gpuready.offline.capture import STACK_TYPE
from tests.stacks.program_runs import (
    ROOT,
    RecordingMonitor,
    assert_nothing_registered,
    config_bag,
    config_error_of,
    run_stack,
)

CORPUS = ROOT / "tests" / "core" / "bad_inputs.yaml"
CASES: list[dict[str, Any]] = yaml.safe_load(CORPUS.read_text(encoding="utf-8"))["cases"]
ASG_TAG = "aws:autoscaling/tag:Tag"
COMPONENT_TYPES = {
    "eks": "gpuready:index:EksGpuNodePool",
    "aks": "gpuready:index:AksGpuNodePool",
    "gke": "gpuready:index:GkeGpuNodePool",
}
CHILD_TYPES = {
    "eks": "aws:eks/nodeGroup:NodeGroup",
    "aks": "azure-native:containerservice:AgentPool",
    "gke": "gcp:container/nodePool:NodePool",
}


def assert_refused_before_registering(
    monitors: list[RecordingMonitor], stack: str, config: Mapping[str, str], path: str, message: str
) -> ConfigError:
    """Run the program; it must raise a RunError caused by a ConfigError with the problem, and register nothing."""
    with pytest.raises(pulumi.RunError) as info:
        run_stack(stack, config)
    error = config_error_of(info.value)
    assert error is not None, f"no ConfigError in the __cause__ chain of {info.value!r}"
    assert any(path in p.path and message in str(p) for p in error.problems), "\n".join(map(str, error.problems))
    assert str(info.value).startswith("invalid gpuready config:\n")
    assert message in str(info.value)

    assert_nothing_registered(monitors, stack)
    return error


def test_the_corpus_covers_every_cloud() -> None:
    assert {case["cloud"] for case in CASES} == {"eks", "aks", "gke"}
    assert len(CASES) >= 45


@pytest.mark.parametrize("case", CASES, ids=[case["id"] for case in CASES])
def test_corpus_case_is_refused_by_the_stack_program(monitors: list[RecordingMonitor], case: dict[str, Any]) -> None:
    stack = f"{case['cloud']}-dev"
    config = config_bag(stack, [f"gpuready:nodePools={json.dumps(case['pools'])}"])
    path, message = case["expect"]
    error = assert_refused_before_registering(monitors, stack, config, path, message)
    # Problem paths are rooted at the stack config key.
    assert all(p.path.startswith("gpuready:") for p in error.problems)


# --- stack-level bad inputs (not pool lists), through the same program ----------------------------------------------

STACK_LEVEL_CASES: dict[str, tuple[str, dict[str, str], str, str]] = {
    # id: (stack, replaced config values, expected path substring, expected message substring)
    "unknown-cloud": ("eks-dev", {"gpuready:cloud": "gcp"}, "gpuready:cloud", "unknown cloud; got 'gcp'"),
    "empty-cluster-name": ("aks-dev", {"gpuready:clusterName": ""}, "gpuready:clusterName", "is required"),
    "eks-without-subnets": (
        "eks-dev",
        {"gpuready:eksSubnetIds": "[]"},
        "gpuready:eksSubnetIds",
        "is required when gpuready:cloud is eks",
    ),
    "aks-without-resource-group": (
        "aks-dev",
        {"gpuready:aksResourceGroup": ""},
        "gpuready:aksResourceGroup",
        "is required when gpuready:cloud is aks",
    ),
    "gke-without-location": (
        "gke-dev",
        {"gpuready:gkeLocation": ""},
        "gpuready:gkeLocation",
        "is required when gpuready:cloud is gke",
    ),
    "tag-without-equals": ("eks-dev", {"gpuready:tags": '["team"]'}, "gpuready:tags[0]", "must look like key=value"),
    "node-pools-not-yaml": ("gke-dev", {"gpuready:nodePools": "- [l4"}, "gpuready:nodePools", "is not valid YAML"),
    "node-pools-a-mapping": (
        "gke-dev",
        {"gpuready:nodePools": "name: l4"},
        "gpuready:nodePools",
        "must be a non-empty list",
    ),
}


@pytest.mark.parametrize("case", list(STACK_LEVEL_CASES), ids=list(STACK_LEVEL_CASES))
def test_stack_level_bad_input_is_refused_by_the_stack_program(monitors: list[RecordingMonitor], case: str) -> None:
    stack, replaced, path, message = STACK_LEVEL_CASES[case]
    config = {**config_bag(stack), **replaced}
    assert_refused_before_registering(monitors, stack, config, path, message)


def test_gke_tags_that_are_not_valid_gce_labels_are_refused(monitors: list[RecordingMonitor]) -> None:
    config = {**config_bag("gke-dev"), "gpuready:tags": json.dumps(["team=ML Platform"])}
    assert_refused_before_registering(monitors, "gke-dev", config, "gpuready:tags[0]", "ML Platform")


# --- positive control ------------------------------------------------------------------------------------------------

VALID_POOLS: dict[str, list[dict[str, Any]]] = {
    "eks": [
        {"name": "l4", "instanceType": "g6.xlarge", "minSize": 0, "maxSize": 2},
        {"name": "a100", "instanceType": "p4d.24xlarge", "minSize": 0, "maxSize": 1,
         "sharing": {"mode": "mig", "profile": "1g.5gb"}},
    ],
    "aks": [
        {"name": "t4", "instanceType": "Standard_NC4as_T4_v3", "minSize": 0, "maxSize": 2,
         "sharing": {"mode": "time-slicing", "replicas": 2}},
        {"name": "a100", "instanceType": "Standard_NC24ads_A100_v4", "minSize": 0, "maxSize": 1,
         "sharing": {"mode": "mig", "profile": "1g.10gb"}},
    ],
    "gke": [
        {"name": "l4", "instanceType": "g2-standard-4", "minSize": 0, "maxSize": 2,
         "sharing": {"mode": "mps", "replicas": 4}},
        {"name": "a100", "instanceType": "a2-highgpu-1g", "minSize": 0, "maxSize": 1,
         "sharing": {"mode": "mig", "profile": "1g.5gb"}},
    ],
}  # fmt: skip


@pytest.mark.parametrize("cloud", ["eks", "aks", "gke"])
def test_a_valid_pool_list_registers_a_component_and_one_child_per_pool(
    monitors: list[RecordingMonitor], cloud: str
) -> None:
    stack = f"{cloud}-dev"
    pools = VALID_POOLS[cloud]
    # ``external`` and no scheduler: no chart release, so the run holds exactly the pools (GKE's own stack needs
    # no release either).
    overrides = [f"gpuready:nodePools={json.dumps(pools)}", "gpuready:binpackScheduler="]
    overrides += ["gpuready:gpuStack=external"] if cloud != "gke" else []
    run = run_stack(stack, config_bag(stack, overrides))
    # EKS pools also tag their Auto Scaling groups for scale from zero (one Tag per label, taint and resource).
    tags = [r for r in run.resources if r.type == ASG_TAG]
    assert (len(tags) > 0) is (cloud == "eks")
    assert len(run.resources) == 2 * len(pools) + len(tags)
    assert len(monitors) == 1
    assert monitors[0].requested_types.count(STACK_TYPE) == 1
    assert len(monitors[0].requested_types) == 1 + 2 * len(pools) + len(tags)
    components = {r.name: r for r in run.resources if r.type == COMPONENT_TYPES[cloud]}
    children = [r for r in run.resources if r.type == CHILD_TYPES[cloud]]
    assert sorted(components) == sorted(p["name"] for p in pools)
    assert len(children) == len(pools)
    for component in components.values():
        assert component.custom is False
        assert component.parent == run.stack_urn
        assert [c for c in children if c.parent == component.urn] != []
    for child in children:
        assert child.custom is True
    assert {t.parent for t in tags} <= {c.urn for c in components.values()}
    assert set(run.outputs["pools"]) == {p["name"] for p in pools}
