"""check_node: one finding per problem, with the right code, severity, cause and a runnable fix."""

from __future__ import annotations

import pytest

from gpuready.core.specs import GpuSharing, MigPartitioning
from gpuready.core.taints import Taint
from gpuready.verify.checks import check_node
from gpuready.verify.expectations import Expectation, expectation_for, infer_expectation
from gpuready.verify.findings import Finding
from gpuready.verify.inference import infer_accelerator
from gpuready.verify.nodes import NodeView
from tests.core.conftest import build_spec
from tests.verify.conftest import GPU_TAINT, L4_POOL_LABELS, l4_node, view

L4_POOL = expectation_for(build_spec("eks"))


def codes(found: list[Finding]) -> list[str]:
    return [f.code for f in found]


def only(found: list[Finding], code: str) -> Finding:
    matching = [f for f in found if f.code == code]
    assert len(matching) == 1, codes(found)
    return matching[0]


def test_a_node_carrying_exactly_what_the_pool_declares_has_no_findings() -> None:
    assert check_node(l4_node(), L4_POOL) == []


# Each case: (id, node, expected codes). The node is the healthy L4 node with one thing changed.
# fmt: off
POOL_CASES: list[tuple[str, NodeView, list[str]]] = [
    ("taint-missing", l4_node(taints=()), ["gpu-taint-missing"]),
    ("taint-wrong-value", l4_node(taints=(Taint(key="nvidia.com/gpu", value="true", effect="NoSchedule"),)),
     ["gpu-taint-wrong"]),
    ("taint-prefer-only", l4_node(taints=(Taint(key="nvidia.com/gpu", value="present", effect="PreferNoSchedule"),)),
     ["gpu-taint-wrong"]),
    ("gpu-present-missing", l4_node(drop=("nvidia.com/gpu.present",)), ["gpu-present-missing"]),
    ("gpu-present-false", l4_node(extra={"nvidia.com/gpu.present": "false"}), ["gpu-present-wrong"]),
    ("gpuready-accelerator-missing", l4_node(drop=("gpuready.io/accelerator",)), ["accelerator-label-missing"]),
    ("skypilot-uppercase", l4_node(extra={"skypilot.co/accelerator": "L4"}), ["accelerator-label-wrong"]),
    ("pool-label-wrong", l4_node(extra={"gpuready.io/sharing": "mps"}), ["label-wrong"]),
    ("gpu-pool-label-missing", l4_node(drop=("gpuready.io/gpu-pool",)), ["label-missing"]),
    ("product-mismatch", l4_node(extra={"nvidia.com/gpu.product": "NVIDIA-A10G"}), ["gpu-product-mismatch"]),
    ("product-matches", l4_node(extra={"nvidia.com/gpu.product": "NVIDIA-L4"}), []),
    ("not-advertised", l4_node(capacity={}), ["gpus-not-advertised"]),
    ("advertised-zero", l4_node(capacity={"nvidia.com/gpu": 0}), ["gpus-not-advertised"]),
    ("unhealthy", l4_node(capacity={"nvidia.com/gpu": 1}, allocatable={"nvidia.com/gpu": 0}),
     ["gpu-devices-unhealthy"]),
    ("count-mismatch", l4_node(capacity={"nvidia.com/gpu": 2}), ["allocatable-mismatch"]),
    ("not-ready", l4_node(ready=False), ["node-not-ready"]),
    ("mig-state-failed", l4_node(extra={"nvidia.com/mig.config.state": "failed"}), ["mig-config-failed"]),
    ("mig-state-pending", l4_node(extra={"nvidia.com/mig.config.state": "pending"}), ["mig-config-pending"]),
    ("mig-state-success", l4_node(extra={"nvidia.com/mig.config.state": "success"}), []),
    ("unexpected-mig-resources", l4_node(capacity={"nvidia.com/gpu": 1, "nvidia.com/mig-1g.5gb": 7}),
     ["mig-resources-mismatch"]),
    # A GPU Operator with a GPUCluster labels every GPU node for its DRA plugin unless the label is set already.
    ("gpu-cluster-dra-plugin-on-a-device-plugin-node", l4_node(extra={"nvidia.com/gpu.deploy.dra-driver": "true"}),
     ["device-plugin-node-has-dra-plugin"]),
    ("gpu-cluster-opted-out", l4_node(extra={"nvidia.com/gpu.deploy.dra-driver": "false"}), []),
    ("extra-lifecycle-taint-is-fine",
     l4_node(taints=(GPU_TAINT, Taint(key="node.kubernetes.io/unschedulable", effect="NoSchedule"))), []),
]
# fmt: on


@pytest.mark.parametrize(("node", "expected"), [c[1:] for c in POOL_CASES], ids=[c[0] for c in POOL_CASES])
def test_pool_node_findings(node: NodeView, expected: list[str]) -> None:
    found = check_node(node, L4_POOL)
    assert codes(found) == expected
    for finding in found:
        assert finding.node == node.name
        assert finding.severity == ("warning" if finding.code == "node-cordoned" else "error")
        assert "kubectl " in finding.fix or "gpuready " in finding.fix, finding
        assert finding.reproduce.startswith("kubectl "), finding
        assert finding.cause and finding.message


def test_missing_taint_message_and_fix_name_the_exact_taint() -> None:
    finding = only(check_node(l4_node(taints=()), L4_POOL), "gpu-taint-missing")
    assert finding.message == "taint nvidia.com/gpu: missing; expected 'nvidia.com/gpu=present:NoSchedule'"
    assert finding.fix.endswith("kubectl taint node gpu-1 nvidia.com/gpu=present:NoSchedule")


def test_wrong_label_message_shows_got_and_expected() -> None:
    finding = only(check_node(l4_node(extra={"skypilot.co/accelerator": "L4"}), L4_POOL), "accelerator-label-wrong")
    assert finding.message == "label skypilot.co/accelerator: wrong value; got 'L4', expected 'l4'"
    assert "lowercase" in finding.cause
    assert finding.fix == "gpuready label --yes -l kubernetes.io/hostname=gpu-1"


# Why no GPUs are advertised: (id, node, text the cause must contain).
# fmt: off
REASON_CASES = [
    ("no-nfd-no-gpu-present", l4_node(capacity={}, drop=("nvidia.com/gpu.present",)),
     "no device plugin is scheduled"),
    ("untolerated-taint", l4_node(capacity={}, taints=(GPU_TAINT, Taint(key="dedicated", value="ml"))),
     "must tolerate the node's other taints dedicated=ml:NoSchedule"),
    ("gpu-taint-value-true", l4_node(capacity={}, taints=(Taint(key="nvidia.com/gpu", value="true"),)),
     "k8s-device-plugin#1934"),
    ("not-ready", l4_node(capacity={}, ready=False), "the node is not Ready (KubeletNotReady"),
    ("plugin-disabled", l4_node(capacity={}, extra={"nvidia.com/gpu.deploy.device-plugin": "false"}),
     "disables the GPU Operator's device plugin"),
    ("plugin-not-registered", l4_node(capacity={}), "the driver is not ready or the device plugin has not registered"),
    ("unhealthy-other-count", l4_node(capacity={"nvidia.com/gpu": 2}, allocatable={"nvidia.com/gpu": 0}),
     "marked the GPUs unhealthy"),
]
# fmt: on


@pytest.mark.parametrize(("node", "text"), [c[1:] for c in REASON_CASES], ids=[c[0] for c in REASON_CASES])
def test_gpus_not_advertised_names_the_likely_reason(node: NodeView, text: str) -> None:
    finding = only(check_node(node, L4_POOL), "gpus-not-advertised")
    assert text in finding.cause
    assert finding.message == "allocatable: no GPUs advertised; expected nvidia.com/gpu=1"
    assert finding.fix.endswith("kubectl get pods -A -o wide --field-selector spec.nodeName=gpu-1")
    assert finding.transient


def test_cordoned_node_is_a_warning() -> None:
    cordoned = view(labels={**L4_POOL_LABELS}, taints=(GPU_TAINT,), capacity={"nvidia.com/gpu": 1}, unschedulable=True)
    finding = only(check_node(cordoned, L4_POOL), "node-cordoned")
    assert finding.severity == "warning"
    assert finding.fix.endswith("kubectl uncordon gpu-1")


def _pool_node(expectation: Expectation, labels: dict[str, str], allocatable: dict[str, int]) -> NodeView:
    return view(labels={**expectation.labels, **labels}, taints=expectation.taints, capacity=allocatable)


TIME_SLICED = expectation_for(
    build_spec("eks", instance_type="g6.12xlarge", sharing=GpuSharing(mode="time-slicing", replicas=4))
)
RENAMED = expectation_for(
    build_spec(
        "eks", instance_type="g6.12xlarge", sharing=GpuSharing(mode="time-slicing", replicas=4, rename_by_default=True)
    )
)
MIG_MIXED = expectation_for(
    build_spec("eks", instance_type="p5.48xlarge", sharing=MigPartitioning(layout="all-balanced", strategy="mixed"))
)
H100_GFD = {"nvidia.com/gpu.product": "NVIDIA-H100-80GB-HBM3"}
GKE_MIG = expectation_for(build_spec("gke", instance_type="a2-highgpu-1g", sharing=MigPartitioning(profile="1g.5gb")))
GKE_SHARED = expectation_for(
    build_spec("gke", instance_type="g2-standard-8", sharing=GpuSharing(mode="time-slicing", replicas=4))
)

# (id, expectation, node labels, allocatable, expected codes)
# fmt: off
SHARING_CASES = [
    ("time-sliced-ok", TIME_SLICED, {"nvidia.com/gpu.replicas": "4"}, {"nvidia.com/gpu": 16}, []),
    ("replicas-label-wrong", TIME_SLICED, {"nvidia.com/gpu.replicas": "1"}, {"nvidia.com/gpu": 16},
     ["sharing-not-applied"]),
    ("not-shared", TIME_SLICED, {}, {"nvidia.com/gpu": 4}, ["sharing-not-applied"]),
    ("renamed-ok", RENAMED, {}, {"nvidia.com/gpu.shared": 16}, []),
    ("renamed-absent", RENAMED, {}, {"nvidia.com/gpu": 16}, ["sharing-not-applied"]),
    ("mig-mixed-ok", MIG_MIXED, {**H100_GFD, "nvidia.com/mig.config.state": "success"},
     {"nvidia.com/mig-1g.10gb": 16, "nvidia.com/mig-2g.20gb": 8, "nvidia.com/mig-3g.40gb": 8}, []),
    ("mig-single-instead-of-mixed", MIG_MIXED, H100_GFD, {"nvidia.com/gpu": 56}, ["mig-resources-mismatch"]),
    ("mig-other-layout", MIG_MIXED, H100_GFD, {"nvidia.com/mig-1g.10gb": 56}, ["mig-resources-mismatch"]),
    ("mig-not-applied-yet", MIG_MIXED, H100_GFD, {"nvidia.com/gpu": 8}, ["mig-resources-mismatch"]),
    ("mig-failed", MIG_MIXED, {**H100_GFD, "nvidia.com/mig.config.state": "failed"}, {"nvidia.com/gpu": 8},
     ["mig-config-failed", "mig-resources-mismatch"]),
    ("mig-invalid-single", MIG_MIXED, {"nvidia.com/gpu.product": "NVIDIA-H100-80GB-HBM3-MIG-INVALID"},
     {"nvidia.com/mig-1g.10gb": 16, "nvidia.com/mig-2g.20gb": 8, "nvidia.com/mig-3g.40gb": 8}, ["mig-invalid"]),
    ("gke-mig-ok", GKE_MIG, {"cloud.google.com/gke-gpu-partition-size": "1g.5gb"}, {"nvidia.com/gpu": 7}, []),
    ("gke-mig-wrong-partition", GKE_MIG, {"cloud.google.com/gke-gpu-partition-size": "3g.20gb"},
     {"nvidia.com/gpu": 2}, ["gke-partition-mismatch", "mig-resources-mismatch"]),
    ("gke-shared-ok", GKE_SHARED, {"cloud.google.com/gke-max-shared-clients-per-gpu": "4"}, {"nvidia.com/gpu": 4}, []),
    ("gke-shared-wrong-clients", GKE_SHARED, {"cloud.google.com/gke-max-shared-clients-per-gpu": "2"},
     {"nvidia.com/gpu": 2}, ["sharing-not-applied", "allocatable-mismatch"]),
]
# fmt: on


@pytest.mark.parametrize(
    ("expectation", "labels", "allocatable", "expected"),
    [c[1:] for c in SHARING_CASES],
    ids=[c[0] for c in SHARING_CASES],
)
def test_sharing_and_mig_findings(
    expectation: Expectation, labels: dict[str, str], allocatable: dict[str, int], expected: list[str]
) -> None:
    assert codes(check_node(_pool_node(expectation, labels, allocatable), expectation)) == expected


def test_renamed_resource_absent_says_so() -> None:
    node = _pool_node(RENAMED, {}, {"nvidia.com/gpu": 16})
    finding = only(check_node(node, RENAMED), "sharing-not-applied")
    assert finding.message == "allocatable nvidia.com/gpu.shared: wrong count; got 0, expected 16"
    assert "renamed resource nvidia.com/gpu.shared is absent" in finding.cause


def test_operator_pool_warns_when_gfd_labels_never_appear() -> None:
    assert MIG_MIXED.gfd_expected  # MIG by the GPU Operator's MIG manager: GFD runs there too
    mig = {"nvidia.com/mig-1g.10gb": 16, "nvidia.com/mig-2g.20gb": 8, "nvidia.com/mig-3g.40gb": 8}
    finding = only(check_node(_pool_node(MIG_MIXED, {}, mig), MIG_MIXED), "gfd-labels-missing")
    assert finding.severity == "warning"
    assert check_node(_pool_node(MIG_MIXED, H100_GFD, mig), MIG_MIXED) == []
    assert not L4_POOL.gfd_expected and check_node(l4_node(), L4_POOL) == []


# --- foreign nodes: inferred expectations, missing conventions are warnings ---------------------------------------


def _foreign(node: NodeView) -> list[Finding]:
    return check_node(node, infer_expectation(node, infer_accelerator(node)))


def test_unlabeled_foreign_gpu_node_gets_warnings_with_gpuready_label_fixes() -> None:
    node = view(
        "p5-a",
        labels={"node.kubernetes.io/instance-type": "p5.48xlarge", "eks.amazonaws.com/nodegroup": "gpus"},
        capacity={"nvidia.com/gpu": 8},
    )
    found = _foreign(node)
    assert codes(found) == [
        "gpu-taint-missing",
        "gpu-present-missing",
        "accelerator-label-missing",
        "accelerator-label-missing",
    ]
    assert {f.severity for f in found} == {"warning"}
    labels = [f for f in found if f.code == "accelerator-label-missing"]
    assert [f.message for f in labels] == [
        "label gpuready.io/accelerator: missing; expected 'h100'",
        "label skypilot.co/accelerator: missing; expected 'h100'",
    ]
    assert all(f.fix == "gpuready label --yes -l kubernetes.io/hostname=p5-a" for f in labels)


def test_foreign_node_accepts_any_nvidia_gpu_taint_value() -> None:
    node = view(
        "aks-1",
        labels={"kubernetes.azure.com/accelerator": "nvidia", "nvidia.com/gpu.present": "true"},
        taints=(Taint(key="nvidia.com/gpu", value="true", effect="NoSchedule"),),
        capacity={"nvidia.com/gpu": 1},
    )
    assert codes(_foreign(node)) == ["accelerator-unknown"]


def test_foreign_node_with_fewer_gpus_than_its_instance_type() -> None:
    node = view(
        "p5-b",
        labels={
            "node.kubernetes.io/instance-type": "p5.48xlarge",
            "nvidia.com/gpu.present": "true",
            "gpuready.io/accelerator": "h100",
            "skypilot.co/accelerator": "h100",
        },
        taints=(GPU_TAINT,),
        capacity={"nvidia.com/gpu": 8},
        allocatable={"nvidia.com/gpu": 7},
    )
    finding = only(_foreign(node), "gpu-devices-unhealthy")  # one finding: it replaces allocatable-mismatch
    assert finding.message == (
        "allocatable nvidia.com/gpu: devices marked unhealthy; got 7 allocatable of 8 in capacity"
    )
    assert finding.severity == "error"
    assert "withdrew 1 of them as unhealthy" in finding.cause


def test_foreign_time_sliced_node_expects_replicas_times_gpus() -> None:
    labels = {
        "node.kubernetes.io/instance-type": "g6.12xlarge",
        "nvidia.com/gpu.present": "true",
        "nvidia.com/gpu.replicas": "4",
        "nvidia.com/gpu.product": "NVIDIA-L4-SHARED",
        "gpuready.io/accelerator": "l4",
        "skypilot.co/accelerator": "l4",
    }
    healthy = view("ts", labels=labels, taints=(GPU_TAINT,), capacity={"nvidia.com/gpu": 16})
    assert _foreign(healthy) == []
    unshared = view("ts", labels=labels, taints=(GPU_TAINT,), capacity={"nvidia.com/gpu": 4})
    assert codes(_foreign(unshared)) == ["sharing-not-applied"]


def test_foreign_mig_node_has_no_count_expectation() -> None:
    node = view(
        "mig",
        labels={"nvidia.com/gpu.present": "true", "nvidia.com/mig.strategy": "mixed", "nvidia.com/gpu.count": "8",
                "nvidia.com/gpu.product": "NVIDIA-A100-SXM4-40GB", "gpuready.io/accelerator": "a100",
                "skypilot.co/accelerator": "a100"},
        taints=(GPU_TAINT,),
        capacity={"nvidia.com/mig-1g.5gb": 56},
    )  # fmt: skip
    expectation = infer_expectation(node, infer_accelerator(node))
    assert expectation.mig and expectation.allocatable == {}
    assert check_node(node, expectation) == []


# fmt: off
CONSISTENCY_SPECS = [
    ("eks-plain", dict(cloud="eks")),
    ("eks-spot-extra-taint", dict(cloud="eks", capacity="spot", taints=(Taint(key="team", value="ml"),))),
    ("eks-time-sliced", dict(cloud="eks", instance_type="g6.12xlarge", sharing=GpuSharing(mode="mps", replicas=2))),
    ("eks-mig-single", dict(cloud="eks", instance_type="p5.48xlarge", sharing=MigPartitioning(profile="1g.10gb"))),
    ("aks-spot", dict(cloud="aks", capacity="spot")),
    ("gke-mig", dict(cloud="gke", instance_type="a2-highgpu-1g", sharing=MigPartitioning(profile="1g.5gb"))),
    ("gke-shared",
     dict(cloud="gke", instance_type="g2-standard-8", sharing=GpuSharing(mode="time-slicing", replicas=4))),
]
# fmt: on


@pytest.mark.parametrize("overrides", [c[1] for c in CONSISTENCY_SPECS], ids=[c[0] for c in CONSISTENCY_SPECS])
def test_pool_expectations_are_self_consistent(overrides: dict[str, object]) -> None:
    # Invariant: a node carrying what its pool declares (plus what GFD/GKE would add) has no findings.
    expectation = expectation_for(build_spec(**overrides))  # type: ignore[arg-type]
    extra = {"nvidia.com/gpu.product": f"NVIDIA-{expectation.accelerator}".upper()} if expectation.gfd_expected else {}
    if expectation.cloud_partition_size:
        extra["cloud.google.com/gke-gpu-partition-size"] = expectation.cloud_partition_size
    if expectation.cloud_shared_clients:
        extra["cloud.google.com/gke-max-shared-clients-per-gpu"] = str(expectation.cloud_shared_clients)
    node = _pool_node(expectation, extra, dict(expectation.allocatable))
    assert check_node(node, expectation) == []


# A wrong accelerator value is a mislabel, never "nobody labeled it": the message says which label names what,
# the cause what the node really has (and from where), the fix relabels.
# fmt: off
MISLABELED: list[tuple[str, NodeView, str, str, str]] = [
    ("gpuready-label-on-foreign-node",
     view("n", labels={"node.kubernetes.io/instance-type": "g6.xlarge", "gpuready.io/accelerator": "a100"}),
     "accelerator-label-wrong",
     "label gpuready.io/accelerator: wrong value; got 'a100', expected 'l4'",
     "mislabeled: gpuready.io/accelerator=a100 names A100, but instance type g6.xlarge has L4"),
    ("skypilot-label-on-pool-node", l4_node(extra={"skypilot.co/accelerator": "h100"}),
     "accelerator-label-wrong",
     "label skypilot.co/accelerator: wrong value; got 'h100', expected 'l4'",
     "mislabeled: skypilot.co/accelerator=h100 names another GPU, but pool gpu has L4"),
    ("gke-label-against-machine-type",
     view("n", labels={"node.kubernetes.io/instance-type": "g2-standard-8",
                       "cloud.google.com/gke-accelerator": "nvidia-tesla-t4"}),
     "accelerator-label-conflict",
     "label cloud.google.com/gke-accelerator: names another GPU than the instance type; got 'nvidia-tesla-t4' (T4), "
     "instance type g2-standard-8 has L4",
     "mislabeled: GKE sets this label from the node pool's accelerator"),
]
# fmt: on


@pytest.mark.parametrize(
    ("node", "code", "message", "cause"), [c[1:] for c in MISLABELED], ids=[c[0] for c in MISLABELED]
)
def test_a_wrong_accelerator_value_is_explained_as_a_mislabel(
    node: NodeView, code: str, message: str, cause: str
) -> None:
    expectation = L4_POOL if "gpuready.io/pool" in node.labels else infer_expectation(node, infer_accelerator(node))
    finding = only(check_node(node, expectation), code)
    assert finding.message == message
    assert finding.cause.startswith(cause)
    assert "nobody labeled" not in finding.cause
    assert "l4" in finding.fix


def test_a_machine_type_with_built_in_gpus_outranks_a_hand_edited_gke_label() -> None:
    node = view("n", labels={"node.kubernetes.io/instance-type": "g2-standard-8",
                             "cloud.google.com/gke-accelerator": "nvidia-tesla-t4"})  # fmt: skip
    inference = infer_accelerator(node)
    assert inference is not None and (inference.model.key, inference.source) == ("l4", "instance-type")


@pytest.mark.parametrize(("advertised", "codes"), [(1, ["sharing-not-applied"]), (6, ["sharing-not-applied"]),
                                                    (4, []), (8, [])])  # fmt: skip
def test_a_gke_n1_nodes_time_sharing_is_judged_by_divisibility(advertised: int, codes: list[str]) -> None:
    labels = {
        "node.kubernetes.io/instance-type": "n1-standard-8",  # attached GPUs: the count is not in the machine type
        "cloud.google.com/gke-accelerator": "nvidia-tesla-t4",
        "cloud.google.com/gke-gpu-sharing-strategy": "time-sharing",
        "cloud.google.com/gke-max-shared-clients-per-gpu": "4",
        "nvidia.com/gpu.present": "true",
        "gpuready.io/accelerator": "t4",
        "skypilot.co/accelerator": "T4",
    }
    node = view("n1-t4", labels=labels, capacity={"nvidia.com/gpu": advertised}, taints=(GPU_TAINT,))
    found = _foreign(node)
    assert [x.code for x in found if x.code.startswith("sharing")] == codes  # was "ok" with 1 of 4
    messages = [x.message for x in found if x.code.startswith("sharing")]
    assert messages == [f"allocatable nvidia.com/gpu: not a multiple of the 4 clients per GPU; got {advertised}"] * len(
        codes
    )
