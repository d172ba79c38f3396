"""Every validation rule of a GpuPoolSpec, each with accepted and refused inputs."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from gpuready.core.catalog.lookup import ExplicitGpu
from gpuready.core.clouds.registry import Cloud, cloud_profiles
from gpuready.core.specs import GpuPoolSpec, GpuSharing, MigPartitioning
from gpuready.core.taints import Taint
from gpuready.errors import Problem, SpecError

SpecFactory = Callable[..., GpuPoolSpec]

TS4 = GpuSharing(mode="time-slicing", replicas=4)


def _problems(make_spec: SpecFactory, cloud: Cloud, overrides: dict[str, Any]) -> tuple[Problem, ...]:
    with pytest.raises(SpecError) as info:
        make_spec(cloud, **overrides)
    return info.value.problems


def _as_typed(value: str) -> Any:
    """A string as a user could write it, passed where the type checker expects a Literal."""
    return value


def _taints(count: int) -> tuple[Taint, ...]:
    return tuple(Taint(key=f"example.com/t{i}", value="x") for i in range(count))


ACCEPTED = [
    # names
    pytest.param("eks", {"name": "GPU_pool-1"}, id="eks-name-mixed-case-underscore"),
    pytest.param("eks", {"name": "a" * 63, "fixed_name": True}, id="eks-name-63-fixed"),
    pytest.param("eks", {"name": "a" * 56}, id="eks-name-56-rotating"),
    pytest.param("eks", {"name": "1pool"}, id="eks-name-leading-digit"),
    pytest.param("aks", {"name": "a" * 12}, id="aks-name-12"),
    pytest.param("aks", {"name": "gpu1"}, id="aks-name-digits"),
    pytest.param("gke", {"name": "a" * 40, "fixed_name": True}, id="gke-name-40-fixed"),
    pytest.param("gke", {"name": "a" * 33}, id="gke-name-33-rotating"),
    pytest.param("gke", {"name": "gpu-pool-1"}, id="gke-name-dashes"),
    pytest.param("gke", {"name": "g"}, id="gke-name-1"),
    # sizes
    pytest.param("eks", {"min_size": 0, "max_size": 1}, id="sizes-0-1"),
    pytest.param("aks", {"min_size": 3, "max_size": 3}, id="sizes-min-equals-max"),
    pytest.param("gke", {"min_size": 0, "max_size": 1000, "desired_size": 1000}, id="sizes-max-1000"),
    pytest.param("eks", {"min_size": 1, "max_size": 4, "desired_size": 1}, id="sizes-desired-at-min"),
    # choices
    pytest.param("eks", {"capacity": "spot"}, id="capacity-spot"),
    pytest.param("eks", {"image": "al2023"}, id="eks-al2023"),
    pytest.param("eks", {"image": "bottlerocket"}, id="eks-bottlerocket"),
    pytest.param("aks", {"image": "azurelinux"}, id="aks-azurelinux"),
    pytest.param("gke", {"image": "ubuntu"}, id="gke-ubuntu"),
    # driver
    pytest.param("aks", {"driver": "operator"}, id="aks-operator"),
    pytest.param("gke", {"driver": "operator", "image": "ubuntu"}, id="gke-operator-ubuntu"),
    pytest.param("gke", {"driver_version": "latest"}, id="gke-latest-cos"),
    pytest.param("gke", {"driver_version": "default", "image": "ubuntu"}, id="gke-default-ubuntu"),
    # cloud offers
    pytest.param("gke", {"instance_type": "g9-standard-48", "gpu": ExplicitGpu("l4", 1)}, id="gke-unlisted-l4"),
    # time-slicing / MPS
    pytest.param("eks", {"sharing": GpuSharing(mode="time-slicing", replicas=2)}, id="ts-replicas-2"),
    pytest.param("eks", {"sharing": GpuSharing(mode="mps", replicas=48, rename_by_default=True)}, id="eks-mps-rename"),
    pytest.param(
        "aks",
        {"sharing": GpuSharing(mode="time-slicing", replicas=8, fail_requests_greater_than_one=True)},
        id="aks-ts",
    ),
    pytest.param("gke", {"sharing": GpuSharing(mode="time-slicing", replicas=48)}, id="gke-replicas-48"),
    pytest.param("gke", {"sharing": GpuSharing(mode="mps", replicas=2)}, id="gke-mps"),
    pytest.param(
        "gke",
        {
            "driver": "operator",
            "image": "ubuntu",
            "sharing": GpuSharing(mode="time-slicing", replicas=48, rename_by_default=True),
        },
        id="gke-operator-rename-and-many-replicas",
    ),
    # MIG
    pytest.param(
        "eks", {"instance_type": "p4d.24xlarge", "sharing": MigPartitioning(profile="1g.5gb")}, id="eks-mig-profile"
    ),
    pytest.param(
        "eks",
        {"instance_type": "p5.48xlarge", "sharing": MigPartitioning(layout="all-balanced", strategy="mixed")},
        id="eks-mig-balanced-mixed",
    ),
    pytest.param(
        "eks",
        {"instance_type": "p5.48xlarge", "sharing": MigPartitioning(layout="all-1g.10gb.me")},
        id="eks-mig-named-single-profile-layout",
    ),
    pytest.param(
        "eks",
        {
            "instance_type": "p4de.24xlarge",
            "sharing": MigPartitioning(layout={"4g.40gb": 1, "3g.40gb": 1}, strategy="mixed"),
        },
        id="eks-mig-custom-mixed",
    ),
    pytest.param(
        "eks",
        {"instance_type": "p4de.24xlarge", "sharing": MigPartitioning(layout={"2g.20gb": 3})},
        id="eks-mig-custom-homogeneous-single",
    ),
    pytest.param(
        "aks",
        {"instance_type": "Standard_ND96amsr_A100_v4", "sharing": MigPartitioning(profile="1g.10gb")},
        id="aks-mig-1g10gb-80gb",
    ),
    pytest.param(
        "aks",
        {"instance_type": "Standard_ND96asr_v4", "sharing": MigPartitioning(profile="3g.20gb", strategy="mixed")},
        id="aks-mig-mixed-strategy",
    ),
    pytest.param(
        "aks",
        {
            "instance_type": "Standard_ND96asr_v4",
            "driver": "operator",
            "sharing": MigPartitioning(layout={"3g.20gb": 1, "2g.10gb": 2}, strategy="mixed"),
        },
        id="aks-operator-mig-layout",
    ),
    pytest.param(
        "aks",
        {
            "instance_type": "Standard_NC24ads_A100_v4",
            "driver": "operator",
            "sharing": MigPartitioning(profile="1g.20gb"),
        },
        id="aks-operator-mig-1g20gb",
    ),
    pytest.param("gke", {"instance_type": "a2-highgpu-1g", "sharing": MigPartitioning(profile="1g.5gb")}, id="gke-mig"),
    pytest.param(
        "gke",
        {
            "instance_type": "a3-highgpu-8g",
            "driver": "operator",
            "image": "ubuntu",
            "sharing": MigPartitioning(layout="all-balanced", strategy="mixed"),
        },
        id="gke-operator-mig-layout",
    ),
    # labels
    pytest.param("aks", {"labels": {"example.com/team": "ml", "team": "", "tier": "gpu"}}, id="labels-plain"),
    pytest.param(
        "eks", {"labels": {"kubernetes.azure.com/x": "y", "cloud.google.com/x": "y"}}, id="eks-other-clouds-prefixes"
    ),
    pytest.param("gke", {"labels": {"eks.amazonaws.com/x": "y"}}, id="gke-eks-prefix"),
    pytest.param("eks", {"labels": {"nvidia.com/gpu.product": "x"}}, id="nvidia-label-not-managed"),
    # taints
    pytest.param("eks", {"taints": [Taint(key="dedicated")]}, id="eks-taint-no-value"),
    pytest.param("aks", {"taints": [Taint(key="dedicated", effect="NoExecute")]}, id="aks-taint-no-value"),
    pytest.param(
        "gke", {"taints": [Taint(key="example.com/dedicated", value="ml", effect="PreferNoSchedule")]}, id="gke-taint"
    ),
    pytest.param(
        "eks",
        {"taints": [Taint(key="dedicated", value="a"), Taint(key="dedicated", value="a", effect="NoExecute")]},
        id="same-key-other-effect",
    ),
    pytest.param("eks", {"taints": _taints(49)}, id="eks-49-extra-taints"),
    pytest.param("aks", {"taints": _taints(60)}, id="aks-many-taints"),
]


@pytest.mark.parametrize(("cloud", "overrides"), ACCEPTED)
def test_valid_pool_is_accepted(make_spec: SpecFactory, cloud: Cloud, overrides: dict[str, Any]) -> None:
    spec = make_spec(cloud, **overrides)
    assert spec.resolved.gpu.gpus >= 1


REFUSED = [
    # instance type
    pytest.param("eks", {"instance_type": "m5.large"}, "instanceType", "not a GPU instance type", id="unknown-type"),
    pytest.param("gke", {"instance_type": "n1-standard-8"}, "gpu", "has no built-in GPU", id="gke-n1-no-gpu"),
    # names
    pytest.param("eks", {"name": "a" * 64}, "name", "not a valid EKS node pool name", id="eks-name-64"),
    pytest.param("eks", {"name": "-gpu"}, "name", "EKS", id="eks-name-leading-dash"),
    pytest.param("eks", {"name": "_gpu"}, "name", "EKS", id="eks-name-leading-underscore"),
    pytest.param("eks", {"name": "gpu.pool"}, "name", "EKS", id="eks-name-dot"),
    pytest.param("eks", {"name": ""}, "name", "EKS", id="eks-name-empty"),
    pytest.param("aks", {"name": "a" * 13}, "name", "not a valid AKS node pool name", id="aks-name-13"),
    pytest.param("aks", {"name": "Gpu"}, "name", "AKS", id="aks-name-uppercase"),
    pytest.param("aks", {"name": "1gpu"}, "name", "AKS", id="aks-name-leading-digit"),
    pytest.param("aks", {"name": "gpu-1"}, "name", "AKS", id="aks-name-dash"),
    pytest.param("aks", {"name": "gpu_1"}, "name", "AKS", id="aks-name-underscore"),
    pytest.param("gke", {"name": "a" * 41}, "name", "not a valid GKE node pool name", id="gke-name-41"),
    pytest.param("gke", {"name": "Gpu"}, "name", "GKE", id="gke-name-uppercase"),
    pytest.param("gke", {"name": "gpu_pool"}, "name", "GKE", id="gke-name-underscore"),
    pytest.param("gke", {"name": "1gpu"}, "name", "GKE", id="gke-name-leading-digit"),
    pytest.param("gke", {"name": "gpu-"}, "name", "GKE", id="gke-name-trailing-dash"),
    # sizes
    pytest.param("eks", {"min_size": -1}, "minSize", "must be 0 or more", id="min-negative"),
    pytest.param("eks", {"max_size": 0}, "maxSize", "must be between 1 and 1000", id="max-0"),
    pytest.param("aks", {"max_size": 1001}, "maxSize", "must be between 1 and 1000", id="max-1001"),
    pytest.param("gke", {"min_size": 3, "max_size": 2}, "minSize", "is larger than maxSize (2)", id="min-over-max"),
    pytest.param("eks", {"min_size": 1, "desired_size": 0}, "desiredSize", "between minSize (1)", id="desired-below"),
    pytest.param("eks", {"desired_size": 3}, "desiredSize", "and maxSize (2)", id="desired-above"),
    # choices
    pytest.param("eks", {"capacity": "reservd"}, "capacity", "unknown capacity type", id="capacity-unknown"),
    pytest.param("eks", {"capacity": "flex-start"}, "capacity", "not offered by the EKS", id="not-offered"),
    pytest.param("eks", {"capacity": "Spot"}, "capacity", "unknown capacity type", id="capacity-case"),
    pytest.param("eks", {"image": "ubuntu"}, "image", "not a GPU node image family on eks", id="eks-ubuntu"),
    pytest.param("aks", {"image": "cos"}, "image", "not a GPU node image family on aks", id="aks-cos"),
    pytest.param("gke", {"image": "al2023"}, "image", "not a GPU node image family on gke", id="gke-al2023"),
    pytest.param("aks", {"driver": "nvidia"}, "driver", "unknown driver owner", id="driver-unknown"),
    # driver
    pytest.param("eks", {"driver": "operator"}, "driver", "no driver containers for Amazon Linux", id="eks-operator"),
    pytest.param("gke", {"driver": "operator"}, "image", "gpu-operator#1679", id="gke-operator-default-cos"),
    pytest.param("gke", {"driver": "operator", "image": "cos"}, "image", "needs Ubuntu nodes", id="gke-operator-cos"),
    pytest.param("eks", {"driver_version": "default"}, "driverVersion", "only GKE pools", id="eks-driver-version"),
    pytest.param("aks", {"driver_version": "latest"}, "driverVersion", "only GKE pools", id="aks-driver-version"),
    pytest.param(
        "gke",
        {"driver": "operator", "image": "ubuntu", "driver_version": "default"},
        "driverVersion",
        "only GKE",
        id="gke-operator-driver-version",
    ),
    pytest.param("gke", {"driver_version": "LATEST"}, "driverVersion", "unknown GKE driver version", id="gke-upper"),
    pytest.param("gke", {"driver_version": "535"}, "driverVersion", "unknown GKE driver version", id="gke-branch"),
    pytest.param(
        "gke", {"image": "ubuntu", "driver_version": "latest"}, "driverVersion", "COS only", id="gke-latest-ubuntu"
    ),
    # cloud offers
    pytest.param(
        "gke",
        {"instance_type": "g9-standard-4", "gpu": ExplicitGpu("a10g", 1)},
        "gpu.model",
        "GKE offers no such",
        id="gke-unlisted-a10g",
    ),
    # Bottlerocket
    pytest.param("eks", {"image": "bottlerocket", "sharing": TS4}, "sharing", "Bottlerocket", id="bottlerocket-ts"),
    pytest.param(
        "eks",
        {"image": "bottlerocket", "instance_type": "p4d.24xlarge", "sharing": MigPartitioning(profile="1g.5gb")},
        "sharing",
        "Bottlerocket",
        id="bottlerocket-mig",
    ),
    # time-slicing / MPS
    pytest.param(
        "eks",
        {"sharing": GpuSharing(mode="time-slicing", replicas=1)},
        "sharing.replicas",
        "at least 2",
        id="replicas-1",
    ),
    pytest.param(
        "aks", {"sharing": GpuSharing(mode="mps", replicas=0)}, "sharing.replicas", "at least 2", id="replicas-0"
    ),
    pytest.param(
        "gke",
        {"sharing": GpuSharing(mode="time-slicing", replicas=1)},
        "sharing.replicas",
        "at least 2",
        id="gke-replicas-1",
    ),
    pytest.param(
        "gke",
        {"sharing": GpuSharing(mode="time-slicing", replicas=49)},
        "sharing.replicas",
        "GKE allows at most 48",
        id="gke-49",
    ),
    pytest.param(
        "gke", {"sharing": GpuSharing(mode="mps", replicas=49)}, "sharing.replicas", "at most 48", id="gke-mps-49"
    ),
    pytest.param(
        "gke",
        {"sharing": GpuSharing(mode="time-slicing", replicas=4, rename_by_default=True)},
        "sharing",
        "no renameByDefault",
        id="gke-rename",
    ),
    pytest.param(
        "gke",
        {"sharing": GpuSharing(mode="mps", replicas=4, fail_requests_greater_than_one=False)},
        "sharing",
        "failRequestsGreaterThanOne",
        id="gke-fail-requests",
    ),
    pytest.param(
        "eks",
        {"sharing": GpuSharing(mode=_as_typed("bogus"), replicas=4)},
        "sharing.mode",
        "unknown sharing mode",
        id="sharing-mode-unknown",
    ),
    # MIG on GPUs without MIG
    pytest.param(
        "eks",
        {"instance_type": "g4dn.xlarge", "sharing": MigPartitioning(profile="1g.5gb")},
        "sharing.mode",
        "T4 (g4dn.xlarge) does not support MIG",
        id="mig-t4",
    ),
    pytest.param(
        "eks",
        {"instance_type": "g6.xlarge", "sharing": MigPartitioning(profile="1g.5gb")},
        "sharing.mode",
        "L4",
        id="mig-l4",
    ),
    pytest.param(
        "eks",
        {"instance_type": "g5.xlarge", "sharing": MigPartitioning(profile="1g.5gb")},
        "sharing.mode",
        "A10G",
        id="mig-a10g",
    ),
    pytest.param(
        "eks",
        {"instance_type": "g6e.xlarge", "sharing": MigPartitioning(profile="1g.5gb")},
        "sharing.mode",
        "L40S",
        id="mig-l40s",
    ),
    pytest.param(
        "eks",
        {"instance_type": "p3dn.24xlarge", "sharing": MigPartitioning(profile="1g.5gb")},
        "sharing.mode",
        "V100",
        id="mig-v100",
    ),
    pytest.param(
        "gke",
        {"instance_type": "n1-standard-8", "gpu": ExplicitGpu("v100", 1), "sharing": MigPartitioning(profile="1g.5gb")},
        "sharing.mode",
        "does not support MIG",
        id="mig-gke-v100",
    ),
    # MIG settings
    pytest.param(
        "eks",
        {"instance_type": "p4d.24xlarge", "sharing": MigPartitioning(profile="1g.5gb", strategy=_as_typed("Mixed"))},
        "sharing.strategy",
        "unknown MIG strategy",
        id="mig-strategy-unknown",
    ),
    pytest.param(
        "eks",
        {"instance_type": "p4d.24xlarge", "sharing": MigPartitioning(profile="1g.5gb", layout="all-1g.5gb")},
        "sharing",
        "give exactly one of profile or layout",
        id="mig-both",
    ),
    pytest.param(
        "eks",
        {"instance_type": "p4d.24xlarge", "sharing": MigPartitioning()},
        "sharing",
        "exactly one",
        id="mig-neither",
    ),
    pytest.param(
        "eks",
        {"instance_type": "p5.48xlarge", "sharing": MigPartitioning(profile="1g.5gb")},
        "sharing.profile",
        "not a MIG profile of A100-80GB/A800-80GB/H100-80GB/H800-80GB",
        id="mig-profile-of-other-gpu",
    ),
    pytest.param(
        "eks",
        {"instance_type": "p5.48xlarge", "sharing": MigPartitioning(layout="all-1g.5gb")},
        "sharing.layout",
        "not a mig-parted layout",
        id="mig-layout-name-unknown",
    ),
    pytest.param(
        "eks",
        {"instance_type": "p5.48xlarge", "sharing": MigPartitioning(layout="balanced")},
        "sharing.layout",
        "not a mig-parted layout",
        id="mig-layout-name-typo",
    ),
    pytest.param(
        "eks",
        {"instance_type": "p5.48xlarge", "sharing": MigPartitioning(layout={})},
        "sharing.layout",
        "an empty layout partitions nothing",
        id="mig-layout-empty",
    ),
    pytest.param(
        "eks",
        {
            "instance_type": "p4d.24xlarge",
            "sharing": MigPartitioning(layout={"3g.20gb": 2, "1g.5gb": 1}, strategy="mixed"),
        },
        "sharing.layout",
        "9 memory slices",
        id="mig-layout-too-big",
    ),
    pytest.param(
        "eks",
        {"instance_type": "p4d.24xlarge", "sharing": MigPartitioning(layout={"1g.5gb": 8})},
        "sharing.layout",
        "at most 7 x 1g.5gb",
        id="mig-layout-count",
    ),
    pytest.param(
        "eks",
        {"instance_type": "p5.48xlarge", "sharing": MigPartitioning(layout={"4g.40gb": 1, "3g.40gb": 1})},
        "sharing.strategy",
        "single needs one profile on every GPU",
        id="mig-single-mixed-layout",
    ),
    pytest.param(
        "eks",
        {"instance_type": "p5.48xlarge", "sharing": MigPartitioning(layout="all-balanced")},
        "sharing.strategy",
        "single needs one profile",
        id="mig-single-all-balanced",
    ),
    # cloud-native MIG
    pytest.param(
        "gke",
        {"instance_type": "a2-highgpu-1g", "sharing": MigPartitioning(layout="all-1g.5gb")},
        "sharing.layout",
        "GKE partitions every GPU with one profile",
        id="gke-mig-layout",
    ),
    pytest.param(
        "gke",
        {"instance_type": "a2-highgpu-1g", "sharing": MigPartitioning(profile="1g.5gb", strategy="mixed")},
        "sharing.strategy",
        "GKE advertises MIG partitions as nvidia.com/gpu",
        id="gke-mig-mixed",
    ),
    pytest.param(
        "gke",
        {"instance_type": "a3-highgpu-8g", "sharing": MigPartitioning(profile="1g.10gb+me")},
        "sharing.profile",
        "GKE does not offer media-extension profiles",
        id="gke-mig-me",
    ),
    pytest.param(
        "aks",
        {"instance_type": "Standard_ND96asr_v4", "sharing": MigPartitioning(layout={"3g.20gb": 2}, strategy="single")},
        "sharing.layout",
        "AKS partitions every GPU with one profile",
        id="aks-mig-layout",
    ),
    pytest.param(
        "aks",
        {"instance_type": "Standard_NC24ads_A100_v4", "sharing": MigPartitioning(profile="1g.20gb")},
        "sharing.profile",
        "AKS gpuInstanceProfile cannot produce this profile",
        id="aks-mig-1g20gb",
    ),
    pytest.param(
        "aks",
        {"instance_type": "Standard_ND96asr_v4", "sharing": MigPartitioning(profile="1g.10gb")},
        "sharing.profile",
        "gpuInstanceProfile cannot produce",
        id="aks-mig-1g10gb-on-40gb",
    ),
    pytest.param(
        "aks",
        {"instance_type": "Standard_ND96amsr_A100_v4", "sharing": MigPartitioning(profile="1g.10gb+me")},
        "sharing.profile",
        "AKS does not offer media-extension profiles",
        id="aks-mig-me",
    ),
    # labels
    pytest.param(
        "eks", {"labels": {"bad key": "x"}}, "labels['bad key']", "the name part must be alphanumeric", id="label-key"
    ),
    pytest.param("eks", {"labels": {"a/b/c": "x"}}, "labels['a/b/c']", "at most one '/'", id="label-key-slashes"),
    pytest.param(
        "eks", {"labels": {"team": "ml team"}}, "labels['team']", "a value must be alphanumeric", id="label-value"
    ),
    pytest.param("eks", {"labels": {"team": "a" * 64}}, "labels['team']", "at most 63", id="label-value-long"),
    pytest.param(
        "eks", {"labels": {"team": 5}}, "labels['team']", "a label value must be a string", id="label-value-int"
    ),
    pytest.param("eks", {"labels": {"team": "-x"}}, "labels['team']", "starting and ending", id="label-value-dash"),
    pytest.param(
        "eks",
        {"labels": {"kubernetes.io/role": "gpu"}},
        "labels['kubernetes.io/role']",
        "kubernetes.io prefix is reserved on eks",
        id="eks-kubernetes-io",
    ),
    pytest.param(
        "eks",
        {"labels": {"node.kubernetes.io/x": "y"}},
        "labels",
        "kubernetes.io prefix is reserved",
        id="eks-node-kubernetes-io",
    ),
    pytest.param("eks", {"labels": {"k8s.io/x": "y"}}, "labels", "k8s.io prefix is reserved", id="eks-k8s-io"),
    pytest.param(
        "eks",
        {"labels": {"eks.amazonaws.com/nodegroup": "y"}},
        "labels",
        "eks.amazonaws.com prefix is reserved on eks",
        id="eks-eks-prefix",
    ),
    pytest.param(
        "aks",
        {"labels": {"kubernetes.azure.com/accelerator": "nvidia"}},
        "labels",
        "kubernetes.azure.com prefix is reserved on aks",
        id="aks-azure-prefix",
    ),
    pytest.param(
        "gke",
        {"labels": {"cloud.google.com/gke-accelerator": "x"}},
        "labels",
        "cloud.google.com prefix is reserved on gke",
        id="gke-google-prefix",
    ),
    pytest.param(
        "gke", {"labels": {"gpuready.io/pool": "x"}}, "labels", "gpuready.io prefix is reserved", id="gpuready-prefix"
    ),
    pytest.param(
        "aks",
        {"labels": {"team.gpuready.io/x": "y"}},
        "labels",
        "gpuready.io prefix is reserved",
        id="gpuready-subdomain",
    ),
    pytest.param(
        "eks",
        {"labels": {"nvidia.com/gpu.present": "true"}},
        "labels",
        "gpuready sets this label itself",
        id="managed-gpu-present",
    ),
    pytest.param(
        "eks",
        {"labels": {"nvidia.com/device-plugin.config": "x"}},
        "labels",
        "gpuready sets this label",
        id="managed-dp-config",
    ),
    pytest.param(
        "eks", {"labels": {"nvidia.com/mig.config": "all-disabled"}}, "labels", "gpuready sets", id="managed-mig-config"
    ),
    pytest.param(
        "gke", {"labels": {"skypilot.co/accelerator": "l4"}}, "labels", "gpuready sets", id="managed-skypilot"
    ),
    pytest.param(
        "gke",
        {"labels": {"gke-no-default-nvidia-gpu-device-plugin": "true"}},
        "labels",
        "gpuready sets",
        id="managed-gke-dp",
    ),
    pytest.param(
        "eks", {"labels": {"nvidia.com/gpu.deploy.driver": "false"}}, "labels", "gpuready sets", id="managed-deploy"
    ),
    # taints
    pytest.param(
        "eks", {"taints": [Taint(key="bad key")]}, "taints[0].key", "the name part must be alphanumeric", id="taint-key"
    ),
    pytest.param(
        "eks", {"taints": [Taint(key="k", value="a b")]}, "taints[0].value", "a value must be", id="taint-value"
    ),
    pytest.param(
        "eks",
        {"taints": [Taint(key="k", effect=_as_typed("NO_SCHEDULE"))]},
        "taints[0].effect",
        "unknown taint effect",
        id="taint-effect-eks-spelling",
    ),
    pytest.param(
        "aks",
        {"taints": [Taint(key="nvidia.com/gpu", value="present")]},
        "taints[0].key",
        "gpuready sets this taint itself",
        id="taint-gpu",
    ),
    pytest.param(
        "aks",
        {"taints": [Taint(key="kubernetes.azure.com/scalesetpriority", value="spot")]},
        "taints[0].key",
        "gpuready sets this taint itself",
        id="taint-aks-spot",
    ),
    pytest.param(
        "eks",
        {"taints": [Taint(key="nvidia.com/gpu", effect="NoExecute")]},
        "taints[0].key",
        "gpuready sets this taint",
        id="taint-gpu-other-effect",
    ),
    pytest.param(
        "aks",
        {"taints": [Taint(key="kubernetes.azure.com/scalesetpriority", value="spot")]},
        "taints[0].key",
        "gpuready sets this taint",
        id="taint-aks-spot",
    ),
    pytest.param(
        "gke",
        {"taints": [Taint(key="dedicated")]},
        "taints[0].value",
        "GKE requires a taint value",
        id="gke-taint-no-value",
    ),
    pytest.param(
        "eks",
        {"taints": [Taint(key="k", value="a"), Taint(key="k", value="b")]},
        "taints[1]",
        "duplicate taint key and effect",
        id="taint-duplicate",
    ),
    pytest.param(
        "eks", {"taints": _taints(50)}, "taints", "EKS allows at most 50 taints per node group", id="eks-51-taints"
    ),
]


@pytest.mark.parametrize(("cloud", "overrides", "path", "text"), REFUSED)
def test_invalid_pool_is_refused(
    make_spec: SpecFactory, cloud: Cloud, overrides: dict[str, Any], path: str, text: str
) -> None:
    problems = _problems(make_spec, cloud, overrides)
    assert any(p.path.startswith(path) and text in str(p) for p in problems), problems


def test_every_problem_is_collected(make_spec: SpecFactory) -> None:
    problems = _problems(
        make_spec,
        "gke",
        {
            "name": "Bad_Name",
            "min_size": -1,
            "max_size": 0,
            "capacity": "reservd",
            "image": "al2023",
            "labels": {"kubernetes.io/x": "y"},
            "taints": [Taint(key="dedicated")],
        },
    )
    assert [p.path for p in problems] == [
        "name",
        "minSize",
        "maxSize",
        "image",
        "capacity",
        "labels['kubernetes.io/x']",
        "taints[0].value",
    ]


def test_instance_type_problem_does_not_hide_the_others(make_spec: SpecFactory) -> None:
    problems = _problems(make_spec, "aks", {"instance_type": "Standard_X", "name": "GPU"})
    assert [p.path for p in problems] == ["instanceType", "name"]


def test_name_problem_lists_the_rule(make_spec: SpecFactory) -> None:
    (problem,) = _problems(make_spec, "aks", {"name": "gpu-pool"})
    assert problem.value == "gpu-pool"
    assert problem.hint == "1-12 lowercase letters and digits, starting with a letter"


def test_mig_problem_on_bottlerocket_is_only_the_bottlerocket_one(make_spec: SpecFactory) -> None:
    (problem,) = _problems(
        make_spec, "eks", {"image": "bottlerocket", "sharing": MigPartitioning(profile="9g.1gb", layout="x")}
    )
    assert problem.path == "sharing"
    assert problem.allowed == ("none",)


def test_every_cloud_profile_reserves_gpureadys_domain() -> None:
    assert [p.name for p in cloud_profiles()] == ["eks", "aks", "gke"]
    assert all("gpuready.io" in p.reserved_label_domains for p in cloud_profiles())


@pytest.mark.parametrize("cloud", ["eks", "aks", "gke"])
def test_pool_name_with_trailing_newline_is_refused(make_spec: SpecFactory, cloud: Cloud) -> None:
    problems = _problems(make_spec, cloud, {"name": "gpu\n"})
    assert [p.path for p in problems] == ["name"]


def test_eks_taint_key_longer_than_63_characters_is_refused(make_spec: SpecFactory) -> None:
    key = "team.example.com/" + "a" * 50
    problems = _problems(make_spec, "eks", {"taints": [Taint(key=key, value="x")]})
    assert any(p.path == "taints[0].key" for p in problems)
