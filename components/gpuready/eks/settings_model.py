"""The EKS stack keys (``gpuready:eks*``): the node role and subnets of the stack's node groups and Karpenter /
Auto Mode node classes, in their documented formats (``settings_keys``), checked when the stack config is read.
Pure; registered as ``EksProfile.settings``.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from gpuready.core.config_model.base import before
from gpuready.core.config_model.cloud_settings import REQUIRED, CloudSettingsConfig, formatted, text_items
from gpuready.eks.settings_keys import AWS_PARTITIONS, IAM_ROLE_ARN, SUBNET_ID, EksSettingsValues

__all__ = ["AWS_PARTITIONS", "EksSettingsConfig", "EksSettingsValues"]

IamRoleArn = Annotated[str, formatted(IAM_ROLE_ARN)]
SubnetId = Annotated[str, formatted(SUBNET_ID)]


class EksSettingsConfig(EksSettingsValues, CloudSettingsConfig):
    """The keys a stack on EKS is wired with."""

    eks_node_role_arn: Annotated[IamRoleArn, REQUIRED] = Field(
        default="", description="EKS: ARN of the IAM role the GPU nodes run as (required when cloud is eks)."
    )
    eks_subnet_ids: Annotated[list[SubnetId], before(text_items), REQUIRED] = Field(
        default=[], description="EKS: subnets for the GPU node groups (required when cloud is eks)."
    )
