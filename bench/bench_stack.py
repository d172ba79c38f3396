"""The benchmark stack: N EKS pools of four kinds with the GPU Operator over all of them, as a stack file.

Shared by ``plan_scale.py`` (plan time against the bare SDK), ``diff_scale.py`` (``gpuready diff`` of two such
plans) and ``policy_eval.py`` (the policy gate on one).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

INSTANCE_TYPES = ("g6.12xlarge", "p5.48xlarge", "g5.2xlarge", "g6e.xlarge")


BENCH_WIRING: dict[str, Any] = {
    "cluster_name": "bench",
    "node_role_arn": "arn:aws:iam::123456789012:role/bench",
    "subnet_ids": ["subnet-0123456789abcdef0"],
}


def pool_entries(count: int) -> list[dict[str, Any]]:
    """``count`` EKS pools cycling through shared, MIG, Bottlerocket and plain pools."""
    pools: list[dict[str, Any]] = []
    for index in range(count):
        kind = index % 4
        pool: dict[str, Any] = {
            "name": f"pool-{index}",
            "instanceType": INSTANCE_TYPES[kind],
            "minSize": 0,
            "maxSize": 4,
            "labels": {"example.com/team": f"team-{index % 7}"},
        }
        if kind == 0:
            pool["sharing"] = {"mode": "time-slicing", "replicas": 4}
        elif kind == 1:
            pool["sharing"] = {"mode": "mig", "layout": "all-balanced", "strategy": "mixed"}
        elif kind == 2:
            pool["image"] = "bottlerocket"
        pools.append(pool)
    return pools


def write_stack_file(directory: Path, count: int) -> Path:
    path = directory / f"Pulumi.bench-{count}.yaml"
    config = {
        "gpuready:cloud": "eks",
        "gpuready:clusterName": "bench",
        "gpuready:eksNodeRoleArn": "arn:aws:iam::123456789012:role/bench",
        "gpuready:eksSubnetIds": ["subnet-0123456789abcdef0"],
        # The GPU Operator over every pool; the bare side registers the same release, namespace and config map.
        "gpuready:gpuStack": "gpu-operator",
        "gpuready:nodePools": json.dumps(pool_entries(count)),
    }
    path.write_text(json.dumps({"config": config}))
    return path
