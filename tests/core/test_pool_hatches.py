"""``pool_hatches``: the limits of ``diskSizeGb``, ``zones`` and ``overrides`` on each cloud, table-driven."""

from __future__ import annotations

from typing import Any

import pytest

from gpuready.core import pool_hatches
from gpuready.core.clouds.registry import Cloud, cloud_profile
from gpuready.errors import SpecError
from tests.core.conftest import SpecFactory, build_spec

ACCEPTED: list[tuple[Cloud, dict[str, Any]]] = [
    ("eks", {"disk_size_gb": 1}),
    ("eks", {"disk_size_gb": 16384}),
    ("eks", {"overrides": {"subnetIds": ["subnet-a"], "launchTemplate": {"id": "lt-1", "version": "1"}}}),
    ("aks", {"disk_size_gb": 0}),
    ("aks", {"disk_size_gb": 2048}),
    ("aks", {"zones": ("1", "2", "3")}),
    ("aks", {"overrides": {"osDiskType": "Ephemeral", "maxPods": 30}}),
    ("gke", {"disk_size_gb": 10}),
    ("gke", {"disk_size_gb": 65536}),
    ("gke", {"zones": ("us-central1-a", "us-central1-b")}),
    ("gke", {"overrides": {"nodeConfig": {"localNvmeSsdBlockConfig": {"localSsdCount": 2}}}}),
]


@pytest.mark.parametrize(("cloud", "extra"), ACCEPTED)
def test_accepted(make_spec: SpecFactory, cloud: Cloud, extra: dict[str, Any]) -> None:
    spec = make_spec(cloud, **extra)
    assert pool_hatches.problems(spec) == []


REFUSED: list[tuple[Cloud, dict[str, Any], str, str]] = [
    ("eks", {"disk_size_gb": 0}, "diskSizeGb", "must be between 1 and 16384 GB on EKS"),
    ("eks", {"disk_size_gb": 16385}, "diskSizeGb", "must be between 1 and 16384 GB on EKS"),
    ("eks", {"disk_size_gb": "100"}, "diskSizeGb", "must be a whole number of GB"),
    ("eks", {"disk_size_gb": True}, "diskSizeGb", "must be a whole number of GB"),
    ("aks", {"disk_size_gb": -1}, "diskSizeGb", "must be between 0 and 2048 GB on AKS"),
    ("aks", {"disk_size_gb": 2049}, "diskSizeGb", "must be between 0 and 2048 GB on AKS"),
    ("gke", {"disk_size_gb": 9}, "diskSizeGb", "must be at least 10 GB on GKE"),
    ("eks", {"zones": ("us-east-1a",)}, "zones", "subnetIds"),
    ("aks", {"zones": ("4",)}, "zones[0]", "AKS zones are 1, 2 or 3"),
    ("aks", {"zones": ("eastus-1",)}, "zones[0]", "AKS zones are"),
    ("aks", {"zones": ("1", "1")}, "zones[1]", "duplicate zone"),
    ("gke", {"zones": ("us-central1",)}, "zones[0]", "GKE zones are zones of the cluster's region"),
    ("gke", {"zones": "us-central1-a"}, "zones", "must be a list of zones"),
    (
        "eks",
        {"disk_size_gb": 100, "overrides": {"launchTemplate": {"name": "gpu"}}},
        "diskSizeGb",
        "cannot be combined with a launch template",
    ),
    ("eks", {"overrides": {"scalingConfig": {}}}, "overrides.scalingConfig", "owned by minSize/maxSize/desiredSize"),
    ("eks", {"overrides": {"amiType": "CUSTOM"}}, "overrides.amiType", "owned by image"),
    ("eks", {"overrides": {"diskSize": 100}}, "overrides.diskSize", "owned by diskSizeGb"),
    ("eks", {"overrides": {"taints": []}}, "overrides.taints", "owned by taints"),
    ("aks", {"overrides": {"availabilityZones": ["1"]}}, "overrides.availabilityZones", "owned by zones"),
    ("aks", {"overrides": {"gpuInstanceProfile": "MIG1g"}}, "overrides.gpuInstanceProfile", "owned by sharing"),
    ("aks", {"overrides": {"osDiskSizeGb": 1}}, "overrides.osDiskSizeGb", "did you mean 'osDiskSizeGB'?"),
    ("gke", {"overrides": {"nodeLocations": []}}, "overrides.nodeLocations", "owned by zones"),
    (
        "gke",
        {"overrides": {"nodeConfig": {"bootDisk": {"sizeGb": 50}}}},
        "overrides.nodeConfig.bootDisk.sizeGb",
        "owned by diskSizeGb",
    ),
    ("gke", {"overrides": {"nodeConfig": {"spot": True}}}, "overrides.nodeConfig.spot", "owned by capacity"),
    ("gke", {"overrides": "gvnic"}, "overrides", "must be a mapping"),
]


@pytest.mark.parametrize(("cloud", "extra", "path", "message"), REFUSED)
def test_refused(cloud: Cloud, extra: dict[str, Any], path: str, message: str) -> None:
    with pytest.raises(SpecError) as info:
        build_spec(cloud, **extra)
    assert any(p.path == path and message in str(p) for p in info.value.problems), info.value


def test_every_cloud_states_its_hatch_limits() -> None:
    for cloud in ("eks", "aks", "gke"):
        profile = cloud_profile(cloud)
        low, high, source = profile.disk_size_gb
        assert low >= 0 and (high is None or high > low) and source
        assert profile.owned_inputs and profile.inputs_package == f"gpuready.{cloud}"


def test_spec_keeps_its_own_copy_of_the_overrides(make_spec: SpecFactory) -> None:
    given: dict[str, Any] = {"nodeConfig": {"gvnic": {"enabled": True}}}
    spec = make_spec("gke", overrides=given)
    given["nodeConfig"]["machineType"] = "a3-highgpu-8g"
    assert spec.overrides == {"nodeConfig": {"gvnic": {"enabled": True}}}


def test_with_overrides_leaves_the_plan_alone_without_overrides(make_spec: SpecFactory) -> None:
    args = {"a": {"b": 1}}
    assert pool_hatches.with_overrides(make_spec("eks"), args) == args
