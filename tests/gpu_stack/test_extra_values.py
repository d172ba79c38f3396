"""``gpuStack.values`` and ``gpuStack.monitoring`` on the objects the real chart renders, through the plan and the
Python components: a private registry and ``imagePullSecrets`` reach the pods, ``monitoring`` switches the DCGM
exporter's ServiceMonitor, and every path gpuready decides (``owned_values``) is refused with its owner."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from gpuready.core.clouds.registry import cloud_profile
from gpuready.core.gpu_stack import chart_facts, owned_values
from gpuready.core.gpu_stack.kinds import STACK_CHARTS
from gpuready.core.gpu_stack.stack_plan import GpuStackPlan, plan_gpu_stack
from gpuready.core.gpu_stack.stack_spec import GpuStackSpec
from gpuready.core.specs import GpuPoolSpec
from gpuready.errors import SpecError
from gpuready.gpu_stack.device_plugin import NvidiaDevicePlugin, NvidiaDevicePluginArgs
from tests.gpu_stack import rendered_checks as checks
from tests.gpu_stack.conftest import RELEASE
from tests.gpu_stack.stack_scenarios import AKS_SPOT, AKS_TS, EKS_MIG_CUSTOM, EKS_TS, GKE_OPERATOR_TS, SCENARIOS
from tests.gpu_stack.test_gpu_operator import build
from tests.helm_render import Rendered, pod_specs, render_release
from tests.pulumi_mocks import CapturingMonitor, runtime_test

REGISTRY = "registry.example.com/nvidia"
PULL_SECRET = "regcred"
OPERATOR_PRIVATE = {
    "operator": {"repository": REGISTRY, "imagePullSecrets": [PULL_SECRET]},
    "validator": {"repository": REGISTRY, "imagePullSecrets": [PULL_SECRET]},
    "driver": {"repository": REGISTRY, "imagePullSecrets": [PULL_SECRET]},
    "devicePlugin": {"repository": REGISTRY, "imagePullSecrets": [PULL_SECRET]},
    "dcgmExporter": {"repository": REGISTRY},
    "node-feature-discovery": {"image": {"repository": f"{REGISTRY}/node-feature-discovery"}},
}
PLUGIN_PRIVATE = {
    "image": {"repository": f"{REGISTRY}/k8s-device-plugin"},
    "imagePullSecrets": [{"name": PULL_SECRET}],
    "nfd": {"image": {"repository": f"{REGISTRY}/node-feature-discovery"}},
}


def _plan(cloud: str, pools: Sequence[GpuPoolSpec], kind: str, **spec: Any) -> GpuStackPlan:
    return plan_gpu_stack(cloud_profile(cloud), pools, GpuStackSpec(kind=kind, **spec))


def _render(plan: GpuStackPlan) -> Rendered:
    assert plan.release is not None
    return render_release(plan.release)


def _all_checks(rendered: Rendered, plan: GpuStackPlan, pools: Sequence[GpuPoolSpec]) -> list[str]:
    assert plan.release is not None
    return [
        *checks.nfd_problems(rendered, plan, pools),
        *checks.toleration_problems(rendered, plan, pools),
        *checks.crd_validation_problems(rendered, plan.release.chart.name, plan.release.chart.version),
        *checks.config_map_problems(rendered, plan, pools),
        *checks.core_schema_problems(rendered),
    ]


def test_a_private_registry_reaches_the_operator_and_its_operands() -> None:
    pools = (EKS_TS, EKS_MIG_CUSTOM)
    plan = _plan("eks", pools, "gpu-operator", values=OPERATOR_PRIVATE)
    rendered = _render(plan)
    assert _all_checks(rendered, plan, pools) == []
    (operator,) = [d for d in rendered.of_kind("Deployment") if d["metadata"]["name"] == "gpu-operator"]
    pod = operator["spec"]["template"]["spec"]
    assert pod["containers"][0]["image"].startswith(REGISTRY + "/gpu-operator:")
    assert {"name": PULL_SECRET} in pod["imagePullSecrets"]
    policy = rendered.one("ClusterPolicy")["spec"]
    for operand in ("validator", "driver", "devicePlugin"):
        assert policy[operand]["repository"] == REGISTRY, operand
        assert policy[operand]["imagePullSecrets"] == [PULL_SECRET], operand
    assert policy["dcgmExporter"]["repository"] == REGISTRY
    # What gpuready decides is still there, merged beside the user's keys.
    assert policy["driver"]["enabled"] is False
    assert policy["devicePlugin"]["config"]["name"].startswith("gpuready-device-plugin-config-")
    (nfd,) = [d for d in rendered.of_kind("DaemonSet") if d["metadata"]["name"].endswith(checks.NFD_WORKER)]
    assert nfd["spec"]["template"]["spec"]["containers"][0]["image"].startswith(f"{REGISTRY}/node-feature-discovery")


def test_a_private_registry_reaches_every_device_plugin_daemonset() -> None:
    pools = (AKS_TS, AKS_SPOT)
    plan = _plan("aks", pools, "device-plugin", values=PLUGIN_PRIVATE)
    rendered = _render(plan)
    assert _all_checks(rendered, plan, pools) == []
    pods = {w["metadata"]["name"]: s for w, s in pod_specs(rendered.objects)}
    plugin_pods = {name: spec for name, spec in pods.items() if "node-feature-discovery" not in name}
    assert len(plugin_pods) >= 3  # plugin, GFD, MPS control daemon
    for name, spec in plugin_pods.items():
        images = {c["image"] for c in [*spec["containers"], *(spec.get("initContainers") or [])]}
        assert all(i.startswith(f"{REGISTRY}/k8s-device-plugin:") for i in images), name
        assert spec["imagePullSecrets"] == [{"name": PULL_SECRET}], name
    nfd_images = {c["image"] for n, s in pods.items() if "node-feature-discovery" in n for c in s["containers"]}
    assert nfd_images and all(i.startswith(f"{REGISTRY}/node-feature-discovery:") for i in nfd_images)


@pytest.mark.parametrize(("monitoring", "enabled"), [(True, True), (False, False), (None, True)])
def test_monitoring_switches_the_dcgm_exporters_service_monitor(monitoring: bool | None, enabled: bool) -> None:
    """The operator creates the ServiceMonitor from ``ClusterPolicy.spec.dcgmExporter.serviceMonitor``; unset keeps
    the chart's default (on in v26.7.0)."""
    plan = _plan("eks", (EKS_TS,), "gpu-operator", monitoring=monitoring)
    policy = _render(plan).one("ClusterPolicy")["spec"]
    assert policy["dcgmExporter"]["serviceMonitor"]["enabled"] is enabled
    assert policy["dcgmExporter"]["enabled"] is True
    default = chart_facts.chart_values("gpu-operator", "v26.7.0").tree["dcgmExporter"]["serviceMonitor"]["enabled"]
    assert default is True


@pytest.mark.parametrize(
    ("cloud", "pools", "values", "owned"),
    [
        # AKS with its own driver: gpuready sets the operator's runtime class (the cloud profile decides it).
        ("aks", (AKS_TS,), {"operator": {"runtimeClass": "nvidia"}}, "operator.runtimeClass"),
        # GKE with the operator's driver: gpuready sets the toolkit's env (a list: a user's would replace it).
        ("gke", (GKE_OPERATOR_TS,), {"toolkit": {"env": [{"name": "A", "value": "b"}]}}, "toolkit.env"),
        ("eks", (EKS_TS,), {"driver": {"upgradePolicy": {"autoUpgrade": False}}}, "driver.upgradePolicy"),
    ],
)
def test_paths_gpuready_sets_for_these_pools_are_refused_at_plan(
    cloud: str, pools: tuple[GpuPoolSpec, ...], values: Mapping[str, Any], owned: str
) -> None:
    with pytest.raises(SpecError) as raised:
        _plan(cloud, pools, "gpu-operator", values=values)
    (problem,) = raised.value.problems
    assert problem.path.startswith("gpuStack.values." + owned)
    assert f"gpuready decides {owned!r}" in problem.problem


def test_the_same_path_is_the_users_where_gpuready_leaves_it() -> None:
    """EKS's image brings its own runtime: gpuready sets no runtime class, so a user may."""
    plan = _plan("eks", (EKS_TS,), "gpu-operator", values={"operator": {"runtimeClass": "nvidia-cdi"}})
    assert plan.release is not None
    assert plan.release.values["operator"] == {"upgradeCRD": True, "runtimeClass": "nvidia-cdi"}
    assert _render(plan).one("ClusterPolicy")["spec"]["operator"]["runtimeClass"] == "nvidia-cdi"


def test_every_value_gpuready_sets_has_an_owner() -> None:
    """The owned table names the owner of each leaf the builders set, over every planned scenario."""
    unowned = {
        (s.kind, path)
        for s in SCENARIOS
        for path, _ in owned_values.leaves(s.plan().release.values)  # type: ignore[union-attr]
        if owned_values.owner_of(STACK_CHARTS[s.kind], path) is None
    }
    assert unowned == set()


@pytest.mark.parametrize("kind", sorted(k for k in STACK_CHARTS if k != "dra-driver"))  # its `namespace` is no values
# key: the DRA chart's templates refuse that legacy value (owned so that gpuStack.values cannot set it)
def test_every_owned_path_is_a_key_of_the_chart(kind: str) -> None:
    chart = STACK_CHARTS[kind]
    known = chart_facts.chart_values(chart.name, chart.version)
    inert = chart.inert[0]
    for path in [*(entry.path for entry in chart.owned), *inert]:
        node: Any = known.tree
        for part in path.split("."):
            assert part in node or path in known.conditions, (kind, path)
            node = node.get(part, {}) if isinstance(node, Mapping) else {}


def test_the_python_component_takes_values_and_monitoring(mocked: CapturingMonitor) -> None:
    build((EKS_TS,), values={"operator": {"repository": REGISTRY}}, monitoring=False)
    values = mocked.one(RELEASE).inputs["values"]
    assert values["operator"] == {"upgradeCRD": True, "repository": REGISTRY}
    assert values["dcgmExporter"] == {"serviceMonitor": {"enabled": False}}


def test_the_device_plugin_component_refuses_monitoring(mocked: CapturingMonitor) -> None:
    @runtime_test
    def program() -> None:
        NvidiaDevicePlugin("plugin", NvidiaDevicePluginArgs(pools=[EKS_TS], monitoring=True))

    with pytest.raises(SpecError) as raised:
        program()
    assert [p.path for p in raised.value.problems] == ["gpuStack.monitoring"]
    assert mocked.of_type(RELEASE) == []
