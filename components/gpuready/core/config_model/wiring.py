"""Formats of the stack's wiring settings (IAM role ARN, subnet ids, Azure names and ids, GCE locations, service
account): checked when the stack config is read, before anything registers. Pure.

Each check states what is allowed and how to find the right value; the formats are the documented ones:

* IAM role ARN: ``arn:<partition>:iam::<account-id>:role/<path><role-name>`` (AWS IAM User Guide, "IAM
  identifiers", IAM ARNs; AWS General Reference, "Amazon Resource Names (ARNs)"). Partitions: botocore 1.44.5
  ``data/partitions.json``; account id ``\\d{12}`` (``accountIdType``), role name ``[\\w+=,.@-]+`` of 1 to 64
  (``roleNameType``) and path ``/`` or ``/.../`` of printable ASCII (``pathType``): botocore 1.44.5
  ``data/iam/2010-05-08/service-2.json``.
* Subnet id ``subnet-`` and hex: "Resource IDs" in the Amazon EC2 User Guide (8 or 17 hexadecimal characters);
  Karpenter's EC2NodeClass CRD takes ``subnet-[0-9a-z]+`` (aws/karpenter-provider-aws v1.14.1
  ``karpenter.k8s.aws_ec2nodeclasses.yaml``, ``subnetSelectorTerms[].id``).
* Azure resource group name: 1 to 90 of letters, digits, ``_-.()``, not ending in a period (Azure/azure-rest-api-specs
  ``specification/common-types/resource-management/v5/types.json`` ``ResourceGroupNameParameter``; "Naming rules
  and restrictions for Azure resources", Microsoft.Resources/resourcegroups). Subnet resource id:
  ``/subscriptions/{subscriptionId}/resourceGroups/{resourceGroupName}/providers/Microsoft.Network/
  virtualNetworks/{virtualNetworkName}/subnets/{subnetName}`` (azure-native 3.29.0
  ``containerservice/_inputs.py``, ``vnet_subnet_id``); the subscription id is a GUID (``SubscriptionIdParameter``,
  ``format: uuid``, same types.json).
* GCE location: a region ``us-central1`` or a zone ``us-central1-a`` (Compute Engine "Regions and zones").
* GCP service account email: ``<account>@<project-id>.iam.gserviceaccount.com`` (account 6 to 30 of lowercase
  letters, digits and hyphens, starting with a letter: IAM "Create service accounts"; project id 6 to 30 of
  the same, not ending in a hyphen: Resource Manager "Creating and managing projects"), or the Compute Engine
  default ``<project-number>-compute@developer.gserviceaccount.com``, or ``default``.
"""

from __future__ import annotations

import re
from typing import Annotated

from pydantic import AfterValidator

from gpuready.core.config_model.problems import config_error

AWS_PARTITIONS = ("aws", "aws-cn", "aws-eusc", "aws-iso", "aws-iso-b", "aws-iso-e", "aws-iso-f", "aws-us-gov")
"""botocore 1.44.5 ``data/partitions.json`` partition ids."""

_ROLE_ARN = re.compile(
    rf"^arn:(?:{'|'.join(map(re.escape, AWS_PARTITIONS))}):iam::\d{{12}}:role/(?:[\x21-\x7e]+/)?[\w+=,.@-]{{1,64}}\Z",
    re.ASCII,
)
_SUBNET_ID = re.compile(r"^subnet-(?:[0-9a-f]{8}|[0-9a-f]{17})\Z")
_RESOURCE_GROUP = re.compile(r"^[-\w.()]{1,90}\Z")
_GUID = r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"
_AZURE_SUBNET_ID = re.compile(
    rf"^/subscriptions/{_GUID}/resourceGroups/[-\w.()]{{1,90}}/providers/Microsoft\.Network/"
    r"virtualNetworks/[^/]+/subnets/[^/]+\Z",
    re.IGNORECASE,
)
_GCE_LOCATION = re.compile(r"^[a-z]+-[a-z]+[0-9]+(?:-[a-z])?\Z")
_GCP_SERVICE_ACCOUNT = re.compile(
    r"^(?:[a-z][-a-z0-9]{4,28}[a-z0-9]@[a-z][-a-z0-9]{4,28}[a-z0-9]\.iam\.gserviceaccount\.com"
    r"|[0-9]+-compute@developer\.gserviceaccount\.com|default)\Z"
)


def _role_arn(value: str) -> str:
    if _ROLE_ARN.match(value):
        return value
    name = value.rsplit("/", 1)[-1] if value else "<role-name>"
    raise config_error(
        "must be the ARN of an IAM role: arn:<partition>:iam::<12-digit account id>:role/<name>",
        f"e.g. arn:aws:iam::123456789012:role/{name}; print it with "
        f"aws iam get-role --role-name {name} --query Role.Arn --output text",
    )


def _subnet_id(value: str) -> str:
    if _SUBNET_ID.match(value):
        return value
    raise config_error(
        "must be an EC2 subnet id: subnet- and 8 or 17 hexadecimal digits",
        "e.g. subnet-0123456789abcdef0; list the cluster's with aws eks describe-cluster --name <cluster> "
        "--query cluster.resourcesVpcConfig.subnetIds",
    )


def _resource_group(value: str) -> str:
    if _RESOURCE_GROUP.match(value) and not value.endswith("."):
        return value
    raise config_error(
        "must be an Azure resource group name: 1 to 90 letters, digits, _ - . ( ), not ending in a period",
        'the name, not its resource id; az aks list --query "[].{name:name, resourceGroup:resourceGroup}"',
    )


def _azure_subnet_id(value: str) -> str:
    if _AZURE_SUBNET_ID.match(value):
        return value
    raise config_error(
        "must be a subnet resource id: /subscriptions/<subscription GUID>/resourceGroups/<group>/providers/"
        "Microsoft.Network/virtualNetworks/<vnet>/subnets/<subnet>",
        "print it with az network vnet subnet show -g <group> --vnet-name <vnet> -n <subnet> --query id -o tsv",
    )


def _gce_location(value: str) -> str:
    if _GCE_LOCATION.match(value):
        return value
    raise config_error(
        "must be a GCE region (us-central1) or zone (us-central1-a)",
        "the cluster's location: gcloud container clusters list --format='value(name,location)'",
    )


def _gcp_service_account(value: str) -> str:
    if _GCP_SERVICE_ACCOUNT.match(value):
        return value
    raise config_error(
        "must be a service account email: <account>@<project-id>.iam.gserviceaccount.com, "
        "<project-number>-compute@developer.gserviceaccount.com, or default",
        "gcloud iam service-accounts list --format='value(email)'",
    )


IamRoleArn = Annotated[str, AfterValidator(_role_arn)]
ResourceGroupName = Annotated[str, AfterValidator(_resource_group)]
AzureSubnetId = Annotated[str, AfterValidator(_azure_subnet_id)]
GceLocation = Annotated[str, AfterValidator(_gce_location)]
GcpServiceAccount = Annotated[str, AfterValidator(_gcp_service_account)]
SubnetId = Annotated[str, AfterValidator(_subnet_id)]
