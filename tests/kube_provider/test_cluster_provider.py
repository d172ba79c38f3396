"""``cluster_provider`` under Pulumi's mock runtime: the invokes it makes and the Provider inputs it registers.

The mocks answer the cluster lookups with ``gpuready.offline.invoke_results`` (server ``https://offline.invalid``,
token ``offline-token``); ``mocked.mocks.invokes`` records every invoke's token and arguments.
"""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import pulumi
import pytest
import yaml
from pulumi.runtime import mocks as pulumi_mocks
from pulumi.runtime import rpc

from gpuready.aks.offline_answers import AKS_LIST_USER_CREDENTIALS
from gpuready.core.cluster_kubeconfig import ClusterCredentialsError, ClusterTarget
from gpuready.eks.offline_answers import EKS_GET_CLUSTER, EKS_GET_CLUSTER_AUTH
from gpuready.gke.kubeconfig import GKE_INSTALL_HINT
from gpuready.gke.offline_answers import GKE_GET_CLUSTER
from gpuready.kube_provider import cluster_provider
from gpuready.offline.invoke_results import OFFLINE_CA_B64, OFFLINE_TOKEN
from tests.kube_provider.conftest import InvokeRecordingMocks, MockedRun
from tests.pulumi_mocks import failing_program, install_mocks, runtime_test
from tests.wiring import cloud_settings

PROVIDER = "pulumi:providers:kubernetes"
GKE_EXEC = {
    "apiVersion": "client.authentication.k8s.io/v1beta1",
    "command": "gke-gcloud-auth-plugin",
    "installHint": GKE_INSTALL_HINT,
    "provideClusterInfo": True,
}


def build(target: ClusterTarget, *, kubeconfig: str = "", context: str = "") -> None:
    """Run a program that creates one cluster provider, and wait for every registration."""

    @runtime_test
    def program() -> None:
        cluster_provider("k8s", target, kubeconfig=kubeconfig, context=context)

    program()


def secret_value(value: Any) -> Any:
    """The value inside a secret as the engine receives it; fails unless it is a secret."""
    assert rpc.is_rpc_secret(value), f"not a secret: {value!r}"
    return rpc.unwrap_rpc_secret(value)


def provider_inputs(mocked: MockedRun) -> dict[str, Any]:
    registration = mocked.monitor.one(PROVIDER)
    assert registration.name == "k8s"
    return dict(registration.inputs)


@pytest.mark.parametrize(
    ("target", "server", "user", "invokes"),
    [
        pytest.param(
            ClusterTarget("eks", "ml-eks"),
            "https://offline.invalid",
            {"token": OFFLINE_TOKEN},
            [(EKS_GET_CLUSTER, {"name": "ml-eks"}), (EKS_GET_CLUSTER_AUTH, {"name": "ml-eks"})],
            id="eks",
        ),
        pytest.param(
            ClusterTarget("aks", "ml-aks", cloud_settings("aks", aksResourceGroup="rg-ml")),
            "https://offline.invalid:443",
            {"token": OFFLINE_TOKEN},
            [(AKS_LIST_USER_CREDENTIALS, {"resourceGroupName": "rg-ml", "resourceName": "ml-aks"})],
            id="aks",
        ),
        pytest.param(
            ClusterTarget("gke", "ml-gke", cloud_settings("gke", gkeLocation="europe-west4")),
            "https://offline.invalid",
            {"exec": GKE_EXEC},
            [(GKE_GET_CLUSTER, {"name": "ml-gke", "location": "europe-west4"})],
            id="gke",
        ),
    ],
)
def test_cloud_lookup_gives_a_secret_kubeconfig(
    mocked: MockedRun,
    target: ClusterTarget,
    server: str,
    user: dict[str, Any],
    invokes: list[tuple[str, dict[str, Any]]],
) -> None:
    build(target, context="ignored-without-a-kubeconfig")

    assert sorted(mocked.mocks.invokes) == sorted(invokes)  # arguments not given (region, project) are not sent
    inputs = provider_inputs(mocked)
    assert set(inputs) == {"kubeconfig"}, "nothing but the kubeconfig: no context, server-side apply left default"
    document = yaml.safe_load(secret_value(inputs["kubeconfig"]))
    [cluster] = document["clusters"]
    [registered_user] = document["users"]
    [context] = document["contexts"]
    assert cluster == {
        "name": target.cluster_name,
        "cluster": {"server": server, "certificate-authority-data": OFFLINE_CA_B64},
    }
    assert document["current-context"] == context["name"] == target.cluster_name
    assert context["context"] == {"cluster": target.cluster_name, "user": registered_user["name"]}
    assert registered_user["user"] == user


@pytest.mark.parametrize(
    "kubeconfig",
    [
        pytest.param("apiVersion: v1\nkind: Config\nclusters: []\ncontexts: []\nusers: []\n", id="content"),
        pytest.param("/home/ci/.kube/gpu-cluster.yaml", id="path"),
    ],
)
@pytest.mark.parametrize("cloud", ["eks", "aks", "gke"])
def test_explicit_kubeconfig_makes_no_invoke(mocked: MockedRun, cloud: str, kubeconfig: str) -> None:
    target = ClusterTarget(cloud, "ml", cloud_settings(cloud))
    build(target, kubeconfig=kubeconfig, context="admin@ml")

    assert mocked.mocks.invokes == []
    inputs = provider_inputs(mocked)
    assert set(inputs) == {"kubeconfig", "context"}
    assert secret_value(inputs["kubeconfig"]) == kubeconfig
    assert inputs["context"] == "admin@ml"


def test_explicit_kubeconfig_without_context(mocked: MockedRun) -> None:
    build(ClusterTarget("eks", "ml"), kubeconfig="/kube/config")

    assert mocked.mocks.invokes == []
    assert set(provider_inputs(mocked)) == {"kubeconfig"}


def test_provider_takes_the_resource_options(mocked: MockedRun) -> None:
    @runtime_test
    def program() -> None:
        parent = pulumi.ComponentResource("gpuready:test:Parent", "parent")
        cluster_provider("k8s", ClusterTarget("eks", "ml"), opts=pulumi.ResourceOptions(parent=parent))

    program()

    parent = mocked.monitor.one("gpuready:test:Parent")
    assert mocked.monitor.one(PROVIDER).parent == parent.urn
    assert sorted(token for token, _ in mocked.mocks.invokes) == [EKS_GET_CLUSTER, EKS_GET_CLUSTER_AUTH]


class NoCredentialsMocks(InvokeRecordingMocks):
    """Azure answers with an empty credential list."""

    def call(self, args: pulumi_mocks.MockCallArgs) -> tuple[dict[str, Any], list[tuple[str, str]] | None]:
        super().call(args)
        return {"kubeconfigs": []}, []


def test_aks_answer_without_kubeconfigs_fails_clearly() -> None:
    install_mocks(NoCredentialsMocks())
    with failing_program(), pytest.raises(ClusterCredentialsError, match="no kubeconfigs; set gpuready:kubeconfig"):
        build(ClusterTarget("aks", "ml", cloud_settings("aks", aksResourceGroup="rg")))


def test_cloud_sdks_are_imported_only_when_used() -> None:
    code = (
        "import sys\n"
        "import gpuready.kube_provider\n"
        "loaded = sorted(m for m in ('pulumi_aws', 'pulumi_azure_native', 'pulumi_gcp') if m in sys.modules)\n"
        "print(','.join(loaded))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120)
    assert result.stdout.strip() == ""
