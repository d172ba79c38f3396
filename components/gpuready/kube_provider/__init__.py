"""A ``pulumi_kubernetes.Provider`` for the existing cluster a stack names, authenticated the way its cloud does."""

from gpuready.kube_provider.cluster_provider import cluster_provider

__all__ = ["cluster_provider"]
