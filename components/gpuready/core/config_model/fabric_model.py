"""``fabric`` of a ``gpuready:nodePools`` entry: a fabric kind, or a mapping with its kind and placement. Pure.

The kind's validity on the pool's instance types and the cloud's own rules are checked once, by
``gpuready.core.fabric.rules``, when the spec is made.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, cast

from pydantic import model_validator

from gpuready.core.config_model.base import ConfigModel, Words
from gpuready.core.config_model.problems import config_error
from gpuready.core.fabric.model import FABRIC_KINDS, FabricKind, FabricSpec


class FabricConfig(ConfigModel):
    """``fabric``: ``efa`` (or another kind), or ``{kind: efa, placementGroup: create}``."""

    shape: ClassVar = Words("must be a fabric kind or a mapping", "fabric: efa, or fabric: {kind: efa}")
    shape_allowed: ClassVar = FABRIC_KINDS

    kind: str
    """The node fabric: efa (EKS), gpudirect-tcpx, gpudirect-tcpxo, gpudirect-rdma (GKE), infiniband (AKS)."""
    placement_group: str | None = None
    """``create`` (gpuready makes a cluster placement group with the pool) or the name of one made elsewhere;
    unset: the cloud's default (EKS: create)."""

    @model_validator(mode="before")
    @classmethod
    def _from_kind(cls, data: Any) -> Any:
        if isinstance(data, str):
            return {"kind": data}
        if not isinstance(data, Mapping):
            raise config_error("must be a fabric kind or a mapping with a kind", "fabric: efa, or fabric: {kind: efa}")
        return data

    def to_spec(self) -> FabricSpec:
        kind = cast("FabricKind", self.kind)  # checked by fabric.rules, once, when the spec is made
        return FabricSpec(kind=kind, placement_group=self.placement_group)
