"""The scale-path model, rule by rule: one row per upstream rule, the citation beside it.

Each row is a pool (as users write it) on a cluster as the stack declares it, the shape asked, and the answer the
model gives: whether the pod gets a node and runs there, up to how many nodes, or the words of the refusal.
"""

from __future__ import annotations

from typing import Any

import pytest

from gpuready.core.clouds.registry import Cloud
from gpuready.core.pool_config import parse_pools
from gpuready.core.scale_path.model import DEFAULT_CLUSTER, ClusterFacts
from gpuready.core.scale_path.verdict import pool_verdict

OVERLAY = ClusterFacts(karpenter_feature_gates=frozenset({"NodeOverlay"}))

ROWS: list[tuple[str, Cloud, dict[str, Any], ClusterFacts, str]] = [
    # id, cloud, pool, cluster, expected SCALES text (or its start); the rule it encodes follows each row.
    ("karpenter-time-sliced-limit-counts-shares", "eks",
     {"name": "l4", "provisioner": "karpenter", "instanceType": "g6.12xlarge", "maxSize": 4,
      "sharing": {"mode": "time-slicing", "replicas": 4}}, DEFAULT_CLUSTER, "yes 0->4 nodes"),
    # kubernetes-sigs/karpenter v1.14.1 statenode.go L359-375 + scheduler.go L1069-1085: limit in reported units
    ("karpenter-mps-l40s-three-nodes", "eks",
     {"name": "l40s", "provisioner": "karpenter", "instanceType": "g6e.xlarge", "maxSize": 3,
      "sharing": {"mode": "mps", "replicas": 4}}, DEFAULT_CLUSTER, "yes 0->3 nodes"),
    # same rule, MPS (the L40S pool stopped at 2 of 3)
    ("karpenter-mig-single-limit-counts-mig-devices", "eks",
     {"name": "h100", "provisioner": "karpenter", "instanceType": "p5.48xlarge", "maxSize": 2,
      "sharing": {"mode": "mig", "profile": "1g.10gb"}}, DEFAULT_CLUSTER, "yes 0->2 nodes"),
    # same rule, MIG single (each MIG device reported as nvidia.com/gpu)
    ("karpenter-gpu-limit-bounds-nodes", "eks",
     {"name": "a10g", "provisioner": "karpenter", "instanceType": "g5.12xlarge", "maxSize": 4, "gpuLimit": 8},
     DEFAULT_CLUSTER, "yes 0->2 nodes"),
    # scheduler.go L711-715: the nodes limit (gpuLimit 8 / 4 GPUs = 2 nodes)
    ("karpenter-mig-mixed-without-overlay", "eks",
     {"name": "h100", "provisioner": "karpenter", "instanceType": "p5.48xlarge", "maxSize": 1,
      "sharing": {"mode": "mig", "profile": "1g.10gb", "strategy": "mixed"}}, DEFAULT_CLUSTER,
     "no: nvidia.com/mig-1g.10gb x1: Karpenter builds instance types with nvidia.com/gpu only"),
    # aws/karpenter-provider-aws v1.14.1 types.go L336-349; karpenter nodeclaim.go L624-637 fits()
    ("karpenter-mig-mixed-with-overlay", "eks",
     {"name": "h100", "provisioner": "karpenter", "instanceType": "p5.48xlarge", "maxSize": 1,
      "sharing": {"mode": "mig", "profile": "1g.10gb", "strategy": "mixed"}}, OVERLAY, "yes 0->1 nodes"),
    # karpenter overlay/cloudprovider.go L48, nodeoverlay/store.go L179-195: the overlay adds the resource
    ("karpenter-renamed-time-slicing-with-overlay", "eks",
     {"name": "l4", "provisioner": "karpenter", "instanceType": "g6.xlarge", "maxSize": 3,
      "sharing": {"mode": "time-slicing", "replicas": 2, "renameByDefault": True}}, OVERLAY, "yes 0->3 nodes"),
    ("karpenter-dra-ignored", "eks",
     {"name": "h100", "provisioner": "karpenter", "instanceType": "p5.48xlarge", "maxSize": 1, "advertise": "dra"},
     OVERLAY, "no: claim gpu.nvidia.com x1: Karpenter ignores pods with ResourceClaims"),
    # karpenter scheduler.go L583-586, options.go L133 (IGNORE_DRA_REQUESTS default true)
    ("nap-mig-mixed-no-overlay-possible", "aks",
     {"name": "a100", "provisioner": "nap", "instanceType": "Standard_NC24ads_A100_v4", "maxSize": 2,
      "driver": "operator", "sharing": {"mode": "mig", "profile": "1g.10gb", "strategy": "mixed"}}, OVERLAY,
     "no: nvidia.com/mig-1g.10gb x1: AKS node auto-provisioning builds instance types with nvidia.com/gpu only"),
    # Azure/karpenter-provider-azure v1.14.2 instancetype.go L269-278 (AKS runs NAP's Karpenter settings)
    ("nap-time-sliced-limit-counts-shares", "aks",
     {"name": "t4", "provisioner": "nap", "instanceType": "Standard_NC8as_T4_v3", "maxSize": 4,
      "sharing": {"mode": "time-slicing", "replicas": 4}}, DEFAULT_CLUSTER, "yes 0->4 nodes"),
    ("nap-dra-ignored", "aks",
     {"name": "a100", "provisioner": "nap", "instanceType": "Standard_NC24ads_A100_v4", "maxSize": 2,
      "advertise": "dra"}, DEFAULT_CLUSTER, "no: claim gpu.nvidia.com x1: AKS node auto-provisioning ignores"),
    ("eks-node-group-mig-mixed-from-zero-by-tags", "eks",
     {"name": "h100", "instanceType": "p5.48xlarge", "minSize": 0, "maxSize": 2,
      "sharing": {"mode": "mig", "profile": "1g.10gb", "strategy": "mixed"}}, DEFAULT_CLUSTER, "yes 0->2 nodes"),
    # kubernetes/autoscaler@55c37cd aws_manager.go L290-305, L441-470: resources from the node-template tags
    ("eks-node-group-dra-from-zero", "eks",
     {"name": "h100", "instanceType": "p5.48xlarge", "minSize": 0, "maxSize": 2, "advertise": "dra"},
     DEFAULT_CLUSTER, "no: claim gpu.nvidia.com x1: cluster-autoscaler (EKS) cannot scale a DRA node group up"),
    # autoscaler dra_support.md L70-73; aws_cloud_provider.go L417-428 (template without ResourceSlices)
    ("eks-node-group-dra-with-a-node", "eks",
     {"name": "h100", "instanceType": "p5.48xlarge", "minSize": 1, "maxSize": 2, "advertise": "dra"},
     DEFAULT_CLUSTER, "yes 1->2 nodes"),
    ("aks-node-pool-dra-from-zero", "aks",
     {"name": "a100", "instanceType": "Standard_NC24ads_A100_v4", "minSize": 0, "maxSize": 2, "advertise": "dra"},
     DEFAULT_CLUSTER, "no: claim gpu.nvidia.com x1: cluster-autoscaler (AKS) cannot scale"),
    # autoscaler azure_scale_set.go L940-957
    ("aks-node-pool-mig-mixed-from-zero-by-tags", "aks",
     {"name": "a100", "instanceType": "Standard_NC24ads_A100_v4", "minSize": 0, "maxSize": 2,
      "sharing": {"mode": "mig", "profile": "1g.10gb", "strategy": "mixed"}}, DEFAULT_CLUSTER, "yes 0->2 nodes"),
    # autoscaler azure_template.go L385, L591: resources from the scale-set tags
    ("gke-node-pool-gke-sharing-from-zero", "gke",
     {"name": "l4", "instanceType": "g2-standard-8", "minSize": 0, "maxSize": 4,
      "sharing": {"mode": "time-slicing", "replicas": 4}}, DEFAULT_CLUSTER, "yes 0->4 nodes"),
    # autoscaler gce/templates.go L69-83: nvidia.com/gpu from the accelerators
    ("gke-node-pool-renamed-from-zero", "gke",
     {"name": "l4", "instanceType": "g2-standard-24", "image": "ubuntu", "driver": "operator", "minSize": 0,
      "maxSize": 4, "sharing": {"mode": "time-slicing", "replicas": 4, "renameByDefault": True}}, DEFAULT_CLUSTER,
     "no: nvidia.com/gpu.shared x1: GKE's template of the pool at zero nodes refuses the pod: Insufficient"),
    ("gke-node-pool-renamed-with-a-node", "gke",
     {"name": "l4", "instanceType": "g2-standard-24", "image": "ubuntu", "driver": "operator", "minSize": 1,
      "maxSize": 4, "sharing": {"mode": "time-slicing", "replicas": 4, "renameByDefault": True}}, DEFAULT_CLUSTER,
     "yes 1->4 nodes"),
    ("gke-compute-class-selected", "gke",
     {"name": "l4", "provisioner": "compute-class", "instanceType": "g2-standard-8", "maxSize": 8},
     DEFAULT_CLUSTER, "yes 0->8 nodes"),
    # GKE docs "About custom ComputeClasses": pods select cloud.google.com/compute-class; the class taint tolerated
]  # fmt: skip


@pytest.mark.parametrize(("cloud", "pool", "cluster", "expected"), [r[1:] for r in ROWS], ids=[r[0] for r in ROWS])
def test_the_model_answers_as_upstream_decides(
    cloud: Cloud, pool: dict[str, Any], cluster: ClusterFacts, expected: str
) -> None:
    (spec,) = parse_pools([{"minSize": 0, **pool}], cloud, cluster=None)
    verdict = pool_verdict(spec, cluster)
    assert verdict.text.startswith(expected), verdict.text
    assert verdict.scales == expected.startswith("yes")
    assert bool(verdict.problems()) == (not verdict.scales)
    for problem in verdict.problems():  # every refusal names its upstream rule and a fix
        assert "(" in problem.problem and (
            "v1.14" in problem.problem or "@55c37cd" in problem.problem or "GKE" in problem.problem
        ), problem.problem
        assert problem.hint


FIXES: list[tuple[str, Cloud, dict[str, Any], dict[str, Any], ClusterFacts, str]] = [
    # id, cloud, refused pool, the change its hint names, the cluster after it, words of the hint
    ("declare-node-overlay", "eks",
     {"name": "h100", "provisioner": "karpenter", "instanceType": "p5.48xlarge", "maxSize": 1,
      "sharing": {"mode": "mig", "profile": "1g.10gb", "strategy": "mixed"}}, {}, OVERLAY,
     "gpuready:karpenterFeatureGates: [NodeOverlay]"),
    ("mig-single-on-nap", "aks",
     {"name": "a100", "provisioner": "nap", "instanceType": "Standard_NC24ads_A100_v4", "maxSize": 2,
      "driver": "operator", "sharing": {"mode": "mig", "profile": "1g.10gb", "strategy": "mixed"}},
     {"sharing": {"mode": "mig", "profile": "1g.10gb", "strategy": "single"}}, DEFAULT_CLUSTER, "MIG strategy: single"),
    ("dra-node-group-keeps-a-node", "eks",
     {"name": "h100", "instanceType": "p5.48xlarge", "minSize": 0, "maxSize": 2, "advertise": "dra"},
     {"minSize": 1}, DEFAULT_CLUSTER, "set minSize: 1"),
    ("dra-on-karpenter-becomes-a-node-group", "eks",
     {"name": "h100", "provisioner": "karpenter", "instanceType": "p5.48xlarge", "maxSize": 1, "advertise": "dra"},
     {"provisioner": None, "minSize": 1}, DEFAULT_CLUSTER, "use a node group with advertise: dra"),
    ("gke-renamed-keeps-a-node", "gke",
     {"name": "l4", "instanceType": "g2-standard-24", "image": "ubuntu", "driver": "operator", "minSize": 0,
      "maxSize": 4, "sharing": {"mode": "time-slicing", "replicas": 4, "renameByDefault": True}}, {"minSize": 1},
     DEFAULT_CLUSTER, "set minSize: 1"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("cloud", "pool", "change", "after", "hint"), [r[1:] for r in FIXES], ids=[r[0] for r in FIXES]
)
def test_the_hint_of_a_refusal_works(
    cloud: Cloud, pool: dict[str, Any], change: dict[str, Any], after: ClusterFacts, hint: str
) -> None:
    (refused,) = parse_pools([{"minSize": 0, **pool}], cloud, cluster=None)
    problems = pool_verdict(refused).problems()
    assert problems and any(hint in (p.hint or "") for p in problems), [p.hint for p in problems]
    fixed = {k: v for k, v in {"minSize": 0, **pool, **change}.items() if v is not None}
    (spec,) = parse_pools([fixed], cloud, cluster=after)
    assert pool_verdict(spec, after).text == f"yes {spec.min_size}->{spec.max_size} nodes"
