"""The AKS stack keys (``gpuready:aks*``): the cluster's resource group (which its kubeconfig look-up needs too) and
the agent pools' subnet, in their documented formats (``settings_keys``), checked when the stack config is read.
Pure; registered as ``AksProfile.settings``.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from gpuready.aks.settings_keys import AZURE_SUBNET_ID, RESOURCE_GROUP_NAME, AksSettingsValues
from gpuready.core.config_model.cloud_settings import TARGET, CloudSettingsConfig, formatted

__all__ = ["AksSettingsConfig", "AksSettingsValues"]

ResourceGroupName = Annotated[str, formatted(RESOURCE_GROUP_NAME)]
AzureSubnetId = Annotated[str, formatted(AZURE_SUBNET_ID)]


class AksSettingsConfig(AksSettingsValues, CloudSettingsConfig):
    """The keys a stack on AKS is wired with (checked against the pools by ``AksProfile.stack_settings_problems``)."""

    aks_resource_group: Annotated[ResourceGroupName, TARGET] = Field(
        default="", description="AKS: resource group of the cluster (required when cloud is aks)."
    )
    aks_vnet_subnet_id: AzureSubnetId = Field(
        default="", description="AKS: optional subnet ID for the GPU agent pools."
    )
