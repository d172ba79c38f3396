"""An AKS cluster's kubeconfig: the one Azure returns base64-encoded (``listClusterUserCredential``, Azure REST
"Managed Clusters - List Cluster User Credentials"), decoded and checked, used as Azure wrote it. Pure; called by
``aks.stack_adapter``."""

from __future__ import annotations

from gpuready.core.cluster_kubeconfig import decoded_kubeconfig

WHERE = "AKS listClusterUserCredential kubeconfigs[0].value"
"""The field of Azure's answer the kubeconfig comes from, as errors name it."""


def aks_kubeconfig(b64_value: str) -> str:
    """The kubeconfig text in one AKS ``listClusterUserCredential`` entry (its base64 ``value``), checked
    (``ClusterCredentialsError`` when it is not base64 of UTF-8 text or not a kubeconfig)."""
    return decoded_kubeconfig(b64_value, WHERE)
