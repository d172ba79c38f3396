"""GKE's answer (its cluster autoscaler for node pools, node auto-provisioning for ComputeClasses): does a pending
pod make GKE create a node of the pool, and up to how many. Pure.

- A node pool at zero is scaled from a template GKE builds from the pool's config: its labels and taints, and
  ``nvidia.com/gpu`` from its accelerators (kubernetes/autoscaler@55c37cd ``cluster-autoscaler/cloudprovider/gce/
  templates.go`` L69-83 ``BuildCapacity``), counted as GKE's own device plugin shares or partitions them. A resource
  only NVIDIA's device plugin advertises (``nvidia.com/gpu.shared``, ``nvidia.com/mig-<profile>``) is not in it,
  nor are DRA devices (``cluster-autoscaler/docs/dra_support.md`` L70-73): such a pool needs a node to copy.
- A ComputeClass gets nodes only for pods that select it by the node label ``cloud.google.com/compute-class``, and
  GKE taints the nodes it creates for a class ``cloud.google.com/compute-class=<class>:NoSchedule`` (GKE docs,
  "About custom ComputeClasses", "Request a ComputeClass in a workload" and "Configure manually-created node pools";
  https://cloud.google.com/kubernetes-engine/docs/concepts/about-custom-compute-classes). The class has no node bound
  of its own: the cluster's node auto-provisioning resource limits bound it (``gpuready.gke.compute_class``).
- A queued pool (``queuedProvisioning``) gets nodes only through a ProvisioningRequest: "Makes nodes obtainable
  through the ProvisioningRequest API exclusively" (pulumi_gcp 10.2.0 ``NodePoolQueuedProvisioningArgs``; GKE docs
  "Run a large-scale workload with flex-start with queued provisioning"). A plain pending pod never scales it; a pod
  Kueue admits through the pool's AdmissionCheck (``core.kueue``) does, up to ``maxSize``, from the same template.
"""

from __future__ import annotations

from gpuready.core.node_names import GPU_RESOURCE
from gpuready.core.scale_path.cluster_autoscaler import DRA_DOC
from gpuready.core.scale_path.model import ClusterFacts, Decision, NewNode, PendingPod, ScaleDecider
from gpuready.core.scale_path.scheduler_fit import fit
from gpuready.core.specs import GpuPoolSpec
from gpuready.core.taints import Taint
from gpuready.gke import capacity_rules

TEMPLATE = "kubernetes/autoscaler@55c37cd cluster-autoscaler/cloudprovider/gce/templates.go L69-83"
CLASS_DOCS = "GKE docs, About custom ComputeClasses (Request a ComputeClass in a workload)"
CLASS_LABEL = "cloud.google.com/compute-class"
QUEUED_VIA = "through a ProvisioningRequest only (Kueue admits through the pool's AdmissionCheck)"


class GkeNodePoolDecider(ScaleDecider):
    """GKE's cluster autoscaler for a node pool of fixed bounds."""

    title = "GKE cluster autoscaler"

    def decide(self, spec: GpuPoolSpec, pod: PendingPod, node: NewNode, cluster: ClusterFacts) -> Decision:
        decided = self._decide(spec, pod, node)
        if decided.ok and capacity_rules.facts(spec).queued:
            return Decision(ok=True, max_nodes=decided.max_nodes, via=QUEUED_VIA)
        return decided

    def _decide(self, spec: GpuPoolSpec, pod: PendingPod, node: NewNode) -> Decision:
        if spec.min_size > 0:
            return Decision(ok=True, max_nodes=spec.max_size)
        if pod.device_class is not None:
            return Decision.no(
                "GKE's template of a node pool at zero nodes has no ResourceSlices",
                DRA_DOC,
                "set minSize: 1",
                key="minSize",
            )
        template = NewNode(
            labels=node.labels,
            taints=node.taints,
            gpus=node.gpus,
            allocatable={GPU_RESOURCE: node.allocatable.get(GPU_RESOURCE, node.gpus)},
        )
        found = fit(pod, template)
        if not found.ok:
            return Decision.no(
                f"GKE's template of the pool at zero nodes refuses the pod: {found.reason}",
                f"{TEMPLATE}; {found.cite}",
                "set minSize: 1 (the autoscaler then copies a real node), or advertise the GPUs as nvidia.com/gpu",
                key="minSize",
            )
        return Decision(ok=True, max_nodes=spec.max_size)


class ComputeClassDecider(ScaleDecider):
    """GKE node auto-provisioning for a ComputeClass."""

    title = "GKE ComputeClass"

    def node_labels(self, spec: GpuPoolSpec) -> dict[str, str]:
        return {CLASS_LABEL: spec.name}

    def node_taints(self, spec: GpuPoolSpec) -> tuple[Taint, ...]:
        return (class_taint(spec),)

    def decide(self, spec: GpuPoolSpec, pod: PendingPod, node: NewNode, cluster: ClusterFacts) -> Decision:
        if pod.node_selector.get(CLASS_LABEL) != spec.name:
            return Decision.no(
                f"GKE creates nodes of a ComputeClass only for pods that select it; the pod does not "
                f"select {CLASS_LABEL}={spec.name}",
                CLASS_DOCS,
                f"select {CLASS_LABEL}: {spec.name} (the pool's nodeSelector output)",
            )
        return Decision(ok=True, max_nodes=spec.max_size)


def class_taint(spec: GpuPoolSpec) -> Taint:
    """The taint GKE puts on the nodes it creates for the class."""
    return Taint(key=CLASS_LABEL, value=spec.name, effect="NoSchedule")
