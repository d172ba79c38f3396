"""Check that a GPU node advertises the extended resources its pool promises: whole, shared or MIG. Pure: no I/O.

These are the node checks of the extended-resources advertiser (``core.advertisers.extended_resources``),
registered in ``advertised.NODE_CHECKS``.

When nothing is advertised the finding names the likely reason, in the order a person would check:
node not Ready, device plugin disabled by label, no label the device plugin selects on, an untolerated
taint, then driver or plugin not ready yet.
"""

from __future__ import annotations

from gpuready.core import namespaces
from gpuready.core.advertisers.extended_resources import MIG_RESOURCE_PREFIX
from gpuready.core.advertisers.registry import is_gpu_resource
from gpuready.core.quantities import whole_count
from gpuready.core.scheduling import (
    GPU_TAINT_KEY,
    LABEL_DEPLOY_DRA_DRIVER,
    LABEL_DEVICE_PLUGIN_CONFIG,
    LABEL_GPU_PRESENT,
    LABEL_MIG_CONFIG,
    SHARED_GPU_RESOURCE,
)
from gpuready.verify import findings as f
from gpuready.verify.expectations import Expectation, advertised_gpu_resources
from gpuready.verify.findings import Finding, show_node
from gpuready.verify.node_labels import (
    LABEL_DEPLOY_DEVICE_PLUGIN,
    LABEL_GFD_PRODUCT,
    LABEL_GFD_REPLICAS,
    LABEL_MIG_CONFIG_STATE,
    LIFECYCLE_TAINT_PREFIX,
    MIG_INVALID_SUFFIX,
    NFD_NVIDIA_PCI_LABELS,
    cloud_node_labels,
    partition_labels,
)
from gpuready.verify.nodes import NodeView

_ALLOCATABLE_PATH = "{.status.allocatable}"
_OPERATOR = namespaces.GPU_OPERATOR


def check_resources(view: NodeView, expectation: Expectation) -> list[Finding]:
    """Findings about advertised GPU resources, sharing and MIG."""
    found = _mig_state(view, expectation)
    found += _shared_labels(view, expectation)
    found += _gpu_cluster_reach(view, expectation)
    if not advertised_gpu_resources(view):
        return [*found, _not_advertised(view, expectation)]
    found += _counts(view, expectation)
    return found


def _gpu_cluster_reach(view: NodeView, expectation: Expectation) -> list[Finding]:
    """A device-plugin node the GPU Operator's GPUCluster labelled for its DRA kubelet plugin (it sets
    ``nvidia.com/gpu.deploy.dra-driver=true`` on every GPU node NFD shows, unless the label is there already)."""
    if view.labels.get(LABEL_DEPLOY_DRA_DRIVER) != "true":
        return []
    return [
        _finding(
            view,
            f.DEVICE_PLUGIN_NODE_HAS_DRA_PLUGIN,
            f"label {LABEL_DEPLOY_DRA_DRIVER}: 'true' on a node of device-plugin pool {expectation.pool!r}; expected "
            "absent or 'false'",
            "a GPU Operator with a GPUCluster labelled the node, so its DRA kubelet plugin runs here beside the device "
            "plugin and both hand out the same GPUs",
            f"kubectl label node {view.name} {LABEL_DEPLOY_DRA_DRIVER}=false --overwrite, and give the pool "
            f"labels: {{{LABEL_DEPLOY_DRA_DRIVER}: 'false'}} so new nodes start with it",
            reproduce=show_node(view.name, "{.metadata.labels}"),
        )
    ]


def _finding(view: NodeView, code: str, message: str, cause: str, fix: str, *, reproduce: str = "") -> Finding:
    return Finding(
        node=view.name, severity="error", code=code, message=message, cause=cause, fix=fix,
        reproduce=reproduce or show_node(view.name, _ALLOCATABLE_PATH),
    )  # fmt: skip


def _not_advertised(view: NodeView, expectation: Expectation) -> Finding:
    wanted = ", ".join(f"{k}={v}" for k, v in sorted(expectation.allocatable.items())) or "any nvidia.com GPU resource"
    capacity = {k: v for k, v in view.capacity.items() if is_gpu_resource(k) and v > 0}
    if capacity:
        cause = (
            f"capacity shows {capacity} but nothing is allocatable: the device plugin marked the GPUs "
            "unhealthy (look for Xid errors in the device plugin log)"
        )
    else:
        cause = "; ".join(likely_reasons(view))
    return _finding(
        view,
        f.GPUS_NOT_ADVERTISED,
        f"allocatable: no GPUs advertised; expected {wanted}",
        cause,
        "find the device plugin pod on the node: "
        f"kubectl get pods -A -o wide --field-selector spec.nodeName={view.name}",
    )


def likely_reasons(view: NodeView) -> list[str]:
    """Why no device plugin advertises GPUs on a node, most likely first."""
    labels = view.labels
    if not view.ready:
        return [f"the node is not Ready ({view.not_ready_reason})"]
    if labels.get(LABEL_DEPLOY_DEVICE_PLUGIN) == "false":
        return [f"{LABEL_DEPLOY_DEVICE_PLUGIN}=false disables the GPU Operator's device plugin on this node"]
    reasons: list[str] = []
    if labels.get(LABEL_GPU_PRESENT) != "true" and not any(labels.get(k) == "true" for k in NFD_NVIDIA_PCI_LABELS):
        reasons.append(
            f"no device plugin is scheduled: the NVIDIA device plugin and GPU Operator select nodes by "
            f"{LABEL_GPU_PRESENT}=true or {NFD_NVIDIA_PCI_LABELS[0]}=true and the node has neither (is NFD running?)"
        )
    others = [t for t in view.taints if t.key != GPU_TAINT_KEY and not t.key.startswith(LIFECYCLE_TAINT_PREFIX)]
    if others:
        reasons.append(
            "the device plugin DaemonSet must tolerate the node's other taints "
            f"{', '.join(str(t) for t in others)} (eksctl#5277)"
        )
    odd_gpu = [t for t in view.taints if t.key == GPU_TAINT_KEY and t.value not in ("", "present")]
    if odd_gpu:
        reasons.append(f"taint {odd_gpu[0]} is not tolerated by a toleration 'Equal present' (k8s-device-plugin#1934)")
    last = "the driver is not ready or the device plugin has not registered yet"
    reasons.append(f"otherwise {last}" if reasons else last)
    return reasons


def _counts(view: NodeView, expectation: Expectation) -> list[Finding]:
    found: list[Finding] = []
    advertised = advertised_gpu_resources(view)
    expected = dict(expectation.allocatable)
    if not expected and expectation.replicas and not expectation.mig:
        return _shared_by_divisibility(view, expectation, advertised)
    mig_expected = {k: v for k, v in expected.items() if k.startswith(MIG_RESOURCE_PREFIX)}
    mig_advertised = {k: v for k, v in advertised.items() if k.startswith(MIG_RESOURCE_PREFIX)}
    if expected and mig_expected != mig_advertised and (mig_expected or mig_advertised):
        wanted = _asked_for(expectation)
        found.append(_finding(
            view, f.MIG_RESOURCES_MISMATCH,
            f"allocatable: MIG resources differ; got {mig_advertised or 'none'}, expected {mig_expected or 'none'}",
            f"the MIG layout or the device plugin's MIG strategy on the node is not {wanted} (mixed advertises "
            "nvidia.com/mig-<profile>, single advertises nvidia.com/gpu)",
            f"check nvidia.com/mig.config and the MIG manager log: kubectl logs -n {_OPERATOR} "
            "-l app=nvidia-mig-manager --tail=50",
        ))  # fmt: skip
    for name, want in sorted(expected.items()):
        have = view.allocatable.get(name, 0)
        if have == want or name.startswith(MIG_RESOURCE_PREFIX):
            continue
        found.append(_count_finding(view, expectation, name, have, want))
    return found


def _shared_by_divisibility(view: NodeView, expectation: Expectation, advertised: dict[str, int]) -> list[Finding]:
    """Shared GPUs whose count is unknown (GKE N1 with attached GPUs: the machine type does not say how many):
    applied time-sharing advertises ``GPUs x clients per GPU``, so a count that is not a multiple of the clients
    per GPU means it is not applied (a multiple may still be one unshared GPU per client: not provable here)."""
    replicas = expectation.replicas or 1
    shared = {k: v for k, v in advertised.items() if not k.startswith(MIG_RESOURCE_PREFIX) and v}
    bad = {name: have for name, have in sorted(shared.items()) if have % replicas}
    if not bad:
        return []
    name, have = next(iter(bad.items()))
    evidence = expectation.sharing_evidence
    return [_finding(
        view, f.SHARING_NOT_APPLIED,
        f"allocatable {name}: not a multiple of the {replicas} clients per GPU; got {have}",
        f"the node's labels ask for sharing ({evidence}), but it advertises a count that sharing cannot give "
        f"(each GPU advertises {replicas} units when sharing is applied); the GPU count is not in the machine type, "
        "so the count is judged by divisibility",
        f"look at the node pool's GPU sharing config: kubectl get node {view.name} -o yaml, and recreate the pool's "
        "nodes if the setting was added after they were made",
        reproduce=_labels_and_allocatable(view),
    )]  # fmt: skip


def _count_finding(view: NodeView, expectation: Expectation, name: str, have: int, want: int) -> Finding:
    message = f"allocatable {name}: wrong count; got {have}, expected {want}"
    replicas = expectation.replicas
    evidence = expectation.sharing_evidence
    asked = f"the node's labels ask for it ({evidence}), but " if evidence else ""
    if replicas and (name == SHARED_GPU_RESOURCE or have == expectation.gpus_per_node):
        cause = (
            f"the renamed resource {name} is absent, so the sharing config (renameByDefault) is not applied"
            if have == 0
            else f"the node advertises one unit per physical GPU instead of {replicas} per GPU"
        )
        return _finding(
            view, f.SHARING_NOT_APPLIED, message,
            asked + cause + "; the device plugin reads its config at start-up only, and a config key missing "
            "from its ConfigMap falls back to the default (no sharing)",
            f"check that {LABEL_DEVICE_PLUGIN_CONFIG} names a key of the device plugin's ConfigMap, then restart "
            f"the plugin: kubectl rollout restart -n {_OPERATOR} daemonset/nvidia-device-plugin-daemonset",
            reproduce=_labels_and_allocatable(view) if asked else "",
        )  # fmt: skip
    if expectation.mig:
        cause = asked + (
            "the MIG layout on the node differs" if asked else "the MIG layout on the node differs from the pool's"
        )
        fix = f"kubectl logs -n {_OPERATOR} -l app=nvidia-mig-manager --tail=50"
        reproduce = _labels_and_allocatable(view) if asked else ""
        return _finding(view, f.MIG_RESOURCES_MISMATCH, message, cause, fix, reproduce=reproduce)
    return _finding(
        view, f.ALLOCATABLE_MISMATCH, message,
        "fewer GPUs are healthy than the instance type has (Xid errors, a failed GPU), or the node runs "
        "another instance type",
        f"kubectl describe node {view.name}",
    )  # fmt: skip


def _asked_for(expectation: Expectation) -> str:
    """Whose sharing or MIG the node should have: the pool's, or what the node's own labels ask for."""
    if expectation.inferred and expectation.sharing_evidence:
        return f"its labels ask for ({expectation.sharing_evidence})"
    return "the pool's"


def _labels_and_allocatable(view: NodeView) -> str:
    """The node's labels (its sharing configuration among them), then what it advertises."""
    return show_node(view.name, '{.metadata.labels}{"\\n"}{.status.allocatable}')


def _mig_state(view: NodeView, expectation: Expectation) -> list[Finding]:
    found: list[Finding] = []
    state = view.labels.get(LABEL_MIG_CONFIG_STATE)
    logs = f"kubectl logs -n {_OPERATOR} -l app=nvidia-mig-manager --tail=50"
    show = f"kubectl get node {view.name} -L {LABEL_MIG_CONFIG_STATE} -L {LABEL_MIG_CONFIG}"
    if state == "failed":
        found.append(_finding(
            view, f.MIG_CONFIG_FAILED, f"label {LABEL_MIG_CONFIG_STATE}: MIG reconfiguration failed; got 'failed'",
            "mig-parted could not apply nvidia.com/mig.config: GPU workloads still running, GPU reset unsupported "
            "on the VM (set WITH_REBOOT=true), or a layout the GPU does not support",
            f"read the MIG manager log: {logs}", reproduce=show,
        ))  # fmt: skip
    elif state in ("pending", "rebooting"):
        found.append(_finding(
            view, f.MIG_CONFIG_PENDING,
            f"label {LABEL_MIG_CONFIG_STATE}: MIG reconfiguration in progress; got {state!r}",
            "the MIG manager is applying nvidia.com/mig.config; GPU operands restart afterwards",
            f"wait, and watch the MIG manager: {logs}", reproduce=show,
        ))  # fmt: skip
    product = view.labels.get(LABEL_GFD_PRODUCT, "")
    if product.endswith(MIG_INVALID_SUFFIX):
        found.append(_finding(
            view, f.MIG_INVALID,
            f"label {LABEL_GFD_PRODUCT}: MIG layout invalid for the single strategy; got {product!r}",
            "the single strategy needs one MIG profile on every GPU of the node; GFD advertises 0 devices otherwise",
            "use a homogeneous layout (all-<profile>) or the mixed strategy; then: " + logs,
            reproduce=f"kubectl get node {view.name} -L {LABEL_GFD_PRODUCT}",
        ))  # fmt: skip
    want = expectation.cloud_partition_size
    cloud = partition_labels(view.labels) if want is not None else None
    have = view.labels.get(cloud.partition_size) if cloud is not None else None
    if cloud is not None and have != want:
        label = cloud.partition_size
        found.append(_finding(
            view, f.CLOUD_PARTITION_MISMATCH,
            f"label {label}: wrong MIG partition; got {have!r}, expected {want!r}",
            cloud.partition_cause, cloud.partition_fix, reproduce=f"kubectl get node {view.name} -L {label}",
        ))  # fmt: skip
    return found


def _shared_labels(view: NodeView, expectation: Expectation) -> list[Finding]:
    found: list[Finding] = []
    replicas = expectation.replicas
    if replicas is None:
        return found
    clouds = [(c.shared_clients, expectation.cloud_shared_clients) for c in cloud_node_labels() if c.shared_clients]
    checks = [(LABEL_GFD_REPLICAS, replicas), *clouds]
    for key, want in checks:
        raw = view.labels.get(key)
        if want is None or raw is None or whole_count(raw) == want:
            continue
        found.append(_finding(
            view, f.SHARING_NOT_APPLIED, f"label {key}: GPU sharing not applied; got {raw!r}, expected '{want}'",
            f"the node runs with another sharing config than {_asked_for(expectation)} (config label, ConfigMap "
            "key, or a plugin that has not restarted since the config changed)",
            f"check nvidia.com/device-plugin.config on the node, then: kubectl rollout restart -n {_OPERATOR} "
            "daemonset/nvidia-device-plugin-daemonset",
            reproduce=f"kubectl get node {view.name} -L {key}",
        ))  # fmt: skip
    return found
