"""The EKS stack keys (``gpuready:eks*``): the node role and subnets of the stack's node groups and Karpenter /
Auto Mode node classes. Pure; registered as ``EksProfile.settings``."""

from __future__ import annotations

from typing import Annotated

from pydantic import BeforeValidator, Field

from gpuready.core.config_model import wiring
from gpuready.core.config_model.cloud_settings import REQUIRED, CloudSettingsConfig, text_items


class EksSettingsConfig(CloudSettingsConfig):
    """The keys a stack on EKS is wired with."""

    eks_node_role_arn: Annotated[wiring.IamRoleArn, REQUIRED] = Field(
        default="", description="EKS: ARN of the IAM role the GPU nodes run as (required when cloud is eks)."
    )
    eks_subnet_ids: Annotated[list[wiring.SubnetId], BeforeValidator(text_items), REQUIRED] = Field(
        default=[], description="EKS: subnets for the GPU node groups (required when cloud is eks)."
    )
