"""A pool's ``fabric``: refused on types without it (naming the types with it), unknown kinds and shapes refused,
and the cloud's own rules (EKS: one zone, Auto Mode has no EFA fields, one EFA card layout per Karpenter pool)."""

from __future__ import annotations

from typing import Any

import pytest

from gpuready.core import pool_config
from gpuready.core.fabric.model import CREATE, FabricSpec
from gpuready.errors import ConfigError

P5 = {"name": "train", "instanceType": "p5.48xlarge", "minSize": 0, "maxSize": 2, "zones": ["us-east-1a"]}


def _problems(cloud: str, **extra: Any) -> list[str]:
    with pytest.raises(ConfigError) as raised:
        pool_config.parse_pools([{**P5, **extra}], cloud)
    return [str(p) for p in raised.value.problems]


@pytest.mark.parametrize(
    ("given", "kind", "placement"),
    [
        ("efa", "efa", None),
        ({"kind": "efa"}, "efa", None),
        ({"kind": "efa", "placementGroup": "create"}, "efa", CREATE),
        ({"kind": "efa", "placementGroup": "training-pg"}, "efa", "training-pg"),
    ],
)
def test_efa_on_an_efa_type_is_the_spec(given: object, kind: str, placement: str | None) -> None:
    (spec,) = pool_config.parse_pools([{**P5, "fabric": given}], "eks")
    assert spec.fabric == FabricSpec(kind=kind, placement_group=placement)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("cloud", "extra", "path", "words"),
    [
        ("eks", {"instanceType": "g6.xlarge", "fabric": "efa"}, "fabric", "EKS types with it are g6.12xlarge"),
        ("eks", {"instanceType": "g6.xlarge", "fabric": "efa"}, "fabric", "pick one of those instance types"),
        ("eks", {"fabric": "efx"}, "fabric.kind", "did you mean 'efa'"),
        ("eks", {"fabric": "infiniband"}, "fabric.kind", "not a node fabric of EKS"),
        ("eks", {"fabric": 3}, "fabric", "must be a fabric kind or a mapping"),
        ("eks", {"fabric": {"kind": "efa", "zone": "a"}}, "fabric.zone", ""),
        ("eks", {"fabric": {"kind": "efa", "placementGroup": " "}}, "fabric.placementGroup", "must be create or"),
        ("eks", {"fabric": "efa", "zones": ["us-east-1a", "us-east-1b"]}, "zones", "EFA does not work across zones"),
        ("eks", {"fabric": "efa", "provisioner": "karpenter", "zones": None}, "zones", "must name its one zone"),
        ("eks", {"fabric": "efa", "zones": None}, "zones", "must name its one zone"),
        ("eks", {"fabric": "efa", "zones": ["1"]}, "zones[0]", "not an AWS Availability Zone"),
        ("eks", {"fabric": "efa", "overrides": {"launchTemplate": {"id": "lt-1"}}}, "overrides.launchTemplate",
         "gpuready's"),
        ("eks", {"fabric": "efa", "provisioner": "eks-auto-mode"}, "fabric", "Auto Mode's NodeClass has no network"),
        (
            "eks",
            {"instanceType": ["g6e.24xlarge", "g6e.48xlarge"], "provisioner": "karpenter", "fabric": "efa",
             "zones": ["us-east-1a"]},
            "instanceType",
            "one EFA network card layout",
        ),
    ],
)  # fmt: skip
def test_bad_fabric_is_refused_with_a_pointed_problem(cloud: str, extra: dict[str, Any], path: str, words: str) -> None:
    found = _problems(cloud, **extra)
    assert any(p.startswith(f"nodePools[0].{path}:") and words in p for p in found), found


def test_no_fabric_is_none() -> None:
    (spec,) = pool_config.parse_pools([{**P5, "zones": None}], "eks")
    assert spec.fabric is None
