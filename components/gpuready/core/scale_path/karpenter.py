"""Karpenter's answer (EKS Karpenter, EKS Auto Mode, AKS node auto-provisioning): does a pending pod make it launch
a node of the pool's NodePool, and up to how many. Pure.

Rules, with the code they encode (kubernetes-sigs/karpenter v1.14.1 unless said):

- DRA: a pod with ResourceClaims is not scheduled at all while ``IGNORE_DRA_REQUESTS`` is true
  (``pkg/controllers/provisioning/scheduling/scheduler.go`` L583-586), its default (``pkg/operator/options/
  options.go`` L133) and what both providers' charts set (``settings.ignoreDRARequests: true``,
  ../shared/reference/upstream/karpenter-aws/chart-values.v1.14.1.yaml L216-217).
- Taints and requirements: the NodePool's taints must be tolerated and the pod's node selector compatible with its
  template labels and requirements (``scheduling/nodeclaim.go`` L126-133).
- Resources: an instance type is launched only when the pod's requests fit its allocatable (``scheduling/
  nodeclaim.go`` L624-637 ``fits``), which the provider builds from the instance type: of GPU resources, only
  ``nvidia.com/gpu`` (the provider's ``resources`` citation, ``KarpenterDecider.resources_cite``) and the node
  fabric's devices (EKS: ``vpc.amazonaws.com/efa``, a well-known resource of the AWS provider), plus what a
  NodeOverlay adds when the ``NodeOverlay`` gate is on (``pkg/cloudprovider/overlay/cloudprovider.go`` L48,
  ``pkg/controllers/nodeoverlay/store.go`` L179-195).
- Limits: ``scale_path.karpenter_limits``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gpuready.core.node_names import GPU_RESOURCE
from gpuready.core.scale_path import karpenter_limits
from gpuready.core.scale_path.model import ClusterFacts, Decision, NewNode, PendingPod, ScaleDecider
from gpuready.core.scale_path.scheduler_fit import tolerates

if TYPE_CHECKING:
    from gpuready.core.specs import GpuPoolSpec

DRA_CITE = (
    "kubernetes-sigs/karpenter v1.14.1 pkg/controllers/provisioning/scheduling/scheduler.go L583-586, "
    "pkg/operator/options/options.go L133 (IGNORE_DRA_REQUESTS, default true)"
)
FIT_CITE = "kubernetes-sigs/karpenter v1.14.1 pkg/controllers/provisioning/scheduling/nodeclaim.go L126-133"
OVERLAY_CITE = (
    "kubernetes-sigs/karpenter v1.14.1 pkg/cloudprovider/overlay/cloudprovider.go L48, "
    "pkg/controllers/nodeoverlay/store.go L179-195"
)


class KarpenterDecider(ScaleDecider):
    """Karpenter (or a managed Karpenter) deciding for one NodePool."""

    def __init__(self, title: str, resources_cite: str, *, overlay_gate: bool, overlay_fix: str) -> None:
        self.title = title
        self.resources_cite = resources_cite
        """Where the provider builds an instance type's resources (only ``nvidia.com/gpu`` of GPU resources)."""
        self.overlay_gate = overlay_gate
        """Whether the cluster's operator can turn the ``NodeOverlay`` gate on (not on a managed Karpenter)."""
        self.overlay_fix = overlay_fix
        """What to do instead of a resource Karpenter cannot make (a pool shape it does know)."""

    def node_labels(self, spec: GpuPoolSpec) -> dict[str, str]:
        return {"karpenter.sh/nodepool": spec.name}

    def decide(self, spec: GpuPoolSpec, pod: PendingPod, node: NewNode, cluster: ClusterFacts) -> Decision:
        if pod.device_class is not None:
            return Decision.no(
                f"{self.title} ignores pods with ResourceClaims (IGNORE_DRA_REQUESTS=true): they stay Pending",
                DRA_CITE,
                "use a node group with advertise: dra, or advertise: device-plugin on this pool",
                key="advertise",
            )
        for taint in node.taints:
            if taint.effect in ("NoSchedule", "NoExecute") and not tolerates(pod.tolerations, taint):
                return Decision.no(
                    f"the NodePool's taint {taint.key} is not tolerated", FIT_CITE, f"tolerate {taint.key} in the pod"
                )
        for key, value in pod.node_selector.items():
            if node.labels.get(key) != value:
                return Decision.no(
                    f"the pod selects {key}={value}, which the NodePool's nodes never carry",
                    FIT_CITE,
                    f"add {key}={value} to the pool's labels or drop the selector",
                )
        resources = self.instance_resources(spec, node, cluster)
        for name, count in pod.requests.items():
            if resources.get(name, 0) < count:
                return self._unknown_resource(name, cluster)
        physical = spec.gpu_limit or spec.max_size * node.gpus
        wanted = min(spec.max_size, physical // node.gpus)
        limits = karpenter_limits.node_pool_limits(spec, physical)
        most = karpenter_limits.nodes_within(limits, node.gpus, node.allocatable.get(GPU_RESOURCE, 0), wanted)
        if most < wanted:
            return Decision.no(
                f"the NodePool's limits stop it at {most} of {wanted} nodes",
                karpenter_limits.LIMITS_CITE,
                "raise gpuLimit",
                key="gpuLimit",
            )
        return Decision(ok=True, max_nodes=most)

    def instance_resources(self, spec: GpuPoolSpec, node: NewNode, cluster: ClusterFacts) -> dict[str, int]:
        """The GPU resources Karpenter believes an instance type of the pool has: its physical ``nvidia.com/gpu``,
        plus the NodeOverlay gpuready emits for the pool's other resources when the gate is on."""
        resources = {GPU_RESOURCE: node.gpus}
        # EFA is one of the provider's well-known resources, counted per instance type (the EC2NodeClass's
        # efa-only interfaces): aws/karpenter-provider-aws v1.14.1 pkg/apis/v1/labels.go L67-73, L86-98,
        # pkg/providers/instancetype/types.go L347, L472-483.
        resources.update(spec.profile.fabric.resources(spec))
        if self.overlay_gate and cluster.node_overlay:
            resources.update({k: v for k, v in node.allocatable.items() if k != GPU_RESOURCE})
        return resources

    def _unknown_resource(self, name: str, cluster: ClusterFacts) -> Decision:
        reason = f"{self.title} builds instance types with nvidia.com/gpu only: no node is made for {name}"
        if not self.overlay_gate:
            return Decision.no(reason, self.resources_cite, self.overlay_fix, key="sharing")
        if not cluster.node_overlay:
            fix = (
                "turn Karpenter's NodeOverlay feature gate on (chart settings.featureGates.nodeOverlay=true) and "
                "declare it: gpuready:karpenterFeatureGates: [NodeOverlay] (the component package's "
                f"EksKarpenterGpuPool: karpenterFeatureGates; gpuready then adds a NodeOverlay for {name}); or "
                f"{self.overlay_fix}"
            )
            return Decision.no(
                reason + " (NodeOverlay is off by default)",
                f"{self.resources_cite}; {OVERLAY_CITE}",
                fix,
                key="sharing",
            )
        return Decision.no(reason, f"{self.resources_cite}; {OVERLAY_CITE}", self.overlay_fix, key="sharing")
