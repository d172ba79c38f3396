"""Plans over realistic pool sets, table-driven: every cloud, both charts, sharing, MPS, MIG (single, mixed, named
and custom layouts), Bottlerocket, operator-owned drivers, user taints, elastic pools (Karpenter, EKS Auto Mode,
AKS NAP), and the release setting variants.

Shared by the values-key fidelity test (``tests/fidelity/test_gpu_stack_values.py``) and the real-Helm rendering
tests (``tests/gpu_stack/test_rendered_releases.py``).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from gpuready.core.catalog.lookup import ExplicitGpu
from gpuready.core.clouds.registry import Cloud, cloud_profile
from gpuready.core.gpu_stack.stack_plan import GpuStackPlan, plan_gpu_stack
from gpuready.core.gpu_stack.stack_spec import GpuStackSpec
from gpuready.core.specs import GpuPoolSpec, GpuSharing, MigPartitioning
from gpuready.core.taints import Taint

DEDICATED = Taint(key="dedicated", value="ml", effect="NoExecute")
EKS_TS = GpuPoolSpec(
    cloud="eks", name="l4-ts", instance_type="g6.12xlarge", min_size=0, max_size=4, capacity="spot",
    sharing=GpuSharing(mode="time-slicing", replicas=4, fail_requests_greater_than_one=True), taints=(DEDICATED,),
)  # fmt: skip
EKS_MPS = GpuPoolSpec(
    cloud="eks", name="l4-mps", instance_type="g6.xlarge", min_size=0, max_size=2,
    sharing=GpuSharing(mode="mps", replicas=2),
)  # fmt: skip
EKS_MIG_PROFILE = GpuPoolSpec(
    cloud="eks", name="a100-mig", instance_type="p4d.24xlarge", min_size=0, max_size=1,
    sharing=MigPartitioning(profile="1g.5gb", strategy="mixed"),
)  # fmt: skip
EKS_MIG_BALANCED = GpuPoolSpec(
    cloud="eks", name="h100-balanced", instance_type="p5.48xlarge", min_size=0, max_size=2,
    sharing=MigPartitioning(layout="all-balanced", strategy="mixed"),
)  # fmt: skip
EKS_MIG_CUSTOM = GpuPoolSpec(
    cloud="eks", name="h100-custom", instance_type="p5.48xlarge", min_size=0, max_size=2,
    sharing=MigPartitioning(layout={"1g.10gb": 3, "4g.40gb": 1}, strategy="mixed"),
    taints=(Taint(key="example.com/research", value="yes"),),
)  # fmt: skip
EKS_MIG_SINGLE = GpuPoolSpec(
    cloud="eks", name="a100-single", instance_type="p4d.24xlarge", min_size=0, max_size=1,
    sharing=MigPartitioning(profile="3g.20gb"),
)  # fmt: skip
EKS_BOTTLEROCKET = GpuPoolSpec(
    cloud="eks", name="a10g-br", instance_type="g5.2xlarge", min_size=0, max_size=3, image="bottlerocket",
    labels={"example.com/team": "inference"},
)  # fmt: skip
EKS_PLAIN = GpuPoolSpec(cloud="eks", name="l4", instance_type="g6.xlarge", min_size=0, max_size=2)
AKS_TS = GpuPoolSpec(
    cloud="aks", name="t4shared", instance_type="Standard_NC8as_T4_v3", min_size=0, max_size=4,
    sharing=GpuSharing(mode="time-slicing", replicas=2),
)  # fmt: skip
AKS_MIG = GpuPoolSpec(
    cloud="aks", name="a100mig", instance_type="Standard_NC24ads_A100_v4", min_size=0, max_size=2,
    sharing=MigPartitioning(profile="1g.10gb", strategy="mixed"),
)  # fmt: skip
AKS_SPOT = GpuPoolSpec(
    cloud="aks", name="h100spot", instance_type="Standard_NC40ads_H100_v5", min_size=0, max_size=2, capacity="spot",
    taints=(Taint(key="workload", value="batch"),),
)  # fmt: skip
AKS_MPS = GpuPoolSpec(
    cloud="aks", name="t4mps", instance_type="Standard_NC4as_T4_v3", min_size=0, max_size=2,
    sharing=GpuSharing(mode="mps", replicas=4),
)  # fmt: skip
AKS_OPERATOR_MPS = GpuPoolSpec(
    cloud="aks", name="t4op", instance_type="Standard_NC4as_T4_v3", min_size=0, max_size=2, image="azurelinux",
    driver="operator", sharing=GpuSharing(mode="mps", replicas=2),
)  # fmt: skip
AKS_OPERATOR_MIG = GpuPoolSpec(
    cloud="aks", name="a100op", instance_type="Standard_NC24ads_A100_v4", min_size=0, max_size=2, driver="operator",
    sharing=MigPartitioning(layout={"3g.40gb": 1, "4g.40gb": 1}, strategy="mixed"),
)  # fmt: skip
AKS_OPERATOR_PLAIN = GpuPoolSpec(
    cloud="aks", name="t4opspot", instance_type="Standard_NC16as_T4_v3", min_size=0, max_size=2, driver="operator",
    capacity="spot",
)  # fmt: skip
GKE_OPERATOR_TS = GpuPoolSpec(
    cloud="gke", name="l4-ts", instance_type="g2-standard-24", image="ubuntu", driver="operator", min_size=0,
    max_size=4, sharing=GpuSharing(mode="time-slicing", replicas=4, rename_by_default=True),
)  # fmt: skip
GKE_OPERATOR_MIG = GpuPoolSpec(
    cloud="gke", name="h100-mig", instance_type="a3-highgpu-8g", image="ubuntu", driver="operator", min_size=0,
    max_size=2, sharing=MigPartitioning(layout={"1g.10gb": 3, "4g.40gb": 1}, strategy="mixed"),
)  # fmt: skip
GKE_OPERATOR_MPS = GpuPoolSpec(
    cloud="gke", name="t4-mps", instance_type="n1-standard-8", gpu=ExplicitGpu(model="t4", count=1), image="ubuntu",
    driver="operator", min_size=0, max_size=3, capacity="spot", sharing=GpuSharing(mode="mps", replicas=2),
)  # fmt: skip

# Elastic pools (issue #14): the same GPU stack over Karpenter, EKS Auto Mode and AKS NAP nodes.
EKS_KARPENTER_TS = GpuPoolSpec(
    cloud="eks", name="l4-karpenter", instance_type="g6.12xlarge", min_size=0, max_size=4, provisioner="karpenter",
    capacity="spot", sharing=GpuSharing(mode="time-slicing", replicas=4),
)  # fmt: skip
EKS_KARPENTER_MIG = GpuPoolSpec(
    cloud="eks", name="h100-karpenter", instance_type="p5.48xlarge", min_size=0, max_size=1, provisioner="karpenter",
    sharing=MigPartitioning(profile="1g.10gb", strategy="mixed"),
)  # fmt: skip
EKS_AUTO_MODE = GpuPoolSpec(
    cloud="eks", name="l40s-auto", instance_type="g6e.12xlarge", min_size=0, max_size=2, provisioner="eks-auto-mode",
)  # fmt: skip
AKS_NAP_TS = GpuPoolSpec(
    cloud="aks", name="t4nap", instance_type="Standard_NC8as_T4_v3", min_size=0, max_size=4, provisioner="nap",
    sharing=GpuSharing(mode="time-slicing", replicas=2),
)  # fmt: skip
AKS_NAP_OPERATOR_MIG = GpuPoolSpec(
    cloud="aks", name="a100nap", instance_type="Standard_NC24ads_A100_v4", min_size=0, max_size=2, provisioner="nap",
    driver="operator", sharing=MigPartitioning(profile="1g.10gb", strategy="mixed"),
)  # fmt: skip
AKS_NAP_OPERATOR_SPOT = GpuPoolSpec(
    cloud="aks", name="h100nap", instance_type="Standard_NC40ads_H100_v5", min_size=0, max_size=2, provisioner="nap",
    driver="operator", capacity="spot",
)  # fmt: skip


@dataclass(frozen=True)
class PoolSet:
    cloud: Cloud
    pools: tuple[GpuPoolSpec, ...]
    kinds: tuple[str, ...]
    """The charts that fit these pools."""

    @property
    def has_mps(self) -> bool:
        return any(isinstance(p.sharing, GpuSharing) and p.sharing.mode == "mps" for p in self.pools)


POOL_SETS: dict[str, PoolSet] = {
    "eks-al2023-and-bottlerocket-mig-ts": PoolSet(
        "eks", (EKS_TS, EKS_MIG_PROFILE, EKS_MIG_BALANCED, EKS_MIG_CUSTOM, EKS_BOTTLEROCKET), ("gpu-operator",)
    ),
    # MPS beside MIG only with strategy single (the plugin refuses MPS with mixed: stack_rules).
    "eks-mig-single-mps": PoolSet("eks", (EKS_MIG_SINGLE, EKS_MPS), ("gpu-operator",)),
    "eks-named-mig-layouts-only": PoolSet("eks", (EKS_PLAIN, EKS_MIG_PROFILE, EKS_MIG_BALANCED), ("gpu-operator",)),
    "eks-mig-single": PoolSet("eks", (EKS_MIG_SINGLE, EKS_TS), ("gpu-operator",)),
    "eks-bottlerocket-only": PoolSet("eks", (EKS_BOTTLEROCKET,), ("gpu-operator",)),
    "eks-al2023-ts-mps": PoolSet("eks", (EKS_TS, EKS_MPS), ("gpu-operator", "device-plugin")),
    "eks-al2023-ts": PoolSet("eks", (EKS_TS, EKS_PLAIN), ("gpu-operator", "device-plugin")),
    "aks-cloud-driver": PoolSet("aks", (AKS_TS, AKS_MIG, AKS_SPOT), ("gpu-operator", "device-plugin")),
    "aks-cloud-driver-mps": PoolSet("aks", (AKS_MPS, AKS_SPOT), ("gpu-operator", "device-plugin")),
    "aks-operator-driver": PoolSet("aks", (AKS_OPERATOR_MIG, AKS_OPERATOR_PLAIN), ("gpu-operator",)),
    # One OS image per operator-installed driver (stack_rules): Azure Linux pools on their own.
    "aks-operator-driver-azurelinux-mps": PoolSet("aks", (AKS_OPERATOR_MPS,), ("gpu-operator",)),
    "gke-operator-driver-custom-mig": PoolSet("gke", (GKE_OPERATOR_TS, GKE_OPERATOR_MIG), ("gpu-operator",)),
    "gke-operator-driver-mps": PoolSet("gke", (GKE_OPERATOR_MPS, GKE_OPERATOR_TS), ("gpu-operator",)),
    # EKS Auto Mode brings its own driver and device plugin: the operator only, with those operands off there.
    "eks-karpenter-and-auto-mode": PoolSet(
        "eks", (EKS_KARPENTER_TS, EKS_KARPENTER_MIG, EKS_AUTO_MODE, EKS_PLAIN), ("gpu-operator",)
    ),
    "eks-karpenter-ts": PoolSet("eks", (EKS_KARPENTER_TS, EKS_TS), ("gpu-operator", "device-plugin")),
    "aks-nap-cloud-driver": PoolSet("aks", (AKS_NAP_TS, AKS_TS), ("gpu-operator", "device-plugin")),
    "aks-nap-operator-driver": PoolSet("aks", (AKS_NAP_OPERATOR_MIG, AKS_NAP_OPERATOR_SPOT), ("gpu-operator",)),
}
RELEASE_OVERRIDES: dict[str, dict[str, Any]] = {
    "gpu-operator": {
        "namespace": "gpu-system", "release_name": "nvidia-gpu", "chart_version": "v26.3.3",
        "repository": "https://nvidia.github.io/gpu-operator/stable", "timeout_seconds": 3600,
    },
    "device-plugin": {
        "namespace": "gpu-system", "release_name": "nvdp", "chart_version": "0.19.3",
        "repository": "oci://registry.example.com/charts", "timeout_seconds": 1800,
    },
}  # fmt: skip
SPEC_VARIANTS: dict[str, dict[str, dict[str, Any]]] = {
    "gpu-operator": {
        "defaults": {},
        "nfd-existing": {"nfd": "existing"},
        "no-mig-reboot": {"mig_reboot": False},
        "custom-release": RELEASE_OVERRIDES["gpu-operator"],
        "custom-release-nfd-existing": {**RELEASE_OVERRIDES["gpu-operator"], "nfd": "existing", "mig_reboot": False},
    },
    "device-plugin": {
        "defaults": {},
        "nfd-existing": {"nfd": "existing"},
        "gfd-off": {"gfd": False},
        "gfd-off-nfd-existing": {"gfd": False, "nfd": "existing"},
        "custom-release": RELEASE_OVERRIDES["device-plugin"],
    },
}


@dataclass(frozen=True)
class Scenario:
    id: str
    pool_set: PoolSet
    kind: str
    spec: dict[str, Any]

    def plan(self) -> GpuStackPlan:
        return plan_gpu_stack(
            cloud_profile(self.pool_set.cloud), self.pool_set.pools, GpuStackSpec(kind=self.kind, **self.spec)
        )


def _scenarios() -> Iterator[Scenario]:
    for set_id, pool_set in POOL_SETS.items():
        for kind in pool_set.kinds:
            for variant_id, spec in SPEC_VARIANTS[kind].items():
                if kind == "device-plugin" and spec.get("gfd") is False and pool_set.has_mps:
                    continue  # MPS needs GFD (its own refusal, tested with the stack rules)
                yield Scenario(f"{set_id}/{kind}/{variant_id}", pool_set, kind, spec)


SCENARIOS = list(_scenarios())
