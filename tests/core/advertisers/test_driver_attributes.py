"""The DRA driver's attribute table, and the selectors it admits: each one's CEL evaluated (cel-python) against a
device built from the table (what the pinned driver publishes on every device), each refused one shown to be an
evaluation error on such a device (which aborts the claim's allocation)."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import celpy
import pytest
from celpy import celtypes
from celpy.evaluation import CELEvalError

from gpuready.core.advertisers.device_selectors import OPERATORS, DeviceSelector, selector_problems
from gpuready.core.advertisers.driver_attributes import (
    CONDITIONAL,
    PUBLISHED,
    DeviceKind,
    allowed_names,
    published,
)
from gpuready.core.quantities import parse_quantity

DRIVER_SOURCE = Path(__file__).resolve().parents[3] / "../shared/reference/upstream/dra-driver-gpu/source-v0.4.0"
"""Where the pinned driver's ``cmd/gpu-kubelet-plugin/`` would be, if the shared reference held it (it holds the
chart only): the citation check below needs it."""

SAMPLE: Mapping[str, str] = {"string": "x", "version": "1.2.3", "capacity": "1Gi"}
"""A valid selector value of each attribute kind."""


@dataclass(frozen=True, order=True)
class _Version:
    parts: tuple[int, ...]


def _semver(text: Any) -> _Version:
    return _Version(tuple(int(p) for p in str(text).split(".")))


def _quantity(text: Any) -> Fraction:
    value = parse_quantity(str(text))
    assert value is not None, text
    return value


def _compare_to(left: Any, right: Any) -> celtypes.IntType:
    return celtypes.IntType((left > right) - (left < right))


ENV = celpy.Environment()
FUNCTIONS: dict[str, Any] = {"semver": _semver, "quantity": _quantity, "compareTo": _compare_to}


@functools.cache
def _program(expression: str) -> Any:
    return ENV.program(ENV.compile(expression), functions=FUNCTIONS)


def device(kind: DeviceKind) -> Any:
    """A device as the scheduler's CEL sees it, with exactly what the table says every ``kind`` device carries."""
    attributes: dict[str, dict[str, Any]] = {}
    capacity: dict[str, dict[str, Any]] = {}
    for row in PUBLISHED.values():
        if kind not in row.devices:
            continue
        value: Any = {"string": celtypes.StringType("x"), "version": _semver("1.2.3"), "capacity": _quantity("1Gi")}
        where = capacity if row.kind == "capacity" else attributes
        where.setdefault(row.domain, {})[row.short] = value[row.kind]
    return celtypes.MapType({
        celtypes.StringType("attributes"): celtypes.MapType({
            celtypes.StringType(d): celtypes.MapType({celtypes.StringType(k): v for k, v in a.items()})
            for d, a in attributes.items()
        }),
        celtypes.StringType("capacity"): celtypes.MapType({
            celtypes.StringType(d): celtypes.MapType({celtypes.StringType(k): v for k, v in c.items()})
            for d, c in capacity.items()
        }),
    })  # fmt: skip


def evaluate(expression: str, kind: DeviceKind) -> Any:
    return _program(expression).evaluate({"device": device(kind)})


ADMITTED = [
    (name, kind, operator)
    for name, row in sorted(PUBLISHED.items())
    for kind in sorted(row.devices)
    for operator in OPERATORS[row.kind]
    if name != "profile"  # chosen with mig_profile (its own test)
]


@pytest.mark.parametrize(("name", "kind", "operator"), ADMITTED)
def test_every_admitted_selector_evaluates_on_every_device_of_its_kind(
    name: str, kind: DeviceKind, operator: str
) -> None:
    selector = DeviceSelector(name, operator, SAMPLE[PUBLISHED[name].kind])
    assert selector_problems([selector], mig=kind == "mig") == []
    result = evaluate(selector.cel(), kind)
    assert isinstance(result, celtypes.BoolType), (selector.cel(), result)


@pytest.mark.parametrize(
    ("name", "kind", "expression", "fragment"),
    [
        ("pcieBusID", "gpu", 'device.attributes["gpu.nvidia.com"].pcieBusID == "x"', "renamed"),
        ("addressingMode", "gpu", 'device.attributes["gpu.nvidia.com"].addressingMode == "HMM"', "coherent-memory"),
        ("addressingMode", "mig", 'device.attributes["gpu.nvidia.com"].addressingMode == "HMM"', "coherent-memory"),
        ("resource.kubernetes.io/pcieRoot", "gpu", 'device.attributes["resource.kubernetes.io"].pcieRoot == "x"',
         "PCIe root"),
        ("multiprocessors", "gpu",
         'device.capacity["gpu.nvidia.com"].multiprocessors.compareTo(quantity("1")) >= 0', "MIG only"),
        ("gpuMemory", "gpu", 'device.capacity["gpu.nvidia.com"].gpuMemory.compareTo(quantity("1")) >= 0',
         "no such device attribute"),
    ],
)  # fmt: skip
def test_a_refused_selector_would_abort_allocation_and_is_refused_with_the_allowed_list(
    name: str, kind: DeviceKind, expression: str, fragment: str
) -> None:
    with pytest.raises(CELEvalError, match="no such member"):  # a missing attribute: a CEL runtime error
        evaluate(expression, kind)
    (problem,) = selector_problems([DeviceSelector(name, "==", "x")], mig=kind == "mig")
    assert problem.path == "selectors[0].attribute"
    assert fragment in problem.problem
    assert list(problem.allowed) == allowed_names(kind)
    assert problem.hint


def test_the_standard_pci_bus_id_reads_from_its_own_domain() -> None:
    selector = DeviceSelector("resource.kubernetes.io/pciBusID", "==", "0000:00:1e.0")
    assert selector.cel() == 'device.attributes["resource.kubernetes.io"].pciBusID == "0000:00:1e.0"'
    assert evaluate(selector.cel(), "gpu") == celtypes.BoolType(False)


@pytest.mark.parametrize(
    ("name", "gpu", "mig"),
    [
        ("productName", True, True),
        ("memory", True, True),
        ("resource.kubernetes.io/pciBusID", True, True),
        ("profile", False, True),
        ("parentUUID", False, True),
        ("multiprocessors", False, True),
        ("pcieBusID", False, False),
        ("addressingMode", False, False),
        ("resource.kubernetes.io/pcieRoot", False, False),
    ],
)
def test_published_on_every_device(name: str, gpu: bool, mig: bool) -> None:
    assert (published(name, "gpu") is not None, published(name, "mig") is not None) == (gpu, mig)


def test_the_table_and_the_refusals_are_disjoint_and_every_row_is_cited() -> None:
    assert not set(PUBLISHED) & set(CONDITIONAL)
    assert all(row.source for row in PUBLISHED.values())
    assert all(why and hint for why, hint in CONDITIONAL.values())


def test_the_table_matches_the_pinned_driver_source() -> None:
    """Every name of the table is a key the driver's kubelet plugin publishes, and the renamed one is gone."""
    if not DRIVER_SOURCE.is_dir():
        pytest.skip(f"the pinned driver's source (NVIDIA/k8s-dra-driver-gpu v0.4.0 cmd/gpu-kubelet-plugin/) is not "
                    f"in the shared reference ({DRIVER_SOURCE})")  # fmt: skip
    text = "\n".join(p.read_text("utf-8") for p in sorted(DRIVER_SOURCE.glob("*.go")))
    for row in PUBLISHED.values():
        assert f'"{row.short}"' in text or row.domain != "gpu.nvidia.com", row.name
    assert '"pcieBusID"' not in text
