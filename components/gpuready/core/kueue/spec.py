"""``gpuready:kueue`` as validated data: which pools get Kueue objects, and the queues made over them. Pure.

The config model (``config_model.kueue_model``) builds these; ``core.kueue.objects`` (flavors, admission checks) and
``core.kueue.queues`` (ClusterQueue, LocalQueues) make the manifests from them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field
from typing import Literal

from gpuready.record import record

FlavorChoice = Literal["queued", "all", "none"]
FLAVOR_CHOICES: tuple[FlavorChoice, ...] = ("queued", "all", "none")
SelectorOperator = Literal["In", "NotIn", "Exists", "DoesNotExist"]
SELECTOR_OPERATORS: tuple[SelectorOperator, ...] = ("In", "NotIn", "Exists", "DoesNotExist")
"""A label selector's operators (Kubernetes ``metav1.LabelSelectorOperator``)."""


@record(frozen=True, kw_only=True, slots=True)
class SelectorExpression:
    """One ``matchExpressions`` entry of a label selector."""

    key: str
    operator: SelectorOperator
    values: tuple[str, ...] = ()


@record(frozen=True, kw_only=True, slots=True)
class NamespaceSelector:
    """The namespaces whose workloads the ClusterQueue admits; empty: every namespace (``{}``)."""

    match_labels: Mapping[str, str] = field(default_factory=dict)
    match_expressions: tuple[SelectorExpression, ...] = ()

    def manifest(self) -> dict[str, object]:
        """The ``metav1.LabelSelector`` (``{}`` matches every namespace)."""
        found: dict[str, object] = {}
        if self.match_labels:
            found["matchLabels"] = dict(self.match_labels)
        if self.match_expressions:
            found["matchExpressions"] = [
                {"key": e.key, "operator": e.operator, **({"values": list(e.values)} if e.values else {})}
                for e in self.match_expressions
            ]
        return found


@record(frozen=True, kw_only=True, slots=True)
class ClusterQueueSpec:
    """``gpuready:kueue.clusterQueue``: one ClusterQueue over every flavored pool."""

    name: str
    namespace_selector: NamespaceSelector = field(default_factory=NamespaceSelector)
    cohort: str | None = None
    """Kueue's ``cohortName``: queues of one cohort borrow each other's unused quota."""
    quota: Mapping[str, Mapping[str, int | str]] = field(default_factory=dict)
    """Flavor (pool) -> resource -> nominal quota: overrides the pool's GPU resources, adds others (cpu, memory)."""


@record(frozen=True, kw_only=True, slots=True)
class LocalQueueSpec:
    """One ``gpuready:kueue.localQueues`` entry: a namespace's queue onto the ClusterQueue."""

    namespace: str
    name: str


@record(frozen=True, kw_only=True, slots=True)
class KueueSpec:
    """``gpuready:kueue``: which pools get Kueue objects, and the queues over them."""

    flavors: FlavorChoice = "queued"
    """``queued``: the flex-start and queued pools; ``all``: every pool; ``none``: no Kueue object."""
    cluster_queue: ClusterQueueSpec | None = None
    """The ClusterQueue over the flavored pools; None: none is made (the team's own)."""
    local_queues: tuple[LocalQueueSpec, ...] = ()
    """LocalQueues onto ``cluster_queue``."""
