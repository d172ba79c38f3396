"""Nodes decoded into typed msgspec structs holding only what verification reads, straight from the JSON bytes.

A real Node is about 12 KB of JSON, most of it ``status.images``, ``managedFields``, addresses and node info; the
audit reads names, labels, taints, ``unschedulable``, extended resources and the Ready condition. lightkube
decodes a ``msgspec.Struct`` resource directly from the response bytes (``lightkube.core.decoders``), and msgspec
skips every field a struct does not declare without building it, so a LIST of 10,000 nodes keeps a few hundred
bytes per node instead of the whole object as dicts.

Every declared field accepts any JSON value, so an odd node decodes instead of failing the LIST (a value of the
wrong shape is kept as it came, and ``gpuready.verify.nodes.view_of`` degrades it to "absent", exactly as for a
node decoded into dicts). ``record_view`` builds the ``NodeView``; a test checks it equals ``node_view`` of the
same JSON for well-formed and odd nodes alike.
"""

from __future__ import annotations

from typing import Any, ClassVar

import msgspec
from lightkube.core.resource import ApiInfo, ResourceDef

from gpuready.kube.nodes_api import NodeClient
from gpuready.verify.nodes import NodeView, view_of

Scalar = str | int | float | bool | None
"""A JSON value that is not an object or an array."""


class _Condition(msgspec.Struct):
    type: Any = None
    status: Any = None
    reason: Any = None
    message: Any = None


class _Metadata(msgspec.Struct):
    name: Any = ""
    labels: Any = None
    resourceVersion: Any = ""


class _Spec(msgspec.Struct):
    taints: Any = None
    unschedulable: Any = False


class _Status(msgspec.Struct):
    capacity: Any = None
    allocatable: Any = None
    conditions: list[_Condition | Scalar | list[Any]] | dict[str, Any] | Scalar = None


class NodeRecord(msgspec.Struct):
    """A core/v1 Node as lightkube lists and watches it (``_api_info``), with only the fields the audit reads."""

    _api_info: ClassVar[ApiInfo] = ApiInfo(
        resource=ResourceDef("", "v1", "Node"), plural="nodes", verbs=["list", "watch"]
    )

    metadata: _Metadata | Scalar | list[Any] = None
    spec: _Spec | Scalar | list[Any] = None
    status: _Status | Scalar | list[Any] = None

    @property
    def name(self) -> str:
        """``metadata.name`` as text (``""`` when absent), as a LIST keys nodes by name."""
        return str(self.metadata.name) if isinstance(self.metadata, _Metadata) else ""

    @property
    def resource_version(self) -> str:
        """``metadata.resourceVersion`` as text (``""`` when absent)."""
        return str(self.metadata.resourceVersion) if isinstance(self.metadata, _Metadata) else ""

    def view(self) -> NodeView:
        """``record_view`` of this node (``gpuready.verify.nodes.DecodedNode``)."""
        return record_view(self)


def record_view(record: NodeRecord) -> NodeView:
    """The ``NodeView`` of a decoded node: the same as ``node_view`` of the node's JSON as dicts."""
    metadata = record.metadata if isinstance(record.metadata, _Metadata) else _Metadata(name="")
    spec = record.spec if isinstance(record.spec, _Spec) else _Spec()
    status = record.status if isinstance(record.status, _Status) else _Status()
    conditions: object = status.conditions
    if isinstance(status.conditions, list):
        conditions = [_condition_mapping(c) if isinstance(c, _Condition) else c for c in status.conditions]
    return view_of(
        name=metadata.name,
        labels=metadata.labels,
        taints=spec.taints,
        unschedulable=spec.unschedulable,
        capacity=status.capacity,
        allocatable=status.allocatable,
        conditions=conditions,
    )


def _condition_mapping(condition: _Condition) -> dict[str, Any]:
    """The condition as ``node_view`` reads it: absent keys stay absent (``.get`` then sees None, as here)."""
    return {"type": condition.type, "status": condition.status, "reason": condition.reason,
            "message": condition.message}  # fmt: skip


def list_views(client: NodeClient, selector: str = "") -> list[NodeView]:
    """Every node matching ``selector`` as a ``NodeView``, each page decoded into ``NodeRecord``s."""
    return [record_view(record) for record in client.list_nodes(selector, NodeRecord).items]
