"""EKS Auto Mode reservations end to end, through ``gpuready plan`` and ``gpuready diff`` in-process (the
eks-karpenter example stack with Auto Mode pools set in its place): the ``CAPACITY`` column, the plan's note of Auto
Mode's cluster-wide ODCR caveat naming the pool it affects, the policy pack (gpuready's own reserved NodePool selects
its reservations; the advisory caveat is said), the scale path, and the diff of a pool leaving its reservation."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.golden.diff_cases import ROOT, run_cli

RESERVED = {
    "name": "h100-res", "provisioner": "eks-auto-mode", "instanceType": "p5.48xlarge", "maxSize": 2,
    "capacity": "reserved", "reservation": {"ids": ["cr-0a1b2c3d4e5f60718"], "nodes": 2, "fallback": "on-demand"},
}  # fmt: skip
BLOCK = {
    "name": "h200-block", "provisioner": "eks-auto-mode", "instanceType": "p5e.48xlarge", "minSize": 0, "maxSize": 1,
    "capacity": "capacity-block", "reservation": {"ids": ["cr-02168da1478b509e0"], "zone": "us-east-1a", "nodes": 1},
}  # fmt: skip
ON_DEMAND = {"name": "l4-od", "provisioner": "eks-auto-mode", "instanceType": "g6.xlarge", "maxSize": 2}


def plan(pools: list[dict[str, Any]]) -> dict[str, Any]:
    argv = ["plan", "--stack", "eks-karpenter", "--project-dir", str(ROOT), "-o", "json",
            "--set", f"gpuready:nodePools={json.dumps(pools)}"]  # fmt: skip
    result = run_cli(argv)
    assert result["code"] == 0, result["stderr"]
    document: dict[str, Any] = result["stdout"]
    return document


@pytest.fixture(scope="module")
def planned() -> dict[str, Any]:
    return plan([RESERVED, BLOCK, ON_DEMAND])


def test_the_capacity_column_and_the_scale_path(planned: dict[str, Any]) -> None:
    pools = {p["name"]: p for p in planned["pools"]}
    assert {name: (p["capacity"]["text"], p["scales"]) for name, p in pools.items()} == {
        "h100-res": ("reserved cr-0a1b2c3d4e5f60718 (2 nodes), then on-demand", "yes 0->2 nodes"),
        "h200-block": ("block cr-02168da1478b509e0 (1 nodes, us-east-1a)", "yes 0->1 nodes"),
        "l4-od": ("on-demand", "yes 0->2 nodes"),
    }


def test_the_plan_notes_the_cluster_wide_caveat_and_the_pool_it_affects(planned: dict[str, Any]) -> None:
    notes = [w for w in planned["warnings"] if "capacityReservationSelectorTerms" in w]
    assert [n.split(":")[0] for n in notes] == ["pool h100-res", "pool h200-block"]
    assert all("Affected in this stack: Auto Mode pool(s) l4-od (on-demand)" in n for n in notes)


def test_the_policy_pack_passes_gpureadys_own_pools_and_says_the_caveat(planned: dict[str, Any]) -> None:
    by_policy: dict[str, list[str]] = {}
    for violation in planned["violations"]:
        by_policy.setdefault(violation["policy"], []).append(violation["resource"])
    assert "gpu-reserved-nodepool-selects-reservations" not in by_policy
    caveat = by_policy["gpu-reservation-terms-cluster-wide"]
    assert sorted(urn.rsplit("::", 1)[-1] for urn in caveat) == ["h100-res-node-class", "h200-block-node-class"]


def test_the_diff_says_a_pool_leaves_its_reservation(planned: dict[str, Any], tmp_path: Path) -> None:
    moved = {**{k: v for k, v in RESERVED.items() if k != "reservation"}, "capacity": "on-demand"}
    after = plan([moved, BLOCK, ON_DEMAND])
    (tmp_path / "before.json").write_text(json.dumps(planned), "utf-8")
    (tmp_path / "after.json").write_text(json.dumps(after), "utf-8")
    result = run_cli(["diff", str(tmp_path / "before.json"), str(tmp_path / "after.json"), "-o", "json"])
    assert result["code"] == 1, result  # capacity at risk
    losses = {c["pool"]: c["losses"] for c in result["stdout"]["gpuCapacity"]}
    assert list(losses) == ["h100-res"]  # the block pool and the on-demand pool are unchanged
    assert losses["h100-res"][0].startswith(
        "moves off its reservation (reserved cr-0a1b2c3d4e5f60718 (2 nodes), then on-demand): new nodes launch as "
        "on-demand"
    )
    assert result["stdout"]["summary"]["gpuPoolsAtRisk"] == 1
