"""The advertisers gpuready knows, in order, and the one place that decides which one a pool uses. Pure.

Adding a way of advertising GPUs is one ``Advertiser`` implementation in this package plus one entry in
``ADVERTISERS``; the pool's choice (its ``advertise`` key, ``ADVERTISE_VALUES``) is made in ``advertiser_for``
only.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from gpuready.core.advertisers.dra import DYNAMIC_RESOURCES
from gpuready.core.advertisers.extended_resources import EXTENDED_RESOURCES
from gpuready.core.advertisers.interface import Advertiser

if TYPE_CHECKING:
    from gpuready.core.specs import GpuPoolSpec

ADVERTISERS: tuple[Advertiser, ...] = (EXTENDED_RESOURCES, DYNAMIC_RESOURCES)
"""Every advertiser, in the order node resources are matched against them (the first is the default)."""

_BY_KEY: Mapping[str, Advertiser] = {a.key: a for a in ADVERTISERS}
_BY_POOL_VALUE: Mapping[str, Advertiser] = {a.pool_value: a for a in ADVERTISERS}

ADVERTISE_VALUES: tuple[str, ...] = tuple(_BY_POOL_VALUE)
"""The values of a pool's ``advertise`` key; the first is the default."""


def advertiser_named(key: str) -> Advertiser:
    """The advertiser registered under ``key``; raises ``KeyError`` naming the known ones."""
    try:
        return _BY_KEY[key]
    except KeyError:
        raise KeyError(f"no GPU advertiser {key!r}; known: {', '.join(_BY_KEY)}") from None


def advertiser_for(spec: GpuPoolSpec) -> Advertiser:
    """How ``spec``'s GPUs are advertised: the one place a pool's advertiser is decided (its ``advertise`` key,
    checked against ``ADVERTISE_VALUES`` when the spec is made)."""
    return _BY_POOL_VALUE[spec.advertise]


def advertiser_for_node(capacity: Mapping[str, int], labels: Mapping[str, str] | None = None) -> Advertiser:
    """The advertiser of a node no known pool owns: the one whose marker its labels carry, else the one whose
    resources its capacity carries (the first in order by default)."""
    if labels and (marked := advertiser_for_labels(labels)) is not ADVERTISERS[0]:
        return marked
    for advertiser in ADVERTISERS:
        if any(advertiser.is_gpu_resource(name) for name in capacity):
            return advertiser
    return ADVERTISERS[0]


def is_gpu_resource(name: str) -> bool:
    """Whether a node resource name is a GPU resource of any advertiser."""
    return any(a.is_gpu_resource(name) for a in ADVERTISERS)


def advertiser_for_labels(labels: Mapping[str, str]) -> Advertiser:
    """How the GPUs of a pool (or node) with ``labels`` are advertised, read from any program's pool: the first
    advertiser whose marker the labels carry, else the default."""
    for advertiser in ADVERTISERS[1:]:
        if advertiser.serves_node_labels(labels):
            return advertiser
    return ADVERTISERS[0]
