"""The node image and disks of a Karpenter pool's EC2NodeClass: a pinned AMI alias, the root volume, RAID0 NVMe. Pure.

Image (aws/karpenter-provider-aws v1.14.1): ``amiSelectorTerms[].alias`` is ``<family>@<version>``, where ``latest``
follows every release and a version pins one (``pkg/apis/crds/karpenter.k8s.aws_ec2nodeclasses.yaml`` L85-92); on a
GPU instance Karpenter resolves the family's NVIDIA variant (``pkg/providers/amifamily/al2023.go`` L39-80,
``bottlerocket.go`` L44-78). With ``latest`` every AMI release drifts every node, which Karpenter then replaces
(``website/content/en/docs/tasks/managing-amis.md`` L44: version pins "strongly recommend[ed]" in production). So
gpuready pins: al2023 to ``PINNED`` (awslabs/amazon-eks-ami ``CHANGELOG.md`` at tag ``v20260724``, "AMI Release
v20260714": AL2023 x86_64 and ARM_64 NVIDIA AMIs for Kubernetes 1.30 to 1.36) and Bottlerocket to its release
``v1.61.0`` (bottlerocket-os/bottlerocket release ``v1.61.0``, 2026-05-18: adds the Kubernetes 1.36 variants, among
them ``aws-k8s-1.36-nvidia``; Bottlerocket releases are ``v<major>.<minor>.<patch>`` tags). ``imageVersion: latest``
follows every release on purpose, a version pins another release.

Disks: an EC2NodeClass without ``blockDeviceMappings`` gets the family's defaults, a 20 GiB gp3 volume for the
kubelet and images (``pkg/providers/amifamily/resolver.go`` L40-44 ``DefaultEBS``; AL2023 ``/dev/xvda``,
``al2023.go`` L98-108; Bottlerocket a 4 GiB OS volume ``/dev/xvda`` and the data volume ``/dev/xvdb``,
``bottlerocket.go`` L182-200). gpuready writes the same devices with the data volume at ``diskSizeGb``
(``capacity.node_disk``), encrypted gp3 as the defaults are, and ``instanceStorePolicy: RAID0`` when an instance
type of the pool has NVMe instance storage (``instance_store``), which then holds the images instead.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from gpuready.core.capacity import gpu_choice, node_disk
from gpuready.eks.instance_store import NVME_INSTANCE_STORE_GB
from gpuready.errors import Problem

if TYPE_CHECKING:
    from gpuready.core.specs import GpuPoolSpec

LATEST = "latest"
PINNED: Mapping[str, str] = {"al2023": "v20260714", "bottlerocket": "v1.61.0"}
"""Image family -> the AMI release gpuready pins by default (cited in the module docstring)."""
VERSIONS: Mapping[str, tuple[re.Pattern[str], str]] = {
    "al2023": (re.compile(r"^v\d{8}\Z"), "an amazon-eks-ami release, e.g. v20260714"),
    # Bottlerocket versions are tagged with a v on GitHub, not in SSM; Karpenter takes both (bottlerocket.go L46).
    "bottlerocket": (re.compile(r"^v?1\.\d+\.\d+\Z"), "a Bottlerocket release, e.g. v1.61.0"),
}
"""Image family -> what a pinned ``imageVersion`` looks like, with an example."""
OS_VOLUME_GIB = 4
"""Bottlerocket's OS volume, as Karpenter's default (``bottlerocket.go`` L185)."""
DATA_DEVICES: Mapping[str, str] = {"al2023": "/dev/xvda", "bottlerocket": "/dev/xvdb"}
"""Image family -> the device that holds the kubelet's and containerd's data (``EphemeralBlockDevice``)."""
RAID0 = "RAID0"


def image_version(spec: GpuPoolSpec) -> str:
    """The alias version the pool's nodes run: ``imageVersion``, else the family's pin."""
    if spec.image_version is not None:
        return spec.image_version
    return PINNED[spec.image_family]


def alias(spec: GpuPoolSpec) -> str:
    """``amiSelectorTerms[].alias``: ``al2023@v20260714``."""
    return f"{spec.image_family}@{image_version(spec)}"


def follows_latest(spec: GpuPoolSpec) -> bool:
    return image_version(spec) == LATEST


def _volume(device: str, size_gib: int) -> dict[str, Any]:
    return {"deviceName": device, "ebs": {"volumeSize": f"{size_gib}Gi", "volumeType": "gp3", "encrypted": True}}


def block_device_mappings(spec: GpuPoolSpec) -> list[dict[str, Any]]:
    """The volumes of each node: Bottlerocket's OS volume, then the data volume of ``diskSizeGb``. Only AL2023's
    is marked ``rootVolume``: Karpenter counts a root volume as the node's ephemeral storage, else the family's data
    device (``pkg/providers/instancetype/types.go`` L376-395), which on Bottlerocket is ``/dev/xvdb``."""
    family = spec.image_family
    data = _volume(DATA_DEVICES[family], node_disk.size_gb(spec))
    if family == "bottlerocket":
        return [_volume("/dev/xvda", OS_VOLUME_GIB), data]
    return [{**data, "rootVolume": True}]


def instance_store_gb(spec: GpuPoolSpec) -> int:
    """The most NVMe instance storage among the pool's instance types (0: none has any)."""
    return max((NVME_INSTANCE_STORE_GB.get(t, 0) for t in _types(spec)), default=0)


def _types(spec: GpuPoolSpec) -> tuple[str, ...]:
    return tuple(gpu_choice.instance_types(spec))


def storage_fields(spec: GpuPoolSpec) -> dict[str, Any]:
    """``blockDeviceMappings`` and, where a type of the pool has NVMe instance storage, ``instanceStorePolicy``."""
    fields: dict[str, Any] = {"blockDeviceMappings": block_device_mappings(spec)}
    if instance_store_gb(spec):
        fields["instanceStorePolicy"] = RAID0
    return fields


def summary(spec: GpuPoolSpec) -> str:
    """The image and disks in a few words, for the plan's lifecycle line."""
    if follows_latest(spec):
        image = (f"AMI follows {alias(spec)}: every AMI release drifts every node, which Karpenter replaces "
                 "(pin it with imageVersion)")  # fmt: skip
    else:
        image = f"AMI pinned {alias(spec)} (imageVersion: latest follows every release, each replacing every node)"
    disk = f"{node_disk.size_gb(spec)} GiB {DATA_DEVICES[spec.image_family]}"
    store = instance_store_gb(spec)
    return f"{image}; disk {disk}" + (f", NVMe instance store RAID0 ({store} GB) for images" if store else "")


def latest_warning(spec: GpuPoolSpec) -> str | None:
    """What the plan warns when the pool's nodes follow ``latest`` (``imageVersion: latest``, on purpose)."""
    if not follows_latest(spec):
        return None
    return (
        f"Karpenter pool {spec.name} follows {alias(spec)} (imageVersion: latest): every AMI release drifts every "
        "node of the pool, and Karpenter replaces them, running GPU jobs included once terminationGracePeriod runs "
        f"out; pin a release with imageVersion ({VERSIONS[spec.image_family][1]})"
    )


def image_version_problems(spec: GpuPoolSpec) -> list[Problem]:
    """``imageVersion`` that is neither ``latest`` nor a release of the pool's image family."""
    version = spec.image_version
    if version is None or version == LATEST:
        return []
    pattern, example = VERSIONS[spec.image_family]
    if isinstance(version, str) and pattern.match(version):
        return []
    return [Problem("imageVersion", f"is not {example.split(', e.g.')[0]} ({spec.image_family})", version,
                    (LATEST,), f"e.g. imageVersion: {example.rsplit(' ', 1)[-1]}, or latest to follow every "
                    "release (each then replaces every node)")]  # fmt: skip
