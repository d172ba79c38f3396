"""Legacy (unaggregated) discovery documents; kubectl falls back to these when aggregated discovery is absent."""

from __future__ import annotations

from .resources import Obj, ResourceType, group_versions, resources_in

SERVER_VERSION: Obj = {
    "major": "1",
    "minor": "32",
    "gitVersion": "v1.32.0-standin",
    "gitCommit": "0000000000000000000000000000000000000000",
    "gitTreeState": "clean",
    "buildDate": "2025-01-01T00:00:00Z",
    "goVersion": "go1.23.4",
    "compiler": "gc",
    "platform": "linux/amd64",
}
_VERBS = ["get", "list", "patch", "watch"]  # the verbs the stand-in serves (handler._route)


def _resource_entries(rt: ResourceType) -> list[Obj]:
    main: Obj = {
        "name": rt.plural,
        "singularName": rt.singular,
        "namespaced": rt.namespaced,
        "kind": rt.kind,
        "verbs": list(_VERBS),
        "shortNames": list(rt.short_names),
        "storageVersionHash": "",
    }
    entries = [main]
    if rt.has_status:
        entries.append(
            {
                "name": f"{rt.plural}/status",
                "singularName": "",
                "namespaced": rt.namespaced,
                "kind": rt.kind,
                "verbs": ["get", "patch", "update"],
            }
        )
    return entries


def resource_list(group: str, version: str) -> Obj | None:
    types = resources_in(group, version)
    if not types:
        return None
    return {
        "kind": "APIResourceList",
        "apiVersion": "v1",
        "groupVersion": f"{group}/{version}" if group else version,  # "v1", never "/v1"
        "resources": [entry for rt in types for entry in _resource_entries(rt)],
    }


def core_versions(server_address: str) -> Obj:
    return {
        "kind": "APIVersions",
        "versions": sorted({v for g, v in group_versions() if not g}),
        "serverAddressByClientCIDRs": [{"clientCIDR": "0.0.0.0/0", "serverAddress": server_address}],
    }


def api_group(name: str) -> Obj | None:
    versions = [{"groupVersion": f"{g}/{v}", "version": v} for g, v in group_versions() if g == name]
    if not versions:
        return None
    return {"kind": "APIGroup", "apiVersion": "v1", "name": name, "versions": versions, "preferredVersion": versions[0]}


def group_list() -> Obj:
    names = sorted({g for g, _ in group_versions() if g})
    groups: list[Obj] = []
    for name in names:
        group = api_group(name)
        assert group is not None
        groups.append({k: v for k, v in group.items() if k not in ("kind", "apiVersion")})
    return {"kind": "APIGroupList", "apiVersion": "v1", "groups": groups}


def document(path: str, server_address: str) -> Obj | None:
    """The discovery document served at `path`, or None when `path` is not a discovery endpoint."""
    if path == "/version":
        return SERVER_VERSION
    if path == "/api":
        return core_versions(server_address)
    if path == "/apis":
        return group_list()
    segs = path.strip("/").split("/")
    if len(segs) == 2 and segs[0] == "api":
        return resource_list("", segs[1])
    if len(segs) == 2 and segs[0] == "apis":
        return api_group(segs[1])
    if len(segs) == 3 and segs[0] == "apis":
        return resource_list(segs[1], segs[2])
    return None
