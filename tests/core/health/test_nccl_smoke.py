"""A fabric pool's smoke run: the two-node NCCL all-reduce (Indexed Job + headless Service, valid for Kubernetes,
strict), taking every GPU and fabric device of a node, and the logs judged by the NCCL network they show."""

from __future__ import annotations

from typing import Any

import pytest

from gpuready.aks.network_operator import RDMA_RESOURCE
from gpuready.core import pool_config
from gpuready.core.fabric.model import FabricNetwork, FabricSpec
from gpuready.core.health.nccl_smoke import (
    ANNOTATION_NCCL_NETWORKS,
    MARKER,
    judge_nccl_log,
    nccl_networks,
    wants_nccl_run,
)
from gpuready.core.health.smoke_image import (
    DEFAULT_NCCL_IMAGE,
    NCCL_IMAGE_FLAG,
    NCCL_IMAGE_SETTING,
    is_image_reference,
)
from gpuready.core.health.smoke_job import LABEL_SMOKE_RUN, rerun, smoke_job
from gpuready.core.specs import GpuPoolSpec
from gpuready.eks.fabric import EFA_NCCL_IMAGE
from gpuready.eks.fabric_facts import EFA_RESOURCE
from gpuready.errors import SpecError
from tests.helm_render import strict_problems


def efa(max_size: int = 2) -> GpuPoolSpec:
    entry = {"name": "train", "instanceType": "p5.48xlarge", "minSize": 0, "maxSize": max_size, "fabric": "efa",
             "zones": ["us-east-1a"]}  # fmt: skip
    (spec,) = pool_config.parse_pools([entry], "eks")
    return spec


def tcpxo() -> GpuPoolSpec:
    networks = tuple(FabricNetwork(network=f"net-{i}", subnetwork=f"sub-{i}") for i in range(8))
    return GpuPoolSpec(cloud="gke", name="train", instance_type="a3-megagpu-8g", min_size=0, max_size=2,
                       fabric=FabricSpec(kind="gpudirect-tcpxo", networks=networks))  # fmt: skip


def infiniband() -> GpuPoolSpec:
    return GpuPoolSpec(cloud="aks", name="train", instance_type="Standard_ND96isr_H100_v5", min_size=0, max_size=2,
                       image="ubuntu", driver="operator", fabric=FabricSpec(kind="infiniband"))  # fmt: skip


# (id, pool, the fabric resource each pod requests -> count, NCCL networks, the default image)
POOLS: list[tuple[str, GpuPoolSpec, dict[str, int], tuple[str, ...], str]] = [
    ("efa", efa(), {EFA_RESOURCE: 32}, ("Libfabric", "AWS Libfabric", "OFI"), EFA_NCCL_IMAGE),
    ("tcpxo", tcpxo(), {}, ("FasTrak",), DEFAULT_NCCL_IMAGE),
    ("infiniband", infiniband(), {RDMA_RESOURCE: 1}, ("IB",), DEFAULT_NCCL_IMAGE),
]


@pytest.mark.parametrize(("pool", "fabric", "networks", "image"), [p[1:] for p in POOLS], ids=[p[0] for p in POOLS])
def test_a_fabric_pool_runs_a_two_node_all_reduce_on_whole_nodes(
    pool: GpuPoolSpec, fabric: dict[str, int], networks: tuple[str, ...], image: str
) -> None:
    run = smoke_job(pool, namespace="ml", run="a1b2c3", deadline_seconds=300)
    service, job = run.objects
    for obj in run.objects:
        assert strict_problems(obj, "1.33") == [], obj["kind"]
    assert run.name == job["metadata"]["name"] == service["metadata"]["name"] == "gpuready-nccl-train-a1b2c3"
    assert service["spec"]["clusterIP"] == "None" and service["spec"]["publishNotReadyAddresses"] is True
    assert service["spec"]["selector"] == {LABEL_SMOKE_RUN: "a1b2c3", "gpuready.io/smoke-pool": "train"}
    spec = job["spec"]
    assert (spec["completionMode"], spec["completions"], spec["parallelism"]) == ("Indexed", 2, 2)
    assert (spec["backoffLimit"], spec["activeDeadlineSeconds"]) == (0, 300)
    assert job["metadata"]["annotations"] == {ANNOTATION_NCCL_NETWORKS: ",".join(networks)}
    pod = spec["template"]["spec"]
    assert pod["subdomain"] == run.name and pod["restartPolicy"] == "Never"
    (container,) = pod["containers"]
    assert container["image"] == image
    limits = container["resources"]["limits"]
    assert limits["nvidia.com/gpu"] == 8  # every GPU of the node: one pod per node
    assert {k: limits[k] for k in fabric} == fabric
    env = {e["name"]: e.get("value") for e in container["env"]}
    assert env["NCCL_DEBUG"] == "INFO" and "INIT" in env["NCCL_DEBUG_SUBSYS"]
    script = container["command"][2]
    assert "torchrun --nnodes=2 --nproc-per-node=8" in script and '--master-addr="$job-0.$job"' in script
    assert '--node-rank="$JOB_COMPLETION_INDEX"' in script and MARKER in script
    assert any(m["mountPath"] == "/dev/shm" for m in container["volumeMounts"])


def test_gke_tcpxo_runs_its_rxdm_daemon_as_a_native_sidecar() -> None:
    pod = smoke_job(tcpxo(), namespace="ml", run="a1b2c3", deadline_seconds=300).job["spec"]["template"]
    (sidecar,) = pod["spec"]["initContainers"]
    assert (sidecar["name"], sidecar["restartPolicy"]) == ("tcpxo-daemon", "Always")  # stops when the run exits
    assert "networking.gke.io/interfaces" in pod["metadata"]["annotations"]
    (container,) = pod["spec"]["containers"]
    assert {"name": "shared-memory", "mountPath": "/dev/shm"} in container["volumeMounts"]  # TCPXO's own


@pytest.mark.parametrize(
    ("pool", "expected"),
    [(efa(), True), (efa(max_size=1), False), (tcpxo(), True), (infiniband(), True),
     (GpuPoolSpec(cloud="eks", name="gpu", instance_type="p5.48xlarge", min_size=0, max_size=2), False)],
    ids=["efa", "efa-one-node", "tcpxo", "infiniband", "no-fabric"],
)  # fmt: skip
def test_only_a_fabric_pool_with_room_for_two_nodes_runs_it(pool: GpuPoolSpec, expected: bool) -> None:
    assert wants_nccl_run(pool) is expected
    kind = smoke_job(pool, namespace="ml", run="r1", deadline_seconds=60).job["spec"].get("completionMode")
    assert (kind == "Indexed") is expected


def test_a_rerun_renames_the_service_and_the_pods_subdomain() -> None:
    planned = smoke_job(efa(), namespace="ml", run="planned", deadline_seconds=1)
    run = rerun(planned, "ff00ff", 200)
    service, job = run.objects
    assert run.name == service["metadata"]["name"] == "gpuready-nccl-train-ff00ff"
    assert job["spec"]["template"]["spec"]["subdomain"] == run.name
    assert service["spec"]["selector"][LABEL_SMOKE_RUN] == "ff00ff" == job["spec"]["template"]["metadata"]["labels"][
        LABEL_SMOKE_RUN]  # fmt: skip
    assert planned.objects[0]["metadata"]["name"] == "gpuready-nccl-train-planned"  # the plan is not changed


@pytest.mark.parametrize("pool", [p[1] for p in POOLS], ids=[p[0] for p in POOLS])
def test_a_given_nccl_image_replaces_the_fabrics_default(pool: GpuPoolSpec) -> None:
    job = smoke_job(pool, namespace="ml", run="r1", deadline_seconds=60, nccl_image="registry.example.com/pt:1").job
    assert [c["image"] for c in job["spec"]["template"]["spec"]["containers"]] == ["registry.example.com/pt:1"]


def test_each_clouds_nccl_images_are_image_references_of_its_own_fabric_kinds() -> None:
    for pool in (efa(), tcpxo(), infiniband()):
        fabric = pool.profile.fabric
        assert set(fabric.nccl_images) <= set(fabric.nccl_networks), pool.cloud
        assert all(is_image_reference(image) for image in fabric.nccl_images.values())
    assert efa().profile.fabric.nccl_images == {"efa": EFA_NCCL_IMAGE}
    assert tcpxo().profile.fabric.nccl_images == {} == infiniband().profile.fabric.nccl_images


def test_a_socket_fallback_names_the_image_and_how_to_pass_another() -> None:
    lines = ["a NCCL INFO Using network Socket", OK, OK]
    verdict = judge_nccl_log(lines, ("IB",), "kubectl logs ...", DEFAULT_NCCL_IMAGE)
    assert not verdict.ok
    assert verdict.detail.endswith(f"; the image {DEFAULT_NCCL_IMAGE} may lack the fabric's NCCL plugin")
    assert f"{NCCL_IMAGE_SETTING} (pulumi up) or {NCCL_IMAGE_FLAG} (gpuready verify --smoke)" in verdict.fix
    assert NCCL_IMAGE_SETTING == "gpuready:verifySmokeNcclImage" and NCCL_IMAGE_FLAG == "--smoke-nccl-image"


def test_a_bad_nccl_image_is_refused() -> None:
    with pytest.raises(SpecError, match="--smoke-nccl-image: not an image reference"):
        smoke_job(efa(), namespace="ml", run="r1", deadline_seconds=60, nccl_image="not an image")


OK = f"{MARKER} of 256 MiB over 16 ranks: ok"
# (id, log lines, expected networks, ok, words of the detail)
# fmt: off
LOGS: list[tuple[str, list[str], tuple[str, ...], bool, str]] = [
    ("efa", ["p5-0:21:21 [0] NCCL INFO NET/OFI Selected provider is efa",
             "p5-0:21:21 [0] NCCL INFO Using network Libfabric", OK, OK],
     ("Libfabric", "AWS Libfabric", "OFI"), True, "on NCCL network Libfabric"),
    ("efa-old-plugin", ["x NCCL INFO Using network AWS Libfabric", OK, OK], ("Libfabric", "AWS Libfabric"), True,
     "AWS Libfabric"),
    ("efa-socket", ["p5-0:21:21 [0] NCCL INFO NET/Socket : Using [0]eth0:10.0.0.5<0>",
                    "p5-0:21:21 [0] NCCL INFO Using network Socket", OK, OK],
     ("Libfabric",), False, "NCCL fell back to TCP sockets (Using network Socket); expected Libfabric"),
    ("one-rank-socket", ["a NCCL INFO Using network IB", "b NCCL INFO Using network Socket", OK, OK], ("IB",), False,
     "NCCL fell back to TCP sockets"),
    ("tcpx-versioned", ["a NCCL INFO Using network GPUDirectTCPX_v7", OK, OK], ("GPUDirectTCPX",), True,
     "GPUDirectTCPX_v7"),
    ("tcpxo", ["a NCCL INFO Using network FasTrak", OK, OK], ("FasTrak",), True, "FasTrak"),
    ("ib", ["a NCCL INFO Using network IB", OK, OK], ("IB",), True, "IB"),
    ("rdma-gets-ib-not-gib", ["a NCCL INFO Using network IB", OK, OK], ("gIB",), False,
     "NCCL used network IB; expected gIB"),
    ("no-nccl-line", ["ModuleNotFoundError: No module named 'torch'"], ("IB",), False, "no 'NCCL INFO Using network'"),
    ("wrong-sum", ["a NCCL INFO Using network IB", f"{MARKER} of 256 MiB over 16 ranks: WRONG SUM"], ("IB",), False,
     "did not report a right sum"),
]
# fmt: on


@pytest.mark.parametrize(("lines", "expected", "ok", "detail"), [c[1:] for c in LOGS], ids=[c[0] for c in LOGS])
def test_the_logs_are_judged_by_the_nccl_network(
    lines: list[str], expected: tuple[str, ...], ok: bool, detail: str
) -> None:
    verdict = judge_nccl_log(lines, expected, "kubectl logs ...")
    assert verdict.ok is ok
    assert detail in verdict.detail
    assert bool(verdict.cause) is not ok and bool(verdict.fix) is not ok
    if not ok:
        assert "kubectl logs" in verdict.fix


def test_each_cloud_names_the_nccl_network_of_each_of_its_fabric_kinds() -> None:
    pools: list[Any] = [efa(), tcpxo(), infiniband()]
    assert [nccl_networks(p)[0] for p in pools] == ["Libfabric", "FasTrak", "IB"]


def test_a_gke_rdma_run_sources_the_gib_plugins_nccl_settings_first() -> None:
    networks = tuple(FabricNetwork(network=f"n{i}", subnetwork=f"s{i}") for i in range(9))
    pool = GpuPoolSpec(cloud="gke", name="train", instance_type="a3-ultragpu-8g", min_size=0, max_size=2,
                       fabric=FabricSpec(kind="gpudirect-rdma", networks=networks))  # fmt: skip
    job = smoke_job(pool, namespace="ml", run="r1", deadline_seconds=60).job
    (container,) = job["spec"]["template"]["spec"]["containers"]
    assert container["command"][:2] == ["bash", "-c"]
    assert container["command"][2].startswith("source /usr/local/gib/scripts/set_nccl_env.sh\n")
    assert job["metadata"]["annotations"][ANNOTATION_NCCL_NETWORKS] == "gIB"
    assert strict_problems(job, "1.33") == []
