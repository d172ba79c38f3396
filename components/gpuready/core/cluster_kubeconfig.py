"""Kubeconfig text for the cluster a stack names, built from what each cloud's API returns. Pure.

Each builder returns one kubeconfig v1 document (``apiVersion: v1``, ``kind: Config``) with exactly one cluster,
one user and one context, all named after the cluster, and that context current:

- EKS: the endpoint and base64 CA of ``DescribeCluster`` and a bearer token, the user's ``token`` field.
- GKE: the endpoint (an address without scheme, as GKE returns it) and base64 CA of the cluster, and a user
  that runs the ``gke-gcloud-auth-plugin`` exec credential plugin, as ``gcloud container clusters
  get-credentials`` writes it.
- AKS: the kubeconfig Azure itself returns (``listClusterUserCredential``), base64-decoded and checked.

Error messages never quote a credential: they say what is wrong and how long the value was.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import yaml

from gpuready.core.clouds.registry import CLOUDS, Cloud, cloud_profile
from gpuready.errors import ConfigError, GpuReadyError, Problem

NS = "gpuready"
EXEC_API_VERSION = "client.authentication.k8s.io/v1beta1"
GKE_AUTH_PLUGIN = "gke-gcloud-auth-plugin"
GKE_INSTALL_HINT = (
    "Install gke-gcloud-auth-plugin for use with kubectl by following "
    "https://cloud.google.com/blog/products/containers-kubernetes/kubectl-auth-changes-in-gke"
)
OVERRIDE_HINT = f"or set {NS}:kubeconfig (content or path) to a kubeconfig that reaches the cluster"


class ClusterCredentialsError(GpuReadyError):
    """A cloud returned cluster credentials that cannot be turned into a usable kubeconfig.

    Not a ``ValueError``: raised inside an ``apply``, the Pulumi SDK would re-raise a ``ValueError`` as a bare
    ``ValueError`` wrapped in resource-processing text, and the class would be lost.
    """


@dataclass(frozen=True, slots=True)
class ClusterTarget:
    """The existing cluster a stack deploys into, and where its cloud finds it."""

    cloud: Cloud
    cluster_name: str
    aks_resource_group: str = ""
    """The cluster's resource group; required for AKS."""
    gke_location: str = ""
    """The cluster's region or zone; required for GKE."""

    def __post_init__(self) -> None:
        problems: list[Problem] = []
        if self.cloud not in CLOUDS:
            problems.append(Problem(f"{NS}:cloud", "unknown cloud", self.cloud, CLOUDS))
        if not self.cluster_name:
            problems.append(Problem(f"{NS}:clusterName", "is required", hint=f"pulumi config set {NS}:clusterName ..."))
        wanted = cloud_profile(self.cloud).cluster_target_setting if self.cloud in CLOUDS else None
        if wanted is not None:
            key, attribute = wanted
            if not getattr(self, attribute):
                problems.append(
                    Problem(
                        f"{NS}:{key}",
                        f"is required when {NS}:cloud is {self.cloud}",
                        hint=f"pulumi config set {NS}:{key} ...",
                    )
                )
        if problems:
            raise ConfigError(problems)


def eks_kubeconfig(name: str, endpoint: str, ca_data_b64: str, token: str) -> str:
    """A kubeconfig for an EKS cluster whose user presents ``token`` (``k8s-aws-v1.…``) as a bearer token."""
    return bearer_token_kubeconfig(name, endpoint, ca_data_b64, token)


def bearer_token_kubeconfig(name: str, endpoint: str, ca_data_b64: str, token: str, *, user: str = "") -> str:
    """A kubeconfig whose user presents a static bearer token; the user is named ``user`` or ``name``."""
    if not token:
        raise ClusterCredentialsError(f"cluster {name!r}: the bearer token is empty; {OVERRIDE_HINT}")
    return _kubeconfig(name, endpoint, ca_data_b64, user or name, {"token": token})


def gke_kubeconfig(name: str, endpoint: str, ca_data_b64: str) -> str:
    """A kubeconfig for a GKE cluster whose user runs ``gke-gcloud-auth-plugin`` for a token on each use."""
    exec_plugin: dict[str, Any] = {
        "apiVersion": EXEC_API_VERSION,
        "command": GKE_AUTH_PLUGIN,
        "installHint": GKE_INSTALL_HINT,
        "provideClusterInfo": True,
    }
    return _kubeconfig(name, endpoint, ca_data_b64, name, {"exec": exec_plugin})


def aks_kubeconfig(b64_value: str) -> str:
    """The kubeconfig text in one AKS ``listClusterUserCredential`` entry (its base64 ``value``), checked.

    Raises ``ClusterCredentialsError`` when the value is not base64 of UTF-8 text, or the text is not a
    kubeconfig with at least one cluster, user and context.
    """
    where = "AKS listClusterUserCredential kubeconfigs[0].value"
    try:
        text = base64.b64decode(b64_value.strip(), validate=True).decode("utf-8")
    except (binascii.Error, ValueError) as error:
        raise ClusterCredentialsError(
            f"{where} is not base64-encoded UTF-8 text ({len(b64_value)} characters: {error}); {OVERRIDE_HINT}"
        ) from None
    try:
        document = yaml.safe_load(text)
    except yaml.YAMLError as error:
        raise ClusterCredentialsError(f"{where} is not YAML ({type(error).__name__}); {OVERRIDE_HINT}") from None
    missing = _missing_sections(document)
    if missing:
        raise ClusterCredentialsError(
            f"{where} is not a kubeconfig: no {', '.join(missing)} ({len(text)} characters decoded); {OVERRIDE_HINT}"
        )
    return text


def https_server(endpoint: str) -> str:
    """The API server URL for an endpoint: GKE returns a bare address, EKS a full ``https://`` URL."""
    endpoint = endpoint.strip()
    if "://" in endpoint:
        return endpoint
    return f"https://{endpoint}"


def _kubeconfig(name: str, endpoint: str, ca_data_b64: str, user: str, credentials: Mapping[str, Any]) -> str:
    if not name:
        raise ClusterCredentialsError("the cluster name is empty")
    if not endpoint.strip():
        raise ClusterCredentialsError(f"cluster {name!r}: the API server endpoint is empty; {OVERRIDE_HINT}")
    _check_ca(name, ca_data_b64)
    document = {
        "apiVersion": "v1",
        "kind": "Config",
        "clusters": [
            {"name": name, "cluster": {"server": https_server(endpoint), "certificate-authority-data": ca_data_b64}}
        ],
        "users": [{"name": user, "user": dict(credentials)}],
        "contexts": [{"name": name, "context": {"cluster": name, "user": user}}],
        "current-context": name,
        "preferences": {},
    }
    return yaml.safe_dump(document, sort_keys=False, default_flow_style=False)


def _check_ca(name: str, ca_data_b64: str) -> None:
    if not ca_data_b64:
        raise ClusterCredentialsError(f"cluster {name!r}: the certificate authority data is empty; {OVERRIDE_HINT}")
    try:
        base64.b64decode(ca_data_b64, validate=True)
    except binascii.Error:
        raise ClusterCredentialsError(
            f"cluster {name!r}: the certificate authority data is not base64 ({len(ca_data_b64)} characters)"
        ) from None


def _missing_sections(document: object) -> list[str]:
    if not isinstance(document, dict):
        return ["clusters", "users", "contexts"]
    return [key for key in ("clusters", "users", "contexts") if not _named_entries(document.get(key))]


def _named_entries(section: object) -> bool:
    return isinstance(section, list) and bool(section) and all(isinstance(e, dict) and e.get("name") for e in section)


def first_entry(items: object, field: str) -> Any:
    """The first entry of a list in a cloud's answer (an SDK invoke result); a clear error when it is empty."""
    if not isinstance(items, (list, tuple)) or not items:
        raise ClusterCredentialsError(f"the cloud's answer has no {field}; set gpuready:kubeconfig to a kubeconfig")
    return items[0]
