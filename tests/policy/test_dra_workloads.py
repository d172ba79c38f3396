"""The DRA workload policy through the pack (engine-style props): claims only on DRA pools, nvidia.com/gpu only on
device-plugin pools, never both ways in one pod; pools and claims read from raw objects of any program."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from gpuready.core.specs import MigPartitioning
from gpuready.core.workload import gpu_workload
from tests.core.conftest import build_spec
from tests.policy.builders import EKS, EXISTS, eks
from tests.policy.harness import messages, pack_violations
from tests.policy.test_workloads import workload

POLICY = "gpu-workload-matches-pool-advertiser"
TEMPLATE_V1 = "kubernetes:resource.k8s.io/v1:ResourceClaimTemplate"
CLAIM_V1BETA2 = "kubernetes:resource.k8s.io/v1beta2:ResourceClaim"
DRA_LABELS = {"nvidia.com/gpu.present": "true", "gpuready.io/pool": "dra", "gpuready.io/advertise": "dra"}
PLUGIN_LABELS = {"nvidia.com/gpu.present": "true", "gpuready.io/pool": "plugin"}
DRA_POOL = (EKS, eks(labels=DRA_LABELS))
PLUGIN_POOL = (EKS, eks(labels=PLUGIN_LABELS))


def template(name: str, device_class: str) -> tuple[str, dict[str, Any]]:
    request = {"name": "gpus", "exactly": {"deviceClassName": device_class, "count": 1}}
    return TEMPLATE_V1, {"metadata": {"name": name}, "spec": {"spec": {"devices": {"requests": [request]}}}}


def pod(*, pool: str | None = None, claim: dict[str, str] | None = None, limits: dict[str, Any] | None = None,
        affinity: dict[str, Any] | None = None) -> dict[str, Any]:  # fmt: skip
    resources: dict[str, Any] = {}
    if limits:
        resources["limits"] = limits
    if claim:
        resources["claims"] = [{"name": "gpus"}]
    spec: dict[str, Any] = {
        "containers": [{"name": "c", "image": "busybox", "resources": resources}],
        "tolerations": [EXISTS],
    }
    if pool:
        spec["nodeSelector"] = {"gpuready.io/pool": pool}
    if affinity:
        spec["affinity"] = {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": affinity}}
    if claim:
        spec["resourceClaims"] = [{"name": "gpus", **claim}]
    return spec


GPU_CLAIM = {"resourceClaimTemplateName": "gpu-1"}
GPU_TEMPLATE = template("gpu-1", "gpu.nvidia.com")
OTHER_TEMPLATE = template("gpu-1", "fpga.example.com")
LIMITS = {"nvidia.com/gpu": 1}
IN_DRA = {"nodeSelectorTerms": [{"matchExpressions": [{"key": "gpuready.io/advertise", "operator": "In",
                                                        "values": ["dra"]}]}]}  # fmt: skip


@pytest.mark.parametrize("kind", ["Pod", "Deployment", "Job", "CronJob"])
@pytest.mark.parametrize(
    ("stack", "expected"),
    [
        ([DRA_POOL, GPU_TEMPLATE, ("w", pod(pool="dra", claim=GPU_CLAIM))], None),
        ([PLUGIN_POOL, ("w", pod(pool="plugin", limits=LIMITS))], None),
        ([PLUGIN_POOL, GPU_TEMPLATE, ("w", pod(pool="plugin", claim=GPU_CLAIM))],
         "claims DRA devices of gpu.nvidia.com"),
        ([DRA_POOL, ("w", pod(pool="dra", limits=LIMITS))], "a DRA pool whose nodes advertise no extended GPU"),
        ([DRA_POOL, ("w", pod(affinity=IN_DRA, limits={"nvidia.com/mig-1g.10gb": 1}))], "nvidia.com/mig-1g.10gb"),
        ([PLUGIN_POOL, (CLAIM_V1BETA2, {"metadata": {"name": "shared"}, "spec": {"devices": {"requests": [
            {"name": "g", "deviceClassName": "mig.nvidia.com"}]}}}),
          ("w", pod(pool="plugin", claim={"resourceClaimName": "shared"}))], "claims DRA devices of mig.nvidia.com"),
        ([DRA_POOL, GPU_TEMPLATE, ("w", pod(pool="dra", claim=GPU_CLAIM, limits=LIMITS))], "asks for GPUs both ways"),
        ([GPU_TEMPLATE, ("w", pod(claim=GPU_CLAIM, limits=LIMITS))], "asks for GPUs both ways"),
        ([PLUGIN_POOL, OTHER_TEMPLATE, ("w", pod(pool="plugin", claim=GPU_CLAIM, limits=LIMITS))], None),
        ([PLUGIN_POOL, GPU_TEMPLATE, ("w", pod(pool="dra", claim=GPU_CLAIM))], None),
        ([PLUGIN_POOL, GPU_TEMPLATE, ("w", pod(claim=GPU_CLAIM))], None),
        ([PLUGIN_POOL, DRA_POOL, ("w", pod(affinity=IN_DRA, limits=LIMITS))], "GPU pool r1"),
    ],
)  # fmt: skip
def test_workloads_ask_for_gpus_as_their_pool_advertises_them(
    kind: str, stack: list[tuple[str, dict[str, Any]]], expected: str | None
) -> None:
    resources = [workload(kind, props) if type_ == "w" else (type_, props) for type_, props in stack]
    found = messages(POLICY, resources)
    if expected is None:
        assert found == []
    else:
        assert len(found) == 1 and expected in found[0], found


def test_the_helpers_dra_workload_passes_on_its_pool_and_fails_on_a_plugin_pool() -> None:
    spec = build_spec("eks", name="dra", instance_type="p5.48xlarge", advertise="dra",
                      sharing=MigPartitioning(profile="1g.10gb"))  # fmt: skip
    helper = gpu_workload(spec, 2, mig_profile="1g.10gb")
    (claim_template,) = helper.objects("ml")
    body = {**helper.pod_spec(), "containers": [helper.container({"name": "c", "image": "busybox"})]}
    dra_pool = (EKS, eks(instanceTypes=["p5.48xlarge"], labels={**DRA_LABELS, "gpuready.io/pool": "dra"}))
    assert messages(POLICY, [dra_pool, (TEMPLATE_V1, claim_template), workload("Job", body)]) == []
    plugin_pool = (EKS, eks(labels={**PLUGIN_LABELS, "gpuready.io/pool": "dra"}))
    (found,) = messages(POLICY, [plugin_pool, (TEMPLATE_V1, claim_template), workload("Job", body)])
    assert "claims DRA devices of mig.nvidia.com" in found


PROGRAM = """
import pulumi_aws as aws
import pulumi_kubernetes as k8s
from gpuready import DeviceSelector, GpuPoolSpec, gpu_workload
from gpuready.core.scheduling import pool_labels, pool_taints
from gpuready.eks.plan import to_eks_taint

spec = GpuPoolSpec(cloud="eks", name="dra", instance_type="g6.12xlarge", min_size=0, max_size=2, advertise="dra")
labels = pool_labels(spec) if {dra} else {{**pool_labels(spec), "gpuready.io/advertise": "device-plugin"}}
aws.eks.NodeGroup("dra", cluster_name="ml", node_role_arn="arn:aws:iam::123456789012:role/gpu",
    subnet_ids=["subnet-a"], instance_types=["g6.12xlarge"], ami_type="AL2023_x86_64_NVIDIA", labels=labels,
    taints=[to_eks_taint(t) for t in pool_taints(spec)], scaling_config={{"min_size": 0, "max_size": 2,
    "desired_size": 1}})
work = gpu_workload(spec, 2, selectors=[DeviceSelector("memory", ">=", "20Gi")])
for index, obj in enumerate(work.objects("ml")):
    k8s.resource.v1.ResourceClaimTemplate(f"claims-{{index}}", metadata=obj["metadata"], spec=obj["spec"])
k8s.batch.v1.Job("train", metadata={{"namespace": "ml"}}, spec={{"template": {{"spec": {{**work.pod_spec(),
    "restartPolicy": "Never", "containers": [work.container({{"name": "w", "image": "busybox"}}),
                                             work.container({{"name": "sidecar", "image": "busybox"}})]}}}}}})
"""


@pytest.mark.parametrize(("dra", "expected"), [(True, []), (False, ["claims DRA devices of gpu.nvidia.com"])])
def test_a_program_that_emits_the_helpers_objects_is_checked_end_to_end(
    tmp_path: Path, dra: bool, expected: list[str]
) -> None:
    violations = pack_violations(tmp_path / "p", PROGRAM.format(dra=dra))
    assert not [v for v in violations if v.policy == "non-gpu-workload-avoids-gpu-taint"]  # its claim is its GPUs
    found = [v for v in violations if v.policy == POLICY]
    assert len(found) == len(expected)
    for violation, text in zip(found, expected, strict=True):
        assert text in violation.message and violation.level == "mandatory"


@pytest.mark.parametrize(
    ("policy", "replicas", "claimed", "expected"),
    [
        ("non-gpu-workload-avoids-gpu-taint", 1, True, None),
        ("non-gpu-workload-avoids-gpu-taint", 1, False, "requests no GPU but tolerates the GPU taint"),
        ("gpu-replicas-spread-or-pack", 3, True, "3 GPU replicas with neither packing nor spreading"),
        ("gpu-replicas-spread-or-pack", 3, False, None),
    ],
)
def test_a_pod_that_claims_devices_counts_as_a_gpu_pod(
    policy: str, replicas: int, claimed: bool, expected: str | None
) -> None:
    spec = pod(claim=GPU_CLAIM)
    if not claimed:
        spec["containers"][0]["resources"] = {}
    type_, props = workload("Deployment", spec)
    props["spec"]["replicas"] = replicas
    found = messages(policy, [GPU_TEMPLATE, (type_, props)])
    assert found == [] if expected is None else (len(found) == 1 and expected in found[0]), found
