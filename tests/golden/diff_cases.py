"""Golden diffs (issue #27): every example stack against a changed copy of itself, in one ``gpuready diff -o json``
each. The copy changes, on the pools where they apply, a GPU model (instance type), time-slicing / MPS replicas, a
MIG profile, ``maxSize``, ``minSize``, a DRA pool's device count and a pool's fabric, so each golden shows the
capacity in the units workloads request before and after, and every loss named."""

from __future__ import annotations

import json
import tempfile
from collections.abc import Callable, Mapping, Sequence
from contextlib import redirect_stderr, redirect_stdout
from io import StringIO
from pathlib import Path
from typing import Any

import yaml

from gpuready.cli.main import main

ROOT = Path(__file__).resolve().parents[2]

Changes = Mapping[str, Mapping[str, Any]]
"""Pool name -> the keys the changed copy sets on it."""

WHOLE = None
"""``sharing: none``: each GPU one unit again (a key set to None is dropped from the pool)."""

CHANGES: dict[str, Changes] = {
    "eks-dev": {
        "l4-shared": {"sharing": {"mode": "time-slicing", "replicas": 2}, "minSize": 1},
        "h100-mig": {"sharing": {"mode": "mig", "profile": "3g.40gb", "strategy": "single"}},
        "a10g-br": {"instanceType": "g6.2xlarge", "maxSize": 2},
    },
    "aks-dev": {
        "t4shared": {"sharing": WHOLE, "maxSize": 2},
        "a100mig": {"sharing": {"mode": "mig", "profile": "3g.40gb", "strategy": "mixed"}},
        "h100spot": {"instanceType": "Standard_NC24ads_A100_v4", "minSize": 1},
    },
    "gke-dev": {
        "l4-ts": {"sharing": {"mode": "time-slicing", "replicas": 2}, "maxSize": 2},
        "a100-mig": {"sharing": {"mode": "mig", "profile": "3g.20gb"}},
        "t4-mps": {"instanceType": "g2-standard-8", "gpu": None, "sharing": WHOLE, "minSize": 1},
    },
    "gke-operator": {
        "l4-ts": {"sharing": {"mode": "time-slicing", "replicas": 2, "renameByDefault": True}, "minSize": 1},
        "h100-mig": {"sharing": {"mode": "mig", "layout": {"3g.40gb": 2}, "strategy": "mixed"}, "maxSize": 1},
    },
    "eks-karpenter": {
        "l4-shared": {"instanceType": "g6e.12xlarge", "sharing": {"mode": "time-slicing", "replicas": 2}},
        "h100-mig": {"sharing": {"mode": "mig", "profile": "3g.40gb"}, "maxSize": 2},
    },
    "gke-compute-class": {
        "l4-inference": {"sharing": {"mode": "time-slicing", "replicas": 2}, "maxSize": 4},
        "a100-mig": {"sharing": {"mode": "mig", "profile": "3g.20gb"}},
        "h100-train": {"instanceType": "a3-highgpu-4g"},
    },
    "aks-nap": {
        "t4shared": {"sharing": {"mode": "time-slicing", "replicas": 2}},
        "a100mig": {"sharing": {"mode": "mig", "profile": "3g.40gb", "strategy": "single"}, "maxSize": 1},
        "h100spot": {"instanceType": "Standard_NC24ads_A100_v4"},
    },
    "eks-dra": {
        "h100-dra": {"instanceType": "p5en.48xlarge", "maxSize": 1},
        "l4-dra": {"instanceType": "g6.xlarge", "minSize": 1},
    },
    "aks-dra-operator": {
        "a100dra": {"instanceType": "Standard_NC40ads_H100_v5", "maxSize": 1},
        "t4dra": {"instanceType": "Standard_NC64as_T4_v3", "maxSize": 2},  # a DRA pool keeps its warm node (#24)
    },
    "aks-sku": {
        "t4": {"sharing": {"mode": "time-slicing", "replicas": 2}},
        "a100": {"maxSize": 1},
    },
    "eks-efa": {  # a fabric pool's placement group dropped (#30), the other pool's fabric dropped
        "h100-train": {"fabric": {"kind": "efa", "placementGroup": "shared-training-pg"}},
        "h200-train": {"fabric": None, "zones": None},
    },
    "gke-queued": {
        "h100-queued": {"maxSize": 8},
        "a100-reserved": {
            "reservation": {"affinity": "specific", "name": "a100-eval-2", "project": "ml-platform-project"}
        },
    },
    "aks-ib": {"h100ib": {"minSize": 2, "maxSize": 4}},
    "gke-tcpxo": {  # a placement policy of the stack's own: the pool is replaced (placementPolicy forces it)
        "h100-mega": {
            "maxSize": 4,
            "fabric": {
                "kind": "gpudirect-tcpxo",
                "placementGroup": "a3mega-compact",
                "networks": [{"network": f"a3mega-net-{i}", "subnetwork": f"a3mega-sub-{i}"} for i in range(1, 9)],
            },
        },
    },
    "eks-capacity": {  # the training pool leaves its Capacity Block: said as a loss, with its replacement
        "h100-train": {"capacity": "on-demand", "reservation": None},
        "l4-inference": {"maxSize": 2},
    },
}


def run_cli(argv: Sequence[str]) -> dict[str, Any]:
    """``gpuready argv`` in-process: exit code, stdout parsed as JSON, stderr lines."""
    out, err = StringIO(), StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(list(argv))
    return {"code": code, "stdout": json.loads(out.getvalue()), "stderr": err.getvalue().splitlines()}


def changed_pools(stack: str) -> list[dict[str, Any]]:
    """The stack's pools with ``CHANGES[stack]`` applied (a key changed to None is dropped)."""
    config = yaml.safe_load((ROOT / "stacks" / f"Pulumi.{stack}.yaml").read_text("utf-8"))["config"]
    pools: list[dict[str, Any]] = yaml.safe_load(config["gpuready:nodePools"])
    changes = CHANGES[stack]
    assert set(changes) <= {p["name"] for p in pools}, f"stacks/Pulumi.{stack}.yaml renamed a pool"
    changed = []
    for pool in pools:
        updated = {**pool, **changes.get(pool["name"], {})}
        changed.append({k: v for k, v in updated.items() if v is not None})
    return changed


def diff_case(stack: str) -> Callable[[], dict[str, Any]]:
    def case() -> dict[str, Any]:
        with tempfile.TemporaryDirectory() as tmp:
            before, after = Path(tmp) / "before.json", Path(tmp) / "after.json"
            base = ["plan", "--stack", stack, "--project-dir", str(ROOT), "--no-policy", "-o", "json"]
            planned = run_cli(base)
            assert planned["code"] == 0, planned["stderr"]
            before.write_text(json.dumps(planned["stdout"]), "utf-8")
            pools = json.dumps(changed_pools(stack))
            planned = run_cli([*base, "--set", f"gpuready:nodePools={pools}"])
            assert planned["code"] == 0, planned["stderr"]
            after.write_text(json.dumps(planned["stdout"]), "utf-8")
            result = run_cli(["diff", str(before), str(after), "-o", "json"])
        result["argv"] = ["diff", f"<plan of {stack}>", f"<plan of {stack}, changed>", "-o", "json"]
        result["changes"] = CHANGES[stack]
        return result

    return case


DIFF_CASES = {f"diff-{stack}": diff_case(stack) for stack in CHANGES}
