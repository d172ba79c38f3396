"""``gpuready check`` on nodes that Karpenter (EKS), EKS Auto Mode, AKS NAP and GKE ComputeClasses made, against the
API stand-in: each is named by its provisioner and pool object, its GPU read from the provisioner's labels, and the
fixes for missing labels and taints name the pool object new nodes come from."""

from __future__ import annotations

import json

from tests.cli_audit.conftest import GPU_TAINT, Cli
from tests.kube_standin import KubeStandin, make_node

KARPENTER = {
    "karpenter.sh/nodepool": "train",
    "karpenter.k8s.aws/instance-gpu-name": "v100",
    "karpenter.k8s.aws/instance-gpu-count": "8",
    "karpenter.k8s.aws/instance-gpu-memory": "16384",
    "karpenter.sh/capacity-type": "spot",
}
AUTO_MODE = {
    "karpenter.sh/nodepool": "infer",
    "eks.amazonaws.com/compute-type": "auto",
    "eks.amazonaws.com/instance-gpu-name": "l4",
    "eks.amazonaws.com/instance-gpu-count": "1",
}
NAP = {
    "karpenter.sh/nodepool": "batch",
    "karpenter.azure.com/sku-gpu-name": "T4",
    "karpenter.azure.com/sku-gpu-count": "1",
    "kubernetes.azure.com/accelerator": "nvidia",
}
COMPUTE_CLASS = {"cloud.google.com/compute-class": "l4-class", "cloud.google.com/gke-accelerator": "nvidia-l4"}


def seed(kube: KubeStandin) -> None:
    # An instance type gpuready's catalog does not list: only Karpenter's labels say it has eight V100 16GB GPUs.
    kube.store.add(make_node("karp-a", instance_type="p3.16xlarge", labels=KARPENTER))
    kube.store.add(make_node("auto-a", instance_type="g6.xlarge", labels=AUTO_MODE, taints=[GPU_TAINT]))
    kube.store.add(make_node("nap-a", instance_type="Standard_NC4as_T4_v3", labels=NAP, taints=[GPU_TAINT]))
    kube.store.add(make_node("cc-a", instance_type="g2-standard-8", labels=COMPUTE_CLASS, taints=[GPU_TAINT]))
    cpu = {"karpenter.sh/nodepool": "default", "karpenter.k8s.aws/instance-gpu-count": "0"}
    kube.store.add(make_node("cpu-1", instance_type="m5.large", labels=cpu))


def test_check_names_provisioners_and_reads_their_gpu_labels(kube_standin: KubeStandin, gpuready: Cli) -> None:
    seed(kube_standin)
    result = gpuready("check", "-o", "json")
    assert result.code == 0, result.err
    report = json.loads(result.out)
    nodes = {n["name"]: n for n in report["nodes"]}
    assert sorted(nodes) == ["auto-a", "cc-a", "karp-a", "nap-a"] and report["summary"]["otherNodes"] == 1
    assert {name: n.get("provisioner") for name, n in nodes.items()} == {
        "karp-a": {"name": "karpenter", "title": "Karpenter (EKS)", "kind": "NodePool", "pool": "train"},
        "auto-a": {"name": "eks-auto-mode", "title": "EKS Auto Mode", "kind": "NodePool", "pool": "infer"},
        "nap-a": {"name": "nap", "title": "AKS node auto-provisioning", "kind": "NodePool", "pool": "batch"},
        "cc-a": {"name": "compute-class", "title": "GKE ComputeClass", "kind": "ComputeClass", "pool": "l4-class"},
    }
    assert (nodes["karp-a"]["accelerator"], nodes["karp-a"]["acceleratorSource"]) == ("v100", "provisioner-label")
    assert nodes["karp-a"]["expected"] == {"nvidia.com/gpu": 8}  # GPUs per node from instance-gpu-count
    assert (nodes["nap-a"]["accelerator"], nodes["auto-a"]["accelerator"]) == ("t4", "l4")


def test_check_fixes_name_the_pool_object(kube_standin: KubeStandin, gpuready: Cli) -> None:
    seed(kube_standin)
    result = gpuready("check")
    rows = {line.split()[0]: line.split() for line in result.out.split("\n\n")[0].splitlines()[1:]}
    assert rows["karp-a"][1] == "NodePool/train" and rows["cc-a"][1] == "ComputeClass/l4-class"
    assert rows["karp-a"][2] == "v100"
    assert (
        "fix:   declare the taint in NodePool/train (spec.template.spec.taints) so new nodes get it; for this node "
        "now: kubectl taint node karp-a nvidia.com/gpu=present:NoSchedule"
    ) in result.out
    assert (
        "so that the nodes Karpenter (EKS) makes next carry it, add it in NodePool/train "
        "(spec.template.metadata.labels)"
    ) in result.out
    assert "add it in ComputeClass/l4-class (spec.nodePoolConfig.nodeLabels)" in result.out
