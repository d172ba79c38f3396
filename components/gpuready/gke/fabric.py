"""GKE: the GPUDirect machine families, what a pool on them needs, and the fabric's rules. Pure.

Facts, by machine type (GKE "Maximize GPU network bandwidth with GPUDirect and multi-networking",
https://cloud.google.com/kubernetes-engine/docs/how-to/gpu-bandwidth-gpudirect-tcpx, section "About GPU
supercomputers": A3 Mega up to eight secondary NICs, A3 High up to four, each for GPU data transfer; GKE "Run
AI/ML workloads with GPUDirect RDMA", https://cloud.google.com/kubernetes-engine/docs/how-to/gpu-bandwidth-gpudirect-rdma:
A3 Ultra and A4 nodes take one more gVNIC network and eight RDMA subnets of a VPC with the RoCE network profile):
- ``a3-highgpu-8g``: GPUDirect-TCPX, 4 additional node networks (the pods' ``eth1``-``eth4``,
  GoogleCloudPlatform/container-engine-accelerators ``gpudirect-tcpx/nccl-test-latest.yaml``);
- ``a3-megagpu-8g``: GPUDirect-TCPXO, 8 additional node networks (``eth1``-``eth8``, ``gpudirect-tcpxo/
  nccl-test-latest.yaml``); a gVNIC network besides them takes a GPU NIC's slot (NVIDIA AI Cluster Runtime, "GKE
  TCPXO Networking Prerequisites"), so there are exactly eight;
- ``a3-ultragpu-8g`` (H200) and ``a4-highgpu-8g`` (B200): GPUDirect-RDMA, 1 gVNIC + 8 RDMA networks;
- ``a4x-highgpu-4g`` (A4X: 4 x GB200, arm64; not in the GKE catalog, so its pools describe ``gpu: {model: gb200,
  count: 4}``): GPUDirect-RDMA, 1 gVNIC + 4 RDMA networks (Google's ``gpudirect-rdma/nccl-test-imex-a4x.yaml`` @992db81
  attaches rdma-0..rdma-3 as eth2-eth5), Google's arm64 installer (``nccl-rdma-installer-a4x.yaml``), and a
  Compute Engine workload policy instead of gpuready's compact placement (required for A4X: Compute Engine "About
  workload policies"; GoogleCloudPlatform/cluster-toolkit@1047080 ``examples/gke-a4x/gke-a4x.yaml`` L223-235 makes
  one, HIGH_THROUGHPUT with accelerator topology 1x72, and ``modules/compute/resource-policy/outputs.tf`` L26-27
  hands it to the node pool as ``placement_policy {type: COMPACT, policy_name}``): its ``placementGroup`` must name
  it. A4X capacity is reservation-bound; multi-node NVLink needs an IMEX ComputeDomain, which gpuready does not make.
The NCCL plugin installer of each kind selects these machines' accelerators (``gke_installers``). The smaller A3
High sizes (``-1g``/``-2g``/``-4g``) have no GPUDirect (the TCPX installer selects H100 nodes, the guide 8-GPU ones).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from gpuready.core.fabric.model import CREATE, FabricKind, TypeFabric
from gpuready.errors import Problem
from gpuready.record import record

if TYPE_CHECKING:
    from gpuready.core.specs import GpuPoolSpec

GUIDE = "https://cloud.google.com/kubernetes-engine/docs/how-to/gpu-bandwidth-gpudirect-tcpx"
RDMA_GUIDE = "https://cloud.google.com/kubernetes-engine/docs/how-to/gpu-bandwidth-gpudirect-rdma"
COMPACT_GUIDE = "https://cloud.google.com/kubernetes-engine/docs/how-to/compact-placement"
A4X_TEST = "GoogleCloudPlatform/container-engine-accelerators@992db81 gpudirect-rdma/nccl-test-imex-a4x.yaml"


@record(frozen=True, slots=True)
class GpuDirect:
    """What one GPUDirect machine type needs of its node pool."""

    kind: FabricKind
    gvnic_networks: int
    """Additional gVNIC node networks (``deviceMode: NetDevice``)."""
    rdma_networks: int
    """Additional RDMA node networks (``deviceMode: RDMA``), after the gVNIC ones."""
    source: str
    installer: str = ""
    """Key of Google's NCCL plugin installer in ``nccl_installers.json``: "" for the kind's own."""
    workload_policy: bool = False
    """The machine's node pools need a Compute Engine workload policy (named by ``placementGroup``), not a compact
    placement policy of gpuready's."""

    @property
    def installer_key(self) -> str:
        return self.installer or self.kind

    @property
    def networks(self) -> int:
        return self.gvnic_networks + self.rdma_networks


GPUDIRECT: Mapping[str, GpuDirect] = {
    "a3-highgpu-8g": GpuDirect("gpudirect-tcpx", 4, 0, f"{GUIDE} (A3 High: four secondary NICs)"),
    "a3-megagpu-8g": GpuDirect("gpudirect-tcpxo", 8, 0, f"{GUIDE} (A3 Mega: eight secondary NICs)"),
    "a3-ultragpu-8g": GpuDirect("gpudirect-rdma", 1, 8, f"{RDMA_GUIDE} (A3 Ultra: gVNIC + 8 RDMA)"),
    "a4-highgpu-8g": GpuDirect("gpudirect-rdma", 1, 8, f"{RDMA_GUIDE} (A4: gVNIC + 8 RDMA)"),
    "a4x-highgpu-4g": GpuDirect(
        "gpudirect-rdma",
        1,
        4,
        f"{RDMA_GUIDE} (A4X: gVNIC + 4 RDMA; {A4X_TEST}: rdma-0..rdma-3 on eth2-eth5)",
        installer="gpudirect-rdma-a4x",
        workload_policy=True,
    ),
}
"""GKE machine types with GPUDirect and the additional node networks each needs."""
TYPES: Mapping[str, TypeFabric] = {
    name: TypeFabric(kind=facts.kind, devices=facts.rdma_networks or facts.gvnic_networks)
    for name, facts in GPUDIRECT.items()
}
"""GKE machine type -> its fabric: the GPU NICs (the TCPX/TCPXO gVNICs, or the RDMA NICs) are its devices."""
NETWORK_COUNTS: Mapping[str, int] = {name: facts.networks for name, facts in GPUDIRECT.items()}
WORKLOAD_POLICIES = "https://cloud.google.com/compute/docs/instance-groups/about-workload-policies"

GCE_NAME = re.compile(r"^[a-z](?:[-a-z0-9]{0,61}[a-z0-9])?\Z")
"""A GCE network or subnetwork name (RFC 1035, at most 63 characters): also a valid name for the cluster's
``Network`` / ``GKENetworkParamSet`` objects, which are named after the subnetwork."""
COMPACT = "COMPACT"
"""``placementPolicy.type`` of a compact placement (pulumi_gcp ``NodePoolPlacementPolicy``)."""


def pool_problems(spec: GpuPoolSpec, instance_type: str) -> list[Problem]:
    """A GPUDirect pool's own needs: the default node pool provisioner, its networks one per NIC, one zone for
    compact placement, and no queued provisioning with it."""
    fabric = spec.fabric
    facts = GPUDIRECT.get(instance_type)
    if fabric is None or facts is None:
        return []
    problems: list[Problem] = []
    if spec.provisioner not in (None, "node-pool"):
        problems.append(
            Problem(
                "fabric", "GPUDirect needs a node pool of gpuready's (its networks are node pool inputs)",
                spec.provisioner, ("node-pool",), "remove provisioner, or remove fabric",
            )
        )  # fmt: skip
    problems.extend(_network_problems(spec, instance_type, facts))
    if facts.workload_policy and fabric.placement_group in (None, CREATE):
        problems.append(
            Problem(
                "fabric.placementGroup", f"{instance_type} node pools need a Compute Engine workload policy (type "
                "HIGH_THROUGHPUT with the rack's accelerator topology), made outside gpuready; a compact placement "
                "policy of gpuready's does not do", fabric.placement_group, (),
                f"create one (gcloud compute resource-policies create workload-policy NAME --type HIGH_THROUGHPUT "
                f"--accelerator-topology 1x72) and name it: placementGroup: NAME ({WORKLOAD_POLICIES})",
            )
        )  # fmt: skip
    if len(spec.zones) > 1:
        problems.append(
            Problem(
                "zones", "a compact placement keeps a GPUDirect pool's nodes in one zone", list(spec.zones), (),
                f"name one zone ({COMPACT_GUIDE})",
            )
        )  # fmt: skip
    problems.extend(
        Problem(f"overrides.{path}", "owned by fabric on a GPUDirect pool", None, (), "set fabric instead")
        for path in FABRIC_INPUTS
        if _overridden(spec.overrides, path)
    )
    queued = spec.overrides.get("queuedProvisioning")
    if isinstance(queued, Mapping) and queued.get("enabled") is True:
        problems.append(
            Problem(
                "overrides.queuedProvisioning", "queued provisioning does not take a compact placement policy",
                True, (), f"remove queuedProvisioning from a fabric pool ({COMPACT_GUIDE})",
            )
        )  # fmt: skip
    return problems


FABRIC_INPUTS = ("nodeConfig.gvnic", "networkConfig.additionalNodeNetworkConfigs", "placementPolicy")
"""``container.NodePool`` inputs a GPUDirect pool's ``fabric`` decides (refused as its overrides; free elsewhere)."""


def stack_zone_problems(node_locations: Sequence[str], pools: Sequence[GpuPoolSpec], prefix: str) -> list[Problem]:
    """A GPUDirect pool without zones of its own spans the stack's ``gkeNodeLocations``: one zone at most, for its
    compact placement."""
    return [
        Problem(
            f"{prefix}nodePools[{index}].zones", "a compact placement keeps a GPUDirect pool's nodes in one zone, and "
            f"this pool takes the stack's {len(node_locations)} gkeNodeLocations", list(node_locations), (),
            f"give the pool zones: [{node_locations[0]}] ({COMPACT_GUIDE})",
        )
        for index, pool in enumerate(pools)
        if pool.fabric is not None and not pool.zones and len(node_locations) > 1
        and pool.resolved.gpu.instance_type in GPUDIRECT
    ]  # fmt: skip


def node_pool_inputs(spec: GpuPoolSpec) -> dict[str, object]:
    """What a GPUDirect pool adds to its ``container.NodePool`` arguments (pulumi_gcp spelling): gVNIC on (GKE's
    guide creates the pool with ``--enable-gvnic``), the additional node networks in NIC order, and a compact
    placement (its own, or the resource policy ``placementGroup`` names)."""
    fabric = spec.fabric
    if fabric is None:
        return {}
    placement: dict[str, str] = {"type": COMPACT}
    if fabric.placement_group not in (None, CREATE):  # ``create``: the compact policy of the pool's own
        placement["policy_name"] = fabric.placement_group
    return {
        "gvnic": {"enabled": True},
        "network_config": {
            "additional_node_network_configs": [
                {"network": n.network, "subnetwork": n.subnetwork} for n in fabric.networks
            ]
        },
        "placement_policy": placement,
    }


def _overridden(overrides: Mapping[str, object], path: str) -> bool:
    node: object = overrides
    for part in path.split("."):
        if not isinstance(node, Mapping) or part not in node:
            return False
        node = node[part]
    return True


def _network_problems(spec: GpuPoolSpec, instance_type: str, facts: GpuDirect) -> list[Problem]:
    assert spec.fabric is not None
    networks = spec.fabric.networks
    problems: list[Problem] = []
    if len(networks) != facts.networks:
        split = f" ({facts.gvnic_networks} gVNIC, then {facts.rdma_networks} RDMA)" if facts.rdma_networks else ""
        problems.append(
            Problem(
                "fabric.networks",
                f"{instance_type} needs exactly {facts.networks} additional node networks{split} for "
                f"{facts.kind}, one per extra NIC",
                len(networks),
                (str(facts.networks),),
                "list {network: <vpc>, subnetwork: <subnet>} once per NIC, in NIC order (" + facts.source + ")",
            )
        )
    seen: set[str] = set()
    for index, network in enumerate(networks):
        for key, value in (("network", network.network), ("subnetwork", network.subnetwork)):
            if not GCE_NAME.match(value):
                problems.append(
                    Problem(f"fabric.networks[{index}].{key}", "is not a GCE resource name", value, (),
                            "1-63 lowercase letters, digits or '-', starting with a letter (the name, not a URL)")
                )  # fmt: skip
        if network.subnetwork in seen:
            problems.append(
                Problem(f"fabric.networks[{index}].subnetwork", "each NIC needs its own subnetwork",
                        network.subnetwork)
            )  # fmt: skip
        seen.add(network.subnetwork)
    return problems
