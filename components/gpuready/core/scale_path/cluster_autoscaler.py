"""The cluster autoscaler's answer for an EKS managed node group or an AKS agent pool. Pure.

A group with nodes is scaled from a copy of a real node; a group at zero from a template the cloud provider builds
(kubernetes/autoscaler@55c37cd, the revision ``gpuready.eks.lifecycle`` / ``gpuready.aks.lifecycle`` cite for
the tags): the instance type's ``nvidia.com/gpu`` (``cloudprovider/aws/aws_manager.go`` L285,
``cloudprovider/azure/azure_template.go`` L277), then the labels, taints and resources of the node-template tags
gpuready writes on the Auto Scaling group or scale set (``aws_manager.go`` L290-305 and L441-470,
``azure_template.go`` L385 and L591). The template has no ResourceSlices (``aws_cloud_provider.go`` L417-428,
``azure_scale_set.go`` L940-957 build it with none), and DRA scale-up from zero works only where the provider
implements it; otherwise the group needs at least one node (``cluster-autoscaler/docs/dra_support.md`` L70-73;
kubernetes/autoscaler#7799).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from gpuready.core.node_names import GPU_RESOURCE
from gpuready.core.scale_path.model import ClusterFacts, Decision, NewNode, PendingPod, ScaleDecider
from gpuready.core.scale_path.scheduler_fit import fit
from gpuready.core.taints import Taint

if TYPE_CHECKING:
    from gpuready.core.specs import GpuPoolSpec

DRA_DOC = "kubernetes/autoscaler@55c37cd cluster-autoscaler/docs/dra_support.md L70-73"


class TemplateTags:
    """How one cloud's node-template tags read: the tags gpuready writes for a pool, their prefix (up to the kind),
    the separator after the kind, and how a key is decoded."""

    def __init__(
        self, tags: Callable[[GpuPoolSpec], Mapping[str, str]], prefix: str, separator: str,
        decode: Callable[[str, str], str] = lambda kind, name: name,
    ) -> None:  # fmt: skip
        self.tags = tags
        self.prefix = prefix
        self.separator = separator
        self.decode = decode

    def template(self, spec: GpuPoolSpec, gpus: int) -> NewNode:
        """The node the autoscaler builds for the pool's group at zero: the instance type's ``nvidia.com/gpu``,
        then the labels, taints (``<value>:<Effect>``) and resources of the tags; no devices."""
        labels: dict[str, str] = {}
        taints: list[Taint] = []
        resources = {GPU_RESOURCE: gpus}
        for key, value in self.tags(spec).items():
            kind, _, name = key.removeprefix(self.prefix).partition(self.separator)
            name = self.decode(kind, name)
            if kind == "label":
                labels[name] = value
            elif kind == "taint":
                taint_value, _, effect = value.partition(":")
                taints.append(Taint(key=name, value=taint_value, effect=effect))  # type: ignore[arg-type]
            elif kind == "resources" and value.isdigit():
                resources[name] = int(value)
        return NewNode(labels=labels, taints=tuple(taints), allocatable=resources, gpus=gpus)


class NodeGroupDecider(ScaleDecider):
    """The cluster autoscaler of one cloud, deciding for a sized node group with node-template tags."""

    def __init__(self, title: str, template_cite: str, dra_cite: str, tags: TemplateTags) -> None:
        self.title = title
        self.template_cite = template_cite
        """Where the provider builds a zero-node group's template from the instance type and the tags."""
        self.dra_cite = dra_cite
        """Where the provider builds that template without ResourceSlices."""
        self.tags = tags
        """The node-template tags gpuready writes on the group, read as the provider reads them."""

    def decide(self, spec: GpuPoolSpec, pod: PendingPod, node: NewNode, cluster: ClusterFacts) -> Decision:
        if spec.min_size > 0:
            return Decision(ok=True, max_nodes=spec.max_size)
        if pod.device_class is not None:
            return Decision.no(
                f"{self.title} cannot scale a DRA node group up from zero: its template node has no ResourceSlices",
                f"{DRA_DOC}; {self.dra_cite}",
                "set minSize: 1 (the autoscaler then copies a real node's devices)",
                key="minSize",
            )
        found = fit(pod, self.tags.template(spec, node.gpus))
        if not found.ok:
            return Decision.no(
                f"{self.title}'s template of the group at zero nodes refuses the pod: {found.reason}",
                f"{self.template_cite}; {found.cite}",
                "set minSize: 1, or " + found.fix,
                key="minSize",
            )
        return Decision(ok=True, max_nodes=spec.max_size)
