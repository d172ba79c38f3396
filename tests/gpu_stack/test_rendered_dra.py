"""The DRA driver release gpuready plans (``gpuStack`` kind ``dra-driver``), rendered by real Helm from the pinned
chart ``dra-driver-nvidia-gpu`` 0.4.0, in table-driven variations.

On each: the chart's own validations pass (``gpuResourcesEnabledOverride`` is set, so its device-plugin rule is
answered, and the namespace rules hold); the kubelet-plugin DaemonSet selects exactly the stack's DRA pools and
tolerates each of their taints; the rendered DeviceClasses are ``gpu.nvidia.com`` / ``mig.nvidia.com`` (and the
chart's ``vfio.gpu.nvidia.com``), no ComputeDomain class; every built-in object is strictly valid Kubernetes 1.34
(``resource.k8s.io/v1``). The device-plugin chart gpuready plans keeps every DaemonSet off DRA pools.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from gpuready.core.clouds.registry import cloud_profile
from gpuready.core.gpu_stack.stack_plan import GpuStackPlan, plan_gpu_stack
from gpuready.core.gpu_stack.stack_spec import GpuStackSpec
from gpuready.core.specs import GpuPoolSpec
from tests.gpu_stack import rendered_checks as checks
from tests.gpu_stack.dra_pools import DRA_POOL_SETS
from tests.helm_render import Rendered, render, render_release

POOL_SETS = DRA_POOL_SETS
SPEC_VARIANTS: Mapping[str, Mapping[str, Any]] = {
    "defaults": {},
    "cluster-1.35-patch": {"cluster_version": "v1.35.2-eks-1a2b3c"},
    "custom-release": {"namespace": "dra", "release_name": "gpu-dra", "timeout_seconds": 1800},
    "extra-values": {"values": {"logVerbosity": "6", "kubeletPlugin": {"priorityClassName": "system-node-critical"}}},
}


def _plan(set_id: str, variant: str) -> tuple[GpuStackPlan, tuple[GpuPoolSpec, ...]]:
    cloud, pools = POOL_SETS[set_id]
    spec = GpuStackSpec(kind="dra-driver", **{"cluster_version": "1.34", **SPEC_VARIANTS[variant]})
    return plan_gpu_stack(cloud_profile(cloud), pools, spec), pools


CASES = [(s, v) for s in POOL_SETS for v in SPEC_VARIANTS]


def _rendered(plan: GpuStackPlan) -> Rendered:
    assert plan.release is not None
    return render_release(plan.release)


@pytest.mark.parametrize(("set_id", "variant"), CASES, ids=[f"{s}/{v}" for s, v in CASES])
def test_the_rendered_dra_release_holds(set_id: str, variant: str) -> None:
    plan, pools = _plan(set_id, variant)
    rendered = _rendered(plan)  # raises when one of the chart's own validations fails
    problems = [
        *checks.dra_placement_problems(rendered, plan, pools),
        *checks.toleration_problems(rendered, plan, pools),
        *checks.core_schema_problems(rendered, checks.DRA_KUBE),
        *checks.nfd_problems(rendered, plan, pools),
    ]
    assert problems == []
    classes = {o["metadata"]["name"] for o in rendered.of_kind("DeviceClass")}
    assert classes == {"gpu.nvidia.com", "mig.nvidia.com", "vfio.gpu.nvidia.com"}
    assert {o["apiVersion"] for o in rendered.of_kind("DeviceClass")} == {"resource.k8s.io/v1"}
    assert [o for o in rendered.objects if o.get("kind") == "Deployment"] == []  # no ComputeDomain controller
    assert plan.objects == ()


def test_dra_and_device_plugin_pools_keep_apart_in_one_cluster() -> None:
    """Two stacks of one cluster: a device-plugin release and a DRA release. Each DaemonSet of the one selects no
    node of the other's pools."""
    dra_plan, dra_pools = _plan("eks-two-tainted", "defaults")
    plugin_pools = tuple(checks.replace(p, advertise="device-plugin") for p in dra_pools)
    plugin_plan = plan_gpu_stack(cloud_profile("eks"), plugin_pools, GpuStackSpec(kind="device-plugin"))
    dra_daemonsets = _rendered(dra_plan).of_kind("DaemonSet")
    plugin_daemonsets = _rendered(plugin_plan).of_kind("DaemonSet")
    assert plugin_daemonsets and dra_daemonsets
    for pool in dra_pools:
        dra_node = checks.pool_labels(pool)
        plugin_node = checks.pool_labels(checks.replace(pool, advertise="device-plugin"))
        for daemonset in plugin_daemonsets:
            spec = daemonset["spec"]["template"]["spec"]
            nfd = daemonset["metadata"]["name"].endswith(checks.NFD_WORKER)
            assert checks.selects(spec, dra_node) is nfd, daemonset["metadata"]["name"]  # only NFD labels both
            if "mps-control-daemon" not in daemonset["metadata"]["name"]:  # that one waits for nvidia.com/mps.capable
                assert checks.selects(spec, plugin_node), daemonset["metadata"]["name"]
        (kubelet_plugin,) = dra_daemonsets
        assert checks.selects(kubelet_plugin["spec"]["template"]["spec"], dra_node)
        assert not checks.selects(kubelet_plugin["spec"]["template"]["spec"], plugin_node)


# --- negative controls: the checks find what they are for -------------------------------------------------------------


def _render_with(plan: GpuStackPlan, **values: Any) -> Rendered:
    release = plan.release
    assert release is not None
    merged = {**release.values, **values}
    return render(release.chart.name, release.chart.version, merged, name=release.name, namespace=release.namespace)


def test_without_the_override_the_chart_refuses() -> None:
    from helm_python import HelmError  # noqa: PLC0415

    plan, _ = _plan("eks-one", "defaults")
    with pytest.raises(HelmError, match="cannot be deployed alongside the standard GPU device plugin"):
        _render_with(plan, gpuResourcesEnabledOverride=False)


def test_the_charts_own_affinity_is_found_to_reach_device_plugin_pools() -> None:
    plan, pools = _plan("eks-two-tainted", "defaults")
    kubelet_plugin = {**plan.release.values["kubeletPlugin"], "affinity": {}}  # type: ignore[union-attr]
    problems = checks.dra_placement_problems(_render_with(plan, kubeletPlugin=kubelet_plugin), plan, pools)
    # Helm keeps the chart's NVIDIA-node terms under an empty map: every GPU node, device-plugin pools included.
    assert any("selects pool 'l4' as a device-plugin pool" in p for p in problems), problems


def test_a_device_plugin_without_the_dra_exclusion_is_found() -> None:
    pools = (checks.replace(POOL_SETS["eks-one"][1][0], advertise="device-plugin"),)
    plan = plan_gpu_stack(cloud_profile("eks"), pools, GpuStackSpec(kind="device-plugin"))
    problems = checks.dra_placement_problems(_render_with(plan, affinity={}), plan, pools)
    assert any("selects the nodes of pool 'h100' as a DRA pool" in p for p in problems), problems
    assert checks.dra_placement_problems(_rendered(plan), plan, pools) == []


def test_a_misspelt_device_class_field_fails_the_strict_1_34_schema() -> None:
    plan, _ = _plan("eks-one", "defaults")
    rendered = _rendered(plan)
    device_class = rendered.one("DeviceClass", "mig.nvidia.com")
    device_class["spec"]["selectors"][0]["cell"] = device_class["spec"]["selectors"][0].pop("cel")
    assert any("cell" in p for p in checks.core_schema_problems(rendered, checks.DRA_KUBE))
