"""The plan's pool table: every pool with its provisioner, GPU limit (elastic) and requirements."""

from __future__ import annotations

import pytest

from gpuready.cli.pool_table import HEADERS, WIDE_HEADERS, pool_json, pool_rows, render_pool_table
from gpuready.core.fabric.model import FabricSpec
from gpuready.core.pool_summary import pool_outputs
from gpuready.core.specs import GpuRequirements
from tests.core.conftest import build_spec


def _pools() -> list[tuple[str, dict[str, object]]]:
    fixed = build_spec("eks", name="fixed", instance_type="g6.xlarge", max_size=3)
    listed = build_spec("eks", name="listed", provisioner="karpenter", instance_type=("g6.xlarge", "g6.2xlarge"),
                        max_size=4, gpu_limit=3)  # fmt: skip
    wanted = build_spec("gke", name="wanted", provisioner="compute-class", instance_type=None,
                        gpu_requirements=GpuRequirements(model="l4", count=2), max_size=2)  # fmt: skip
    return [(s.name, pool_outputs(s, "d", "l").as_dict()) for s in (wanted, listed, fixed)]


def test_each_row_shows_provisioner_and_gpu_limit() -> None:
    rows = {row[0]: dict(zip(HEADERS, row, strict=True)) for row in pool_rows(_pools())}
    assert [(r["PROVISIONER"], r["GPU-LIMIT"]) for r in rows.values()] == [
        ("node-group", "-"),  # maxSize bounds a fixed pool
        ("karpenter", "3"),  # gpuLimit
        ("compute-class", "-"),  # a ComputeClass has no limit field
    ]


def test_requirements_follow_the_table() -> None:
    text = render_pool_table(_pools()).splitlines()
    assert "requirements fixed: g6.xlarge" in text
    assert "requirements listed: g6.xlarge, g6.2xlarge" in text
    (wanted,) = [line for line in text if line.startswith("requirements wanted: ")]
    assert wanted.startswith("requirements wanted: gpuRequirements 2 x l4: ") and "g2-standard-24" in wanted


@pytest.mark.parametrize(("wide", "columns"), [(False, HEADERS), (True, HEADERS + WIDE_HEADERS)])
def test_wide_adds_node_bounds_resource_and_selector_and_no_headers_drops_the_header(
    wide: bool, columns: tuple[str, ...]
) -> None:
    full = render_pool_table(_pools(), wide=wide).splitlines()
    assert full[0].split() == list(columns)
    bare = render_pool_table(_pools(), wide=wide, headers=False).splitlines()
    assert bare == full[1:]
    wanted = next(line for line in full if line.startswith("wanted "))
    assert ("cloud.google.com/compute-class=wanted,gpuready.io/pool=wanted" in wanted) == wide
    if wide:
        assert wanted.split()[-4:-1] == ["0", "2", "nvidia.com/gpu"]  # min and max nodes, the resource name


def test_fabric_shows_in_the_table_and_the_json() -> None:
    efa = build_spec(
        "eks", name="train", instance_type="p5.48xlarge", fabric=FabricSpec(kind="efa"), zones=("us-east-1a",)
    )
    pools = [(efa.name, pool_outputs(efa, "d", "l").as_dict()), *_pools()]
    rows = {row[0]: dict(zip(HEADERS, row, strict=True)) for row in pool_rows(pools)}
    assert rows["train"]["FABRIC"] == "efa x32, new placement group"
    assert rows["fixed"]["FABRIC"] == "-"
    plan = {pool["name"]: pool for pool in pool_json(pools)}
    assert plan["train"]["fabric"] == {
        "kind": "efa", "devices": 32, "placementGroup": "create", "summary": "efa x32, new placement group",
    }  # fmt: skip
    assert plan["fixed"]["fabric"] is None
