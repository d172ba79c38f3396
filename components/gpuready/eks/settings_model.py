"""The EKS stack keys (``gpuready:eks*``): the node role and subnets of the stack's node groups and Karpenter /
Auto Mode node classes, in their documented formats, checked when the stack config is read. Pure; registered as
``EksProfile.settings``.

* IAM role ARN: ``arn:<partition>:iam::<account-id>:role/<path><role-name>`` (AWS IAM User Guide, "IAM
  identifiers", IAM ARNs; AWS General Reference, "Amazon Resource Names (ARNs)"). Partitions: botocore 1.44.5
  ``data/partitions.json``; account id ``\\d{12}`` (``accountIdType``), role name ``[\\w+=,.@-]+`` of 1 to 64
  (``roleNameType``) and path ``/`` or ``/.../`` of printable ASCII (``pathType``): botocore 1.44.5
  ``data/iam/2010-05-08/service-2.json``.
* Subnet id ``subnet-`` and hex: "Resource IDs" in the Amazon EC2 User Guide (8 or 17 hexadecimal characters);
  Karpenter's EC2NodeClass CRD takes ``subnet-[0-9a-z]+`` (aws/karpenter-provider-aws v1.14.1
  ``karpenter.k8s.aws_ec2nodeclasses.yaml``, ``subnetSelectorTerms[].id``).
"""

from __future__ import annotations

import re
from typing import Annotated

from pydantic import BeforeValidator, Field

from gpuready.core.config_model.cloud_settings import REQUIRED, CloudSettingsConfig, formatted, text_items

AWS_PARTITIONS = ("aws", "aws-cn", "aws-eusc", "aws-iso", "aws-iso-b", "aws-iso-e", "aws-iso-f", "aws-us-gov")
"""botocore 1.44.5 ``data/partitions.json`` partition ids."""

_ROLE_ARN = re.compile(
    rf"^arn:(?:{'|'.join(map(re.escape, AWS_PARTITIONS))}):iam::\d{{12}}:role/(?:[\x21-\x7e]+/)?[\w+=,.@-]{{1,64}}\Z",
    re.ASCII,
)
_SUBNET_ID = re.compile(r"^subnet-(?:[0-9a-f]{8}|[0-9a-f]{17})\Z")


def _role_hint(value: str) -> str:
    name = value.rsplit("/", 1)[-1] if value else "<role-name>"
    return (
        f"e.g. arn:aws:iam::123456789012:role/{name}; print it with "
        f"aws iam get-role --role-name {name} --query Role.Arn --output text"
    )


IamRoleArn = Annotated[
    str,
    formatted(
        _ROLE_ARN, "must be the ARN of an IAM role: arn:<partition>:iam::<12-digit account id>:role/<name>", _role_hint
    ),
]
SubnetId = Annotated[
    str,
    formatted(
        _SUBNET_ID,
        "must be an EC2 subnet id: subnet- and 8 or 17 hexadecimal digits",
        "e.g. subnet-0123456789abcdef0; list the cluster's with aws eks describe-cluster --name <cluster> "
        "--query cluster.resourcesVpcConfig.subnetIds",
    ),
]


class EksSettingsConfig(CloudSettingsConfig):
    """The keys a stack on EKS is wired with."""

    eks_node_role_arn: Annotated[IamRoleArn, REQUIRED] = Field(
        default="", description="EKS: ARN of the IAM role the GPU nodes run as (required when cloud is eks)."
    )
    eks_subnet_ids: Annotated[list[SubnetId], BeforeValidator(text_items), REQUIRED] = Field(
        default=[], description="EKS: subnets for the GPU node groups (required when cloud is eks)."
    )
