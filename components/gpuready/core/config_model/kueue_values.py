"""``gpuready:kueue`` as light objects and the ``KueueSpec`` they make. Pure, and no pydantic: the fast path
(``fast``, through ``parsers.parse_kueue``) builds them; ``kueue_model`` (the pydantic models) subclasses them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from gpuready.core.config_model.forms import Values
from gpuready.core.kueue.objects import problems
from gpuready.core.kueue.spec import (
    ClusterQueueSpec,
    FlavorChoice,
    KueueSpec,
    LocalQueueSpec,
    NamespaceSelector,
    SelectorExpression,
    SelectorOperator,
)
from gpuready.core.specs import GpuPoolSpec
from gpuready.errors import SpecError


class SelectorExpressionValues(Values, shape="SelectorExpressionConfig"):
    """One ``namespaceSelector.matchExpressions`` entry."""

    if TYPE_CHECKING:
        key: str
        operator: SelectorOperator
        values: list[str] | None


class NamespaceSelectorValues(Values, shape="NamespaceSelectorConfig"):
    """``clusterQueue.namespaceSelector``: a label selector of the namespaces whose workloads the queue admits."""

    if TYPE_CHECKING:
        match_labels: dict[str, str] | None
        match_expressions: Sequence[SelectorExpressionValues] | None

    def to_spec(self) -> NamespaceSelector:
        expressions = tuple(
            SelectorExpression(key=e.key, operator=e.operator, values=tuple(e.values or ()))
            for e in self.match_expressions or ()
        )
        return NamespaceSelector(match_labels=dict(self.match_labels or {}), match_expressions=expressions)


class ClusterQueueValues(Values, shape="ClusterQueueConfig"):
    """``clusterQueue``: a Kueue ClusterQueue over every pool with a ResourceFlavor, with its admission checks."""

    if TYPE_CHECKING:
        name: str
        namespace_selector: NamespaceSelectorValues | None
        cohort: str | None
        quota: dict[str, dict[str, int | str]] | None

    def to_spec(self) -> ClusterQueueSpec:
        return ClusterQueueSpec(
            name=self.name,
            namespace_selector=self.namespace_selector.to_spec() if self.namespace_selector else NamespaceSelector(),
            cohort=self.cohort,
            quota={flavor: dict(quota) for flavor, quota in (self.quota or {}).items()},
        )


class LocalQueueValues(Values, shape="LocalQueueConfig"):
    """One ``localQueues`` entry: a namespace's queue onto the ClusterQueue."""

    if TYPE_CHECKING:
        namespace: str
        name: str

    def to_spec(self) -> LocalQueueSpec:
        return LocalQueueSpec(namespace=self.namespace, name=self.name)


class KueueValues(Values, shape="KueueConfig"):
    """``kueue``: ``{flavors: queued | all | none, clusterQueue: {...}, localQueues: [...]}``."""

    if TYPE_CHECKING:
        flavors: FlavorChoice
        cluster_queue: ClusterQueueValues | None
        local_queues: Sequence[LocalQueueValues] | None

    def spec(self, pools: Sequence[GpuPoolSpec], path: str) -> KueueSpec:
        made = KueueSpec(
            flavors=self.flavors,
            cluster_queue=self.cluster_queue.to_spec() if self.cluster_queue else None,
            local_queues=tuple(q.to_spec() for q in self.local_queues or ()),
        )
        found = problems(pools, made, path) if pools else []  # pools that failed to parse are reported already
        if found:
            raise SpecError(found)
        return made
