"""Instance-store NVMe of the EKS catalog's GPU instance types: what ``instanceStorePolicy: RAID0`` makes of it. Pure.

Source: EC2 DescribeInstanceTypes ``InstanceStorageInfo`` (``TotalSizeInGB``, ``NvmeSupport``) as bundled by moto 5.2.5
(``moto/ec2/resources/instance_types.json.gz``), the data ``gpuready.eks.catalog`` comes from; generated from it for
every catalog type whose instance storage is NVMe, and checked against it by ``tests/eks/test_instance_store.py``.
A type not listed has no instance storage (g5g.16xlarge, g5g.2xlarge, g5g.4xlarge, g5g.8xlarge, g5g.metal, g5g.xlarge).

With ``instanceStorePolicy: RAID0`` on the EC2NodeClass, the node's bootstrap (nodeadm on AL2023, Bottlerocket's
settings) puts the instance-store disks in one RAID0 array and uses it for the kubelet's and containerd's storage,
and Karpenter counts the array as the node's ephemeral storage (aws/karpenter-provider-aws v1.14.1
``pkg/providers/instancetype/types.go`` L368-375, ``pkg/providers/amifamily/bootstrap/nodeadm.go`` L87-89); a type
without instance storage keeps its root volume for that (the same function, L376 on).
"""

from __future__ import annotations

from collections.abc import Mapping

SOURCE = "EC2 DescribeInstanceTypes InstanceStorageInfo via moto 5.2.5 instance_types.json.gz"

NVME_INSTANCE_STORE_GB: Mapping[str, int] = {
    "g4dn.12xlarge": 900,
    "g4dn.16xlarge": 900,
    "g4dn.2xlarge": 225,
    "g4dn.4xlarge": 225,
    "g4dn.8xlarge": 900,
    "g4dn.metal": 1800,
    "g4dn.xlarge": 125,
    "g5.12xlarge": 3800,
    "g5.16xlarge": 1900,
    "g5.24xlarge": 3800,
    "g5.2xlarge": 450,
    "g5.48xlarge": 7600,
    "g5.4xlarge": 600,
    "g5.8xlarge": 900,
    "g5.xlarge": 250,
    "g6.12xlarge": 3760,
    "g6.16xlarge": 1880,
    "g6.24xlarge": 3760,
    "g6.2xlarge": 450,
    "g6.48xlarge": 7520,
    "g6.4xlarge": 600,
    "g6.8xlarge": 900,
    "g6.xlarge": 250,
    "g6e.12xlarge": 3800,
    "g6e.16xlarge": 1900,
    "g6e.24xlarge": 3800,
    "g6e.2xlarge": 450,
    "g6e.48xlarge": 7600,
    "g6e.4xlarge": 600,
    "g6e.8xlarge": 900,
    "g6e.xlarge": 250,
    "g6f.2xlarge": 200,
    "g6f.4xlarge": 450,
    "g6f.large": 100,
    "g6f.xlarge": 100,
    "g7.12xlarge": 1900,
    "g7.24xlarge": 3800,
    "g7.2xlarge": 440,
    "g7.48xlarge": 7600,
    "g7.4xlarge": 875,
    "g7.8xlarge": 930,
    "g7e.12xlarge": 3800,
    "g7e.24xlarge": 7600,
    "g7e.2xlarge": 1900,
    "g7e.48xlarge": 15200,
    "g7e.4xlarge": 1900,
    "g7e.8xlarge": 1900,
    "gr6.4xlarge": 600,
    "gr6.8xlarge": 900,
    "gr6f.4xlarge": 450,
    "p3dn.24xlarge": 1800,
    "p4d.24xlarge": 8000,
    "p4de.24xlarge": 8000,
    "p5.48xlarge": 30400,
    "p5.4xlarge": 3800,
    "p5e.48xlarge": 30400,
    "p5en.48xlarge": 30400,
    "p6-b200.48xlarge": 30400,
    "p6-b300.48xlarge": 30400,
}
"""Instance type -> total NVMe instance storage in GB (``InstanceStorageInfo.TotalSizeInGB``)."""
