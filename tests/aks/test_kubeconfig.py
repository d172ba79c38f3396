"""The AKS kubeconfig (``gpuready.aks.kubeconfig``): Azure's own, decoded and checked, returned as Azure wrote it;
errors name the field of Azure's answer and never quote the value."""

from __future__ import annotations

import base64

import pytest

from gpuready.aks.kubeconfig import aks_kubeconfig
from gpuready.core.cluster_kubeconfig import ClusterCredentialsError
from gpuready.errors import GpuReadyError


def test_aks_kubeconfig_is_returned_as_azure_wrote_it() -> None:
    text = "apiVersion: v1\nkind: Config\n# from Azure\nclusters: [{name: a, cluster: {server: https://x}}]\n"
    text += "users: [{name: u, user: {token: t}}]\ncontexts: [{name: a, context: {cluster: a, user: u}}]\n"
    assert aks_kubeconfig(base64.b64encode(text.encode()).decode()) == text


def b64(text: str) -> str:
    return base64.b64encode(text.encode()).decode()


@pytest.mark.parametrize(
    ("value", "message"),
    [
        pytest.param("not base64!", "is not base64-encoded UTF-8 text", id="not-base64"),
        pytest.param(base64.b64encode(b"\xff\xfe\x00").decode(), "is not base64-encoded UTF-8 text", id="not-utf8"),
        pytest.param(b64("clusters: [unclosed"), "is not YAML", id="not-yaml"),
        pytest.param(b64("just a string"), "is not a kubeconfig: no clusters, users, contexts", id="scalar"),
        pytest.param(b64("apiVersion: v1\nkind: Config\n"), "no clusters, users, contexts", id="empty-config"),
        pytest.param(b64("clusters: [{name: a}]\nusers: [{name: u}]\ncontexts: []\n"), "no contexts", id="no-contexts"),
        pytest.param(b64("clusters: [{cluster: {}}]\nusers: [{name: u}]\ncontexts: [{name: c}]\n"), "no clusters"),
    ],
)
def test_aks_value_that_is_not_a_kubeconfig(value: str, message: str) -> None:
    with pytest.raises(ClusterCredentialsError, match=message) as caught:
        aks_kubeconfig(value)
    assert isinstance(caught.value, GpuReadyError)
    assert "AKS listClusterUserCredential kubeconfigs[0].value" in str(caught.value)
    assert "gpuready:kubeconfig" in str(caught.value)


def test_aks_error_never_quotes_the_value() -> None:
    secret = b64("token: super-secret-credential")
    with pytest.raises(ClusterCredentialsError) as caught:
        aks_kubeconfig(secret)
    assert "super-secret" not in str(caught.value)
    assert secret not in str(caught.value)
