"""AKS: the ND-series VM sizes with InfiniBand, and what a pool using it needs. Pure.

Facts (Microsoft Learn, "Sizes in Azure: GPU accelerated", https://learn.microsoft.com/azure/virtual-machines/sizes/
gpu-accelerated/<series>): ND A100 v4 (``ndasra100v4-series``) and NDm A100 v4 (``ndma100v4-series``) give each of
the 8 GPUs a 200 Gb/s HDR InfiniBand link; ND H100 v5 (``ndh100v5-series``) and ND H200 v5 (``ndh200v5-series``)
a 400 Gb/s NDR (Quantum-2 CX7) link, "configured automatically between VMs occupying the same virtual machine
scale set" (an AKS node pool is one). ND MI300X v5 has InfiniBand too but AMD GPUs, outside gpuready's catalog.

How the fabric reaches the pods: the witness is Azure/aks-rdma-infiniband (700dabb, ``website/docs/getting-started/
02-prerequisites.md``: Ubuntu nodes, ``--gpu-driver none`` with the GPU Operator owning the driver;
``configs/values/gpu-operator/values.yaml`` L3-6: ``driver.rdma.enabled: true`` for GPUDirect RDMA;
``configs/nicclusterpolicy/``: NVIDIA's Network Operator with its DOCA/OFED driver and the RDMA shared device
plugin). gpuready keeps its one-driver-owner rule: an InfiniBand pool's driver is the GPU Operator's.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from gpuready.core.fabric.model import TypeFabric
from gpuready.errors import Problem

if TYPE_CHECKING:
    from gpuready.core.specs import GpuPoolSpec

LEARN = "https://learn.microsoft.com/azure/virtual-machines/sizes/gpu-accelerated"
RECIPE = "Azure/aks-rdma-infiniband@700dabb4fe0451d482ae09a373617ed68658b021"

INFINIBAND: Mapping[str, str] = {
    "Standard_ND96asr_v4": f"{LEARN}/ndasra100v4-series (8x 200 Gb/s HDR)",
    "Standard_ND96amsr_A100_v4": f"{LEARN}/ndma100v4-series (8x 200 Gb/s HDR)",
    "Standard_ND96isr_H100_v5": f"{LEARN}/ndh100v5-series (8x 400 Gb/s NDR)",
    "Standard_ND96isr_H200_v5": f"{LEARN}/ndh200v5-series (8x 400 Gb/s NDR)",
}
"""AKS VM sizes of gpuready's catalog with InfiniBand, and the source of each."""
HCAS = 8
"""InfiniBand HCAs of each of these sizes (the sources above: 8x HDR or NDR)."""
TYPES: Mapping[str, TypeFabric] = {name: TypeFabric(kind="infiniband", devices=HCAS) for name in INFINIBAND}
"""AKS VM size -> its fabric."""


def pool_problems(spec: GpuPoolSpec, instance_type: str) -> list[Problem]:
    """An InfiniBand pool's own needs: the default provisioner, Ubuntu nodes, the GPU Operator's driver (with
    GPUDirect RDMA), no placement group or networks of its own."""
    fabric = spec.fabric
    if fabric is None or instance_type not in INFINIBAND:
        return []
    problems: list[Problem] = []
    if spec.provisioner not in (None, "node-pool"):
        problems.append(
            Problem("fabric", "InfiniBand needs a node pool of gpuready's (one scale set)", spec.provisioner,
                    ("node-pool",), "remove provisioner, or remove fabric")
        )  # fmt: skip
    if spec.image_family != "ubuntu":
        problems.append(
            Problem("image", "InfiniBand on AKS runs on Ubuntu nodes (NVIDIA's DOCA driver build)", spec.image,
                    ("ubuntu",), f"set image: ubuntu ({RECIPE} 02-prerequisites.md)")
        )  # fmt: skip
    if spec.driver != "operator":
        problems.append(
            Problem(
                "driver", "InfiniBand with GPUDirect RDMA needs the GPU Operator's driver (driver.rdma), so AKS "
                "installs none", spec.driver, ("operator",),
                f"set driver: operator and a gpu-operator gpuStack with the network operator ({RECIPE})",
            )
        )  # fmt: skip
    if fabric.placement_group is not None:
        problems.append(
            Problem("fabric.placementGroup", "AKS places an InfiniBand pool's VMs on one fabric itself (one scale "
                    "set)", fabric.placement_group, (), "remove placementGroup")
        )  # fmt: skip
    if fabric.networks:
        problems.append(
            Problem("fabric.networks", "AKS pools take no additional node networks (GKE only)",
                    len(fabric.networks), (), "remove networks")
        )  # fmt: skip
    return problems


def stack_problems(spec: GpuPoolSpec, stack_kind: str) -> list[Problem]:
    """An InfiniBand pool needs the GPU Operator release (its driver, with GPUDirect RDMA); the Network Operator
    comes with the fabric (``network_operator``)."""
    if spec.fabric is None or spec.fabric.kind != "infiniband" or stack_kind == "gpu-operator":
        return []
    return [
        Problem(
            "gpuStack.kind", f"pool {spec.name!r} has InfiniBand, whose GPUDirect RDMA needs the GPU Operator's driver",
            stack_kind, ("gpu-operator",), f"set gpuStack: {{kind: gpu-operator}} ({RECIPE})",
        )
    ]  # fmt: skip
