"""The records of nodes over the Kubernetes API: the generic core/v1 ``Node`` resource lightkube lists, watches and
patches (``nodes_api.NodeClient``), a LIST's nodes with its resourceVersion, one WATCH event."""

from __future__ import annotations

from typing import Any

from lightkube.core.resource import ApiInfo, ResourceDef
from lightkube.generic_resource import GenericGlobalResource

from gpuready.record import record


class Node(GenericGlobalResource):
    """core/v1 Node as a lightkube generic resource: lightkube decodes nodes into dicts, never into its models.

    It is what ``create_global_resource("", "v1", "Node", "nodes")`` builds, declared the way lightkube declares
    its own resources instead, so it stays out of lightkube's process-wide resource registry: registering a
    generic core/v1 Node there would fail if ``lightkube.codecs`` had loaded the real Node model first, and
    would make ``codecs`` return dicts for Nodes everywhere else in the process.
    """

    _api_info = ApiInfo(resource=ResourceDef("", "v1", "Node"), plural="nodes", verbs=["get", "list", "watch", "patch"])


@record(frozen=True, slots=True)
class NodeList:
    """All nodes of one (possibly paginated) LIST and the resourceVersion to watch from."""

    items: list[Any]
    """Dicts, or the structs ``list_nodes`` was asked for."""
    resource_version: str


@record(frozen=True, slots=True)
class WatchEvent:
    """One watch event: ADDED, MODIFIED, DELETED or BOOKMARK."""

    type: str
    object: dict[str, Any]

    @property
    def resource_version(self) -> str:
        return str(self.object.get("metadata", {}).get("resourceVersion", ""))
