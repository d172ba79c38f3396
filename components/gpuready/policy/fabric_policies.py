"""The pack's fabric policies (issue #30): multi-node GPU pools set their fabric up (EFA) and pods ask for it only
where it is; GPUDirect pools with their networks; RDMA pods on InfiniBand pools."""

from __future__ import annotations

from pulumi_policy import EnforcementLevel, Policy, Severity

from gpuready.policy.rules import fabric
from gpuready.policy.rules.charts import INSTALL_TYPES
from gpuready.policy.rules.elastic_pools import ELASTIC_TYPES
from gpuready.policy.rules.gpu_pools import POOL_TYPES
from gpuready.policy.rules.workloads import WORKLOAD_TYPES
from gpuready.policy.scoped import ScopedResourcePolicy, ScopedStackPolicy

MANDATORY, ADVISORY = EnforcementLevel.MANDATORY, EnforcementLevel.ADVISORY

POLICIES: list[Policy] = [
    ScopedStackPolicy(
        name="gpu-fabric-pools",
        description="Multi-node GPU pools of fabric-capable types set up their fabric (EFA interfaces, a placement "
        "group, one zone), and pods request fabric devices only on pools that have them.",
        rules=[fabric.fabric_findings],
        resource_types=fabric.fabric_types(),
        enforcement_level=ADVISORY,
        severity=Severity.MEDIUM,
        url="https://docs.aws.amazon.com/eks/latest/userguide/node-efa.html",
        remediation_steps="Set fabric: efa on the gpuready pool (docs/fabric.md), or give the node group a launch "
        "template with EFA interfaces and a cluster placement group in one zone; point pods that request "
        "vpc.amazonaws.com/efa at such a pool.",
    ),
    ScopedResourcePolicy(
        name="gpudirect-pool-has-its-networks",
        description="Pools on GPUDirect machines declare one additional node network per GPU NIC.",
        rules=[fabric.gpudirect_network_problems],
        resource_types=POOL_TYPES,
        enforcement_level=ADVISORY,
        severity=Severity.MEDIUM,
        url="https://cloud.google.com/kubernetes-engine/docs/how-to/gpu-bandwidth-gpudirect-tcpx",
        remediation_steps="Add networkConfig.additionalNodeNetworkConfigs with one {network, subnetwork} per GPU NIC "
        "(A3 High 4, A3 Mega 8, A3 Ultra / A4 1 gVNIC + 8 RDMA), or set fabric on a gpuready pool.",
    ),
    ScopedStackPolicy(
        name="rdma-pods-land-on-infiniband-pools",
        description="Pods asking for rdma/* devices select InfiniBand pools, and the stack runs the Network Operator.",
        rules=[fabric.rdma_findings],
        resource_types=WORKLOAD_TYPES | POOL_TYPES | ELASTIC_TYPES | INSTALL_TYPES,
        enforcement_level=MANDATORY,
        severity=Severity.HIGH,
        url="https://github.com/Azure/aks-rdma-infiniband",
        remediation_steps="Select a pool on an ND-series VM size with fabric: infiniband (gpuready installs NVIDIA's "
        "Network Operator and its NicClusterPolicy), install the network-operator chart, or drop the RDMA request.",
    ),
]
"""The fabric policies, in the order the pack lists them."""
