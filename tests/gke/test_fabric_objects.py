"""GKE GPUDirect cluster objects and pod annotations.

``Network`` / ``GKENetworkParamSet`` are validated strictly against datreeio/CRDs-catalog's schemas in
``../shared/reference/upstream/crds-catalog/networking.gke.io/``; the installers are Google's, byte for byte as
parsed from ``../shared/reference/upstream/gke-gpudirect/`` (and the recorded table is what its generator makes);
the DaemonSets are valid Kubernetes objects (kubernetes-validate, strict).
"""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

import kubernetes_validate
import pytest
import yaml

from gpuready.core.clouds.registry import cloud_profile
from gpuready.core.fabric.model import FabricNetwork, FabricSpec
from gpuready.core.specs import GpuPoolSpec
from gpuready.core.workload import gpu_workload
from gpuready.gke import fabric_objects
from gpuready.gke.fabric import GPUDIRECT
from tests.crd_schemas import schema_problems, with_field
from tests.fidelity import gke_installers
from tests.gke.test_fabric import UNLISTED
from tests.upstream import upstream_text

SCHEMAS = {
    "Network": "crds-catalog/networking.gke.io/network_v1.json",
    "GKENetworkParamSet": "crds-catalog/networking.gke.io/gkenetworkparamset_v1.json",
}
K8S = "1.33"


def pool(machine: str, name: str = "train", prefix: str = "gpu") -> GpuPoolSpec:
    facts = GPUDIRECT[machine]
    networks = tuple(
        FabricNetwork(network=f"{prefix}-net-{i}", subnetwork=f"{prefix}-sub-{i}") for i in range(facts.networks)
    )
    placement = f"{name}-workload-policy" if facts.workload_policy else None
    return GpuPoolSpec(
        cloud="gke", name=name, instance_type=machine, min_size=0, max_size=2, gpu=UNLISTED.get(machine),
        fabric=FabricSpec(kind=facts.kind, networks=networks, placement_group=placement),
    )  # fmt: skip


MACHINES = sorted(GPUDIRECT)


@pytest.mark.parametrize("machine", MACHINES)
def test_network_objects_are_valid_under_the_strict_schemas(machine: str) -> None:
    objects = fabric_objects.network_objects(pool(machine))
    assert len(objects) == 2 * GPUDIRECT[machine].networks
    for obj in objects:
        assert schema_problems(SCHEMAS[obj["kind"]], obj) == [], obj


def test_a_misspelt_field_fails_the_strict_schema() -> None:
    obj = fabric_objects.network_objects(pool("a3-megagpu-8g"))[0]
    broken = with_field(json.loads(json.dumps(obj)), ("spec",), "vpcSubnets")
    assert schema_problems(SCHEMAS[obj["kind"]], broken) != []


@pytest.mark.parametrize(
    ("machine", "modes"),
    [
        ("a3-highgpu-8g", ["NetDevice"] * 4),
        ("a3-megagpu-8g", ["NetDevice"] * 8),
        ("a3-ultragpu-8g", ["NetDevice"] + ["RDMA"] * 8),
        ("a4-highgpu-8g", ["NetDevice"] + ["RDMA"] * 8),
        ("a4x-highgpu-4g", ["NetDevice"] + ["RDMA"] * 4),
    ],
)
def test_device_modes_follow_the_nics_of_the_machine(machine: str, modes: list[str]) -> None:
    objects = fabric_objects.network_objects(pool(machine))
    params = [o for o in objects if o["kind"] == "GKENetworkParamSet"]
    assert [p["spec"]["deviceMode"] for p in params] == modes
    networks = [o for o in objects if o["kind"] == "Network"]
    assert [n["spec"]["parametersRef"]["name"] for n in networks] == [p["metadata"]["name"] for p in params]


@pytest.mark.parametrize("kind", sorted(gke_installers.SOURCES))
def test_each_installer_is_googles_as_published(kind: str) -> None:
    _, shared = gke_installers.SOURCES[kind]
    assert fabric_objects.installers()[kind]["manifest"] == yaml.safe_load(upstream_text(shared))
    kubernetes_validate.validate(dict(fabric_objects.installers()[kind]["manifest"]), K8S, strict=True)


@pytest.mark.parametrize("key", sorted(gke_installers.SOURCES))
def test_each_recorded_installer_is_a_valid_daemonset(key: str) -> None:
    kubernetes_validate.validate(dict(fabric_objects.installers()[key]["manifest"]), K8S, strict=True)


def test_an_a4x_pool_gets_googles_arm64_installer_and_not_with_an_a4_pool() -> None:
    a4x = pool("a4x-highgpu-4g", "gb", prefix="gb")
    objects = cloud_profile("gke").fabric.cluster_objects([a4x])
    (daemonset,) = [o for o in objects if o["kind"] == "DaemonSet"]
    assert daemonset == fabric_objects.installers()["gpudirect-rdma-a4x"]["manifest"]
    a4 = pool("a4-highgpu-8g", "b2", prefix="b2")
    (problem,) = fabric_objects.installer_problems([a4, a4x], "gpuready:")
    assert problem.path == "gpuready:nodePools[1].fabric"
    assert "gpudirect-rdma and gpudirect-rdma-a4x are both the DaemonSet kube-system/nccl-rdma-installer" in str(
        problem
    )
    assert fabric_objects.installer_problems([a4x, pool("a4x-highgpu-4g", "gb2", prefix="gb2")], "") == []


def test_the_recorded_installers_are_what_the_generator_makes() -> None:
    assert fabric_objects.INSTALLERS_FILE.read_text("utf-8") == gke_installers.render(gke_installers.table())


def test_the_stack_gets_each_network_and_installer_once() -> None:
    first, second = pool("a3-megagpu-8g", "a"), pool("a3-megagpu-8g", "b")
    rdma = pool("a4-highgpu-8g", "c", prefix="rdma")
    objects = cloud_profile("gke").fabric.cluster_objects([first, second, rdma])
    kinds = [o["kind"] for o in objects]
    assert kinds.count("Network") == 8 + 9
    assert kinds.count("GKENetworkParamSet") == 8 + 9
    installers = [o["metadata"]["name"] for o in objects if o["kind"] == "DaemonSet"]
    assert installers == ["nccl-tcpxo-installer", "nccl-rdma-installer"]


def test_tcpxo_pods_get_their_interfaces_and_the_sidecars_devices() -> None:
    annotations = cloud_profile("gke").fabric.workload(pool("a3-megagpu-8g"), Fraction(1)).annotations
    assert annotations["networking.gke.io/default-interface"] == "eth0"
    interfaces = json.loads(annotations["networking.gke.io/interfaces"])
    assert interfaces[0] == {"interfaceName": "eth0", "network": "default"}
    assert interfaces[1:] == [{"interfaceName": f"eth{i + 1}", "network": f"gpu-sub-{i}"} for i in range(8)]
    devices = yaml.safe_load(annotations["devices.gke.io/container.tcpxo-daemon"])
    assert [d["path"] for d in devices] == [
        *(f"/dev/nvidia{i}" for i in range(8)),
        "/dev/nvidiactl",
        "/dev/nvidia-uvm",
        "/dev/dmabuf_import_helper",
    ]


def test_rdma_pods_need_no_sidecar_devices() -> None:
    annotations = cloud_profile("gke").fabric.workload(pool("a3-ultragpu-8g"), Fraction(1)).annotations
    assert not [k for k in annotations if k.startswith("devices.gke.io/")]
    assert len(json.loads(annotations["networking.gke.io/interfaces"])) == 10


def test_a_pool_without_fabric_needs_nothing() -> None:
    plain = GpuPoolSpec(cloud="gke", name="l4", instance_type="g2-standard-8", min_size=0, max_size=1)
    assert cloud_profile("gke").fabric.workload(plain, Fraction(1)).annotations == {}
    assert cloud_profile("gke").fabric.cluster_objects([plain]) == []


def test_the_workload_helper_annotates_pods_for_the_extra_interfaces() -> None:
    spec = pool("a3-megagpu-8g")
    workload = gpu_workload(spec, 8)
    assert workload.pod_annotations() == cloud_profile("gke").fabric.workload(spec, Fraction(1)).annotations
    assert workload.container({"name": "train"})["resources"] == {
        "limits": {"nvidia.com/gpu": 8},
        "requests": {"nvidia.com/gpu": 8},
    }


@pytest.mark.parametrize("machine", ["a3-highgpu-8g", "a3-megagpu-8g", "a3-ultragpu-8g", "a4x-highgpu-4g"])
def test_a_workload_pod_with_its_fabric_parts_is_a_valid_pod(machine: str) -> None:
    spec = pool(machine)
    workload = gpu_workload(spec, spec.resolved.gpu.gpus)
    containers = [*workload.sidecars(), workload.container({"name": "train", "image": "nccl:latest"})]
    pod: dict[str, Any] = {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": "train-0", "annotations": workload.pod_annotations()},
        "spec": {**workload.pod_spec(), "containers": containers, "volumes": workload.volumes()},
    }
    kubernetes_validate.validate(pod, K8S, strict=True)
    volumes = {v["name"] for v in workload.volumes()}
    assert {m["name"] for c in containers for m in c.get("volumeMounts", [])} <= volumes
    device_keys = [k for k in workload.pod_annotations() if k.startswith("devices.gke.io/container.")]
    assert [k.rsplit(".", 1)[-1] for k in device_keys] == [c["name"] for c in workload.sidecars()]
    train = containers[-1]
    assert {"name": "LD_LIBRARY_PATH", "value": "/usr/local/nvidia/lib64"} in train["env"]
    if GPUDIRECT[machine].kind == "gpudirect-rdma":  # Google's gIB plugin: no sidecar, its directories mounted
        assert workload.sidecars() == []
        assert {m["mountPath"] for m in train["volumeMounts"]} == {"/usr/local/nvidia", "/usr/local/gib", "/dev/shm"}
        assert workload.fabric.shell_setup == ("source /usr/local/gib/scripts/set_nccl_env.sh",)


def test_the_container_keeps_what_it_had() -> None:
    workload = gpu_workload(pool("a3-megagpu-8g"), 8)
    mine = {"name": "LD_LIBRARY_PATH", "value": "/opt/lib"}
    container = workload.container({"name": "t", "env": [mine], "securityContext": {"privileged": False}})
    assert container["env"][0] == mine
    assert [e["name"] for e in container["env"]].count("LD_LIBRARY_PATH") == 1
    assert container["securityContext"]["privileged"] is False
