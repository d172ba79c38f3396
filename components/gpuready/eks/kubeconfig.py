"""An EKS cluster's kubeconfig from ``DescribeCluster``'s endpoint and base64 CA and a bearer token (the
``k8s-aws-v1.`` token of aws-iam-authenticator; AWS EKS User Guide, "Connect kubectl to an EKS cluster by creating
a kubeconfig file"). Pure; called by ``eks.stack_adapter``."""

from __future__ import annotations

from gpuready.core.cluster_kubeconfig import bearer_token_kubeconfig


def eks_kubeconfig(name: str, endpoint: str, ca_data_b64: str, token: str) -> str:
    """A kubeconfig for an EKS cluster whose user presents ``token`` (``k8s-aws-v1.…``) as a bearer token."""
    return bearer_token_kubeconfig(name, endpoint, ca_data_b64, token)
