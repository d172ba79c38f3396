"""The GPU Operator's GPUCluster release gpuready plans (``gpuStack`` kind ``gpu-operator-dra``, experimental),
rendered by real Helm from the pinned chart ``gpu-operator`` v26.7.0, in table-driven variations.

The chart's own validations need the cluster to serve a DeviceClass API (``templates/validations.yaml`` L25-29),
which offline rendering states as ``--api-versions`` (``Chart.cluster_apis``). On each variation: the validations
pass; one GPUCluster ``gpu-cluster`` and no ClusterPolicy or NVIDIADriver; the GPUCluster is valid against the
chart's own CRD, tolerates every pool taint, and keeps ComputeDomains off; the NFD worker runs on the DRA pools only
(the operator puts the DRA plugin on every node NFD shows a GPU on); every built-in object is strictly valid
Kubernetes 1.34.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest
from helm_python import HelmError

from gpuready.core.clouds.registry import Cloud, cloud_profile
from gpuready.core.gpu_stack.kinds.gpu_operator_dra import GPU_CLUSTER_NAME
from gpuready.core.gpu_stack.stack_plan import GpuStackPlan, plan_gpu_stack
from gpuready.core.gpu_stack.stack_spec import GpuStackSpec
from gpuready.core.specs import GpuPoolSpec
from tests.gpu_stack import rendered_checks as checks
from tests.gpu_stack.dra_pools import DRA_POOL_SETS, dra_pool
from tests.helm_render import Rendered, render, render_release

POOL_SETS: Mapping[str, tuple[Cloud, tuple[GpuPoolSpec, ...]]] = {
    **DRA_POOL_SETS,
    "eks-karpenter": ("eks", (dra_pool("l4", "eks", "g6.12xlarge", provisioner="karpenter"),)),
}
SPEC_VARIANTS: Mapping[str, Mapping[str, Any]] = {
    "defaults": {},
    "monitoring-on": {"monitoring": True},
    "monitoring-off": {"monitoring": False},
    "existing-nfd": {"nfd": "existing"},
    "custom-release": {"namespace": "gpu-dra", "release_name": "gpu-dra", "cluster_version": "v1.35.1-eks-1a2b3c"},
    "extra-values": {
        "values": {"draDriver": {"featureGates": {"NVMLDeviceHealthCheck": True}}, "dcgm": {"enabled": True}}
    },
}
CASES = [(s, v) for s in POOL_SETS for v in SPEC_VARIANTS]


def _plan(set_id: str, variant: str) -> tuple[GpuStackPlan, tuple[GpuPoolSpec, ...]]:
    cloud, pools = POOL_SETS[set_id]
    spec = GpuStackSpec(kind="gpu-operator-dra", **{"cluster_version": "1.34", **SPEC_VARIANTS[variant]})
    return plan_gpu_stack(cloud_profile(cloud), pools, spec), pools


def _rendered(plan: GpuStackPlan) -> Rendered:
    assert plan.release is not None
    return render_release(plan.release)


@pytest.mark.parametrize(("set_id", "variant"), CASES, ids=[f"{s}/{v}" for s, v in CASES])
def test_the_rendered_gpu_cluster_release_holds(set_id: str, variant: str) -> None:
    plan, pools = _plan(set_id, variant)
    assert plan.release is not None
    rendered = _rendered(plan)  # raises when one of the chart's own validations fails
    problems = [
        *checks.dra_placement_problems(rendered, plan, pools),
        *checks.toleration_problems(rendered, plan, pools),
        *checks.crd_validation_problems(rendered, plan.release.chart.name, plan.release.version),
        *checks.core_schema_problems(rendered, checks.DRA_KUBE),
        *checks.nfd_problems(rendered, plan, pools),
        *checks.config_map_problems(rendered, plan, pools),
    ]
    assert problems == []
    cluster = rendered.one("GPUCluster")
    assert cluster["metadata"]["name"] == GPU_CLUSTER_NAME  # the CRD's CEL rule: a singleton of this name
    assert cluster["spec"]["draDriver"]["computeDomains"]["enabled"] is False
    assert rendered.of_kind("ClusterPolicy") == rendered.of_kind("NVIDIADriver") == []
    monitoring = SPEC_VARIANTS[variant].get("monitoring")
    monitor = cluster["spec"]["dcgmExporter"].get("serviceMonitor", {}).get("enabled")
    assert monitor is (True if monitoring is None else monitoring)  # the chart's default is on (L326-327)


@pytest.mark.parametrize("variant", ["defaults", "monitoring-on"])
def test_the_released_values_are_those_rendered(variant: str) -> None:
    """What gpuready decides reaches the GPUCluster: the pools' tolerations."""
    plan, _ = _plan("eks-two-tainted", variant)
    assert plan.release is not None
    spec = _rendered(plan).one("GPUCluster")["spec"]
    assert spec["daemonsets"]["tolerations"] == plan.release.values["daemonsets"]["tolerations"]
    assert {t["key"] for t in spec["daemonsets"]["tolerations"]} == {"nvidia.com/gpu", "team"}


# --- negative controls: the chart's own validations and the checks find what they are for -------------------------


def _render_with(
    plan: GpuStackPlan, values: Mapping[str, Any], *, api_versions: tuple[str, ...] | None = None
) -> Rendered:
    release = plan.release
    assert release is not None
    return render(
        release.chart.name,
        release.chart.version,
        {**release.values, **values},
        name=release.name,
        namespace=release.namespace,
        api_versions=release.chart.cluster_apis if api_versions is None else api_versions,
    )


def test_without_the_dra_api_the_chart_refuses() -> None:
    plan, _ = _plan("eks-one", "defaults")
    with pytest.raises(HelmError, match="requires a Kubernetes cluster that supports Dynamic Resource Allocation"):
        _render_with(plan, {}, api_versions=())


def test_with_the_cluster_policy_too_the_chart_refuses() -> None:
    plan, _ = _plan("eks-one", "defaults")
    with pytest.raises(HelmError, match="cannot both be true"):
        _render_with(plan, {"clusterPolicy": {"deployCR": True}})


def test_an_operator_driver_needs_the_nvidia_driver_crd() -> None:
    plan, _ = _plan("eks-one", "defaults")
    with pytest.raises(HelmError, match="NVIDIADriver CRD must be enabled"):
        _render_with(plan, {"driver": {"enabled": True}})


def test_nfd_on_every_gpu_pool_is_found_to_invite_the_dra_plugin_onto_device_plugin_pools() -> None:
    plan, pools = _plan("eks-two-tainted", "defaults")
    wide: dict[str, Any] = {
        "worker": {"nodeSelector": {"gpuready.io/gpu-pool": "true"}, "tolerations": [{"operator": "Exists"}]}
    }
    rendered = _render_with(plan, {"node-feature-discovery": wide})
    problems = checks.dra_placement_problems(rendered, plan, pools)
    assert len(problems) == len(pools) and all("as a device-plugin pool" in p for p in problems)


def test_untolerated_taints_are_found() -> None:
    plan, pools = _plan("eks-two-tainted", "defaults")
    rendered = _render_with(plan, {"daemonsets": {"tolerations": []}})
    assert len(checks.toleration_problems(rendered, plan, pools)) == 3  # l4's GPU taint, a10g's GPU and team taints


def test_a_bad_gpu_cluster_is_found_by_its_crd() -> None:
    plan, _ = _plan("eks-one", "defaults")
    assert plan.release is not None
    rendered = _render_with(
        plan, {"draDriver": {"computeDomains": {"enabled": 3}, "gpus": {"kubeletPlugin": {"x": 1}}}}
    )
    problems = checks.crd_validation_problems(rendered, plan.release.chart.name, plan.release.version)
    assert any("computeDomains.enabled" in p for p in problems)
    assert any("kubeletPlugin.x: unknown field" in p for p in problems)
