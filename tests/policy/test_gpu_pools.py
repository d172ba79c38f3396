"""gpu_pools: read once per read-only props object (every policy asks again), afresh for plain dicts."""
# The memo is the readers' (gpuready.core.capacity.readers); the policy pack asks through it.

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

import pytest

from gpuready.core.capacity import readers as module
from gpuready.core.capacity.pool_facts import PoolFacts, PoolReader
from gpuready.policy.rules.gpu_pools import IMAGE_TYPES, SHARING_TYPES, gpu_pools

EKS_NODE_GROUP = "aws:eks/nodeGroup:NodeGroup"
NODE_GROUP = {"instanceTypes": ["g6.xlarge"], "amiType": "AL2023_x86_64_NVIDIA", "labels": {}, "taints": []}


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    seen: list[str] = []
    every = dict(module.pool_readers())
    real = every[EKS_NODE_GROUP]

    def read(props: Mapping[str, Any]) -> tuple[PoolFacts, ...]:
        seen.append(EKS_NODE_GROUP)
        return real(props)

    counting = PoolReader(read, real.shape, real.settings)

    monkeypatch.setattr(module, "pool_reader", lambda token: counting if token == EKS_NODE_GROUP else every.get(token))
    return seen


def test_read_only_props_are_read_once_per_object(reads: list[str]) -> None:
    props = MappingProxyType(dict(NODE_GROUP))
    first = gpu_pools(EKS_NODE_GROUP, props)
    assert [p.model.key for p in first if p.model] == ["l4"]
    first.clear()  # callers get their own list
    assert gpu_pools(EKS_NODE_GROUP, props) == gpu_pools(EKS_NODE_GROUP, MappingProxyType(dict(NODE_GROUP)))
    assert len(reads) == 2  # the second object is read once too
    assert gpu_pools("aws:eks/cluster:Cluster", props) == []  # another type is not a pool type
    assert len(reads) == 2


def test_plain_dicts_are_read_afresh(reads: list[str]) -> None:
    props = dict(NODE_GROUP)
    assert gpu_pools(EKS_NODE_GROUP, props)
    props["instanceTypes"] = ["m5.large"]
    assert gpu_pools(EKS_NODE_GROUP, props) == []
    assert len(reads) == 2


def test_the_cloud_s_own_settings_are_scoped_to_the_types_whose_readers_read_them() -> None:
    assert set(IMAGE_TYPES) == {EKS_NODE_GROUP}
    assert set(SHARING_TYPES) == {"gcp:container/nodePool:NodePool"}
    assert EKS_NODE_GROUP in IMAGE_TYPES and EKS_NODE_GROUP not in SHARING_TYPES
