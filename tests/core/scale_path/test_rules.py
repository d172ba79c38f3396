"""The scheduler's filters and Karpenter's limit arithmetic, rule by rule (the citation beside each table)."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from gpuready.core.scale_path.karpenter_limits import nodes_within
from gpuready.core.scale_path.model import NewNode, PendingPod
from gpuready.core.scale_path.scheduler_fit import fit, tolerates
from gpuready.core.taints import Taint

GPU = Taint(key="nvidia.com/gpu", value="present", effect="NoSchedule")

# kubernetes/component-helpers v0.34.10 scheduling/corev1/helpers.go L63-87 (Toleration.ToleratesTaint semantics)
TOLERATIONS: list[tuple[str, tuple[Mapping[str, str], ...], Taint, bool]] = [
    ("exists-on-the-key", ({"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"},), GPU, True),
    ("equal-same-value", ({"key": "nvidia.com/gpu", "value": "present", "effect": "NoSchedule"},), GPU, True),
    ("equal-other-value", ({"key": "nvidia.com/gpu", "value": "absent", "effect": "NoSchedule"},), GPU, False),
    ("other-effect", ({"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoExecute"},), GPU, False),
    ("empty-effect-any", ({"key": "nvidia.com/gpu", "operator": "Exists"},), GPU, True),
    ("empty-key-exists-all", ({"operator": "Exists"},), GPU, True),
    ("none", (), GPU, False),
]


@pytest.mark.parametrize(
    ("tolerations", "taint", "expected"), [r[1:] for r in TOLERATIONS], ids=[r[0] for r in TOLERATIONS]
)
def test_tolerations(tolerations: tuple[Mapping[str, str], ...], taint: Taint, expected: bool) -> None:
    assert tolerates(tolerations, taint) is expected


NODE = NewNode(labels={"gpuready.io/pool": "p"}, taints=(GPU, Taint(key="soft", value="x", effect="PreferNoSchedule")),
               allocatable={"nvidia.com/gpu": 4}, devices={"gpu.nvidia.com": 4}, gpus=4)  # fmt: skip
TOLERATE = ({"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"},)
FITS: list[tuple[str, PendingPod, str]] = [
    # component-helpers helpers.go L63-87: NoSchedule/NoExecute must be tolerated, PreferNoSchedule need not be
    ("tolerated", PendingPod(node_selector={"gpuready.io/pool": "p"}, tolerations=TOLERATE,
                             requests={"nvidia.com/gpu": 1}), ""),
    ("untolerated", PendingPod(node_selector={}, tolerations=(), requests={}), "is not tolerated"),
    # component-helpers nodeaffinity.go L306-334: every selected label on the node
    ("selector-miss", PendingPod(node_selector={"gpuready.io/pool": "q"}, tolerations=TOLERATE), "does not carry"),
    # kubernetes v1.34 noderesources/fit.go L617-657 (fitsRequest): Insufficient <resource>
    ("too-many", PendingPod(node_selector={}, tolerations=TOLERATE, requests={"nvidia.com/gpu": 5}), "Insufficient"),
    ("unknown-resource", PendingPod(node_selector={}, tolerations=TOLERATE, requests={"nvidia.com/mig-1g.10gb": 1}),
     "Insufficient nvidia.com/mig-1g.10gb"),
    # resource.k8s.io/v1 allocation: enough devices of the class; attributes the driver publishes
    ("claim", PendingPod(node_selector={}, tolerations=TOLERATE, device_class="gpu.nvidia.com", devices=2), ""),
    ("claim-other-class", PendingPod(node_selector={}, tolerations=TOLERATE, device_class="mig.nvidia.com",
                                     devices=1), "no 1 devices of DeviceClass mig.nvidia.com"),
    ("claim-unpublished-attribute", PendingPod(node_selector={}, tolerations=TOLERATE, device_class="gpu.nvidia.com",
                                               devices=1, selector_attributes=("profile",)), "does not publish"),
]  # fmt: skip


@pytest.mark.parametrize(("pod", "words"), [r[1:] for r in FITS], ids=[r[0] for r in FITS])
def test_scheduler_fit(pod: PendingPod, words: str) -> None:
    decision = fit(pod, NODE)
    assert decision.ok is (words == "")
    assert words in decision.reason
    assert decision.ok or (decision.cite and decision.fix)


# kubernetes-sigs/karpenter v1.14.1 statenode.go L359-375 (reported capacity counted), scheduler.go L711-715 (nodes
# limit) and L1069-1085 (an instance type launches while its physical GPUs fit what remains)
LIMITS: list[tuple[str, dict[str, str], int, int, int, int]] = [
    # id, limits, instance GPUs, reported per node, ceiling, nodes Karpenter launches
    ("physical-limit-time-sliced", {"nvidia.com/gpu": "16"}, 4, 16, 4, 1),  # the eks-karpenter l4-shared
    ("physical-limit-t4-shared", {"nvidia.com/gpu": "4"}, 1, 4, 4, 1),  # aks-nap t4shared
    ("physical-limit-mps-l40s", {"nvidia.com/gpu": "3"}, 1, 2, 3, 2),  # MPS x2: 2 of 3
    ("physical-limit-mig-single-h200", {"nvidia.com/gpu": "16"}, 8, 56, 2, 1),  # 1 of 2
    ("reported-limit", {"nvidia.com/gpu": "64", "nodes": "4"}, 4, 16, 4, 4),
    ("nodes-limit-binds", {"nvidia.com/gpu": "640", "nodes": "2"}, 4, 16, 4, 2),
    ("renamed-reports-none", {"nvidia.com/gpu": "4"}, 1, 0, 5, 5),
    ("limit-below-one-node", {"nvidia.com/gpu": "2"}, 4, 4, 4, 0),
    ("no-limits", {}, 8, 8, 3, 3),
]


@pytest.mark.parametrize(
    ("limits", "gpus", "reported", "ceiling", "expected"), [r[1:] for r in LIMITS], ids=[r[0] for r in LIMITS]
)
def test_nodes_within_limits(limits: dict[str, str], gpus: int, reported: int, ceiling: int, expected: int) -> None:
    assert nodes_within(limits, gpus, reported, ceiling) == expected
