"""What NVIDIA's DRA driver for GPUs publishes on EVERY device of a kind: the one table a CEL selector may name. Pure.

Pinned driver: NVIDIA/k8s-dra-driver-gpu tag ``v0.4.0`` (commit ``6910a2be``), the chart gpuready installs
(``../shared/reference/upstream/charts/dra-driver-nvidia-gpu-v0.4.0.source.tgz``). A CEL selector that reads an
attribute a device lacks is an evaluation error, and an error aborts the allocation of the whole claim (Kubernetes
``resource.k8s.io/v1`` ``CELDeviceSelector``: "a CEL runtime error ... aborts allocation"), not "no match": so a
selector may name only what the driver publishes on every device the claim's DeviceClass covers. Each row cites the
line that publishes it; ``CONDITIONAL`` lists what the driver publishes on some devices only, or no longer.

Unqualified names are in the driver's domain (``gpu.nvidia.com``); ``resource.kubernetes.io/...`` are Kubernetes'
standard attributes (``k8s.io/dynamic-resource-allocation/deviceattribute``, v0.36.0-rc.0 in the tag's ``go.mod``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

from gpuready.record import record

DRIVER_DOMAIN = "gpu.nvidia.com"
"""The domain of the driver's own attributes and capacities (its driver name)."""
STANDARD_DOMAIN = "resource.kubernetes.io"
"""Kubernetes' standard device attributes (``deviceattribute.StandardDeviceAttributePrefix``)."""
DRIVER_TAG = "NVIDIA/k8s-dra-driver-gpu v0.4.0"

AttributeKind = Literal["string", "version", "capacity"]
DeviceKind = Literal["gpu", "mig"]
"""A whole GPU (DeviceClass ``gpu.nvidia.com``) or a MIG device (``mig.nvidia.com``; static MIG: the MIG manager
partitions the GPUs; the driver's ``DynamicMIG`` gate is alpha and off by default, ``pkg/featuregates/featuregates.go``
L116-121)."""
BOTH: frozenset[DeviceKind] = frozenset({"gpu", "mig"})
MIG: frozenset[DeviceKind] = frozenset({"mig"})

_GPU_ATTRS = "cmd/gpu-kubelet-plugin/deviceinfo.go L152-178 (GpuInfo.Attributes)"
_MIG_ATTRS = "cmd/gpu-kubelet-plugin/mig.go L139-168 (CommonAttributesMig)"
_MIG_CAPS = "cmd/gpu-kubelet-plugin/mig.go L118-135 (CommonCapacitiesMig)"


@record(frozen=True, slots=True)
class PublishedAttribute:
    """One attribute or capacity the driver publishes on every device of ``devices``."""

    name: str
    """As a selector names it: ``productName`` (the driver's domain) or ``resource.kubernetes.io/pciBusID``."""
    kind: AttributeKind
    devices: frozenset[DeviceKind]
    source: str
    """Where the pinned driver publishes it (file and lines at the tag)."""

    @property
    def domain(self) -> str:
        return self.name.rsplit("/", 1)[0] if "/" in self.name else DRIVER_DOMAIN

    @property
    def short(self) -> str:
        """The name inside its domain (what CEL reads after ``device.attributes[domain].``)."""
        return self.name.rsplit("/", 1)[-1]


PUBLISHED: Mapping[str, PublishedAttribute] = {
    row.name: row
    for row in (
        PublishedAttribute("type", "string", BOTH, f"{_GPU_ATTRS} L154-156; {_MIG_ATTRS} L141-143 ('gpu' / 'mig')"),
        PublishedAttribute("uuid", "string", BOTH, f"{_GPU_ATTRS} L157-159; deviceinfo.go L212-214 (MIG)"),
        PublishedAttribute("productName", "string", BOTH, f"{_GPU_ATTRS} L160-162; {_MIG_ATTRS} L150-152"),
        PublishedAttribute("brand", "string", BOTH, f"{_GPU_ATTRS} L163-165; {_MIG_ATTRS} L153-155"),
        PublishedAttribute("architecture", "string", BOTH, f"{_GPU_ATTRS} L166-168; {_MIG_ATTRS} L156-158"),
        PublishedAttribute("cudaComputeCapability", "version", BOTH, f"{_GPU_ATTRS} L169-171; {_MIG_ATTRS} L159-161"),
        PublishedAttribute("driverVersion", "version", BOTH, f"{_GPU_ATTRS} L172-174; {_MIG_ATTRS} L162-164"),
        PublishedAttribute("cudaDriverVersion", "version", BOTH, f"{_GPU_ATTRS} L175-177; {_MIG_ATTRS} L165-167"),
        PublishedAttribute(
            f"{STANDARD_DOMAIN}/pciBusID", "string", BOTH,
            "deviceinfo.go L180-181, mig.go L176-178; always set: nvlib.go L532-537 (an error stops the plugin "
            "otherwise); renamed from pcieBusID in commit dcdeb68b",
        ),
        PublishedAttribute(
            "memory", "capacity", BOTH,
            "whole GPU: partitions.go L34-43 (fullGpuCapacity), set when NVML reports the memory (nvlib.go L477-488: "
            "NOT_SUPPORTED only without dedicated memory; every GPU of gpuready's catalog has its own HBM/GDDR); "
            f"MIG: {_MIG_CAPS} L133",
        ),
        PublishedAttribute("parentUUID", "string", MIG, f"{_MIG_ATTRS} L144-146"),
        PublishedAttribute("profile", "string", MIG, f"{_MIG_ATTRS} L147-149"),
        PublishedAttribute("multiprocessors", "capacity", MIG, f"{_MIG_CAPS} L120"),
        PublishedAttribute("copyEngines", "capacity", MIG, f"{_MIG_CAPS} L121"),
        PublishedAttribute("decoders", "capacity", MIG, f"{_MIG_CAPS} L122"),
        PublishedAttribute("encoders", "capacity", MIG, f"{_MIG_CAPS} L123"),
        PublishedAttribute("jpegEngines", "capacity", MIG, f"{_MIG_CAPS} L124"),
        PublishedAttribute("ofaEngines", "capacity", MIG, f"{_MIG_CAPS} L125"),
    )
}  # fmt: skip
"""Name -> what the pinned driver publishes on every device of the row's kinds."""

CONDITIONAL: Mapping[str, tuple[str, str]] = {
    "pcieBusID": (
        "is no longer published: the driver renamed it to the standard resource.kubernetes.io/pciBusID "
        "(k8s-dra-driver-gpu commit dcdeb68b, in v0.4.0), and a selector on a missing attribute aborts allocation",
        f"select on {STANDARD_DOMAIN}/pciBusID",
    ),
    "addressingMode": (
        "is published only on GPUs of coherent-memory platforms (deviceinfo.go L191-195, mig.go L170-174; "
        "nvlib.go L519-530: absent where NVML reports no mode), so the selector aborts allocation elsewhere",
        "select on productName or architecture instead, or label the pool's nodes and select the pool",
    ),
    f"{STANDARD_DOMAIN}/pcieRoot": (
        "is published only where the PCIe root can be read (deviceinfo.go L183-185; nvlib.go L539-544 continues "
        "without it), so the selector aborts allocation elsewhere",
        f"select on {STANDARD_DOMAIN}/pciBusID, or use a matchAttribute constraint",
    ),
}
"""Names the driver publishes on some devices only (or no longer): refused, with why and what to use instead."""


def published(name: str, device: DeviceKind) -> PublishedAttribute | None:
    """The row of ``name`` when the driver publishes it on every ``device``, else None."""
    row = PUBLISHED.get(name)
    return row if row is not None and device in row.devices else None


def allowed_names(device: DeviceKind) -> list[str]:
    """What a selector on ``device`` may name, sorted."""
    return sorted(name for name, row in PUBLISHED.items() if device in row.devices)
