"""The advertisers gpuready knows, in order, and the one place that decides which one a pool uses. Pure.

Adding a way of advertising GPUs (DRA next, issue #15) is one ``Advertiser`` implementation in this package
plus one entry in ``ADVERTISERS``; the pool's choice is made in ``advertiser_for`` only.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from components.core.advertisers.extended_resources import EXTENDED_RESOURCES
from components.core.advertisers.interface import Advertiser

if TYPE_CHECKING:
    from components.core.specs import GpuPoolSpec

ADVERTISERS: tuple[Advertiser, ...] = (EXTENDED_RESOURCES,)
"""Every advertiser, in the order node resources are matched against them."""

_BY_KEY: Mapping[str, Advertiser] = {a.key: a for a in ADVERTISERS}


def advertiser_named(key: str) -> Advertiser:
    """The advertiser registered under ``key``; raises ``KeyError`` naming the known ones."""
    try:
        return _BY_KEY[key]
    except KeyError:
        raise KeyError(f"no GPU advertiser {key!r}; known: {', '.join(_BY_KEY)}") from None


def advertiser_for(spec: GpuPoolSpec) -> Advertiser:
    """How ``spec``'s GPUs are advertised: the one place a pool's advertiser is decided."""
    return EXTENDED_RESOURCES


def advertiser_for_node(capacity: Mapping[str, int]) -> Advertiser:
    """The advertiser whose resources a node no known pool owns carries (the first in order by default)."""
    for advertiser in ADVERTISERS:
        if any(advertiser.is_gpu_resource(name) for name in capacity):
            return advertiser
    return ADVERTISERS[0]


def is_gpu_resource(name: str) -> bool:
    """Whether a node resource name is a GPU resource of any advertiser."""
    return any(a.is_gpu_resource(name) for a in ADVERTISERS)
