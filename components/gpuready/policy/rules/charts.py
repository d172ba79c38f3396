"""The NVIDIA GPU Operator and device-plugin Helm charts: recognising releases, and the values they act on.

Pure. Chart facts are from the released charts (shared reference nvidia.md 2-3): GPU Operator v26.7.0
(``values.yaml`` L8-10, L45-48, L138, L230, L242, L371, L618-659) and device plugin 0.20.0 (``values.yaml``
L20-28, L86-93, L110-153). Neither chart has a values schema, so a misspelled key is silently ignored;
Helm lists replace the chart default instead of merging with it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal

from gpuready.core import scheduling
from gpuready.core.clouds.registry import registered_charts
from gpuready.core.gpu_stack.charts import gpu_cluster_deployed
from gpuready.core.gpu_stack.kinds.device_plugin import DEVICE_PLUGIN as PLUGIN_CHART
from gpuready.core.gpu_stack.kinds.gpu_operator import GPU_OPERATOR as OPERATOR_CHART
from gpuready.core.props import as_flag, as_list, as_mapping, as_text, dig
from gpuready.record import record

RELEASE = "kubernetes:helm.sh/v3:Release"
CHART_V3 = "kubernetes:helm.sh/v3:Chart"
CHART_V4 = "kubernetes:helm.sh/v4:Chart"
INSTALL_TYPES = frozenset({RELEASE, CHART_V3, CHART_V4})
"""Resources that install a Helm chart: a Release (Helm on the cluster), a v4 Chart (rendered by the provider, its
``chart``, ``values``, ``namespace`` and ``version`` are inputs: pulumi-kubernetes ``helm/v4/Chart.py``) and a v3
Chart (rendered by the SDK in the program: its inputs are empty in Python, ``helm/v3/helm.py`` passes ``{}``)."""
OPERATOR: Literal["gpu-operator"] = "gpu-operator"
DEVICE_PLUGIN: Literal["nvidia-device-plugin"] = "nvidia-device-plugin"
ChartName = Literal["gpu-operator", "nvidia-device-plugin"]

_PINNED = {OPERATOR: OPERATOR_CHART, DEVICE_PLUGIN: PLUGIN_CHART}
DEFAULT_ALLOWED_VERSIONS: Mapping[str, tuple[str, ...]] = {name: (c.version,) for name, c in _PINNED.items()}
"""The versions gpuready pins (nvidia.md 1): the operator's chart version has a leading ``v``, the plugin's none."""

FABRIC_CHART_VERSIONS: Mapping[str, tuple[str, ...]] = {name: (v,) for name, v in registered_charts().items()}
"""The charts the clouds install for fabric pools (``CloudFabric.charts``: the EFA device plugin, NVIDIA's Network
Operator) -> the version gpuready pins (as registered: the pack declares them without loading a cloud)."""

NFD_KEY: Mapping[str, str] = {name: c.nfd_key for name, c in _PINNED.items()}
"""Values key of the NFD subchart: not aliased in the operator chart, aliased ``nfd`` in the plugin chart."""

DEFAULT_NAMESPACE: Mapping[str, str] = {name: c.namespace for name, c in _PINNED.items()}
"""Namespace each chart's own docs install into."""

_GPU_EXISTS = {"key": scheduling.GPU_TAINT_KEY, "operator": "Exists", "effect": "NoSchedule"}
_DEFAULT_TOLERATIONS: Mapping[tuple[str, str], tuple[Mapping[str, str], ...]] = {
    # GO values L45-48: every operand DaemonSet (driver, toolkit, device plugin, GFD, MIG manager, ...).
    (OPERATOR, "daemonsets.tolerations"): (_GPU_EXISTS,),
    # GO values L631-638.
    (OPERATOR, "node-feature-discovery.worker.tolerations"): (
        {"key": "node-role.kubernetes.io/control-plane", "operator": "Equal", "value": "", "effect": "NoSchedule"},
        _GPU_EXISTS,
    ),
    # DP values L86-93.
    (DEVICE_PLUGIN, "tolerations"): ({"key": "CriticalAddonsOnly", "operator": "Exists"}, _GPU_EXISTS),
    # DP values L136-145: only the GKE-style value "present" (NVIDIA/k8s-device-plugin#734, #1934).
    (DEVICE_PLUGIN, "nfd.worker.tolerations"): (
        {"key": "node-role.kubernetes.io/master", "operator": "Equal", "value": "", "effect": "NoSchedule"},
        {"key": scheduling.GPU_TAINT_KEY, "operator": "Equal", "value": "present", "effect": "NoSchedule"},
    ),
}


@record(frozen=True, slots=True)
class GpuRelease:
    """A Helm release of one of the two NVIDIA charts."""

    chart: ChartName
    props: Mapping[str, Any]
    values: Mapping[str, Any]

    def value(self, path: str) -> Any:
        """The value at a dotted path (``driver.enabled``), None when unset."""
        return dig(self.values, *path.split("."))

    def enabled(self, path: str, default: bool) -> bool:
        """A chart boolean with its default applied."""
        flag = as_flag(self.value(path))
        return default if flag is None else flag

    @property
    def nfd_deployed(self) -> bool:
        """Whether the release installs NFD: operator ``nfd.enabled`` (default true); plugin ``nfd.enabled``,
        else ``gfd.enabled`` (Helm's ``condition: nfd.enabled,gfd.enabled``; both default off)."""
        if self.chart == OPERATOR:
            return self.enabled("nfd.enabled", True)
        explicit = as_flag(self.value("nfd.enabled"))
        return explicit if explicit is not None else self.enabled("gfd.enabled", False)

    @property
    def runs_driver(self) -> bool:
        return self.chart == OPERATOR and self.enabled("driver.enabled", True)

    @property
    def deploys_cluster_policy(self) -> bool:
        """GO values L565-576: ``clusterPolicy.deployCR`` (default true); a plugin release has none."""
        return self.chart == OPERATOR and self.enabled("clusterPolicy.deployCR", True)

    @property
    def deploys_gpu_cluster(self) -> bool:
        """GO values L575-576: ``gpuCluster.deployCR`` (default false), the experimental DRA stack."""
        return self.chart == OPERATOR and gpu_cluster_deployed(self.values)

    @property
    def runs_device_plugin(self) -> bool:
        # Both charts default to true; the operator's plugin is a ClusterPolicy operand (none under a GPUCluster).
        on = self.enabled("devicePlugin.enabled", True)
        return on and (self.chart == DEVICE_PLUGIN or self.deploys_cluster_policy)

    @property
    def runs_mig_manager(self) -> bool:
        return self.deploys_cluster_policy and self.enabled("migManager.enabled", True)

    def node_selector(self) -> Mapping[str, str]:
        """The plugin chart's ``nodeSelector`` (the operator places operands by node labels instead)."""
        if self.chart != DEVICE_PLUGIN:
            return {}
        selector = as_mapping(self.value("nodeSelector")) or {}
        return {str(k): v for k, v in selector.items() if isinstance(v, str)}

    def daemonset_tolerations(self) -> list[tuple[str, Sequence[Any], bool]]:
        """``(values path, effective tolerations, overridden)`` for every DaemonSet the chart puts on GPU nodes."""
        paths = ["daemonsets.tolerations"] if self.chart == OPERATOR else ["tolerations"]
        if self.nfd_deployed:
            paths.append(f"{NFD_KEY[self.chart]}.worker.tolerations")
        found: list[tuple[str, Sequence[Any], bool]] = []
        for path in paths:
            given = self.value(path)
            if given is None:
                found.append((path, _DEFAULT_TOLERATIONS[(self.chart, path)], False))
            else:
                found.append((path, as_list(given), True))
        return found


def chart_name(chart: str) -> ChartName | None:
    """Which NVIDIA chart a ``chart`` input names: ``gpu-operator``, ``nvidia/gpu-operator``,
    ``oci://.../gpu-operator``, or a ``.../gpu-operator-v26.7.0.tgz`` URL; None for any other chart."""
    base = chart.rstrip("/").rsplit("/", 1)[-1]
    if base.endswith(".tgz"):
        base = base.removesuffix(".tgz").rsplit("-", 1)[0]
    if base == OPERATOR:
        return OPERATOR
    if base == DEVICE_PLUGIN:
        return DEVICE_PLUGIN
    return None


def unreadable_chart(resource_type: str, props: Mapping[str, Any]) -> bool:
    """A Helm chart resource whose chart and values are not among its inputs (a v3 Chart of the Python SDK): no rule
    can tell what it installs."""
    return resource_type in INSTALL_TYPES and not as_text(props.get("chart"))


def gpu_release(resource_type: str, props: Mapping[str, Any]) -> GpuRelease | None:
    """The release when ``props`` belong to a Helm release (or v3 / v4 Chart resource, read the same way) of one of
    the NVIDIA charts, else None."""
    if resource_type not in INSTALL_TYPES:
        return None
    chart = chart_name(as_text(props.get("chart")) or "")
    if chart is None:
        return None
    return GpuRelease(chart, props, as_mapping(props.get("values")) or {})
