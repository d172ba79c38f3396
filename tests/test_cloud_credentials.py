"""Exec plugins a cloud runs in-process, found through the profiles' ``exec_credentials`` and given to cluster access
(which names no cloud): a recognised plugin gives the cloud's credential and auth, any other plugin none, and
``gpuready.kube`` runs every plugin as it is when it is given no recogniser."""

from __future__ import annotations

import pytest

from gpuready.cloud_credentials import recognise
from gpuready.core.clouds.registry import cloud_profiles
from gpuready.eks.kube_token import EksExec, EksTokenAuth
from gpuready.kube.exec_credentials import DeadlineAuth
from gpuready.kube.kubeconfig import load_target_from_text


def test_every_registered_recogniser_loads() -> None:
    registered = [p.exec_credentials for p in cloud_profiles() if p.exec_credentials is not None]
    assert registered == ["gpuready.eks.kube_token:parse_eks_exec"]


@pytest.mark.parametrize(
    ("command", "args", "expected"),
    [
        ("aws", ["eks", "get-token", "--cluster-name", "ml", "--region", "us-east-1"], EksExec("ml", "us-east-1")),
        ("gke-gcloud-auth-plugin", [], None),
        ("kubelogin", ["get-token", "--login", "azurecli"], None),
    ],
)
def test_a_cloud_recognises_its_own_plugin_only(command: str, args: list[str], expected: EksExec | None) -> None:
    assert recognise(command, args, {}) == expected


def test_the_recognised_credential_describes_itself_and_makes_a_deadline_auth() -> None:
    found = recognise("aws", ["eks", "get-token", "--cluster-name", "ml", "--role-arn", "arn:aws:iam::1:role/r"], {})
    assert found is not None
    assert found.describe() == "EKS token for cluster ml, role arn:aws:iam::1:role/r"
    auth = found.auth()
    assert isinstance(auth, EksTokenAuth) and isinstance(auth, DeadlineAuth)
    assert auth.deadline_of().seconds is None


KUBECONFIG = """
apiVersion: v1
kind: Config
clusters: [{name: ml, cluster: {server: "https://ml.example"}}]
users: [{name: u, user: {exec: {apiVersion: client.authentication.k8s.io/v1beta1, command: aws,
  args: [eks, get-token, --cluster-name, ml, --region, us-east-1]}}}]
contexts: [{name: ml, context: {cluster: ml, user: u}}]
current-context: ml
"""


def test_cluster_access_runs_a_plugin_in_process_only_when_given_the_recognisers() -> None:
    given = load_target_from_text(KUBECONFIG, credentials=recognise)
    assert given.in_process == EksExec("ml", "us-east-1")
    assert given.auth_kind() == "EKS token for cluster ml"
    plain = load_target_from_text(KUBECONFIG)
    assert plain.in_process is None and plain.auth_kind() == "exec plugin aws"
