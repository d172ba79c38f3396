"""A Karpenter pool's image and disks (``gpuready.eks.ec2_node_class``): the AMI alias pinned by default, ``latest``
on purpose (and the drift it causes, in the plan's lifecycle line and a warning), ``diskSizeGb`` on the data volume,
RAID0 NVMe where the type has instance storage; every EC2NodeClass validated strictly, CEL rules included."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import moto
import pytest

from gpuready.core.capacity import node_disk
from gpuready.eks import ec2_node_class, karpenter
from gpuready.eks.catalog import EKS_INSTANCE_TYPES
from gpuready.eks.instance_store import NVME_INSTANCE_STORE_GB
from tests.core.conftest import build_spec
from tests.crd_schemas import crd_problems

NODE_CLASS_CRD = "karpenter-aws/karpenter.k8s.aws_ec2nodeclasses.v1.14.1.yaml"
WIRING = karpenter.KarpenterWiring(cluster_name="ml", node_role="gpu-nodes", subnet_ids=("subnet-a",))
MOTO_TYPES: dict[str, Any] = json.loads(
    gzip.decompress((Path(moto.__file__).parent / "ec2" / "resources" / "instance_types.json.gz").read_bytes())
)


@pytest.mark.parametrize(
    ("fields", "alias", "devices", "raid0", "latest"),
    [
        ({"instance_type": "g6.xlarge"}, "al2023@v20260714", {"/dev/xvda": "200Gi"}, True, False),
        ({"instance_type": "g6.xlarge", "disk_size_gb": 500}, "al2023@v20260714", {"/dev/xvda": "500Gi"}, True, False),
        ({"instance_type": "g6.xlarge", "image_version": "latest"}, "al2023@latest", {"/dev/xvda": "200Gi"}, True,
         True),
        ({"instance_type": "g6.xlarge", "image_version": "v20260625"}, "al2023@v20260625", {"/dev/xvda": "200Gi"},
         True, False),
        ({"instance_type": "g5g.xlarge"}, "al2023@v20260714", {"/dev/xvda": "200Gi"}, False, False),
        # Bottlerocket pinned by default to release v1.61.0 (bottlerocket-os/bottlerocket release v1.61.0).
        ({"instance_type": "g5g.xlarge", "image": "bottlerocket"}, "bottlerocket@v1.61.0",
         {"/dev/xvda": "4Gi", "/dev/xvdb": "200Gi"}, False, False),
        ({"instance_type": "g5g.xlarge", "image": "bottlerocket", "image_version": "latest"}, "bottlerocket@latest",
         {"/dev/xvda": "4Gi", "/dev/xvdb": "200Gi"}, False, True),
        ({"instance_type": "g5g.xlarge", "image": "bottlerocket", "image_version": "v1.46.0", "disk_size_gb": 300},
         "bottlerocket@v1.46.0", {"/dev/xvda": "4Gi", "/dev/xvdb": "300Gi"}, False, False),
        ({"instance_type": "p5.48xlarge", "image": "bottlerocket", "image_version": "1.46.0"},
         "bottlerocket@1.46.0", {"/dev/xvda": "4Gi", "/dev/xvdb": "200Gi"}, True, False),
    ],
)  # fmt: skip
def test_image_and_disks_of_the_node_class(
    fields: dict[str, Any], alias: str, devices: dict[str, str], raid0: bool, latest: bool
) -> None:
    spec = build_spec("eks", provisioner="karpenter", **fields)
    body = karpenter.node_class(spec, WIRING)["spec"]
    assert body["amiSelectorTerms"] == [{"alias": alias}]
    assert {m["deviceName"]: m["ebs"]["volumeSize"] for m in body["blockDeviceMappings"]} == devices
    assert all(m["ebs"]["encrypted"] and m["ebs"]["volumeType"] == "gp3" for m in body["blockDeviceMappings"])
    assert ("instanceStorePolicy" in body) is raid0
    assert crd_problems(NODE_CLASS_CRD, karpenter.node_class(spec, WIRING)) == []
    warning = ec2_node_class.latest_warning(spec)
    summary = karpenter.lifecycle_summary(spec)
    assert (warning is not None) is latest
    if latest:
        assert "drifts every node" in summary and warning is not None and "imageVersion: latest" in warning
    else:
        assert f"AMI pinned {alias}" in summary


@pytest.mark.parametrize(("family", "pin"), [("al2023", "v20260714"), ("bottlerocket", "v1.61.0")])
def test_every_image_family_is_pinned_by_default_to_a_release_of_its_own_format(family: str, pin: str) -> None:
    assert ec2_node_class.PINNED[family] == pin
    assert ec2_node_class.VERSIONS[family][0].match(pin)
    spec = build_spec("eks", provisioner="karpenter", instance_type="g5g.xlarge", image=family)
    assert not ec2_node_class.follows_latest(spec) and ec2_node_class.latest_warning(spec) is None


KARPENTER_DEFAULT_GIB = 20
"""aws/karpenter-provider-aws v1.14.1 ``pkg/providers/amifamily/resolver.go`` L40-44 ``DefaultEBS``."""


def test_the_default_disk_replaces_karpenters_20_gib() -> None:
    assert node_disk.DEFAULT_GB == 200
    assert node_disk.DEFAULT_GB >= 10 * KARPENTER_DEFAULT_GIB


@pytest.mark.parametrize(
    ("obj_change", "message"),
    [
        (lambda b: b["blockDeviceMappings"].append({**b["blockDeviceMappings"][0], "deviceName": "/dev/xvdc"}),
         "rootVolume"),
        (lambda b: b["amiSelectorTerms"].__setitem__(0, {"alias": "ubuntu@latest"}), "alias"),
        (lambda b: b.__setitem__("instanceStorePolicy", "RAID1"), "instanceStorePolicy"),
    ],
)  # fmt: skip
def test_the_crd_and_its_cel_rules_refuse_a_broken_node_class(obj_change: Any, message: str) -> None:
    """The CEL rules are evaluated (two root volumes, an alias family Karpenter does not know) with the schema."""
    node_class = karpenter.node_class(build_spec("eks", provisioner="karpenter"), WIRING)
    obj_change(node_class["spec"])
    problems = crd_problems(NODE_CLASS_CRD, node_class)
    assert problems and any(message in p for p in problems), problems


def test_the_instance_store_table_is_mocks_ec2_data() -> None:
    """Every catalog type with NVMe instance storage in moto's DescribeInstanceTypes data is in the table with its
    total size, and no other type is."""
    expected = {
        name: info["InstanceStorageInfo"]["TotalSizeInGB"]
        for name in EKS_INSTANCE_TYPES
        if (info := MOTO_TYPES.get(name, {})).get("InstanceStorageInfo", {}).get("NvmeSupport")
        in ("required", "supported")
    }
    assert dict(NVME_INSTANCE_STORE_GB) == expected
    assert NVME_INSTANCE_STORE_GB["p5.48xlarge"] == 30400 and "g5g.xlarge" not in NVME_INSTANCE_STORE_GB
