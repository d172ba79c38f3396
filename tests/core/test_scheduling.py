"""Node labels and taints of a pool, and their per-cloud encodings."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

import pytest

from gpuready.aks.profile import SPOT_TAINT as AKS_SPOT_TAINT
from gpuready.core import scheduling
from gpuready.core.clouds.registry import Cloud
from gpuready.core.scheduling import (
    GPU_TAINT,
    LABEL_DEVICE_PLUGIN_CONFIG,
    LABEL_MIG_CONFIG,
)
from gpuready.core.specs import GpuPoolSpec, GpuSharing, MigPartitioning
from gpuready.core.taints import Taint
from gpuready.eks.plan import to_eks_taint
from gpuready.gke.plan import LABEL_NO_DEVICE_PLUGIN as LABEL_GKE_NO_DEVICE_PLUGIN
from gpuready.gke.plan import to_gke_taint

SpecFactory = Callable[..., GpuPoolSpec]

TS4 = GpuSharing(mode="time-slicing", replicas=4)
MPS2 = GpuSharing(mode="mps", replicas=2, fail_requests_greater_than_one=True)
DEPLOY_FALSE = {
    "nvidia.com/gpu.deploy.driver": "false",
    "nvidia.com/gpu.deploy.container-toolkit": "false",
    "nvidia.com/gpu.deploy.device-plugin": "false",
    "nvidia.com/gpu.deploy.mig-manager": "false",
}


def test_labels_of_a_plain_pool(make_spec: SpecFactory) -> None:
    assert scheduling.pool_labels(make_spec("eks", name="infer")) == {
        "gpuready.io/pool": "infer",
        "gpuready.io/gpu-pool": "true",
        "nvidia.com/gpu.present": "true",
        "gpuready.io/accelerator": "l4",
        "skypilot.co/accelerator": "l4",
        "gpuready.io/sharing": "none",
    }


@pytest.mark.parametrize(
    ("cloud", "instance_type", "accelerator", "skypilot"),
    [
        ("eks", "p4de.24xlarge", "a100-80gb", "a100-80gb"),
        ("eks", "g5g.xlarge", "t4g", "t4g"),
        ("aks", "Standard_NC40ads_H100_v5", "h100-nvl", "h100"),
        ("aks", "standard_nd96asr_v4", "a100", "a100"),
        ("gke", "a3-megagpu-8g", "h100-mega", "h100-mega"),
        ("gke", "g2-standard-4", "l4", "l4"),
    ],
)
def test_accelerator_labels(
    make_spec: SpecFactory, cloud: Cloud, instance_type: str, accelerator: str, skypilot: str
) -> None:
    labels = scheduling.pool_labels(make_spec(cloud, instance_type=instance_type))
    assert labels["gpuready.io/accelerator"] == accelerator
    assert labels["skypilot.co/accelerator"] == skypilot


# (cloud, spec overrides) -> the sharing-related labels gpuready adds, and nothing else of the kind.
SHARING_LABELS = [
    pytest.param("eks", {}, {"gpuready.io/sharing": "none"}, id="eks-none"),
    pytest.param(
        "eks",
        {"sharing": TS4},
        {"gpuready.io/sharing": "time-slicing", LABEL_DEVICE_PLUGIN_CONFIG: "time-slicing-x4"},
        id="eks-time-slicing",
    ),
    pytest.param(
        "aks",
        {"sharing": MPS2},
        {"gpuready.io/sharing": "mps", LABEL_DEVICE_PLUGIN_CONFIG: "mps-x2-strict"},
        id="aks-mps",
    ),
    pytest.param(
        "aks",
        {"driver": "operator", "sharing": TS4},
        {"gpuready.io/sharing": "time-slicing", LABEL_DEVICE_PLUGIN_CONFIG: "time-slicing-x4"},
        id="aks-operator-time-slicing",
    ),
    pytest.param("gke", {"sharing": TS4}, {"gpuready.io/sharing": "time-slicing"}, id="gke-cloud-time-slicing"),
    pytest.param(
        "gke", {"sharing": GpuSharing(mode="mps", replicas=2)}, {"gpuready.io/sharing": "mps"}, id="gke-cloud-mps"
    ),
    pytest.param(
        "gke",
        {"driver": "operator", "image": "ubuntu", "sharing": TS4},
        {
            "gpuready.io/sharing": "time-slicing",
            LABEL_DEVICE_PLUGIN_CONFIG: "time-slicing-x4",
            LABEL_GKE_NO_DEVICE_PLUGIN: "true",
        },
        id="gke-operator-time-slicing",
    ),
    pytest.param(
        "gke",
        {"driver": "operator", "image": "ubuntu"},
        {"gpuready.io/sharing": "none", LABEL_GKE_NO_DEVICE_PLUGIN: "true"},
        id="gke-operator-none",
    ),
    pytest.param(
        "eks",
        {"instance_type": "p5.48xlarge", "sharing": MigPartitioning(layout="all-balanced", strategy="mixed")},
        {"gpuready.io/sharing": "mig", LABEL_MIG_CONFIG: "all-balanced"},
        id="eks-mig-named-layout",
    ),
    pytest.param(
        "eks",
        {"name": "trainers", "instance_type": "p4de.24xlarge", "sharing": MigPartitioning(layout={"2g.20gb": 3})},
        {"gpuready.io/sharing": "mig", LABEL_MIG_CONFIG: "gpuready-trainers"},
        id="eks-mig-custom-layout",
    ),
    pytest.param(
        "eks",
        {"instance_type": "p4d.24xlarge", "sharing": MigPartitioning(profile="1g.5gb+me")},
        {"gpuready.io/sharing": "mig", LABEL_MIG_CONFIG: "all-1g.5gb.me"},
        id="eks-mig-profile",
    ),
    pytest.param(
        "aks",
        {"instance_type": "Standard_ND96asr_v4", "sharing": MigPartitioning(profile="1g.5gb")},
        {"gpuready.io/sharing": "mig"},
        id="aks-cloud-mig",
    ),
    pytest.param(
        "aks",
        {"instance_type": "Standard_ND96asr_v4", "driver": "operator", "sharing": MigPartitioning(profile="1g.10gb")},
        {"gpuready.io/sharing": "mig", LABEL_MIG_CONFIG: "all-1g.10gb"},
        id="aks-operator-mig",
    ),
    pytest.param(
        "gke",
        {"instance_type": "a2-highgpu-1g", "sharing": MigPartitioning(profile="1g.5gb")},
        {"gpuready.io/sharing": "mig"},
        id="gke-cloud-mig",
    ),
    pytest.param(
        "gke",
        {
            "instance_type": "a2-highgpu-1g",
            "driver": "operator",
            "image": "ubuntu",
            "sharing": MigPartitioning(layout="all-balanced", strategy="mixed"),
        },
        {"gpuready.io/sharing": "mig", LABEL_MIG_CONFIG: "all-balanced", LABEL_GKE_NO_DEVICE_PLUGIN: "true"},
        id="gke-operator-mig",
    ),
]
SHARING_LABEL_KEYS = {"gpuready.io/sharing", LABEL_DEVICE_PLUGIN_CONFIG, LABEL_MIG_CONFIG, LABEL_GKE_NO_DEVICE_PLUGIN}


@pytest.mark.parametrize(("cloud", "overrides", "expected"), SHARING_LABELS)
def test_sharing_labels_name_only_the_party_that_delivers(
    make_spec: SpecFactory, cloud: Cloud, overrides: dict[str, Any], expected: dict[str, str]
) -> None:
    labels = scheduling.pool_labels(make_spec(cloud, **overrides))
    assert {k: v for k, v in labels.items() if k in SHARING_LABEL_KEYS} == expected


def test_bottlerocket_disables_the_operator_operands_it_ships(make_spec: SpecFactory) -> None:
    labels = scheduling.pool_labels(make_spec("eks", image="bottlerocket"))
    assert {k: v for k, v in labels.items() if k.startswith("nvidia.com/gpu.deploy.")} == DEPLOY_FALSE


@pytest.mark.parametrize(
    ("cloud", "overrides"),
    [("eks", {}), ("eks", {"image": "al2023"}), ("aks", {"image": "azurelinux"}), ("gke", {"image": "ubuntu"})],
)
def test_other_images_get_no_deploy_labels(make_spec: SpecFactory, cloud: Cloud, overrides: dict[str, Any]) -> None:
    labels = scheduling.pool_labels(make_spec(cloud, **overrides))
    assert not [k for k in labels if k.startswith("nvidia.com/gpu.deploy.")]


@pytest.mark.parametrize("cloud", ["eks", "aks", "gke"])
def test_extra_labels_come_last(make_spec: SpecFactory, cloud: Cloud) -> None:
    extras = {"example.com/team": "ml", "tier": "gpu"}
    labels = scheduling.pool_labels(make_spec(cloud, labels=extras))
    assert list(labels.items())[-2:] == list(extras.items())


def test_node_selector_picks_the_pool(make_spec: SpecFactory) -> None:
    assert scheduling.node_selector(make_spec("gke", name="l4-pool")) == {"gpuready.io/pool": "l4-pool"}


EXTRA = Taint(key="example.com/dedicated", value="ml", effect="NoExecute")


@pytest.mark.parametrize(
    ("cloud", "overrides", "taints"),
    [
        ("eks", {}, (GPU_TAINT,)),
        ("eks", {"capacity": "spot", "taints": [EXTRA]}, (GPU_TAINT, EXTRA)),
        ("aks", {}, (GPU_TAINT,)),
        ("aks", {"capacity": "spot"}, (GPU_TAINT, AKS_SPOT_TAINT)),
        ("aks", {"capacity": "spot", "taints": [EXTRA]}, (GPU_TAINT, AKS_SPOT_TAINT, EXTRA)),
        ("aks", {"taints": [EXTRA]}, (GPU_TAINT, EXTRA)),
        ("gke", {"capacity": "spot"}, (GPU_TAINT,)),
        ("gke", {"taints": [EXTRA]}, (GPU_TAINT, EXTRA)),
    ],
)
def test_pool_taints_start_with_the_gpu_taint(
    make_spec: SpecFactory, cloud: Cloud, overrides: dict[str, Any], taints: tuple[Taint, ...]
) -> None:
    assert scheduling.pool_taints(make_spec(cloud, **overrides)) == taints


def test_gpu_and_spot_taints() -> None:
    assert (GPU_TAINT.key, GPU_TAINT.value, GPU_TAINT.effect) == ("nvidia.com/gpu", "present", "NoSchedule")
    assert (AKS_SPOT_TAINT.key, AKS_SPOT_TAINT.value, AKS_SPOT_TAINT.effect) == (
        "kubernetes.azure.com/scalesetpriority",
        "spot",
        "NoSchedule",
    )


@pytest.mark.parametrize(
    ("taint", "eks", "gke", "aks", "k8s"),
    [
        (
            GPU_TAINT,
            {"key": "nvidia.com/gpu", "value": "present", "effect": "NO_SCHEDULE"},
            {"key": "nvidia.com/gpu", "value": "present", "effect": "NO_SCHEDULE"},
            "nvidia.com/gpu=present:NoSchedule",
            {"key": "nvidia.com/gpu", "value": "present", "effect": "NoSchedule"},
        ),
        (
            Taint(key="dedicated", effect="PreferNoSchedule"),
            {"key": "dedicated", "effect": "PREFER_NO_SCHEDULE"},
            {"key": "dedicated", "value": "", "effect": "PREFER_NO_SCHEDULE"},
            "dedicated:PreferNoSchedule",
            {"key": "dedicated", "effect": "PreferNoSchedule"},
        ),
        (
            EXTRA,
            {"key": "example.com/dedicated", "value": "ml", "effect": "NO_EXECUTE"},
            {"key": "example.com/dedicated", "value": "ml", "effect": "NO_EXECUTE"},
            "example.com/dedicated=ml:NoExecute",
            {"key": "example.com/dedicated", "value": "ml", "effect": "NoExecute"},
        ),
        (
            AKS_SPOT_TAINT,
            {"key": "kubernetes.azure.com/scalesetpriority", "value": "spot", "effect": "NO_SCHEDULE"},
            {"key": "kubernetes.azure.com/scalesetpriority", "value": "spot", "effect": "NO_SCHEDULE"},
            "kubernetes.azure.com/scalesetpriority=spot:NoSchedule",
            {"key": "kubernetes.azure.com/scalesetpriority", "value": "spot", "effect": "NoSchedule"},
        ),
    ],
)
def test_taint_encodings(taint: Taint, eks: dict[str, str], gke: dict[str, str], aks: str, k8s: dict[str, str]) -> None:
    assert to_eks_taint(taint) == eks
    assert to_gke_taint(taint) == gke
    assert str(taint) == aks  # AKS nodeTaints: the kubectl text form
    assert scheduling.to_k8s_taint(taint) == k8s


@pytest.mark.parametrize(
    ("operator", "toleration"),
    [
        ("Exists", {"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}),
        ("Equal", {"key": "nvidia.com/gpu", "operator": "Equal", "effect": "NoSchedule", "value": "present"}),
    ],
)
def test_toleration_for_the_gpu_taint(operator: Literal["Exists", "Equal"], toleration: dict[str, str]) -> None:
    assert scheduling.toleration_for(GPU_TAINT, operator) == toleration


def test_toleration_defaults_to_exists() -> None:
    assert scheduling.toleration_for(EXTRA)["operator"] == "Exists"


@pytest.mark.parametrize(
    ("cloud", "overrides"),
    [
        ("eks", {"sharing": TS4}),
        ("eks", {"image": "bottlerocket"}),
        ("eks", {"instance_type": "p5.48xlarge", "sharing": MigPartitioning(layout="all-balanced", strategy="mixed")}),
        ("gke", {"driver": "operator", "image": "ubuntu", "sharing": TS4}),
    ],
)
def test_every_label_gpuready_sets_outside_its_domain_is_managed(
    make_spec: SpecFactory, cloud: Cloud, overrides: dict[str, Any]
) -> None:
    spec = make_spec(cloud, **overrides)
    labels = scheduling.pool_labels(spec)
    outside = {k for k in labels if not k.startswith("gpuready.io/")}
    assert outside
    managed = scheduling.MANAGED_LABEL_KEYS | spec.profile.own_label_keys
    assert all(k in managed or k.startswith(scheduling.LABEL_DEPLOY_PREFIX) for k in outside)
