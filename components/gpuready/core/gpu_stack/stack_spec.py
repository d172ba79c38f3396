"""The GPU stack spec: which NVIDIA chart a stack installs on its pools, and how. Validated on creation.

Release choices (documented in the README, "GPU stack"): Helm waits for the release's workloads
(``skipAwait`` stays false) so that verification and anything else can depend on a rolled-out stack, with a
timeout of at least 900 s because NFD and the operands roll across every GPU node (Helm's 300 s default
fails on large clusters: METR/hawk#1363); ``atomic`` stays off so a failed rollout is left in place for
``gpuready check`` to explain instead of being rolled back to nothing.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import field, fields
from typing import Any, Literal

from gpuready.core import namespaces
from gpuready.core.gpu_stack import extra_values, kinds
from gpuready.core.gpu_stack.charts import Chart
from gpuready.core.gpu_stack.dra_cluster import cluster_version_problems
from gpuready.core.gpu_stack.kind import GpuStackKind
from gpuready.core.gpu_stack.kinds import STACK_KINDS, StackKind
from gpuready.core.health.agent import HealthSpec
from gpuready.errors import Problem, SpecError
from gpuready.record import record

NfdMode = Literal["deploy", "existing"]
NFD_MODES: tuple[NfdMode, ...] = ("deploy", "existing")
"""``deploy``: the chart's bundled NFD, restricted to GPU pools. ``existing``: the cluster already runs NFD
(with the NodeFeature API and ``extraLabelNs: [nvidia.com]``), so the chart's is turned off."""

MIN_TIMEOUT_SECONDS = 900
MAX_TIMEOUT_SECONDS = 7200
_DNS_LABEL = re.compile(r"^[a-z0-9](?:[-a-z0-9]{0,61}[a-z0-9])?\Z")
_RELEASE_NAME = re.compile(r"^[a-z0-9](?:[-a-z0-9]{0,51}[a-z0-9])?\Z")  # Helm: DNS label, at most 53 characters
_VERSION = re.compile(r"^v?\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?\Z")


@record(frozen=True, kw_only=True, slots=True)
class GpuStackSpec:
    """How a stack advertises its pools' GPUs. Paths in errors use the stack config's camelCase names."""

    kind: StackKind
    namespace: str | None = None
    """Release namespace; None uses the chart's (``gpu-operator`` / ``nvidia-device-plugin``)."""
    release_name: str | None = None
    """Helm release name; None uses the chart name."""
    chart_version: str | None = None
    """Overrides the pinned chart version."""
    repository: str | None = None
    """Overrides the chart repository (an HTTPS Helm repository or a mirror of it)."""
    timeout_seconds: int = MIN_TIMEOUT_SECONDS
    nfd: NfdMode = "deploy"
    gfd: bool = True
    """Device-plugin chart: run GPU Feature Discovery (and, with it, NFD). The operator always runs GFD.
    Verification reads GFD's labels; MPS needs it (``nvidia.com/mps.capable`` gates the MPS daemon)."""
    mig_reboot: bool = True
    """GPU Operator: let the MIG manager reboot a node to apply a layout (``WITH_REBOOT``), which cloud VMs
    need because they cannot reset a GPU (cloud-native-docs ``gpu-operator-mig.rst``)."""
    values: Mapping[str, Any] = field(default_factory=dict)
    """Extra Helm values deep-merged into the release (``extra_values``): keys the chart reads, never one
    gpuready decides (``owned_values``)."""
    monitoring: bool | None = None
    """GPU Operator: the DCGM exporter's Prometheus ServiceMonitor (``dcgmExporter.serviceMonitor.enabled``) on
    (true) or off (false); None keeps the chart's default (on in v26.7.0, values.yaml L326-327)."""
    cluster_version: str | None = None
    """DRA driver: the cluster's Kubernetes version (``1.34``, ``v1.34.1-eks-...``), at least 1.34."""
    health: HealthSpec = field(default_factory=HealthSpec)
    """Who reports GPU health and who runs DCGM on the pools (``gpuready.core.health.agent``)."""

    def __post_init__(self) -> None:
        problems = stack_spec_problems(self)
        if problems:
            raise SpecError(problems)

    @property
    def stack_kind(self) -> GpuStackKind:
        """The kind object of ``kind`` (``kinds.stack_kind``)."""
        return kinds.stack_kind(self.kind)

    @property
    def installs_chart(self) -> bool:
        return self.stack_kind.installs_chart

    @property
    def chart(self) -> Chart:
        """The chart this stack installs (only when ``installs_chart``)."""
        chart = self.stack_kind.chart
        if chart is None:
            raise ValueError(f"a {self.kind!r} GPU stack installs no chart")
        return chart

    @property
    def advertises_by_dra(self) -> bool:
        """The stack's chart serves DRA pools (so it needs ``clusterVersion`` 1.34+)."""
        return self.stack_kind.serves_dra

    @property
    def effective_namespace(self) -> str:
        return self.namespace or self.chart.namespace

    @property
    def effective_release_name(self) -> str:
        return self.release_name or self.chart.name

    @property
    def effective_version(self) -> str:
        return self.chart_version or self.chart.version

    @property
    def effective_repository(self) -> str:
        return self.repository or self.chart.repository

    @property
    def runs_gfd(self) -> bool:
        return self.stack_kind.runs_gfd(self.gfd)

    @property
    def deploys_nfd(self) -> bool:
        """Whether the release installs its bundled NFD (the plugin chart's NFD follows ``gfd.enabled``; the
        GPUCluster stack's operator labels GPU nodes from NFD's PCI labels, so it runs NFD without GFD)."""
        return self.stack_kind.deploys_nfd(self.nfd, self.gfd)

    def set_settings(self) -> dict[str, Any]:
        """The release settings given away from their defaults, by camelCase key (``RELEASE_SETTINGS`` order)."""
        given = {key: getattr(self, name) for name, key, default in RELEASE_SETTINGS if getattr(self, name) != default}
        return {key: dict(value) if isinstance(value, Mapping) else value for key, value in given.items()}


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part.title() for part in rest)


RELEASE_SETTINGS: tuple[tuple[str, str, Any], ...] = tuple(
    (f.name, _camel(f.name), f.default_factory() if callable(f.default_factory) else f.default)
    for f in fields(GpuStackSpec)
    if f.name not in ("kind", "health")
)
"""The one list of a stack's release settings: (field, camelCase key, default), from ``GpuStackSpec``'s fields; the
config model (``GpuStackConfig``) and the chart components' arguments are checked against it by tests."""


def stack_spec_problems(spec: GpuStackSpec, prefix: str = "gpuStack") -> list[Problem]:
    """Everything wrong with ``spec`` on its own (its fit to the pools is checked by ``stack_rules``)."""
    problems: list[Problem] = []
    if spec.kind not in STACK_KINDS:
        problems.append(Problem(f"{prefix}.kind", "unknown GPU stack", spec.kind, STACK_KINDS))
        return problems
    kind = spec.stack_kind
    if not kind.installs_chart:
        # Defaults cannot be told from unset; any other value is a setting that would do nothing.
        return [
            Problem(f"{prefix}.{key}", f"a {spec.kind!r} GPU stack installs no chart", value, (), "remove it")
            for key, value in spec.set_settings().items()
        ]
    chart = spec.chart
    if spec.namespace is not None:
        if spec.namespace == namespaces.DEFAULT:
            problems.append(
                Problem(
                    f"{prefix}.namespace",
                    "node agents never go in the default namespace (the device-plugin chart refuses it)",
                    spec.namespace,
                    (),
                    f"use {chart.namespace!r}",
                )
            )
        elif not _DNS_LABEL.match(spec.namespace):
            problems.append(
                Problem(f"{prefix}.namespace", "is not a DNS-1123 label", spec.namespace, (), f"e.g. {chart.namespace}")
            )
    if spec.release_name is not None and not _RELEASE_NAME.match(spec.release_name):
        problems.append(
            Problem(
                f"{prefix}.releaseName",
                "Helm release names are lowercase DNS labels of at most 53 characters",
                spec.release_name,
                (),
                f"e.g. {chart.name}",
            )
        )
    if spec.chart_version is not None:
        problems.extend(_version_problems(chart, spec.chart_version, f"{prefix}.chartVersion"))
    if spec.repository is not None and not spec.repository.startswith(("https://", "oci://")):
        problems.append(
            Problem(
                f"{prefix}.repository",
                "must be an https:// Helm repository or an oci:// registry",
                spec.repository,
                (),
                f"the chart's own is {chart.repository}",
            )
        )
    if not MIN_TIMEOUT_SECONDS <= spec.timeout_seconds <= MAX_TIMEOUT_SECONDS:
        problems.append(
            Problem(
                f"{prefix}.timeoutSeconds",
                f"must be between {MIN_TIMEOUT_SECONDS} and {MAX_TIMEOUT_SECONDS} seconds: NFD and the operands roll "
                "across every GPU node, and Helm's 300 s default fails large clusters (METR/hawk#1363)",
                spec.timeout_seconds,
                (),
                f"{MIN_TIMEOUT_SECONDS}, or more for pools of many nodes",
            )
        )
    if spec.nfd not in NFD_MODES:
        problems.append(Problem(f"{prefix}.nfd", "unknown NFD mode", spec.nfd, NFD_MODES))
    given = spec.set_settings()
    problems.extend(
        Problem(f"{prefix}.{key}", refusal.problem, given[key], (), refusal.hint)
        for key, refusal in kind.refused.items()
        if key in given
    )
    problems.extend(cluster_version_problems(kind.serves_dra, spec.cluster_version, f"{prefix}.clusterVersion"))
    if spec.values:
        where = f"{prefix}.values"
        problems.extend(extra_values.key_problems(chart, spec.effective_version, spec.values, where))
        problems.extend(extra_values.override_problems(chart, spec.values, None, where))
    return problems


def _version_problems(chart: Chart, version: str, path: str) -> list[Problem]:
    if not _VERSION.match(version):
        return [Problem(path, "is not a chart version", version, (), f"e.g. {chart.version!r}")]
    if chart.version_prefix and not version.startswith(chart.version_prefix):
        return [Problem(path, f"{chart.name} chart versions start with 'v'", version, (), f"use 'v{version}'")]
    if not chart.version_prefix and version.startswith("v"):
        return [Problem(path, f"{chart.name} chart versions have no leading 'v'", version, (), f"use {version[1:]!r}")]
    return []
