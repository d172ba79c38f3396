"""The AKS stack keys (``gpuready:aks*``): the cluster's resource group (which its kubeconfig look-up needs too) and
the agent pools' subnet, in their documented formats, checked when the stack config is read. Pure; registered as
``AksProfile.settings``.

* Resource group name: 1 to 90 of letters, digits, ``_-.()``, not ending in a period (Azure/azure-rest-api-specs
  ``specification/common-types/resource-management/v5/types.json`` ``ResourceGroupNameParameter``; "Naming rules
  and restrictions for Azure resources", Microsoft.Resources/resourcegroups).
* Subnet resource id: ``/subscriptions/{subscriptionId}/resourceGroups/{resourceGroupName}/providers/
  Microsoft.Network/virtualNetworks/{virtualNetworkName}/subnets/{subnetName}`` (azure-native 3.29.0
  ``containerservice/_inputs.py``, ``vnet_subnet_id``); the subscription id is a GUID (``SubscriptionIdParameter``,
  ``format: uuid``, same types.json).
"""

from __future__ import annotations

import re
from typing import Annotated

from pydantic import Field

from gpuready.core.config_model.cloud_settings import TARGET, CloudSettingsConfig, formatted

_RESOURCE_GROUP = re.compile(r"^[-\w.()]{1,90}(?<!\.)\Z")
_GUID = r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"
_AZURE_SUBNET_ID = re.compile(
    rf"^/subscriptions/{_GUID}/resourceGroups/[-\w.()]{{1,90}}/providers/Microsoft\.Network/"
    r"virtualNetworks/[^/]+/subnets/[^/]+\Z",
    re.IGNORECASE,
)


ResourceGroupName = Annotated[
    str,
    formatted(
        _RESOURCE_GROUP,
        "must be an Azure resource group name: 1 to 90 letters, digits, _ - . ( ), not ending in a period",
        'the name, not its resource id; az aks list --query "[].{name:name, resourceGroup:resourceGroup}"',
    ),
]
AzureSubnetId = Annotated[
    str,
    formatted(
        _AZURE_SUBNET_ID,
        "must be a subnet resource id: /subscriptions/<subscription GUID>/resourceGroups/<group>/providers/"
        "Microsoft.Network/virtualNetworks/<vnet>/subnets/<subnet>",
        "print it with az network vnet subnet show -g <group> --vnet-name <vnet> -n <subnet> --query id -o tsv",
    ),
]


class AksSettingsConfig(CloudSettingsConfig):
    """The keys a stack on AKS is wired with (checked against the pools by ``AksProfile.stack_settings_problems``)."""

    aks_resource_group: Annotated[ResourceGroupName, TARGET] = Field(
        default="", description="AKS: resource group of the cluster (required when cloud is aks)."
    )
    aks_vnet_subnet_id: AzureSubnetId = Field(
        default="", description="AKS: optional subnet ID for the GPU agent pools."
    )
