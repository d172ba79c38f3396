"""Every Helm release gpuready plans, rendered by real Helm from the released chart archive (``tests.helm_render``).

Releases: each example stack's GPU stack (as ``gpuready plan`` parses the stack file), each example program's
release (as the golden plan pins it), and the table-driven plans of ``stack_scenarios`` (every cloud, both charts,
sharing, MPS, MIG single/mixed/named/custom, Bottlerocket, operator-owned drivers, taints, release variants).
On each: the chart's own validations pass (rendering raises otherwise); the NFD worker selects only GPU pools and
tolerates every pool taint; the DaemonSets (plugin chart) or ``ClusterPolicy.spec.daemonsets`` (operator chart)
tolerate every pool taint; a ClusterPolicy is valid against the chart's own CRD, with no field the apiserver
would prune; every config map named exists with its keys; built-in objects pass strict kubernetes-validate.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml

from gpuready.core.gpu_stack.kinds.gpu_operator_dra import GPU_OPERATOR_DRA, deploys_gpu_cluster
from gpuready.core.gpu_stack.stack_objects import ConfigMapObject
from gpuready.core.gpu_stack.stack_plan import GpuStackPlan
from gpuready.core.specs import GpuPoolSpec
from gpuready.core.stack_settings import parse_stack_settings
from tests.gpu_stack import rendered_checks as checks
from tests.gpu_stack.stack_scenarios import SCENARIOS
from tests.helm_render import Rendered, render, render_release

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "golden" / "data"
RELEASE_TYPE = "kubernetes:helm.sh/v3:Release"
CONFIG_MAP_TYPE = "kubernetes:core/v1:ConfigMap"


@dataclass(frozen=True)
class Case:
    id: str
    plan: GpuStackPlan
    pools: tuple[GpuPoolSpec, ...]

    def rendered(self) -> Rendered:
        release = self.plan.release
        assert release is not None
        return render_release(release, version=release.chart.version)  # an overridden version renders the pin


def _stack_settings(stack: Path) -> Mapping[str, object]:
    config = yaml.safe_load(stack.read_text(encoding="utf-8"))["config"]
    return {
        key.split(":", 1)[1]: value if isinstance(value, str) else json.dumps(value)
        for key, value in config.items()
        if key.startswith("gpuready:")
    }


def _example_stacks() -> Iterator[Case]:
    for stack in sorted((ROOT / "stacks").glob("Pulumi.*.yaml")):
        settings = parse_stack_settings(_stack_settings(stack))
        plan = settings.planned_gpu_stack
        if plan.release is not None:
            yield Case(f"stack-{stack.stem.removeprefix('Pulumi.')}", plan, settings.pools)


STACK_CASES = list(_example_stacks())
SCENARIO_CASES = [Case(s.id, s.plan(), s.pool_set.pools) for s in SCENARIOS]
CASES = STACK_CASES + SCENARIO_CASES


def test_the_cases_cover_every_example_stack_with_a_chart_and_both_charts() -> None:
    assert {c.id for c in STACK_CASES} == {
        "stack-eks-dev", "stack-aks-dev", "stack-gke-operator", "stack-eks-karpenter",
        "stack-aks-nap", "stack-eks-dra", "stack-aks-dra-operator", "stack-aks-sku", "stack-aks-ib", "stack-eks-efa",
        "stack-eks-capacity",
    }  # fmt: skip
    assert {c.plan.spec.kind for c in CASES} == {"gpu-operator", "device-plugin", "dra-driver", "gpu-operator-dra"}
    assert len(SCENARIO_CASES) >= 40


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_the_rendered_release_holds(case: Case) -> None:
    rendered = case.rendered()  # raises when one of the chart's own validations fails
    release = case.plan.release
    assert release is not None
    assert rendered.objects
    problems = [
        *checks.nfd_problems(rendered, case.plan, case.pools),
        *checks.toleration_problems(rendered, case.plan, case.pools),
        *checks.crd_validation_problems(rendered, release.chart.name, release.chart.version),
        *checks.config_map_problems(rendered, case.plan, case.pools),
        *checks.core_schema_problems(rendered, checks.kube_version_of(case.plan)),
        *checks.dra_placement_problems(rendered, case.plan, case.pools),
    ]
    assert problems == []
    if case.plan.spec.kind == "gpu-operator":
        assert len(rendered.of_kind("ClusterPolicy")) == 1
    # The config maps gpuready creates beside the release are all named by it (none is left unused).
    named = json.dumps([o for o in rendered.objects if o.get("kind") in ("ClusterPolicy", "DaemonSet")])
    assert [o.name for o in case.plan.objects if isinstance(o, ConfigMapObject) and o.name not in named] == []


# --- example programs: the release exactly as the golden plan pins it ------------------------------------------------


def _golden_releases() -> Iterator[tuple[str, Mapping[str, Any], list[Mapping[str, Any]]]]:
    for path in sorted(GOLDEN.glob("plan-*.json")):
        resources = _resources(json.loads(path.read_text(encoding="utf-8")))
        releases = [r for r in resources if r.get("type") == RELEASE_TYPE and "createNamespace" in r["inputs"]]
        maps = [r["inputs"] for r in resources if r.get("type") == CONFIG_MAP_TYPE]
        for release in releases:
            yield path.stem, release["inputs"], maps


def _resources(document: Any) -> list[Mapping[str, Any]]:
    found: list[Mapping[str, Any]] = []
    if isinstance(document, Mapping):
        if "type" in document and "inputs" in document:
            found.append(document)
        for value in document.values():
            found.extend(_resources(value))
    elif isinstance(document, list):
        for value in document:
            found.extend(_resources(value))
    return found


GOLDEN_RELEASES = list(_golden_releases())


def test_every_golden_plan_with_a_gpuready_release_is_rendered() -> None:
    assert {name for name, _, _ in GOLDEN_RELEASES} == {
        "plan-eks-dev", "plan-aks-dev", "plan-gke-operator", "plan-training-job", "plan-eks-karpenter",
        "plan-aks-nap", "plan-eks-dra", "plan-aks-dra-operator", "plan-aks-sku", "plan-aks-ib", "plan-eks-efa",
        "plan-eks-capacity",
    }  # fmt: skip


@pytest.mark.parametrize(("name", "inputs", "maps"), GOLDEN_RELEASES, ids=[g[0] for g in GOLDEN_RELEASES])
def test_the_golden_release_renders_with_its_config_maps(
    name: str, inputs: Mapping[str, Any], maps: Sequence[Mapping[str, Any]]
) -> None:
    gpu_cluster = deploys_gpu_cluster(str(inputs["chart"]), inputs["values"])
    rendered = render(
        str(inputs["chart"]),
        str(inputs["version"]),
        inputs["values"],
        name=str(inputs["name"]),
        namespace=str(inputs["namespace"]),
        api_versions=GPU_OPERATOR_DRA.cluster_apis if gpu_cluster else (),  # the cluster it is planned for
    )
    available = {m["metadata"]["name"]: m["data"] for m in maps if m["metadata"]["namespace"] == inputs["namespace"]}
    available.update(rendered.config_maps())
    assert checks.crd_validation_problems(rendered, str(inputs["chart"]), str(inputs["version"])) == []
    assert len(rendered.of_kind("GPUCluster")) == int(gpu_cluster)
    for policy in rendered.of_kind("ClusterPolicy"):
        config = policy["spec"]["devicePlugin"].get("config") or {}
        if config.get("name"):
            assert config["default"] in available[config["name"]], name
    kube_version = checks.DRA_KUBE if inputs["chart"] == "dra-driver-nvidia-gpu" or gpu_cluster else checks.K8S
    assert checks.core_schema_problems(rendered, kube_version) == []


# --- negative controls: each check finds what it is for --------------------------------------------------------------


def _case(case_id: str) -> Case:
    (case,) = [c for c in CASES if c.id == case_id]
    return case


def _render_with(case: Case, **values: Any) -> Rendered:
    release = case.plan.release
    assert release is not None
    merged = {**release.values, **values}
    return render(release.chart.name, release.chart.version, merged, name=release.name, namespace=release.namespace)


OPERATOR_CASE = "stack-gke-operator"
PLUGIN_CASE = "stack-aks-dev"


def test_a_chart_validation_failure_raises() -> None:
    from helm_python import HelmError  # noqa: PLC0415

    case = _case(PLUGIN_CASE)
    with pytest.raises(HelmError, match=r"Only one of 'config.name' or 'config.map'"):
        _render_with(case, config={"name": "x", "map": {"a": "version: v1"}})


def test_an_nfd_worker_on_every_node_is_found() -> None:
    case = _case(OPERATOR_CASE)
    nfd: dict[str, Any] = {"worker": {"tolerations": [], "nodeSelector": {}}}
    problems = checks.nfd_problems(_render_with(case, **{"node-feature-discovery": nfd}), case.plan, case.pools)
    assert "NFD worker selects nodes of no GPU pool" in problems
    assert any("does not tolerate nvidia.com/gpu" in p for p in problems)


def test_missing_tolerations_are_found_for_both_charts() -> None:
    operator, plugin = _case(OPERATOR_CASE), _case(PLUGIN_CASE)
    found = checks.toleration_problems(
        _render_with(operator, daemonsets={"tolerations": []}), operator.plan, operator.pools
    )
    assert any(p.startswith("ClusterPolicy daemonsets does not tolerate nvidia.com/gpu") for p in found)
    found = checks.toleration_problems(_render_with(plugin, tolerations=[]), plugin.plan, plugin.pools)
    assert any("does not tolerate workload=batch:NoSchedule of pool 'h100spot'" in p for p in found)


def test_a_cluster_policy_against_the_crd() -> None:
    case = _case(OPERATOR_CASE)
    rendered = case.rendered()
    policy = rendered.one("ClusterPolicy")
    policy["spec"]["driver"]["enabledd"] = True
    policy["spec"]["daemonsets"]["tolerations"] = "all"
    problems = checks.crd_validation_problems(rendered, "gpu-operator", "v26.7.0")
    assert any("driver.enabledd: unknown field" in p for p in problems), problems
    assert any("daemonsets.tolerations" in p and "is not of type 'array'" in p for p in problems), problems


def test_a_missing_config_map_and_key_are_found() -> None:
    case = _case(OPERATOR_CASE)
    without = GpuStackPlan(
        spec=case.plan.spec, profile=case.plan.profile, pools=case.plan.pools, release=case.plan.release
    )
    problems = checks.config_map_problems(case.rendered(), without, case.pools)
    assert any("ClusterPolicy devicePlugin names config map 'gpuready-device-plugin-config-" in p for p in problems)
    assert any("ClusterPolicy migManager names config map 'gpuready-mig-parted-config-" in p for p in problems)
    release = case.plan.release
    assert release is not None
    config = {**release.values["devicePlugin"]["config"], "default": "no-such-config"}
    problems = checks.config_map_problems(_render_with(case, devicePlugin={"config": config}), case.plan, case.pools)
    assert any("has no key 'no-such-config'" in p for p in problems), problems


def test_a_pool_label_without_its_plugin_config_is_found() -> None:
    case = _case(PLUGIN_CASE)
    plan = GpuStackPlan(
        spec=case.plan.spec,
        profile=case.plan.profile,
        pools=case.plan.pools,
        release=case.plan.release,
        objects=tuple(
            ConfigMapObject(base_name=o.base_name, manifest={**o.manifest, "data": {"default": "version: v1"}})
            for o in case.plan.objects
            if isinstance(o, ConfigMapObject)
        ),
    )
    problems = checks.config_map_problems(case.rendered(), plan, case.pools)
    assert any("pool 't4shared': plugin config map" in p and "has no config 'time-slicing-x2'" in p for p in problems)


def test_an_unknown_field_in_a_built_in_object_is_found() -> None:
    rendered = _case(PLUGIN_CASE).rendered()
    daemonset = rendered.one("DaemonSet", "gpu-feature-discovery")
    daemonset["spec"]["template"]["spec"]["tolerationz"] = []
    assert any("tolerationz" in p for p in checks.core_schema_problems(rendered))


def test_the_dra_driver_chart_renders_through_the_same_helper() -> None:
    """The third pinned archive (the DRA driver chart's source, issue #15): with its defaults it fails its own
    rule that its GPU plugin never runs beside NVIDIA's device plugin (templates/validation.yaml); with the
    override its objects are valid Kubernetes 1.34 (``resource.k8s.io/v1`` DeviceClasses)."""
    from helm_python import HelmError  # noqa: PLC0415

    with pytest.raises(HelmError, match="cannot be deployed alongside the standard GPU device plugin"):
        render("dra-driver-nvidia-gpu", "0.4.0", {}, name="dra", namespace="nvidia-dra-driver-gpu")
    rendered = render(
        "dra-driver-nvidia-gpu", "0.4.0", {"gpuResourcesEnabledOverride": True}, name="dra", namespace="dra"
    )
    assert {o["metadata"]["name"] for o in rendered.of_kind("DeviceClass")} >= {"gpu.nvidia.com", "mig.nvidia.com"}
    assert checks.core_schema_problems(rendered, "1.34.0") == []
