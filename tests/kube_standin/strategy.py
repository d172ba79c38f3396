"""Per-kind write rules, in the spirit of the apiserver's registry strategies."""

from __future__ import annotations

import copy
from typing import Any

from . import errors
from .resources import Obj, ResourceType


def meta_of(obj: Obj) -> Obj:
    meta = obj.setdefault("metadata", {})
    if not isinstance(meta, dict):
        raise errors.bad_request("Object 'metadata' is not an object")
    return meta


_KEPT_META = ("name", "namespace", "uid", "creationTimestamp", "deletionTimestamp", "deletionGracePeriodSeconds")


def defaults_on_create(rt: ResourceType, obj: Obj, http: bool) -> None:
    """What the apiserver fills in on create; `http` False (test code seeding the store) keeps status as given."""
    if rt.plural == "namespaces":
        obj.setdefault("spec", {}).setdefault("finalizers", ["kubernetes"])
        obj.setdefault("status", {}).setdefault("phase", "Active")
        meta_of(obj).setdefault("labels", {})["kubernetes.io/metadata.name"] = obj["metadata"]["name"]
    elif http and rt.plural == "pods":
        obj["status"] = {"phase": "Pending"}
    elif http and rt.plural == "daemonsets":
        obj["status"] = {
            "currentNumberScheduled": 0,
            "desiredNumberScheduled": 0,
            "numberMisscheduled": 0,
            "numberReady": 0,
        }


def apply_write_rules(rt: ResourceType, old: Obj, new: Obj, subresource: str | None, http: bool) -> Obj:
    """The object an update stores: identity kept from `old`; over HTTP, spec and status split by subresource."""
    new = copy.deepcopy(new)
    new["apiVersion"], new["kind"] = rt.api_version, rt.kind
    meta, old_meta = meta_of(new), old["metadata"]
    for field in _KEPT_META:
        if field in old_meta:
            meta[field] = old_meta[field]
        else:
            meta.pop(field, None)
    meta["resourceVersion"] = old_meta["resourceVersion"]
    if http and rt.has_status:
        # The main resource ignores status changes and /status ignores spec changes, as on a real apiserver.
        keep = "spec" if subresource == "status" else "status"
        if keep in old:
            new[keep] = copy.deepcopy(old[keep])
        else:
            new.pop(keep, None)
    if rt.plural == "namespaces":
        meta.setdefault("labels", {})["kubernetes.io/metadata.name"] = meta["name"]
    if rt.tracks_generation:
        generation = int(old_meta.get("generation", 1))
        meta["generation"] = generation + 1 if new.get("spec") != old.get("spec") else generation
    return new


def same_object(old: Obj, new: Obj) -> bool:
    """A no-op write: the apiserver then keeps the resourceVersion and emits no watch event."""
    return bool(_without_rv(old) == _without_rv(new))


def _without_rv(obj: Obj) -> Any:
    clone = dict(obj)
    clone["metadata"] = {k: v for k, v in obj["metadata"].items() if k not in ("resourceVersion", "managedFields")}
    return clone
