"""Stack rules: invariants across GPU pools and the GPU stack (GPU Operator / device-plugin releases). Pure.

Every rule takes the stack's resources (type, URN, name, props) and a config, and returns findings, each
with the URN of the resource to fix. A stack is assumed to target one cluster.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from gpuready.core import scheduling
from gpuready.core.advertisers.dra import DYNAMIC_RESOURCES
from gpuready.core.gpu_stack.kinds.dra_driver import DRA_DRIVER
from gpuready.core.props import as_flag, as_mapping, as_text, dig, text_map
from gpuready.core.taints import Taint
from gpuready.policy.rules.charts import NFD_KEY, OPERATOR, RELEASE, GpuRelease, gpu_release, unreadable_chart
from gpuready.policy.rules.elastic_pools import elastic_pools
from gpuready.policy.rules.gpu_configs import custom_mig_configs
from gpuready.policy.rules.gpu_pools import GpuPool, describe, gpu_pools
from gpuready.policy.rules.k8s import any_tolerates, schedules_past, selector_matches
from gpuready.record import record

CONFIG_MAP = "kubernetes:core/v1:ConfigMap"


@record(frozen=True, slots=True)
class StackResource:
    """One resource of the stack as a stack rule sees it."""

    type: str
    urn: str
    name: str
    props: Mapping[str, Any]


class Finding(NamedTuple):
    """A stack violation: the URN of the resource to fix, and the message."""

    urn: str
    message: str


@record(frozen=True, slots=True)
class _Pool:
    urn: str
    label: str
    pool: GpuPool


@record(frozen=True, slots=True)
class _Release:
    urn: str
    name: str
    release: GpuRelease


def collect(resources: Sequence[StackResource]) -> tuple[list[_Pool], list[_Release]]:
    """The stack's GPU pools (its GPU NodePools and ComputeClasses whose cloud is known too) and GPU releases."""
    pools, releases = [], []
    for r in resources:
        pools += [_Pool(r.urn, describe(p, r.name), p) for p in gpu_pools(r.type, r.props)]
        found = elastic_pools(r.type, r.props)
        pools += [_Pool(r.urn, f"{r.name} ({p.name})" if p.name else r.name, p) for p in found]
        release = gpu_release(r.type, r.props)
        if release is not None:
            releases.append(_Release(r.urn, r.name, release))
    return pools, releases


def driver_owner_findings(resources: Sequence[StackResource], config: Mapping[str, Any]) -> list[Finding]:
    """One driver and one device plugin per GPU pool, across the node image / cloud and the GPU stack.

    Of elastic pools only the device plugin is judged (EKS Auto Mode's and GKE's own against the releases'): their
    driver is decided by their node class (an EC2NodeClass AMI alias, an AKSNodeClass ``gpu.mode``), which this rule
    does not follow yet."""
    pools, releases = collect(resources)
    operators = [r for r in releases if r.release.chart == OPERATOR]
    findings: list[Finding] = []
    for p in pools:
        elastic = p.pool.elastic
        preinstalled = p.pool.driver_owner
        plugin = p.pool.platform_plugin
        for r in releases:
            if r.release.runs_driver and preinstalled and not _opted_out(p.pool, "driver"):
                message = (
                    f"GPU pool {p.label}: two NVIDIA driver owners: {preinstalled} installs the driver, and GPU "
                    f"Operator release {r.name!r} runs its driver containers (driver.enabled is true by default). "
                    f"Set driver.enabled: false and toolkit.enabled: false in {r.name!r}, or "
                    f"{p.pool.reading.policy_driver_hand_over}, "
                    f"or label the pool {scheduling.LABEL_DEPLOY_PREFIX}driver=false"
                )
                findings.append(Finding(p.urn, message))
            if plugin and r.release.runs_device_plugin and _targets(r.release, p.pool, "device-plugin"):
                fix = (
                    f"Label its nodes {scheduling.LABEL_DEPLOY_PREFIX}device-plugin=false in its template labels (the "
                    "operator then skips them), or keep the device-plugin release's nodeSelector off them"
                    if elastic
                    else p.pool.reading.policy_plugin_fix
                )
                message = (
                    f"GPU pool {p.label}: two device plugins: {plugin} already runs one, and release {r.name!r} "
                    f"deploys NVIDIA's. {fix}"
                )
                findings.append(Finding(p.urn, message))
        unowned = not elastic and not preinstalled and operators and not any(r.release.runs_driver for r in operators)
        unowned_message = p.pool.reading.policy_unowned_driver
        if unowned and unowned_message:
            findings.append(Finding(p.urn, f"GPU pool {p.label}: {unowned_message}"))
    return findings


def served_findings(resources: Sequence[StackResource], config: Mapping[str, Any]) -> list[Finding]:
    """Every GPU pool has a device plugin: the cloud's (GKE), Bottlerocket's, or a release in this stack."""
    pools, releases = collect(resources)
    dra_driver = any(r.type == RELEASE and as_text(r.props.get("chart")) == DRA_DRIVER.name for r in resources)
    dra_driver = dra_driver or any(r.release.deploys_gpu_cluster for r in releases)
    unreadable = [f"Chart {r.name!r}" for r in resources if unreadable_chart(r.type, r.props)]
    findings = []
    for p in pools:
        if p.pool.labels.get(scheduling.LABEL_ADVERTISE) == DYNAMIC_RESOURCES.pool_value:
            if not dra_driver:
                message = (
                    f"GPU pool {p.label}: a DRA pool ({scheduling.LABEL_ADVERTISE}={DYNAMIC_RESOURCES.pool_value}) "
                    f"and no {DRA_DRIVER.name} Helm release (or GPU Operator release with gpuCluster.deployCR) in this "
                    "stack publishes its GPUs. Add one (gpuStack kind dra-driver or gpu-operator-dra), or ignore this "
                    "if another stack installs the cluster's DRA driver"
                )
                findings.append(Finding(p.urn, message))
            continue
        if p.pool.platform_plugin:
            continue
        if any(r.release.runs_device_plugin and _targets(r.release, p.pool, "device-plugin") for r in releases):
            continue
        if unreadable:
            message = (
                f"GPU pool {p.label}: no release here runs a device plugin on it, and {', '.join(unreadable)} cannot "
                "be read (a helm.sh/v3 Chart renders inside the program), so whether anything advertises its GPUs "
                "cannot be told. Use a helm.sh/v4 Chart or a Release for the GPU stack"
            )
            findings.append(Finding(p.urn, message))
            continue
        message = (
            f"GPU pool {p.label}: nothing in this stack advertises its GPUs: "
            f"{p.pool.reading.policy_why_unserved}, and "
            "no gpu-operator or nvidia-device-plugin Helm release here runs a device plugin on it. Add one (chart "
            "nvidia-device-plugin 0.20.0 or gpu-operator v26.7.0), or ignore this if another stack installs the "
            "cluster's GPU stack"
        )
        findings.append(Finding(p.urn, message))
    return findings


def taint_toleration_findings(resources: Sequence[StackResource], config: Mapping[str, Any]) -> list[Finding]:
    """Each GPU-stack DaemonSet tolerates every NoSchedule/NoExecute taint of the GPU pools it must run on
    (NVIDIA/k8s-device-plugin#1934: ``Equal present`` vs ``=true``; eksctl#5277: extra pool taints)."""
    pools, releases = collect(resources)
    findings = []
    for r in releases:
        for path, tolerations, _ in r.release.daemonset_tolerations():
            missing: dict[Taint, list[str]] = {}
            for p in pools:
                if not _targets(r.release, p.pool, "device-plugin") or not _nfd_targets(r.release, p.pool, path):
                    continue
                for taint in p.pool.taints:
                    if schedules_past(taint) and not any_tolerates(tolerations, taint):
                        missing.setdefault(taint, []).append(p.label)
            for taint, labels in missing.items():
                fix = {"key": taint.key, "operator": "Exists", "effect": taint.effect}
                message = (
                    f"release {r.name!r} values.{path}: does not tolerate taint {taint} of GPU pool(s) "
                    f"{', '.join(sorted(labels))}, so that DaemonSet never runs there and the GPUs are never "
                    f"advertised. Add {fix!r} to values.{path}"
                )
                findings.append(Finding(r.urn, message))
    return findings


def mig_manager_findings(resources: Sequence[StackResource], config: Mapping[str, Any]) -> list[Finding]:
    """The MIG manager is configured only with MIG-capable pools, and pools asking for a MIG layout get one."""
    pools, releases = collect(resources)
    operators = [r for r in releases if r.release.chart == OPERATOR]
    mig_pools = [p for p in pools if p.pool.mig_capable]
    findings = []
    for r in operators:
        if pools and not mig_pools and r.release.runs_mig_manager and _configures_mig(r.release):
            models = sorted({p.pool.model.display for p in pools if p.pool.model is not None}) or ["unknown GPUs"]
            message = (
                f"release {r.name!r}: configures the MIG manager (migManager / mig.strategy values), but no GPU "
                f"pool in this stack is MIG-capable ({', '.join(models)}). Set migManager.enabled: false and drop "
                "the MIG values, or add an A100/H100/H200/B200 pool"
            )
            findings.append(Finding(r.urn, message))
    for p in mig_pools:
        layout = p.pool.labels.get(scheduling.LABEL_MIG_CONFIG)
        if layout is None or layout == "all-disabled" or not releases:
            continue
        managers = [r for r in operators if r.release.runs_mig_manager and not _opted_out(p.pool, "mig-manager")]
        if not managers:
            message = (
                f"GPU pool {p.label}: asks for MIG layout {layout!r} ({scheduling.LABEL_MIG_CONFIG}), but no GPU "
                "Operator release here runs the MIG manager, so the GPUs are never partitioned. Enable "
                "migManager in the gpu-operator release, or remove the label"
            )
            findings.append(Finding(p.urn, message))
            continue
        if not layout.startswith("all-"):
            maps = _config_maps(resources)
            findings += [Finding(p.urn, m) for r in managers if (m := _custom_layout_problem(p, r, layout, maps))]
    return findings


def _config_maps(resources: Sequence[StackResource]) -> dict[str, Mapping[str, Any]]:
    """ConfigMaps of the stack: Kubernetes name -> data."""
    maps: dict[str, Mapping[str, Any]] = {}
    for r in resources:
        if r.type != CONFIG_MAP:
            continue
        name = as_text(dig(r.props, "metadata", "name"))
        data = as_mapping(r.props.get("data"))
        if name and data is not None:
            maps[name] = data
    return maps


def _custom_layout_problem(p: _Pool, r: _Release, layout: str, maps: Mapping[str, Mapping[str, Any]]) -> str:
    names = custom_mig_configs(r.release, maps)
    if names is not None and layout in names:
        return ""
    external = as_text(r.release.value("migManager.config.name"))
    if names is None and external:
        return ""  # a ConfigMap made outside this stack: its layouts cannot be read here
    have = ", ".join(sorted(names)) if names else "only the generated per-node all-* layouts"
    return (
        f"GPU pool {p.label}: MIG layout {layout!r} is not in the mig-parted config of release {r.name!r} (it "
        f"has {have}), so the MIG manager marks the node failed. Add {layout!r} to "
        "migManager.config.data['config.yaml'] mig-configs, or use an all-<profile> layout"
    )


def _opted_out(pool: GpuPool, operand: str) -> bool:
    labels = pool.labels
    return "false" in (
        labels.get(scheduling.LABEL_DEPLOY_PREFIX + operand),
        labels.get(scheduling.LABEL_DEPLOY_PREFIX + "operands"),
    )


def _targets(release: GpuRelease, pool: GpuPool, operand: str) -> bool:
    """Whether the release's GPU DaemonSets land on the pool: operator operands unless the pool opts out by label,
    the plugin chart where its ``nodeSelector`` matches."""
    if release.chart == OPERATOR:
        return not _opted_out(pool, operand)
    return selector_matches(release.node_selector(), pool.labels)


targets = _targets
"""Whether a release's GPU DaemonSets land on a pool (for the cross-resource rules)."""


def _nfd_targets(release: GpuRelease, pool: GpuPool, path: str) -> bool:
    if not path.startswith(NFD_KEY[release.chart] + "."):
        return True
    selector = text_map(release.value(f"{NFD_KEY[release.chart]}.worker.nodeSelector"))
    return selector_matches(selector, pool.labels)


def _configures_mig(release: GpuRelease) -> bool:
    explicit = as_mapping(release.value("migManager.config")) is not None or release.value("migManager.env") is not None
    return explicit or release.value("mig.strategy") == "mixed" or as_flag(release.value("migManager.enabled")) is True
