"""The Kubernetes provider of a stack: its cluster's API server and credentials, kept as Pulumi secrets.

A kubeconfig given in the stack config (``gpuready:kubeconfig``, content or a path, with ``gpuready:kubeContext``)
is used as it is and no cloud API is called. Otherwise the cluster is looked up the way its cloud
authenticates kubectl, by the cloud's stack adapter (``components/gpuready/<cloud>/stack_adapter.py``, whose docstring
says how). Only the stack's own cloud SDK is imported. Invokes take the ``parent`` of ``opts``, so they use the
same explicit cloud provider as the parent's other resources.
"""

from __future__ import annotations

import pulumi
import pulumi_kubernetes

from gpuready.core.cluster_kubeconfig import ClusterTarget
from gpuready.stack_adapters import stack_adapter


def cluster_provider(
    resource_name: str,
    target: ClusterTarget,
    *,
    kubeconfig: str = "",
    context: str = "",
    opts: pulumi.ResourceOptions | None = None,
) -> pulumi_kubernetes.Provider:
    """A Kubernetes provider for ``target``, or for ``kubeconfig`` (content or path) when one is given.

    ``context`` picks a context of the given ``kubeconfig``; a kubeconfig built from the cloud's answer has
    exactly one, current, context, so ``context`` is not used then. The kubeconfig is a secret either way.
    """
    if kubeconfig:
        return pulumi_kubernetes.Provider(
            resource_name, kubeconfig=pulumi.Output.secret(kubeconfig), context=context or None, opts=opts
        )
    invoke_opts = pulumi.InvokeOutputOptions(parent=opts.parent if opts else None)
    secret: pulumi.Output[str] = pulumi.Output.secret(_cloud_kubeconfig(target, invoke_opts))
    return pulumi_kubernetes.Provider(resource_name, kubeconfig=secret, opts=opts)


def _cloud_kubeconfig(target: ClusterTarget, invoke_opts: pulumi.InvokeOutputOptions) -> pulumi.Output[str]:
    return stack_adapter(target.profile).cluster_kubeconfig(target, invoke_opts)
