"""The AKS stack keys (``gpuready:aks*``): the cluster's resource group (which its kubeconfig look-up needs too) and
the agent pools' subnet. Pure; registered as ``AksProfile.settings``."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from gpuready.core.config_model import wiring
from gpuready.core.config_model.cloud_settings import TARGET, CloudSettingsConfig


class AksSettingsConfig(CloudSettingsConfig):
    """The keys a stack on AKS is wired with (checked against the pools by ``AksProfile.stack_settings_problems``)."""

    aks_resource_group: Annotated[wiring.ResourceGroupName, TARGET] = Field(
        default="", description="AKS: resource group of the cluster (required when cloud is aks)."
    )
    aks_vnet_subnet_id: wiring.AzureSubnetId = Field(
        default="", description="AKS: optional subnet ID for the GPU agent pools."
    )
