"""``gpuready:kueue``: which pools get Kueue objects and the queues made over them (``core.kueue``). Pure."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from gpuready.core.config_model.all_problems import validated
from gpuready.core.config_model.base import ConfigModel, Words
from gpuready.core.config_model.kueue_values import (
    ClusterQueueValues,
    KueueValues,
    LocalQueueValues,
    NamespaceSelectorValues,
    SelectorExpressionValues,
)
from gpuready.core.kueue.spec import FlavorChoice, KueueSpec, SelectorOperator
from gpuready.core.specs import GpuPoolSpec


class SelectorExpressionConfig(SelectorExpressionValues, ConfigModel):
    """One ``namespaceSelector.matchExpressions`` entry."""

    words: ClassVar = {"operator": Words("unknown selector operator", "In, NotIn, Exists or DoesNotExist")}

    key: str
    """A namespace label key."""
    operator: SelectorOperator
    """``In``, ``NotIn`` (with ``values``), ``Exists`` or ``DoesNotExist`` (without)."""
    values: list[str] | None = None
    """The label values of ``In`` / ``NotIn``."""


class NamespaceSelectorConfig(NamespaceSelectorValues, ConfigModel):
    """``clusterQueue.namespaceSelector``: a label selector of the namespaces whose workloads the queue admits."""

    shape: ClassVar = Words("must be a mapping", "e.g. {matchLabels: {team: ml}}")

    match_labels: dict[str, str] | None = None
    """Namespace labels that must all match."""
    match_expressions: list[SelectorExpressionConfig] | None = None
    """Conditions on namespace labels that must all hold."""


class ClusterQueueConfig(ClusterQueueValues, ConfigModel):
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


class LocalQueueConfig(LocalQueueValues, ConfigModel):
    """One ``localQueues`` entry: a namespace's queue onto the ClusterQueue."""

    shape: ClassVar = Words("must be a mapping", "e.g. {namespace: team-a, name: training}")

    namespace: str
    """The namespace whose workloads use it."""
    name: str
    """The LocalQueue's name, which workloads give in the label ``kueue.x-k8s.io/queue-name``."""


class KueueConfig(KueueValues, ConfigModel):
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


def parse_kueue_model(raw: object, pools: Sequence[GpuPoolSpec], path: str = "kueue") -> KueueSpec:
    """``parsers.parse_kueue`` by the pydantic model (the fast path refused ``raw``): every problem, worded."""
    return validated(KueueConfig, raw, path, lambda config: config.spec(pools, path))
