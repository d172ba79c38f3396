"""The stack's conventions (``gpuready:conventions``) decide what gpuready's pools carry (issue #27): every example
stack with Microsoft's ``sku=gpu:NoSchedule`` taint has it on every pool (its taints, node-template labels and
taints, the scale-path model's node), tolerated by the workload helper, the GPU stack release and the health agent;
SkyPilot's label goes when ``skypilotLabels`` is off; no conventions change nothing."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import yaml

from gpuready.core import scheduling
from gpuready.core.capacity.registry import provisioner_for
from gpuready.core.conventions import DEFAULT, Conventions
from gpuready.core.health.agent import agent_values
from gpuready.core.scale_path import scheduler_fit
from gpuready.core.scale_path.shapes import new_node, pending_pod, shapes
from gpuready.core.scale_path.verdict import pool_verdict
from gpuready.core.stack_settings import StackSettings, parse_stack_settings
from gpuready.core.taints import Taint
from gpuready.core.workload import gpu_workload
from gpuready.errors import ConfigError, SpecError
from tests.core.conftest import build_spec
from tests.core.scale_path.test_example_stacks import scales_text

ROOT = Path(__file__).resolve().parents[2]
STACKS = sorted(p.name.removeprefix("Pulumi.").removesuffix(".yaml") for p in (ROOT / "stacks").glob("Pulumi.*.yaml"))
SKU = Taint(key="sku", value="gpu", effect="NoSchedule")
SKU_TOLERATION = {"key": "sku", "operator": "Exists", "effect": "NoSchedule"}
TEAM = "{gpuTaint: sku=gpu:NoSchedule, skypilotLabels: false}"


def settings(stack: str, conventions: str | None) -> StackSettings:
    config = yaml.safe_load((ROOT / "stacks" / f"Pulumi.{stack}.yaml").read_text("utf-8"))["config"]
    values = {k.split(":", 1)[1]: v for k, v in config.items() if k.startswith("gpuready:")}
    values.pop("conventions", None)  # None: the stack says no conventions
    if conventions is not None:
        values["conventions"] = conventions
    return parse_stack_settings({k: json.dumps(v) if isinstance(v, list) else v for k, v in values.items()})


def tolerations_in(values: Any) -> list[dict[str, Any]]:
    """Every toleration anywhere in chart values."""
    if isinstance(values, dict):
        found = [t for t in values.get("tolerations") or [] if isinstance(t, dict)]
        return found + [t for v in values.values() for t in tolerations_in(v)]
    if isinstance(values, list):
        return [t for v in values for t in tolerations_in(v)]
    return []


@pytest.mark.parametrize("stack", STACKS)
def test_every_pool_of_every_stack_carries_the_teams_conventions(stack: str) -> None:
    given = settings(stack, TEAM)
    assert given.conventions == Conventions(gpu_taint=SKU, skypilot_labels=False)
    for spec in given.pools:
        assert spec.conventions is given.conventions  # resolved once, carried by every pool
        taints = scheduling.pool_taints(spec)
        assert taints[0] == SKU and scheduling.GPU_TAINT not in taints
        assert scheduling.LABEL_SKYPILOT_ACCELERATOR not in scheduling.pool_labels(spec)
        assert scheduling.pool_labels(spec)[scheduling.LABEL_ACCELERATOR] == spec.resolved.gpu.model.key
        workload = gpu_workload(spec)
        assert SKU_TOLERATION in workload.tolerations
        # nvidia.com/gpu is tolerated only where the cloud adds it unasked (GKE, beside the team's taint)
        gke_adds = spec.cloud == "gke"
        assert any(t["key"] == scheduling.GPU_TAINT_KEY for t in workload.tolerations) == gke_adds
        assert pool_verdict(spec, given.cluster).text == scales_text(spec)
    release = given.planned_gpu_stack.release
    if release is not None:
        found = tolerations_in(dict(release.values))
        assert SKU_TOLERATION in found
        assert any(t.get("key") == scheduling.GPU_TAINT_KEY for t in found) == (given.cloud == "gke"), found


@pytest.mark.parametrize("stack", STACKS)
def test_no_conventions_are_gpureadys_own(stack: str) -> None:
    for spec in settings(stack, None).pools:
        assert spec.conventions == DEFAULT
        assert scheduling.pool_taints(spec)[0] == scheduling.GPU_TAINT
        assert scheduling.pool_labels(spec)[scheduling.LABEL_SKYPILOT_ACCELERATOR] == spec.resolved.gpu.model.skypilot


@pytest.mark.parametrize("cloud", ["eks", "aks", "gke"])
def test_the_scale_path_model_refuses_pods_that_tolerate_only_gpureadys_taint(cloud: str) -> None:
    spec = build_spec(cloud, conventions=Conventions(gpu_taint=SKU))
    node = new_node(spec, provisioner_for(spec).scale_decider)
    pod = pending_pod(spec, shapes(spec)[0])
    assert scheduler_fit.fit(pod, node).ok
    default_only = replace(pod, tolerations=(scheduling.toleration_for(scheduling.GPU_TAINT),))
    refused = scheduler_fit.fit(default_only, node)
    assert not refused.ok and "sku=gpu:NoSchedule is not tolerated" in refused.reason


@pytest.mark.parametrize(("cloud", "conventions", "implicit"), [
    ("gke", Conventions(gpu_taint=SKU), (scheduling.GPU_TAINT,)),  # GKE taints GPU nodes itself (how-to/gpus)
    ("gke", DEFAULT, ()),  # already declared
    ("eks", Conventions(gpu_taint=SKU), ()),
    ("aks", Conventions(gpu_taint=SKU), ()),
])  # fmt: skip
def test_taints_the_cloud_adds_unasked_are_tolerated_not_declared(
    cloud: str, conventions: Conventions, implicit: tuple[Taint, ...]
) -> None:
    spec = build_spec(cloud, conventions=conventions)
    assert scheduling.tolerated_taints(spec) == (*scheduling.pool_taints(spec), *implicit)
    assert not set(implicit) & set(scheduling.pool_taints(spec))  # never declared on the pool itself
    tolerated = gpu_workload(spec).tolerations
    assert all(scheduling.toleration_for(t) in tolerated for t in implicit)


@pytest.mark.parametrize(("dcgm_owner", "tolerated"), [("health-agent", True), ("gpu-operator", False)])
def test_the_health_agent_tolerates_the_teams_taint(dcgm_owner: str, tolerated: bool) -> None:
    values = agent_values([build_spec("eks", conventions=Conventions(gpu_taint=SKU))], dcgm_owner)
    assert (SKU_TOLERATION in tolerations_in(values)) == tolerated
    assert all(t.get("key") != scheduling.GPU_TAINT_KEY for t in tolerations_in(values))


@pytest.mark.parametrize(("conventions", "extra", "path", "message"), [
    # the team's key is gpuready's to set, like nvidia.com/gpu is by default
    (Conventions(gpu_taint=SKU), Taint("sku", "cpu", "NoSchedule"), "taints[0].key", "gpuready sets this taint"),
    (DEFAULT, Taint("nvidia.com/gpu", "x", "NoSchedule"), "taints[0].key", "gpuready sets this taint"),
    # EKS taint keys are at most 63 characters, the team's GPU taint too
    (Conventions(gpu_taint=Taint("example.com/" + "k" * 60, "gpu", "NoSchedule")), None,
     "conventions.gpuTaint.key", "at most 63"),
])  # fmt: skip
def test_pool_rules_hold_the_teams_taint(
    conventions: Conventions, extra: Taint | None, path: str, message: str
) -> None:
    with pytest.raises(SpecError) as raised:
        build_spec("eks", conventions=conventions, taints=(extra,) if extra else ())
    assert [(p.path, message in p.problem) for p in raised.value.problems] == [(path, True)]


def test_nvidia_taint_may_be_an_extra_taint_under_the_teams_convention() -> None:
    spec = build_spec("aks", conventions=Conventions(gpu_taint=SKU), taints=(scheduling.GPU_TAINT,))
    assert scheduling.pool_taints(spec)[:2] == (SKU, scheduling.GPU_TAINT)


def test_a_compute_class_refuses_a_team_taint_value_its_schema_refuses() -> None:
    pools = "- {name: l4, instanceType: g2-standard-8, provisioner: compute-class, maxSize: 2}"
    base = {"cloud": "gke", "clusterName": "c", "gkeLocation": "us-central1", "nodePools": pools}
    with pytest.raises(ConfigError) as raised:
        parse_stack_settings({**base, "conventions": "{gpuTaint: 'sku=ml:NoSchedule'}"})
    assert [p.path for p in raised.value.problems] == ["gpuready:nodePools[0].conventions.gpuTaint.value"]
    assert parse_stack_settings({**base, "conventions": "{gpuTaint: 'sku=gpu:NoSchedule'}"}).pools
