"""A pool's schedulable capacity (issue #27): units per node from the pool's advertiser (the same as
``allocatable_per_node`` / ``devices_per_node``), node bounds from the provisioner, cut by a GPU limit."""

from __future__ import annotations

from typing import Any

import pytest

from gpuready.core.advertisers.registry import advertiser_for
from gpuready.core.pool_capacity import capacity_at, schedulable_capacity
from gpuready.core.pool_parts import GpuSharing, MigPartitioning
from gpuready.core.sharing_rules import MAX_REPLICAS
from gpuready.errors import SpecError
from tests.core.conftest import build_spec

SLICED_X20 = GpuSharing(mode="time-slicing", replicas=20)
RENAMED_X4 = GpuSharing(mode="time-slicing", replicas=4, rename_by_default=True)


@pytest.mark.parametrize(
    ("overrides", "per_node", "least", "most"),
    [
        ({"instance_type": "p5.48xlarge", "max_size": 4}, {"nvidia.com/gpu": 8}, 0, 4),
        ({"instance_type": "g6.12xlarge", "sharing": SLICED_X20}, {"nvidia.com/gpu": 80}, 0, 2),
        ({"instance_type": "g6.12xlarge", "sharing": RENAMED_X4, "min_size": 1}, {"nvidia.com/gpu.shared": 16}, 1, 2),
        ({"instance_type": "p5.48xlarge", "sharing": MigPartitioning(profile="1g.10gb", strategy="mixed")},
         {"nvidia.com/mig-1g.10gb": 56}, 0, 2),
        ({"instance_type": "p5.48xlarge", "sharing": MigPartitioning(profile="3g.40gb", strategy="mixed")},
         {"nvidia.com/mig-3g.40gb": 16}, 0, 2),
        ({"instance_type": "g6.12xlarge", "advertise": "dra"}, {"gpu.nvidia.com": 4}, 0, 2),
        ({"instance_type": "g6.12xlarge", "provisioner": "karpenter", "min_size": 0, "max_size": 5, "gpu_limit": 8},
         {"nvidia.com/gpu": 4}, 0, 2),
    ],
    ids=["whole", "time-slicing-x20", "renamed-shares", "mig-1g", "mig-3g", "dra", "karpenter-gpu-limit"],
)  # fmt: skip
def test_capacity_in_the_units_workloads_request(
    overrides: dict[str, Any], per_node: dict[str, int], least: int, most: int
) -> None:
    spec = build_spec("eks", **overrides)
    capacity = schedulable_capacity(spec)
    assert (dict(capacity.per_node), capacity.min_nodes, capacity.max_nodes) == (per_node, least, most)
    advertiser = advertiser_for(spec)
    assert dict(capacity.per_node) == {**advertiser.allocatable_per_node(spec), **advertiser.devices_per_node(spec)}
    assert capacity.at_max == capacity_at(per_node, most)
    assert capacity.at_min == {name: units * least for name, units in per_node.items()}


@pytest.mark.parametrize(("replicas", "refused"), [(MAX_REPLICAS, False), (MAX_REPLICAS + 1, True), (10000, True)])
def test_time_slicing_replicas_have_the_packs_bound_in_the_pool_spec(replicas: int, refused: bool) -> None:
    if not refused:
        build_spec("eks", sharing=GpuSharing(mode="time-slicing", replicas=replicas))
        return
    with pytest.raises(SpecError) as caught:
        build_spec("eks", sharing=GpuSharing(mode="time-slicing", replicas=replicas))
    (problem,) = caught.value.problems
    assert (problem.path, problem.value) == ("sharing.replicas", replicas)
    assert f"at most {MAX_REPLICAS}" in problem.problem
