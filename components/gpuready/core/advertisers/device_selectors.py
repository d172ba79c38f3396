"""CEL selectors on the attributes and capacities NVIDIA's DRA driver publishes for each device. Pure.

A selector may name only what the pinned driver publishes on EVERY device its DeviceClass covers: the one table
``driver_attributes.PUBLISHED`` (cited line by line at NVIDIA/k8s-dra-driver-gpu v0.4.0). Anything else is refused
before anything registers, with the allowed names and a hint (``driver_attributes.CONDITIONAL`` says why for the
names the driver publishes on some devices only, or no longer): a CEL error on a device aborts the allocation.
Unqualified names live in the driver's domain, so CEL reads them as ``device.attributes["gpu.nvidia.com"].productName``
and ``device.capacity["gpu.nvidia.com"].memory``, a standard one as ``device.attributes["resource.kubernetes.io"]
.pciBusID``; version attributes compare with ``semver(...)`` and capacities with ``quantity(...)`` through
``compareTo`` (kubernetes.io "Dynamic Resource Allocation"; the Kubernetes CEL libraries ``semver`` and
``quantity``, each with ``compareTo``: https://kubernetes.io/docs/reference/using-api/cel/#kubernetes-semver-library
and ``k8s.io/apiserver/pkg/cel/library/semverlib.go``, ``quantity.go``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from gpuready.core.advertisers.driver_attributes import (
    CONDITIONAL,
    DRIVER_DOMAIN,
    DRIVER_TAG,
    AttributeKind,
    DeviceKind,
    allowed_names,
    published,
)
from gpuready.core.quantities import parse_quantity
from gpuready.errors import Problem
from gpuready.record import record

__all__ = ["DRIVER_DOMAIN", "OPERATORS", "DeviceSelector", "attribute_kind", "mig_profile_selector",
           "selector_problems"]  # fmt: skip

MIG_PROFILE_ATTRIBUTE = "profile"

OPERATORS: Mapping[AttributeKind, tuple[str, ...]] = {
    "string": ("==", "!="),
    "version": ("==", "!=", ">=", "<=", ">", "<"),
    "capacity": ("==", "!=", ">=", "<=", ">", "<"),
}
_VERSION = re.compile(r"^\d+\.\d+\.\d+\Z")
_STRING = re.compile(r'^[^"\\\n]+\Z')


@record(frozen=True, slots=True)
class DeviceSelector:
    """One condition on a device: ``attribute operator value``, e.g. ``DeviceSelector("memory", ">=", "40Gi")``."""

    attribute: str
    """An attribute or capacity the driver publishes on every device (``driver_attributes.PUBLISHED``)."""
    operator: str
    """``==`` or ``!=``; versions and capacities also ``>=``, ``<=``, ``>``, ``<``."""
    value: str
    """A string, a version (``8.0.0``) or a quantity (``40Gi``), as the attribute's kind asks."""

    def cel(self) -> str:
        """The CEL expression of this condition (valid only after ``selector_problems`` found none)."""
        row = published(self.attribute, "mig") or published(self.attribute, "gpu")
        if row is None:
            raise ValueError(f"no CEL for an attribute the driver does not publish everywhere: {self.attribute!r}")
        if row.kind == "string":
            return f'device.attributes["{row.domain}"].{row.short} {self.operator} "{self.value}"'
        if row.kind == "version":
            attribute = f'device.attributes["{row.domain}"].{row.short}'
            return f'{attribute}.compareTo(semver("{self.value}")) {self.operator} 0'
        return f'device.capacity["{row.domain}"].{row.short}.compareTo(quantity("{self.value}")) {self.operator} 0'


def attribute_kind(attribute: str, *, mig: bool) -> AttributeKind | None:
    """The kind of ``attribute`` on a device (a MIG device when ``mig``), None when not every such device has it."""
    row = published(attribute, _device(mig))
    return row.kind if row is not None else None


def _device(mig: bool) -> DeviceKind:
    return "mig" if mig else "gpu"


def mig_profile_selector(profile: str) -> DeviceSelector:
    """The condition that picks MIG devices of ``profile``."""
    return DeviceSelector(MIG_PROFILE_ATTRIBUTE, "==", profile)


def selector_problems(selectors: Sequence[object], *, mig: bool) -> list[Problem]:
    """Every problem with ``selectors`` on devices of the pool's DeviceClass (MIG devices when ``mig``)."""
    problems: list[Problem] = []
    known = allowed_names(_device(mig))
    for index, selector in enumerate(selectors):
        path = f"selectors[{index}]"
        if not isinstance(selector, DeviceSelector):
            problems.append(
                Problem(path, "is not a DeviceSelector", selector, (), 'e.g. DeviceSelector("memory", ">=", "40Gi")')
            )
            continue
        kind = attribute_kind(selector.attribute, mig=mig)
        if kind is None:
            problems.append(_unknown_attribute(f"{path}.attribute", selector.attribute, known))
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


def _unknown_attribute(path: str, attribute: object, known: list[str]) -> Problem:
    """Why ``attribute`` may not be selected on, with the names that may and a hint."""
    where = f"{DRIVER_TAG} ResourceSlices"
    if isinstance(attribute, str) and attribute in CONDITIONAL:
        why, hint = CONDITIONAL[attribute]
        return Problem(path, why, attribute, known, hint)
    if isinstance(attribute, str) and published(attribute, "mig") is not None:
        return Problem(path, f"whole GPUs have no such attribute (MIG only) in the {where}", attribute, known,
                       "partition the pool with MIG and claim mig.nvidia.com devices")  # fmt: skip
    hint = "select on one of the allowed attributes (a selector on a missing one aborts allocation)"
    return Problem(path, f"no such device attribute on every device in the {where}", attribute, known, hint)


def _value_problem(kind: AttributeKind, value: object) -> tuple[str, str] | None:
    if not isinstance(value, str) or not _STRING.match(value):
        return "must be a non-empty string without quotes or backslashes", 'e.g. "NVIDIA A100-SXM4-80GB"'
    if kind == "version" and not _VERSION.match(value):
        return "is not a version as the driver publishes it (major.minor.patch)", "e.g. 8.0.0"
    if kind == "capacity" and parse_quantity(value) is None:
        return "is not a Kubernetes quantity", "e.g. 40Gi"
    return None
