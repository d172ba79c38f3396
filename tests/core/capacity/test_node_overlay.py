"""The NodeOverlay gpuready emits for a Karpenter pool whose GPU resources Karpenter cannot see (issue #24), validated
strictly against kubernetes-sigs/karpenter's CRD (v1.14.1, ../shared/reference/upstream/karpenter-core/), its
``x-kubernetes-validations`` CEL rules included (evaluated with cel-python where installed, and each stated below)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

from gpuready.core.capacity.node_overlay import API, node_overlay, overlay_capacity
from gpuready.core.specs import GpuSharing, MigPartitioning
from tests.core.conftest import build_spec
from tests.crd_schemas import strict

CRD = (
    Path(__file__).resolve().parents[3].parent
    / "shared/reference/upstream/karpenter-core/karpenter.sh_nodeoverlays.v1.14.1.yaml"
)

POOLS: list[tuple[str, dict[str, Any], dict[str, str]]] = [
    # id, spec fields, the overlay's capacity (what each node advertises beside nvidia.com/gpu)
    ("mig-mixed-h100", {"instance_type": "p5.48xlarge", "sharing": MigPartitioning(profile="1g.10gb",
                                                                                   strategy="mixed")},
     {"nvidia.com/mig-1g.10gb": "56"}),
    ("mig-mixed-balanced", {"instance_type": "p4d.24xlarge", "sharing": MigPartitioning(layout="all-balanced",
                                                                                        strategy="mixed")},
     {"nvidia.com/mig-1g.5gb": "16", "nvidia.com/mig-2g.10gb": "8", "nvidia.com/mig-3g.20gb": "8"}),
    ("renamed-time-slicing", {"instance_type": "g6.xlarge",
                              "sharing": GpuSharing(mode="time-slicing", replicas=4, rename_by_default=True)},
     {"nvidia.com/gpu.shared": "4"}),
    ("renamed-mps", {"instance_type": "g6.xlarge", "sharing": GpuSharing(mode="mps", replicas=2,
                                                                          rename_by_default=True)},
     {"nvidia.com/gpu.shared": "2"}),
]  # fmt: skip


def _crd_schema() -> Mapping[str, Any]:
    if not CRD.is_file():
        pytest.skip(f"{CRD} is absent (the NodeOverlay CRD, kubernetes-sigs/karpenter v1.14.1)")
    crd = yaml.safe_load(CRD.read_text("utf-8"))
    (version,) = [v for v in crd["spec"]["versions"] if v["name"] == API[0].split("/")[1]]
    assert crd["spec"]["group"] == API[0].split("/")[0] and crd["spec"]["names"]["kind"] == API[1]
    schema: Mapping[str, Any] = version["schema"]["openAPIV3Schema"]
    return schema


def _rules(schema: Mapping[str, Any], value: Any) -> Iterator[tuple[str, Any]]:
    """Every (CEL rule, self) pair of ``schema`` applied to ``value``."""
    for rule in schema.get("x-kubernetes-validations", ()):
        yield rule["rule"], value
    if isinstance(value, Mapping):
        for name, sub in (schema.get("properties") or {}).items():
            if name in value:
                yield from _rules(sub, value[name])
    elif isinstance(value, list) and "items" in schema:
        for item in value:
            yield from _rules(schema["items"], item)


@pytest.mark.parametrize(("fields", "capacity"), [p[1:] for p in POOLS], ids=[p[0] for p in POOLS])
def test_the_overlay_is_valid_against_the_crd(fields: dict[str, Any], capacity: dict[str, str]) -> None:
    spec = build_spec("eks", provisioner="karpenter", **fields)
    overlay = node_overlay(spec)
    assert overlay is not None
    assert (overlay["apiVersion"], overlay["kind"], overlay["metadata"]) == (*API, {"name": "gpu"})
    assert overlay["spec"]["capacity"] == capacity == {k: str(v) for k, v in overlay_capacity(spec).items()}
    schema = _crd_schema()
    errors = sorted(e.message for e in jsonschema.Draft7Validator(strict(schema)).iter_errors(overlay))
    assert errors == []
    # The CEL rules, stated: no standard resource in capacity; the karpenter.sh domain only for capacity-type and
    # nodepool; not kubernetes.io/hostname; In with values; not both price and priceAdjustment.
    assert not set(overlay["spec"]["capacity"]) & {"cpu", "memory", "ephemeral-storage", "pods"}
    assert [r["key"] for r in overlay["spec"]["requirements"]] == ["karpenter.sh/nodepool"]
    assert all(r["operator"] == "In" and r["values"] for r in overlay["spec"]["requirements"])
    celpy = pytest.importorskip("celpy", reason="cel-python evaluates the CRD's CEL rules (a dev dependency)")
    adapter = pytest.importorskip("celpy.adapter")

    environment = celpy.Environment()
    for rule, value in _rules(schema, overlay):
        program = environment.program(environment.compile(rule))
        assert program.evaluate({"self": adapter.json_to_cel(value)}), rule


@pytest.mark.parametrize(
    "fields",
    [{"instance_type": "g6.12xlarge"}, {"instance_type": "g6.12xlarge", "sharing": GpuSharing(mode="time-slicing",
                                                                                              replicas=4)},
     {"instance_type": "p5.48xlarge", "sharing": MigPartitioning(profile="1g.10gb")}],
    ids=["whole", "time-sliced", "mig-single"],
)  # fmt: skip
def test_a_pool_karpenter_sees_whole_needs_no_overlay(fields: dict[str, Any]) -> None:
    assert node_overlay(build_spec("eks", provisioner="karpenter", **fields)) is None
