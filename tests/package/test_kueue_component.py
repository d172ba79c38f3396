"""``GpuKueueObjects`` in the component package (issue #28): Construct registers what the Python component
registers for the same pools and ``gpuready:kueue`` keys, on the Kubernetes provider of the resource options; bad
keys come back with the stack program's problems, and nothing registers without a provider."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grpc  # type: ignore[import-untyped]  # no stubs installed
import pulumi_kubernetes as k8s
import pytest
import yaml
from google.protobuf import json_format  # type: ignore[import-untyped]
from pulumi.runtime.mocks import MockMonitor

from gpuready import GpuKueueObjects, GpuKueueObjectsArgs
from gpuready.core.config_model.parsers import parse_kueue
from gpuready.core.pool_config import parse_pools
from gpuready.package.schema import package_schema
from gpuready.package.yaml_program import check_yaml_program
from tests.package.provider_host import Host, provider_host
from tests.package.test_provider_host import _same_as_python, _stack_problems
from tests.pulumi_mocks import install_mocks

TOKEN = "gpuready:index:GpuKueueObjects"
YAML_EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "yaml_eks"
K8S_URN = "urn:pulumi:test::gpuready::pulumi:providers:kubernetes::cluster"
PROVIDERS = {"kubernetes": f"{K8S_URN}::cluster-id"}
POOLS = [
    {"name": "h100-queued", "instanceType": "a3-highgpu-8g", "minSize": 0, "maxSize": 4, "capacity": "queued",
     "repair": False},
    {"name": "l4", "instanceType": "g2-standard-8", "minSize": 0, "maxSize": 2},
]  # fmt: skip
KUEUE: dict[str, Any] = {
    "flavors": "all",
    "clusterQueue": {"name": "ml", "quota": {"h100-queued": {"cpu": 832, "memory": "7488G"},
                                             "l4": {"cpu": 16, "memory": "64G"}}},
    "localQueues": [{"namespace": "team-a", "name": "ml"}],
}  # fmt: skip


@pytest.fixture(scope="module")
def host() -> Iterator[Host]:
    monitor = install_mocks()
    monitor.resources[K8S_URN] = MockMonitor.ResourceRegistration(K8S_URN, "cluster-id", {})
    with provider_host(monitor) as running:
        yield running


def test_the_schema_takes_the_stack_key_s_fields_with_the_pools() -> None:
    resource = package_schema()["resources"][TOKEN]
    assert list(resource["inputProperties"])[:3] == ["flavors", "clusterQueue", "localQueues"]
    assert resource["requiredInputs"] == ["pools", "cloud"]
    assert sorted(resource["properties"]) == ["admissionChecks", "clusterQueue", "flavors", "localQueues"]


def test_construct_registers_what_the_python_component_registers(host: Host) -> None:
    pools = parse_pools(POOLS, "gke")
    spec = parse_kueue(KUEUE, pools)
    response = _same_as_python(
        host, TOKEN, "kueue", {"pools": POOLS, "cloud": "gke", **KUEUE},
        lambda: GpuKueueObjects("kueue", GpuKueueObjectsArgs(pools=pools, kueue=spec, provider=k8s.Provider("c"))),
        providers=PROVIDERS,
    )  # fmt: skip
    state = json_format.MessageToDict(response.state)
    assert state == {"flavors": ["h100-queued", "l4"], "admissionChecks": ["h100-queued"], "clusterQueue": "ml",
                     "localQueues": ["team-a/ml"]}  # fmt: skip
    kinds = {r.type.rsplit(":", 1)[-1] for r in host.monitor.registrations if r.parent.endswith(f"::{TOKEN}::kueue")}
    assert kinds == {"ResourceFlavor", "ProvisioningRequestConfig", "AdmissionCheck", "ClusterQueue", "LocalQueue"}


def test_bad_keys_come_back_with_the_stack_program_s_problems(host: Host) -> None:
    bad = {"flavors": "some", "localQueues": [{"namespace": "a.b", "name": "ml"}]}
    with pytest.raises(grpc.RpcError) as caught:
        host.construct(TOKEN, "bad-kueue", {"pools": POOLS, "cloud": "gke", **bad}, PROVIDERS)
    expected = _stack_problems(lambda: parse_kueue(bad, parse_pools(POOLS, "gke")), "kueue.", "")
    assert expected
    for problem in expected:
        assert problem in str(caught.value.details())
    assert not [r for r in host.monitor.registrations if r.name == "bad-kueue"]


def test_without_a_kubernetes_provider_nothing_registers(host: Host) -> None:
    with pytest.raises(grpc.RpcError) as caught:
        host.construct(TOKEN, "noprov", {"pools": POOLS, "cloud": "gke"})
    assert "providers: GpuKueueObjects makes Kubernetes objects on the cluster" in caught.value.details()
    assert not [r for r in host.monitor.registrations if r.name == "noprov"]


@pytest.mark.parametrize(
    ("properties", "path"),
    [
        ({"flavors": "all", "clusterQueue": {"name": "ml"}}, None),
        ({"flavors": "all", "localQueues": [{"namespace": "team-a", "name": "ml"}]}, "localQueues"),
        ({"flavors": "some"}, "flavors"),
        ({"clusterQueue": {"nam": "ml"}}, "clusterQueue.nam"),
    ],
    ids=["passes", "local-queues-without-a-cluster-queue", "unknown-choice", "unknown-key"],
)  # fmt: skip
def test_a_yaml_program_s_kueue_objects_are_checked_by_the_stack_rules(
    properties: dict[str, Any], path: str | None, tmp_path: Path
) -> None:
    program = tmp_path / "program"
    shutil.copytree(YAML_EXAMPLE, program)
    document = yaml.safe_load((program / "Pulumi.yaml").read_text())
    document["resources"]["kueue"] = {
        "type": TOKEN,
        "properties": {"cloud": "eks", "pools": ["${trainPool}"], **properties},
        "options": {"providers": ["${cluster}"]},
    }
    (program / "Pulumi.yaml").write_text(yaml.safe_dump(document, sort_keys=False))
    problems = [p.path for p in check_yaml_program(program, "dev").problems]
    if path is None:
        assert problems == []
    else:
        assert any(p.startswith(f"resources.kueue.properties.{path}") for p in problems), problems
