"""What an elastic provisioner's objects and nodes look like to code that only reads them. Pure.

The policy pack reads any program's NodePools and ComputeClasses, and ``gpuready check`` reads any cluster's nodes;
both ask the provisioners (``Provisioner.node_facts``) instead of branching on their names. Sources, per provisioner:

- Karpenter (kubernetes-sigs/karpenter ``pkg/apis/v1/labels.go``): every node it makes carries
  ``karpenter.sh/nodepool=<NodePool>``; the AWS provider's well-known labels are ``karpenter.k8s.aws/instance-*``
  (aws/karpenter-provider-aws v1.14.1 ``pkg/apis/v1/labels.go``: ``instance-gpu-name``, ``instance-gpu-count``,
  ``instance-gpu-manufacturer``, ``instance-gpu-memory``, ``instance-family``), the Azure provider's
  ``karpenter.azure.com/sku-*`` (Azure/karpenter-provider-azure v1.14.2 ``pkg/apis/v1beta1/labels.go``:
  ``sku-gpu-name``, ``sku-gpu-count``, ``sku-gpu-manufacturer``, ``sku-family``).
- EKS Auto Mode: the same ``karpenter.sh/nodepool`` label, ``eks.amazonaws.com/compute-type=auto`` on its nodes and
  its well-known labels under ``eks.amazonaws.com/instance-*`` (Amazon EKS User Guide, "Create a Node Pool for EKS
  Auto Mode", table of supported labels; "Deploy an accelerated workload" selects ``eks.amazonaws.com/compute-type:
  auto``).
- GKE ComputeClasses: nodes GKE makes for a class carry ``cloud.google.com/compute-class=<class>`` (GKE docs, "About
  custom ComputeClasses": workloads select a class by that node label).
"""

from __future__ import annotations

from collections.abc import Mapping

from gpuready.record import record

KARPENTER_UNTAINTED = (
    "Karpenter adds no taint of its own and any pending pod can land on (and keep alive) the GPU nodes it makes"
)
"""What follows when a NodePool does not taint its GPU nodes (``spec.template.spec.taints`` are all its nodes get)."""
NODE_POOL_TAINTS = "spec.template.spec.taints"
"""Where a NodePool declares its nodes' taints (karpenter.sh/v1 ``NodePool``)."""
NODE_POOL_LABELS = "spec.template.metadata.labels"
"""Where a NodePool declares its nodes' labels."""


@record(frozen=True, kw_only=True, slots=True)
class NodeFacts:
    """The objects an elastic provisioner reads and the labels its nodes carry."""

    title: str
    """How messages name it: ``Karpenter (EKS)``, ``EKS Auto Mode``..."""
    object_type: str
    """Pulumi type token of the object that defines a pool (``kubernetes:karpenter.sh/v1:NodePool``)."""
    node_class_group: str = ""
    """API group of the node class its NodePools reference (``nodeClassRef.group``); "" when it has none."""
    pool_label: str
    """Node label naming the node's pool object (``karpenter.sh/nodepool``)."""
    marker: str
    """What only this provisioner's nodes carry among those with ``pool_label``: ``key=value``, a label domain
    ending in ``/`` (any key under it), or "" (``pool_label`` is the provisioner's own)."""
    gpu_name_label: str = ""
    gpu_count_label: str = ""
    gpu_manufacturer_label: str = ""
    gpu_memory_label: str = ""
    """GPU memory per GPU in MiB (Karpenter AWS ``instance-gpu-memory``)."""
    instance_family_label: str = ""
    taints_path: str = NODE_POOL_TAINTS
    """Where the pool object declares its nodes' taints."""
    labels_path: str = NODE_POOL_LABELS
    """Where the pool object declares its nodes' labels."""
    untainted_note: str = KARPENTER_UNTAINTED
    """What follows when the pool object does not taint its GPU nodes (the policy pack says it)."""
    own_device_plugin: str = ""
    """Who runs a device plugin on its nodes outside the GPU stack (EKS Auto Mode, GKE), or ""."""
    own_plugin_opt_out: str = ""
    """A node label that, set to ``true``, turns that device plugin off ("" when nothing does)."""
    reservation_terms: str = ""
    """The node class field that selects capacity reservations (``capacityReservationSelectorTerms``): a NodePool
    allowing ``karpenter.sh/capacity-type: reserved`` on a node class without it never gets reserved nodes; "" when
    the provisioner's node class has none."""
    reservation_terms_caveat: str = ""
    """What setting ``reservation_terms`` on one node class does to the whole cluster, when the platform documents
    more than the node class's own scope (EKS Auto Mode and open ODCRs); "" when nothing."""

    @property
    def kind(self) -> str:
        """The pool object's kind (``NodePool``, ``ComputeClass``)."""
        return self.object_type.rsplit(":", 1)[-1]

    def marks(self, labels: Mapping[str, str]) -> bool:
        """Whether a node with ``labels`` was made by this provisioner."""
        if self.pool_label not in labels:
            return False
        if not self.marker:
            return True
        if self.marker.endswith("/"):
            return any(key.startswith(self.marker) for key in labels)
        key, _, value = self.marker.partition("=")
        return labels.get(key) == value

    def plugin_on(self, labels: Mapping[str, str]) -> str:
        """Who runs the provisioner's own device plugin on nodes labelled ``labels``, or ""."""
        if self.own_plugin_opt_out and labels.get(self.own_plugin_opt_out) == "true":
            return ""
        return self.own_device_plugin
