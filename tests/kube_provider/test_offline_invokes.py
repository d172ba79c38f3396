"""The clearly fake cluster lookups both mock runtimes answer, and an offline plan of a program that makes them."""

from __future__ import annotations

import base64
import textwrap
from pathlib import Path
from typing import Any

import pytest
import yaml
from pulumi.runtime import MockCallArgs, rpc

from gpuready.aks.kubeconfig import aks_kubeconfig
from gpuready.aks.offline_answers import AKS_LIST_USER_CREDENTIALS
from gpuready.eks.offline_answers import EC2_GET_SUBNETS, EKS_GET_CLUSTER, EKS_GET_CLUSTER_AUTH
from gpuready.gke.offline_answers import GKE_GET_CLUSTER
from gpuready.offline.capture import PlanMocks
from gpuready.offline.invoke_results import (
    OFFLINE_CA_B64,
    OFFLINE_CA_TEXT,
    OFFLINE_CLUSTER,
    fake_invoke_result,
    faked_invokes,
)
from gpuready.offline.runner import run_program
from tests.pulumi_mocks import RecordingMocks

CALLS = [
    (EKS_GET_CLUSTER, {"name": "ml"}),
    (EKS_GET_CLUSTER_AUTH, {"name": "ml"}),
    (AKS_LIST_USER_CREDENTIALS, {"resourceGroupName": "rg", "resourceName": "ml"}),
    (GKE_GET_CLUSTER, {"name": "ml", "location": "us-central1"}),
    (EC2_GET_SUBNETS, {"filters": [{"name": "subnet-id", "values": ["subnet-a"]}]}),
    ("aws:index/getRegion:getRegion", {}),
]


@pytest.mark.parametrize(("token", "args"), CALLS)
def test_both_mocks_answer_from_the_one_table(token: str, args: dict[str, Any]) -> None:
    call = MockCallArgs(token=token, args=args, provider="")
    expected = fake_invoke_result(token, args)
    assert PlanMocks().call(call) == (expected, [])
    assert RecordingMocks().call(call) == (expected, [])
    assert bool(expected) == (token in faked_invokes())


def test_answers_echo_the_cluster_and_are_clearly_fake() -> None:
    assert base64.b64decode(OFFLINE_CA_B64).decode() == OFFLINE_CA_TEXT
    assert fake_invoke_result(EKS_GET_CLUSTER, {"name": "ml"}) == {
        "id": "ml",
        "name": "ml",
        "endpoint": "https://offline.invalid",
        "certificateAuthorities": [{"data": OFFLINE_CA_B64}],
        "status": "ACTIVE",
        "vpcConfig": {"clusterSecurityGroupId": "sg-0ff11ne", "vpcId": "vpc-0ff11ne"},
    }
    assert fake_invoke_result(EKS_GET_CLUSTER_AUTH, {"name": "ml"}) == {
        "id": "ml",
        "name": "ml",
        "token": "offline-token",
    }
    gke = fake_invoke_result(GKE_GET_CLUSTER, {"name": "ml", "location": "us-central1"})
    assert (gke["name"], gke["location"], gke["endpoint"]) == ("ml", "us-central1", "offline.invalid")
    assert gke["masterAuths"] == [{"clusterCaCertificate": OFFLINE_CA_B64}]
    assert fake_invoke_result(EKS_GET_CLUSTER, {})["name"] == OFFLINE_CLUSTER


def test_aks_answer_is_a_kubeconfig_shaped_like_azures() -> None:
    result = fake_invoke_result(AKS_LIST_USER_CREDENTIALS, {"resourceGroupName": "rg", "resourceName": "ml"})
    [entry] = result["kubeconfigs"]
    assert entry["name"] == "clusterUser"
    document = yaml.safe_load(aks_kubeconfig(entry["value"]))
    cluster = {"server": "https://offline.invalid:443", "certificate-authority-data": OFFLINE_CA_B64}
    assert document["clusters"] == [{"name": "ml", "cluster": cluster}]
    assert document["users"] == [{"name": "clusterUser_rg_ml", "user": {"token": "offline-token"}}]
    assert document["current-context"] == "ml"


PROGRAM = """\
from gpuready.core.cluster_kubeconfig import ClusterTarget
from gpuready.kube_provider import cluster_provider

cluster_provider("eks", ClusterTarget.from_keys("eks", "ml-eks"))
cluster_provider("aks", ClusterTarget.from_keys("aks", "ml-aks", aksResourceGroup="rg"))
cluster_provider("gke", ClusterTarget.from_keys("gke", "ml-gke", gkeLocation="us-central1"))
"""


@pytest.mark.parametrize("preview", [False, True], ids=["up", "preview"])
def test_offline_plan_of_a_program_that_looks_its_clusters_up(tmp_path: Path, preview: bool) -> None:
    (tmp_path / "__main__.py").write_text(textwrap.dedent(PROGRAM))
    run = run_program(tmp_path, project="kp", stack="dev", config={}, secret_keys=(), preview=preview)

    providers = {r.name: r for r in run.resources if r.type == "pulumi:providers:kubernetes"}
    assert sorted(providers) == ["aks", "eks", "gke"]
    for name, registration in providers.items():
        kubeconfig = registration.inputs["kubeconfig"]
        assert rpc.is_rpc_secret(kubeconfig), name
        document = yaml.safe_load(rpc.unwrap_rpc_secret(kubeconfig))
        [cluster] = document["clusters"]
        assert cluster["name"] == f"ml-{name}"
        assert cluster["cluster"]["server"].startswith("https://offline.invalid")
