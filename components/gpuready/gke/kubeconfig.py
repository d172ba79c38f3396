"""A GKE cluster's kubeconfig: the cluster's endpoint (an address without scheme, as GKE returns it) and base64 CA,
and a user that runs the ``gke-gcloud-auth-plugin`` exec credential plugin, as ``gcloud container clusters
get-credentials`` writes it since GKE 1.26 (Google Cloud blog, "Here's what to know about changes to kubectl
authentication coming in GKE v1.26"). Pure; called by ``gke.stack_adapter``."""

from __future__ import annotations

from gpuready.core.cluster_kubeconfig import exec_kubeconfig

GKE_AUTH_PLUGIN = "gke-gcloud-auth-plugin"
GKE_INSTALL_HINT = (
    "Install gke-gcloud-auth-plugin for use with kubectl by following "
    "https://cloud.google.com/blog/products/containers-kubernetes/kubectl-auth-changes-in-gke"
)


def gke_kubeconfig(name: str, endpoint: str, ca_data_b64: str) -> str:
    """A kubeconfig for a GKE cluster whose user runs ``gke-gcloud-auth-plugin`` for a token on each use."""
    plugin = {"command": GKE_AUTH_PLUGIN, "installHint": GKE_INSTALL_HINT, "provideClusterInfo": True}
    return exec_kubeconfig(name, endpoint, ca_data_b64, plugin)
