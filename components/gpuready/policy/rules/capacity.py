"""Rules on how GPU node pools get capacity (issue #28), on any program's pools. Pure.

Each pool is judged by the provisioner that reads it (``PoolFacts.provisioner``; ``Provisioner.
policy_capacity_problems``: GKE queued and flex-start node pools, AKS reservation and placement group ids), reached
through the capacity registry: the pack imports no cloud package.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gpuready.core.capacity.registry import provisioner_named
from gpuready.policy.rules.gpu_pools import gpu_pools


def capacity_problems(resource_type: str, props: Mapping[str, Any], config: Mapping[str, Any]) -> list[str]:
    """Every capacity rule a GPU pool resource breaks, naming the field and the fix."""
    return [
        problem
        for pool in gpu_pools(resource_type, props)
        for problem in provisioner_named(pool.cloud, pool.provisioner).policy_capacity_problems(pool.where, pool.props)
    ]
