"""Every pool resource type gpuready can read, and the one reader of each: ask by type token. Pure.

The readers are the provisioners' (``Provisioner.readers``), each beside the code that writes its resource; this
module only collects them, so whoever reads pools (the policy pack, ``gpuready diff``) never names a cloud.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from gpuready.core.capacity.pool_facts import OwnSetting, PoolFacts, PoolReader
from gpuready.core.capacity.registry import provisioners


@cache
def pool_readers() -> Mapping[str, PoolReader]:
    """Type token -> its reader; provisioners writing the same type (the Karpenter ones) must share one."""
    found: dict[str, PoolReader] = {}
    for provisioner in provisioners():
        for token, reader in provisioner.readers.items():
            if found.setdefault(token, reader) is not reader:
                raise TypeError(f"two readers of {token!r}: {found[token]!r} and {reader!r} ({provisioner.key})")
    return found


@cache
def types_reading(setting: OwnSetting) -> frozenset[str]:
    """Types of the pool resources that carry the cloud's own ``setting`` (an image, GPU time-sharing)."""
    return frozenset(token for token, reader in pool_readers().items() if setting in reader.settings)


@cache
def elastic_types() -> frozenset[str]:
    """Types of the objects elastic provisioners write (NodePool, ComputeClass)."""
    return frozenset(token for p in provisioners() if p.elastic for token in p.readers)


@cache
def fixed_types() -> frozenset[str]:
    """Types of the cloud resources that hold a sized group of nodes (node groups, agent pools, node pools)."""
    return frozenset(token for p in provisioners() if not p.elastic for token in p.readers)


_READ: dict[int, tuple[Mapping[str, Any], str, tuple[PoolFacts, ...]]] = {}
"""``id(props)`` -> (props, type, pools) for read-only props; the entry holds ``props``, so the id stays its."""
_READ_LIMIT = 4096


def read_pools(resource_type: str, props: Mapping[str, Any]) -> tuple[PoolFacts, ...]:
    """The GPU pools a resource declares: none, one, or one per GPU profile of a cluster resource.

    Every resource policy and every stack policy reads the pools of the same resource; the analyzer hands them
    all one read-only props object, so the answer is remembered per object. Plain dicts (which a caller may
    change between calls) are read afresh each time.
    """
    reader = pool_readers().get(resource_type)
    if reader is None:
        return ()
    if type(props) is dict:
        return reader(props)
    seen = _READ.get(id(props))
    if seen is not None and seen[0] is props and seen[1] == resource_type:
        return seen[2]
    pools = reader(props)
    if len(_READ) >= _READ_LIMIT:
        _READ.clear()
    _READ[id(props)] = (props, resource_type, pools)
    return pools


def shape_problems(resource_type: str, props: Mapping[str, Any]) -> tuple[str, ...]:
    """The fields of a pool resource its reader reads that are set to a value of another shape (a strict reader
    refuses the resource: ``gpuready diff``); () for a type no provisioner reads."""
    reader = pool_readers().get(resource_type)
    return () if reader is None else reader.problems(props)
