"""Driver and device-plugin ownership on elastic pools (issue #14), per provisioner, written by hand from the sources:

- EKS Karpenter: ``al2023@latest`` / ``bottlerocket@latest`` resolve to the NVIDIA AMIs, so ownership is the
  image's, exactly as for a node group.
- EKS Auto Mode: "includes the drivers and device plugins required", the NVIDIA device plugin "runs automatically and
  isn't visible as a daemon set" (EKS User Guide, "Deploy an accelerated workload"): nothing of NVIDIA's may add a
  second plugin; the GPU Operator only with driver, toolkit and device plugin left to Auto Mode.
- AKS NAP: AKSNodeClass ``gpu.mode`` ``Driver`` installs the driver, ``None`` skips it for a GPU Operator
  (karpenter-provider-azure v1.14.2 CRD); no device plugin comes with it: as an agent pool of the same driver owner.
- GKE ComputeClass: ``driverVersion`` only ``default`` / ``latest``: GKE's driver and device plugin, nothing of
  NVIDIA's.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import pytest

from gpuready.core.capacity.registry import provisioners
from gpuready.core.clouds.registry import Cloud, cloud_profile
from gpuready.core.gpu_stack import ownership
from gpuready.core.gpu_stack.kinds import STACK_KINDS, StackKind, stack_kind
from gpuready.core.gpu_stack.stack_plan import plan_gpu_stack
from gpuready.core.gpu_stack.stack_spec import GpuStackSpec
from gpuready.core.scheduling import pool_labels
from gpuready.core.specs import GpuPoolSpec
from gpuready.errors import SpecError

TYPES: dict[Cloud, str] = {"eks": "g6.12xlarge", "aks": "Standard_NC8as_T4_v3", "gke": "g2-standard-8"}


Verdicts = dict[StackKind, bool]
"""Whether each GPU stack kind serves the pool (for the DRA kinds the pool is a DRA pool: ``advertise: dra``)."""


class Row(NamedTuple):
    cloud: Cloud
    provisioner: str
    pool: dict[str, Any]
    """Pool keys beyond the cloud's instance type."""
    kind: StackKind
    ok: bool
    operator_driver: bool = False
    advertiser: str = "nvidia"


def _rows(cloud: Cloud, provisioner: str, pool: dict[str, Any], verdicts: Verdicts, **kw: Any) -> list[Row]:
    # The operator installs the driver only as the GPU Operator (``external``: yours must).
    return [Row(cloud, provisioner, pool, kind, ok,
                operator_driver=kw.get("operator_driver", False) and ok and kind == "gpu-operator",
                advertiser=kw.get("advertiser", "nvidia")) for kind, ok in verdicts.items()]  # fmt: skip


NVIDIA_ON_CLOUD_DRIVER: Verdicts = {
    "gpu-operator": True,
    "device-plugin": True,
    "none": False,
    "external": True,
    "dra-driver": True,
    "gpu-operator-dra": True,
}
NAP_OPERATOR = {"driver": "operator"}
NVIDIA_ON_OPERATOR: Verdicts = {
    "gpu-operator": True,
    "device-plugin": False,
    "none": False,
    "external": True,
    "dra-driver": False,
    "gpu-operator-dra": False,
}
OWN_PLUGIN: Verdicts = {
    "gpu-operator": True,
    "device-plugin": False,
    "none": True,
    "external": False,
    "dra-driver": False,
    "gpu-operator-dra": False,
}
GKE_MANAGED: Verdicts = {
    "gpu-operator": False,
    "device-plugin": False,
    "none": True,
    "external": False,
    "dra-driver": False,
    "gpu-operator-dra": False,
}

MATRIX: list[Row] = [
    *_rows("eks", "karpenter", {}, NVIDIA_ON_CLOUD_DRIVER),
    *_rows("eks", "karpenter", {"image": "bottlerocket"}, OWN_PLUGIN, advertiser="bottlerocket"),
    *_rows("eks", "eks-auto-mode", {}, OWN_PLUGIN, advertiser="eks-auto-mode"),
    *_rows("aks", "nap", {}, NVIDIA_ON_CLOUD_DRIVER),
    *_rows("aks", "nap", {"image": "azurelinux"}, NVIDIA_ON_CLOUD_DRIVER),
    *_rows("aks", "nap", NAP_OPERATOR, NVIDIA_ON_OPERATOR, operator_driver=True),
    *_rows("aks", "nap", {**NAP_OPERATOR, "image": "azurelinux"}, NVIDIA_ON_OPERATOR, operator_driver=True),
    *_rows("gke", "compute-class", {}, GKE_MANAGED, advertiser="gke-device-plugin"),
    *_rows("gke", "compute-class", {"image": "ubuntu"}, GKE_MANAGED, advertiser="gke-device-plugin"),
]


def _pool(row: Row) -> GpuPoolSpec:
    advertise = "dra" if stack_kind(row.kind).serves_dra else "device-plugin"
    return GpuPoolSpec(cloud=row.cloud, name="gpu", instance_type=TYPES[row.cloud], min_size=0, max_size=2,
                       provisioner=row.provisioner, advertise=advertise, **row.pool)  # fmt: skip


def _stack(kind: StackKind) -> GpuStackSpec:
    return GpuStackSpec(kind=kind, cluster_version="1.34" if stack_kind(kind).serves_dra else None)


def _id(row: Row) -> str:
    keys = ",".join(f"{k}={v}" for k, v in row.pool.items())
    return f"{row.cloud}-{row.provisioner}[{keys}]-{row.kind}"


def test_the_table_covers_every_elastic_provisioner_and_kind() -> None:
    elastic = {(p.cloud, p.key) for p in provisioners() if p.elastic}
    assert {(r.cloud, r.provisioner) for r in MATRIX} == elastic
    for platform in {(r.cloud, r.provisioner, tuple(r.pool.items())) for r in MATRIX}:
        assert sorted(r.kind for r in MATRIX if (r.cloud, r.provisioner, tuple(r.pool.items())) == platform) == sorted(
            STACK_KINDS
        )


@pytest.mark.parametrize("row", MATRIX, ids=_id)
def test_fit_of_an_elastic_pool(row: Row) -> None:
    pool = _pool(row)
    verdict = ownership.pool_fit(pool, stack_kind(row.kind))
    assert (verdict.ok, verdict.operator_driver) == (row.ok, row.operator_driver), verdict.summary
    assert pool.resolved.platform_plugin == row.advertiser
    assert verdict.summary and (verdict.ok or verdict.hint)


@pytest.mark.parametrize("row", MATRIX, ids=_id)
def test_the_stack_plan_agrees(row: Row) -> None:
    """Planning the stack over the pool accepts it or refuses it with the pool's platform named, provisioner too."""
    pool = _pool(row)
    if row.ok:
        plan = plan_gpu_stack(cloud_profile(row.cloud), [pool], _stack(row.kind))
        assert plan.pools[0].platform_plugin == row.advertiser
        return
    with pytest.raises(SpecError) as raised:
        plan_gpu_stack(cloud_profile(row.cloud), [pool], _stack(row.kind))
    assert any(f"provisioner: {row.provisioner}" in p.problem for p in raised.value.problems), str(raised.value)


@pytest.mark.parametrize("kind", ["device-plugin", "external"])
def test_no_second_device_plugin_on_eks_auto_mode_even_beside_karpenter_pools(kind: StackKind) -> None:
    auto = GpuPoolSpec(cloud="eks", name="auto", instance_type="g6e.12xlarge", min_size=0, max_size=2,
                       provisioner="eks-auto-mode")  # fmt: skip
    karpenter = GpuPoolSpec(cloud="eks", name="kp", instance_type="g6.12xlarge", min_size=0, max_size=2,
                            provisioner="karpenter")  # fmt: skip
    with pytest.raises(SpecError) as raised:
        plan_gpu_stack(cloud_profile("eks"), [karpenter, auto], GpuStackSpec(kind=kind))
    assert [p.problem.split(" (")[0] for p in raised.value.problems] == ["pool 'auto'"]
    assert "advertise the GPUs twice" in str(raised.value)


def test_the_operator_leaves_driver_toolkit_and_plugin_to_eks_auto_mode() -> None:
    auto = GpuPoolSpec(cloud="eks", name="auto", instance_type="g6e.12xlarge", min_size=0, max_size=2,
                       provisioner="eks-auto-mode")  # fmt: skip
    plan = plan_gpu_stack(cloud_profile("eks"), [auto], GpuStackSpec(kind="gpu-operator"))
    assert plan.release is not None
    assert (plan.release.values["driver"]["enabled"], plan.release.values["toolkit"]["enabled"]) == (False, False)
    labels = pool_labels(auto)
    for operand in ("driver", "container-toolkit", "device-plugin", "mig-manager"):
        assert labels[f"nvidia.com/gpu.deploy.{operand}"] == "false"
    karpenter = GpuPoolSpec(cloud="eks", name="kp", instance_type="g6.12xlarge", min_size=0, max_size=2,
                            provisioner="karpenter")  # fmt: skip
    assert not any(key.startswith("nvidia.com/gpu.deploy.") for key in pool_labels(karpenter))
