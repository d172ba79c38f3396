"""Whether a GPU stack fits its pools: each contradiction is one problem with its path, value and a way out."""

from __future__ import annotations

from typing import NamedTuple

import pytest

from gpuready.core.gpu_stack import mig_pools, stack_rules
from gpuready.core.gpu_stack.stack_spec import GpuStackSpec
from gpuready.core.specs import GpuPoolSpec, GpuSharing, MigPartitioning
from gpuready.errors import Problem

EKS_L4 = GpuPoolSpec(cloud="eks", name="l4", instance_type="g6.xlarge", min_size=0, max_size=2)
EKS_BOTTLEROCKET = GpuPoolSpec(
    cloud="eks", name="br", instance_type="g6.xlarge", min_size=0, max_size=2, image="bottlerocket"
)
EKS_MPS = GpuPoolSpec(
    cloud="eks", name="mps", instance_type="g6.xlarge", min_size=0, max_size=2,
    sharing=GpuSharing(mode="mps", replicas=4),
)  # fmt: skip
EKS_TS = GpuPoolSpec(
    cloud="eks", name="ts", instance_type="g6.xlarge", min_size=0, max_size=2,
    sharing=GpuSharing(mode="time-slicing", replicas=4),
)  # fmt: skip
EKS_MIG_LAYOUT = GpuPoolSpec(
    cloud="eks", name="a100", instance_type="p4d.24xlarge", min_size=0, max_size=1,
    sharing=MigPartitioning(layout="all-balanced", strategy="mixed"),
)  # fmt: skip
EKS_MIG_SINGLE = GpuPoolSpec(
    cloud="eks", name="a100s", instance_type="p4d.24xlarge", min_size=0, max_size=1,
    sharing=MigPartitioning(profile="1g.5gb", strategy="single"),
)  # fmt: skip
EKS_MIG_MIXED = GpuPoolSpec(
    cloud="eks", name="h100m", instance_type="p5.48xlarge", min_size=0, max_size=1,
    sharing=MigPartitioning(profile="1g.10gb", strategy="mixed"),
)  # fmt: skip
AKS_CLOUD = GpuPoolSpec(cloud="aks", name="t4", instance_type="Standard_NC4as_T4_v3", min_size=0, max_size=2)
AKS_OPERATOR = GpuPoolSpec(
    cloud="aks", name="t4op", instance_type="Standard_NC4as_T4_v3", min_size=0, max_size=2, driver="operator"
)
AKS_OPERATOR_AZL = GpuPoolSpec(
    cloud="aks", name="t4azl", instance_type="Standard_NC4as_T4_v3", min_size=0, max_size=2, driver="operator",
    image="azurelinux",
)  # fmt: skip
AKS_MPS = GpuPoolSpec(
    cloud="aks", name="t4mps", instance_type="Standard_NC4as_T4_v3", min_size=0, max_size=2,
    sharing=GpuSharing(mode="mps", replicas=2),
)  # fmt: skip
AKS_MIG_SINGLE = GpuPoolSpec(
    cloud="aks", name="migs", instance_type="Standard_NC24ads_A100_v4", min_size=0, max_size=1,
    sharing=MigPartitioning(profile="1g.10gb", strategy="single"),
)  # fmt: skip
AKS_MIG_MIXED = GpuPoolSpec(
    cloud="aks", name="migm", instance_type="Standard_NC24ads_A100_v4", min_size=0, max_size=1,
    sharing=MigPartitioning(profile="1g.10gb", strategy="mixed"),
)  # fmt: skip
GKE_CLOUD = GpuPoolSpec(cloud="gke", name="l4", instance_type="g2-standard-4", min_size=0, max_size=2)
GKE_CLOUD_MIG = GpuPoolSpec(
    cloud="gke", name="a100", instance_type="a2-highgpu-1g", min_size=0, max_size=1,
    sharing=MigPartitioning(profile="1g.5gb"),
)  # fmt: skip
GKE_OPERATOR = GpuPoolSpec(
    cloud="gke", name="l4op", instance_type="g2-standard-4", min_size=0, max_size=2, image="ubuntu", driver="operator"
)

EKS_DRA = GpuPoolSpec(cloud="eks", name="l4dra", instance_type="g6.12xlarge", min_size=0, max_size=2, advertise="dra")
EKS_DRA_KARPENTER = GpuPoolSpec(
    cloud="eks", name="h100dra", instance_type="p5.48xlarge", min_size=0, max_size=2, advertise="dra",
    provisioner="karpenter",
)  # fmt: skip
AKS_DRA_OPERATOR = GpuPoolSpec(
    cloud="aks", name="t4dra", instance_type="Standard_NC4as_T4_v3", min_size=0, max_size=2, advertise="dra",
    driver="operator",
)  # fmt: skip
OPERATOR = GpuStackSpec(kind="gpu-operator")
GPU_CLUSTER = GpuStackSpec(kind="gpu-operator-dra", cluster_version="1.34")
PLUGIN = GpuStackSpec(kind="device-plugin")
PLUGIN_NO_GFD = GpuStackSpec(kind="device-plugin", gfd=False)
NONE = GpuStackSpec(kind="none")
EXTERNAL = GpuStackSpec(kind="external")


class Expected(NamedTuple):
    path: str
    words: tuple[str, ...]
    """Substrings of the problem's message (``Problem.problem``)."""
    value: object
    hint_words: tuple[str, ...]


class Case(NamedTuple):
    id: str
    pools: tuple[GpuPoolSpec, ...]
    spec: GpuStackSpec
    expected: tuple[Expected, ...]


REFUSED: list[Case] = [
    Case("mig-layout-with-device-plugin", (EKS_MIG_LAYOUT,), PLUGIN,
         (Expected("gpuStack.kind", ("pool 'a100'", "MIG"), "device-plugin", ("gpu-operator",)),)),
    Case("mig-profile-by-mig-manager-with-device-plugin", (EKS_L4, EKS_MIG_SINGLE), PLUGIN,
         (Expected("gpuStack.kind", ("pool 'a100s'", "MIG"), "device-plugin", ("gpu-operator",)),)),
    Case("mps-with-device-plugin-without-gfd", (EKS_L4, EKS_MPS), PLUGIN_NO_GFD,
         (Expected("gpuStack.gfd", ("pool 'mps'", "MPS", "nvidia.com/mps.capable"), False, ("gfd: true",)),)),
    Case("one-operator-for-both-aks-driver-owners", (AKS_CLOUD, AKS_OPERATOR), OPERATOR,
         (Expected("nodePools", ("'t4'", "'t4op'", "driver"), None, ("driver: cloud", "driver: operator")),)),
    Case("mig-single-and-mixed-under-the-operator", (EKS_MIG_SINGLE, EKS_MIG_MIXED), OPERATOR,
         (Expected("nodePools", ("'a100s'", "'h100m'", "single", "mixed"), None, ("strategy: mixed",)),)),
    Case("mig-single-and-mixed-under-the-device-plugin", (AKS_MIG_SINGLE, AKS_MIG_MIXED), PLUGIN,
         (Expected("nodePools", ("'migs'", "'migm'", "single", "mixed"), None, ("strategy: mixed",)),)),
    Case("al2023-without-a-stack", (EKS_L4, EKS_BOTTLEROCKET), NONE,
         (Expected("gpuStack.kind", ("pool 'l4'", "no device plugin"), "none", ("gpu-operator", "device-plugin")),)),
    Case("bottlerocket-with-the-device-plugin", (EKS_L4, EKS_BOTTLEROCKET), PLUGIN,
         (Expected("gpuStack.kind", ("pool 'br'", "Bottlerocket"), "device-plugin", ("none", "gpu-operator")),)),
    Case("gke-driver-with-the-operator", (GKE_CLOUD,), OPERATOR,
         (Expected("gpuStack.kind", ("pool 'l4'", "GKE"), "gpu-operator", ("none", "driver: operator")),)),
    Case("gke-operator-driver-with-the-device-plugin", (GKE_OPERATOR,), PLUGIN,
         (Expected("gpuStack.kind", ("pool 'l4op'", "no driver"), "device-plugin", ("gpu-operator",)),)),
    Case(
        "several-problems-at-once",
        (EKS_L4, EKS_BOTTLEROCKET, EKS_MIG_LAYOUT, EKS_MPS, EKS_MIG_SINGLE, EKS_MIG_MIXED),
        PLUGIN_NO_GFD,
        (
            Expected("gpuStack.kind", ("pool 'br'",), "device-plugin", ("none",)),
            Expected("gpuStack.kind", ("pool 'a100'", "MIG"), "device-plugin", ("gpu-operator",)),
            Expected("gpuStack.gfd", ("pool 'mps'",), False, ("gfd: true",)),
            Expected("gpuStack.kind", ("pool 'a100s'", "MIG"), "device-plugin", ("gpu-operator",)),
            Expected("gpuStack.kind", ("pool 'h100m'", "MIG"), "device-plugin", ("gpu-operator",)),
            Expected("nodePools", ("'a100s'", "'h100m'"), None, ("strategy: mixed",)),
            Expected("nodePools", ("['mps']", "MPS", "mixed"), "mixed", ("strategy: single",)),
        ),
    ),
    # The plugin's validateFlags refuses MPS with --mig-strategy=mixed (k8s-device-plugin v0.20.0).
    Case("mps-beside-mig-mixed-under-the-operator", (EKS_MPS, EKS_MIG_MIXED), OPERATOR,
         (Expected("nodePools", ("['mps']", "['h100m']", "--mig-strategy=mixed"), "mixed", ("strategy: single",)),)),
    Case("mps-beside-aks-mig-mixed-under-the-device-plugin", (AKS_MPS, AKS_MIG_MIXED), PLUGIN,
         (Expected("nodePools", ("['t4mps']", "['migm']", "crash-loop"), "mixed", ("time-slicing",)),)),
    # The GPUCluster (gpu-operator-dra) runs no device plugin and no container toolkit (v26.7.0 newGPUClusterStates).
    Case("device-plugin-pool-under-the-gpu-cluster", (EKS_L4, EKS_DRA), GPU_CLUSTER,
         (Expected("gpuStack.kind", ("pool 'l4'", "device-plugin pool", "no ClusterPolicy"), "gpu-operator-dra",
                   ("advertise: dra",)),)),
    Case("operator-driver-dra-pool-under-the-gpu-cluster", (AKS_DRA_OPERATOR,), GPU_CLUSTER,
         (Expected("gpuStack.kind", ("pool 't4dra'", "no container toolkit", "NVIDIADriver"), "gpu-operator-dra",
                   ("driver: cloud",)),)),
    Case("dra-pool-under-the-cluster-policy-operator", (EKS_DRA,), OPERATOR,
         (Expected("gpuStack.kind", ("pool 'l4dra'", "advertise: dra"), "gpu-operator", ("gpu-operator-dra",)),)),
    Case("mig-layout-pool-under-the-gpu-cluster", (EKS_MIG_LAYOUT,), GPU_CLUSTER,
         (Expected("gpuStack.kind", ("pool 'a100'", "device-plugin pool"), "gpu-operator-dra", ("advertise: dra",)),
          Expected("gpuStack.kind", ("pool 'a100'", "MIG", "runs no MIG manager"), "gpu-operator-dra",
                   ("gpu-operator",)))),
    # GPU Operator v26.7.0 getGPUNodeOSInfo: one driver OS for the whole cluster.
    Case("operator-driver-on-two-os-images", (AKS_OPERATOR, AKS_OPERATOR_AZL), OPERATOR,
         (Expected("nodePools", ("getGPUNodeOSInfo", "azurelinux: ['t4azl']", "ubuntu: ['t4op']"),
                   ["azurelinux", "ubuntu"], ("same image", "driver: cloud")),)),
]  # fmt: skip

FITTING: list[tuple[str, tuple[GpuPoolSpec, ...], GpuStackSpec]] = [
    ("al2023-and-bottlerocket-under-the-operator", (EKS_L4, EKS_BOTTLEROCKET, EKS_TS, EKS_MIG_LAYOUT), OPERATOR),
    ("mps-with-device-plugin-and-gfd", (EKS_L4, EKS_MPS), PLUGIN),
    ("mps-under-the-operator", (EKS_MPS,), OPERATOR),
    ("mig-by-mig-manager-under-the-operator", (EKS_MIG_LAYOUT, EKS_MIG_MIXED), OPERATOR),
    ("aks-cloud-mig-with-the-device-plugin", (AKS_CLOUD, AKS_MIG_MIXED), PLUGIN),
    ("aks-operator-driver-pools", (AKS_OPERATOR,), OPERATOR),
    ("aks-operator-driver-azure-linux-pools", (AKS_OPERATOR_AZL,), OPERATOR),
    ("mps-beside-mig-single-under-the-operator", (EKS_MPS, EKS_MIG_SINGLE), OPERATOR),
    ("mps-beside-aks-mig-single-under-the-device-plugin", (AKS_MPS, AKS_MIG_SINGLE), PLUGIN),
    ("aks-two-images-with-the-clouds-driver", (AKS_CLOUD, AKS_MPS), PLUGIN),
    ("aks-both-owners-external", (AKS_CLOUD, AKS_OPERATOR), EXTERNAL),
    ("gke-own-stack", (GKE_CLOUD, GKE_CLOUD_MIG), NONE),
    ("gke-operator-driver", (GKE_OPERATOR,), OPERATOR),
    ("bottlerocket-alone-without-a-stack", (EKS_BOTTLEROCKET,), NONE),
    ("no-pools", (), NONE),
    ("dra-pools-under-the-gpu-cluster", (EKS_DRA, EKS_DRA_KARPENTER), GPU_CLUSTER),
    ("mig-layout-pools-beside-the-gpu-cluster-external", (EKS_MIG_LAYOUT,), EXTERNAL),
]


def _matches(problem: Problem, expected: Expected) -> bool:
    return (
        problem.path == expected.path
        and all(word in problem.problem for word in expected.words)
        and problem.value == expected.value
        and all(word in problem.hint for word in expected.hint_words)
    )


@pytest.mark.parametrize("case", REFUSED, ids=lambda c: c.id)
def test_refused(case: Case) -> None:
    problems = stack_rules.stack_problems(case.pools, case.spec)
    rendered = [str(p) for p in problems]
    assert len(problems) == len(case.expected), rendered
    for expected in case.expected:
        assert any(_matches(p, expected) for p in problems), (expected, rendered)


@pytest.mark.parametrize(("name", "pools", "spec"), FITTING, ids=[f[0] for f in FITTING])
def test_fits(name: str, pools: tuple[GpuPoolSpec, ...], spec: GpuStackSpec) -> None:
    assert stack_rules.stack_problems(pools, spec) == []


def test_mig_single_and_mixed_problem_lists_the_allowed_strategies() -> None:
    (problem,) = stack_rules.stack_problems((EKS_MIG_SINGLE, EKS_MIG_MIXED), OPERATOR)
    assert problem.allowed == ("single", "mixed")


@pytest.mark.parametrize(
    ("pools", "names", "strategy"),
    [
        ((EKS_L4, EKS_TS), [], None),
        ((EKS_L4, EKS_MIG_SINGLE), ["a100s"], "single"),
        ((EKS_MIG_LAYOUT, EKS_MIG_MIXED), ["a100", "h100m"], "mixed"),
        ((AKS_CLOUD, AKS_MIG_MIXED), ["migm"], "mixed"),  # AKS makes the partitions, NVIDIA's plugin advertises them
        ((GKE_CLOUD, GKE_CLOUD_MIG), [], None),  # GKE's own plugin advertises GKE's partitions
    ],
)
def test_mig_pools_nvidia_advertises_and_their_strategy(
    pools: tuple[GpuPoolSpec, ...], names: list[str], strategy: str | None
) -> None:
    assert [p.name for p in mig_pools.nvidia_mig_pools(pools)] == names
    assert mig_pools.mig_strategy(pools) == strategy
