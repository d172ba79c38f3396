"""gpu_pools: read once per read-only props object (every policy asks again), afresh for plain dicts."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

import pytest

from gpuready.policy.rules import gpu_pools as module
from gpuready.policy.rules.gpu_pools import EKS_NODE_GROUP, GpuPool, gpu_pools

NODE_GROUP = {"instanceTypes": ["g6.xlarge"], "amiType": "AL2023_x86_64_NVIDIA", "labels": {}, "taints": []}


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    seen: list[str] = []
    real = module._read_pools

    def counting(resource_type: str, props: Mapping[str, Any]) -> list[GpuPool]:
        seen.append(resource_type)
        return real(resource_type, props)

    monkeypatch.setattr(module, "_read_pools", counting)
    return seen


def test_read_only_props_are_read_once_per_object(reads: list[str]) -> None:
    props = MappingProxyType(dict(NODE_GROUP))
    first = gpu_pools(EKS_NODE_GROUP, props)
    assert [p.model.key for p in first if p.model] == ["l4"]
    first.clear()  # callers get their own list
    assert gpu_pools(EKS_NODE_GROUP, props) == gpu_pools(EKS_NODE_GROUP, MappingProxyType(dict(NODE_GROUP)))
    assert len(reads) == 2  # the second object is read once too
    assert gpu_pools("aws:eks/cluster:Cluster", props) == []  # another type is another question
    assert len(reads) == 3


def test_plain_dicts_are_read_afresh(reads: list[str]) -> None:
    props = dict(NODE_GROUP)
    assert gpu_pools(EKS_NODE_GROUP, props)
    props["instanceTypes"] = ["m5.large"]
    assert gpu_pools(EKS_NODE_GROUP, props) == []
    assert len(reads) == 2
