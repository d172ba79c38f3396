"""What the Azure Native provider would answer for an AKS stack, faked for offline plans
(``CloudProfile.offline_answers``). Pure.

An agent pool's ``name`` (azure-native names it by ``agentPoolName``), and the cluster's user credentials
(pulumi-azure-native 3.29.0 ``containerservice/list_managed_cluster_user_credentials.py``): a kubeconfig of the
placeholders, its user named as Azure names it.
"""

from __future__ import annotations

import base64
from collections.abc import Mapping
from typing import Any

from gpuready.core.clouds.offline_answers import OfflineAnswers, Placeholders

AKS_LIST_USER_CREDENTIALS = "azure-native:containerservice:listManagedClusterUserCredentials"


def _agent_pool(name: str, inputs: Mapping[str, Any]) -> dict[str, Any]:
    return {} if "name" in inputs else {"name": inputs.get("agentPoolName", name)}


def _user_credentials(args: Mapping[str, Any], fake: Placeholders) -> dict[str, Any]:
    value = args.get("resourceName")
    name = value if isinstance(value, str) and value else fake.cluster
    group = args.get("resourceGroupName") or "offline-group"
    # Azure names the user clusterUser_<group>_<cluster> and serves the API on port 443.
    text = fake.kubeconfig(name, f"{fake.endpoint}:443", f"clusterUser_{group}_{name}")
    return {"kubeconfigs": [{"name": "clusterUser", "value": base64.b64encode(text.encode()).decode()}]}


ANSWERS = OfflineAnswers(
    outputs={"azure-native:containerservice:AgentPool": _agent_pool},
    invokes={AKS_LIST_USER_CREDENTIALS: _user_credentials},
)
