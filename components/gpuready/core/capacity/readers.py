"""Every pool resource type gpuready can read, and the one reader of each: ask by type token. Pure.

The readers are the provisioners' (``Provisioner.readers``), each beside the code that writes its resource; this
module only collects them, so whoever reads pools (the policy pack, ``gpuready diff``) never names a cloud. A type
is looked up in the clouds that may own it only (``registry.profiles_for_type``), and the type sets are
``TypeScope``s decided token by token, so reading a plan's resources loads no other cloud (issue #32).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cache
from typing import Any

from gpuready.core.capacity.interface import Provisioner
from gpuready.core.capacity.pool_facts import OwnSetting, PoolFacts, PoolReader
from gpuready.core.capacity.registry import provisioners, provisioners_for_type
from gpuready.core.clouds.type_scope import TypeScope


@cache
def pool_reader(token: str) -> PoolReader | None:
    """The reader of type ``token`` (None when no provisioner reads it); provisioners writing the same type (the
    Karpenter ones) must share one. Only the clouds that may own the token load."""
    return _one_reader(token, provisioners_for_type(token))


def _one_reader(token: str, among: tuple[Provisioner, ...]) -> PoolReader | None:
    found: PoolReader | None = None
    for provisioner in among:
        reader = provisioner.readers.get(token)
        if reader is not None and found is not None and reader is not found:
            raise TypeError(f"two readers of {token!r}: {found!r} and {reader!r} ({provisioner.key})")
        found = found or reader
    return found


def pool_readers() -> Mapping[str, PoolReader]:
    """Every type token -> its reader (loads every cloud: ask ``pool_reader`` for one type)."""
    every = provisioners()
    tokens = dict.fromkeys(token for p in every for token in p.readers)
    return {token: reader for token in tokens if (reader := _one_reader(token, every)) is not None}


def _reading(predicate: Callable[[Provisioner, PoolReader], bool]) -> TypeScope:
    return TypeScope(
        lambda token: any(
            predicate(p, reader) for p in provisioners_for_type(token) if (reader := p.readers.get(token)) is not None
        ),
        lambda: {token for p in provisioners() for token, reader in p.readers.items() if predicate(p, reader)},
    )


@cache
def types_reading(setting: OwnSetting) -> TypeScope:
    """Types of the pool resources that carry the cloud's own ``setting`` (an image, GPU time-sharing)."""
    return _reading(lambda _, reader: setting in reader.settings)


@cache
def elastic_types() -> TypeScope:
    """Types of the objects elastic provisioners write (NodePool, ComputeClass)."""
    return _reading(lambda provisioner, _: provisioner.elastic)


@cache
def fixed_types() -> TypeScope:
    """Types of the cloud resources that hold a sized group of nodes (node groups, agent pools, node pools)."""
    return _reading(lambda provisioner, _: not provisioner.elastic)


_READ: dict[int, tuple[Mapping[str, Any], str, tuple[PoolFacts, ...]]] = {}
"""``id(props)`` -> (props, type, pools) for read-only props; the entry holds ``props``, so the id stays its."""
_READ_LIMIT = 4096


def read_pools(resource_type: str, props: Mapping[str, Any]) -> tuple[PoolFacts, ...]:
    """The GPU pools a resource declares: none, one, or one per GPU profile of a cluster resource.

    Every resource policy and every stack policy reads the pools of the same resource; the analyzer hands them
    all one read-only props object, so the answer is remembered per object. Plain dicts (which a caller may
    change between calls) are read afresh each time.
    """
    reader = pool_reader(resource_type)
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
    reader = pool_reader(resource_type)
    return () if reader is None else reader.problems(props)
