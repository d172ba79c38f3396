"""Stack rules across resources of every kind that install GPU software: Helm Releases, v3 / v4 Chart resources and
raw DaemonSets. Pure.

- One device plugin per GPU pool: the platform's own (GKE's, Bottlerocket's, EKS Auto Mode's), each GPU Operator or
  device-plugin chart whose plugin lands on the pool, and each raw DaemonSet running NVIDIA's device plugin image
  there. Two plugins advertise the same GPUs twice and fight over the kubelet's device-plugin socket (NVIDIA
  k8s-device-plugin README "Deployment via helm": install one; gpu-operator ``devicePlugin.enabled: false`` when one
  runs already, values.yaml v26.7.0 L371). The platform's plugin against a chart is ``gpu-stack-single-driver-owner``'s
  finding already, so it is not repeated here.
- Chart resources whose chart and values are not inputs (a v3 Chart of the Python SDK renders in the program) are
  named: no rule can tell what they install.
- Sharing bounds in the ConfigMap a release references (device plugin ``config.name``, GPU Operator
  ``devicePlugin.config.name``): the same bounds as inline configs (``gpu_configs.sharing_problems``).
- NFD once: a chart of its own (``node-feature-discovery``, kubernetes-sigs, ``oci://registry.k8s.io/nfd/charts``)
  beside a GPU chart that deploys its NFD subchart too runs two NFD masters over the same nodes (gpu-operator
  values.yaml v26.7.0: ``nfd.enabled`` "false if NFD is already running"); its worker, without ``worker.nodeSelector``
  or ``worker.affinity`` (subchart 0.19.0 values.yaml L772, L788: empty by default), runs on every node.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import yaml

from gpuready.core.props import as_list, as_mapping, as_number, as_text, dig, text_map
from gpuready.core.yaml_limits import YamlLimitError, load_yaml
from gpuready.policy.rules.charts import (
    CHART_V3,
    CHART_V4,
    DEVICE_PLUGIN,
    INSTALL_TYPES,
    OPERATOR,
    RELEASE,
    gpu_release,
    unreadable_chart,
)
from gpuready.policy.rules.gpu_configs import DEFAULT_MAX_REPLICAS, sharing_problems
from gpuready.policy.rules.k8s import any_tolerates, pod_lands_on, schedules_past
from gpuready.policy.rules.stack import CONFIG_MAP, Finding, StackResource, collect, targets
from gpuready.record import record

DAEMON_SET = "kubernetes:apps/v1:DaemonSet"
DEVICE_PLUGIN_IMAGE = "k8s-device-plugin"
"""The image of NVIDIA's device plugin (``nvcr.io/nvidia/k8s-device-plugin``, k8s-device-plugin README)."""
NFD_CHART = "node-feature-discovery"
TYPES = INSTALL_TYPES | {DAEMON_SET, CONFIG_MAP}
"""What these rules read besides the pools."""
_KIND = {RELEASE: "Release", CHART_V3: "Chart (helm.sh/v3)", CHART_V4: "Chart (helm.sh/v4)", DAEMON_SET: "DaemonSet"}


@record(frozen=True, slots=True)
class _PluginDaemonSet:
    name: str
    pod_spec: Mapping[str, Any]
    """Its pod template's spec: ``nodeSelector``, ``affinity``, ``tolerations``."""


def device_plugin_findings(resources: Sequence[StackResource], config: Mapping[str, Any]) -> list[Finding]:
    """Every GPU pool gets at most one device plugin from the stack's charts, releases and DaemonSets."""
    pools, releases = collect(resources)
    by_urn = {r.urn: r for r in resources}
    daemon_sets = [(r, d) for r in resources if (d := _plugin_daemon_set(r)) is not None]
    findings: list[Finding] = []
    for p in pools:
        sources = [
            f"{_KIND.get(by_urn[r.urn].type, 'release')} {r.name!r} ({r.release.chart})"
            for r in releases
            if r.release.runs_device_plugin and targets(r.release, p.pool, "device-plugin")
        ]
        sources += [f"DaemonSet {r.name!r}" for r, d in daemon_sets if _lands_on(d, p.pool.labels, p.pool.taints)]
        own = p.pool.platform_plugin
        raw = any(s.startswith("DaemonSet") for s in sources)
        if len(sources) >= 2 or (own and raw):
            listed = ", ".join(([own] if own else []) + sources)
            findings.append(
                Finding(
                    p.urn,
                    f"GPU pool {p.label}: {len(sources) + bool(own)} device plugins run on its nodes ({listed}); they "
                    "advertise the same GPUs twice and fight over the kubelet's device-plugin socket. Keep one: "
                    "set devicePlugin.enabled: false in the gpu-operator release, or drop the nvidia-device-plugin "
                    "release / DaemonSet, or keep its nodeSelector / node affinity off this pool",
                )
            )
    return findings


def _plugin_daemon_set(resource: StackResource) -> _PluginDaemonSet | None:
    if resource.type != DAEMON_SET:
        return None
    pod = as_mapping(dig(resource.props, "spec", "template", "spec")) or {}
    images = [as_text(dig(c, "image")) or "" for c in as_list(pod.get("containers"))]
    if not any(DEVICE_PLUGIN_IMAGE in image for image in images):
        return None
    return _PluginDaemonSet(resource.name, pod)


def _lands_on(daemon_set: _PluginDaemonSet, labels: Mapping[str, str], taints: Sequence[Any]) -> bool:
    """Whether the DaemonSet's pods may run on a node with ``labels`` and ``taints``: its nodeSelector and required
    node affinity pick the node (``k8s.pod_lands_on``) and its tolerations cover the taints pods cannot pass."""
    if not pod_lands_on(daemon_set.pod_spec, labels):
        return False
    tolerations = as_list(daemon_set.pod_spec.get("tolerations"))
    return all(any_tolerates(tolerations, t) for t in taints if schedules_past(t))


def unreadable_chart_findings(resources: Sequence[StackResource], config: Mapping[str, Any]) -> list[Finding]:
    """Chart resources whose chart and values the rules cannot read, named so nobody takes silence for a pass."""
    return [
        Finding(
            r.urn,
            f"{_KIND.get(r.type, r.type)} {r.name!r}: its chart and values are not among its inputs (a "
            "kubernetes:helm.sh/v3:Chart renders inside the program), so no GPU rule can tell whether it installs "
            "a device plugin, a driver or NFD, and `gpuready plan` does not render it. Use helm.sh/v4 Chart or "
            "helm.sh/v3 Release (their values are inputs), or check the rendered objects with pulumi preview",
        )
        for r in resources
        if unreadable_chart(r.type, r.props)
    ]


def config_map_sharing_findings(resources: Sequence[StackResource], config: Mapping[str, Any]) -> list[Finding]:
    """The sharing configs of the ConfigMap a GPU release names hold replicas within bounds."""
    limit = as_number(config.get("maxReplicas")) or DEFAULT_MAX_REPLICAS
    maps = {as_text(dig(r.props, "metadata", "name")): r for r in resources if r.type == CONFIG_MAP}
    findings: list[Finding] = []
    for r in resources:
        release = gpu_release(r.type, r.props)
        if release is None:
            continue
        path = "config.name" if release.chart == DEVICE_PLUGIN else "devicePlugin.config.name"
        name = as_text(release.value(path))
        config_map = maps.get(name) if name else None
        if config_map is None:
            continue
        data = as_mapping(config_map.props.get("data")) or {}
        for key, text in sorted(data.items()):
            field = f"ConfigMap {name!r} (values.{path} of {r.name!r}) data.{key}"
            document = _yaml_mapping(text)
            if document is None:
                findings.append(Finding(config_map.urn, f"{field}: not a YAML mapping of the device plugin's config"))
                continue
            findings += [Finding(config_map.urn, m) for m in sharing_problems(field, document, limit)]
    return findings


def _yaml_mapping(text: object) -> Mapping[str, Any] | None:
    if not isinstance(text, str):
        return None
    try:
        document = load_yaml(text)
    except (yaml.YAMLError, YamlLimitError):
        return None
    return document if isinstance(document, Mapping) else None


def nfd_findings(resources: Sequence[StackResource], config: Mapping[str, Any]) -> list[Finding]:
    """One NFD per cluster: a chart of its own beside a GPU chart's NFD subchart is two."""
    standalone = [r for r in resources if r.type in INSTALL_TYPES and _chart(r) == NFD_CHART]
    _, releases = collect(resources)
    subcharts = [r for r in releases if r.release.nfd_deployed]
    findings = []
    for r in standalone:
        for s in subcharts:
            key = "nfd.enabled" if s.release.chart in (OPERATOR, DEVICE_PLUGIN) else "nfd"
            findings.append(
                Finding(
                    s.urn,
                    f"{_KIND.get(r.type, r.type)} {r.name!r} installs NFD, and {s.name!r} ({s.release.chart}) deploys "
                    f"its own NFD subchart too: two NFD masters label the same nodes. Set {key}: false in "
                    f"{s.name!r} and keep {r.name!r}, or drop {r.name!r}",
                )
            )
    return findings


def nfd_everywhere_problems(resource_type: str, props: Mapping[str, Any], config: Mapping[str, Any]) -> list[str]:
    """A standalone NFD chart's worker is restricted to the nodes it must label (a resource rule)."""
    if resource_type not in INSTALL_TYPES or chart_name_of(props) != NFD_CHART:
        return []
    values = as_mapping(props.get("values")) or {}
    if dig(values, "worker", "enable") is False:
        return []
    if text_map(dig(values, "worker", "nodeSelector")) or as_mapping(dig(values, "worker", "affinity")):
        return []
    return [
        "values.worker.nodeSelector: not set (nor worker.affinity), so the NFD worker of this chart runs on every "
        "node of the cluster. If it is there for the GPU stack, restrict it to GPU pools with a label they carry "
        "from creation, e.g. {'gpuready.io/gpu-pool': 'true'}"
    ]


def chart_name_of(props: Mapping[str, Any]) -> str:
    base = (as_text(props.get("chart")) or "").rstrip("/").rsplit("/", 1)[-1]
    return base.removesuffix(".tgz").rsplit("-", 1)[0] if base.endswith(".tgz") else base


def _chart(resource: StackResource) -> str:
    return chart_name_of(resource.props)
