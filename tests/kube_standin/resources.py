"""The resource kinds the stand-in serves, and the shape of their API paths."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

Obj = dict[str, Any]


@dataclass(frozen=True)
class ResourceType:
    group: str  # "" for the core group
    version: str
    plural: str
    singular: str
    kind: str
    namespaced: bool
    short_names: tuple[str, ...] = ()
    has_status: bool = True

    @property
    def api_version(self) -> str:
        return f"{self.group}/{self.version}" if self.group else self.version

    @property
    def list_kind(self) -> str:
        return f"{self.kind}List"

    def base_path(self) -> str:
        if self.group:
            return f"/apis/{self.group}/{self.version}"
        return f"/api/{self.version}"

    def collection_path(self, namespace: str | None = None) -> str:
        if self.namespaced and namespace:
            return f"{self.base_path()}/namespaces/{namespace}/{self.plural}"
        return f"{self.base_path()}/{self.plural}"


NODES = ResourceType("", "v1", "nodes", "node", "Node", False, ("no",))
NAMESPACES = ResourceType("", "v1", "namespaces", "namespace", "Namespace", False, ("ns",))
RESOURCE_SLICES = ResourceType(
    "resource.k8s.io", "v1", "resourceslices", "resourceslice", "ResourceSlice", False, has_status=False
)

JOBS = ResourceType("batch", "v1", "jobs", "job", "Job", True)
PODS = ResourceType("", "v1", "pods", "pod", "Pod", True, ("po",))
SERVICES = ResourceType("", "v1", "services", "service", "Service", True, ("svc",))

# Nodes are what the product reads and labels; namespaces exist so kubeconfig contexts name a real one;
# ResourceSlices are what DRA verification lists (a cluster without resource.k8s.io: inject a 404 on their path);
# Jobs and Pods (and a pod's log) are what the GPU smoke test creates, reads and deletes. Nothing runs them: a test
# plays the Job controller and the kubelet (``Store.put`` of a Pod, ``Store.logs``), or leaves a Job never starting.
# Services are the headless Service of a fabric pool's two-node NCCL smoke run.
RESOURCE_TYPES: tuple[ResourceType, ...] = (NODES, NAMESPACES, RESOURCE_SLICES, JOBS, PODS, SERVICES)
SUBRESOURCES: dict[str, tuple[str, ...]] = {"pods": ("status", "log"), "jobs": ("status",)}

# (group, version) -> plural -> type
_BY_GROUP_VERSION: dict[tuple[str, str], dict[str, ResourceType]] = {}
for _rt in RESOURCE_TYPES:
    _BY_GROUP_VERSION.setdefault((_rt.group, _rt.version), {})[_rt.plural] = _rt


def group_versions() -> list[tuple[str, str]]:
    return list(_BY_GROUP_VERSION)


def resources_in(group: str, version: str) -> list[ResourceType]:
    return list(_BY_GROUP_VERSION.get((group, version), {}).values())


def lookup_plural(group: str, version: str, plural: str) -> ResourceType | None:
    return _BY_GROUP_VERSION.get((group, version), {}).get(plural)


def resolve(kind: str | ResourceType) -> ResourceType:
    """Find a type by kind ("Node"), plural ("nodes"), singular or short name ("no")."""
    if isinstance(kind, ResourceType):
        return kind
    wanted = kind.lower()
    for rt in RESOURCE_TYPES:
        if wanted in (rt.kind.lower(), rt.plural, rt.singular, *rt.short_names):
            return rt
    raise KeyError(f"the stand-in does not serve {kind!r}")


def type_of(obj: Obj) -> ResourceType:
    """The type of a full object, from its kind and apiVersion."""
    kind = obj.get("kind")
    if not isinstance(kind, str):
        raise ValueError("object has no kind")
    rt = resolve(kind)
    api_version = obj.get("apiVersion", rt.api_version)
    if api_version != rt.api_version:
        raise ValueError(f"{kind} is served as {rt.api_version}, not {api_version}")
    return rt


@dataclass(frozen=True)
class Target:
    """What a resource URL addresses."""

    rt: ResourceType
    namespace: str | None
    name: str | None
    subresource: str | None
    legacy_watch: bool


def parse_resource_path(path: str) -> Target | None:
    """Parse /api/v1/... or /apis/<group>/<version>/...; None when no served resource matches."""
    segs = [s for s in path.split("/") if s]
    if len(segs) >= 2 and segs[0] == "api":
        group, version, rest = "", segs[1], segs[2:]
    elif len(segs) >= 3 and segs[0] == "apis":
        group, version, rest = segs[1], segs[2], segs[3:]
    else:
        return None
    legacy_watch = bool(rest) and rest[0] == "watch"
    if legacy_watch:
        rest = rest[1:]
    namespace: str | None = None
    if len(rest) >= 3 and rest[0] == "namespaces":
        inner = lookup_plural(group, version, rest[2])
        if inner is not None and inner.namespaced:
            namespace, rest = rest[1], rest[2:]
    if not rest or len(rest) > 3:
        return None
    rt = lookup_plural(group, version, rest[0])
    if rt is None or (namespace is not None and not rt.namespaced):
        return None
    name = rest[1] if len(rest) >= 2 else None
    sub = rest[2] if len(rest) == 3 else None
    if sub is not None and sub not in SUBRESOURCES.get(rt.plural, ("status",) if rt.has_status else ()):
        return None
    return Target(rt, namespace, name, sub, legacy_watch)
