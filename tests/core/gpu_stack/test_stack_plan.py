"""The GPU stack plan: exact Helm values per scenario, the release, the objects beside it, and the refusals.

Expected values are written from the shared reference (nvidia.md sections 2, 3, 7, 9): GPU Operator v26.7.0
keys (``driver.enabled``, ``toolkit.enabled``, ``daemonsets.tolerations``, ``nfd.enabled``, the unaliased
``node-feature-discovery`` subchart key, ``devicePlugin.config``, ``mig.strategy``, ``migManager.*``,
``operator.runtimeClass``, ``toolkit.env``) and device-plugin 0.20.0 keys (``tolerations``, ``gfd.enabled``, the
``nfd`` alias, ``migStrategy``, ``config.name`` / ``config.default``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from gpuready.core.clouds.registry import Cloud, cloud_profile
from gpuready.core.gpu_stack.kinds.device_plugin import DEVICE_PLUGIN
from gpuready.core.gpu_stack.kinds.gpu_operator import GPU_OPERATOR
from gpuready.core.gpu_stack.stack_objects import ConfigMapObject, ResourceQuotaObject
from gpuready.core.gpu_stack.stack_plan import GpuStackPlan, plan_gpu_stack
from gpuready.core.gpu_stack.stack_spec import GpuStackSpec
from gpuready.core.specs import GpuPoolSpec, GpuSharing, MigPartitioning
from gpuready.core.taints import Taint
from gpuready.errors import SpecError

GPU_TOLERATION = {"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}
UPGRADE_CRD = {"upgradeCRD": True}
"""The chart applies its CRDs in a pre-upgrade hook (templates/upgrade_crd.yaml); gpuready asks for it explicitly."""
DRIVER_UPGRADE_POLICY = {
    "autoUpgrade": True,
    "maxParallelUpgrades": 1,
    "maxUnavailable": "1",
    "gpuPodDeletion": {"force": False, "timeoutSeconds": 300, "deleteEmptyDir": False},
    "drain": {"enable": False},
}
SPOT_TOLERATION = {"key": "kubernetes.azure.com/scalesetpriority", "operator": "Exists", "effect": "NoSchedule"}
CRITICAL_ADDONS_ONLY = {"key": "CriticalAddonsOnly", "operator": "Exists"}
GPU_POOL_SELECTOR = {"gpuready.io/gpu-pool": "true"}
WITH_REBOOT = [{"name": "WITH_REBOOT", "value": "true"}]

EKS_TS = GpuPoolSpec(
    cloud="eks", name="l4", instance_type="g6.xlarge", min_size=0, max_size=2,
    sharing=GpuSharing(mode="time-slicing", replicas=4),
    taints=(Taint(key="dedicated", value="ml", effect="NoExecute"), Taint(key="team", value="a")),
)  # fmt: skip
EKS_PLAIN = GpuPoolSpec(cloud="eks", name="plain", instance_type="g6.xlarge", min_size=0, max_size=2)
EKS_BOTTLEROCKET = GpuPoolSpec(
    cloud="eks", name="br", instance_type="g6.xlarge", min_size=0, max_size=2, image="bottlerocket"
)
EKS_MIG = GpuPoolSpec(
    cloud="eks", name="a100", instance_type="p4d.24xlarge", min_size=0, max_size=1,
    sharing=MigPartitioning(profile="1g.5gb", strategy="mixed"),
)  # fmt: skip
EKS_MIG_CUSTOM = GpuPoolSpec(
    cloud="eks", name="a100c", instance_type="p4d.24xlarge", min_size=0, max_size=1,
    sharing=MigPartitioning(layout={"3g.20gb": 1, "4g.20gb": 1}, strategy="mixed"),
)  # fmt: skip
EKS_MPS = GpuPoolSpec(
    cloud="eks", name="mps", instance_type="g6.xlarge", min_size=0, max_size=2,
    sharing=GpuSharing(mode="mps", replicas=2),
)  # fmt: skip
AKS_SPOT = GpuPoolSpec(
    cloud="aks", name="t4spot", instance_type="Standard_NC4as_T4_v3", min_size=0, max_size=2, capacity="spot",
    taints=(Taint(key="workload", value="batch", effect="NoExecute"),),
)  # fmt: skip
AKS_OPERATOR = GpuPoolSpec(
    cloud="aks", name="t4op", instance_type="Standard_NC4as_T4_v3", min_size=0, max_size=2, image="azurelinux",
    driver="operator",
)  # fmt: skip
AKS_MIG = GpuPoolSpec(
    cloud="aks", name="a100mig", instance_type="Standard_NC24ads_A100_v4", min_size=0, max_size=1,
    sharing=MigPartitioning(profile="1g.10gb", strategy="mixed"),
)  # fmt: skip
AKS_TS = GpuPoolSpec(
    cloud="aks", name="t4ts", instance_type="Standard_NC4as_T4_v3", min_size=0, max_size=2,
    sharing=GpuSharing(mode="time-slicing", replicas=2, rename_by_default=True),
)  # fmt: skip
GKE_OPERATOR = GpuPoolSpec(
    cloud="gke", name="l4op", instance_type="g2-standard-4", min_size=0, max_size=3, image="ubuntu", driver="operator"
)
GKE_CLOUD = GpuPoolSpec(cloud="gke", name="l4", instance_type="g2-standard-4", min_size=0, max_size=2)


def _plan(cloud: Cloud, pools: Sequence[GpuPoolSpec], **spec: Any) -> GpuStackPlan:
    return plan_gpu_stack(cloud_profile(cloud), pools, GpuStackSpec(**spec))


def _values(plan: GpuStackPlan) -> Mapping[str, Any]:
    assert plan.release is not None
    return plan.release.values


def _config_maps(plan: GpuStackPlan) -> dict[str, Mapping[str, Any]]:
    """Config maps by the base of their name (``gpuready-device-plugin-config`` / ``gpuready-mig-parted-config``)."""
    maps = [o for o in plan.objects if isinstance(o, ConfigMapObject)]
    assert all(o.manifest["kind"] == "ConfigMap" and o.name.rsplit("-", 1)[0] == o.base_name for o in maps)
    by_base = {o.base_name: o.manifest for o in maps}
    assert len(by_base) == len(maps)
    return by_base


def _name(plan: GpuStackPlan, base: str) -> str:
    return str(_config_maps(plan)[base]["metadata"]["name"])


# --- GPU Operator ----------------------------------------------------------------------------------------------------


def test_operator_on_eks_al2023_and_bottlerocket() -> None:
    plan = _plan("eks", [EKS_TS, EKS_BOTTLEROCKET], kind="gpu-operator")
    tolerations = [
        GPU_TOLERATION,
        {"key": "dedicated", "operator": "Exists", "effect": "NoExecute"},
        {"key": "team", "operator": "Exists", "effect": "NoSchedule"},
    ]
    assert _values(plan) == {
        "driver": {"enabled": False},
        "toolkit": {"enabled": False},
        "operator": UPGRADE_CRD,
        "daemonsets": {"tolerations": tolerations},
        "nfd": {"enabled": True},
        "node-feature-discovery": {"worker": {"nodeSelector": GPU_POOL_SELECTOR, "tolerations": tolerations}},
        "devicePlugin": {"config": {"name": _name(plan, "gpuready-device-plugin-config"), "default": "default"}},
        "migManager": {"enabled": False},
    }


def test_operator_mig_manager_pool_with_named_layout() -> None:
    plan = _plan("eks", [EKS_PLAIN, EKS_MIG], kind="gpu-operator")
    assert _values(plan) == {
        "driver": {"enabled": False},
        "toolkit": {"enabled": False},
        "operator": UPGRADE_CRD,
        "daemonsets": {"tolerations": [GPU_TOLERATION]},
        "nfd": {"enabled": True},
        "node-feature-discovery": {"worker": {"nodeSelector": GPU_POOL_SELECTOR, "tolerations": [GPU_TOLERATION]}},
        "mig": {"strategy": "mixed"},
        "migManager": {"enabled": True, "env": WITH_REBOOT},
    }
    assert plan.objects == ()  # the MIG manager's generated per-node config has all-1g.5gb


def test_operator_mig_without_reboot() -> None:
    plan = _plan("eks", [EKS_MIG], kind="gpu-operator", mig_reboot=False)
    assert _values(plan)["migManager"] == {"enabled": True}


def test_operator_mig_single_strategy_comes_from_the_pools() -> None:
    single = GpuPoolSpec(
        cloud="eks", name="a100s", instance_type="p4d.24xlarge", min_size=0, max_size=1,
        sharing=MigPartitioning(profile="3g.20gb", strategy="single"),
    )  # fmt: skip
    assert _values(_plan("eks", [single], kind="gpu-operator"))["mig"] == {"strategy": "single"}


def test_operator_custom_mig_layout_gets_its_config_map() -> None:
    plan = _plan("eks", [EKS_MIG_CUSTOM, EKS_TS], kind="gpu-operator")  # MPS never beside mixed (stack_rules)
    values = _values(plan)
    mig_map = _config_maps(plan)["gpuready-mig-parted-config"]
    assert values["migManager"] == {
        "enabled": True,
        "env": WITH_REBOOT,
        "config": {"name": mig_map["metadata"]["name"], "default": "all-disabled"},
    }
    assert set(mig_map["data"]) == {"config.yaml"}
    assert values["mig"] == {"strategy": "mixed"}
    assert values["devicePlugin"] == {
        "config": {"name": _name(plan, "gpuready-device-plugin-config"), "default": "default"}
    }


def test_operator_without_mig_pools_turns_the_mig_manager_off() -> None:
    values = _values(_plan("eks", [EKS_PLAIN], kind="gpu-operator"))
    assert values["migManager"] == {"enabled": False}
    assert "mig" not in values
    assert "devicePlugin" not in values


def test_operator_with_existing_nfd() -> None:
    values = _values(_plan("eks", [EKS_TS], kind="gpu-operator", nfd="existing"))
    assert values["nfd"] == {"enabled": False}
    assert "node-feature-discovery" not in values


def test_operator_on_aks_with_the_aks_driver() -> None:
    plan = _plan("aks", [AKS_SPOT], kind="gpu-operator")
    tolerations = [GPU_TOLERATION, SPOT_TOLERATION, {"key": "workload", "operator": "Exists", "effect": "NoExecute"}]
    assert _values(plan) == {
        "driver": {"enabled": False},
        "toolkit": {"enabled": False},
        "operator": {**UPGRADE_CRD, "runtimeClass": "nvidia-container-runtime"},
        "daemonsets": {"tolerations": tolerations},
        "nfd": {"enabled": True},
        "node-feature-discovery": {"worker": {"nodeSelector": GPU_POOL_SELECTOR, "tolerations": tolerations}},
        "migManager": {"enabled": False},
    }
    assert plan.objects == ()


def test_operator_on_aks_with_cloud_mig_sets_the_strategy_but_no_mig_manager() -> None:
    plan = _plan("aks", [AKS_MIG, AKS_SPOT], kind="gpu-operator")
    values = _values(plan)
    assert values["mig"] == {"strategy": "mixed"}  # AKS partitions (gpuInstanceProfile); NVIDIA's plugin advertises
    assert values["migManager"] == {"enabled": False}
    assert values["operator"] == {**UPGRADE_CRD, "runtimeClass": "nvidia-container-runtime"}
    assert plan.objects == ()


def test_operator_on_aks_installing_the_driver() -> None:
    values = _values(_plan("aks", [AKS_OPERATOR], kind="gpu-operator"))
    assert values["driver"] == {"enabled": True, "upgradePolicy": DRIVER_UPGRADE_POLICY}
    assert values["toolkit"] == {"enabled": True}
    assert values["operator"] == UPGRADE_CRD


def test_operator_on_gke_installing_the_driver() -> None:
    plan = _plan("gke", [GKE_OPERATOR], kind="gpu-operator")
    assert _values(plan) == {
        "driver": {"enabled": True, "upgradePolicy": DRIVER_UPGRADE_POLICY},
        "toolkit": {"enabled": True, "env": [{"name": "RUNTIME_CONFIG_SOURCE", "value": "file"}]},
        "operator": UPGRADE_CRD,
        "daemonsets": {"tolerations": [GPU_TOLERATION]},
        "nfd": {"enabled": True},
        "node-feature-discovery": {"worker": {"nodeSelector": GPU_POOL_SELECTOR, "tolerations": [GPU_TOLERATION]}},
        "migManager": {"enabled": False},
    }
    (quota_object,) = plan.objects
    assert isinstance(quota_object, ResourceQuotaObject)
    quota = quota_object.manifest
    assert quota["kind"] == "ResourceQuota"
    assert quota["metadata"]["namespace"] == "gpu-operator"
    assert quota["spec"]["scopeSelector"] == {
        "matchExpressions": [
            {
                "operator": "In",
                "scopeName": "PriorityClass",
                "values": ["system-node-critical", "system-cluster-critical"],
            }
        ]
    }
    assert int(quota["spec"]["hard"]["pods"]) >= 100


def _quota_pods(max_size: int) -> int:
    pool = GpuPoolSpec(
        cloud="gke", name="l4op", instance_type="g2-standard-4", min_size=0, max_size=max_size, image="ubuntu",
        driver="operator",
    )  # fmt: skip
    (quota,) = _plan("gke", [pool], kind="gpu-operator").objects
    return int(quota.manifest["spec"]["hard"]["pods"])


def test_gke_quota_grows_with_the_pools_maximum_size() -> None:
    sizes = [1, 10, 50, 200, 1000]
    pods = [_quota_pods(n) for n in sizes]
    assert pods[0] == 100  # NVIDIA's own quota allows 100 pods
    assert pods == sorted(pods)
    assert pods[-1] > pods[-2] > pods[-3]
    for size, allowed in zip(sizes, pods, strict=True):
        assert allowed >= 8 * size  # driver, toolkit, plugin, GFD, DCGM exporter, validator, MIG manager, NFD worker


def test_no_quota_outside_gke() -> None:
    others: list[tuple[Cloud, list[GpuPoolSpec]]] = [("eks", [EKS_PLAIN]), ("aks", [AKS_SPOT])]
    for cloud, pools in others:
        plan = _plan(cloud, pools, kind="gpu-operator")
        assert all(o.manifest["kind"] != "ResourceQuota" for o in plan.objects)


# --- device plugin ---------------------------------------------------------------------------------------------------


_NOT_DRA = {"key": "gpuready.io/advertise", "operator": "NotIn", "values": ["dra"]}
DEVICE_PLUGIN_AFFINITY = {
    # The plugin chart's own NVIDIA-node terms (DP 0.20.0 values.yaml L64-85), each kept off DRA pools.
    "nodeAffinity": {
        "requiredDuringSchedulingIgnoredDuringExecution": {
            "nodeSelectorTerms": [
                {"matchExpressions": [{"key": key, "operator": "In", "values": [value]}, _NOT_DRA]}
                for key, value in (
                    ("feature.node.kubernetes.io/pci-10de.present", "true"),
                    ("feature.node.kubernetes.io/cpu-model.vendor_id", "NVIDIA"),
                    ("nvidia.com/gpu.present", "true"),
                )
            ]
        }
    }
}


def test_device_plugin_on_eks() -> None:
    plan = _plan("eks", [EKS_TS, EKS_PLAIN], kind="device-plugin")
    pool_tolerations = [
        GPU_TOLERATION,
        {"key": "dedicated", "operator": "Exists", "effect": "NoExecute"},
        {"key": "team", "operator": "Exists", "effect": "NoSchedule"},
    ]
    assert _values(plan) == {
        "tolerations": [CRITICAL_ADDONS_ONLY, *pool_tolerations],
        "affinity": DEVICE_PLUGIN_AFFINITY,
        "gfd": {"enabled": True},
        "nfd": {"worker": {"nodeSelector": GPU_POOL_SELECTOR, "tolerations": pool_tolerations}},
        "config": {"name": _name(plan, "gpuready-device-plugin-config"), "default": "default"},
    }


def test_device_plugin_without_gfd() -> None:
    plan = _plan("eks", [EKS_PLAIN], kind="device-plugin", gfd=False)
    assert _values(plan) == {
        "tolerations": [CRITICAL_ADDONS_ONLY, GPU_TOLERATION],
        "affinity": DEVICE_PLUGIN_AFFINITY,
        "gfd": {"enabled": False},
    }
    assert plan.objects == ()


def test_device_plugin_with_existing_nfd() -> None:
    values = _values(_plan("eks", [EKS_PLAIN], kind="device-plugin", nfd="existing"))
    assert values == {
        "tolerations": [CRITICAL_ADDONS_ONLY, GPU_TOLERATION],
        "affinity": DEVICE_PLUGIN_AFFINITY,
        "gfd": {"enabled": True},
        "nfd": {"enabled": False},
    }


def test_device_plugin_on_aks_with_cloud_mig() -> None:
    plan = _plan("aks", [AKS_MIG, AKS_TS, AKS_SPOT], kind="device-plugin")
    pool_tolerations = [
        GPU_TOLERATION,
        SPOT_TOLERATION,
        {"key": "workload", "operator": "Exists", "effect": "NoExecute"},
    ]
    assert _values(plan) == {
        "tolerations": [CRITICAL_ADDONS_ONLY, *pool_tolerations],
        "affinity": DEVICE_PLUGIN_AFFINITY,
        "gfd": {"enabled": True},
        "nfd": {"worker": {"nodeSelector": GPU_POOL_SELECTOR, "tolerations": pool_tolerations}},
        "migStrategy": "mixed",
        "config": {"name": _name(plan, "gpuready-device-plugin-config"), "default": "default"},
    }
    assert set(_config_maps(plan)) == {"gpuready-device-plugin-config"}  # AKS partitions, no mig-parted config


def test_device_plugin_never_uses_the_operators_nfd_key() -> None:
    values = _values(_plan("eks", [EKS_TS], kind="device-plugin"))
    assert "node-feature-discovery" not in values
    assert "migStrategy" not in values  # no MIG pool: the chart default (none) stays


# --- release, namespace, objects -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "expected"),
    [
        ("gpu-operator", {"chart": GPU_OPERATOR, "name": "gpu-operator", "version": "v26.7.0",
                          "repository": "https://helm.ngc.nvidia.com/nvidia", "namespace": "gpu-operator"}),
        ("device-plugin", {"chart": DEVICE_PLUGIN, "name": "nvidia-device-plugin", "version": "0.20.0",
                           "repository": "https://nvidia.github.io/k8s-device-plugin",
                           "namespace": "nvidia-device-plugin"}),
    ],
)  # fmt: skip
def test_release_defaults(kind: str, expected: dict[str, Any]) -> None:
    plan = _plan("eks", [EKS_PLAIN], kind=kind)
    release = plan.release
    assert release is not None
    assert {key: getattr(release, key) for key in expected} == expected
    assert release.timeout_seconds == 900
    assert release.atomic is False
    assert release.skip_await is False
    assert plan.namespace is not None
    assert plan.namespace["metadata"]["name"] == expected["namespace"]


def test_release_overrides() -> None:
    plan = _plan(
        "eks", [EKS_TS], kind="gpu-operator", namespace="nvidia-gpu", release_name="gpu", chart_version="v26.3.3",
        repository="oci://mirror.example.com/nvidia", timeout_seconds=1800,
    )  # fmt: skip
    release = plan.release
    assert release is not None
    assert (release.name, release.version, release.repository, release.namespace, release.timeout_seconds) == (
        "gpu", "v26.3.3", "oci://mirror.example.com/nvidia", "nvidia-gpu", 1800,
    )  # fmt: skip
    assert release.chart == GPU_OPERATOR
    assert plan.namespace is not None
    assert plan.namespace["metadata"]["name"] == "nvidia-gpu"
    assert all(o.manifest["metadata"]["namespace"] == "nvidia-gpu" for o in plan.objects)
    assert plan.objects


def test_gke_quota_follows_the_namespace() -> None:
    plan = _plan("gke", [GKE_OPERATOR], kind="gpu-operator", namespace="nvidia")
    assert [o.manifest["metadata"]["namespace"] for o in plan.objects] == ["nvidia"]


@pytest.mark.parametrize(
    ("cloud", "pools", "kind", "advertisers"),
    [
        ("gke", [GKE_CLOUD], "none", ["gke-device-plugin"]),
        ("eks", [EKS_BOTTLEROCKET], "none", ["bottlerocket"]),
        ("eks", [EKS_TS, EKS_MIG_CUSTOM], "external", ["nvidia", "nvidia"]),
        ("aks", [AKS_SPOT, AKS_OPERATOR], "external", ["nvidia", "nvidia"]),
    ],
)
def test_kinds_none_and_external_install_nothing(
    cloud: Cloud, pools: list[GpuPoolSpec], kind: str, advertisers: list[str]
) -> None:
    plan = _plan(cloud, pools, kind=kind)
    assert plan.release is None
    assert plan.namespace is None
    assert plan.objects == ()
    assert plan.config_data == {}
    assert [s.platform_plugin for s in plan.pools] == advertisers
    assert [s.pool for s in plan.pools] == [p.name for p in pools]


def test_pool_services_say_how_each_pool_is_served() -> None:
    plan = _plan("eks", [EKS_PLAIN, EKS_BOTTLEROCKET], kind="gpu-operator")
    assert [(s.pool, s.platform_plugin) for s in plan.pools] == [("plain", "nvidia"), ("br", "bottlerocket")]
    assert "Bottlerocket" in plan.pools[1].summary


def test_config_data_lists_every_config_map() -> None:
    plan = _plan("eks", [EKS_TS, EKS_MIG_CUSTOM], kind="gpu-operator")
    maps = _config_maps(plan)
    assert set(maps) == {"gpuready-device-plugin-config", "gpuready-mig-parted-config"}
    assert dict(plan.config_data) == {m["metadata"]["name"]: m["data"] for m in maps.values()}
    assert set(maps["gpuready-device-plugin-config"]["data"]) == {"default", "time-slicing-x4"}


def _plugin_map_name(*pools: GpuPoolSpec) -> str:
    return _name(_plan("eks", pools, kind="device-plugin"), "gpuready-device-plugin-config")


def _mig_map_name(*pools: GpuPoolSpec) -> str:
    return _name(_plan("eks", pools, kind="gpu-operator"), "gpuready-mig-parted-config")


def _ts_pool(name: str = "l4", max_size: int = 2, replicas: int = 4) -> GpuPoolSpec:
    return GpuPoolSpec(
        cloud="eks", name=name, instance_type="g6.xlarge", min_size=0, max_size=max_size,
        sharing=GpuSharing(mode="time-slicing", replicas=replicas),
    )  # fmt: skip


def _custom_mig_pool(name: str = "a100c", layout: Mapping[str, int] | None = None, max_size: int = 1) -> GpuPoolSpec:
    return GpuPoolSpec(
        cloud="eks", name=name, instance_type="p4d.24xlarge", min_size=0, max_size=max_size,
        sharing=MigPartitioning(layout=layout or {"3g.20gb": 1, "4g.20gb": 1}, strategy="mixed"),
    )  # fmt: skip


def test_config_map_names_change_with_their_content_only() -> None:
    base = _plugin_map_name(_ts_pool())
    assert _plugin_map_name(_ts_pool()) == base
    assert _plugin_map_name(_ts_pool(max_size=5)) == base  # same config text
    assert _plugin_map_name(_ts_pool(name="other")) == base  # same profile, same config
    assert _plugin_map_name(_ts_pool(), _ts_pool(name="more")) == base  # pools with one profile share one config
    assert _plugin_map_name(_ts_pool(replicas=8)) != base
    assert _plugin_map_name(_ts_pool(), EKS_MPS) != base

    mig = _mig_map_name(_custom_mig_pool())
    assert _mig_map_name(_custom_mig_pool()) == mig
    assert _mig_map_name(_custom_mig_pool(max_size=3)) == mig
    assert _mig_map_name(_custom_mig_pool(layout={"3g.20gb": 2})) != mig
    assert _mig_map_name(_custom_mig_pool(name="renamed")) != mig  # the pool's config name is in the content


# --- refusals --------------------------------------------------------------------------------------------------------


def test_pools_of_another_cloud_are_refused() -> None:
    with pytest.raises(SpecError) as raised:
        _plan("eks", [EKS_PLAIN, AKS_SPOT], kind="external")
    assert [(p.path, p.problem) for p in raised.value.problems] == [("nodePools", "pool 't4spot' is for aks, not eks")]


def test_every_problem_in_one_error() -> None:
    with pytest.raises(SpecError) as raised:
        _plan(
            "eks",
            [EKS_PLAIN, EKS_BOTTLEROCKET, EKS_MIG_CUSTOM, EKS_MPS, GKE_CLOUD],
            kind="device-plugin",
            gfd=False,
        )
    problems = raised.value.problems
    rendered = [str(p) for p in problems]
    assert len(problems) == 6, rendered
    assert any(p.path == "nodePools" and "'l4' is for gke" in p.problem for p in problems), rendered
    assert any(p.path == "nodePools" and "['mps']" in p.problem and "mixed" in p.problem for p in problems), rendered
    assert any(p.path == "gpuStack.kind" and "'l4'" in p.problem and "GKE" in p.problem for p in problems), rendered
    assert any(p.path == "gpuStack.kind" and "'br'" in p.problem for p in problems), rendered
    assert any(p.path == "gpuStack.kind" and "'a100c'" in p.problem and "MIG" in p.problem for p in problems)
    assert any(p.path == "gpuStack.gfd" and "'mps'" in p.problem for p in problems), rendered


@pytest.mark.parametrize(
    ("cloud", "pools", "spec", "path", "words"),
    [
        ("eks", [EKS_MIG_CUSTOM], {"kind": "device-plugin"}, "gpuStack.kind", "MIG"),
        ("eks", [EKS_MIG], {"kind": "device-plugin"}, "gpuStack.kind", "MIG"),
        ("eks", [EKS_MPS], {"kind": "device-plugin", "gfd": False}, "gpuStack.gfd", "MPS"),
        ("aks", [AKS_SPOT, AKS_OPERATOR], {"kind": "gpu-operator"}, "nodePools", "driver"),
        ("eks", [EKS_PLAIN], {"kind": "none"}, "gpuStack.kind", "pool 'plain'"),
    ],
)
def test_plan_refuses(cloud: Cloud, pools: list[GpuPoolSpec], spec: dict[str, Any], path: str, words: str) -> None:
    with pytest.raises(SpecError) as raised:
        _plan(cloud, pools, **spec)
    (problem,) = raised.value.problems
    assert problem.path == path
    assert words in problem.problem


def test_mig_single_and_mixed_refused_in_the_plan() -> None:
    single = GpuPoolSpec(
        cloud="eks", name="a100s", instance_type="p4d.24xlarge", min_size=0, max_size=1,
        sharing=MigPartitioning(profile="1g.5gb", strategy="single"),
    )  # fmt: skip
    with pytest.raises(SpecError) as raised:
        _plan("eks", [single, EKS_MIG], kind="gpu-operator")
    (problem,) = raised.value.problems
    assert problem.path == "nodePools"
    assert "'a100s'" in problem.problem
    assert "'a100'" in problem.problem
