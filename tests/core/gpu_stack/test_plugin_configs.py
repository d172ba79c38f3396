"""Device-plugin config files per sharing profile (k8s-device-plugin v0.20.0 config format, nvidia.md section 3).

``version: v1``; a ``sharing`` block with ``timeSlicing`` or ``mps``; ``renameByDefault`` and
``failRequestsGreaterThanOne`` belong under that block, never under ``flags`` (NVIDIA/k8s-device-plugin#1433);
``resources: [{name: nvidia.com/gpu, replicas: N}]``. Nodes without a config label get the ``default`` config.
"""

from __future__ import annotations

from typing import Any

import pytest
import yaml

from gpuready.core.gpu_stack import plugin_configs
from gpuready.core.scheduling import LABEL_DEVICE_PLUGIN_CONFIG, pool_labels
from gpuready.core.specs import GpuPoolSpec, GpuSharing, MigPartitioning


def _pool(cloud: str = "eks", name: str = "gpu", sharing: Any = None, **fields: Any) -> GpuPoolSpec:
    instance_type = {"eks": "g6.xlarge", "aks": "Standard_NC4as_T4_v3", "gke": "g2-standard-4"}[cloud]
    fields.setdefault("instance_type", instance_type)
    return GpuPoolSpec(cloud=cloud, name=name, min_size=0, max_size=2, sharing=sharing, **fields)


@pytest.mark.parametrize(
    ("sharing", "expected"),
    [
        (
            GpuSharing(mode="time-slicing", replicas=4),
            {"version": "v1", "sharing": {"timeSlicing": {
                "renameByDefault": False, "resources": [{"name": "nvidia.com/gpu", "replicas": 4}]}}},
        ),
        (
            GpuSharing(mode="time-slicing", replicas=10, rename_by_default=True, fail_requests_greater_than_one=True),
            {"version": "v1", "sharing": {"timeSlicing": {
                "renameByDefault": True, "failRequestsGreaterThanOne": True,
                "resources": [{"name": "nvidia.com/gpu", "replicas": 10}]}}},
        ),
        (
            GpuSharing(mode="mps", replicas=2),
            {"version": "v1", "sharing": {"mps": {
                "renameByDefault": False, "resources": [{"name": "nvidia.com/gpu", "replicas": 2}]}}},
        ),
        (
            GpuSharing(mode="mps", replicas=3, rename_by_default=True, fail_requests_greater_than_one=False),
            {"version": "v1", "sharing": {"mps": {
                "renameByDefault": True, "failRequestsGreaterThanOne": False,
                "resources": [{"name": "nvidia.com/gpu", "replicas": 3}]}}},
        ),
    ],
)  # fmt: skip
def test_config_per_sharing_profile(sharing: GpuSharing, expected: dict[str, Any]) -> None:
    assert plugin_configs.sharing_config(sharing) == expected
    configs = plugin_configs.plugin_configs([_pool(sharing=sharing)])
    text = configs[_label(_pool(sharing=sharing))]
    parsed = yaml.safe_load(text)
    assert parsed == expected
    assert "flags" not in parsed  # migStrategy comes from the chart's env; sharing options never go under flags


def _label(pool: GpuPoolSpec) -> str:
    return pool_labels(pool)[LABEL_DEVICE_PLUGIN_CONFIG]


def test_sharing_options_are_under_the_sharing_block_only() -> None:
    sharing = GpuSharing(mode="time-slicing", replicas=4, rename_by_default=True, fail_requests_greater_than_one=True)
    parsed = yaml.safe_load(plugin_configs.plugin_configs([_pool(sharing=sharing)])[_label(_pool(sharing=sharing))])
    assert set(parsed) == {"version", "sharing"}
    assert set(parsed["sharing"]) == {"timeSlicing"}
    assert set(parsed["sharing"]["timeSlicing"]) == {"renameByDefault", "failRequestsGreaterThanOne", "resources"}


def test_default_config_present_only_when_some_pool_shares() -> None:
    assert plugin_configs.plugin_configs([_pool()]) == {}
    assert plugin_configs.plugin_configs([]) == {}
    configs = plugin_configs.plugin_configs([_pool(), _pool(name="ts", sharing=GpuSharing(mode="mps", replicas=2))])
    assert set(configs) == {"default", "mps-x2"}
    assert yaml.safe_load(configs["default"]) == {"version": "v1"}  # unlabelled nodes: whole GPUs


def test_pools_with_the_same_profile_share_one_config() -> None:
    ts4 = GpuSharing(mode="time-slicing", replicas=4)
    pools = [
        _pool(name="a", sharing=ts4),
        _pool(name="b", sharing=GpuSharing(mode="time-slicing", replicas=4)),
        _pool(name="c", sharing=GpuSharing(mode="time-slicing", replicas=4, rename_by_default=True)),
        _pool("aks", name="d", sharing=ts4),
    ]
    configs = plugin_configs.plugin_configs(pools)
    assert set(configs) == {"default", "time-slicing-x4", "time-slicing-x4-renamed"}
    assert {_label(p) for p in pools} == {"time-slicing-x4", "time-slicing-x4-renamed"}


def test_config_names_are_the_pools_config_labels() -> None:
    pools = [
        _pool(name="ts", sharing=GpuSharing(mode="time-slicing", replicas=4, fail_requests_greater_than_one=True)),
        _pool(name="mps", sharing=GpuSharing(mode="mps", replicas=2, fail_requests_greater_than_one=False)),
        _pool(
            "gke", name="gkeop", image="ubuntu", driver="operator", sharing=GpuSharing(mode="time-slicing", replicas=3)
        ),
    ]
    configs = plugin_configs.plugin_configs(pools)
    assert set(configs) == {"default", *(_label(p) for p in pools)}
    assert set(configs) == {"default", "time-slicing-x4-strict", "mps-x2-lenient", "time-slicing-x3"}


@pytest.mark.parametrize(
    "pool",
    [
        pytest.param(_pool("gke", sharing=GpuSharing(mode="time-slicing", replicas=4)), id="gke-time-sharing"),
        pytest.param(_pool("gke", sharing=GpuSharing(mode="mps", replicas=4)), id="gke-mps"),
        pytest.param(_pool(image="bottlerocket"), id="bottlerocket"),
        pytest.param(
            _pool("aks", instance_type="Standard_NC24ads_A100_v4", sharing=MigPartitioning(profile="1g.10gb")),
            id="aks-cloud-mig",
        ),
        pytest.param(
            _pool(instance_type="p4d.24xlarge", sharing=MigPartitioning(profile="1g.5gb", strategy="mixed")),
            id="eks-mig",
        ),
    ],
)
def test_pools_nvidia_does_not_share_produce_no_config(pool: GpuPoolSpec) -> None:
    assert plugin_configs.shared_pools([pool]) == []
    assert plugin_configs.plugin_configs([pool]) == {}
    assert LABEL_DEVICE_PLUGIN_CONFIG not in pool_labels(pool)


def test_gke_sharing_beside_nvidia_sharing_adds_nothing() -> None:
    gke_ts = _pool("gke", name="gkets", sharing=GpuSharing(mode="time-slicing", replicas=8))
    gke_op = _pool("gke", name="gkeop", image="ubuntu", driver="operator", sharing=GpuSharing(mode="mps", replicas=2))
    assert [p.name for p in plugin_configs.shared_pools([gke_ts, gke_op])] == ["gkeop"]
    assert set(plugin_configs.plugin_configs([gke_ts, gke_op])) == {"default", "mps-x2"}
