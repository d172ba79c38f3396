"""Kubeconfig text built from what each cloud returns (the core's builders, through each cloud's
``<cloud>/kubeconfig.py``): one cluster, user and context; the right server, CA and auth. ``ClusterTarget`` asks for
the keys its cloud's look-up needs (its settings model's ``target`` keys)."""

from __future__ import annotations

import base64
from collections.abc import Callable
from typing import Any

import kubernetes.client
import kubernetes.config
import pytest
import yaml
from lightkube.config.kubeconfig import KubeConfig

from gpuready.aks.kubeconfig import aks_kubeconfig
from gpuready.aks.settings_keys import AksSettingsValues
from gpuready.aks.settings_model import AksSettingsConfig
from gpuready.core.cluster_kubeconfig import ClusterCredentialsError, ClusterTarget, bearer_token_kubeconfig
from gpuready.eks.kubeconfig import eks_kubeconfig
from gpuready.errors import ConfigError
from gpuready.gke.kubeconfig import GKE_AUTH_PLUGIN, gke_kubeconfig
from gpuready.gke.settings_keys import GkeSettingsValues
from tests.wiring import cloud_settings

CA = base64.b64encode(b"-----BEGIN CERTIFICATE-----\nplaceholder\n-----END CERTIFICATE-----\n").decode()
EKS_TOKEN = "k8s-aws-v1.aHR0cHM6Ly9zdHMuYW1hem9uYXdzLmNvbS8"
GKE_EXEC = {
    "apiVersion": "client.authentication.k8s.io/v1beta1",
    "command": "gke-gcloud-auth-plugin",
    "installHint": (
        "Install gke-gcloud-auth-plugin for use with kubectl by following "
        "https://cloud.google.com/blog/products/containers-kubernetes/kubectl-auth-changes-in-gke"
    ),
    "provideClusterInfo": True,
}
EKS_TEXT = eks_kubeconfig("ml", "https://ABC.gr7.us-west-2.eks.amazonaws.com", CA, EKS_TOKEN)
GKE_TEXT = gke_kubeconfig("ml", "34.1.2.3", CA)
AKS_SERVER = "https://ml-dns.hcp.westeurope.azmk8s.io:443"
AKS_TEXT = bearer_token_kubeconfig("ml", AKS_SERVER, CA, "t0k", user="clusterUser_rg_ml")

CASES = [
    pytest.param(EKS_TEXT, "https://ABC.gr7.us-west-2.eks.amazonaws.com", "ml", {"token": EKS_TOKEN}, id="eks"),
    pytest.param(GKE_TEXT, "https://34.1.2.3", "ml", {"exec": GKE_EXEC}, id="gke"),
    pytest.param(
        aks_kubeconfig(base64.b64encode(AKS_TEXT.encode()).decode()),
        AKS_SERVER,
        "clusterUser_rg_ml",
        {"token": "t0k"},
        id="aks",
    ),
]


@pytest.mark.parametrize(("text", "server", "user", "credentials"), CASES)
def test_one_cluster_user_and_context(text: str, server: str, user: str, credentials: dict[str, Any]) -> None:
    document = yaml.safe_load(text)
    assert document == {
        "apiVersion": "v1",
        "kind": "Config",
        "clusters": [{"name": "ml", "cluster": {"server": server, "certificate-authority-data": CA}}],
        "users": [{"name": user, "user": credentials}],
        "contexts": [{"name": "ml", "context": {"cluster": "ml", "user": user}}],
        "current-context": "ml",
        "preferences": {},
    }


@pytest.mark.parametrize(("text", "server", "user", "credentials"), CASES)
def test_lightkube_loads_it(text: str, server: str, user: str, credentials: dict[str, Any]) -> None:
    config = KubeConfig.from_dict(yaml.safe_load(text)).get()
    assert config is not None
    assert (config.context_name, config.cluster.server, config.context.user) == ("ml", server, user)
    assert config.cluster.certificate_auth_data == CA
    assert config.user is not None
    if "token" in credentials:
        assert config.user.token == credentials["token"]
    else:
        assert config.user.exec is not None
        assert (config.user.exec.command, config.user.exec.apiVersion) == (GKE_AUTH_PLUGIN, GKE_EXEC["apiVersion"])


def test_official_client_loads_the_eks_kubeconfig() -> None:
    configuration = kubernetes.client.Configuration()
    load: Callable[..., None] = kubernetes.config.load_kube_config_from_dict  # untyped in the client
    load(yaml.safe_load(EKS_TEXT), client_configuration=configuration)
    assert configuration.host == "https://ABC.gr7.us-west-2.eks.amazonaws.com"
    assert configuration.api_key == {"BearerToken": f"Bearer {EKS_TOKEN}"}
    assert configuration.ssl_ca_cert is not None
    with open(configuration.ssl_ca_cert, "rb") as ca_file:  # the loader writes the decoded CA to a file
        assert ca_file.read() == base64.b64decode(CA)


BadCall = Callable[[], str]


@pytest.mark.parametrize(
    ("build", "message"),
    [
        pytest.param(lambda: eks_kubeconfig("ml", "https://x", CA, ""), "the bearer token is empty", id="no-token"),
        pytest.param(lambda: eks_kubeconfig("ml", "", CA, "t"), "endpoint is empty", id="no-endpoint"),
        pytest.param(lambda: gke_kubeconfig("ml", "1.2.3.4", ""), "certificate authority data is empty", id="no-ca"),
        pytest.param(lambda: gke_kubeconfig("ml", "1.2.3.4", "%%%"), "is not base64", id="bad-ca"),
        pytest.param(lambda: gke_kubeconfig("", "1.2.3.4", CA), "cluster name is empty", id="no-name"),
    ],
)
def test_builders_reject_missing_parts(build: BadCall, message: str) -> None:
    with pytest.raises(ClusterCredentialsError, match=message):
        build()


@pytest.mark.parametrize(
    ("kwargs", "path"),
    [
        pytest.param({"cloud": "aks", "cluster_name": "ml"}, "gpuready:aksResourceGroup", id="aks-no-group"),
        pytest.param(
            {"cloud": "aks", "cluster_name": "ml", "cloud_settings": AksSettingsConfig()},
            "gpuready:aksResourceGroup",
            id="aks-empty-group",
        ),
        pytest.param({"cloud": "gke", "cluster_name": "ml"}, "gpuready:gkeLocation", id="gke-no-location"),
        pytest.param({"cloud": "eks", "cluster_name": ""}, "gpuready:clusterName", id="no-name"),
        pytest.param({"cloud": "ecs", "cluster_name": "ml"}, "gpuready:cloud", id="unknown-cloud"),
    ],
)
def test_cluster_target_requires_what_its_cloud_needs(kwargs: dict[str, Any], path: str) -> None:
    with pytest.raises(ConfigError) as caught:
        ClusterTarget(**kwargs)
    assert [p.path for p in caught.value.problems] == [path]
    assert str(caught.value.problems[0]).startswith(f"{path}: ")


def test_a_missing_target_key_is_worded_as_the_stack_settings_word_it() -> None:
    with pytest.raises(ConfigError) as caught:
        ClusterTarget("gke", "ml")
    [problem] = caught.value.problems
    assert (problem.problem, problem.hint) == (
        "is required when gpuready:cloud is gke",
        "pulumi config set gpuready:gkeLocation ...",
    )


def test_cluster_target_carries_its_cloud_s_own_settings() -> None:
    target = ClusterTarget("gke", "ml", cloud_settings("gke", gkeLocation="europe-west4"))
    assert (target.cloud, target.cluster_name) == ("gke", "ml")
    assert GkeSettingsValues.of(target).gke_location == "europe-west4"
    with pytest.raises(AttributeError):
        target.cluster_name = "other"  # type: ignore[misc]


def test_another_cloud_s_settings_are_a_programming_error() -> None:
    with pytest.raises(TypeError, match="a gke cluster target takes GkeSettingsValues, not AksSettingsConfig"):
        ClusterTarget("gke", "ml", cloud_settings("aks"))


def test_a_target_from_the_cloud_s_keys_as_a_stack_file_spells_them() -> None:
    target = ClusterTarget.from_keys("aks", "ml", aksResourceGroup="rg-ml")
    assert AksSettingsValues.of(target).aks_resource_group == "rg-ml"
    assert ClusterTarget.from_keys("eks", "ml").cloud_settings is not None


@pytest.mark.parametrize(
    ("cloud", "keys", "paths"),
    [
        ("aks", {"aksResourceGroup": "rg/ml"}, ["gpuready:aksResourceGroup"]),
        ("gke", {"gkeZone": "us-central1-a"}, ["gpuready:gkeZone"]),
        ("gke", {}, ["gpuready:gkeLocation"]),
        ("ecs", {}, ["gpuready:cloud"]),
    ],
    ids=["bad-format", "unknown-key", "missing", "unknown-cloud"],
)
def test_a_target_from_bad_keys_is_refused_naming_them(cloud: Any, keys: dict[str, object], paths: list[str]) -> None:
    with pytest.raises(ConfigError) as caught:
        ClusterTarget.from_keys(cloud, "ml", **keys)
    assert [p.path for p in caught.value.problems] == paths
