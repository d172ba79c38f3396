"""CEL selectors on the attributes and capacities NVIDIA's DRA driver publishes for each device. Pure.

Facts (NVIDIA/k8s-dra-driver-gpu, ``cmd/gpu-kubelet-plugin/deviceinfo.go`` at the v0.4.0-era source, commit
``03af8246``: ``GpuInfo.GetDevice`` and ``MigDeviceInfo.GetDevice``): every GPU and MIG device carries the string
attributes ``type`` (``gpu`` / ``mig``), ``uuid``, ``productName``, ``brand``, ``architecture``, ``pcieBusID`` and
``addressingMode``, the version attributes ``cudaComputeCapability``, ``driverVersion`` and ``cudaDriverVersion``,
and the capacity ``memory`` (bytes); a MIG device adds the attributes ``profile`` (``1g.10gb``) and ``parentUUID``
and the capacities ``multiprocessors``, ``copyEngines``, ``decoders``, ``encoders``, ``jpegEngines`` and
``ofaEngines``. Unqualified names live in the driver's domain, so CEL reads them as
``device.attributes["gpu.nvidia.com"].productName`` and ``device.capacity["gpu.nvidia.com"].memory``; version
attributes compare with ``semver(...)`` and capacities with ``quantity(...)`` through ``compareTo``
(kubernetes.io "Dynamic Resource Allocation"; the Kubernetes CEL libraries ``semver`` and ``quantity``, each with
``compareTo``: https://kubernetes.io/docs/reference/using-api/cel/#kubernetes-semver-library and
``k8s.io/apiserver/pkg/cel/library/semverlib.go``, ``quantity.go``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from components.core.quantities import parse_quantity
from components.errors import Problem

DRIVER_DOMAIN = "gpu.nvidia.com"
"""The domain of the driver's attributes and capacities (its driver name)."""

AttributeKind = Literal["string", "version", "capacity"]

GPU_ATTRIBUTES: Mapping[str, AttributeKind] = {
    "type": "string",
    "uuid": "string",
    "productName": "string",
    "brand": "string",
    "architecture": "string",
    "pcieBusID": "string",
    "addressingMode": "string",
    "cudaComputeCapability": "version",
    "driverVersion": "version",
    "cudaDriverVersion": "version",
    "memory": "capacity",
}
"""What every device of the driver publishes (whole GPUs and MIG devices alike)."""
MIG_ONLY_ATTRIBUTES: Mapping[str, AttributeKind] = {
    "profile": "string",
    "parentUUID": "string",
    "multiprocessors": "capacity",
    "copyEngines": "capacity",
    "decoders": "capacity",
    "encoders": "capacity",
    "jpegEngines": "capacity",
    "ofaEngines": "capacity",
}
"""What only MIG devices publish."""
MIG_PROFILE_ATTRIBUTE = "profile"

OPERATORS: Mapping[AttributeKind, tuple[str, ...]] = {
    "string": ("==", "!="),
    "version": ("==", "!=", ">=", "<=", ">", "<"),
    "capacity": ("==", "!=", ">=", "<=", ">", "<"),
}
_VERSION = re.compile(r"^\d+\.\d+\.\d+\Z")
_STRING = re.compile(r'^[^"\\\n]+\Z')


@dataclass(frozen=True, slots=True)
class DeviceSelector:
    """One condition on a device: ``attribute operator value``, e.g. ``DeviceSelector("memory", ">=", "40Gi")``."""

    attribute: str
    """An attribute or capacity of the driver's devices (``GPU_ATTRIBUTES``, ``MIG_ONLY_ATTRIBUTES``)."""
    operator: str
    """``==`` or ``!=``; versions and capacities also ``>=``, ``<=``, ``>``, ``<``."""
    value: str
    """A string, a version (``8.0.0``) or a quantity (``40Gi``), as the attribute's kind asks."""

    def cel(self) -> str:
        """The CEL expression of this condition (valid only after ``selector_problems`` found none)."""
        kind = attribute_kind(self.attribute, mig=True)
        if kind == "string":
            return f'device.attributes["{DRIVER_DOMAIN}"].{self.attribute} {self.operator} "{self.value}"'
        if kind == "version":
            attribute = f'device.attributes["{DRIVER_DOMAIN}"].{self.attribute}'
            return f'{attribute}.compareTo(semver("{self.value}")) {self.operator} 0'
        return (
            f'device.capacity["{DRIVER_DOMAIN}"].{self.attribute}.compareTo(quantity("{self.value}")) {self.operator} 0'
        )


def attribute_kind(attribute: str, *, mig: bool) -> AttributeKind | None:
    """The kind of ``attribute`` on a device (a MIG device when ``mig``), None when such devices lack it."""
    if attribute in GPU_ATTRIBUTES:
        return GPU_ATTRIBUTES[attribute]
    return MIG_ONLY_ATTRIBUTES.get(attribute) if mig else None


def mig_profile_selector(profile: str) -> DeviceSelector:
    """The condition that picks MIG devices of ``profile``."""
    return DeviceSelector(MIG_PROFILE_ATTRIBUTE, "==", profile)


def selector_problems(selectors: Sequence[object], *, mig: bool) -> list[Problem]:
    """Every problem with ``selectors`` on devices of the pool's DeviceClass (MIG devices when ``mig``)."""
    problems: list[Problem] = []
    known = sorted({*GPU_ATTRIBUTES, *(MIG_ONLY_ATTRIBUTES if mig else {})})
    for index, selector in enumerate(selectors):
        path = f"selectors[{index}]"
        if not isinstance(selector, DeviceSelector):
            problems.append(
                Problem(path, "is not a DeviceSelector", selector, (), 'e.g. DeviceSelector("memory", ">=", "40Gi")')
            )
            continue
        kind = attribute_kind(selector.attribute, mig=mig)
        if kind is None:
            mig_only = selector.attribute in MIG_ONLY_ATTRIBUTES
            problem = "whole GPUs have no such attribute (MIG only)" if mig_only else "no such device attribute"
            hint = "partition the pool with MIG and claim mig.nvidia.com devices" if mig_only else ""
            problems.append(Problem(f"{path}.attribute", f"{problem} in the {DRIVER_DOMAIN} driver's ResourceSlices",
                                    selector.attribute, known, hint))  # fmt: skip
            continue
        if selector.attribute == MIG_PROFILE_ATTRIBUTE:
            problems.append(
                Problem(
                    f"{path}.attribute",
                    "choose a MIG profile with mig_profile",
                    selector.attribute,
                    (),
                    "pass mig_profile='1g.10gb'",
                )
            )
            continue
        if selector.operator not in OPERATORS[kind]:
            problems.append(
                Problem(f"{path}.operator", f"does not apply to a {kind} attribute", selector.operator, OPERATORS[kind])
            )
        value_problem = _value_problem(kind, selector.value)
        if value_problem is not None:
            problems.append(Problem(f"{path}.value", value_problem[0], selector.value, (), value_problem[1]))
    return problems


def _value_problem(kind: AttributeKind, value: object) -> tuple[str, str] | None:
    if not isinstance(value, str) or not _STRING.match(value):
        return "must be a non-empty string without quotes or backslashes", 'e.g. "NVIDIA A100-SXM4-80GB"'
    if kind == "version" and not _VERSION.match(value):
        return "is not a version as the driver publishes it (major.minor.patch)", "e.g. 8.0.0"
    if kind == "capacity" and parse_quantity(value) is None:
        return "is not a Kubernetes quantity", "e.g. 40Gi"
    return None
