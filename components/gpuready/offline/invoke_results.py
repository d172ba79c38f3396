"""Clearly fake results for the cloud invokes a stack program makes to reach its cluster. Pure.

Offline plans and component tests run under Pulumi's mock runtime, where no provider answers an invoke.
These results have the shape each provider returns (wire names, camelCase), so the program's ``apply``
callbacks run and the kubeconfig it builds is a real kubeconfig; every value is a placeholder: the server is
``https://offline.invalid`` (``.invalid`` never resolves, RFC 2606), the CA is base64 of a fixed text that is
not a certificate, and the token is ``offline-token``. The requested cluster name is echoed back.

Tokens and result fields are those of pulumi-aws 7.51.1, pulumi-azure-native 3.29.0 and pulumi-gcp 10.2.0
(``pulumi_aws/eks/get_cluster.py``, ``pulumi_aws/eks/get_cluster_auth.py``,
``pulumi_azure_native/containerservice/list_managed_cluster_user_credentials.py``,
``pulumi_gcp/container/get_cluster.py``); an EFA node group also reads the cluster's VPC and security group
(``vpcConfig``) and its subnets' zone (``pulumi_aws/ec2/get_subnets.py``).
"""

from __future__ import annotations

import base64
from collections.abc import Callable, Mapping
from typing import Any

from gpuready.core.cluster_kubeconfig import bearer_token_kubeconfig

OFFLINE_HOST = "offline.invalid"
OFFLINE_ENDPOINT = f"https://{OFFLINE_HOST}"
OFFLINE_CA_TEXT = "gpuready offline placeholder: not a certificate\n"
OFFLINE_CA_B64 = base64.b64encode(OFFLINE_CA_TEXT.encode()).decode()
OFFLINE_TOKEN = "offline-token"
OFFLINE_CLUSTER = "offline-cluster"
OFFLINE_SECURITY_GROUP = "sg-0ff11ne"
OFFLINE_VPC = "vpc-0ff11ne"
"""The cluster name echoed when an invoke names none."""

EKS_GET_CLUSTER = "aws:eks/getCluster:getCluster"
EKS_GET_CLUSTER_AUTH = "aws:eks/getClusterAuth:getClusterAuth"
AKS_LIST_USER_CREDENTIALS = "azure-native:containerservice:listManagedClusterUserCredentials"
GKE_GET_CLUSTER = "gcp:container/getCluster:getCluster"
EC2_GET_SUBNETS = "aws:ec2/getSubnets:getSubnets"


def fake_invoke_result(token: str, args: Mapping[str, Any]) -> dict[str, Any]:
    """The fake result of invoke ``token`` called with ``args`` (wire names); ``{}`` for any other invoke."""
    build = _RESULTS.get(token)
    return build(args) if build else {}


def _name(args: Mapping[str, Any], key: str = "name") -> str:
    value = args.get(key)
    return value if isinstance(value, str) and value else OFFLINE_CLUSTER


def _eks_cluster(args: Mapping[str, Any]) -> dict[str, Any]:
    name = _name(args)
    return {
        "id": name,
        "name": name,
        "endpoint": OFFLINE_ENDPOINT,
        "certificateAuthorities": [{"data": OFFLINE_CA_B64}],
        "status": "ACTIVE",
        "vpcConfig": {"clusterSecurityGroupId": OFFLINE_SECURITY_GROUP, "vpcId": OFFLINE_VPC},
    }


def _ec2_subnets(args: Mapping[str, Any]) -> dict[str, Any]:
    """Every subnet the ``subnet-id`` filter names, as if it met the other filters (its zone: offline, the plan
    cannot know a subnet's zone; the deployment asks EC2)."""
    filters = args.get("filters") or []
    named = next((f.get("values") for f in filters if isinstance(f, Mapping) and f.get("name") == "subnet-id"), None)
    ids = [str(v) for v in named or []]
    return {"id": "offline-subnets", "ids": ids, "filters": filters}


def _eks_cluster_auth(args: Mapping[str, Any]) -> dict[str, Any]:
    name = _name(args)
    return {"id": name, "name": name, "token": OFFLINE_TOKEN}


def _aks_user_credentials(args: Mapping[str, Any]) -> dict[str, Any]:
    name = _name(args, "resourceName")
    group = args.get("resourceGroupName") or "offline-group"
    # Azure names the user clusterUser_<group>_<cluster> and serves the API on port 443.
    text = bearer_token_kubeconfig(
        name, f"{OFFLINE_ENDPOINT}:443", OFFLINE_CA_B64, OFFLINE_TOKEN, user=f"clusterUser_{group}_{name}"
    )
    return {"kubeconfigs": [{"name": "clusterUser", "value": base64.b64encode(text.encode()).decode()}]}


def _gke_cluster(args: Mapping[str, Any]) -> dict[str, Any]:
    name = _name(args)
    location = args.get("location") or "offline-location"
    return {
        "id": f"projects/offline-project/locations/{location}/clusters/{name}",
        "name": name,
        "location": location,
        "project": "offline-project",
        "endpoint": OFFLINE_HOST,  # GKE returns the address without a scheme
        "masterAuths": [{"clusterCaCertificate": OFFLINE_CA_B64}],
    }


_RESULTS: Mapping[str, Callable[[Mapping[str, Any]], dict[str, Any]]] = {
    EKS_GET_CLUSTER: _eks_cluster,
    EKS_GET_CLUSTER_AUTH: _eks_cluster_auth,
    AKS_LIST_USER_CREDENTIALS: _aks_user_credentials,
    GKE_GET_CLUSTER: _gke_cluster,
    EC2_GET_SUBNETS: _ec2_subnets,
}
FAKED_INVOKES: frozenset[str] = frozenset(_RESULTS)
"""The invoke tokens this module answers."""
