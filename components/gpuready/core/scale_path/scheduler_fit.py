"""The scheduler's answer: is a pending GPU pod placed on a node the autoscaler made for it. Pure.

Rules, each with the upstream code it encodes (the same as the kube-scheduler's Filter plugins run):

- Taints: every ``NoSchedule`` / ``NoExecute`` taint of the node must be tolerated (kubernetes/component-helpers
  v0.34.10 ``scheduling/corev1/helpers.go`` L63-87 ``TolerationsTolerateTaint`` / ``FindMatchingUntoleratedTaint``,
  which the TaintToleration plugin calls with exactly those effects).
- Node selector: every label the pod selects is on the node with that value (``scheduling/corev1/nodeaffinity/
  nodeaffinity.go`` L306-334 ``GetRequiredNodeAffinity`` / ``Match``).
- Extended resources: each request at most what the node advertises (kubernetes/kubernetes v1.34
  ``pkg/scheduler/framework/plugins/noderesources/fit.go`` L564-660 ``fitsRequest``, its extended resources
  L617-657: ``Insufficient <resource>``; requests summed per kubernetes/component-helpers v0.34.10
  ``resource/helpers.go`` L144 ``PodRequests``).
- DRA: the claim's DeviceClass has enough devices in the node's ResourceSlices, and every attribute its CEL
  selectors read is one the pinned driver publishes on such devices (a reference to an unknown field is an
  evaluation error that aborts allocation: kubernetes/api v0.34.10 ``resource/v1/types.go`` L1087-1143
  ``CELDeviceSelector``, L1088-1091 and L1123-1126; the attributes are ``advertisers.device_selectors``' table of
  NVIDIA's DRA driver).
"""

from __future__ import annotations

from collections.abc import Mapping

from gpuready.core.advertisers.device_selectors import attribute_kind
from gpuready.core.scale_path.model import Decision, NewNode, PendingPod
from gpuready.core.taints import Taint

TAINTS = "kubernetes/component-helpers v0.34.10 scheduling/corev1/helpers.go L63-87"
SELECTOR = "kubernetes/component-helpers v0.34.10 scheduling/corev1/nodeaffinity/nodeaffinity.go L306-334"
RESOURCES = "kubernetes/kubernetes v1.34 pkg/scheduler/framework/plugins/noderesources/fit.go L564-660 (fitsRequest)"
DEVICES = (
    "kubernetes/api v0.34.10 resource/v1/types.go L1087-1143 (CELDeviceSelector: a reference to an unknown field "
    "aborts allocation, L1123-1126)"
)
FILTERED_EFFECTS = ("NoSchedule", "NoExecute")


def tolerates(tolerations: tuple[Mapping[str, str], ...], taint: Taint) -> bool:
    """Whether any toleration tolerates ``taint`` (empty key with Exists tolerates every key; empty effect every
    effect; Exists any value, Equal (the default) the same value)."""
    for toleration in tolerations:
        effect = toleration.get("effect", "")
        if effect and effect != taint.effect:
            continue
        key = toleration.get("key", "")
        operator = toleration.get("operator", "Equal")
        if not key:
            if operator == "Exists":
                return True
            continue
        if key != taint.key:
            continue
        if operator == "Exists" or toleration.get("value", "") == taint.value:
            return True
    return False


def fit(pod: PendingPod, node: NewNode) -> Decision:
    """Whether the scheduler places ``pod`` on ``node``; the first rule that refuses it, with its fix."""
    for taint in node.taints:
        if taint.effect in FILTERED_EFFECTS and not tolerates(pod.tolerations, taint):
            return Decision.no(
                f"the node's taint {taint.key}={taint.value}:{taint.effect} is not tolerated",
                TAINTS,
                f"add a toleration of {taint.key} to the pod (the workload helper's tolerations)",
            )
    for key, value in pod.node_selector.items():
        if node.labels.get(key) != value:
            return Decision.no(
                f"the pod selects {key}={value}, which the node does not carry",
                SELECTOR,
                f"label the pool's nodes {key}={value} or drop the selector",
            )
    for name, count in pod.requests.items():
        if node.allocatable.get(name, 0) < count:
            return Decision.no(
                f"Insufficient {name}: the node advertises {node.allocatable.get(name, 0)}",
                RESOURCES,
                "request a resource the pool's nodes advertise (the pool's allocatable output)",
            )
    if pod.device_class is not None:
        if node.devices.get(pod.device_class, 0) < pod.devices:
            return Decision.no(
                f"the node publishes no {pod.devices} devices of DeviceClass {pod.device_class}",
                DEVICES,
                "claim the pool's DeviceClass",
            )
        for attribute in pod.selector_attributes:
            if attribute_kind(attribute, mig=node.mig) is None:
                return Decision.no(
                    f"the claim's selector reads device attribute {attribute!r}, which the driver does "
                    "not publish on these devices",
                    DEVICES,
                    "select on a published attribute",
                )
    return Decision(ok=True)
