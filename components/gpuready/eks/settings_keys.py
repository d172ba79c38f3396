"""The EKS stack keys (``gpuready:eks*``) without pydantic: their formats and ``EksSettingsValues``, what EKS's code
reads (``EksSettingsValues.of(settings)``). Pure; ``settings_model.EksSettingsConfig`` declares the keys.

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
from pathlib import Path
from typing import TYPE_CHECKING

from gpuready.core.config_model.cloud_keys import CloudSettingsValues, Format
from gpuready.core.config_model.forms import named

AWS_PARTITIONS = ("aws", "aws-cn", "aws-eusc", "aws-iso", "aws-iso-b", "aws-iso-e", "aws-iso-f", "aws-us-gov")
"""botocore 1.44.5 ``data/partitions.json`` partition ids."""

_ROLE_ARN = (
    rf"^arn:(?:{'|'.join(map(re.escape, AWS_PARTITIONS))}):iam::\d{{12}}:role/(?:[\x21-\x7e]+/)?[\w+=,.@-]{{1,64}}\Z"
)
_SUBNET_ID = r"^subnet-(?:[0-9a-f]{8}|[0-9a-f]{17})\Z"


def _role_hint(value: str) -> str:
    name = value.rsplit("/", 1)[-1] if value else "<role-name>"
    return (
        f"e.g. arn:aws:iam::123456789012:role/{name}; print it with "
        f"aws iam get-role --role-name {name} --query Role.Arn --output text"
    )


IAM_ROLE_ARN = named(
    Format(
        _ROLE_ARN,
        "must be the ARN of an IAM role: arn:<partition>:iam::<12-digit account id>:role/<name>",
        _role_hint,
        re.ASCII,
    ),
    "IAM_ROLE_ARN",
)
SUBNET_ID = named(
    Format(
        _SUBNET_ID,
        "must be an EC2 subnet id: subnet- and 8 or 17 hexadecimal digits",
        "e.g. subnet-0123456789abcdef0; list the cluster's with aws eks describe-cluster --name <cluster> "
        "--query cluster.resourcesVpcConfig.subnetIds",
    ),
    "SUBNET_ID",
)


class EksSettingsValues(
    CloudSettingsValues, shape="EksSettingsConfig", table=Path(__file__).with_name("settings_shape.json")
):
    """The keys a stack on EKS is wired with, validated."""

    if TYPE_CHECKING:
        eks_node_role_arn: str
        eks_subnet_ids: list[str]
