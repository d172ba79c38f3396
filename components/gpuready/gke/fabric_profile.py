"""GKE's fabric facts and hooks (``core.fabric.CloudFabric``), set on ``GkeProfile`` as ``fabric``. Pure."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from gpuready.core.fabric.model import CREATE, CloudFabric, FabricSpec, FabricWorkload, TypeFabric
from gpuready.errors import Problem
from gpuready.gke import fabric, fabric_objects, gib
from gpuready.gke.rxdm import RXDM

if TYPE_CHECKING:
    from gpuready.core.specs import GpuPoolSpec


class GkeFabric(CloudFabric):
    """GPUDirect-TCPX / -TCPXO / -RDMA on GKE's A3 and A4 machines."""

    types: Mapping[str, TypeFabric] = fabric.TYPES
    networks = fabric.NETWORK_COUNTS
    policy_networks_field = "networkConfig.additionalNodeNetworkConfigs"
    # Google's NCCL net plugins: GPUDirectTCPX (logged with its version, "GPUDirectTCPX_v7";
    # GoogleCloudPlatform/nccl-plugin-gpudirecttcpx), FasTrak for TCPXO and gIB for RDMA (GKE / Compute Engine docs,
    # "Enable GPUDirect-TCPXO" and "NCCL log format": "NCCL INFO Using network FasTrak", "Using network gIB").
    nccl_networks = {"gpudirect-tcpx": ("GPUDirectTCPX",), "gpudirect-tcpxo": ("FasTrak",), "gpudirect-rdma": ("gIB",)}
    # No ``nccl_images``: the plugin is on the node (Google's installer DaemonSets) and reaches the pod through the
    # workload helper's mounts and LD_LIBRARY_PATH, as in Google's own test pods, whose workload images
    # (GoogleCloudPlatform/container-engine-accelerators gpudirect-tcpx/nccl-test-latest.yaml at 0e5609b:
    # nccl-plugin-gpudirecttcpx-dev:v3.1.9; gpudirect-tcpxo/nccl-test-latest.yaml at 089e022:
    # nccl-plugin-gpudirecttcpx-dev:v1.0.3) are NCCL-test images without torchrun and set
    # LD_LIBRARY_PATH=/usr/local/nvidia/lib64 from the node: the generic PyTorch default serves.
    default_placement = CREATE  # a compact placement policy of the pool's own (``fabric.node_pool_inputs``)

    def problems(self, spec: GpuPoolSpec, fabric_spec: FabricSpec) -> list[Problem]:
        return fabric.pool_problems(spec, self.type_of(spec, fabric_spec))

    def cluster_objects(self, pools: Sequence[GpuPoolSpec]) -> list[Mapping[str, Any]]:
        return fabric_objects.fabric_objects(pools)

    def workload(self, spec: GpuPoolSpec, share: Fraction) -> FabricWorkload:
        if spec.fabric is not None and spec.fabric.kind == "gpudirect-rdma":  # Google's gIB plugin, no sidecar
            return FabricWorkload(annotations=fabric_objects.pod_annotations(spec), volumes=gib.VOLUMES,
                                  container=gib.CONTAINER, shell_setup=gib.SHELL_SETUP)  # fmt: skip
        rxdm = RXDM.get(spec.fabric.kind) if spec.fabric is not None else None
        return FabricWorkload(
            annotations=fabric_objects.pod_annotations(spec),
            sidecars=() if rxdm is None else (rxdm.sidecar,),
            volumes=() if rxdm is None else tuple(rxdm.volumes),
            container={} if rxdm is None else rxdm.container,
        )

    def devices(self, spec: GpuPoolSpec) -> int:
        found = self.types.get(spec.resolved.gpu.instance_type)
        return 0 if found is None else found.devices


FABRIC = GkeFabric()
