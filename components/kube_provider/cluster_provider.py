"""The Kubernetes provider of a stack: its cluster's API server and credentials, kept as Pulumi secrets.

A kubeconfig given in the stack config (``gpuready:kubeconfig``, content or a path, with ``gpuready:kubeContext``)
is used as it is and no cloud API is called. Otherwise the cluster is looked up the way its cloud
authenticates kubectl:

- **EKS.** ``aws.eks.get_cluster`` gives the endpoint and the base64 CA (``certificate_authorities[0].data``)
  and ``aws.eks.get_cluster_auth`` a bearer token minted from the AWS provider's IAM credentials, the
  ``k8s-aws-v1.`` token of aws-iam-authenticator (a presigned STS ``GetCallerIdentity`` URL; AWS EKS User Guide,
  "Connect kubectl to an EKS cluster by creating a kubeconfig file"; kubernetes-sigs/aws-iam-authenticator,
  "API Authorization from Outside a Cluster"). The token is minted once per run and EKS accepts it for about
  15 minutes: a longer run (a slow Helm release with ``wait``) may see 401s part-way. The remedy is a
  kubeconfig override whose user runs ``aws eks get-token`` and so mints a fresh token on every use.
- **AKS.** ``containerservice.list_managed_cluster_user_credentials`` (Azure REST ``Managed Clusters -
  List Cluster User Credentials``, ``listClusterUserCredential``) returns the cluster's kubeconfig,
  base64-encoded; it is decoded and used as Azure wrote it. On a cluster with Microsoft Entra ID
  integration that kubeconfig runs ``kubelogin``, which must then be on the PATH of the Pulumi run.
- **GKE.** ``gcp.container.get_cluster`` gives the endpoint and the base64 CA
  (``master_auths[0].cluster_ca_certificate``); the user runs the ``gke-gcloud-auth-plugin`` exec
  credential plugin (``client.authentication.k8s.io/v1beta1``, ``provideClusterInfo: true``), as
  ``gcloud container clusters get-credentials`` writes it since GKE 1.26 (Google Cloud blog, "Here's what to
  know about changes to kubectl authentication coming in GKE v1.26"). The plugin must be installed where
  Pulumi runs; it fetches a fresh token from the active gcloud credentials whenever one is needed.

The cloud SDK is imported only in its branch: importing all three costs seconds. Invokes take the
``parent`` of ``opts``, so they use the same explicit cloud provider as the parent's other resources.
"""

from __future__ import annotations

from typing import Any

import pulumi
import pulumi_kubernetes

from components.core.cluster_kubeconfig import (
    ClusterCredentialsError,
    ClusterTarget,
    aks_kubeconfig,
    eks_kubeconfig,
    gke_kubeconfig,
)


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
    name = target.cluster_name
    if target.cloud == "eks":
        from pulumi_aws import eks  # noqa: PLC0415 - import only the SDK of the stack's cloud

        cluster = eks.get_cluster_output(name=name, opts=invoke_opts)
        auth = eks.get_cluster_auth_output(name=name, opts=invoke_opts)

        def eks_text(results: list[Any]) -> str:
            found, token = results
            ca = _first(found.certificate_authorities, "certificateAuthorities").data
            return eks_kubeconfig(name, found.endpoint, ca, token.token)

        return pulumi.Output.all(cluster, auth).apply(eks_text)
    if target.cloud == "aks":
        from pulumi_azure_native import containerservice  # noqa: PLC0415 - import only the SDK of the stack's cloud

        credentials = containerservice.list_managed_cluster_user_credentials_output(
            resource_group_name=target.aks_resource_group, resource_name=name, opts=invoke_opts
        )
        aks_text: pulumi.Output[str] = credentials.apply(
            lambda result: aks_kubeconfig(_first(result.kubeconfigs, "kubeconfigs").value)
        )
        return aks_text
    from pulumi_gcp import container  # noqa: PLC0415 - import only the SDK of the stack's cloud

    gke = container.get_cluster_output(name=name, location=target.gke_location, opts=invoke_opts)
    gke_text: pulumi.Output[str] = gke.apply(
        lambda result: gke_kubeconfig(
            name, result.endpoint, _first(result.master_auths, "masterAuths").cluster_ca_certificate
        )
    )
    return gke_text


def _first(items: object, field: str) -> Any:
    """The first entry of a list in an invoke result (an SDK output type); a clear error when it is empty."""
    if not isinstance(items, (list, tuple)) or not items:
        raise ClusterCredentialsError(f"the cloud's answer has no {field}; set gpuready:kubeconfig to a kubeconfig")
    return items[0]
