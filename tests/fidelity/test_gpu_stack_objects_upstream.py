"""The objects gpuready writes beside the GPU stack have the shape NVIDIA's own examples give them.

Sources (read from ``../shared/reference/upstream/``, provenance in its ``SOURCES.md``): NVIDIA/cloud-native-docs
``gpu-operator/manifests/input/google-gke-gpu-operator-quota.yaml`` (the ResourceQuota GKE needs for
``system-node-critical`` pods) and ``time-slicing-config-sample.yaml`` (a device-plugin config with
``renameByDefault`` and ``failRequestsGreaterThanOne`` under ``sharing.timeSlicing``).
"""

from __future__ import annotations

from typing import Any

import pytest
import yaml

from gpuready.core.gpu_stack import plugin_configs
from gpuready.core.specs import GpuPoolSpec, GpuSharing
from gpuready.gke import stack_quota
from tests.upstream import upstream_text

QUOTA: dict[str, Any] = yaml.safe_load(upstream_text("cloud-native-docs/google-gke-gpu-operator-quota.yaml"))
SAMPLE_MAP: dict[str, Any] = yaml.safe_load(upstream_text("cloud-native-docs/time-slicing-config-sample.yaml"))
SAMPLE_CONFIG: dict[str, Any] = yaml.safe_load(next(iter(SAMPLE_MAP["data"].values())))


def key_paths(value: object, prefix: str = "") -> set[str]:
    """Every mapping key path, list items collapsed to ``[]``."""
    if isinstance(value, dict):
        paths: set[str] = set()
        for key, item in value.items():
            path = f"{prefix}.{key}" if prefix else str(key)
            paths |= {path} | key_paths(item, path)
        return paths
    if isinstance(value, list):
        return set().union(*(key_paths(item, f"{prefix}[]") for item in value)) if value else set()
    return set()


def test_gke_quota_admits_the_classes_nvidia_names_and_at_least_as_many_pods() -> None:
    pool = GpuPoolSpec(cloud="gke", name="l4", instance_type="g2-standard-8", min_size=0, max_size=20,
                       image="ubuntu", driver="operator")  # fmt: skip
    ours = stack_quota.priority_quota("gpu-operator", [pool]).manifest
    assert (ours["apiVersion"], ours["kind"]) == (QUOTA["apiVersion"], QUOTA["kind"])
    assert ours["spec"]["scopeSelector"] == QUOTA["spec"]["scopeSelector"]
    assert set(ours["spec"]["hard"]) == set(QUOTA["spec"]["hard"])
    assert int(ours["spec"]["hard"]["pods"]) >= int(QUOTA["spec"]["hard"]["pods"])


@pytest.mark.parametrize(
    "sharing",
    [
        GpuSharing(mode="time-slicing", replicas=4),
        GpuSharing(mode="time-slicing", replicas=2, rename_by_default=True, fail_requests_greater_than_one=True),
        GpuSharing(mode="mps", replicas=4, fail_requests_greater_than_one=False),
    ],
    ids=["plain", "renamed-strict", "mps"],
)
def test_sharing_configs_use_only_keys_nvidia_s_sample_uses(sharing: GpuSharing) -> None:
    """The MPS block takes the same fields as time-slicing (k8s-device-plugin README, "With CUDA MPS")."""
    ours = plugin_configs.sharing_config(sharing)
    sample = key_paths(SAMPLE_CONFIG)
    mine = {p.replace("sharing.mps", "sharing.timeSlicing") for p in key_paths(ours)}
    assert mine <= sample, sorted(mine - sample)
    assert "sharing.timeSlicing.renameByDefault" in sample and "flags.renameByDefault" not in sample
    assert ours["version"] == SAMPLE_CONFIG["version"]
