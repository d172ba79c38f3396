"""``gpuready:binpackScheduler``: parsed strictly, GPU resources taken from the pools, errors under the config path."""

from __future__ import annotations

from typing import Any

import pytest

from gpuready.core.config_model.parsers import parse_binpack
from gpuready.core.specs import GpuPoolSpec, GpuSharing, MigPartitioning
from gpuready.core.stack_settings import parse_stack_settings
from gpuready.errors import ConfigError

POOLS = (
    GpuPoolSpec(
        cloud="eks",
        name="l4",
        instance_type="g6.12xlarge",
        min_size=0,
        max_size=2,
        sharing=GpuSharing(mode="time-slicing", replicas=4, rename_by_default=True),
    ),
    GpuPoolSpec(
        cloud="eks",
        name="h100",
        instance_type="p5.48xlarge",
        min_size=0,
        max_size=1,
        sharing=MigPartitioning(profile="1g.10gb", strategy="mixed"),
    ),
)


def test_scored_resources_come_from_the_pools() -> None:
    spec = parse_binpack({"kubeSchedulerVersion": "v1.33.4"}, POOLS)
    assert spec.scored_gpu_resources == ("nvidia.com/gpu", "nvidia.com/gpu.shared", "nvidia.com/mig-1g.10gb")
    assert spec.image == "registry.k8s.io/kube-scheduler:v1.33.4"
    assert parse_binpack({"clusterVersion": "1.33", "patchVersion": 4, "replicas": 3}, POOLS).replicas == 3


@pytest.mark.parametrize(
    ("raw", "path", "words"),
    [
        ("yes", "gpuready:binpackScheduler", "must be a mapping"),
        ({"kubeSchedulerVersion": "v1.33.4", "replica": 2}, "gpuready:binpackScheduler.replica", "unknown key"),
        ({"kubeSchedulerVersion": 1.33}, "gpuready:binpackScheduler.kubeSchedulerVersion", "must be a"),
        ({"clusterVersion": "1.33"}, "gpuready:binpackScheduler", "patch"),
        ({"kubeSchedulerVersion": "v1.33.4", "namespace": "default"}, "gpuready:binpackScheduler.namespace", ""),
        ({"kubeSchedulerVersion": "v1.33.4", "replicas": 0}, "gpuready:binpackScheduler.replicas", "1 or more"),
        (
            {"kubeSchedulerVersion": "v1.33.4", "tolerations": [{"key": "a", "operator": "Exist"}]},
            "gpuready:binpackScheduler.tolerations[0].operator",
            "did you mean 'Exists'",
        ),
        (
            {"kubeSchedulerVersion": "v1.33.4", "tolerations": [{"key": "nvidia.com/gpu", "operator": "Exists"}]},
            "gpuready:binpackScheduler.tolerations",
            "run on GPU nodes",
        ),
    ],
)
def test_bad_settings_name_their_path(raw: Any, path: str, words: str) -> None:
    with pytest.raises(ConfigError) as raised:
        parse_binpack(raw, POOLS, "gpuready:binpackScheduler")
    problems = raised.value.problems
    assert any(p.path.startswith(path) and words in str(p) for p in problems), [str(p) for p in problems]


def test_every_spec_setting_is_a_key() -> None:
    spec = parse_binpack(
        {
            "kubeSchedulerVersion": "v1.33.4",
            "cpuRequest": "200m",
            "memoryRequest": "512Mi",
            "memoryLimit": "1Gi",
            "nodeSelector": {"pool": "system"},
            "tolerations": [{"key": "CriticalAddonsOnly", "operator": "Exists"}],
        },
        POOLS,
    )
    assert (spec.cpu_request, spec.memory_request, spec.memory_limit) == ("200m", "512Mi", "1Gi")
    assert spec.node_selector == {"pool": "system"}
    assert [t.to_k8s() for t in spec.tolerations] == [{"key": "CriticalAddonsOnly", "operator": "Exists"}]


BASE = {
    "cloud": "eks",
    "clusterName": "ml",
    "eksNodeRoleArn": "arn:aws:iam::123456789012:role/n",
    "eksSubnetIds": ["subnet-0123456789abcdef0"],
    "gpuStack": "device-plugin",
    "nodePools": "- {name: l4, instanceType: g6.xlarge, minSize: 0, maxSize: 1}",
}


def test_stack_settings_read_the_yaml_text() -> None:
    settings = parse_stack_settings({**BASE, "binpackScheduler": "{kubeSchedulerVersion: v1.33.4}"})
    assert settings.binpack_scheduler is not None and settings.binpack_scheduler.scheduler_name == "gpu-binpack"
    assert parse_stack_settings(BASE).binpack_scheduler is None
    with pytest.raises(ConfigError, match=r"gpuready:binpackScheduler: is not valid YAML"):
        parse_stack_settings({**BASE, "binpackScheduler": "{kubeSchedulerVersion: ["})
