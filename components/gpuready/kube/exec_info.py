"""What a credential exec plugin is told about the cluster (``KUBERNETES_EXEC_INFO``'s ``spec.cluster``).

client-go (kubernetes/kubernetes @cb6ff2d8 ``staging/src/k8s.io/client-go/plugin/pkg/client/auth/exec/exec.go``)
puts ``spec.cluster`` in the ExecCredential it passes only when the user's ``exec`` sets ``provideClusterInfo:
true`` (L424-425; the variable is set at L433), and builds that cluster from the kubeconfig's cluster entry
(``staging/src/k8s.io/client-go/rest/exec.go`` ``ConfigToExecCluster`` L31-60): ``server``, ``tls-server-name``,
``insecure-skip-tls-verify``, ``certificate-authority-data`` (the CA bundle inline, or the
``certificate-authority`` file read), ``proxy-url``, and ``config``: the cluster's extension named
``client.authentication.k8s.io/exec`` (kubernetes.io "client-go credential plugins", ``spec.cluster.config``).
The CA travels base64-encoded, as client-go's JSON encoding of its bytes does.
"""

from __future__ import annotations

import base64
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from gpuready.kube.errors import KubeConfigError

EXEC_EXTENSION = "client.authentication.k8s.io/exec"
"""The cluster extension whose value becomes ``spec.cluster.config``."""
PASSED_AS_IS = ("server", "tls-server-name", "insecure-skip-tls-verify", "proxy-url")
"""Cluster fields passed under the same name (kubeconfig and ``clientauthentication/v1.Cluster`` agree)."""


def provides_cluster_info(user_exec: Mapping[str, Any]) -> bool:
    """The kubeconfig user's ``exec.provideClusterInfo`` (false when absent, as in client-go)."""
    return user_exec.get("provideClusterInfo") is True


def exec_cluster(cluster: Mapping[str, Any], where: str) -> dict[str, Any]:
    """``spec.cluster`` for ``KUBERNETES_EXEC_INFO`` from the kubeconfig's ``clusters[].cluster`` entry."""
    info: dict[str, Any] = {key: cluster[key] for key in PASSED_AS_IS if cluster.get(key) not in (None, "")}
    info.setdefault("server", "")
    ca = _ca_data(cluster, where)
    if ca:
        info["certificate-authority-data"] = ca
    for extension in cluster.get("extensions") or ():
        if isinstance(extension, Mapping) and extension.get("name") == EXEC_EXTENSION:
            info["config"] = extension.get("extension")
    return info


def _ca_data(cluster: Mapping[str, Any], where: str) -> str:
    inline = cluster.get("certificate-authority-data")
    if isinstance(inline, str) and inline:
        return inline
    path = cluster.get("certificate-authority")
    if not isinstance(path, str) or not path:
        return ""
    try:
        return base64.b64encode(Path(path).expanduser().read_bytes()).decode("ascii")
    except OSError as error:
        raise KubeConfigError(
            f"{where}: certificate-authority {path} cannot be read for the exec plugin's cluster info "
            f"(provideClusterInfo): {error.strerror or error}"
        ) from None
