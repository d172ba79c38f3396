"""``gpuready:kueue``: which pools get Kueue objects and the queues made over them (``core.kueue``). Pure."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import ClassVar

from gpuready.core.config_model.all_problems import validated
from gpuready.core.config_model.base import ConfigModel, Words
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
from gpuready.errors import ConfigError, Problem, SpecError


class SelectorExpressionConfig(ConfigModel):
    """One ``namespaceSelector.matchExpressions`` entry."""

    words: ClassVar = {"operator": Words("unknown selector operator", "In, NotIn, Exists or DoesNotExist")}

    key: str
    """A namespace label key."""
    operator: SelectorOperator
    """``In``, ``NotIn`` (with ``values``), ``Exists`` or ``DoesNotExist`` (without)."""
    values: list[str] | None = None
    """The label values of ``In`` / ``NotIn``."""


class NamespaceSelectorConfig(ConfigModel):
    """``clusterQueue.namespaceSelector``: a label selector of the namespaces whose workloads the queue admits."""

    shape: ClassVar = Words("must be a mapping", "e.g. {matchLabels: {team: ml}}")

    match_labels: dict[str, str] | None = None
    """Namespace labels that must all match."""
    match_expressions: list[SelectorExpressionConfig] | None = None
    """Conditions on namespace labels that must all hold."""

    def to_spec(self) -> NamespaceSelector:
        expressions = tuple(
            SelectorExpression(key=e.key, operator=e.operator, values=tuple(e.values or ()))
            for e in self.match_expressions or ()
        )
        return NamespaceSelector(match_labels=dict(self.match_labels or {}), match_expressions=expressions)


class ClusterQueueConfig(ConfigModel):
    """``clusterQueue``: a Kueue ClusterQueue over every pool with a ResourceFlavor, with its admission checks."""

    shape: ClassVar = Words("must be a mapping", "e.g. {name: training}")

    name: str
    """The ClusterQueue's name (LocalQueues point at it)."""
    namespace_selector: NamespaceSelectorConfig | None = None
    """The namespaces whose workloads it admits; absent: every namespace (Kueue's own default admits none)."""
    cohort: str | None = None
    """Kueue's ``cohortName``: queues of one cohort borrow each other's unused quota."""
    quota: dict[str, dict[str, int | str]] | None = None
    """Pool (flavor) -> resource -> nominal quota (a number or a quantity such as ``1024Gi``): overrides what the
    pool's nodes advertise (GPU resources, ``maxSize`` nodes' worth) and adds others, such as cpu and memory, which
    every flavor must then have."""

    def to_spec(self) -> ClusterQueueSpec:
        return ClusterQueueSpec(
            name=self.name,
            namespace_selector=self.namespace_selector.to_spec() if self.namespace_selector else NamespaceSelector(),
            cohort=self.cohort,
            quota={flavor: dict(quota) for flavor, quota in (self.quota or {}).items()},
        )


class LocalQueueConfig(ConfigModel):
    """One ``localQueues`` entry: a namespace's queue onto the ClusterQueue."""

    shape: ClassVar = Words("must be a mapping", "e.g. {namespace: team-a, name: training}")

    namespace: str
    """The namespace whose workloads use it."""
    name: str
    """The LocalQueue's name, which workloads give in the label ``kueue.x-k8s.io/queue-name``."""

    def to_spec(self) -> LocalQueueSpec:
        return LocalQueueSpec(namespace=self.namespace, name=self.name)


class KueueConfig(ConfigModel):
    """``kueue``: ``{flavors: queued | all | none, clusterQueue: {...}, localQueues: [...]}``."""

    shape: ClassVar = Words("must be a mapping", "e.g. {flavors: all}")
    words: ClassVar = {"flavors": Words("unknown choice of pools", "queued (the default), all or none")}

    flavors: FlavorChoice = "queued"
    """Which pools get a Kueue ResourceFlavor: ``queued`` (flex-start and queued pools, which also get their
    ProvisioningRequestConfig and AdmissionCheck), ``all`` (every pool) or ``none``."""
    cluster_queue: ClusterQueueConfig | None = None
    """A ClusterQueue over the flavored pools; absent: none (the team's own)."""
    local_queues: list[LocalQueueConfig] | None = None
    """LocalQueues onto the ClusterQueue, one per namespace and name."""

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


def parse_kueue(raw: object, pools: Sequence[GpuPoolSpec], path: str = "kueue") -> KueueSpec:
    """Parse ``raw`` (a mapping); raise ``ConfigError`` listing every problem."""
    return validated(KueueConfig, raw, path, lambda config: config.spec(pools, path))


YamlText = Callable[[object, str, list[Problem], str], object]
"""The stack settings' reader of a YAML-text key: ``(raw, path, problems, hint) -> data or None``."""


def stack_kueue(raw: object, pools: Sequence[GpuPoolSpec], problems: list[Problem], yaml_text: YamlText) -> KueueSpec:
    """``gpuready:kueue`` (YAML text or data) for the stack's pools; absent: ``KueueSpec()`` (the queued pools'
    objects). Problems are added to ``problems``."""
    path = "gpuready:kueue"
    data = None if raw is None or raw == "" else yaml_text(raw, path, problems, "e.g. {flavors: all}")
    if data is None:
        return KueueSpec()
    try:
        return parse_kueue(data, pools, path)
    except ConfigError as error:
        problems.extend(error.problems)
        return KueueSpec()
