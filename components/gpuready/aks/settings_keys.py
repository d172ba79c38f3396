"""The AKS stack keys (``gpuready:aks*``) without pydantic: their formats and ``AksSettingsValues``, what AKS's code
reads (``AksSettingsValues.of(settings)``). Pure; ``settings_model.AksSettingsConfig`` declares the keys.

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
from pathlib import Path
from typing import TYPE_CHECKING

from gpuready.core.config_model.cloud_keys import CloudSettingsValues, Format
from gpuready.core.config_model.forms import named

_RESOURCE_GROUP = r"^[-\w.()]{1,90}(?<!\.)\Z"
_GUID = r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"
_AZURE_SUBNET_ID = (
    rf"^/subscriptions/{_GUID}/resourceGroups/[-\w.()]{{1,90}}/providers/Microsoft\.Network/"
    r"virtualNetworks/[^/]+/subnets/[^/]+\Z"
)

RESOURCE_GROUP_NAME = named(
    Format(
        _RESOURCE_GROUP,
        "must be an Azure resource group name: 1 to 90 letters, digits, _ - . ( ), not ending in a period",
        'the name, not its resource id; az aks list --query "[].{name:name, resourceGroup:resourceGroup}"',
    ),
    "RESOURCE_GROUP_NAME",
)
AZURE_SUBNET_ID = named(
    Format(
        _AZURE_SUBNET_ID,
        "must be a subnet resource id: /subscriptions/<subscription GUID>/resourceGroups/<group>/providers/"
        "Microsoft.Network/virtualNetworks/<vnet>/subnets/<subnet>",
        "print it with az network vnet subnet show -g <group> --vnet-name <vnet> -n <subnet> --query id -o tsv",
        re.IGNORECASE,
    ),
    "AZURE_SUBNET_ID",
)


class AksSettingsValues(
    CloudSettingsValues, shape="AksSettingsConfig", table=Path(__file__).with_name("settings_shape.json")
):
    """The keys a stack on AKS is wired with, validated."""

    if TYPE_CHECKING:
        aks_resource_group: str
        aks_vnet_subnet_id: str
