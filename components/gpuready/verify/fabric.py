"""Check that a fabric pool's node advertises its fabric devices (EFA interfaces, RDMA devices). Pure: no I/O.

What the node should advertise, and the cloud's advice when it does not, come with the expectation
(``Expectation.fabric``, from the pool's ``CloudFabric.node_fabric``): the same facts table that sized the pool's
launch template or NicClusterPolicy, so the check cannot drift from what was deployed. A node that advertises none
of a fabric resource has no device plugin running (or no fabric attached): NCCL would fall back to TCP sockets there.
A node no known pool owns is held to its instance type's fabric only when a fabric device plugin registered its
resource there (``infer_node_fabric``).

GKE's GPUDirect nodes have no such resource: Google's NCCL test manifests request only ``nvidia.com/gpu`` and
name the extra interfaces in the ``networking.gke.io/interfaces`` pod annotation
(GoogleCloudPlatform/container-engine-accelerators ``gpudirect-tcpxo/nccl-test-latest.yaml``), so ``GkeFabric``
gives no ``resources`` and its nodes get no fabric check here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gpuready.core.clouds.registry import cloud_profiles
from gpuready.core.fabric.model import NodeFabric
from gpuready.verify import findings as f
from gpuready.verify.findings import Finding, Severity, show_node
from gpuready.verify.inference import instance_type_of
from gpuready.verify.nodes import NodeView

if TYPE_CHECKING:
    from gpuready.verify.expectations import Expectation


def infer_node_fabric(view: NodeView) -> NodeFabric | None:
    """For a node no known pool owns (``gpuready check``): the fabric devices its instance type has, when the node
    shows its fabric is meant to be set up (a fabric device plugin registered its resource in the node's capacity);
    None otherwise (a fabric-capable type used without its fabric is not a finding)."""
    name = instance_type_of(view)
    for profile in cloud_profiles():
        fabric = profile.fabric
        fold = profile.instance_types_fold_case
        listed = next((k for k in fabric.types if (k.lower() == name.lower() if fold else k == name)), None)
        if listed is None or not any(resource in view.capacity for resource in fabric.resource_names):
            continue
        missing, short = fabric.node_causes
        return NodeFabric(kind=fabric.types[listed].kind, resources=fabric.type_resources(listed),
                          missing_cause=missing, short_cause=short, fix=fabric.node_fix)  # fmt: skip
    return None


def check_fabric(view: NodeView, expectation: Expectation) -> list[Finding]:
    """Findings for a fabric resource ``view`` does not advertise as allocatable, or advertises fewer of than its
    pool's type has; none for a node without an expected fabric."""
    fabric = expectation.fabric
    if fabric is None:
        return []
    found: list[Finding] = []
    severity: Severity = "warning" if expectation.inferred else "error"
    fix = fabric.fix.replace("{node}", view.name)
    for resource, wanted in sorted(fabric.resources.items()):
        have = view.allocatable.get(resource, 0)
        if have >= wanted:
            continue
        reproduce = show_node(view.name, "{.status.allocatable}")
        if have == 0:
            found.append(Finding(
                node=view.name, severity=severity, code=f.FABRIC_NOT_ADVERTISED,
                message=f"{fabric.kind} {resource}: not advertised; expected {wanted}",
                cause=f"{fabric.missing_cause}; pods requesting it never schedule here, and NCCL without it falls "
                "back to TCP sockets",
                fix=fix, reproduce=reproduce,
            ))  # fmt: skip
            continue
        found.append(Finding(
            node=view.name, severity=severity, code=f.FABRIC_DEVICES_SHORT,
            message=f"{fabric.kind} {resource}: fewer devices than the type has; got {have}, expected {wanted}",
            cause=f"{fabric.short_cause}; a whole-node job requesting {wanted} never schedules here",
            fix=fix, reproduce=reproduce,
        ))  # fmt: skip
    return found
